#include "formats/trace/trace_reader.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/budget.h"
#include "core/graph_builder.h"
#include "formats/json/json_tree.h"
#include "formats/open_document.h"
#include "formats/torch_export/exported_program_reader.h"

namespace etviz::trace {
namespace {

// A trace may name files; those files may not be traces themselves (no recursion).
thread_local int g_depth = 0;

// "aten.convolution.default" (str(OpOverload)) -> "aten::convolution", as the .pt2 reader names
// ops, so a trace's passes diff against .pt2 and ETRecord stages; others unchanged.
std::string op_name(const std::string& target) {
  const auto dots = std::count(target.begin(), target.end(), '.');
  if (dots >= 2 && target.find("::") == std::string::npos &&
      target.find(' ') == std::string::npos && target.find('<') == std::string::npos)
    return torch_export::normalize_target("torch.ops." + target);
  return target;
}

// Moves what a snapshot says of a node beyond its boundary role (module, stack, attributes,
// failure, edges read) onto the node the builder made for it.
void adopt(Node& built, Node&& read, bool inputs) {
  built.group = read.group;
  built.provenance = std::move(read.provenance);
  for (Attribute& a : read.attributes) built.attributes.push_back(std::move(a));
  built.failure = std::move(read.failure);
  if (inputs)
    for (const Argument& a : read.inputs) built.inputs.push_back(a);
}

// One inline snapshot (the PR #18027 node/edge shape) into `b`. Edges follow the nodes, so
// the nodes are read first, their edges given to them, and then built in order through the
// builder (inputs, parameters and the output node by its naming rule), one node each.
void read_snapshot(JsonRef pass, GraphBuilder& b, Document& doc, const std::string& where) {
  std::vector<Node> read;
  std::unordered_map<std::string, NodeId> by_id;
  std::unordered_map<NodeId, ValueId> output_of;
  size_t duplicates = 0;
  JsonRef nodes = pass["nodes"];
  if (nodes.valid() && !nodes.is_array())
    doc.warn(where + ": 'nodes' is not an array; the pass is shown without nodes");
  for (JsonRef jn : nodes) {
    if (!jn.is_object()) continue;
    std::string id = jn["id"].string_or("");
    if (id.empty()) id = jn["name"].string_or("");
    if (id.empty()) id = fmt::format("node_{}", read.size());
    JsonRef details = jn["details"];
    const std::string fx_op = details["op"].string_or("call_function");
    const std::string category = jn["category"].string_or("");
    Node n;
    n.name = id;
    if (by_id.count(id)) {
      ++duplicates;
      n.name = fmt::format("{}#{}", id, duplicates + 1);
    }
    n.op = op_name(jn["op_name"].string_or(details["target"].string_or("")));
    if (fx_op == "placeholder")
      n.kind = category == "param" ? NodeKind::kConstant : NodeKind::kInput;
    else if (fx_op == "output")
      n.kind = NodeKind::kOutput;
    else if (fx_op == "get_attr")
      n.kind = NodeKind::kGetAttr;
    else
      n.kind = NodeKind::kKernel;
    // The node's tensor: one output value carrying the snapshot's shape and dtype.
    if (n.kind != NodeKind::kOutput) {
      Value v;
      v.name = n.name;
      v.kind = ValueKind::kTensor;
      v.tensor.shape = parse_shape_string(details["shape"].string_or(""));
      v.tensor.dtype = canonical_dtype(details["dtype"].string_or(""));
      const ValueId vid = b.add_value(std::move(v));
      n.outputs.push_back({"", vid});
      output_of[static_cast<NodeId>(read.size())] = vid;
    }
    // The module the node came from: a dotted path, or FX's nn_module_stack ({key: [path,
    // type]}, innermost last) as etviz and later trace writers record it.
    JsonRef stack = details["nn_module_stack"];
    std::string module = stack.string_or("");
    if (stack.is_object() || stack.is_array())
      for (JsonRef frame : stack) {
        std::optional<std::string> path;
        if (frame.is_array()) {
          for (JsonRef first : frame) {
            path = first.as_string();
            break;
          }
        } else {
          path = frame["path"].as_string();
        }
        if (path && !path->empty()) module = *path;
      }
    if (module.size() > 4096) module.resize(4096);
    if (!module.empty()) {
      n.provenance.module_path = module;
      n.group = b.module_group(module);
    }
    if (auto st = details["stack_trace"].as_string()) {
      StackFrame frame;
      frame.context = *st;
      n.provenance.stack.push_back(std::move(frame));
    }
    // A failed op of a live trace (etviz.trace_model): what it raised and its inputs' shapes.
    if (auto e = details["error"].as_string()) n.failure = Failure{e->substr(0, 4096), ""};
    if (details["input_shapes"].is_array())
      n.attributes.push_back(
          {"input_shapes", std::string(details["input_shapes"].raw().substr(0, 4096))});
    for (const char* key : {"input_qparams", "output_qparams"})
      if (details[key].valid() && !details[key].is_null())
        n.attributes.push_back({key, std::string(details[key].raw().substr(0, 2048))});
    if (auto q = jn["qdq_group_id"].as_int())
      n.attributes.push_back({"qdq_group", std::to_string(*q)});
    const std::string label = jn["label"].string_or("");
    if (!label.empty() && label != n.name) n.attributes.push_back({"label", label});
    by_id.emplace(id, static_cast<NodeId>(read.size()));
    read.push_back(std::move(n));
  }
  if (duplicates)
    doc.warn(fmt::format("{}: {} duplicate node id{} renamed (#2, #3, ...)", where, duplicates,
                         duplicates == 1 ? "" : "s"));
  size_t dangling = 0;
  for (JsonRef e : pass["edges"]) {
    auto s = by_id.find(e["source"].string_or(""));
    auto t = by_id.find(e["target"].string_or(""));
    if (s == by_id.end() || t == by_id.end()) {
      ++dangling;
      continue;
    }
    auto out = output_of.find(s->second);
    if (out == output_of.end()) continue;
    read[static_cast<size_t>(t->second)].inputs.push_back({"", out->second});
  }
  if (dangling)
    doc.warn(fmt::format("{}: {} edge{} name a node id the pass does not have; left out", where,
                         dangling, dangling == 1 ? "" : "s"));
  Graph& g = b.graph();
  for (Node& n : read) {
    switch (n.kind) {
      case NodeKind::kInput: {
        const NodeId id = b.add_input(n.outputs[0].value, n.name);
        adopt(g.nodes[static_cast<size_t>(id)], std::move(n), true);
        break;
      }
      case NodeKind::kConstant: {
        // A "param" placeholder: torch.export lifts parameters and buffers alike into
        // placeholders, and the trace does not say which.
        const NodeId id = b.add_constant(n.outputs[0].value, ConstantRole::kParameter);
        adopt(g.nodes[static_cast<size_t>(id)], std::move(n), true);
        break;
      }
      case NodeKind::kOutput: {
        std::vector<ValueId> results;
        for (const Argument& a : n.inputs) results.push_back(a.value);
        const NodeId id = b.add_output(results, n.name);
        adopt(g.nodes[static_cast<size_t>(id)], std::move(n), false);
        break;
      }
      default:
        b.add_node(std::move(n));
    }
  }
}

}  // namespace

bool looks_like_trace(std::string_view text) {
  size_t i = 0;
  while (i < text.size() &&
         (text[i] == ' ' || text[i] == '\n' || text[i] == '\r' || text[i] == '\t'))
    ++i;
  if (i >= text.size() || text[i] != '{') return false;
  // Cheap: the key appears near the top in both forms (json.dump writes passes after the
  // model name; our writer writes it third).
  return text.substr(i, 4096).find("\"passes\"") != std::string_view::npos;
}

namespace {

// The file a pass names, inside the trace's folder: relative, and not climbing out of it by
// `..` or by a symlink.
Result<std::string> snapshot_path(const std::filesystem::path& dir, const std::string& ref) {
  namespace fs = std::filesystem;
  const fs::path named(ref);
  if (named.is_absolute() || named.has_root_name())
    return Error("refusing snapshot file '" + ref +
                 "': an absolute path; a trace names files in its own folder");
  const fs::path normal = named.lexically_normal();
  if (normal.empty() || *normal.begin() == "..")
    return Error("refusing snapshot file '" + ref + "': outside the trace's folder");
  const fs::path target = dir / normal;
  std::error_code ec;
  const fs::path real_dir = fs::weakly_canonical(dir.empty() ? fs::path(".") : dir, ec);
  const fs::path real = ec ? fs::path() : fs::weakly_canonical(target, ec);
  if (!ec) {
    const fs::path inside = real.lexically_relative(real_dir);
    if (inside.empty() || *inside.begin() == "..")
      return Error("refusing snapshot file '" + ref + "': a link out of the trace's folder");
  }
  return target.string();
}

// The snapshots a trace names, each read once however many passes name it (by device and
// inode, so two names of one file are one file too).
class SnapshotCache {
 public:
  Result<const Document*> open(const std::string& path) {
    struct stat st {};
    std::pair<uint64_t, uint64_t> key{0, 0};
    const bool known = ::stat(path.c_str(), &st) == 0;
    if (known) {
      key = {static_cast<uint64_t>(st.st_dev), static_cast<uint64_t>(st.st_ino)};
      if (auto it = read_.find(key); it != read_.end()) {
        if (!it->second) return it->second.error();
        return &*it->second;
      }
    }
    ++g_depth;
    auto doc = open_document(path);
    --g_depth;
    if (!known) {
      if (!doc) return doc.error();
      return Error(path + ": cannot be read");
    }
    auto [it, fresh] = read_.emplace(key, std::move(doc));
    (void)fresh;
    if (!it->second) return it->second.error();
    return &*it->second;
  }

