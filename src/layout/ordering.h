// Phase 4: crossing minimisation, i.e. the left-to-right order of nodes in each layer.
#pragma once

#include "layered_graph.h"

namespace etviz::layout {

// Initial order from a depth-first search (which keeps chains of the model together), then
// alternating down and up layer sweeps that sort each layer by the median (or barycenter)
// of its neighbours in the previous layer, each followed by adjacent transpositions. Keeps
// the best order seen; stops after options.ordering_sweeps or when sweeps stop helping.
Order order_layers(const LayeredGraph& graph, const Options& options);

}  // namespace etviz::layout
