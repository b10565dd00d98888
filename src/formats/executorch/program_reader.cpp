#include "formats/executorch/program_reader.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/budget.h"
#include "core/expansion_budget.h"
#include "formats/executorch/method_graph_builder.h"
#include "formats/executorch/program_header.h"
#include "formats/flatbuffer_verify.h"
#include "program_generated.h"

namespace etviz::executorch {
namespace {

namespace fb = etviz::pte;

// Where each segment's bytes sit in the source file, checked against its size. A segment that
// runs past the end of the file (a cut-off download, a partial copy) keeps the bytes that are
// there; `missing` says how many are not, and the reader reports the damage and goes on.
struct SegmentSpan {
  uint64_t offset = 0;  // absolute, within the source file
  uint64_t size = 0;    // bytes present
  uint64_t missing = 0;
  uint64_t declared_offset = 0;  // as the program states it, from the segment base
};

Result<std::vector<SegmentSpan>> locate_segments(const fb::Program& program,
                                                 const ProgramHeader& header, uint64_t base,
                                                 uint64_t bytes_size) {
  std::vector<SegmentSpan> spans;
  const auto* segments = program.segments();
  if (!segments || segments->size() == 0) return spans;
  const uint64_t seg_base = header.extended ? header.extended->segment_base_offset : 0;
  for (flatbuffers::uoffset_t i = 0; i < segments->size(); ++i) {
    const fb::DataSegment* s = segments->Get(i);
    // Writers emit an empty placeholder segment even when there is no extended header.
    if (!header.extended) {
      if (s->size() != 0)
        return Error(
            fmt::format("segment {} holds {} bytes but the program has no extended header "
                        "to locate segment data",
                        i, s->size()));
      spans.push_back({base, 0});
      continue;
    }
    // Checked: offset and base come from the file and may be near UINT64_MAX.
    const uint64_t start =
        s->offset() > UINT64_MAX - seg_base ? UINT64_MAX : seg_base + s->offset();
    const uint64_t present = start >= bytes_size ? 0 : std::min(s->size(), bytes_size - start);
    spans.push_back(
        {base + std::min(start, bytes_size), present, s->size() - present, s->offset()});
  }
  return spans;
}

std::string segment_label(size_t i, const std::map<size_t, std::vector<std::string>>& users) {
  auto it = users.find(i);
  if (it == users.end()) return fmt::format("segment {}", i);
  // "QnnBackend payload x2" when several delegates share one segment.
  std::string uses;
  const auto& list = it->second;
  for (size_t k = 0; k < list.size(); ++k) {
    if (std::find(list.begin(), list.begin() + static_cast<long>(k), list[k]) !=
        list.begin() + static_cast<long>(k))
      continue;
    const auto n = std::count(list.begin(), list.end(), list[k]);
    uses += (uses.empty() ? "" : ", ") + list[k] + (n > 1 ? fmt::format(" x{}", n) : "");
  }
  return fmt::format("segment {} ({})", i, uses);
}

}  // namespace

// Plans this large give their pages back between passes (ProgramContext::release_pages); small
// ones keep them, since the delegates and the size report read them again.
constexpr uint64_t kReleasePagesFrom = 100'000;

Status read_program_into(Document& doc, int32_t source, uint64_t base,
                         std::span<const uint8_t> bytes) {
  auto header = read_program_header(bytes);
  if (!header) return header.error();
  if (header->identifier != kProgramIdentifier) {
    if (header->identifier == "ET02")
      return Error(
          "file identifier 'ET02' is the pre-release 2023 ExecuTorch schema, which etviz does "
          "not read; re-export the model with a current ExecuTorch release (identifier 'ET12')");
    return Error(fmt::format(
        "file identifier '{}' at bytes 4..8 is not an ExecuTorch program identifier etviz reads "
        "(supported: '{}')",
        header->identifier, kProgramIdentifier));
  }
  auto fb_bytes = bytes.first(header->flatbuffer_size);
  if (auto s = verify_flatbuffer<fb::Program>(fb_bytes, "ET12", "program"); !s) return s;
  const fb::Program* program = flatbuffers::GetRoot<fb::Program>(fb_bytes.data());
  ExpansionBudget budget(bytes.size());

  auto spans = locate_segments(*program, *header, base, bytes.size());
  if (!spans) return spans.error();
  const auto blob_of_segment = [&](size_t i) {
    return BlobRef{source, (*spans)[i].offset, (*spans)[i].size};
  };

  doc.format_version = fmt::format("ET12 schema version {}", program->version());
  doc.properties.push_back({"identifier", header->identifier});
  doc.properties.push_back({"schema_version", std::to_string(program->version())});
  if (header->extended) {
    doc.properties.push_back(
        {"extended_header", fmt::format("eh00, {} bytes", header->extended->length)});
  } else {
    doc.properties.push_back({"extended_header", "none"});
  }
  const bool legacy_constants =
      program->constant_buffer() && program->constant_buffer()->size() > 0;
  doc.properties.push_back({"constant_storage", legacy_constants
                                                    ? "constant_buffer (legacy, inline)"
                                                    : "constant_segment"});

  // Which segment feeds what, for the size report.
  std::map<size_t, std::vector<std::string>> segment_users;
  const auto use_segment = [&](uint64_t index, std::string what) -> Status {
    if (index >= spans->size())
      return Error(fmt::format("{} names segment {} but the program has {} segments", what, index,
                               spans->size()));
    segment_users[index].push_back(std::move(what));
    return Status::Ok();
  };
  if (const auto* cs = program->constant_segment()) {
    if (cs->offsets() && cs->offsets()->size() > 1) {
      if (auto s = use_segment(cs->segment_index(), "constants"); !s) return s;
    }
  }
  if (const auto* mds = program->mutable_data_segments()) {
    for (const auto* m : *mds)
      if (auto s = use_segment(m->segment_index(), "mutable data"); !s) return s;
  }
  if (const auto* named = program->named_data()) {
    if (!budget.charge(named->size())) return ExpansionBudget::exhausted_error();
    for (flatbuffers::uoffset_t i = 0; i < named->size(); ++i) {
      const fb::NamedData* nd = named->Get(i);
      NamedBlob blob;
      blob.key = nd->key() ? nd->key()->str() : "";
      // Keys are often 64-hex-digit hashes; a prefix identifies them in a size report.
      const std::string shown = blob.key.size() > 16 ? blob.key.substr(0, 12) + "..." : blob.key;
      if (auto s = use_segment(nd->segment_index(), "named data '" + shown + "'"); !s) return s;
      blob.blob = blob_of_segment(nd->segment_index());
      doc.named_data.push_back(std::move(blob));
    }
  }

  // A constant's bytes (docs/formats.md, "Constants"): entry `index` of the legacy inline
  // constant_buffer, of the constant segment's offsets, or of a mutable data segment's. The
  // range is the tensor's size from its shape (the entry's when that is unknown), cut to what
  // the file holds: a segment cut off keeps its first bytes and a diff says how many.
  const auto subsegment = [&](const fb::SubsegmentOffsets* sub, int64_t index,
                              int64_t nbytes) -> BlobRef {
    if (!sub || !sub->offsets() || index <= 0 ||
        static_cast<uint64_t>(index) >= sub->offsets()->size() ||
        sub->segment_index() >= spans->size())
      return {};
    const SegmentSpan& span = (*spans)[sub->segment_index()];
    const uint64_t at = sub->offsets()->Get(static_cast<flatbuffers::uoffset_t>(index));
    const uint64_t whole = span.size + span.missing;
    uint64_t size = nbytes >= 0 ? static_cast<uint64_t>(nbytes) : 0;
    if (nbytes < 0)  // no size from the shape: up to the next entry or the segment's end
      size = static_cast<uint64_t>(index) + 1 < sub->offsets()->size()
                 ? sub->offsets()->Get(static_cast<flatbuffers::uoffset_t>(index + 1)) - at
                 : (whole > at ? whole - at : 0);
    if (at >= span.size) return BlobRef{source, span.offset + span.size, 0};
    return BlobRef{source, span.offset + at, std::min(size, span.size - at)};
  };
  const auto locate_data = [&](DataLocation where, int64_t index, int64_t nbytes) -> BlobRef {
    switch (where) {
      case DataLocation::kInline: {
        const auto* buffers = program->constant_buffer();
        if (!buffers || index < 0 || static_cast<uint64_t>(index) >= buffers->size()) return {};
        const auto* storage = buffers->Get(static_cast<flatbuffers::uoffset_t>(index))->storage();
        if (!storage) return BlobRef{source, base, 0};
        return BlobRef{source, base + static_cast<uint64_t>(storage->data() - bytes.data()),
                       storage->size()};
      }
      case DataLocation::kConstantSegment:
        return subsegment(program->constant_segment(), index, nbytes);
      case DataLocation::kMutableSegment: {
        // The runtime reads initial state from mutable_data_segments[0], whatever the tensor's
        // mutable_data_segments_idx says (runtime/executor/tensor_parser_exec_aten.cpp).
        const auto* mds = program->mutable_data_segments();
        if (!mds || mds->size() == 0) return {};
        return subsegment(mds->Get(0), index, nbytes);
      }
      default:
        return {};  // named data and .ptd tensors: by key, once every file is read
    }
  };

  const auto* plans = program->execution_plan();
  const auto* inline_data = program->backend_delegate_data();
  uint64_t instructions = 0;  // of the methods so far: one graph node each
  for (flatbuffers::uoffset_t p = 0; plans && p < plans->size(); ++p) {
    const fb::ExecutionPlan* plan = plans->Get(p);
    const std::string method = plan->name() ? plan->name()->str() : "";
    // The run's node budget (core/budget.h), before the graph is built.
    if (const auto* chains = plan->chains())
      for (const auto* chain : *chains)
        if (chain->instructions()) instructions += chain->instructions()->size();
    if (instructions > run_budget().nodes)
      return over_budget(fmt::format("method '{}' instructions (one graph node each)", method),
                         instructions, run_budget().nodes, "--max-nodes", false);
    ProgramContext ctx;
    ctx.legacy_constant_buffer = legacy_constants;
    ctx.locate_data = locate_data;
    std::vector<std::string> warnings, notes;
    ctx.warnings = &warnings;
    ctx.notes = &notes;
    if (source >= 0 && static_cast<size_t>(source) < doc.sources.size() && doc.sources[source] &&
        instructions >= kReleasePagesFrom)
      ctx.release_pages = [file = doc.sources[source]] { file->release_pages(); };
    const auto* delegates = plan->delegates();
    for (flatbuffers::uoffset_t d = 0; delegates && d < delegates->size(); ++d) {
      const fb::BackendDelegate* bd = delegates->Get(d);
      Delegate del;
      del.backend_id = bd->id() ? bd->id()->str() : "";
      del.method = method;
      del.index_in_method = static_cast<int32_t>(d);
      if (const auto* specs = bd->compile_specs()) {
        for (const fb::CompileSpec* cs : *specs) {
          CompileSpec spec;
          if (cs->key()) spec.key = cs->key()->str();
          if (cs->value()) {
            if (!budget.charge(cs->value()->size())) return ExpansionBudget::exhausted_error();
            spec.value.assign(cs->value()->begin(), cs->value()->end());
          }
          del.compile_specs.push_back(std::move(spec));
        }
      }
      const std::string what =
          fmt::format("method '{}' delegate {} ({})", method, d, del.backend_id);
      const fb::BackendDelegateDataReference* ref = bd->processed();
      if (!ref) return Error(what + ": no payload reference");
      del.payload_index = ref->index();
      if (ref->location() == 0) {
        del.payload_location = "inline";
        if (!inline_data || ref->index() >= inline_data->size())
          return Error(
              fmt::format("{}: inline payload index {} but the program has {} inline blobs", what,
                          ref->index(), inline_data ? inline_data->size() : 0));
        const auto* data = inline_data->Get(ref->index())->data();
        if (data) {
          const uint64_t offset = static_cast<uint64_t>(data->data() - bytes.data());
          del.payload = BlobRef{source, base + offset, data->size()};
        } else {
          del.payload = BlobRef{source, base, 0};
        }
      } else if (ref->location() == 1) {
        del.payload_location = "segment";
        if (auto s = use_segment(ref->index(), del.backend_id + " payload"); !s)
          return Error(what + ": " + s.error().message());
        del.payload = blob_of_segment(ref->index());
      } else {
        return Error(fmt::format("{}: unknown payload location {}", what, ref->location()));
      }
      ctx.delegate_ids.push_back(static_cast<int32_t>(doc.delegates.size()));
      doc.delegates.push_back(std::move(del));
    }
    auto graph = build_method_graph(*plan, ctx, budget);
    if (!graph) return graph.error();
    for (std::string& w : warnings) doc.warn(std::move(w));
    for (std::string& n : notes) doc.note(std::move(n));
    doc.graphs.push_back(std::move(*graph));
  }

  // Damage: segments cut off by the end of the file. What uses them (constants, a delegate's
  // payload, named data) is shown from the bytes that are there, or as missing.
  for (size_t i = 0; i < spans->size(); ++i) {
    const SegmentSpan& span = (*spans)[i];
    if (span.missing == 0) continue;
    doc.damaged(fmt::format(
        "{} (offset {}, size {}, from segment base {}) extends past the end of the program at "
        "byte {}: {} of its bytes are missing (the file is cut off or corrupt); the rest of the "
        "program is shown",
        segment_label(i, segment_users), span.declared_offset, span.size + span.missing,
        header->extended ? header->extended->segment_base_offset : 0, bytes.size(), span.missing));
  }

  // Size sections: the flatbuffer (which holds the extended header), each segment by
  // offset, and the gaps between them as padding; together they cover the program's bytes.
  std::vector<Section> segments;
  for (size_t i = 0; i < spans->size(); ++i)
    if ((*spans)[i].size > 0 || segment_users.count(i))
      segments.push_back(
          {segment_label(i, segment_users), "segment", (*spans)[i].offset, (*spans)[i].size});
  std::stable_sort(segments.begin(), segments.end(),
                   [](const Section& a, const Section& b) { return a.offset < b.offset; });
  doc.sections.push_back({"program flatbuffer", "flatbuffer", base, header->flatbuffer_size});
  uint64_t cursor = base + header->flatbuffer_size;
  for (Section& seg : segments) {
    if (seg.offset > cursor)
      doc.sections.push_back({"padding", "padding", cursor, seg.offset - cursor});
    cursor = std::max(cursor, seg.offset + seg.size);
    doc.sections.push_back(std::move(seg));
  }
  if (base + bytes.size() > cursor)
    doc.sections.push_back({"padding", "padding", cursor, base + bytes.size() - cursor});
  return Status::Ok();
}

Result<Document> read_program_file(std::shared_ptr<const MappedFile> file) {
  Document doc;
  doc.format = DocumentFormat::kExecuTorchProgram;
  doc.sources.push_back(file);
  if (auto s = read_program_into(doc, 0, 0, file->bytes()); !s)
    return s.error().within(file->path());
  return doc;
}

}  // namespace etviz::executorch
