#include "render/export/painter.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <vector>

namespace etviz::render::picture {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

std::string Colour::hex() const {
  auto byte = [](double v) { return static_cast<int>(std::lround(std::clamp(v, 0.0, 1.0) * 255)); };
  return fmt::format("#{:02x}{:02x}{:02x}", byte(r), byte(g), byte(b));
}

Result<Colour> parse_colour(std::string_view css) {
  auto bad = [&] {
    return Error(
        fmt::format("colour '{}' is not #rrggbb, #rgb, rgb(r, g, b) or rgba(r, g, b, a)", css));
  };
  if (!css.empty() && css[0] == '#') {
    const std::string_view h = css.substr(1);
    std::vector<int> d;
    for (char c : h) {
      if (hex_digit(c) < 0) return bad();
      d.push_back(hex_digit(c));
    }
    if (d.size() == 6)
      return Colour{(d[0] * 16 + d[1]) / 255.0, (d[2] * 16 + d[3]) / 255.0,
                    (d[4] * 16 + d[5]) / 255.0, 1};
    if (d.size() == 3) return Colour{d[0] * 17 / 255.0, d[1] * 17 / 255.0, d[2] * 17 / 255.0, 1};
    return bad();
  }
  const bool alpha = css.rfind("rgba(", 0) == 0;
  if (!alpha && css.rfind("rgb(", 0) != 0) return bad();
  if (css.back() != ')') return bad();
  std::string_view body = css.substr(alpha ? 5 : 4);
  body.remove_suffix(1);
  std::vector<double> parts;
  while (!body.empty()) {
    while (!body.empty() && body.front() == ' ') body.remove_prefix(1);
    const size_t comma = body.find(',');
    std::string_view item = body.substr(0, comma);
    while (!item.empty() && item.back() == ' ') item.remove_suffix(1);
    double v = 0;
    auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (ec != std::errc() || end != item.data() + item.size()) return bad();
    parts.push_back(v);
    if (comma == std::string_view::npos) break;
    body.remove_prefix(comma + 1);
  }
  if (parts.size() != (alpha ? 4u : 3u)) return bad();
  return Colour{parts[0] / 255.0, parts[1] / 255.0, parts[2] / 255.0, alpha ? parts[3] : 1.0};
}

Colour mix(const Colour& a, const Colour& towards, double t) {
  // Rounded to whole 8-bit channels, as the page's mix() writes rgb(r,g,b).
  auto ch = [&](double x, double y) { return std::round((x * (1 - t) + y * t) * 255) / 255; };
  return {ch(a.r, towards.r), ch(a.g, towards.g), ch(a.b, towards.b), 1};
}

std::string printable_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  const char* kReplacement = "\xEF\xBF\xBD";
  for (size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7F)
        out += kReplacement;
      else
        out += static_cast<char>(c);
      ++i;
      continue;
    }
    // A well-formed sequence: no overlongs, surrogates or values past U+10FFFF.
    size_t len = 0;
    char32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      cp = c & 0x07;
    }
    bool ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; ++k) {
      ok = (p[i + k] & 0xC0) == 0x80;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    ok = ok && !(len == 3 && cp < 0x800) && !(len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) &&
         !(cp >= 0xD800 && cp <= 0xDFFF) && cp != 0xFFFE && cp != 0xFFFF &&
         !(cp >= 0x80 && cp <= 0x9F);
    if (!ok) {
      out += kReplacement;
      ++i;
      continue;
    }
    out.append(text.substr(i, len));
    i += len;
  }
  return out;
}

}  // namespace etviz::render::picture
