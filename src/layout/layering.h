// Phase 2: assign every node to a layer so that edges point downwards.
#pragma once

#include <cstdint>
#include <vector>

#include "adjacency.h"

namespace etviz::layout {

// Returns a layer per node, 0 at the top. Edges flagged in `reversed` count as pointing from
// target to source. Every non-loop edge ends at least one layer below where it starts.
// Nodes pinned to the first / last layer get a layer of their own above / below the rest.
// `bundled` says whether long-edge splitting will bundle fan-outs, which changes how many
// dummy nodes a layering costs (the balanced and network-simplex strategies minimise that
// count after the least total edge length).
std::vector<uint32_t> assign_layers(const FlatGraph& graph, const Adjacency& adjacency,
                                    const std::vector<uint8_t>& reversed, LayeringStrategy strategy,
                                    bool bundled);

}  // namespace etviz::layout
