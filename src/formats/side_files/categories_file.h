#pragma once
// `--categories FILE.json` (docs/viewer.md, "Categories"): rules matched before the built-in
// ones and colours per category, as the file writes them:
//   {"rules": [{"match": "llama::*", "category": "compute"}], "colors": {"backend": "#aa55cc"}}
// Read here with the other side files; which category ids exist is analysis's to say
// (analysis::category_config checks them).
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/status.h"

namespace etviz::side_files {

struct CategoryRuleText {
  std::string match;     // glob over the full op name
  std::string category;  // a category id ("compute")
};

struct CategoriesFile {
  std::vector<CategoryRuleText> rules;                      // in file order
  std::vector<std::pair<std::string, std::string>> colors;  // id -> "#rrggbb", in file order
};

inline constexpr uint64_t kMaxCategoriesFileBytes = 1u << 20;
// Errors name the field ("rules[2]: ..."); read_categories's also name the file.
Result<CategoriesFile> parse_categories(std::string_view json_text);
Result<CategoriesFile> read_categories(const std::string& path);

}  // namespace etviz::side_files
