#pragma once
// Little-endian loads and tag formatting for hand-parsed headers.
#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

namespace etviz {

template <typename T>
T load_le(const uint8_t* p) {
  T v;
  std::memcpy(&v, p, sizeof v);  // hosts are little-endian (checked at build time)
  return v;
}
static_assert(std::endian::native == std::endian::little, "etviz assumes a little-endian host");

// A 4-byte magic as text, with non-printable bytes escaped: "ET12", "\x00\x01PK".
inline std::string printable_tag(std::span<const uint8_t> tag) {
  std::string s;
  for (uint8_t c : tag) {
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      s += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789abcdef";
      s += "\\x";
      s += hex[c >> 4];
      s += hex[c & 15];
    }
  }
  return s;
}

}  // namespace etviz
