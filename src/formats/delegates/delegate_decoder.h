#pragma once
// One shape for every backend's payload decoder: bytes in, a Graph of kind GraphKind::kDelegate
// out.
//
// A decoder either understands the payload (a real subgraph: nodes, tensors, constants, inputs
// and outputs in the order the runtime binds them to the delegate call's arguments) or, for
// backends whose payloads are proprietary or only partly documented, returns an "opaque but
// informative" graph: one node that carries what can be learnt safely as attributes, marked
// Graph::opaque. A decoder that fails returns an Error and the
// delegate stays opaque with Delegate::decoder_note; the rest of the document is unaffected.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/document.h"
#include "core/status.h"

namespace etviz::delegates {

// What a decoder gets: the whole document (for named data and compile specs), the delegate
// entry and its payload bytes.
struct DecodeInput {
  const Document& doc;
  const Delegate& delegate;
  std::span<const uint8_t> payload;
  std::string graph_name;  // "<method>/<backend>#<i>"
  // The calling method graph and its DelegateCall node, when the delegate is called (their
  // argument tensors give opaque graphs their inputs and outputs). May be null.
  const Graph* method = nullptr;
  const Node* call = nullptr;
  // Graphs the decoded graph's nodes open (a TOSA payload's control-flow bodies). [0] stands
  // for the decoded graph itself; a decoder appends the others and points Node::subgraph at
  // their index here, and decode_delegates puts them beside the delegate's graph. Null when
  // the caller takes none.
  std::vector<Graph>* nested = nullptr;
};

using DecodeFunction = Result<Graph> (*)(const DecodeInput& input);

struct DelegateDecoder {
  std::string_view backend_id;  // as in BackendDelegate.id, e.g. "XnnpackBackend"
  std::string_view format;      // what the decoder reads, for notes ("XNNPACK flatbuffer")
  DecodeFunction decode;
};

// Every decoder, keyed by backend id (several ids may share one decoder).
std::span<const DelegateDecoder> decoder_registry();
// The decoder for a backend id, or the generic one for unknown ids (never null).
const DelegateDecoder& find_decoder(std::string_view backend_id);

// Decodes every delegate of `doc` that has no subgraph yet, appends the graphs to doc.graphs,
// sets Delegate::subgraph and the calling node's Node::subgraph, and rewires the call node's
// argument split to the decoded graph's input/output counts. Payloads shared by several
// delegate entries are decoded once per entry (graph names differ) but read only once.
// Failures become Delegate::decoder_note plus a doc.warn(); this never fails.
void decode_delegates(Document& doc);

// Makes `graphs` the view of delegate `d`: graphs[0] becomes its subgraph (replacing the graph
// it had, so indices held elsewhere stay valid; appended when it had none), the rest are
// appended, and Node::subgraph values inside them, which index `graphs`, are remapped. Every
// call of the delegate opens graphs[0], whose inputs and outputs fix the call's argument split
// unless it is opaque. Graphs take the stage of the calling method.
void install_delegate_graphs(Document& doc, size_t d, std::vector<Graph> graphs);

// "forward/EthosUBackend#0": the name of a delegate's graph, and how messages name it.
std::string delegate_label(const Delegate& delegate);

// Helpers shared by decoders.
const NamedBlob* find_named_blob(const Document& doc, std::string_view key);
std::string compile_spec_value(const Delegate& delegate, std::string_view key);

}  // namespace etviz::delegates
