#include "wasm/partial_plan.h"

#include <algorithm>
#include <cstring>

#include "bundled_program_generated.h"
#include "core/bytes.h"
#include "formats/executorch/flat_tensor_reader.h"
#include "formats/executorch/program_header.h"
#include "formats/flatbuffer_verify.h"
#include "formats/open_document.h"
#include "formats/torch_export/archive_reader.h"
#include "formats/torch_export/zip_backend.h"
#include "program_generated.h"

namespace etviz::wasm {
namespace {

// Ranges closer than this are read as one: fewer File.slice calls for a few bytes more.
constexpr uint64_t kJoinGap = 4096;

}  // namespace

// What is read first of every file: its head (identifiers, a program's header) and its tail
// (a zip's end records), so the kind is known as sniff_file_kind knows it.
const uint64_t PartialPlan::kTailBytes = torch_export::detail::kZipTailBytes;

bool PartialPlan::reads_in_part(std::span<const uint8_t> head, std::span<const uint8_t> tail) {
  switch (sniff_file_kind(head)) {
    case FileKind::kFlatTensor:
    case FileKind::kProgram:
    case FileKind::kBundledProgram:
      return true;
    case FileKind::kZip:
      // Read in part by its directory, so only when its end holds one: a cut-off archive is
      // read whole, and its members are found from their local headers as the CLI finds them
      // (docs/limits.md, "Damaged files"). Deciding here, before the file's memory is set
      // aside, keeps the whole read from needing that memory twice.
      return torch_export::ends_with_end_of_central_directory(tail);
    default:
      // A zip with junk before it (the corpus' prefixed ETRecord) ends with its directory.
      return torch_export::looks_like_zip(tail);
  }
}

void PartialPlan::loaded(uint64_t offset, uint64_t size) {
  if (size == 0) return;
  uint64_t begin = offset, end = offset + size;
  // Merge with every range it touches or overlaps.
  auto it = loaded_.upper_bound(begin);
  if (it != loaded_.begin() && std::prev(it)->second >= begin) --it;
  while (it != loaded_.end() && it->first <= end) {
    begin = std::min(begin, it->first);
    end = std::max(end, it->second);
    it = loaded_.erase(it);
  }
  loaded_[begin] = end;
}

bool PartialPlan::has(uint64_t offset, uint64_t size) const {
  if (size == 0) return true;
  auto it = loaded_.upper_bound(offset);
  if (it == loaded_.begin()) return false;
  --it;
  return it->first <= offset && it->second >= offset + size;
}

void PartialPlan::want(PartialStep& step, uint64_t offset, uint64_t size) const {
  if (offset >= file_.size()) return;
  size = std::min<uint64_t>(size, file_.size() - offset);
  if (!has(offset, size)) step.need.push_back({offset, size});
}

PartialStep PartialPlan::next() const {
  PartialStep step;
  const uint64_t size = file_.size();
  want(step, 0, kHeadBytes);
  const uint64_t tail = std::min<uint64_t>(size, kTailBytes);
  want(step, size - tail, tail);
  if (step.need.empty()) {
    namespace et = executorch;
    switch (sniff_file_kind(file_)) {
      case FileKind::kFlatTensor: {
        // Weights (.ptd): its header and flatbuffer say everything the page shows.
        auto ft = et::read_flat_tensor_header(file_);
        if (!ft)
          step.error = ft.error().message();
        else
          want(step, 0, ft->flatbuffer_offset + ft->flatbuffer_size);
        break;
      }
      case FileKind::kProgram:
        plan_program(step, 0, size);
        break;
      case FileKind::kBundledProgram:
        plan_bundle(step);
        break;
      case FileKind::kZip:
        plan_zip(step);
        break;
      default:
        step.error = "not a program, weights, bundled program or zip archive";
    }
  }
  if (!step.error.empty()) {
    step.need.clear();
    return step;
  }
  std::sort(step.need.begin(), step.need.end(),
            [](const ByteRange& a, const ByteRange& b) { return a.offset < b.offset; });
  std::vector<ByteRange> joined;
  for (const ByteRange& r : step.need) {
    if (!joined.empty() && r.offset <= joined.back().offset + joined.back().size + kJoinGap) {
      ByteRange& last = joined.back();
      last.size = std::max(last.offset + last.size, r.offset + r.size) - last.offset;
    } else {
      joined.push_back(r);
    }
  }
  step.need = std::move(joined);
  step.done = step.need.empty();
  return step;
}

// The program at [base, base + size) of the file (a .pte, or a bundle's embedded program).
void PartialPlan::plan_program(PartialStep& step, uint64_t base, uint64_t size) const {
  namespace et = executorch;
  want(step, base, std::min(size, kHeadBytes));
  if (!step.need.empty()) return;
  const auto bytes = file_.subspan(base, size);
  auto header = et::read_program_header(bytes);
  if (!header) {
    step.error = header.error().message();
    return;
  }
  if (!header->extended) {
    // No segments: the flatbuffer is the whole program.
    want(step, base, size);
    return;
  }
  want(step, base, header->extended->program_size);
  if (!step.need.empty()) return;
  const auto fb_bytes = bytes.first(header->extended->program_size);
  if (auto ok = verify_flatbuffer<pte::Program>(fb_bytes, "ET12", "program"); !ok) {
    step.error = ok.error().message();
    return;
  }
  const auto* program = flatbuffers::GetRoot<pte::Program>(fb_bytes.data());
  std::vector<bool> weights(program->segments() ? program->segments()->size() : 0);
  auto mark = [&](uint64_t i) {
    if (i < weights.size()) weights[i] = true;
  };
  if (const auto* cs = program->constant_segment()) mark(cs->segment_index());
  if (const auto* m = program->mutable_data_segments())
    for (const auto* d : *m) mark(d->segment_index());
  if (const auto* n = program->named_data())
    for (const auto* d : *n) mark(d->segment_index());
  for (size_t i = 0; i < weights.size(); ++i) {
    const auto* s = program->segments()->Get(static_cast<flatbuffers::uoffset_t>(i));
    const uint64_t start = header->extended->segment_base_offset + s->offset();
    if (weights[i] || s->size() == 0 || start > size || s->size() > size - start)
      continue;  // weights stay unread; the reader reports segments past the end
    want(step, base + start, s->size());
  }
}

std::optional<PartialPlan::Table> PartialPlan::table(PartialStep& step, uint64_t pos) const {
  const uint64_t size = file_.size();
  const uint8_t* b = file_.data();
  if (pos > size || size - pos < 4) return std::nullopt;
  const size_t before = step.need.size();
  want(step, pos, 4);
  if (step.need.size() != before) return std::nullopt;
  const int64_t vtable = static_cast<int64_t>(pos) - load_le<int32_t>(b + pos);
  if (vtable < 0 || static_cast<uint64_t>(vtable) > size - 4) return std::nullopt;
  Table t;
  t.pos = pos;
  t.vtable = static_cast<uint64_t>(vtable);
  want(step, t.vtable, 4);
  if (step.need.size() != before) return std::nullopt;
  t.vtable_size = load_le<uint16_t>(b + t.vtable);
  t.inline_size = load_le<uint16_t>(b + t.vtable + 2);
  if (t.vtable_size < 4 || t.vtable + t.vtable_size > size || pos + t.inline_size > size)
    return std::nullopt;
  want(step, t.vtable, t.vtable_size);
  want(step, pos, t.inline_size);
  if (step.need.size() != before) return std::nullopt;
  return t;
}

std::optional<uint64_t> PartialPlan::ref(PartialStep& step, const Table& t, uint16_t field) const {
  const uint8_t* b = file_.data();
  if (field + 2u > t.vtable_size) return std::nullopt;
  const uint16_t at = load_le<uint16_t>(b + t.vtable + field);
  if (at == 0 || at + 4u > t.inline_size) return std::nullopt;
  const uint64_t target = t.pos + at + load_le<uint32_t>(b + t.pos + at);
  (void)step;  // the table's inline part, where the offset is, is loaded
  return target < file_.size() ? std::optional<uint64_t>(target) : std::nullopt;
}

std::optional<uint32_t> PartialPlan::vector(PartialStep& step, uint64_t pos, uint32_t element_size,
                                            bool contents) const {
  if (pos > file_.size() || file_.size() - pos < 4) return std::nullopt;
  const size_t before = step.need.size();
  want(step, pos, 4);
  if (step.need.size() != before) return std::nullopt;
  const uint32_t n = load_le<uint32_t>(file_.data() + pos);
  if (static_cast<uint64_t>(n) * element_size > file_.size() - pos - 4) return std::nullopt;
  if (contents) {
    want(step, pos + 4, static_cast<uint64_t>(n) * element_size);
    if (step.need.size() != before) return std::nullopt;
  }
  return n;
}

// A bundled program: walked from its root table as the verifier and the reader walk it (test
// suites, cases, values; a tensor's sizes and dim order but not its data), then the embedded
// program (a byte vector) as a program at its offset.
void PartialPlan::plan_bundle(PartialStep& step) const {
  namespace bp = bundled;
  const uint8_t* b = file_.data();
  auto root = table(step, load_le<uint32_t>(b));
  if (!root) {
    if (step.need.empty()) step.error = "the bundle's root table lies outside it";
    return;
  }
  // Each element of a vector of tables, as a table.
  auto tables = [&](uint64_t vec, auto&& each) {
    auto n = vector(step, vec, 4, true);
    if (!n) return;
    for (uint32_t k = 0; k < *n; ++k) {
      const uint64_t at = vec + 4 + 4ull * k;
      if (auto t = table(step, at + load_le<uint32_t>(b + at))) each(*t);
    }
  };
  auto values = [&](const Table& test, uint16_t field) {
    if (auto list = ref(step, test, field))
      tables(*list, [&](const Table& value) {
        auto val = ref(step, value, bp::Value::VT_VAL);
        const uint16_t type_at = value.vtable_size >= bp::Value::VT_VAL_TYPE + 2
                                     ? load_le<uint16_t>(b + value.vtable + bp::Value::VT_VAL_TYPE)
                                     : 0;
        if (!val || type_at == 0) return;
        auto payload = table(step, *val);
        if (!payload || b[value.pos + type_at] != static_cast<uint8_t>(bp::ValueUnion::Tensor))
          return;
        if (auto sizes = ref(step, *payload, bp::Tensor::VT_SIZES)) vector(step, *sizes, 4, true);
        if (auto data = ref(step, *payload, bp::Tensor::VT_DATA)) vector(step, *data, 1, false);
        if (auto order = ref(step, *payload, bp::Tensor::VT_DIM_ORDER))
          vector(step, *order, 1, true);
      });
  };
  if (auto suites = ref(step, *root, bp::BundledProgram::VT_METHOD_TEST_SUITES))
    tables(*suites, [&](const Table& suite) {
      if (auto name = ref(step, suite, bp::BundledMethodTestSuite::VT_METHOD_NAME))
        if (auto n = vector(step, *name, 1, true)) want(step, *name + 4 + *n, 1);  // its NUL
      if (auto cases = ref(step, suite, bp::BundledMethodTestSuite::VT_TEST_CASES))
        tables(*cases, [&](const Table& test) {
          values(test, bp::BundledMethodTestCase::VT_INPUTS);
          values(test, bp::BundledMethodTestCase::VT_EXPECTED_OUTPUTS);
        });
    });
  auto program = ref(step, *root, bp::BundledProgram::VT_PROGRAM);
  if (!program) {
    step.error = "the bundle holds no program";
    return;
  }
  auto length = vector(step, *program, 1, false);
  if (!step.need.empty()) return;
  if (!length) {
    step.error = "the bundle's program runs past its end";
    return;
  }
  plan_program(step, *program + 4, *length);
}

// A zip archive (.pt2, ETRecord): its directory, local headers, then the stored members the
// readers read.
void PartialPlan::plan_zip(PartialStep& step) const {
  namespace te = torch_export;
  auto at = te::detail::locate_central_directory(file_, "");
  if (!at) {
    step.error = at.error().message();
    return;
  }
  want(step, at->cd_start, at->cd_end - at->cd_start);
  if (!step.need.empty()) return;
  auto zip = te::ZipArchive::open(file_, "");
  if (!zip) {
    step.error = zip.error().message();
    return;
  }
  for (const te::ZipEntry& e : (*zip)->entries())
    want(step, at->prefix + e.local_header_offset, 30);
  if (!step.need.empty()) return;
  // Opened again: the data offsets come from the local headers now read.
  zip = te::ZipArchive::open(file_, "");
  if (!zip) {
    step.error = zip.error().message();
    return;
  }
  for (const te::ZipEntry& e : (*zip)->entries())
    if (e.method == 0 && e.stored_data_offset >= 0 && !te::is_payload_member(**zip, e.name))
      want(step, static_cast<uint64_t>(e.stored_data_offset), e.size);
}

}  // namespace etviz::wasm
