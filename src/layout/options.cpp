#include <cmath>

#include "layout.h"

namespace etviz::layout {
namespace {

template <typename Enum>
Enum enum_from(double v, Enum largest) {
  const double clamped = std::fmin(std::fmax(v, 0), static_cast<double>(largest));
  return static_cast<Enum>(static_cast<int>(clamped));
}

// The table. Getters and setters are captureless lambdas so the table is constant data.
constexpr OptionField kFields[] = {
    {"direction", [](const Options& o) { return static_cast<double>(o.direction); },
     [](Options& o, double v) { o.direction = enum_from(v, Direction::kLeftToRight); }},
    {"nodeSpacing", [](const Options& o) { return o.node_spacing; },
     [](Options& o, double v) { o.node_spacing = v; }},
    {"layerSpacing", [](const Options& o) { return o.layer_spacing; },
     [](Options& o, double v) { o.layer_spacing = v; }},
    {"edgeSpacing", [](const Options& o) { return o.edge_spacing; },
     [](Options& o, double v) { o.edge_spacing = v; }},
    {"groupPadding", [](const Options& o) { return o.group_padding; },
     [](Options& o, double v) { o.group_padding = v; }},
    {"componentSpacing", [](const Options& o) { return o.component_spacing; },
     [](Options& o, double v) { o.component_spacing = v; }},
    {"layering", [](const Options& o) { return static_cast<double>(o.layering); },
     [](Options& o, double v) { o.layering = enum_from(v, LayeringStrategy::kNetworkSimplex); }},
    {"ordering", [](const Options& o) { return static_cast<double>(o.ordering); },
     [](Options& o, double v) {
       o.ordering = enum_from(v, OrderingStrategy::kMedianAndBarycenter);
     }},
    {"orderingSweeps", [](const Options& o) { return static_cast<double>(o.ordering_sweeps); },
     [](Options& o, double v) {
       o.ordering_sweeps = static_cast<int>(std::fmin(std::fmax(v, 0), 1000));
     }},
    {"transpose", [](const Options& o) { return o.transpose ? 1.0 : 0.0; },
     [](Options& o, double v) { o.transpose = v != 0; }},
    {"coordinates", [](const Options& o) { return static_cast<double>(o.coordinates); },
     [](Options& o, double v) { o.coordinates = enum_from(v, CoordinateStrategy::kAuto); }},
    {"bundleFanOut", [](const Options& o) { return o.bundle_fan_out ? 1.0 : 0.0; },
     [](Options& o, double v) { o.bundle_fan_out = v != 0; }},
    {"longEdges", [](const Options& o) { return static_cast<double>(o.long_edges); },
     [](Options& o, double v) { o.long_edges = enum_from(v, LongEdgeOrdering::kSegments); }},
    {"groupTitle", [](const Options& o) { return o.group_title; },
     [](Options& o, double v) { o.group_title = std::fmin(std::fmax(v, 0), 1000); }},
};

}  // namespace

std::span<const OptionField> option_fields() {
  return kFields;
}

std::vector<double> encode_options(const Options& options) {
  std::vector<double> out;
  out.reserve(std::size(kFields));
  for (const OptionField& f : kFields) out.push_back(f.get(options));
  return out;
}

Options decode_options(std::span<const double> values) {
  Options o;
  for (size_t i = 0; i < values.size() && i < std::size(kFields); ++i)
    if (std::isfinite(values[i])) kFields[i].set(o, values[i]);
  return o;
}

}  // namespace etviz::layout
