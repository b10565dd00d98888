#pragma once
// `--groups FILE.json`: {node name: group name}, the contract of Model Explorer's
// visualize_with_clusters; nodes of one group become one box (docs/viewer.md).
#include <cstdint>
#include <map>
#include <span>
#include <string>

#include "core/status.h"

namespace etviz::side_files {

using Groups = std::map<std::string, std::string>;  // node name -> group name

inline constexpr uint64_t kMaxGroupsFileBytes = 64u << 20;
// Errors name the file (`path`) and the node whose group is not a string.
Result<Groups> parse_groups(std::span<const uint8_t> bytes, const std::string& path);
Result<Groups> read_groups(const std::string& path);

}  // namespace etviz::side_files
