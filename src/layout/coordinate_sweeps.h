// Phase 5, alternative strategy: horizontal coordinates by layer sweeps.
#pragma once

#include <vector>

#include "layered_graph.h"

namespace etviz::layout {

// Starts from every layer packed and centred, then sweeps down and up a fixed number of
// times; each step places one layer optimally for the weighted squared horizontal length
// of its edges (neighbour layers fixed) while keeping order and spacing: isotonic
// regression by pool-adjacent-violators, linear per layer. Edges between dummies weigh
// most (dot's 1 / 2 / 8), so long edges stay nearly straight. Never wider than a few times
// the widest layer, which matters on crossing-heavy graphs where Brandes–Köpf spreads out.
std::vector<double> sweep_x(const LayeredGraph& graph, const Order& order, const Options& options);

}  // namespace etviz::layout
