#include "formats/executorch/flat_tensor_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "core/bytes.h"
#include "core/checked_math.h"
#include "core/expansion_budget.h"
#include "flat_tensor_generated.h"
#include "flat_tensor_v0_generated.h"
#include "formats/executorch/scalar_type.h"
#include "formats/flatbuffer_verify.h"

namespace etviz::executorch {

Result<FlatTensorHeader> read_flat_tensor_header(std::span<const uint8_t> bytes) {
  if (bytes.size() < 48)
    return Error(
        fmt::format("file is {} bytes, too short for a FlatTensor header (48)", bytes.size()));
  if (std::memcmp(bytes.data() + 4, "FT01", 4) != 0)
    return Error(fmt::format("expected identifier 'FT01' at bytes 4..8, found '{}'",
                             printable_tag(bytes.subspan(4, 4))));
  if (std::memcmp(bytes.data() + 8, "FH01", 4) != 0)
    return Error(fmt::format("expected FlatTensor header magic 'FH01' at bytes 8..12, found '{}'",
                             printable_tag(bytes.subspan(8, 4))));
  FlatTensorHeader h;
  h.length = load_le<uint32_t>(bytes.data() + 12);
  h.flatbuffer_offset = load_le<uint64_t>(bytes.data() + 16);
  h.flatbuffer_size = load_le<uint64_t>(bytes.data() + 24);
  h.segment_base_offset = load_le<uint64_t>(bytes.data() + 32);
  h.segment_data_size = load_le<uint64_t>(bytes.data() + 40);
  if (h.length < 40) return Error(fmt::format("FlatTensor header length {} is below 40", h.length));
  if (h.flatbuffer_offset > bytes.size() || h.flatbuffer_size > bytes.size() - h.flatbuffer_offset)
    return Error(fmt::format(
        "FlatTensor header: flatbuffer (offset {}, size {}) extends past the end ({} bytes)",
        h.flatbuffer_offset, h.flatbuffer_size, bytes.size()));
  h.segment_data_present =
      h.segment_base_offset >= bytes.size()
          ? 0
          : std::min(h.segment_data_size, bytes.size() - h.segment_base_offset);
  return h;
}

namespace {

// The two layouts share the identifier; the old root table has 4-5 fields, the new at most 3.
Result<int> root_field_count(std::span<const uint8_t> fb) {
  if (fb.size() < 8)
    return Error(fmt::format("flatbuffer of {} bytes is too short for a root table", fb.size()));
  const uint32_t root = load_le<uint32_t>(fb.data());
  if (root > fb.size() - 4) return Error("root table offset points past the end");
  const int32_t vt_rel = load_le<int32_t>(fb.data() + root);
  const int64_t vtable = static_cast<int64_t>(root) - vt_rel;
  if (vtable < 0 || static_cast<uint64_t>(vtable) + 4 > fb.size())
    return Error("root vtable lies outside the buffer");
  const uint16_t vt_size = load_le<uint16_t>(fb.data() + vtable);
  return vt_size < 4 ? 0 : (vt_size - 4) / 2;
}

TensorInfo tensor_layout(int scalar_type, const flatbuffers::Vector<int32_t>* sizes,
                         const flatbuffers::Vector<uint8_t>* dim_order) {
  TensorInfo t;
  t.dtype = scalar_type_name(scalar_type);
  if (sizes)
    for (int32_t s : *sizes) t.shape.push_back(Dim{s, {}});
  if (dim_order) t.dim_order.assign(dim_order->begin(), dim_order->end());
  if (auto b = t.byte_size()) t.nbytes = *b;
  return t;
}

Status read_into(Document& doc, int32_t source) {
  auto bytes = doc.sources[source]->bytes();
  auto header = read_flat_tensor_header(bytes);
  if (!header) return header.error();
  auto fb = bytes.first(header->flatbuffer_offset + header->flatbuffer_size);
  auto fields = root_field_count(fb);
  if (!fields) return fields.error();
  ExpansionBudget budget(bytes.size());
  const uint64_t seg_base = header->segment_base_offset;
  const uint64_t present = header->segment_data_present;
  size_t blobs = 0, cut = 0;  // blobs whose bytes the end of the file cuts off
  auto segment_blob = [&](uint64_t offset, uint64_t size,
                          const std::string& what) -> Result<BlobRef> {
    if (offset > header->segment_data_size || size > header->segment_data_size - offset)
      return Error(fmt::format("{} (offset {}, size {}) lies outside the segment data ({} bytes)",
                               what, offset, size, header->segment_data_size));
    ++blobs;
    const uint64_t kept = offset >= present ? 0 : std::min(size, present - offset);
    if (kept < size) ++cut;
    return BlobRef{source, seg_base + std::min(offset, present), kept};
  };
  const auto report_cut = [&] {
    if (present < header->segment_data_size)
      doc.damaged(fmt::format(
          "segment data (offset {}, size {}) extends past the end of the file ({} bytes): {} of "
          "its bytes are missing (the file is cut off or corrupt), so {} of {} tensors lack all "
          "or part of their data; their names and layouts are shown",
          seg_base, header->segment_data_size, bytes.size(), header->segment_data_size - present,
          cut, blobs));
  };

  // Both layouts name whole segments by key and index.
  auto named_segment = [&](const auto* segments, std::string key,
                           uint64_t index) -> Result<NamedBlob> {
    const size_t nseg = segments ? segments->size() : 0;
    if (index >= nseg)
      return Error(
          fmt::format("named data '{}' names segment {} but there are {}", key, index, nseg));
    const auto* seg = segments->Get(static_cast<flatbuffers::uoffset_t>(index));
    auto ref = segment_blob(seg->offset(), seg->size(), fmt::format("segment {}", index));
    if (!ref) return ref.error();
    NamedBlob blob;
    blob.key = std::move(key);
    blob.blob = *ref;
    return blob;
  };

  if (*fields <= 3) {
    if (auto s = verify_flatbuffer<etviz::ptd::FlatTensor>(fb, nullptr, "FlatTensor flatbuffer");
        !s)
      return s;
    const auto* root = flatbuffers::GetRoot<etviz::ptd::FlatTensor>(fb.data());
    doc.format_version = fmt::format("FT01 (2025-06 layout), version {}", root->version());
    const auto* segments = root->segments();
    if (const auto* named = root->named_data()) {
      for (const auto* nd : *named) {
        if (!budget.charge(1 + (nd->tensor_layout() && nd->tensor_layout()->sizes()
                                    ? nd->tensor_layout()->sizes()->size()
                                    : 0)))
          return ExpansionBudget::exhausted_error();
        auto blob = named_segment(segments, nd->key() ? nd->key()->str() : "", nd->segment_index());
        if (!blob) return blob.error();
        if (const auto* layout = nd->tensor_layout())
          blob->tensor = tensor_layout(layout->scalar_type(), layout->sizes(), layout->dim_order());
        doc.named_data.push_back(std::move(*blob));
      }
    }
  } else {
    if (auto s = verify_flatbuffer<etviz::ptd_v0::FlatTensor>(fb, nullptr, "FlatTensor flatbuffer");
        !s)
      return s;
    const auto* root = flatbuffers::GetRoot<etviz::ptd_v0::FlatTensor>(fb.data());
    doc.format_version = fmt::format("FT01 (early-2025 layout), version {}", root->version());
    doc.properties.push_back({"tensor_alignment", std::to_string(root->tensor_alignment())});
    const auto* segments = root->segments();
    const size_t nseg = segments ? segments->size() : 0;
    if (const auto* tensors = root->tensors()) {
      for (const auto* t : *tensors) {
        if (!budget.charge(1 + (t->sizes() ? t->sizes()->size() : 0)))
          return ExpansionBudget::exhausted_error();
        NamedBlob blob;
        blob.key = t->fully_qualified_name() ? t->fully_qualified_name()->str() : "";
        blob.tensor = tensor_layout(t->scalar_type(), t->sizes(), t->dim_order());
        if (t->segment_index() < 0 || static_cast<size_t>(t->segment_index()) >= nseg)
          return Error(fmt::format("tensor '{}' names segment {} but there are {}", blob.key,
                                   t->segment_index(), nseg));
        const auto* seg = segments->Get(t->segment_index());
        const uint64_t size =
            blob.tensor->nbytes >= 0 ? static_cast<uint64_t>(blob.tensor->nbytes) : 0;
        if (t->offset() > seg->size() || size > seg->size() - t->offset())
          return Error(
              fmt::format("tensor '{}' ({} bytes at offset {}) overruns its segment of {} bytes",
                          blob.key, size, t->offset(), seg->size()));
        const auto at =
            checked_add(static_cast<uint64_t>(seg->offset()), static_cast<uint64_t>(t->offset()));
        if (!at)
          return Error(fmt::format("tensor '{}': segment offset {} + tensor offset {} overflows",
                                   blob.key, seg->offset(), t->offset()));
        auto ref = segment_blob(*at, size, fmt::format("tensor '{}'", blob.key));
        if (!ref) return ref.error();
        blob.blob = *ref;
        doc.named_data.push_back(std::move(blob));
      }
    }
    if (const auto* named = root->named_data()) {
      for (const auto* nd : *named) {
        auto blob = named_segment(segments, nd->key() ? nd->key()->str() : "", nd->segment_index());
        if (!blob) return blob.error();
        doc.named_data.push_back(std::move(*blob));
      }
    }
  }
  report_cut();
  return Status::Ok();
}

}  // namespace

Result<Document> read_flat_tensor_file(std::shared_ptr<const MappedFile> file) {
  Document doc;
  doc.format = DocumentFormat::kFlatTensor;
  doc.sources.push_back(file);
  if (auto s = read_into(doc, 0); !s) return s.error().within(file->path());
  auto h = read_flat_tensor_header(file->bytes());
  doc.sections.push_back(
      {"flatbuffer", "flatbuffer", 0, h->flatbuffer_offset + h->flatbuffer_size});
  doc.sections.push_back({"segment data", "segment",
                          std::min<uint64_t>(h->segment_base_offset, file->size()),
                          h->segment_data_present});
  return doc;
}

Status attach_flat_tensor(Document& program, std::shared_ptr<const MappedFile> ptd) {
  Document data;
  data.sources.push_back(ptd);
  if (auto s = read_into(data, 0); !s) return s.error().within(ptd->path());
  const auto source = static_cast<int32_t>(program.sources.size());
  program.sources.push_back(ptd);
  std::set<std::string> keys;
  for (NamedBlob& blob : data.named_data) {
    blob.blob.source = source;
    keys.insert(blob.key);
    program.named_data.push_back(std::move(blob));
  }
  std::set<std::string> missing;
  size_t external = 0, resolved = 0;
  for (const Graph& g : program.graphs)
    for (const Value& v : g.values)
      if (v.kind == ValueKind::kTensor && v.tensor.data_location == DataLocation::kExternal) {
        ++external;
        if (keys.count(v.tensor.data_key))
          ++resolved;
        else
          missing.insert(v.tensor.data_key);
      }
  for (const std::string& key : missing)
    program.warn(fmt::format("external tensor '{}' is not in {}", key, ptd->path()));
  for (Diagnostic& d : data.diagnostics)
    program.diagnostics.push_back({d.severity, ptd->path() + ": " + d.message});
  program.note(fmt::format("{}: {} named blobs; {} external tensor references, {} resolved",
                           ptd->path(), data.named_data.size(), external, resolved));
  return Status::Ok();
}

}  // namespace etviz::executorch
