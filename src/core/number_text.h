#pragma once
// Reading numbers written as text (JSON numbers, CSS colour components) the same way in every
// build. std::from_chars for double is what we want (exact, locale-free), but the libc++ of
// Debian's Emscripten (the page app's WebAssembly build, docs/app.md) has no floating-point
// from_chars; there strtod (the "C" locale is the only one) reads the same text.
#include <string_view>

namespace etviz {

enum class NumberText { kOk, kOutOfRange, kInvalid };

// Reads all of `text` as a decimal floating-point number in from_chars' syntax (no leading
// '+' or spaces). kOk sets `value`; kOutOfRange and kInvalid leave it as it was.
NumberText parse_double(std::string_view text, double& value);

}  // namespace etviz
