#pragma once
// Helpers for tests that read the shared corpus in place.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "test_support.h"

namespace etviz::test {

// Instruction counts by node kind name ("kernel", "delegate", ...).
inline std::map<std::string, int> instruction_kinds(const Graph& g) {
  std::map<std::string, int> counts;
  for (const Node& n : g.nodes)
    if (n.provenance.instruction >= 0) ++counts[to_string(n.kind)];
  return counts;
}

inline std::map<std::string, int> kernel_ops(const Graph& g) {
  std::map<std::string, int> counts;
  for (const Node& n : g.nodes)
    if (n.kind == NodeKind::kKernel) ++counts[n.op];
  return counts;
}

inline std::string tensor_sig(const Graph& g, ValueId id) {
  const Value& v = g.values[id];
  if (v.kind != ValueKind::kTensor) return to_string(v.kind);
  return v.tensor.dtype + v.tensor.shape_string();
}

inline std::vector<std::string> input_sigs(const Graph& g) {
  std::vector<std::string> out;
  for (ValueId id : g.inputs) out.push_back(tensor_sig(g, id));
  return out;
}
inline std::vector<std::string> output_sigs(const Graph& g) {
  std::vector<std::string> out;
  for (ValueId id : g.outputs) out.push_back(tensor_sig(g, id));
  return out;
}

}  // namespace etviz::test
