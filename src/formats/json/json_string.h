#pragma once
// JSON text etviz writes by hand (page data, Model Explorer graph JSON, generated exported
// programs), escaped one way: the readers' JsonTree reads it back, and it is safe inside an
// HTML <script> element, so the page, the pictures' JSON and the generator never disagree on
// what a model string turns into.
#include <string>
#include <string_view>

namespace etviz {

// kScriptSafe: what etviz writes (pages, exports). kAsIs: only what JSON requires and every
// other byte as it is, for the generator (tools/gen): the hostile inputs it writes must reach
// the readers with their invalid UTF-8 unchanged.
enum class JsonStringStyle : unsigned char { kScriptSafe, kAsIs };

// Appends `text` as a JSON string literal: quotes, backslashes and C0 control characters
// escaped (\n, \r and \t by name). kScriptSafe also escapes '<', '>', '&', DEL, U+2028 and
// U+2029 (safe inside <script>; the same string to a JSON reader) and writes invalid UTF-8 as
// U+FFFD.
void append_json_string(std::string& out, std::string_view text,
                        JsonStringStyle style = JsonStringStyle::kScriptSafe);

// JSON text made safe inside an HTML <script> element: '<', '>', '&', U+2028 and U+2029 (which
// occur only inside strings in JSON) become their \u escapes, which mean the same.
std::string script_safe_json(const std::string& json);

}  // namespace etviz
