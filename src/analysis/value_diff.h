#pragma once
// What changed in the values of two matched graphs, and between two whole programs
// (docs/diff.md, "Values and weights"): tensor metadata, scalars and lists, constant data
// wherever it lives (the inline constant buffer, the constant segment, mutable data, named
// data, a .ptd, inside a decoded delegate payload, a .pt2's weights), value and instruction
// counts, planned buffer sizes, and for a program: bitwise equality, the schema version, the
// methods only one side has, named data keys.
//
// Values pair through the structural node matching (diff.h), never by index: a matched node's
// outputs pair by slot and its arguments by name (else position), a constant node's tensor with
// its counterpart's. So values that were only renumbered are not changes.
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis/diff.h"
#include "analysis/tensor_compare.h"
#include "core/document.h"

namespace etviz::analysis {

struct ValueDiffOptions {
  size_t first_k = 10;       // first differences kept per tensor
  bool compare_data = true;  // constants' bytes (off: metadata only)
  int nested_depth = 2;      // decoded delegate payloads inside payloads
};

// A node reading a value, as a report names it: "aten::linear.out" argument "weight".
struct ValueReader {
  NodeId node = kNoId;  // in B (in A for a value only A has)
  std::string node_name, op, argument;
};

struct FieldChange {
  std::string field;  // "scalar_type", "sizes", "dim_order", "storage_offset", "allocation", ...
  std::string a, b;
};

// Why a constant's bytes were or were not compared element by element.
enum class DataStatus : uint8_t {
  kEqual,        // same bytes (memcmp): no statistics needed
  kDiffer,       // compared: stats hold the figures
  kMetadata,     // another dtype or shape: a metadata change, not compared element-wise
  kUnavailable,  // one side's bytes are not reachable (no --data, compressed member, ...)
  kNotConstant,  // an activation: no bytes in the file
};
const char* to_string(DataStatus s);

struct TensorDiff {
  ValueId a = kNoId, b = kNoId;
  std::string name;          // B's name (fqn for constants)
  std::string dtype, shape;  // B's, as "float32", "[64, 32]"
  std::string location;      // where B's bytes live ("constant_segment", "named_data", ...)
  std::vector<FieldChange> metadata;
  std::vector<ValueReader> readers;  // up to 4 nodes of B reading it
  int64_t readers_total = 0;
  // Constant data.
  DataStatus data = DataStatus::kNotConstant;
  std::string data_note;                     // why unavailable / what was cut
  int64_t bytes_a = -1, bytes_b = -1;        // bytes compared on each side (-1: none)
  int64_t expected_a = -1, expected_b = -1;  // bytes the shapes need (truncated when more)
  // The figures (analysis/tensor_compare.h), A the reference, B the run: floats as stored,
  // integers (quantized ones too) in their integer domain, dtypes not read as numbers byte by
  // byte.
  Domain domain = Domain::kFloat;
  TensorComparison stats;
  // A quantized tensor whose scale and zero point are known: the same after dequantization.
  bool has_dequantized = false;
  std::string dequantized_by;  // "per_tensor scale=0.01 zp=0", "dequantize_per_tensor args"
  TensorComparison dequantized;
};

// A value that is not a tensor (a scalar, a list) read differently: `int 0 -> 42`,
// `Int -> Null`.
struct ScalarChange {
  ValueId a = kNoId, b = kNoId;
  std::string name;
  std::string kind_a, kind_b;  // "int", "null", "int_list", ...
  std::string text_a, text_b;  // as the runtime resolves it: "0", "[1, 1]", "None"
  std::vector<ValueReader> readers;
  int64_t readers_total = 0;
};

// A constant one side has and the other does not (its node unmatched).
struct ConstantOnly {
  ValueId value = kNoId;
  std::string name, dtype, shape;
  int64_t nbytes = -1;
};

struct ValueDiff;

// A decoded delegate payload pair (an XNNPACK graph) under matched delegate calls.
struct NestedDiff {
  std::string label;  // "XnnpackBackend #0 (forward/XnnpackBackend#0)"
  NodeId call_a = kNoId, call_b = kNoId;
  int32_t graph_a = -1, graph_b = -1;  // Document::graphs of each side
  GraphDiff diff;                      // its values: diff.values
};

struct ValueDiff {
  int64_t values_a = 0, values_b = 0;              // the graphs' value tables
  int64_t instructions_a = 0, instructions_b = 0;  // kernel, delegate, move, jump, free calls
  std::vector<int64_t> buffers_a, buffers_b;       // non_const_buffer_sizes
  int64_t values_paired = 0;
  // Constants compared: how many, how many with equal bytes, bytes read per side.
  int64_t constants_paired = 0, constants_equal = 0, constants_differ = 0;
  int64_t constants_unavailable = 0;
  uint64_t bytes_compared = 0;
  std::vector<TensorDiff> tensors;  // tensors with a metadata or data change, in B order
  std::vector<ScalarChange> scalars;
  std::vector<ConstantOnly> constants_only_a, constants_only_b;
  // Delegate calls whose payload bytes differ though their size does not.
  std::vector<std::pair<NodeId, NodeId>> payloads_differ;
  std::vector<NestedDiff> nested;
  // Nodes the structural diff found the same that the value diff made changed (a constant
  // whose bytes differ): GraphDiff::changed counts them.
  int64_t nodes_marked = 0;

  int64_t data_changes() const;      // tensors whose bytes differ (here and nested)
  int64_t metadata_changes() const;  // tensors with a metadata change (here and nested)
  bool empty() const;                // nothing at all differs
};

// Pairs the values of two matched graphs (d: diff_graphs(da, a, db, b)) and compares them;
// sets d.values and turns what it finds into node changes the report and page show: a
// constant node whose bytes differ is changed ("data: 12 of 256 elements differ ..."), and
// so is a delegate call whose payload's constants differ.
void add_value_diff(const Document& da, const Graph& a, const Document& db, const Graph& b,
                    GraphDiff& d, const ValueDiffOptions& options = {});

// A constant's bytes (Graph::storage); empty when not reachable. `note` says why, or what was
// cut (a segment that runs past the end of the file).
std::span<const uint8_t> constant_bytes(const Document& doc, const Graph& g, ValueId v,
                                        std::string* note = nullptr);

// ---- whole programs ------------------------------------------------------------------------

struct NamedDataChange {
  std::string key;
  std::string change;  // "only in A", "only in B", "bytes differ", "size 12 -> 16"
  int64_t bytes_a = -1, bytes_b = -1;
};

struct MethodPair {
  std::string name;
  int32_t a = -1, b = -1;  // Document::graphs
};

struct ProgramDiff {
  std::string file_a, file_b;
  uint64_t size_a = 0, size_b = 0;
  bool bitwise_equal = false;
  std::string version_a, version_b;  // "ET12 schema version 0"
  std::vector<std::string> methods_only_a, methods_only_b;
  std::vector<MethodPair> methods;  // every method both have, in A's order
  std::vector<NamedDataChange> named_data;
  std::vector<std::string> damaged;  // what each side's reader found cut off
  // Filled by summarize(): one line that says bitwise equal / same program / what differs.
  std::string summary;
  bool same_program = false;
};

// The file-level facts of two documents and the methods to compare (top-level graphs by name).
ProgramDiff diff_programs(const std::string& file_a, const Document& a, const std::string& file_b,
                          const Document& b);
// The one-line verdict, from the file-level facts and each method pair's diff (diffs[k] for
// methods[k]).
void summarize(ProgramDiff& p, const std::vector<const GraphDiff*>& diffs);

}  // namespace etviz::analysis
