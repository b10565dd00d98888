#include "core/colour.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <vector>

#include "core/number_text.h"

namespace etviz {
namespace {

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

struct NamedColour {
  std::string_view name;
  uint32_t rgb;
};

// CSS Color Module Level 4's named colours, sorted by name (binary search). The values were
// read from Chromium's canvas for each name CSS.supports(), so they are the browser's own.
constexpr NamedColour kNamed[] = {
    {"aliceblue", 0xf0f8ff},
    {"antiquewhite", 0xfaebd7},
    {"aqua", 0x00ffff},
    {"aquamarine", 0x7fffd4},
    {"azure", 0xf0ffff},
    {"beige", 0xf5f5dc},
    {"bisque", 0xffe4c4},
    {"black", 0x000000},
    {"blanchedalmond", 0xffebcd},
    {"blue", 0x0000ff},
    {"blueviolet", 0x8a2be2},
    {"brown", 0xa52a2a},
    {"burlywood", 0xdeb887},
    {"cadetblue", 0x5f9ea0},
    {"chartreuse", 0x7fff00},
    {"chocolate", 0xd2691e},
    {"coral", 0xff7f50},
    {"cornflowerblue", 0x6495ed},
    {"cornsilk", 0xfff8dc},
    {"crimson", 0xdc143c},
    {"cyan", 0x00ffff},
    {"darkblue", 0x00008b},
    {"darkcyan", 0x008b8b},
    {"darkgoldenrod", 0xb8860b},
    {"darkgray", 0xa9a9a9},
    {"darkgreen", 0x006400},
    {"darkgrey", 0xa9a9a9},
    {"darkkhaki", 0xbdb76b},
    {"darkmagenta", 0x8b008b},
    {"darkolivegreen", 0x556b2f},
    {"darkorange", 0xff8c00},
    {"darkorchid", 0x9932cc},
    {"darkred", 0x8b0000},
    {"darksalmon", 0xe9967a},
    {"darkseagreen", 0x8fbc8f},
    {"darkslateblue", 0x483d8b},
    {"darkslategray", 0x2f4f4f},
    {"darkslategrey", 0x2f4f4f},
    {"darkturquoise", 0x00ced1},
    {"darkviolet", 0x9400d3},
    {"deeppink", 0xff1493},
    {"deepskyblue", 0x00bfff},
    {"dimgray", 0x696969},
    {"dimgrey", 0x696969},
    {"dodgerblue", 0x1e90ff},
    {"firebrick", 0xb22222},
    {"floralwhite", 0xfffaf0},
    {"forestgreen", 0x228b22},
    {"fuchsia", 0xff00ff},
    {"gainsboro", 0xdcdcdc},
    {"ghostwhite", 0xf8f8ff},
    {"gold", 0xffd700},
    {"goldenrod", 0xdaa520},
    {"gray", 0x808080},
    {"green", 0x008000},
    {"greenyellow", 0xadff2f},
    {"grey", 0x808080},
    {"honeydew", 0xf0fff0},
    {"hotpink", 0xff69b4},
    {"indianred", 0xcd5c5c},
    {"indigo", 0x4b0082},
    {"ivory", 0xfffff0},
    {"khaki", 0xf0e68c},
    {"lavender", 0xe6e6fa},
    {"lavenderblush", 0xfff0f5},
    {"lawngreen", 0x7cfc00},
    {"lemonchiffon", 0xfffacd},
    {"lightblue", 0xadd8e6},
    {"lightcoral", 0xf08080},
    {"lightcyan", 0xe0ffff},
    {"lightgoldenrodyellow", 0xfafad2},
    {"lightgray", 0xd3d3d3},
    {"lightgreen", 0x90ee90},
    {"lightgrey", 0xd3d3d3},
    {"lightpink", 0xffb6c1},
    {"lightsalmon", 0xffa07a},
    {"lightseagreen", 0x20b2aa},
    {"lightskyblue", 0x87cefa},
    {"lightslategray", 0x778899},
    {"lightslategrey", 0x778899},
    {"lightsteelblue", 0xb0c4de},
    {"lightyellow", 0xffffe0},
    {"lime", 0x00ff00},
    {"limegreen", 0x32cd32},
    {"linen", 0xfaf0e6},
    {"magenta", 0xff00ff},
    {"maroon", 0x800000},
    {"mediumaquamarine", 0x66cdaa},
    {"mediumblue", 0x0000cd},
    {"mediumorchid", 0xba55d3},
    {"mediumpurple", 0x9370db},
    {"mediumseagreen", 0x3cb371},
    {"mediumslateblue", 0x7b68ee},
    {"mediumspringgreen", 0x00fa9a},
    {"mediumturquoise", 0x48d1cc},
    {"mediumvioletred", 0xc71585},
    {"midnightblue", 0x191970},
    {"mintcream", 0xf5fffa},
    {"mistyrose", 0xffe4e1},
    {"moccasin", 0xffe4b5},
    {"navajowhite", 0xffdead},
    {"navy", 0x000080},
    {"oldlace", 0xfdf5e6},
    {"olive", 0x808000},
    {"olivedrab", 0x6b8e23},
    {"orange", 0xffa500},
    {"orangered", 0xff4500},
    {"orchid", 0xda70d6},
    {"palegoldenrod", 0xeee8aa},
    {"palegreen", 0x98fb98},
    {"paleturquoise", 0xafeeee},
    {"palevioletred", 0xdb7093},
    {"papayawhip", 0xffefd5},
    {"peachpuff", 0xffdab9},
    {"peru", 0xcd853f},
    {"pink", 0xffc0cb},
    {"plum", 0xdda0dd},
    {"powderblue", 0xb0e0e6},
    {"purple", 0x800080},
    {"rebeccapurple", 0x663399},
    {"red", 0xff0000},
    {"rosybrown", 0xbc8f8f},
    {"royalblue", 0x4169e1},
    {"saddlebrown", 0x8b4513},
    {"salmon", 0xfa8072},
    {"sandybrown", 0xf4a460},
    {"seagreen", 0x2e8b57},
    {"seashell", 0xfff5ee},
    {"sienna", 0xa0522d},
    {"silver", 0xc0c0c0},
    {"skyblue", 0x87ceeb},
    {"slateblue", 0x6a5acd},
    {"slategray", 0x708090},
    {"slategrey", 0x708090},
    {"snow", 0xfffafa},
    {"springgreen", 0x00ff7f},
    {"steelblue", 0x4682b4},
    {"tan", 0xd2b48c},
    {"teal", 0x008080},
    {"thistle", 0xd8bfd8},
    {"tomato", 0xff6347},
    {"turquoise", 0x40e0d0},
    {"violet", 0xee82ee},
    {"wheat", 0xf5deb3},
    {"white", 0xffffff},
    {"whitesmoke", 0xf5f5f5},
    {"yellow", 0xffff00},
    {"yellowgreen", 0x9acd32},
};

Colour from_rgb(uint32_t rgb) {
  return {((rgb >> 16) & 0xff) / 255.0, ((rgb >> 8) & 0xff) / 255.0, (rgb & 0xff) / 255.0, 1};
}

}  // namespace

std::string Colour::hex() const {
  auto byte = [](double v) { return static_cast<int>(std::lround(std::clamp(v, 0.0, 1.0) * 255)); };
  char out[8];
  std::snprintf(out, sizeof out, "#%02x%02x%02x", byte(r), byte(g), byte(b));
  return out;
}

Result<Colour> parse_colour(std::string_view css) {
  while (!css.empty() && (css.front() == ' ' || css.front() == '\t')) css.remove_prefix(1);
  while (!css.empty() && (css.back() == ' ' || css.back() == '\t')) css.remove_suffix(1);
  auto bad = [&] {
    return Error("colour '" + std::string(css.substr(0, 64)) +
                 "' is not #rrggbb, #rgb, rgb(r, g, b), rgba(r, g, b, a) or a CSS colour name");
  };
  if (css.empty()) return bad();
  if (css[0] == '#') {
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
  if (std::isalpha(static_cast<unsigned char>(css[0])) && css.find('(') == std::string_view::npos) {
    if (css.size() > 32) return bad();
    std::string lower(css);
    for (char& c : lower) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lower == "transparent") return Colour{0, 0, 0, 0};
    const auto* end = std::end(kNamed);
    const auto* it =
        std::lower_bound(std::begin(kNamed), end, lower,
                         [](const NamedColour& n, const std::string& k) { return n.name < k; });
    if (it != end && it->name == lower) return from_rgb(it->rgb);
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
    if (parse_double(item, v) != NumberText::kOk) return bad();
    parts.push_back(v);
    if (comma == std::string_view::npos) break;
    body.remove_prefix(comma + 1);
  }
  if (parts.size() != (alpha ? 4u : 3u)) return bad();
  return Colour{parts[0] / 255.0, parts[1] / 255.0, parts[2] / 255.0, alpha ? parts[3] : 1.0};
}

Colour mix(const Colour& a, const Colour& towards, double t) {
  auto ch = [&](double x, double y) { return std::round((x * (1 - t) + y * t) * 255) / 255; };
  return {ch(a.r, towards.r), ch(a.g, towards.g), ch(a.b, towards.b), 1};
}

Colour lerp(const Colour& a, const Colour& b, double t) {
  t = std::clamp(t, 0.0, 1.0);
  auto ch = [&](double x, double y) { return x + (y - x) * t; };
  return {ch(a.r, b.r), ch(a.g, b.g), ch(a.b, b.b), ch(a.a, b.a)};
}

double luminance(const Colour& c) {
  auto lin = [](double v) { return v <= 0.03928 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4); };
  return 0.2126 * lin(c.r) + 0.7152 * lin(c.g) + 0.0722 * lin(c.b);
}

}  // namespace etviz
