#pragma once
// Turns one ExecutionPlan (a method) into a Graph: one node per kernel or delegate call,
// tensors produced by one instruction and read by another as edges, inputs, outputs and
// constants as nodes of their own.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/expansion_budget.h"
#include "core/graph.h"
#include "program_generated.h"

namespace etviz::executorch {

struct ProgramContext {
  bool legacy_constant_buffer = false;  // constants live in Program.constant_buffer
  // Document::delegates index of each of this plan's BackendDelegate entries.
  std::vector<int32_t> delegate_ids;
  // Where a constant's bytes are (data location, data_buffer_idx, its size from the shape):
  // the program reader knows the segments. May be empty.
  std::function<BlobRef(DataLocation, int64_t index, int64_t nbytes)> locate_data;
  // Called between passes over the plan (and every kReleaseEvery instructions): gives the
  // file's resident pages back (MappedFile::release_pages), so the flatbuffer and the IR built
  // from it are not both in memory at a million instructions. May be empty.
  std::function<void()> release_pages;
  // Where the builder reports what it showed around (a list naming a missing value: a warning)
  // and what it could not name (a call that does not fit its operator's schema: a note). May
  // be null.
  std::vector<std::string>* warnings = nullptr;
  std::vector<std::string>* notes = nullptr;
};

// Builds the graph, or fails with a message naming the method and what index is bad.
Result<Graph> build_method_graph(const etviz::pte::ExecutionPlan& plan, const ProgramContext& ctx,
                                 ExpansionBudget& budget);

}  // namespace etviz::executorch
