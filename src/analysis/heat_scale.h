#pragma once
// The profile overlay's heat scale, one definition for the page (written into its profile
// data, read by web/src/profile_overlay.js) and for pictures (`etviz export --etdump`).
#include <algorithm>
#include <array>
#include <cmath>
#include <string_view>

namespace etviz::analysis {

// Eight steps from cool to hot. Light theme: pale to saturated with dark text on every step
// (contrast >= 4.5 against the theme's text); dark theme: deep to strong, light text. The
// dark scale starts well above the untimed boxes' grey, so the coolest step still reads as
// "timed".
inline constexpr std::array<std::string_view, 8> kHeatLight = {
    "#fff6d5", "#ffe8a8", "#fed283", "#fdb86d", "#fb9d5e", "#f78456", "#f07055", "#ea5f55"};
inline constexpr std::array<std::string_view, 8> kHeatDark = {
    "#5a4b1e", "#6d521f", "#805820", "#935c22", "#a45c25", "#b35729", "#c04d2d", "#c94132"};
inline constexpr int kHeatSteps = static_cast<int>(kHeatLight.size());

enum class HeatScale : unsigned char { kLinear, kLog };

// The heat step (0 .. kHeatSteps-1) of a value: linear in [0, max], or logarithmic in [min,
// max] (min: the smallest positive figure) where each step is the same factor. The page's
// ProfileOverlay.step() is the same formula (a browser test compares the two).
inline int heat_step(double v, double min, double max, HeatScale scale) {
  if (!(v > 0) || !(max > 0)) return 0;
  const double t = scale == HeatScale::kLog && min > 0 && max > min
                       ? std::log(v / min) / std::log(max / min)
                       : v / max;
  return std::clamp(static_cast<int>(std::floor(t * kHeatSteps)), 0, kHeatSteps - 1);
}

}  // namespace etviz::analysis
