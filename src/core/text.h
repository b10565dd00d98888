#pragma once
// Text from model files (names, ops, messages) on its way to a terminal: control characters
// (C0 but newline and tab, DEL, C1), escape sequences and bidirectional-override characters
// can retitle a terminal, clear it, fake output or reorder what is read. They are shown
// escaped, as `ls` and git do: "\x1b", "\u202e"; invalid UTF-8 bytes as "\xff".
#include <string>
#include <string_view>

namespace etviz {

// For text reports and messages: newline and tab kept, everything above escaped.
std::string terminal_safe(std::string_view text);

// For JSON already escaped by its writer (control characters are \u escapes there): raw
// bidirectional controls become \uXXXX escapes, which mean the same inside JSON strings.
std::string json_terminal_safe(std::string_view json);

// True for the code points terminal_safe escapes besides C0/C1: bidi embeddings, overrides,
// isolates and marks (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069).
bool is_bidi_control(char32_t c);

}  // namespace etviz
