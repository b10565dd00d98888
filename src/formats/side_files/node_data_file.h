#pragma once
// Model Explorer's node data (google-ai-edge/model-explorer, node_data_builder.py): per-node
// values with colours, laid over a graph (`etviz view|export --node-data FILE.json`).
// docs/export.md, "Node data".
//
// Accepted roots:
//   GraphNodeData  {results: {key: {value, bgColor?, textColor?}}, thresholds?, gradient?, ...}
//   ModelNodeData  {graph id: GraphNodeData, ...}   (also wrapped as {graphsData: {...}})
// A key names a node (its id, which is the node's name in etviz) or one of its output
// tensors. `value` is a number or a string. thresholds: [{value, bgColor, textColor?}], a value
// <= the first (smallest) threshold takes its colour, above the last none. gradient: [{stop
// 0..1, bgColor?, textColor?}], stop 0 at the smallest value and 1 at the largest; it takes
// precedence over thresholds. A result's own bgColor/textColor wins over both.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/colour.h"
#include "core/status.h"

namespace etviz::side_files {

struct NodeDataResult {
  std::string key;
  std::optional<double> number;  // a numeric value
  std::string text;              // the value as shown: "1.25", or a string value
  std::optional<Colour> bg, fg;  // the result's own colours
};

struct NodeDataThreshold {
  double value = 0;
  Colour bg;
  std::optional<Colour> fg;
};

struct NodeDataStop {
  double stop = 0;  // 0..1
  std::optional<Colour> bg, fg;
};

struct GraphNodeData {
  std::string graph;  // the graph id it belongs to; empty: whichever graph holds the keys
  std::vector<NodeDataResult> results;
  std::vector<NodeDataThreshold> thresholds;  // sorted by value
  std::vector<NodeDataStop> gradient;         // sorted by stop
};

struct NodeData {
  std::string path;
  std::vector<GraphNodeData> graphs;
};

// Reads and checks a node data file; errors name the file, the key and what was expected.
inline constexpr uint64_t kMaxNodeDataFileBytes = uint64_t{512} << 20;
Result<NodeData> read_node_data(const std::string& path);
// The same from text (tests, fuzzers); `path` names it in errors.
Result<NodeData> parse_node_data(std::string_view text, const std::string& path);

}  // namespace etviz::side_files
