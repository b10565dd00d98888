#include "render/html/node_data.h"

#include <cmath>
#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>

#include "formats/json/json_string.h"
#include "render/json_text.h"
#include "view/node_data_figures.h"

namespace etviz::render::html {
namespace {

using nlohmann::json;

double distance(const Colour& a, const Colour& b) {
  return (a.r - b.r) * (a.r - b.r) + (a.g - b.g) * (a.g - b.g) + (a.b - b.b) * (a.b - b.b);
}

}  // namespace

std::string node_data_json(const analysis::NodeDataJoin& join, const Document& doc,
                           std::span<const view::ViewModel> views) {
  json root;
  root["file"] = std::filesystem::path(join.file).filename().string();
  root["warnings"] = join.warnings;

  // Distinct styles, in order of first use.
  std::vector<analysis::NodeDataStyle> styles;
  std::map<std::string, size_t> style_index;
  auto style_of = [&](const analysis::NodeDataStyle& s) -> int64_t {
    const std::string key = s.fill.hex() + s.stroke.hex() + s.text.hex();
    if (auto it = style_index.find(key); it != style_index.end())
      return static_cast<int64_t>(it->second);
    if (styles.size() >= kMaxNodeDataStyles) {
      size_t best = 0;
      for (size_t k = 1; k < styles.size(); ++k)
        if (distance(styles[k].fill, s.fill) < distance(styles[best].fill, s.fill)) best = k;
      return static_cast<int64_t>(best);
    }
    style_index.emplace(key, styles.size());
    styles.push_back(s);
    return static_cast<int64_t>(styles.size() - 1);
  };

  json sets = json::array();
  for (const analysis::NodeDataSet& set : join.sets) {
    json legend = json::array();
    for (const auto& item : set.legend)
      legend.push_back({{"label", item.label}, {"colour", item.colour.hex()}, {"at", item.at}});
    json unmatched = json::array();
    for (size_t k = 0; k < set.unmatched.size() && k < 200; ++k)
      unmatched.push_back(set.unmatched[k]);
    json s = {{"graphId", set.graph_id},
              {"scale", analysis::to_string(set.scale)},
              {"numeric", set.numeric},
              {"results", set.results},
              {"matched", set.matched},
              {"unmatchedCount", set.unmatched.size()},
              {"unmatched", std::move(unmatched)},
              {"legend", std::move(legend)}};
    if (set.numeric) {
      s["min"] = set.min;
      s["max"] = set.max;
    }
    sets.push_back(std::move(s));
  }
  root["sets"] = std::move(sets);

  json graphs = json::array();
  for (size_t v = 0; v < views.size(); ++v) {
    json node = json::array(), value = json::array(), text = json::array(), key = json::array(),
         style = json::array(), set = json::array(), name = json::array();
    for (const view::ViewDatum& placed : view::node_data_in_view(join, views[v])) {
      const analysis::NodeDatum& d = join.nodes[placed.datum];
      node.push_back(placed.node);
      if (d.number && std::isfinite(*d.number))
        value.push_back(*d.number);
      else
        value.push_back(nullptr);
      // What the page can tell by itself is left out: a number's text, a key that is the
      // node's name (125k values: 8 MB less page).
      const std::string& node_name =
          doc.graphs[static_cast<size_t>(d.graph)].nodes[static_cast<size_t>(d.node)].name;
      if (d.number && std::isfinite(*d.number))
        text.push_back(nullptr);
      else
        text.push_back(d.text);
      if (d.key == node_name)
        key.push_back(nullptr);
      else
        key.push_back(d.key);
      style.push_back(d.style ? style_of(*d.style) : -1);
      set.push_back(d.set);
      name.push_back(
          doc.graphs[static_cast<size_t>(d.graph)].nodes[static_cast<size_t>(d.node)].name);
    }
    if (node.empty()) continue;
    graphs.push_back({{"graph", v},
                      {"graphName", doc.graphs[static_cast<size_t>(views[v].root_graph)].name},
                      {"node", std::move(node)},
                      {"name", std::move(name)},
                      {"value", std::move(value)},
                      {"text", std::move(text)},
                      {"key", std::move(key)},
                      {"style", std::move(style)},
                      {"set", std::move(set)}});
  }
  root["graphs"] = std::move(graphs);
  json st = json::array();
  for (const auto& s : styles)
    st.push_back({{"fill", s.fill.hex()}, {"stroke", s.stroke.hex()}, {"text", s.text.hex()}});
  root["styles"] = std::move(st);
  return script_safe_json(json_text(root, -1));
}

}  // namespace etviz::render::html
