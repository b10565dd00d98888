#include "formats/executorch/etdump_reader.h"

#include <fmt/format.h>

#include <cstring>

#include "core/bytes.h"
#include "core/expansion_budget.h"
#include "core/tensor_info.h"
#include "etdump_generated.h"
#include "formats/executorch/scalar_type.h"

namespace etviz::executorch {
namespace fb = etviz::etdump;

namespace {

bool tag_at(std::span<const uint8_t> b, size_t at) {
  return b.size() >= at + 4 && std::memcmp(b.data() + at, "ED00", 4) == 0;
}

std::string str(const flatbuffers::String* s) {
  return s ? s->str() : std::string();
}

// Copies one flatbuffer table tree into plain data, charging every copied element to a
// budget proportional to the input so shared subtables cannot blow up memory.
class Converter {
 public:
  explicit Converter(uint64_t input_bytes) : budget_(input_bytes) {}

  Result<Profile> convert(const fb::ETDump& root) {
    Profile profile;
    profile.version = root.version();
    const auto* runs = root.run_data();
    if (!runs) return profile;
    if (!budget_.charge(runs->size())) return ExpansionBudget::exhausted_error();
    profile.runs.reserve(runs->size());
    for (flatbuffers::uoffset_t r = 0; r < runs->size(); ++r) {
      ProfileRun run;
      if (auto s = convert_run(*runs->Get(r), r, run, profile.warnings); !s) return s.error();
      profile.runs.push_back(std::move(run));
    }
    return profile;
  }

 private:
  Status convert_run(const fb::RunData& in, uint32_t index, ProfileRun& run,
                     std::vector<std::string>& warnings) {
    run.name = str(in.name());
    run.bundled_input_index = in.bundled_input_index();
    if (!budget_.charge(run.name.size())) return ExpansionBudget::exhausted_error();
    if (const auto* allocators = in.allocators()) {
      if (!budget_.charge(allocators->size())) return ExpansionBudget::exhausted_error();
      for (const fb::Allocator* a : *allocators) {
        run.allocators.push_back(str(a->name()));
        if (!budget_.charge(run.allocators.back().size()))
          return ExpansionBudget::exhausted_error();
      }
    }
    const auto* events = in.events();
    if (!events) return Status::Ok();
    if (!budget_.charge(events->size())) return ExpansionBudget::exhausted_error();
    size_t empty = 0, ambiguous = 0;
    for (flatbuffers::uoffset_t e = 0; e < events->size(); ++e) {
      const fb::Event* event = events->Get(e);
      const int set = (event->profile_event() != nullptr) + (event->allocation_event() != nullptr) +
                      (event->debug_event() != nullptr);
      if (set == 0) {
        ++empty;
        continue;
      }
      if (set > 1) ++ambiguous;  // the schema says exactly one; keep them all rather than guess
      if (const auto* p = event->profile_event()) {
        if (auto s = convert_profile_event(*p, run); !s) return s;
      }
      if (const auto* a = event->allocation_event()) {
        AllocationEvent out;
        out.allocator = a->allocator_id();
        out.size = a->allocation_size();
        if (out.allocator < 0 || static_cast<size_t>(out.allocator) >= run.allocators.size())
          warnings.push_back(
              fmt::format("run {} ('{}') event {}: allocation names allocator {}, "
                          "but the run lists {} allocators",
                          index, run.name, e, out.allocator, run.allocators.size()));
        run.allocations.push_back(out);
      }
      if (const auto* d = event->debug_event()) {
        if (auto s = convert_debug_event(*d, run); !s) return s;
      }
    }
    if (empty)
      warnings.push_back(
          fmt::format("run {} ('{}'): {} events set none of profile, allocation or "
                      "debug event and were skipped",
                      index, run.name, empty));
    if (ambiguous)
      warnings.push_back(fmt::format("run {} ('{}'): {} events set more than one event kind", index,
                                     run.name, ambiguous));
    return Status::Ok();
  }

  Status convert_profile_event(const fb::ProfileEvent& in, ProfileRun& run) {
    ProfileEvent out;
    out.name = str(in.name());
    out.chain = in.chain_index();
    out.instruction = in.instruction_id();
    out.delegate_debug_id_int = in.delegate_debug_id_int();
    out.delegate_debug_id_str = str(in.delegate_debug_id_str());
    if (const auto* meta = in.delegate_debug_metadata())
      out.delegate_debug_metadata.assign(meta->begin(), meta->end());
    out.start = in.start_time();
    out.end = in.end_time();
    if (!budget_.charge(out.name.size() + out.delegate_debug_id_str.size() +
                        out.delegate_debug_metadata.size()))
      return ExpansionBudget::exhausted_error();
    run.profile_events.push_back(std::move(out));
    return Status::Ok();
  }

