#include "render/export/overlays.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <map>
#include <set>

#include "formats/json/json_string.h"
#include "render/table.h"
#include "view/node_data_figures.h"

namespace etviz::render::picture {
namespace {

Colour css(std::string_view text) {
  auto c = parse_colour(text);
  return c ? *c : Colour{0.5, 0.5, 0.5, 1};
}

}  // namespace

std::string format_time(double v, const std::string& unit) {
  if (!(v >= 0)) return "";
  std::string text;
  if (unit == "ticks" || v >= 1000)
    text = with_thousands(std::round(v), 0);
  else if (v >= 100)
    text = fmt::format("{:.1f}", v);
  else if (v >= 10)
    text = fmt::format("{:.2f}", v);
  else
    text = fmt::format("{:.3f}", v);
  return text + " " + (unit == "us" ? "\u00b5s" : unit);
}

PictureOverlay profile_picture_overlay(const view::ProfileOverlay& profile, const Document& doc,
                                       const view::ViewModel& model, HeatMode mode,
                                       analysis::HeatScale scale, Theme theme, const Palette& pal) {
  PictureOverlay o;
  o.node_styles.resize(model.nodes.size());
  o.unstyled = {pal.collapsed_fill, pal.collapsed_stroke, pal.collapsed_stroke, pal.text};
  const std::span<const view::ViewModel> views(&model, 1);
  const auto figures = view::profile_node_figures(profile, doc, views);
  auto value = [&](const view::NodeFigures& f) {
    return view::heat_figure(f, mode, profile.scale);
  };
  double min = 0, max = 0;
  for (const auto& [k, f] : figures) {
    const double v = value(f);
    max = std::max(max, v);
    if (v > 0 && (min == 0 || v < min)) min = v;
  }
  const bool dark = theme == Theme::kDark;
  const auto& colours = dark ? analysis::kHeatDark : analysis::kHeatLight;
  std::vector<NodeStyle> steps;
  for (std::string_view c : colours) {
    const Colour fill = css(c);
    const Colour stroke = mix(fill, dark ? Colour{1, 1, 1, 1} : Colour{0, 0, 0, 1}, 0.3);
    steps.push_back({fill, stroke, stroke, pal.text});
  }
  if (max > 0)
    for (const auto& [k, f] : figures)
      if (k >= 0 && static_cast<size_t>(k) < o.node_styles.size())
        o.node_styles[static_cast<size_t>(k)] =
            steps[static_cast<size_t>(analysis::heat_step(value(f), min, max, scale))];

  const std::string unit = profile.scale.label();
  const std::string shown_unit = unit == "us" ? "\u00b5s" : unit;
  const char* what = mode == HeatMode::kShare ? "share of Method::execute"
                     : mode == HeatMode::kP90 ? "p90"
                                              : "avg per occurrence";
  o.title =
      mode == HeatMode::kShare
          ? fmt::format("Time \u00b7 {} \u00b7 {}", what, profile.file_name)
          : fmt::format("Time \u00b7 {} ({}) \u00b7 {}{}", what, shown_unit, profile.file_name,
                        scale == analysis::HeatScale::kLog ? " \u00b7 log scale" : "");
  auto label = [&](double v) {
    return mode == HeatMode::kShare ? fmt::format("{:.1f}%", v * 100) : format_time(v, unit);
  };
  const bool log = scale == analysis::HeatScale::kLog && min > 0 && max > min;
  // Each step labelled by where it starts; the first by where the second starts.
  auto lower = [&](size_t k) {
    const double t = static_cast<double>(k) / static_cast<double>(steps.size());
    return log ? min * std::pow(max / min, t) : max * t;
  };
  for (size_t k = 0; k < steps.size(); ++k)
    o.items.push_back(
        {steps[k].fill, k == 0 ? "< " + label(lower(1)) : "\u2265 " + label(lower(k))});
  o.note = fmt::format("no events ({} nodes) \u00b7 {} timed", model.nodes.size() - figures.size(),
                       figures.size());
  if (figures.empty())
    o.note = fmt::format("no events for this graph (the profile ran {})",
                         profile.method.empty() ? "another method" : profile.method);
  return o;
}

std::string profile_me_node_data(const view::ProfileOverlay& profile, const Document& doc,
                                 const view::ViewModel& model, HeatMode mode,
                                 const std::map<int32_t, MeJsonStats::GraphIds>& ids,
                                 size_t* nodes) {
  const std::span<const view::ViewModel> views(&model, 1);
  const auto figures = view::profile_node_figures(profile, doc, views);
  // graph id -> "node id": value, in graph order.
  std::map<std::string, std::vector<std::pair<std::string, double>>> results;
  size_t written = 0;
  for (const auto& [k, f] : figures) {
    if (k < 0 || static_cast<size_t>(k) >= model.nodes.size()) continue;
    const view::ViewNode& vn = model.nodes[static_cast<size_t>(k)];
    auto g = ids.find(vn.graph);
    if (g == ids.end() || vn.node < 0 || static_cast<size_t>(vn.node) >= g->second.nodes.size())
      continue;
    const double v = view::heat_figure(f, mode, profile.scale);
    if (!std::isfinite(v)) continue;
    results[g->second.id].push_back({g->second.nodes[static_cast<size_t>(vn.node)], v});
    ++written;
  }
  if (nodes) *nodes = written;
  std::string gradient = "[";
  for (size_t k = 0; k < analysis::kHeatLight.size(); ++k)
    gradient += fmt::format("{}{{\"stop\":{},\"bgColor\":\"{}\"}}", k ? "," : "",
                            static_cast<double>(k) / (analysis::kHeatLight.size() - 1),
                            analysis::kHeatLight[k]);
  gradient += "]";
  std::string out = "{";
  bool first_graph = true;
  for (const auto& [graph, values] : results) {
    out += first_graph ? "\n" : ",\n";
    first_graph = false;
    append_json_string(out, graph);
    out += ":{\"results\":{";
    for (size_t k = 0; k < values.size(); ++k) {
      out += k ? ",\n" : "\n";
      append_json_string(out, values[k].first);
      out += fmt::format(":{{\"value\":{}}}", values[k].second);
    }
    out += "},\n\"gradient\":" + gradient + "}";
  }
  out += "\n}\n";
  return out;
}

PictureOverlay node_data_picture_overlay(const analysis::NodeDataJoin& join,
                                         const view::ViewModel& model, const Palette& pal) {
  PictureOverlay o;
  o.node_styles.resize(model.nodes.size());
  o.unstyled = {pal.collapsed_fill, pal.collapsed_stroke, pal.collapsed_stroke, pal.text};
  size_t valued = 0;
  std::set<size_t> sets;  // the value sets with a value in this view
  for (const view::ViewDatum& placed : view::node_data_in_view(join, model)) {
    const analysis::NodeDatum& d = join.nodes[placed.datum];
    ++valued;
    sets.insert(d.set);
    if (d.style)
      o.node_styles[static_cast<size_t>(placed.node)] =
          NodeStyle{d.style->fill, d.style->stroke, d.style->stroke, d.style->text};
  }
  const std::string file = std::filesystem::path(join.file).filename().string();
  if (sets.size() == 1) {
    const analysis::NodeDataSet& set = join.sets[*sets.begin()];
    o.title = fmt::format("Node data \u00b7 {}{} \u00b7 {}", file,
                          set.graph_id.empty() ? "" : " \u00b7 " + set.graph_id,
                          set.scale == analysis::NodeDataScale::kDefault
                              ? std::string("values")
                              : analysis::to_string(set.scale));
  } else if (sets.empty()) {
    o.title = fmt::format("Node data \u00b7 {} \u00b7 no key names a node of this graph", file);
  } else {
    o.title = fmt::format("Node data \u00b7 {} \u00b7 {} value sets", file, sets.size());
  }
  // Each set's swatches; with several, the first of each names its graph id.
  for (size_t k : sets) {
    const analysis::NodeDataSet& set = join.sets[k];
    for (size_t i = 0; i < set.legend.size(); ++i) {
      const std::string prefix = sets.size() > 1 && i == 0
                                     ? (set.graph_id.empty() ? "every graph" : set.graph_id) + ": "
                                     : "";
      o.items.push_back({set.legend[i].colour, prefix + set.legend[i].label});
    }
  }
  o.note =
      fmt::format("no value ({} nodes) \u00b7 {} with values", model.nodes.size() - valued, valued);
  return o;
}

}  // namespace etviz::render::picture
