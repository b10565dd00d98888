#include "trace_model.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace etviz::gen {
namespace {

std::string dtype_name(int dtype) {
  switch (dtype) {
    case 1:
      return "torch.uint8";
    case 2:
      return "torch.int8";
    case 4:
      return "torch.int32";
    case 5:
      return "torch.int64";
    case 6:
      return "torch.float16";
    case 7:
      return "torch.float32";
    case 12:
      return "torch.bool";
    case 13:
      return "torch.bfloat16";
    default:
      return "torch.float32";
  }
}

std::string shape_text(const ExportTensor& t) {
  std::string s = "[";
  for (size_t k = 0; k < t.sizes.size(); ++k)
    s += (k ? ", " : "") + std::to_string(t.sizes[k].size);
  return s + "]";
}

std::string strip_ops(const std::string& target) {
  const std::string prefix = "torch.ops.";
  return target.rfind(prefix, 0) == 0 ? target.substr(prefix.size()) : target;
}

// The exported program as trace nodes: placeholders, calls, the output.
std::vector<TraceNode> from_program(const ExportProgram& p) {
  std::map<std::string, const ExportTensor*> tensors;
  for (const ExportTensor& t : p.graph.tensors) tensors[t.name] = &t;
  std::map<std::string, std::string> producer;  // tensor name -> node id
  std::vector<TraceNode> out;
  auto describe = [&](TraceNode& n, const std::string& tensor) {
    auto it = tensors.find(tensor);
    if (it == tensors.end()) return;
    n.shape = shape_text(*it->second);
    n.dtype = dtype_name(it->second->dtype);
  };
  for (const ExportArg& in : p.graph.inputs) {
    if (in.kind != ExportArg::Kind::kTensor) continue;
    TraceNode n{in.name, "placeholder", in.name, "", "", "", {}};
    describe(n, in.name);
    producer[in.name] = in.name;
    out.push_back(std::move(n));
  }
  auto read = [&](TraceNode& n, const ExportArg& a) {
    if (a.kind == ExportArg::Kind::kTensor) {
      if (auto it = producer.find(a.name); it != producer.end()) n.inputs.push_back(it->second);
    } else if (a.kind == ExportArg::Kind::kTensors) {
      for (const std::string& t : a.names)
        if (auto it = producer.find(t); it != producer.end()) n.inputs.push_back(it->second);
    }
  };
  for (const ExportNode& node : p.graph.nodes) {
    TraceNode n{node.name, "call_function", strip_ops(node.target), "", "", "", {}};
    if (!node.module_stack.empty()) n.module = node.module_stack.back().path;
    for (const auto& [name, arg] : node.inputs) read(n, arg);
    for (const ExportArg& o : node.outputs)
      if (o.kind == ExportArg::Kind::kTensor) {
        if (n.shape.empty()) describe(n, o.name);
        producer[o.name] = node.name;
      }
    out.push_back(std::move(n));
  }
  TraceNode output{"output", "output", "output", "", "", "", {}};
  for (const ExportArg& o : p.graph.outputs) read(output, o);
  out.push_back(std::move(output));
  return out;
}

std::vector<TraceNode> decompose_linear(std::vector<TraceNode> nodes, TraceEdits& e) {
  std::map<std::string, const TraceNode*> by_id;
  std::vector<TraceNode> out;
  out.reserve(nodes.size() * 5 / 4);
  std::map<std::string, std::string> shapes;
  for (const TraceNode& n : nodes) shapes[n.id] = n.shape;
  for (TraceNode n : nodes) {
    if (n.target == "aten.linear.default" && n.inputs.size() >= 2) {
      const std::string weight = n.inputs[1];
      // [out, in] -> [in, out]
      std::string ws = shapes[weight], ts = ws;
      if (auto c = ws.find(", "); c != std::string::npos && ws.size() > 2)
        ts = "[" + ws.substr(c + 2, ws.size() - c - 3) + ", " + ws.substr(1, c - 1) + "]";
      TraceNode permute{
          n.id + "_permute", "call_function", "aten.permute_copy.default", ts, n.dtype,
          n.module,          {weight}};
      n.target = "aten.addmm.default";
      std::vector<std::string> inputs;
      if (n.inputs.size() >= 3) inputs.push_back(n.inputs[2]);  // bias first, as addmm reads it
      inputs.push_back(n.inputs[0]);
      inputs.push_back(permute.id);
      n.inputs = std::move(inputs);
      out.push_back(std::move(permute));
      ++e.added;
      ++e.changed;
    }
    out.push_back(std::move(n));
  }
  return out;
}

std::vector<TraceNode> fuse_silu_mul(std::vector<TraceNode> nodes, TraceEdits& e) {
  std::map<std::string, std::string> replaced;  // removed mul -> the silu that absorbed it
  for (TraceNode& silu : nodes) {
    if (silu.target != "aten.silu.default") continue;
    for (TraceNode& mul : nodes) {
      if (mul.target != "aten.mul.Tensor" || replaced.count(mul.id) ||
          std::find(mul.inputs.begin(), mul.inputs.end(), silu.id) == mul.inputs.end())
        continue;
      for (const std::string& other : mul.inputs)
        if (other != silu.id) silu.inputs.push_back(other);
      silu.target = "etviz_fused.silu_mul.default";
      replaced[mul.id] = silu.id;
      ++e.removed;
      ++e.changed;
      break;
    }
  }
  std::vector<TraceNode> out;
  for (TraceNode& n : nodes) {
    if (replaced.count(n.id)) continue;
    for (std::string& in : n.inputs)
      if (auto it = replaced.find(in); it != replaced.end()) in = it->second;
    out.push_back(std::move(n));
  }
  return out;
}

std::vector<TraceNode> half_precision(std::vector<TraceNode> nodes, TraceEdits& e) {
  for (TraceNode& n : nodes)
    if (n.dtype == "torch.float32") {
      n.dtype = "torch.float16";
      ++e.changed;
    }
  return nodes;
}

}  // namespace