  Status convert_debug_event(const fb::DebugEvent& in, ProfileRun& run) {
    DebugEvent out;
    out.name = str(in.name());
    // The schema stores an unsigned chain here; anything past int64 is nonsense, clamp it.
    out.chain = in.chain_index() > static_cast<uint64_t>(INT64_MAX)
                    ? -1
                    : static_cast<int64_t>(in.chain_index());
    out.instruction = in.instruction_id();
    out.delegate_debug_id_int = in.delegate_debug_id_int();
    out.delegate_debug_id_str = str(in.delegate_debug_id_str());
    if (!budget_.charge(out.name.size() + out.delegate_debug_id_str.size()))
      return ExpansionBudget::exhausted_error();
    if (const auto* v = in.debug_entry()) {
      if (auto s = convert_value(*v, out.value); !s) return s;
    }
    run.debug_events.push_back(std::move(out));
    return Status::Ok();
  }

  Status convert_value(const fb::Value& in, ProfileValue& out) {
    out.is_output = in.output() && in.output()->bool_val();
    using K = ProfileValue::Kind;
    switch (in.val()) {
      case fb::ValueType::Null:
        out.kind = K::kNull;
        break;
      case fb::ValueType::Int:
        out.kind = K::kInt;
        if (in.int_value()) out.int_value = in.int_value()->int_val();
        break;
      case fb::ValueType::Bool:
        out.kind = K::kBool;
        if (in.bool_value()) out.bool_value = in.bool_value()->bool_val();
        break;
      case fb::ValueType::Float:
        out.kind = K::kFloat;
        if (in.float_value()) out.float_value = in.float_value()->float_val();
        break;
      case fb::ValueType::Double:
        out.kind = K::kDouble;
        if (in.double_value()) out.float_value = in.double_value()->double_val();
        break;
      case fb::ValueType::Tensor:
        out.kind = K::kTensor;
        if (in.tensor()) {
          if (auto s = add_tensor(*in.tensor(), out); !s) return s;
        }
        break;
      case fb::ValueType::TensorList:
        out.kind = K::kTensorList;
        if (const auto* list = in.tensor_list(); list && list->tensors()) {
          if (!budget_.charge(list->tensors()->size())) return ExpansionBudget::exhausted_error();
          for (const fb::Tensor* t : *list->tensors())
            if (auto s = add_tensor(*t, out); !s) return s;
        }
        break;
      case fb::ValueType::String:
        // The schema names the kind but has no field that carries the text.
        out.kind = K::kString;
        break;
      default:
        out.kind = K::kUnknown;
        break;
    }
    return Status::Ok();
  }

  Status add_tensor(const fb::Tensor& in, ProfileValue& out) {
    ProfileTensor t;
    t.scalar_type = in.scalar_type();
    t.dtype = scalar_type_name(t.scalar_type);
    if (const auto* sizes = in.sizes()) t.sizes.assign(sizes->begin(), sizes->end());
    if (const auto* strides = in.strides()) t.strides.assign(strides->begin(), strides->end());
    if (!budget_.charge(t.sizes.size() + t.strides.size() + 1))
      return ExpansionBudget::exhausted_error();
    t.offset = in.offset();
    // numel with overflow checks: a hostile shape must not wrap into a small, wrong size.
    const int64_t element = dtype_element_size(t.dtype);
    int64_t numel = 1;
    bool known = element > 0;
    for (int64_t d : t.sizes) {
      if (d < 0 || (d != 0 && numel > INT64_MAX / d)) {
        known = false;
        break;
      }
      numel *= d;
    }
    if (known && numel <= INT64_MAX / element) t.nbytes = numel * element;
    out.tensors.push_back(std::move(t));
    return Status::Ok();
  }

