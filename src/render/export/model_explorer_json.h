#pragma once
// Model Explorer's graph JSON (a GraphCollection: google-ai-edge/model-explorer's
// `graph_builder`), so a file etviz reads opens in Model Explorer and in every tool that reads
// its adapters' output. docs/export.md, "Model Explorer JSON".
#include <map>
#include <string>
#include <vector>

#include "core/document.h"

namespace etviz::render {

struct MeJsonOptions {
  std::string label;            // the collection's label (the file name)
  std::vector<int32_t> graphs;  // top-level Document::graphs to write; empty: every one
};

struct MeJsonStats {
  size_t graphs = 0, nodes = 0, edges = 0;
  // The ids written, per Document graph (empty for graphs not written): what a Model
  // Explorer node data file written beside the graph JSON must name.
  struct GraphIds {
    std::string id;
    std::vector<std::string> nodes;  // per Graph::nodes
  };
  std::map<int32_t, GraphIds> ids;
};

// One ME graph per etviz graph written: each top-level graph asked for and every graph nested
// in it (decoded delegate payloads, control-flow bodies), which its calling node links through
// `subgraphIds`. Node ids are unique per graph; every incoming edge names a node of its graph.
std::string model_explorer_json(const Document& doc, const MeJsonOptions& options,
                                MeJsonStats* stats = nullptr);

}  // namespace etviz::render
