#pragma once
// The memory plan of an ExecuTorch method (docs/memory.md): where each planned tensor lives
// (memory id = arena, offset, bytes), when it lives (from the instruction that writes it to the
// last instruction that reads it, inclusive, in execution order; delegate calls are
// instructions like any other), the live bytes of each arena over time and their peak, and a
// check of the plan: two tensors live at the same instruction must not share bytes of one
// arena. A view folded into the plan (an "alias" node: it shares memory with the value it
// views) is its source's storage: it extends the source's lifetime and is not a tensor of its
// own.
#include <cstdint>
#include <string>
#include <vector>

#include "core/document.h"

namespace etviz::analysis {

struct PlannedTensor {
  ValueId value = kNoId;
  std::string name;
  uint32_t arena = 0;  // memory id
  uint64_t offset = 0;
  int64_t bytes = 0;
  int64_t first = 0, last = 0;  // instruction positions (0-based over all chains), inclusive
  NodeId producer = kNoId;      // kNoId for inputs
  bool never_freed = false;     // a method output or a mutable buffer: live to the end
  bool input = false;
};

struct ArenaUse {
  uint32_t id = 0;
  int64_t planned_bytes = 0;  // non_const_buffer_sizes[id]
  int64_t peak_bytes = 0;     // most bytes live at one instruction
  int64_t peak_at = -1;       // first instruction position where the peak is reached
  int64_t tensors = 0;
  int64_t highest_end = 0;            // max offset + bytes: what the plan's tensors reach
  std::vector<int32_t> live_at_peak;  // PlannedTensor indices, largest first
};

struct Overlap {
  int32_t a = -1, b = -1;    // PlannedTensor indices
  int64_t from = 0, to = 0;  // instructions both are live
};

struct MemoryPlan {
  std::string method;
  int64_t instructions = 0;
  std::vector<NodeId> instruction_nodes;  // position -> node
  std::vector<int64_t> non_const_buffer_sizes;
  std::vector<PlannedTensor> tensors;
  std::vector<ArenaUse> arenas;   // ids present in the plan or in non_const_buffer_sizes (> 0)
  std::vector<Overlap> overlaps;  // first kMaxOverlaps found
  int64_t overlap_count = 0;
  int64_t unsized = 0;  // planned tensors whose byte size is unknown (dynamic shapes)
  int64_t aliases = 0;  // views folded into their source's storage
};

inline constexpr size_t kMaxOverlaps = 200;

// A tensor the memory planner placed (an arena and an offset); the plan's tensors are these,
// less views folded into their source and tensors of unknown size.
bool is_planned(const Value& v);

// The plan of method graph `graph` (a kMethod graph with instructions); an error when the graph
// has no planned memory.
Result<MemoryPlan> memory_plan(const Document& doc, const Graph& graph);

}  // namespace etviz::analysis
