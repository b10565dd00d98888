#include "formats/executorch/constant_data.h"

#include <fmt/format.h>

#include "bundled_program_generated.h"
#include "formats/executorch/program_header.h"
#include "formats/flatbuffer_verify.h"
#include "program_generated.h"

namespace etviz::executorch {

ConstantLocator::ConstantLocator(const Document& doc) : doc_(doc) {
  if (doc.sources.empty() || !doc.sources[0]) return;
  std::span<const uint8_t> bytes = doc.sources[0]->bytes();
  if (doc.format == DocumentFormat::kBundledProgram) {
    if (!verify_flatbuffer<etviz::bundled::BundledProgram>(bytes, "BP08", "bundled program")) {
      note_ = "the bundle does not verify";
      return;
    }
    const auto* bundle = flatbuffers::GetRoot<etviz::bundled::BundledProgram>(bytes.data());
    if (!bundle->program()) return;
    bytes = std::span<const uint8_t>(bundle->program()->data(), bundle->program()->size());
  } else if (doc.format != DocumentFormat::kExecuTorchProgram) {
    return;
  }
  auto header = read_program_header(bytes);
  if (!header) {
    note_ = header.error().message();
    return;
  }
  const auto fb_bytes = bytes.first(header->flatbuffer_size);
  if (!verify_flatbuffer<etviz::pte::Program>(fb_bytes, "ET12", "program")) {
    note_ = "the program does not verify";
    return;
  }
  const auto* program = flatbuffers::GetRoot<etviz::pte::Program>(fb_bytes.data());
  program_ = bytes;
  segment_base_ = header->extended ? header->extended->segment_base_offset : 0;
  if (const auto* segs = program->segments())
    for (const auto* s : *segs) segments_.emplace_back(s->offset(), s->size());
  if (const auto* cs = program->constant_segment()) {
    constant_segment_ = cs->segment_index();
    if (cs->offsets()) constant_offsets_.assign(cs->offsets()->begin(), cs->offsets()->end());
  }
  if (const auto* buffers = program->constant_buffer())
    for (const auto* b : *buffers)
      inline_buffers_.push_back(
          b && b->storage() ? std::span<const uint8_t>(b->storage()->data(), b->storage()->size())
                            : std::span<const uint8_t>());
}

std::span<const uint8_t> ConstantLocator::bytes(const TensorInfo& t, std::string* why) const {
  auto fail = [&](std::string text) {
    if (why) *why = std::move(text);
    return std::span<const uint8_t>();
  };
  if (t.nbytes <= 0) return fail("size unknown");
  const auto size = static_cast<uint64_t>(t.nbytes);
  switch (t.data_location) {
    case DataLocation::kConstantSegment: {
      if (program_.empty()) return fail(note_.empty() ? "no program tables" : note_);
      if (constant_segment_ < 0 || static_cast<size_t>(constant_segment_) >= segments_.size())
        return fail("the program has no constant segment");
      if (t.data_index < 0 || static_cast<size_t>(t.data_index) >= constant_offsets_.size())
        return fail(fmt::format("constant {} is past the segment's {} offsets", t.data_index,
                                constant_offsets_.size()));
      const auto& [seg_offset, seg_size] = segments_[static_cast<size_t>(constant_segment_)];
      const uint64_t within = constant_offsets_[static_cast<size_t>(t.data_index)];
      if (within > seg_size || size > seg_size - within)
        return fail("the constant runs past its segment");
      const uint64_t start = segment_base_ + seg_offset + within;
      if (start > program_.size() || size > program_.size() - start)
        return fail("the constant lies past the end of the file (truncated?)");
      return program_.subspan(start, size);
    }
    case DataLocation::kInline: {
      if (t.data_index < 0 || static_cast<size_t>(t.data_index) >= inline_buffers_.size())
        return fail("not in the program's constant_buffer (a delegate's own data?)");
      const auto b = inline_buffers_[static_cast<size_t>(t.data_index)];
      if (b.size() < size) return fail("the inline buffer is shorter than the tensor");
      return b.first(size);
    }
    case DataLocation::kNamedData:
    case DataLocation::kExternal: {
      for (const NamedBlob& blob : doc_.named_data)
        if (blob.key == t.data_key.str()) {
          const auto b = doc_.bytes(blob.blob);
          if (b.size() < size) return fail("the named blob is shorter than the tensor");
          return b.first(size);
        }
      return fail(t.data_location == DataLocation::kExternal
                      ? "external: give the .ptd that holds it with --data"
                      : "no named blob of that key");
    }
    case DataLocation::kMutableSegment:
      return fail("initial value in the mutable data segment (not read)");
    case DataLocation::kNone:
      return fail("not a constant");
  }
  return fail("not a constant");
}

}  // namespace etviz::executorch
