#pragma once
// A measured figure (an SNR, a mean difference, a statistic) as every report writes it: the
// numerics and value-diff reports, text and JSON alike.
#include <cmath>
#include <string>

namespace etviz::render {

// "%.6g", or "inf", "-inf", "nan".
std::string figure_text(double x);

// In JSON (either nlohmann flavour): the number when finite, else figure_text's word (JSON has
// no infinity; an SNR of two equal tensors is "inf").
template <class Json>
Json figure_json(double x) {
  return std::isfinite(x) ? Json(x) : Json(figure_text(x));
}

}  // namespace etviz::render
