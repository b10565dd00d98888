#include "formats/side_files/categories_file.h"

#include <fmt/format.h>

#include <cctype>

#include "core/mapped_file.h"
#include "formats/json/json_tree.h"

namespace etviz::side_files {
namespace {

bool is_hex_color(const std::string& s) {
  if (s.size() != 7 || s[0] != '#') return false;
  for (size_t i = 1; i < s.size(); ++i)
    if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

}  // namespace

Result<CategoriesFile> parse_categories(std::string_view json_text) {
  auto tree = JsonTree::parse(json_text);
  if (!tree) return Error("not valid JSON");
  const JsonRef root = tree->root();
  if (!root.is_object()) return Error("expected a JSON object with \"rules\" and/or \"colors\"");
  for (JsonRef member : root)
    if (member.key() != "rules" && member.key() != "colors")
      return Error("unknown key \"" + member.key() + "\" (expected \"rules\" or \"colors\")");
  CategoriesFile out;
  if (const JsonRef rules = root["rules"]; rules.valid()) {
    if (!rules.is_array()) return Error("\"rules\" must be an array");
    size_t i = 0;
    for (JsonRef r : rules) {
      const auto match = r["match"].as_string();
      const auto category = r["category"].as_string();
      if (!r.is_object() || !match || !category)
        return Error(
            fmt::format("rules[{}]: expected {{\"match\": \"glob\", \"category\": \"id\"}}", i));
      out.rules.push_back({*match, *category});
      ++i;
    }
  }
  if (const JsonRef colors = root["colors"]; colors.valid()) {
    if (!colors.is_object()) return Error("\"colors\" must be an object of id -> \"#rrggbb\"");
    for (JsonRef c : colors) {
      const auto colour = c.as_string();
      if (!colour || !is_hex_color(*colour))
        return Error("colors." + c.key() + ": expected a colour like \"#4c78a8\"");
      out.colors.emplace_back(c.key(), *colour);
    }
  }
  return out;
}

Result<CategoriesFile> read_categories(const std::string& path) {
  // The size is checked before anything is read (a FIFO or /dev/zero is refused, not drained).
  auto file = MappedFile::open(path);
  if (!file) return Error(file.error().message() + " (categories file)");
  if ((*file)->size() > kMaxCategoriesFileBytes)
    return Error(
        fmt::format("{}: categories file is {} bytes; the limit is 1 MiB", path, (*file)->size()));
  const auto bytes = (*file)->bytes();
  auto parsed =
      parse_categories(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  if (!parsed) return parsed.error().within(path);
  return parsed;
}

}  // namespace etviz::side_files
