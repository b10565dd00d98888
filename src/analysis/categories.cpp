#include "analysis/categories.h"

#include <fmt/format.h>

#include <array>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>

#include "core/mapped_file.h"

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

bool is_hex_color(const std::string& s) {
  if (s.size() != 7 || s[0] != '#') return false;
  for (size_t i = 1; i < s.size(); ++i)
    if (!std::isxdigit(static_cast<unsigned char>(s[i]))) return false;
  return true;
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

Result<CategoryConfig> parse_category_config(const std::string& json_text) {
  CategoryConfig config = default_category_config();
  nlohmann::json j = nlohmann::json::parse(json_text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Error("not valid JSON");
  if (!j.is_object()) return Error("expected a JSON object with \"rules\" and/or \"colors\"");
  for (auto it = j.begin(); it != j.end(); ++it)
    if (it.key() != "rules" && it.key() != "colors")
      return Error("unknown key \"" + it.key() + "\" (expected \"rules\" or \"colors\")");
  if (j.contains("rules")) {
    const auto& rules = j["rules"];
    if (!rules.is_array()) return Error("\"rules\" must be an array");
    for (size_t i = 0; i < rules.size(); ++i) {
      const auto& r = rules[i];
      const std::string where = "rules[" + std::to_string(i) + "]";
      if (!r.is_object() || !r.contains("match") || !r.contains("category") ||
          !r["match"].is_string() || !r["category"].is_string())
        return Error(where + ": expected {\"match\": \"glob\", \"category\": \"id\"}");
      auto cat = category_from_id(r["category"].get<std::string>(), config.categories);
      if (!cat) return cat.error().within(where);
      config.rules.push_back({r["match"].get<std::string>(), *cat});
    }
  }
  if (j.contains("colors")) {
    const auto& colors = j["colors"];
    if (!colors.is_object()) return Error("\"colors\" must be an object of id -> \"#rrggbb\"");
    for (auto it = colors.begin(); it != colors.end(); ++it) {
      auto cat = category_from_id(it.key(), config.categories);
      if (!cat) return cat.error().within("colors");
      if (!it->is_string() || !is_hex_color(it->get<std::string>()))
        return Error("colors." + it.key() + ": expected a colour like \"#4c78a8\"");
      config.categories[static_cast<size_t>(*cat)].color = it->get<std::string>();
    }
  }
  return config;
}

Result<CategoryConfig> load_category_config(const std::string& path) {
  // The size is checked before anything is read (a FIFO or /dev/zero is refused, not drained).
  auto file = MappedFile::open(path);
  if (!file) return Error(file.error().message() + " (categories file)");
  if ((*file)->size() > kMaxCategoriesFileBytes)
    return Error(
        fmt::format("{}: categories file is {} bytes; the limit is 1 MiB", path, (*file)->size()));
  const auto bytes = (*file)->bytes();
  auto config =
      parse_category_config(std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size()));
  if (!config) return config.error().within(path);
  return config;
}

}  // namespace etviz::analysis
