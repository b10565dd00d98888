#include "analysis/categories.h"

#include <fmt/format.h>

#include <array>
#include <fstream>
#include <sstream>
#include <string_view>

#include "analysis/delegation.h"

namespace etviz::analysis {
namespace {

bool starts_with(std::string_view s, std::string_view p) {
  return s.substr(0, p.size()) == p;
}

bool is_memory_op(std::string base) {
  if (base.size() > 5 && base.ends_with("_copy")) base.resize(base.size() - 5);
  static constexpr std::array<std::string_view, 32> kNames = {"view",
                                                              "_unsafe_view",
                                                              "permute",
                                                              "clone",
                                                              "copy",
                                                              "copy_",
                                                              "_to_copy",
                                                              "expand",
                                                              "reshape",
                                                              "slice",
                                                              "squeeze",
                                                              "unsqueeze",
                                                              "transpose",
                                                              "t",
                                                              "select",
                                                              "alias",
                                                              "contiguous",
                                                              "flatten",
                                                              "unflatten",
                                                              "_reshape_alias",
                                                              "as_strided",
                                                              "et_view",
                                                              "_clone_dim_order",
                                                              "_to_dim_order",
                                                              "detach",
                                                              "lift_fresh",
                                                              "expand_as",
                                                              "view_as",
                                                              "narrow",
                                                              "unfold",
                                                              "split_with_sizes",
                                                              "unbind"};
  for (auto n : kNames)
    if (base == n) return true;
  return false;
}

bool is_quantize_op(const std::string& base) {
  return base == "quantize" || base == "dequantize" || starts_with(base, "quantize_") ||
         starts_with(base, "dequantize_") || starts_with(base, "choose_qparams");
}

Result<Category> category_from_id(const std::string& id, const std::vector<CategoryInfo>& cats) {
  for (const auto& c : cats)
    if (c.id == id) return c.category;
  std::string known;
  for (const auto& c : cats) known += (known.empty() ? "" : ", ") + c.id;
  return Error("unknown category \"" + id + "\" (known: " + known + ")");
}

}  // namespace

const char* to_string(Category c) {
  switch (c) {
    case Category::kCompute:
      return "compute";
    case Category::kBackend:
      return "backend";
    case Category::kQuantize:
      return "quantize";
    case Category::kMemory:
      return "memory";
    case Category::kIo:
      return "io";
    case Category::kConstant:
      return "constant";
    case Category::kDelegate:
      return "delegate";
    case Category::kControl:
      return "control";
    case Category::kOther:
      return "other";
    case Category::kError:
      return "error";
  }
  return "other";
}

CategoryConfig default_category_config() {
  CategoryConfig config;
  config.categories = {
      {Category::kCompute, "compute", "Compute", "#4c78a8",
       "ops in aten::, prims::, quantized_decomposed:: or executorch_prim:: (portable kernels)"},
      {Category::kBackend, "backend", "Backend ops", "#9c6ade",
       "ops in any other namespace (cortex_m::, cadence::, llama::, ...)"},
      {Category::kQuantize, "quantize", "Quantize / dequantize", "#e8871e",
       "quantize_*, dequantize_*, choose_qparams*"},
      {Category::kMemory, "memory", "Memory and view", "#3aa39a",
       "view, permute, clone, copy, expand, reshape, slice, squeeze, unsqueeze, transpose, "
       "dim-order ops and their _copy variants"},
      {Category::kIo, "io", "Inputs / outputs", "#4f9d3a", "graph inputs and outputs"},
      {Category::kConstant, "constant", "Parameters / constants", "#8a8f98",
       "parameters, buffers and constant tensors"},
      {Category::kDelegate, "delegate", "Delegate calls", "#d9534f",
       "calls into a backend's compiled payload"},
      {Category::kControl, "control", "Control / memory mgmt", "#c9a227",
       "move, jump_false and free instructions"},
      {Category::kOther, "other", "Other", "#7a7a7a", "anything else"},
      {Category::kError, "error", "Error", "#e0218a",
       "the op that raised (a live trace's failed forward pass); the panel names the exception"},
  };
  return config;
}

std::string op_namespace(const std::string& op) {
  const auto p = op.find("::");
  return p == std::string::npos ? std::string() : op.substr(0, p);
}

std::string without_python_prefix(const std::string& op) {
  for (std::string_view prefix : {"F.", "torch.", "Tensor."})
    if (op.rfind(prefix, 0) == 0 && op.size() > prefix.size() &&
        op.find('.', prefix.size()) == std::string::npos)
      return op.substr(prefix.size());
  return op;
}

std::string op_base_name(const std::string& op) {
  const auto p = op.find("::");
  std::string rest = without_python_prefix(p == std::string::npos ? op : op.substr(p + 2));
  const auto dot = rest.find('.');
  if (dot != std::string::npos && dot > 0) rest.resize(dot);
  return rest;
}

bool glob_match(const std::string& pattern, const std::string& text) {
  // Iterative glob with backtracking to the last '*': linear in practice, no recursion.
  size_t p = 0, t = 0, star = std::string::npos, mark = 0;
  while (t < text.size()) {
    if (p < pattern.size() && pattern[p] == '*') {
      star = p++;
      mark = t;
    } else if (p < pattern.size() && pattern[p] == text[t]) {
      ++p;
      ++t;
    } else if (star != std::string::npos) {
      p = star + 1;
      t = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

Category categorize_op(const std::string& op, const CategoryConfig& config) {
  for (const auto& r : config.rules)
    if (glob_match(r.match, op)) return r.category;
  const std::string base = op_base_name(op);
  const std::string ns = op_namespace(op);
  if (is_quantize_op(base)) return Category::kQuantize;
  if (ns == "dim_order_ops" || is_memory_op(base)) return Category::kMemory;
  if (ns.empty() || ns == "aten" || ns == "prims" || ns == "quantized_decomposed" ||
      ns == "executorch_prim" || ns == "torch")
    return Category::kCompute;
  return Category::kBackend;
}

Category categorize(const Node& node, const CategoryConfig& config) {
  if (node.failure) return Category::kError;
  if (is_call_delegate(node)) return Category::kDelegate;
  switch (node.kind) {
    case NodeKind::kInput:
    case NodeKind::kOutput:
      return Category::kIo;
    case NodeKind::kConstant:
    case NodeKind::kGetAttr:
      return Category::kConstant;
    case NodeKind::kDelegate:
      return Category::kDelegate;
    case NodeKind::kMove:
    case NodeKind::kJumpFalse:
    case NodeKind::kFree:
      return Category::kControl;
    case NodeKind::kKernel:
    case NodeKind::kCallModule:
      return categorize_op(node.op, config);
    case NodeKind::kOther:
      break;
  }
  for (const auto& r : config.rules)
    if (glob_match(r.match, node.op)) return r.category;
  return Category::kOther;
}

Result<CategoryConfig> category_config(const side_files::CategoriesFile& file) {
  CategoryConfig config = default_category_config();
  for (size_t i = 0; i < file.rules.size(); ++i) {
    auto cat = category_from_id(file.rules[i].category, config.categories);
    if (!cat) return cat.error().within("rules[" + std::to_string(i) + "]");
    config.rules.push_back({file.rules[i].match, *cat});
  }
  for (const auto& [id, colour] : file.colors) {
    auto cat = category_from_id(id, config.categories);
    if (!cat) return cat.error().within("colors");
    config.categories[static_cast<size_t>(*cat)].color = colour;
  }
  return config;
}

}  // namespace etviz::analysis
