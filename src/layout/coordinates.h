// Phase 5: horizontal coordinates within layers.
#pragma once

#include <vector>

#include "layered_graph.h"

namespace etviz::layout {

// Brandes–Köpf (or, per options.coordinates, layer sweeps; see coordinate_sweeps.h): four vertical
// alignments (towards upper/lower neighbours, from the left/right) compacted with a longest-path
// pass over the block graph, combined by taking the mean of the two median candidates per node.
// Dummy-to-dummy segments win alignment conflicts, so long edges run straight. Aligned segments
// keep their port positions on one vertical line. Linear in the size of the layered graph; returns
// the centre x of every node.
std::vector<double> assign_x(const LayeredGraph& graph, const Order& order, const Options& options);

}  // namespace etviz::layout
