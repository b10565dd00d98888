// Properties every layout must have, as GoogleTest assertions.
#pragma once

#include <gtest/gtest.h>

#include "layered_graph.h"
#include "layout.h"

namespace etviz::layout::testing {

// Items placed in the same group (or both at top level), nodes and visible groups alike,
// do not overlap; a node's box is where it is drawn (hidden nodes have zero size).
::testing::AssertionResult ItemsDoNotOverlap(const Graph& graph, const Layout& layout);

// Every visible group's box contains its visible nodes and child groups.
::testing::AssertionResult GroupsContainChildren(const Graph& graph, const Layout& layout);

// Options::group_title: in every expanded group, no node or child group reaches into the band
// of that height at the top of the drawn box (where the viewer writes the group's title).
::testing::AssertionResult TitleBandsAreFree(const Graph& graph, const Layout& layout, double band);

// For acyclic inputs: every visible edge's target lies below (right of, for left-to-right)
// its source.
::testing::AssertionResult EdgesPointDownstream(const Graph& graph, const Layout& layout,
                                                Direction direction);

// Every drawn route starts on the boundary of its source's box (or of the collapsed group
// showing it) and ends on its target's; an edge with an end out of range has no route.
::testing::AssertionResult RoutesConnectEndpoints(const Graph& graph, const Layout& layout);

// No route segment passes through the inside of a node box or a collapsed group's box.
::testing::AssertionResult RoutesAvoidBoxes(const Graph& graph, const Layout& layout);

// Bit-for-bit equality.
::testing::AssertionResult SameLayout(const Layout& a, const Layout& b);

// Shared route prefixes point at an edge that shares nothing, are at least two points and
// shorter than the route, and every route's own points lie inside Layout::points.
::testing::AssertionResult SharedRoutesWellFormed(const Layout& layout);

// Every route drawn (shared prefix and own points) in its joined form: no point repeats the one
// before it, and no point lies on the straight continuation of the two before it (the routing
// joins such points), except a zero-length edge's two equal points. A route continued from a
// wrong build state (a follower of a shared trunk) breaks it.
::testing::AssertionResult RoutesAreJoined(const Layout& layout);

// All of the above that apply to any input (acyclicity not assumed).
::testing::AssertionResult IsValidLayout(const Graph& graph, const Layout& layout);

// Of the ordering phase's result: every node of the layered graph sits exactly once in its
// own layer, and pos[] is its index there (with spans: every span once in the span order,
// and gaps that fit the spans passing each layer).
::testing::AssertionResult OrderCoversEveryNodeOnce(const LayeredGraph& graph, const Order& order);

// A graph with spans and its order as the graph with a dummy per layer and its order would
// be (each span a chain of dummies, in the slots its gaps leave free); a graph without spans
// as it is. What the per-layer checks and count_crossings() run on.
struct ExpandedSpans {
  LayeredGraph graph;
  Order order;
};
ExpandedSpans expand_spans(const LayeredGraph& graph, const Order& order);

// Of an order made by segments (LongEdgeOrdering::kSegments, segment_ordering.h): the edges
// into, along and out of long edges' inner segments (dummies which, like the nodes above and
// below them, have one neighbour on each side) never cross each other.
::testing::AssertionResult InnerSegmentsDoNotCross(const LayeredGraph& graph, const Order& order);

}  // namespace etviz::layout::testing
