#pragma once
// The one way reports turn JSON into text: any bytes a model string holds survive (invalid
// UTF-8 becomes U+FFFD instead of aborting the dump), `indent` as nlohmann's dump (-1: one
// line). Reports end with a newline; page data (html/) wraps this in script_safe_json.
#include <nlohmann/json.hpp>
#include <string>

namespace etviz::render {

template <typename Json>
std::string json_text(const Json& j, int indent = 2) {
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

template <typename Json>
std::string json_report(const Json& j) {
  return json_text(j, 2) + "\n";
}

}  // namespace etviz::render
