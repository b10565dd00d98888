#pragma once
// Text from model files (names, ops, messages) on its way to a terminal: control characters
// (C0 but newline and tab, DEL, C1), escape sequences and bidirectional-override characters
// can retitle a terminal, clear it, fake output or reorder what is read. They are shown
// escaped, as `ls` and git do: "\x1b", "\u202e"; invalid UTF-8 bytes as "\xff".
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace etviz {

// Longest model string a report or page shows whole. Longer ones (a hostile file's 100 MB
// node name, which `info` would otherwise print escaped at three times its size) are cut at a
// character boundary and end with a visible marker: "…[+99,934,464 bytes]".
inline constexpr size_t kMaxShownText = size_t{64} << 10;
// `text` when it fits in `max` bytes, else its first whole UTF-8 characters up to `max` bytes
// and the marker.
std::string shown_text(std::string_view text, size_t max = kMaxShownText);

// n with its digits grouped in threes: 1234567 -> "1,234,567" (reports, messages).
std::string grouped_digits(uint64_t n);

// For text reports and messages: newline and tab kept, everything above escaped (C0 and C1
// controls, bidi controls, U+2028 and U+2029 line and paragraph separators).
std::string terminal_safe(std::string_view text);

// terminal_safe with newlines and tabs escaped too (\n, \t): a model string inside one line
// of a report (a table cell, an error message) that cannot forge another line.
std::string one_line(std::string_view text);

// For JSON already escaped by its writer (control characters are \u escapes there): raw
// bidirectional controls become \uXXXX escapes, which mean the same inside JSON strings.
std::string json_terminal_safe(std::string_view json);

// True for the code points terminal_safe escapes besides C0/C1: bidi embeddings, overrides,
// isolates and marks (U+061C, U+200E-U+200F, U+202A-U+202E, U+2066-U+2069).
bool is_bidi_control(char32_t c);

// For XML and HTML (SVG text and attributes, the page's title). printable_utf8: valid,
// printable UTF-8; invalid sequences, C0 controls but tab and newline, DEL, C1 controls and
// U+FFFE/U+FFFF become U+FFFD (what XML allows, and what cairo and DOT tools accept).
std::string printable_utf8(std::string_view text);
// printable_utf8 with the markup characters as entities (' as &#39;, which XML and HTML both
// read), for character data and quoted attribute values; invisible_as_references applied.
std::string markup_escape(std::string_view text);
// Valid UTF-8 with bidi controls and U+2028/U+2029 as numeric character references (&#x202E;):
// XML, HTML and Graphviz read them as the same characters, and a file shown on a terminal
// carries no raw control that reorders or breaks the lines around it.
std::string invisible_as_references(std::string_view valid);

}  // namespace etviz
