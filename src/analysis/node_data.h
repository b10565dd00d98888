#pragma once
// Model Explorer node data (formats/side_files/node_data_file.h) joined with a document:
// which node each key names and the colour its value gets. The page's node data overlay and
// `etviz export --node-data` both draw these colours, so a picture and the page agree.
#include <optional>
#include <string>
#include <vector>

#include "core/colour.h"
#include "core/document.h"
#include "formats/side_files/node_data_file.h"

namespace etviz::analysis {

// How a set of values is coloured (the legend shows this).
enum class NodeDataScale : unsigned char {
  kGradient,    // the file's gradient, stop 0 at the smallest value, 1 at the largest
  kThresholds,  // the file's thresholds: value <= threshold
  kDefault,     // numbers without thresholds or gradient: the profile's light heat colours
  kLabels,      // string values: one colour per distinct value
  kOwn,         // only the results' own bgColor
};
const char* to_string(NodeDataScale s);

// One node's style: fill, its border and a text colour that reads on it.
struct NodeDataStyle {
  Colour fill, stroke, text;
  bool operator==(const NodeDataStyle&) const = default;
};
// A fill's border (30% towards black) and readable text (dark on light fills, light on dark).
NodeDataStyle node_data_style(const Colour& fill, const std::optional<Colour>& text = {});

struct NodeDataLegendItem {
  std::string label;  // "<= 10", "conv" or the value at a gradient stop
  Colour colour;
  double at = 0;  // gradient: 0..1
};

struct NodeDataSet {
  std::string graph_id;         // as the file names it; empty: every graph
  std::vector<int32_t> graphs;  // document graphs its keys matched in
  NodeDataScale scale = NodeDataScale::kOwn;
  bool numeric = false;
  double min = 0, max = 0;  // numeric values of the keys that name a node (else of all keys)
  std::vector<NodeDataLegendItem> legend;
  size_t results = 0, matched = 0;
  std::vector<std::string> unmatched;  // keys that name no node (all of them)
};

struct NodeDatum {
  int32_t graph = -1;
  NodeId node = kNoId;
  size_t set = 0;                      // NodeDataJoin::sets
  std::string key;                     // the key that matched (node name or output tensor name)
  std::optional<double> number;        // numeric value
  std::string text;                    // the value as shown
  std::optional<NodeDataStyle> style;  // none: a value without colour (above every threshold)
};

struct NodeDataJoin {
  std::string file;
  std::vector<NodeDataSet> sets;
  std::vector<NodeDatum> nodes;  // by (graph, node), one per node (the first key wins)
  std::vector<std::string> warnings;
};

// Keys match a node by its name (Model Explorer's node id; etviz's me-json writes node names
// as ids) or by the name of a value it produces (Model Explorer's output tensor_name). A set
// with a graph id applies to the document graph of that name only.
NodeDataJoin join_node_data(const side_files::NodeData& data, const Document& doc);

// Gradient colours are quantised to this many steps, so a page can style nodes by bucket.
inline constexpr int kNodeDataGradientSteps = 64;

}  // namespace etviz::analysis
