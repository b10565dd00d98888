#pragma once
// A decoder-only transformer as torch.export writes it: aten ops with nn_module_stack
// (model -> layers.N -> self_attn -> q_proj), Python stack traces, parameters in the graph
// signature, an optional symbolic sequence length and an optional cond higher-order op.
#include <cstdint>

#include "export_writer.h"

namespace etviz::gen {

struct ExportModelSpec {
  int blocks = 2;
  int dim = 64;
  int hidden = 128;
  bool symbolic_seq = true;  // x: [1, s0, dim] with a range constraint
  int seq = 16;              // hint / concrete length
  bool with_cond = false;    // append torch.ops.higher_order.cond with two subgraphs
  bool debug_handles = false;
  bool schema1_style = false;
};

// About 41 nodes per block (with the parameter placeholders).
ExportProgram build_export_transformer(const ExportModelSpec& spec);

}  // namespace etviz::gen