  ExpansionBudget budget_;
};

// Verifier limits in the spirit of verify_flatbuffer(): tables visited bounded by the size.
flatbuffers::Verifier make_verifier(std::span<const uint8_t> bytes) {
  const auto max_tables = static_cast<flatbuffers::uoffset_t>(bytes.size() / 2 + 1024);
  return flatbuffers::Verifier(bytes.data(), bytes.size(), /*max_depth=*/64, max_tables);
}

}  // namespace

bool looks_like_etdump(std::span<const uint8_t> head) {
  return tag_at(head, 4) || tag_at(head, 8);
}

Result<Profile> read_etdump(std::span<const uint8_t> bytes) {
  if (bytes.size() < 8)
    return Error(fmt::format("{} bytes is too short for an ETDump (a flatbuffer needs at least 8)",
                             bytes.size()));
  if (bytes.size() >= FLATBUFFERS_MAX_BUFFER_SIZE)
    return Error(fmt::format("{} bytes is larger than a flatbuffer can be", bytes.size()));

  // The runtime prefixes the buffer with its size, which moves the identifier from 4..8 to
  // 8..12. A plain buffer's bytes 8..12 are vtable or table data, which could spell ED00 only
  // by coincidence, so the plain position wins when both match.
  const bool plain = tag_at(bytes, 4);
  const bool prefixed = !plain && tag_at(bytes, 8);
  if (!plain && !prefixed)
    return Error(
        fmt::format("not an ETDump: expected identifier 'ED00' at bytes 4..8 (plain) or "
                    "8..12 (size-prefixed), found '{}' and '{}'",
                    printable_tag(bytes.subspan(4, 4)),
                    printable_tag(bytes.subspan(8, std::min<size_t>(4, bytes.size() - 8)))));

  std::vector<std::string> notes;
  const fb::ETDump* root = nullptr;
  if (prefixed) {
    const uint64_t declared = load_le<uint32_t>(bytes.data());
    const uint64_t available = bytes.size() - 4;
    if (declared > available)
      return Error(
          fmt::format("size prefix says the ETDump is {} bytes, but only {} follow it "
                      "(truncated file?)",
                      declared, available));
    if (declared < available)
      notes.push_back(fmt::format("{} bytes after the end of the size-prefixed ETDump were ignored",
                                  available - declared));
    // Offsets and alignment are relative to the start of the prefix, so verify the whole
    // prefixed region rather than a sub-span starting after it.
    const auto region = bytes.first(declared + 4);
    auto verifier = make_verifier(region);
    if (!verifier.VerifySizePrefixedBuffer<fb::ETDump>("ED00"))
      return Error(
          fmt::format("size-prefixed ETDump failed flatbuffer verification: an offset, "
                      "vector length or table lies outside its {} bytes or is misaligned "
                      "(truncated or corrupted file?)",
                      declared));
    root = flatbuffers::GetSizePrefixedRoot<fb::ETDump>(region.data());
  } else {
    auto verifier = make_verifier(bytes);
    if (!verifier.VerifyBuffer<fb::ETDump>("ED00"))
      return Error(
          fmt::format("ETDump failed flatbuffer verification: an offset, vector length or "
                      "table lies outside its {} bytes or is misaligned (truncated or "
                      "corrupted file?)",
                      bytes.size()));
    root = flatbuffers::GetRoot<fb::ETDump>(bytes.data());
  }

  auto profile = Converter(bytes.size()).convert(*root);
  if (!profile) return profile;
  profile->size_prefixed = prefixed;
  profile->warnings.insert(profile->warnings.begin(), notes.begin(), notes.end());
  return profile;
}

Result<Profile> read_etdump_file(const std::string& path, const std::string& debug_buffer_path) {
  auto file = MappedFile::open(path);
  if (!file) return file.error();
  auto profile = read_etdump((*file)->bytes());
  if (!profile) return profile.error().within(path);
  profile->path = path;
  if (!debug_buffer_path.empty()) {
    auto buffer = MappedFile::open(debug_buffer_path);
    if (!buffer) return buffer.error();
    profile->debug_buffer = *buffer;
    // Say which logged tensors the buffer cannot hold: a wrong or truncated buffer file.
    size_t outside = 0, total = 0;
    for (const auto& run : profile->runs)
      for (const auto& event : run.debug_events)
        for (const auto& tensor : event.value.tensors) {
          ++total;
          if (tensor.nbytes > 0 && profile->tensor_bytes(tensor).empty()) ++outside;
        }
    if (outside)
      profile->warnings.push_back(fmt::format(
          "{}: {} of {} logged tensors lie outside the debug buffer ({} bytes); wrong or "
          "truncated buffer file?",
          debug_buffer_path, outside, total, (*buffer)->size()));
  }
  return profile;
}

}  // namespace etviz::executorch