 private:
  std::map<std::pair<uint64_t, uint64_t>, Result<Document>> read_;
};

// Nodes of `graph` and of every graph it reaches (what absorb_graph copies).
uint64_t reachable_nodes(const Document& doc, int32_t graph) {
  std::vector<bool> seen(doc.graphs.size(), false);
  std::vector<int32_t> order{graph};
  seen[static_cast<size_t>(graph)] = true;
  uint64_t nodes = 0;
  for (size_t k = 0; k < order.size(); ++k) {
    const Graph& g = doc.graphs[static_cast<size_t>(order[k])];
    nodes += g.nodes.size();
    auto reach = [&](int32_t sub) {
      if (sub < 0 || static_cast<size_t>(sub) >= doc.graphs.size() ||
          seen[static_cast<size_t>(sub)])
        return;
      seen[static_cast<size_t>(sub)] = true;
      order.push_back(sub);
    };
    for (const Node& n : g.nodes) {
      reach(n.subgraph);
      if (n.delegate >= 0 && static_cast<size_t>(n.delegate) < doc.delegates.size())
        reach(doc.delegates[static_cast<size_t>(n.delegate)].subgraph);
    }
  }
  return nodes;
}

}  // namespace

Result<Document> read_trace(std::shared_ptr<const MappedFile> file) {
  const std::string& path = file->path();
  if (g_depth > 0) return Error(path + ": a trace cannot name another trace");
  auto bytes = file->bytes();
  const std::string_view text(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  auto tree = JsonTree::parse(text);
  if (!tree) return tree.error().within(path);
  JsonRef root = tree->root();
  if (!root.is_object()) return Error(path + ": a trace is a JSON object");
  JsonRef passes = root["passes"];
  if (!passes.is_array()) return Error(path + ": a trace needs a 'passes' array");

  Document doc;
  doc.sources.push_back(file);
  doc.format = DocumentFormat::kTrace;
  const bool ours = root["format"].string_or("") == kTraceFormat;
  const std::string model = root[ours ? "model" : "model_name"].string_or("");
  doc.format_version = ours ? std::string(kTraceFormat) : "ExecuTorch pass trace (trace_passes.py)";
  if (!model.empty()) doc.properties.push_back({"model", model});
  doc.properties.push_back({"passes", std::to_string(passes.size())});
  const std::filesystem::path dir = std::filesystem::path(path).parent_path();

  SnapshotCache snapshots;
  uint64_t absorbed = 0;
  int32_t index = 0;
  for (JsonRef pass : passes) {
    ++index;
    const std::string where = fmt::format("{}: pass {}", path, index);
    if (!pass.is_object()) {
      doc.warn(where + ": not a JSON object; skipped");
      continue;
    }
    JsonRef meta = pass["metadata"];
    std::string name = pass["name"].string_or(meta["model_name"].string_or(""));
    if (name.empty()) name = fmt::format("pass {}", index);
    JsonRef error = pass["error"].valid() ? pass["error"] : meta["error"];
    std::string error_message, traceback;
    if (error.is_object()) {
      error_message = error["message"].string_or("failed");
      traceback = error["traceback"].string_or("");
    } else if (error.is_string()) {
      error_message = error.string_or("");
    }

    int32_t graph_index = -1;
    if (auto ref = pass["file"].as_string()) {
      // A snapshot in a file of its own, read by the reader of its format: a file in the
      // trace's folder (or below it), never an absolute path or one that climbs out.
      auto target = snapshot_path(dir, *ref);
      auto snapshot = target ? snapshots.open(*target) : Result<const Document*>(target.error());
      if (!snapshot) {
        doc.warn(fmt::format("{}: {}", where, snapshot.error().message()));
        if (error_message.empty()) error_message = snapshot.error().message();
      } else {
        // The named graph, else the one the file's page opens on.
        const Document& from = **snapshot;
        const std::string wanted = pass["graph"].string_or("");
        int32_t pick = wanted.empty() ? from.default_graph() : -1;
        for (size_t g = 0; g < from.graphs.size() && pick < 0; ++g)
          if (from.graphs[g].is_top_level() && from.graphs[g].name == wanted)
            pick = static_cast<int32_t>(g);
        if (pick < 0) {
          doc.warn(fmt::format("{}: {} has no graph '{}' (graphs: {})", where, *target, wanted,
                               from.top_level_names()));
        } else {
          // Each pass holds its own copy: charged to the run's node budget before it is made.
          absorbed += reachable_nodes(from, pick);
          if (absorbed > run_budget().nodes)
            return over_budget(path + ": graph nodes of the passes' snapshots", absorbed,
                               run_budget().nodes, "--max-nodes", false);
          graph_index = doc.absorb_graph(from, pick);
        }
      }
    }
    if (graph_index < 0) {
      GraphBuilder b(name, GraphKind::kExportedProgram, Stage{StageRole::kPass, model});
      if (pass["nodes"].valid()) read_snapshot(pass, b, doc, where);
      graph_index = static_cast<int32_t>(doc.graphs.size());
      doc.graphs.push_back(b.finish());
    }
    Graph& g = doc.graphs[static_cast<size_t>(graph_index)];
    g.name = fmt::format("{}: {}", index, name);
    g.kind = GraphKind::kExportedProgram;
    g.stage = Stage{StageRole::kPass, model};
    g.attributes.push_back({"pass", name});
    g.attributes.push_back({"pass_index", std::to_string(index)});
    if (auto total = meta["total_nodes"].as_int())
      g.attributes.push_back({"total_nodes", std::to_string(*total)});
    if (!error_message.empty()) {
      g.failure = Failure{error_message, traceback.substr(0, 8192)};
      doc.warn(fmt::format("{} ({}) failed: {}", where, name, error_message));
    }
  }
  if (doc.graphs.empty()) doc.warn(path + ": the trace holds no pass");
  return doc;
}

}  // namespace etviz::trace
