#pragma once
// Model Explorer graph JSON (google-ai-edge/model-explorer's GraphCollection, as its adapters,
// Arm's .pte/.vgf adapters and `etviz export --format me-json` write it) as a first-class
// input. docs/export.md, "Model Explorer JSON".
//
// Accepted roots: {label?, graphs: [...]}, a bare [graph, ...], {graphCollections: [{label,
// graphs}]}. Each graph {id, nodes: [{id, label, namespace, subgraphIds, attrs, incomingEdges,
// outputsMetadata, inputsMetadata}]} becomes a Graph (GraphKind::kImported; kSubgraph when
// another node links it through subgraphIds, which becomes Node::subgraph). Namespaces become
// nested groups ('/' separated); attrs go to node attributes; each (node, output id) is one
// tensor value whose shape and dtype come from the output's metadata (tensor_shape
// "float32[1,3]", sizes + scalarType, "!spirv.arm.tensor<1x3xi8>"). "GraphInputs" and
// "GraphOutputs" nodes become the graph's inputs and outputs. Edges naming missing nodes,
// duplicate node ids and unknown subgraph ids are warnings; the rest of the graph is kept.
#include <memory>
#include <string_view>

#include "core/document.h"
#include "core/mapped_file.h"

namespace etviz::model_explorer {

// True when the text starts like Model Explorer graph JSON (and is not a pass trace).
bool looks_like_model_explorer_json(std::string_view head);

Result<Document> read_model_explorer_json(std::shared_ptr<const MappedFile> file);

}  // namespace etviz::model_explorer
