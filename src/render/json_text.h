#pragma once
// The one way reports turn JSON into text: any bytes a model string holds survive (invalid
// UTF-8 becomes U+FFFD instead of aborting the dump), `indent` as nlohmann's dump (-1: one
// line). Reports end with a newline; page data (html/) wraps this in script_safe_json.
#include <nlohmann/json.hpp>
#include <string>

#include "core/text.h"

namespace etviz::render {

namespace detail {
// Strings over kMaxShownText are cut with the visible marker (core/text.h, shown_text);
// true when `j` holds any.
template <typename Json>
bool has_long_string(const Json& j) {
  if (j.is_string()) return j.template get_ref<const std::string&>().size() > kMaxShownText;
  if (j.is_structured())
    for (const auto& item : j)
      if (has_long_string(item)) return true;
  return false;
}
template <typename Json>
void cut_long_strings(Json& j) {
  if (j.is_string()) {
    auto& s = j.template get_ref<std::string&>();
    if (s.size() > kMaxShownText) s = shown_text(s);
  } else if (j.is_structured()) {
    for (auto& item : j) cut_long_strings(item);
  }
}
}  // namespace detail

// Strings longer than kMaxShownText are cut, with a visible marker, as in text reports.
template <typename Json>
std::string json_text(const Json& j, int indent = 2) {
  if (detail::has_long_string(j)) {
    Json copy = j;
    detail::cut_long_strings(copy);
    return copy.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return j.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace);
}

template <typename Json>
std::string json_report(const Json& j) {
  return json_text(j, 2) + "\n";
}

}  // namespace etviz::render