PassTrace build_pass_trace(const ExportModelSpec& spec, std::vector<TraceEdits>* edits) {
  PassTrace t;
  t.model = fmt::format("transformer_{}blocks", spec.blocks);
  std::vector<TraceEdits> e(6);
  std::vector<TraceNode> g = from_program(build_export_transformer(spec));
  t.passes.push_back({"1_post_export", "", g});
  g = decompose_linear(std::move(g), e[1]);
  t.passes.push_back({"2_DecomposeLinearPass", "", g});
  g = fuse_silu_mul(std::move(g), e[2]);
  t.passes.push_back({"3_FuseSiluMulPass", "", g});
  g = half_precision(std::move(g), e[3]);
  t.passes.push_back({"4_HalfPrecisionPass", "", g});
  t.passes.push_back({"5_TagChannelsLastPass",
                      "TagChannelsLastPass: expected a 4-D input for channels-last, got [1, 16, "
                      "64] at layers.0.attn",
                      {}});
  e[4].removed = static_cast<int>(g.size());  // a failed pass leaves no graph
  t.passes.push_back({"6_MemoryPlanningPass", "", g});
  if (edits) *edits = std::move(e);
  return t;
}

std::string write_pass_trace_json(const PassTrace& trace) {
  nlohmann::ordered_json root;
  root["model_name"] = trace.model;
  nlohmann::ordered_json passes = nlohmann::ordered_json::array();
  for (const TracePass& p : trace.passes) {
    nlohmann::ordered_json pass;
    nlohmann::ordered_json meta;
    meta["model_name"] = p.name;
    meta["source_type"] = "trace";
    meta["total_nodes"] = p.nodes.size();
    if (p.error.empty()) {
      meta["error"] = nullptr;
    } else {
      const std::string name = p.name.substr(p.name.find('_') + 1);
      meta["error"] = {{"pass_name", name},
                       {"message", p.error},
                       {"traceback", fmt::format("Traceback (most recent call last):\n  File "
                                                 "\"passes.py\", line 42, in {}\n{}",
                                                 name, p.error)}};
    }
    pass["metadata"] = std::move(meta);
    nlohmann::ordered_json nodes = nlohmann::ordered_json::array(),
                           edges = nlohmann::ordered_json::array();
    for (const TraceNode& n : p.nodes) {
      nlohmann::ordered_json details;
      details["op"] = n.op;
      details["target"] = n.target;
      if (!n.shape.empty()) details["shape"] = n.shape;
      if (!n.dtype.empty()) details["dtype"] = n.dtype;
      if (!n.module.empty()) details["nn_module_stack"] = n.module;
      const bool call = n.op == "call_function";
      nodes.push_back({{"id", n.id},
                       {"label", call ? n.target.substr(n.target.find('.') + 1) : n.id},
                       {"category", call ? "aten_compute" : "placeholder"},
                       {"op_name", call ? n.target : n.op},
                       {"details", std::move(details)}});
      for (const std::string& in : n.inputs) edges.push_back({{"source", in}, {"target", n.id}});
    }
    if (!p.nodes.empty() || p.error.empty()) {
      pass["nodes"] = std::move(nodes);
      pass["edges"] = std::move(edges);
    }
    passes.push_back(std::move(pass));
  }
  root["passes"] = std::move(passes);
  return root.dump(1) + "\n";
}

}  // namespace etviz::gen
