#pragma once
// A compiler-pass trace of the generated transformer (export_model.h) in the shape ExecuTorch's
// devtools/visualization/trace_passes.py writes (PR #18027): one snapshot per pass, nodes and
// edges. The passes make known edits, so tests know exactly what each step changed:
//   1 post_export            the exported program
//   2 DecomposeLinearPass    every linear becomes addmm (op changed) fed by a new permute of
//                            its weight (one node added per linear)
//   3 FuseSiluMulPass        each MLP's silu absorbs the mul after it (mul removed, silu's op
//                            changed, the mul's consumers now read the silu)
//   4 HalfPrecisionPass      every float32 output becomes float16 (those nodes changed)
//   5 TagChannelsLastPass    fails: an error, no graph
//   6 MemoryPlanningPass     the graph of pass 4 again (nothing changed)
#include <string>
#include <vector>

#include "export_model.h"

namespace etviz::gen {

struct TraceNode {
  std::string id;
  std::string op;                   // placeholder, call_function, output
  std::string target;               // aten.linear.default
  std::string shape;                // "[1, 16, 64]"
  std::string dtype;                // "torch.float32"
  std::string module;               // "layers.0.mlp"
  std::vector<std::string> inputs;  // ids of the producers, in argument order
};

struct TracePass {
  std::string name;  // "2_DecomposeLinearPass"
  std::string error;
  std::vector<TraceNode> nodes;
};

struct PassTrace {
  std::string model;
  std::vector<TracePass> passes;
};

// What each pass did, for tests: per pass (index as in `passes`), nodes added, removed and
// changed against the pass before it that has a graph.
struct TraceEdits {
  int added = 0, removed = 0, changed = 0;
};

PassTrace build_pass_trace(const ExportModelSpec& spec, std::vector<TraceEdits>* edits = nullptr);

// The trace as trace_passes.py writes it (JSON).
std::string write_pass_trace_json(const PassTrace& trace);

}  // namespace etviz::gen
