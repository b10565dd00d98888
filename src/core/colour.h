#pragma once
// A colour as CSS writes it: the page's theme (viewer.css), category colours, and the colours
// users give in Model Explorer node data (`bgColor: "red"`, "#aabb00"). One parser, so a
// picture, a page and a legend read a colour the same way.
#include <string>
#include <string_view>

#include "core/status.h"

namespace etviz {

struct Colour {
  double r = 0, g = 0, b = 0;  // 0..1
  double a = 1;
  bool none() const { return a <= 0; }
  bool operator==(const Colour&) const = default;
  std::string hex() const;  // "#rrggbb" (alpha apart)
};

// "#rrggbb", "#rgb", "rgb(r, g, b)", "rgba(r, g, b, a)", "transparent" or one of CSS's 148
// colour names ("red", "rebeccapurple"; any case); an unreadable value is an error naming it.
Result<Colour> parse_colour(std::string_view css);

// The viewer's mix(): a colour `t` of the way towards `towards`, rounded to whole 8-bit
// channels as the page's mix() writes rgb(r,g,b).
Colour mix(const Colour& a, const Colour& towards, double t);

// A colour `t` (0..1) of the way along `a` -> `b`, alpha included, unrounded (gradients).
Colour lerp(const Colour& a, const Colour& b, double t);

// WCAG relative luminance (0 black .. 1 white): which text colour reads on a fill.
double luminance(const Colour& c);

}  // namespace etviz
