#pragma once
// Sizes given on etviz-gen's command line: plain byte counts or K/M/G suffixes (binary):
// "1G" = 1 GiB. `option` names the option in the message.
#include <CLI/CLI.hpp>
#include <cstdint>
#include <string>

namespace etviz::gen {

inline uint64_t parse_bytes(const std::string& s, const std::string& option) {
  size_t pos = 0;
  const double v = std::stod(s, &pos);
  uint64_t scale = 1;
  if (pos < s.size()) {
    switch (s[pos]) {
      case 'k':
      case 'K':
        scale = 1ull << 10;
        break;
      case 'm':
      case 'M':
        scale = 1ull << 20;
        break;
      case 'g':
      case 'G':
        scale = 1ull << 30;
        break;
      default:
        throw CLI::ValidationError(option, "unknown size suffix in '" + s + "'");
    }
  }
  return static_cast<uint64_t>(v * static_cast<double>(scale));
}

}  // namespace etviz::gen
