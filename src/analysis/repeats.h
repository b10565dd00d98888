#pragma once
// Repeated blocks: a 32-layer LLM is 32 copies of one block. Finds runs of instances that are
// the same structure, so the viewer can show them as one box ("DecoderLayer ×32") and the
// panel can say what an instance that is nearly the same lacks.
//
// Two sources of instances:
// - Module runs: sibling module groups named <prefix>.<index> with consecutive indices and the
//   same module class (layers.0 ... layers.31 under the model). Groups without a class must
//   have the same structure to join a run.
// - Sequence runs, for graphs without module groups (a .pte keeps no module paths): stretches
//   of the operator sequence that repeat with a fixed period of at least 4 ops (shorter
//   patterns are a sequence, not blocks). The period is found from an op
//   that occurs once per block at evenly spaced positions (a norm, an activation, a delegate
//   call); each instance runs from one occurrence (shifted back to the block's first op) to
//   the next.
//
// Structure ("the same up to renaming"): each node's op, the dtype and shape of its outputs,
// its module path inside the instance, and for each tensor input either the position of its
// producer inside the instance or "from outside" — hashed per instance. Instances whose
// signature differs from the run's most common one stay in the run when they are of the same
// module class (modules) or differ by a few ops (sequences), and the difference is reported.
#include <cstddef>
#include <string>
#include <utility>
#include <vector>

#include "core/graph.h"

namespace etviz::analysis {

struct RepeatRun {
  std::string label;  // what the folded box shows: "DecoderLayer ×32", "block ×25"
  std::string name;   // a stable name for the box: "layers.0-31", "repeat@12"
  // Module runs: the instances' parent group (kNoId: top level) and the instance groups, in
  // index order. Empty for sequence runs.
  GroupId parent = kNoId;
  std::vector<GroupId> groups;
  // Sequence runs: each instance's nodes (kernels and delegate calls), in program order.
  // Empty for module runs.
  std::vector<std::vector<NodeId>> ranges;
  size_t instances() const { return groups.empty() ? ranges.size() : groups.size(); }
  // Instances equal to the most common structure.
  size_t identical = 0;
  // The instances that differ from it (index into groups/ranges) and how: "lacks 1
  // aten::add.Tensor", "has 2 more aten::mul.Tensor", "same ops, other shapes or wiring".
  std::vector<std::pair<size_t, std::string>> differences;
};

// Runs of at least two instances (module runs) or three (sequence runs: two repetitions of a
// short op pattern are too common to mean a block), largest first. Linear in the graph size
// (times the nesting depth for module runs).
std::vector<RepeatRun> find_repeats(const Graph& graph);

}  // namespace etviz::analysis
