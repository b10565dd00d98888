#pragma once
// A sequence of graphs seen as one: pass snapshots of a trace, the stages of an ETRecord, or
// two files being compared (docs/diff.md, "Timelines").
//
// Consecutive steps are diffed (diff.h) and matched nodes chained, so a node that lives
// through several steps is one node of the union graph `merged`: the page lays `merged` out
// once and shows each step as the subset of it that the step holds, which is why nothing moves
// when one steps through passes or looks at two panes side by side. A union node carries the
// data of the last step that holds it; its inputs are those of every step (an edge that was
// rewired appears in the steps that have it and in no other). Each step's own data stays
// reachable: `member` gives the step's node of a union node and `values` the union value of a
// step's value, so a page can show what each step says (a precision pass's dtypes before and
// after) where it differs from the union's copy.
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/diff.h"
#include "core/document.h"

namespace etviz::analysis {

struct TimelineStep {
  int32_t graph = -1;  // Document::graphs index of the snapshot
  std::string name;    // what the page and the report call the step
  std::string error;   // a failed pass: what it said
  // Against step `base`: the previous step that has nodes (-1 and empty for the first step).
  int32_t base = -1;
  GraphDiff diff;
  // Per union node: the node of this step's graph (kNoId: the step lacks it).
  std::vector<NodeId> member;
  // (union consumer, union value) reads this step makes, sorted: edges are present in a step
  // when both ends are and the step reads the value.
  std::vector<uint64_t> reads;
  // Per value of this step's graph: the union value standing for it (kNoId: no node of the
  // step produces or reads it). A produced value is its producer's output slot, one union value
  // for every step, which holds the facts (dtype, shape, ...) of one step only; a literal is a
  // union value of its own per step. What the step says of a value is the step's value, so the
  // page shows each step's facts where they differ from the union's.
  std::vector<ValueId> values;
};

struct Timeline {
  std::vector<TimelineStep> steps;
  Graph merged;  // the union graph; its nodes' subgraph/delegate refer to the same Document
  // Per union node: the step whose node it copies (the last step holding it).
  std::vector<int32_t> source_step;
  // Per union node: how many of its inputs are the source step's (a value read twice is listed
  // once); the rest are reads only other steps make, the edges a pass rewired.
  std::vector<int32_t> source_inputs;

  bool holds(size_t step, NodeId n) const {
    return steps[step].member[static_cast<size_t>(n)] != kNoId;
  }
  bool reads(size_t step, NodeId consumer, ValueId value) const;
};

// Steps are Document::graphs indices of `doc` in order (use Document::absorb_graph to put
// graphs of several files into one document). Near-linear in the total size of the graphs.
Timeline build_timeline(const Document& doc, const std::vector<int32_t>& graphs);

// A literal argument (a dim, an eps, a list of sizes): a value with no producer whose elements
// have none either. An IntList of a program boxes Int values, which no node produces, so it is
// a literal; a tensor list's members are produced, so it is an edge. The union keeps a copy of
// a literal per step (only the source step's are the union node's arguments).
bool is_literal(const Graph& g, ValueId v);

// The name a step gets: the pass name for trace snapshots, the stage name otherwise.
std::string step_name(const Graph& g);

}  // namespace etviz::analysis
