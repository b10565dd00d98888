#pragma once
// The string-valued node metadata torch.export serializes: nn_module_stack, stack_trace,
// debug_handle. Parsed into plain structures; the reader turns them into groups and provenance.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/graph.h"

namespace etviz::torch_export {

// One nn_module_stack entry: the module's call key, its path from the root and its class.
struct ModuleFrame {
  std::string key;   // "L__self___layers_0", unique per call
  std::string path;  // "layers.0" (normalised from "L['self'].layers[0]" forms); "" for the root
  std::string type;  // "torch.nn.modules.linear.Linear"
};

// "key,path,type;key,path,type" — outermost first. Commas and semicolons inside brackets
// (paths like "layers.slice(None, 2, None)") do not split.
std::vector<ModuleFrame> parse_nn_module_stack(std::string_view text);

// Turns Dynamo-style paths into module FQNs: "L['self'].layers[0].attn" -> "layers.0.attn",
// "L__self__" -> "".
std::string normalize_module_path(std::string_view path);

// Python traceback text ('File "x.py", line 3, in forward\n    code') into frames, outermost
// first as Python prints them (so the innermost call is last, as Provenance::stack expects).
std::vector<StackFrame> parse_stack_trace(std::string_view text);

// Every integer in text such as "7", "[3, 4]" or "(5,)".
std::vector<int64_t> parse_int_list(std::string_view text);

}  // namespace etviz::torch_export
