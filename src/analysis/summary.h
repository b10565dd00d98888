#pragma once
// The facts `etviz info` reports, computed once from a Document and rendered as a table or as
// JSON (docs/cli.md describes the JSON).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/document.h"

namespace etviz::analysis {

struct OpCount {
  std::string op;
  int64_t count = 0;
};

struct TensorSummary {
  std::string name;
  ValueKind kind = ValueKind::kTensor;
  std::string dtype;
  std::string shape;
  std::string literal;  // for non-tensor values
};

struct MethodSummary {
  std::string name;
  std::map<std::string, int64_t> instructions;  // by kind: kernel, delegate, move, jump_false, free
  int64_t instruction_count = 0;
  int64_t value_count = 0;
  int64_t node_count = 0;
  std::vector<OpCount> ops;  // most frequent first
  std::vector<TensorSummary> inputs;
  std::vector<TensorSummary> outputs;
  std::vector<int64_t> memory_buffer_sizes;
  int64_t delegate_calls = 0;
};

struct BackendSummary {
  std::string backend;
  int64_t delegates = 0;       // BackendDelegate entries
  int64_t calls = 0;           // DelegateCall instructions
  uint64_t payload_bytes = 0;  // distinct payload blobs
  std::vector<std::string> compile_spec_keys;
  std::vector<std::string> locations;  // "inline", "segment"
};

struct ConstantSummary {
  std::string name;
  std::string dtype;
  std::string shape;
  int64_t bytes = -1;
  std::string location;
};

struct SuiteSummary {
  std::string method;
  int64_t cases = 0;
  std::vector<TensorSummary> inputs;            // of the first case
  std::vector<TensorSummary> expected_outputs;  // of the first case
};

// A module (nn.Module scope) of an exported program.
struct ModuleSummary {
  std::string path;   // "layers.3.self_attn"
  std::string label;  // "self_attn (Attention)"
  int depth = 1;      // 1 = top-level module
  int64_t nodes = 0;  // operator calls inside it, submodules included
};

// One torch.export program: a .pt2 model or an ETRecord stage (export_summary.cpp).
struct ProgramSummary {
  std::string name;
  StageRole role = StageRole::kNone;  // where in the pipeline (ETRecord stage, .pt2 export)
  std::string schema_version;
  std::string dialect;
  int64_t node_count = 0;  // operator calls
  std::vector<OpCount> ops;
  std::vector<TensorSummary> inputs;   // user inputs
  std::vector<TensorSummary> outputs;  // user outputs
  int64_t parameters = 0;              // parameter tensors
  int64_t parameter_bytes = 0;
  int64_t parameter_elements = 0;
  int64_t buffers = 0;
  int64_t buffer_bytes = 0;
  int64_t constants = 0;                   // tensor constants, custom objects, constant inputs
  std::vector<std::string> symbolic_dims;  // "s0 in [2, 2048]"
  int module_depth = 0;
  int64_t module_count = 0;
  std::vector<ModuleSummary> top_modules;  // depth 1, in first-use order
  std::vector<ModuleSummary> modules;      // tree order, at most 60
  int64_t subgraphs = 0;                   // higher-order-op bodies
  int64_t nodes_with_stack_trace = 0;
  int64_t nodes_with_debug_handle = 0;
};

struct ETRecordMapsSummary {
  int64_t debug_handle_methods = 0;
  int64_t instructions = 0;    // instructions with debug handles
  int64_t debug_handles = 0;   // handles named by them
  int64_t delegate_calls = 0;  // delegate_map entries
  int64_t delegate_debug_ids = 0;
  std::map<std::string, int64_t> delegate_calls_by_backend;
  int64_t num_outs_entries = 0;
  bool representative_inputs = false;
  bool reference_outputs = false;
};

// One graph of a file another tool wrote (Model Explorer graph JSON): what `info` lists for it.
struct ImportedGraphSummary {
  std::string name;
  bool nested = false;  // linked from another graph's node (subgraphIds): shown inside it
  int64_t nodes = 0;    // operator nodes (inputs and outputs apart)
  int64_t edges = 0;    // tensor inputs whose producer is in the graph
  int64_t inputs = 0, outputs = 0;
  int64_t namespaces = 0;  // groups made from namespaces
  int namespace_depth = 0;
  std::vector<OpCount> ops;  // most frequent first, at most 10
  struct Link {
    std::string node, graph;  // node of this graph -> the graph its subgraphIds names
    bool missing = false;     // the file holds no graph of that name
  };
  std::vector<Link> links;
};

struct Summary {
  std::string path;
  uint64_t file_size = 0;
  DocumentFormat format = DocumentFormat::kUnknown;
  std::string format_version;
  std::vector<Attribute> properties;
  std::vector<Section> sections;
  std::vector<MethodSummary> methods;
  std::vector<OpCount> ops;  // whole program
  std::vector<BackendSummary> backends;
  std::vector<Delegate> delegates;
  int64_t constant_count = 0;
  int64_t constant_bytes = 0;
  std::map<std::string, int64_t> constants_by_location;  // count per DataLocation name
  std::vector<ConstantSummary> largest_constants;        // up to 10
  int64_t external_tensors = 0;
  int64_t named_data_count = 0;
  uint64_t named_data_bytes = 0;
  std::vector<ConstantSummary> named_data;  // up to 20 (keys with tensor layouts when stated)
  std::vector<SuiteSummary> test_suites;
  std::vector<Diagnostic> diagnostics;
  std::vector<ProgramSummary> programs;               // exported programs (.pt2, .etrecord)
  std::optional<ETRecordMapsSummary> etrecord;        // ETRecord maps
  std::vector<ImportedGraphSummary> imported_graphs;  // Model Explorer graph JSON, in file order
  int64_t imported_ops = 0;                           // operator nodes over every graph
};

// Fills Summary::programs and Summary::etrecord (export_summary.cpp).
void summarize_exported_programs(const Document& doc, const std::string& graph, Summary& s);

// Fills Summary::imported_graphs for the graphs of a Model Explorer JSON file (`graph`, when
// non-empty, names the only one).
void summarize_imported_graphs(const Document& doc, const std::string& graph, Summary& s);

// Name, kind, dtype and shape (or literal) of one value of a graph.
TensorSummary describe_value(const Graph& g, ValueId id);

// `method`, when non-empty, limits the per-method parts to that method.
Result<Summary> summarize(const Document& doc, const std::string& method = {});

}  // namespace etviz::analysis
