// Connected components of a flat graph (edge direction ignored).
#pragma once

#include <cstdint>
#include <vector>

#include "flat_graph.h"

namespace etviz::layout {

struct Components {
  uint32_t count = 0;
  // Numbered in order of each component's first node. level_topology empties it where there
  // is one component.
  std::vector<uint32_t> of_node;
};

// Union-find with path halving (iterative). Graphs with nodes pinned to a group border are
// one component, since the border layers are shared.
Components find_components(const FlatGraph& graph);

}  // namespace etviz::layout
