#include "render/figures.h"

#include <fmt/format.h>

namespace etviz::render {

std::string figure_text(double x) {
  if (std::isnan(x)) return "nan";
  if (std::isinf(x)) return x > 0 ? "inf" : "-inf";
  return fmt::format("{:.6g}", x);
}

}  // namespace etviz::render
