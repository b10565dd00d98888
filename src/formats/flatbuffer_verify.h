#pragma once
// Runs the FlatBuffers verifier with limits proportional to the buffer, so a hostile file can
// neither read out of bounds nor make verification (or what follows) run unboundedly.
#include <flatbuffers/flatbuffers.h>
#include <fmt/format.h>

#include <cstring>
#include <span>
#include <string>

#include "core/bytes.h"
#include "core/status.h"

namespace etviz {

template <typename Root>
Status verify_flatbuffer(std::span<const uint8_t> bytes, const char* identifier, const char* what) {
  if (bytes.size() < 8)
    return Error(fmt::format("{} is {} bytes, too short for a flatbuffer", what, bytes.size()));
  if (bytes.size() >= FLATBUFFERS_MAX_BUFFER_SIZE)
    return Error(
        fmt::format("{} is {} bytes, larger than a flatbuffer can be", what, bytes.size()));
  if (identifier && std::memcmp(bytes.data() + 4, identifier, 4) != 0)
    return Error(fmt::format("{}: expected identifier '{}' at bytes 4..8, found '{}'", what,
                             identifier, printable_tag(bytes.subspan(4, 4))));
  const uint32_t root = load_le<uint32_t>(bytes.data());
  if (root >= bytes.size())
    return Error(fmt::format("{}: root table offset {} points past the end ({} bytes)", what, root,
                             bytes.size()));
  // Every table costs at least 4 bytes, so a legitimate buffer never visits more tables than
  // this; shared subtables counted once per reference make hostile files hit the limit.
  const auto max_tables = static_cast<flatbuffers::uoffset_t>(bytes.size() / 2 + 1024);
  flatbuffers::Verifier verifier(bytes.data(), bytes.size(), /*max_depth=*/64, max_tables);
  if (!verifier.VerifyBuffer<Root>(nullptr))
    return Error(fmt::format(
        "{} failed flatbuffer verification: an offset, vector length or table lies outside the "
        "{} bytes of the buffer (truncated or corrupted file?)",
        what, bytes.size()));
  return Status::Ok();
}

}  // namespace etviz
