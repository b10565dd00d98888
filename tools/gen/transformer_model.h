#pragma once
// A decoder-only transformer shaped like the programs ExecuTorch exports for LLMs: per block
// about 40 kernel calls (RMSNorm, q/k/v projections, rotary embedding, attention, MLP with
// SiLU, quantize/dequantize pairs), shared rotary tables and mask feeding every block.
#include <cstdint>
#include <string>

#include "program_builder.h"

namespace etviz::gen {

struct TransformerSpec {
  int blocks = 4;
  int dim = 256;
  int hidden = 688;
  int heads = 8;
  int seq = 32;
  int vocab = 4096;
  bool delegates = false;  // each block's MLP runs in one delegate call
  // Backend of those calls: "xnnpack" writes real XNNPACK payloads (decodable subgraphs);
  // "example" writes opaque payloads for a backend etviz does not know.
  std::string delegate_backend = "example";
  int methods = 1;  // "forward", then "prefill_1", "prefill_2", ...
  // Names that try to break out of an HTML page; the viewer must show them as text.
  bool hostile_names = false;
  // Reshapes as ExecuTorch emits them today: static views folded into the memory plan (no
  // instruction; the view shares its input's bytes) and one executorch_prim::et_view call per
  // block, instead of aten::view_copy kernels.
  bool views = false;
};

// Appends the methods to `program`. Returns the number of kernel + delegate calls per method.
int64_t build_transformer(ProgramBuilder& program, const TransformerSpec& spec);

}  // namespace etviz::gen
