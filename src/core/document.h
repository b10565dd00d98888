#pragma once
// What one invocation loaded: the source files, their graphs, delegates, blobs and notes.
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/etrecord_maps.h"
#include "core/graph.h"
#include "core/mapped_file.h"

namespace etviz {

// A named region of a file, for size reports ("flatbuffer", "segment 3", "padding").
struct Section {
  std::string name;
  std::string kind;  // "header", "flatbuffer", "segment", "padding", "embedded"...
  uint64_t offset = 0;
  uint64_t size = 0;
};

struct CompileSpec {
  std::string key;
  std::vector<uint8_t> value;
  // The value as text when every byte is printable, else a hex preview with the size.
  std::string display() const;
};

struct Delegate {
  std::string backend_id;
  std::string method;            // graph (method) that owns it
  int32_t index_in_method = -1;  // position in ExecutionPlan.delegates
  std::vector<CompileSpec> compile_specs;
  std::string payload_location;  // "inline" or "segment"
  int64_t payload_index = -1;    // index into backend_delegate_data or segments
  BlobRef payload;
  int32_t subgraph = -1;     // Document::graphs index of the decoded payload, -1 when opaque
  std::string decoder_note;  // what the decoder said (why opaque, heuristics used)
};

// Blobs a program or .ptd names by key (weights for delegates, external tensors).
struct NamedBlob {
  std::string key;
  BlobRef blob;
  std::optional<TensorInfo> tensor;  // layout, when the file states it (.ptd)
};

// Bundled-program test data.
struct TestValue {
  ValueKind kind = ValueKind::kTensor;
  TensorInfo tensor;
  std::string literal;
};
struct TestCase {
  std::vector<TestValue> inputs;
  std::vector<TestValue> expected_outputs;
};
struct TestSuite {
  std::string method;
  std::vector<TestCase> cases;
};

// kError: part of the file is damaged (cut off, out of range) and is left out; the rest is
// shown, and the CLI exits 1 after writing what it could (docs/limits.md, "Damaged files").
enum class Severity { kInfo, kWarning, kError };
const char* to_string(Severity s);  // "note", "warning", "error"
struct Diagnostic {
  Severity severity = Severity::kWarning;
  std::string message;
};

// What kind of file a Document was read from; to_string() gives the name reports print.
enum class DocumentFormat {
  kUnknown,
  kExecuTorchProgram,  // .pte
  kBundledProgram,     // .bpte
  kFlatTensor,         // .ptd
  kPt2,                // torch.export .pt2 archive
  kETRecord,           // ETRecord zip
  kTrace,              // compiler-pass trace (JSON: ours or ExecuTorch's trace_passes.py)
  kModelExplorerJson,  // Model Explorer graph JSON (a GraphCollection)
  kTosa,               // TOSA flatbuffer (.tosa), a graph Arm's compiler wrote
};
const char* to_string(DocumentFormat f);

// A file given beside a program to describe part of it (a TOSA graph written by the Arm
// compiler for one of its delegates), and where it went: OpenOptions::tosa_files.
struct SideFile {
  std::string path;
  std::string kind;        // "tosa"
  int32_t delegate = -1;   // Document::delegates index it describes; -1 when not attached
  bool ambiguous = false;  // another delegate or file had the same inputs and outputs
  std::string note;        // why it went there (or nowhere), one line
};

struct Document {
  std::vector<std::shared_ptr<const MappedFile>> sources;  // [0] is the main file
  DocumentFormat format = DocumentFormat::kUnknown;
  std::string format_version;  // e.g. "ET12 schema v0"
  std::vector<Attribute> properties;
  std::vector<Graph> graphs;
  std::vector<Delegate> delegates;
  std::vector<NamedBlob> named_data;
  std::vector<Section> sections;
  std::vector<TestSuite> test_suites;
  std::vector<Diagnostic> diagnostics;
  std::optional<ETRecordMaps> etrecord;  // set when the file is an ETRecord
  std::vector<SideFile> side_files;      // in the order given

  const std::string& path() const;
  // Bytes of a blob; empty if the reference is invalid or out of range.
  std::span<const uint8_t> bytes(const BlobRef& blob) const;
  void warn(std::string message) {
    diagnostics.push_back({Severity::kWarning, std::move(message)});
  }
  void note(std::string message) { diagnostics.push_back({Severity::kInfo, std::move(message)}); }
  void damaged(std::string message) {
    diagnostics.push_back({Severity::kError, std::move(message)});
  }
  bool is_damaged() const;  // any kError diagnostic
  const Graph* find_graph(const std::string& name) const;
  // The graph of `role` for `method` (e.g. the edge-dialect stage of "forward"); null if none.
  // For a command that means a stage, not the file's main graph: the delegation report of an
  // ETRecord (get_delegation_info runs on the edge-dialect program).
  const Graph* find_stage(StageRole role, std::string_view method) const;
  // The graphs no node or delegate opens as a subgraph, in file order: what a user can open
  // (the page's graph selector, `export --method`). Decoded payloads and bodies are inside them.
  std::vector<int32_t> root_graphs() const;
  // The one answer to "which graph does a command mean" when the user names none: the graph
  // the page opens on, `etviz export` draws, `diff` and `memory` take, a profile joins and
  // Python's Program shows. Among root_graphs():
  //   - the first graph named "forward" when it has nodes: ExecuTorch's and torch.export's
  //     main method (a .pte, a .bpte, an exported program, an ETRecord stage named so);
  //   - else the graph with the most nodes, the first of equals: a program without "forward"
  //     shows its largest method, not a constant getter; an ETRecord its largest stage (the
  //     exported or ATen program, before lowering folded ops into delegate calls); a .pt2 its
  //     model; a trace its largest snapshot (its page steps through all of them).
  // The viewer applies the same rule to the page data (web/src/layout_control.js,
  // defaultGraph); a browser test keeps the two equal on the corpus. -1 when the document
  // holds no graph.
  int32_t default_graph() const;
  // The nested graph a node opens (a decoded delegate payload, a higher-order op's body), or
  // null. Node::subgraph is the one source: decode_delegates sets it on every call node.
  const Graph* subgraph_of(const Node& node) const;
  // "forward, encode" - the graphs a user can name (methods, exported programs, stages), for
  // messages that list what exists.
  std::string top_level_names() const;
  // Gives each constant that names its data by key (named data, a .ptd's tensors, a .pt2's
  // weights) the bytes of that key's blob (Graph::storage), once every file is attached, so
  // the bytes stay reachable when graphs of several documents share one (absorb_graph).
  void resolve_named_constants();
  // Copies graph `graph` of `from` into this document with everything it reaches (nested
  // graphs, its delegates and their payload sources), indices remapped; returns its index
  // here. Used to put graphs of several files side by side (traces, diffs).
  int32_t absorb_graph(const Document& from, int32_t graph);
};

}  // namespace etviz
