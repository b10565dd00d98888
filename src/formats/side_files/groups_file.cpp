#include "formats/side_files/groups_file.h"

#include <fmt/format.h>

#include <string_view>

#include "core/mapped_file.h"
#include "formats/json/json_tree.h"

namespace etviz::side_files {

Result<Groups> parse_groups(std::span<const uint8_t> bytes, const std::string& path) {
  auto tree =
      JsonTree::parse(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  if (!tree || !tree->root().is_object())
    return Error(path + ": --groups expects a JSON object {\"node name\": \"group name\", ...}");
  Groups out;
  for (JsonRef member : tree->root()) {
    const auto group = member.as_string();
    if (!group)
      return Error(fmt::format("{}: the group of '{}' is not a string", path, member.key()));
    out[member.key()] = *group;
  }
  return out;
}

Result<Groups> read_groups(const std::string& path) {
  auto file = MappedFile::open(path);
  if (!file) return Error(file.error().message() + " (--groups)");
  if ((*file)->size() > kMaxGroupsFileBytes)
    return Error(
        fmt::format("{}: groups file is {} bytes; the limit is 64 MiB", path, (*file)->size()));
  return parse_groups((*file)->bytes(), path);
}

}  // namespace etviz::side_files
