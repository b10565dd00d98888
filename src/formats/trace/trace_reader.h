#pragma once
// Compiler-pass traces: one graph per pass, in pipeline order (docs/diff.md, "Traces").
//
// Two forms are read:
// - ExecuTorch's pass trace (devtools/visualization/trace_passes.py, PR #18027): {model_name,
//   passes: [{metadata: {model_name: pass name, total_nodes, error}, nodes: [{id, label,
//   category, op_name, details: {op, target, shape, dtype, stack_trace, ...}}], edges:
//   [{source, target}]}]}.
// - Our own, "etviz.trace/1": {format, model, passes: [{name, file?, graph?, error?,
//   metadata?, nodes?, edges?}]}: a pass names a file etviz reads (a .pt2 snapshot, a .pte,
//   an ETRecord; relative to the trace) and optionally which graph of it, or carries an
//   inline snapshot in the PR #18027 node/edge shape.
//
// Each pass becomes a top-level Graph with Stage{StageRole::kPass, model}, named
// "<index>: <pass>", with graph attributes pass and pass_index; a failed pass carries its
// error and traceback as Graph::failure, a failed op of a live trace as Node::failure. A pass
// whose graph cannot be read is kept as an empty graph carrying the failure, so a trace shows
// as far as it goes. Inline snapshots are built through GraphBuilder (core/graph_builder.h).
// A pass naming a file without a graph takes that file's Document::default_graph(). Dangling
// edge ids, duplicate node ids and unknown fields are warnings.
#include <memory>
#include <string_view>

#include "core/document.h"
#include "core/mapped_file.h"

namespace etviz::trace {

// True when the text looks like a pass trace (a JSON object with a "passes" array).
bool looks_like_trace(std::string_view text);

Result<Document> read_trace(std::shared_ptr<const MappedFile> file);

// The trace format's name and version, as written into our own traces.
inline constexpr std::string_view kTraceFormat = "etviz.trace/1";

}  // namespace etviz::trace
