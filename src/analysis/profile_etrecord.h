#pragma once
// Turns an ETRecord document (src/formats/torch_export) into the maps the profile join uses:
// its debug_handle_map and delegate_map, plus, per debug handle, the op, module path and stack
// trace of the edge-dialect node that carries it.
#include "analysis/profile_join.h"
#include "core/document.h"

namespace etviz::analysis {

// Empty maps when the document is not an ETRecord. Handles are taken from the edge-dialect
// graph of `method` when it has one (edge_dialect_exported_program/<method>), else from any
// edge-dialect graph: handles are only unique within one method's graph.
EtrecordMaps etrecord_maps_from_document(const Document& etrecord,
                                         const std::string& method = "forward");

}  // namespace etviz::analysis
