#pragma once
// Writes torch.export artifacts from typed structures: the ExportedProgram JSON of
// torch/_export/serde/schema.py (the current 8.x form, or the 2023 schema-1 form whose unions
// list every member with nulls), .pt2 archives in the 2024 and the newer layout, and ETRecords.
// Used by tests, fuzz seeds and the parse benchmark; not a copy of any upstream writer.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace etviz::gen {

// A dimension: a concrete size or a symbol ("s0") with a hint.
struct ExportDim {
  int64_t size = 0;
  std::string symbol;  // non-empty = symbolic
};

struct ExportTensor {
  std::string name;
  int dtype = 7;  // torch.export ScalarType: 7 float32, 5 int64, 13 bfloat16, 12 bool
  std::vector<ExportDim> sizes;
  bool requires_grad = false;
};

struct ExportGraph;

// One Argument union member. Kinds cover the common ones; `raw_kind`/`raw_json` write anything
// else verbatim (to test that readers keep kinds they do not know).
struct ExportArg {
  enum class Kind {
    kNone,
    kTensor,
    kTensors,
    kInt,
    kInts,
    kFloat,
    kBool,
    kString,
    kSymInt,
    kGraph,
    kRaw
  };
  Kind kind = Kind::kNone;
  std::string name;                // tensor / sym int / graph name
  std::vector<std::string> names;  // tensors
  int64_t i = 0;
  std::vector<int64_t> ints;
  double f = 0;
  bool b = false;
  std::string s;
  std::shared_ptr<ExportGraph> graph;  // kGraph
  std::string raw_kind, raw_json;      // kRaw

  static ExportArg tensor(std::string n) {
    ExportArg a;
    a.kind = Kind::kTensor;
    a.name = std::move(n);
    return a;
  }
  static ExportArg integer(int64_t v) {
    ExportArg a;
    a.kind = Kind::kInt;
    a.i = v;
    return a;
  }
  static ExportArg ints_of(std::vector<int64_t> v) {
    ExportArg a;
    a.kind = Kind::kInts;
    a.ints = std::move(v);
    return a;
  }
  static ExportArg floating(double v) {
    ExportArg a;
    a.kind = Kind::kFloat;
    a.f = v;
    return a;
  }
  static ExportArg sym_int(std::string n) {
    ExportArg a;
    a.kind = Kind::kSymInt;
    a.name = std::move(n);
    return a;
  }
  static ExportArg none() { return ExportArg{}; }
};

struct ExportModuleFrame {
  std::string key, path, type;
};
struct ExportStackFrame {
  std::string file;
  int64_t line = 0;
  std::string function, code;
};

struct ExportNode {
  std::string name;
  std::string target;  // "torch.ops.aten.linear.default"
  std::vector<std::pair<std::string, ExportArg>> inputs;
  std::vector<ExportArg> outputs;
  std::vector<ExportModuleFrame> module_stack;  // outermost first, root included
  std::vector<ExportStackFrame> stack;          // outermost first
  std::optional<int64_t> debug_handle;
  std::map<std::string, std::string> extra_metadata;
};

struct ExportGraph {
  std::vector<ExportArg> inputs, outputs;
  std::vector<ExportNode> nodes;
  std::vector<ExportTensor> tensors;
  std::vector<std::pair<std::string, std::string>> sym_ints;  // name -> expression
};

struct ExportInputSpec {
  std::string kind;  // user_input, parameter, buffer, tensor_constant
  std::string arg;   // placeholder name
  std::string target;
};
struct ExportOutputSpec {
  std::string kind;  // user_output, buffer_mutation, ...
  std::string arg;
  std::string target;
};

struct ExportProgram {
  ExportGraph graph;
  std::vector<ExportInputSpec> inputs;
  std::vector<ExportOutputSpec> outputs;
  std::map<std::string, std::pair<int64_t, int64_t>> ranges;  // symbol -> [min, max]
  int schema_major = 8, schema_minor = 12;
  bool schema1_style =
      false;  // 2023 form: null-filled unions, {"meta":...}, integer schema_version
};

std::string write_exported_program_json(const ExportProgram& program);

// Parameters of a program (by signature target), with the byte size of their data.
struct ExportWeight {
  std::string fqn;
  ExportTensor tensor;
};

// A .pt2 archive. `new_layout` writes archive_format/models/<name>.json/data/weights; else the
// 2024 layout with serialized_exported_program.json (only the first model). `top` is the folder
// every entry sits in ("" for none). `pad_weights`: a weight of that many zero bytes (a uint8
// vector named "padding"; the 2024 layout's state dict) written as a hole, so the archive is
// large but sparse on disk. Returns an error message or "".
std::string write_pt2(const std::string& path,
                      const std::vector<std::pair<std::string, ExportProgram>>& models,
                      bool new_layout, const std::string& top = "archive",
                      uint64_t pad_weights = 0);

struct ExportETRecord {
  std::vector<std::pair<std::string, ExportProgram>> programs;  // entry name -> program
  std::string debug_handle_map_json = "{}";
  std::string delegate_map_json = "{}";
  std::string num_outs_map_json;  // omitted when empty
  bool representative_inputs = false;
  // The first program's _state_dict sibling as this many zero bytes (a hole), when non-zero.
  uint64_t pad_weights = 0;
};
std::string write_etrecord(const std::string& path, const ExportETRecord& record);

}  // namespace etviz::gen
