#include "analysis/node_data.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <tuple>
#include <unordered_map>

#include "analysis/heat_scale.h"

namespace etviz::analysis {
namespace {

Colour css(std::string_view text) {
  auto c = parse_colour(text);
  return c ? *c : Colour{0.5, 0.5, 0.5, 1};
}

// String values without their own colour: one of these per distinct value, in order of first
// appearance (cycling past the tenth).
constexpr std::string_view kLabelColours[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2",
                                              "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
                                              "#9c755f", "#bab0ac"};

// Node names and produced value names of one graph -> nodes.
struct GraphKeys {
  std::unordered_map<std::string, std::vector<NodeId>> by_name;
  std::unordered_map<std::string, std::vector<NodeId>> by_output;

  explicit GraphKeys(const Graph& g) {
    for (NodeId n = 0; n < static_cast<NodeId>(g.nodes.size()); ++n) {
      const Node& node = g.nodes[static_cast<size_t>(n)];
      by_name[node.name].push_back(n);
      for (const Argument& out : node.outputs)
        if (out.value >= 0 && static_cast<size_t>(out.value) < g.values.size() &&
            !g.values[static_cast<size_t>(out.value)].name.empty())
          by_output[g.values[static_cast<size_t>(out.value)].name].push_back(n);
    }
  }
  const std::vector<NodeId>* find(const std::string& key) const {
    if (auto it = by_name.find(key); it != by_name.end()) return &it->second;
    if (auto it = by_output.find(key); it != by_output.end()) return &it->second;
    return nullptr;
  }
};

std::string number_label(double v) {
  if (v == std::floor(v) && std::fabs(v) < 1e15) return fmt::format("{:.0f}", v);
  return fmt::format("{:.4g}", v);
}

// The colour of a position t (0..1) on gradient stops that carry `pick`'s colour.
template <typename Pick>
std::optional<Colour> along(const std::vector<side_files::NodeDataStop>& stops, double t,
                            Pick pick) {
  const side_files::NodeDataStop* below = nullptr;
  const side_files::NodeDataStop* above = nullptr;
  for (const auto& s : stops) {
    if (!pick(s)) continue;
    if (s.stop <= t) below = &s;
    if (s.stop >= t && !above) above = &s;
  }
  if (!below && !above) return std::nullopt;
  if (!below) return *pick(*above);
  if (!above) return *pick(*below);
  if (above->stop <= below->stop) return *pick(*below);
  return lerp(*pick(*below), *pick(*above), (t - below->stop) / (above->stop - below->stop));
}

}  // namespace

const char* to_string(NodeDataScale s) {
  switch (s) {
    case NodeDataScale::kGradient:
      return "gradient";
    case NodeDataScale::kThresholds:
      return "thresholds";
    case NodeDataScale::kDefault:
      return "default";
    case NodeDataScale::kLabels:
      return "labels";
    case NodeDataScale::kOwn:
      return "own";
  }
  return "?";
}

NodeDataStyle node_data_style(const Colour& fill, const std::optional<Colour>& text) {
  NodeDataStyle s;
  s.fill = fill;
  s.fill.a = 1;  // an opaque box: the page and pictures draw boxes over edges
  if (fill.a < 1) s.fill = lerp(Colour{1, 1, 1, 1}, Colour{fill.r, fill.g, fill.b, 1}, fill.a);
  s.stroke = mix(s.fill, Colour{0, 0, 0, 1}, 0.3);
  s.text = text ? *text : luminance(s.fill) > 0.22 ? css("#1d2330") : css("#f5f7fa");
  return s;
}

NodeDataJoin join_node_data(const side_files::NodeData& data, const Document& doc) {
  NodeDataJoin out;
  out.file = data.path;
  std::map<int32_t, GraphKeys> keys;
  auto keys_of = [&](int32_t g) -> const GraphKeys& {
    auto it = keys.find(g);
    if (it == keys.end()) it = keys.emplace(g, GraphKeys(doc.graphs[static_cast<size_t>(g)])).first;
    return it->second;
  };
  std::set<std::pair<int32_t, NodeId>> taken;
  for (size_t si = 0; si < data.graphs.size(); ++si) {
    const side_files::GraphNodeData& gd = data.graphs[si];
    NodeDataSet set;
    set.graph_id = gd.graph;
    set.results = gd.results.size();
    std::vector<int32_t> targets;
    for (size_t g = 0; g < doc.graphs.size(); ++g)
      if (gd.graph.empty() || doc.graphs[g].name == gd.graph)
        targets.push_back(static_cast<int32_t>(g));
    if (!gd.graph.empty() && targets.empty()) {
      std::string names;
      for (const Graph& g : doc.graphs) names += (names.empty() ? "" : ", ") + g.name;
      out.warnings.push_back(
          fmt::format("{}: graph '{}' is not a graph of {} (graphs: {}); its {} "
                      "values are not shown",
                      data.path, gd.graph, doc.path(), names, gd.results.size()));
    }

    // Which results name a node of the target graphs: the scale spans those (a key that
    // matches nothing must not stretch the colours of the ones shown).
    std::vector<bool> matches(gd.results.size());
    bool any_match = false;
    for (size_t k = 0; k < gd.results.size(); ++k)
      for (int32_t g : targets)
        if (keys_of(g).find(gd.results[k].key)) {
          matches[k] = true;
          any_match = true;
          break;
        }

    // The scale.
    bool strings = false;
    double lo = 0, hi = 0;
    for (size_t k = 0; k < gd.results.size(); ++k) {
      const auto& r = gd.results[k];
      if (any_match && !matches[k]) continue;
      if (!r.number) {
        strings = strings || !r.bg;
        continue;
      }
      if (!std::isfinite(*r.number)) continue;
      if (!set.numeric || *r.number < lo) lo = *r.number;
      if (!set.numeric || *r.number > hi) hi = *r.number;
      set.numeric = true;
    }
    set.min = lo;
    set.max = hi;
    if (set.numeric && !gd.gradient.empty())
      set.scale = NodeDataScale::kGradient;
    else if (set.numeric && !gd.thresholds.empty())
      set.scale = NodeDataScale::kThresholds;
    else if (set.numeric)
      set.scale = NodeDataScale::kDefault;
    else if (strings)
      set.scale = NodeDataScale::kLabels;
    auto position = [&](double v) {
      double t = hi > lo ? (v - lo) / (hi - lo) : 0;
      t = std::clamp(t, 0.0, 1.0);
      return std::round(t * (kNodeDataGradientSteps - 1)) / (kNodeDataGradientSteps - 1);
    };
    switch (set.scale) {
      case NodeDataScale::kGradient:
        for (const auto& s : gd.gradient)
          if (s.bg) set.legend.push_back({number_label(lo + s.stop * (hi - lo)), *s.bg, s.stop});
        break;
      case NodeDataScale::kThresholds:
        for (const auto& t : gd.thresholds)
          set.legend.push_back({"\u2264 " + number_label(t.value), t.bg, 0});
        break;
      case NodeDataScale::kDefault:
        for (int k = 0; k < kHeatSteps; ++k)
          set.legend.push_back({number_label(lo + (hi - lo) * k / kHeatSteps),
                                css(kHeatLight[static_cast<size_t>(k)]),
                                static_cast<double>(k) / kHeatSteps});
        break;
      default:
        break;
    }
    std::map<std::string, Colour> label_colour;
    auto style_of = [&](const side_files::NodeDataResult& r) -> std::optional<NodeDataStyle> {
      if (r.bg) return node_data_style(*r.bg, r.fg);
      if (!r.number) {
        auto it = label_colour.find(r.text);
        if (it == label_colour.end()) {
          const Colour c = css(kLabelColours[label_colour.size() % std::size(kLabelColours)]);
          it = label_colour.emplace(r.text, c).first;
          set.legend.push_back({r.text, c, 0});
        }
        return node_data_style(it->second, r.fg);
      }
      const double v = *r.number;
      if (std::isnan(v)) return std::nullopt;
      switch (set.scale) {
        case NodeDataScale::kGradient: {
          const double t = position(v);
          auto bg = along(gd.gradient, t, [](const auto& s) { return s.bg; });
          auto fg = along(gd.gradient, t, [](const auto& s) { return s.fg; });
          if (!bg) return std::nullopt;
          return node_data_style(*bg, r.fg ? r.fg : fg);
        }
        case NodeDataScale::kThresholds:
          for (const auto& t : gd.thresholds)
            if (v <= t.value) return node_data_style(t.bg, r.fg ? r.fg : t.fg);
          return std::nullopt;
        case NodeDataScale::kDefault: {
          const double t = hi > lo ? std::clamp((v - lo) / (hi - lo), 0.0, 1.0) : 0;
          const int step = std::min(kHeatSteps - 1, static_cast<int>(std::floor(t * kHeatSteps)));
          return node_data_style(css(kHeatLight[static_cast<size_t>(step)]), r.fg);
        }
        default:
          return std::nullopt;
      }
    };

    for (const auto& r : gd.results) {
      const std::optional<NodeDataStyle> style = style_of(r);
      bool matched = false;
      for (int32_t g : targets) {
        const std::vector<NodeId>* nodes = keys_of(g).find(r.key);
        if (!nodes) continue;
        matched = true;
        if (std::find(set.graphs.begin(), set.graphs.end(), g) == set.graphs.end())
          set.graphs.push_back(g);
        for (NodeId n : *nodes) {
          if (!taken.insert({g, n}).second) continue;
          out.nodes.push_back({g, n, si, r.key, r.number, r.text, style});
        }
      }
      if (matched)
        ++set.matched;
      else
        set.unmatched.push_back(r.key);
    }
    if (!set.unmatched.empty() && !targets.empty()) {
      std::string first;
      for (size_t k = 0; k < set.unmatched.size() && k < 5; ++k)
        first += (k ? ", " : "") + set.unmatched[k].substr(0, 60);
      out.warnings.push_back(
          fmt::format("{}: {} of {} keys{} name no node or output tensor (first: {})", data.path,
                      set.unmatched.size(), set.results,
                      gd.graph.empty() ? "" : fmt::format(" of graph '{}'", gd.graph), first));
    }
    out.sets.push_back(std::move(set));
  }
  std::sort(out.nodes.begin(), out.nodes.end(), [](const NodeDatum& a, const NodeDatum& b) {
    return std::tie(a.graph, a.node) < std::tie(b.graph, b.node);
  });
  return out;
}

}  // namespace etviz::analysis
