#pragma once
// torch.export's serialized ExportedProgram (the JSON of torch/_export/serde/schema.py, every
// schema version from the 2023 "schema_version": 1 files to 8.x) into the graph IR.
//
// One ExportedProgram becomes one Graph of kind GraphKind::kExportedProgram; graphs nested in
// higher-order ops (cond, while_loop, map, wrap_with_*, invoke_subgraph) become further graphs
// of kind GraphKind::kSubgraph that the calling node names through Node::subgraph. nn_module_stack
// becomes the Group hierarchy (kModule), stack_trace becomes Provenance::stack, debug_handle
// becomes Provenance::debug_handles. Unknown fields and argument kinds are kept as raw JSON text in
// attributes and never fail the load.
#include <string>
#include <string_view>

#include "core/document.h"

namespace etviz::torch_export {

struct ExportedProgramOptions {
  std::string graph_name = "exported_program";
  Stage stage{StageRole::kExported, "forward"};
};

// Appends the program's graphs to doc.graphs and returns the index of the main graph.
// Fails only when the text is not JSON or lacks graph_module.graph; the error names the JSON
// path or byte offset.
Result<int32_t> read_exported_program(std::string_view json, Document& doc,
                                      const ExportedProgramOptions& options = {});

// "torch.ops.aten.add.Tensor" -> "aten::add.Tensor", "torch.ops.aten.linear.default" ->
// "aten::linear", edge dialect "executorch.exir.dialects.edge.ops.aten.mul.Tensor" ->
// "aten::mul.Tensor", "torch.ops.higher_order.cond" -> "higher_order::cond"; anything else as is.
std::string normalize_target(std::string_view target);

// Canonical dtype name for torch.export's ScalarType enum (its own numbering, not c10's).
std::string export_scalar_type_name(int64_t code);

}  // namespace etviz::torch_export
