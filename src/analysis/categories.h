#pragma once
// Op categories: what colour a node gets in the viewer and which legend toggle hides it.
//
// Built-in rules (first match wins; see docs/viewer.md):
//   0. a node that failed (Node::failure: the op a live trace's forward pass raised in) -> error
//   1. node kind: graph input/output -> io, constant/parameter/buffer -> constant,
//      delegate call (analysis::is_call_delegate: a .pte DelegateCall, an
//      executorch_call_delegate op) -> delegate, move/jump_false/free -> control
//   2. quantize: the op's base name (namespace and overload stripped) starts with
//      "quantize_", "dequantize_" or "choose_qparams", or is "quantize"/"dequantize"
//   3. memory: base name, with a trailing "_copy" removed, is a view/layout op (view, permute,
//      clone, expand, reshape, slice, squeeze, unsqueeze, transpose, t, select, alias, ...),
//      or the namespace is dim_order_ops
//   4. compute: namespace aten, prims, quantized_decomposed, executorch_prim or none
//   5. backend: any other namespace (cortex_m::, cadence::, llama::, ...)
// A JSON file (--categories, formats/side_files/categories_file.h) can prepend rules and
// recolour categories:
//   {"rules": [{"match": "llama::*", "category": "compute"}], "colors": {"backend": "#aa55cc"}}
// `match` is a glob over the full op name ("ns::name.overload"); `*` matches any run.
#include <cstdint>
#include <string>
#include <vector>

#include "core/graph.h"
#include "core/status.h"
#include "formats/side_files/categories_file.h"

namespace etviz::analysis {

enum class Category : uint8_t {
  kCompute,
  kBackend,
  kQuantize,
  kMemory,
  kIo,
  kConstant,
  kDelegate,
  kControl,
  kOther,
  kError,  // last, so the indices of the others stay what pages and tests have known
};
inline constexpr int kCategoryCount = 10;

struct CategoryInfo {
  Category category;
  std::string id;     // "compute", used in the JSON overrides
  std::string label;  // legend text
  std::string color;  // "#rrggbb"
  std::string rule;   // one line a user reads in the legend tooltip
};

struct CategoryRule {
  std::string match;  // glob over the op name
  Category category = Category::kOther;
};

struct CategoryConfig {
  std::vector<CategoryRule> rules;       // consulted before the built-in rules
  std::vector<CategoryInfo> categories;  // indexed by Category
};

CategoryConfig default_category_config();

// The defaults with a --categories file's rules and colours on top (the file is read by
// formats/side_files/categories_file.h); an error names the field and the unknown id.
Result<CategoryConfig> category_config(const side_files::CategoriesFile& file);

Category categorize(const Node& node, const CategoryConfig& config);
Category categorize_op(const std::string& op, const CategoryConfig& config);

// "aten::add.out" -> "add"; "cortex_m::quantized_conv2d.default" -> "quantized_conv2d".
// Python-level op names of a live trace (etviz.trace_model): "F.relu", "torch.cat",
// "Tensor.add" -> "relu", "cat", "add"; other names unchanged.
std::string without_python_prefix(const std::string& op);
std::string op_base_name(const std::string& op);
// "aten::add.out" -> "aten"; "" when there is no namespace.
std::string op_namespace(const std::string& op);

bool glob_match(const std::string& pattern, const std::string& text);
const char* to_string(Category c);

}  // namespace etviz::analysis
