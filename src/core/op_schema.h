#pragma once
// Operator schemas: what each argument of a kernel call is called, its type and default, and
// which arguments a call writes. The table (op_schemas.inc) is generated from real registries by
// scripts/gen_op_schemas.py (torch's operator registry, a newer native_functions.yaml,
// ExecuTorch's kernel and operator libraries); nothing here is typed by hand. An operator that
// is not in the table has no schema: callers keep positions (docs/formats.md, "Argument names").
//
// Schemas read as torch writes them:
//   aten::max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[], ...,
//       *, Tensor(a!) out, Tensor(b!) indices) -> (Tensor(a!), Tensor(b!))
// An ExecuTorch kernel call lists every argument of the schema in order, then one value per
// return (runtime/executor/method.cpp boxes them all into one stack).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace etviz {

struct OpArgument {
  std::string name;                          // empty where the registry gives only a type
  std::string type;                          // "int[2]", "Tensor?", "Tensor(a!)", "ScalarType?"
  std::optional<std::string> default_value;  // as written: "[]", "None", "1", "\"valid\""
  bool keyword_only = false;                 // after the `*`
  bool writes = false;  // an alias annotation with `!`: the call writes this argument
  // An out= argument: keyword-only and written (what out-variant kernels fill).
  bool is_out() const { return keyword_only && writes; }
};

struct OpSchema {
  std::string name;  // "aten::convolution.out" (namespace, name and overload)
  std::vector<OpArgument> arguments;
  std::vector<OpArgument> returns;  // names are usually empty
  std::string text;                 // the schema as the registry wrote it
};

// Parses one schema in torch's syntax; nullopt for text that is not one.
std::optional<OpSchema> parse_op_schema(std::string_view text);

// The schema of an operator as an ExecuTorch program names it (`Operator.name` and
// `.overload`): "aten::convolution" + "out". An overload "default" also finds the schema
// without one, as torch names it. Null when no registry etviz knows of defines the operator.
const OpSchema* find_op_schema(std::string_view name, std::string_view overload);

// The same, from the name a node carries ("aten::view_copy.out", "aten::linear").
const OpSchema* find_op_schema(std::string_view qualified_name);

// Whether output `ret` of a call shares the storage of argument `arg` by the schema's alias
// annotations: a view (`Tensor(a) self -> Tensor(a)`) or an in-place write (`Tensor(a!) self ->
// Tensor(a!)`). ExecuTorch's own view, executorch_prim::et_view, is registered without
// annotations but is one by definition (its out is a view of its self).
bool returns_alias_of(const OpSchema& schema, size_t ret, size_t arg);
bool is_view_op(std::string_view qualified_name);

// How many schemas the table holds (tests, docs).
size_t op_schema_count();

}  // namespace etviz
