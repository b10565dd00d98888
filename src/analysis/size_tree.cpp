#include "analysis/size_tree.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/mapped_file.h"

namespace etviz::analysis {
namespace {

// Constants grouped by module path: "layers.0.attention.wq.weight" lands in layers > layers.0
// > layers.0.attention > layers.0.attention.wq as a leaf named by its fqn.
struct ModuleTrie {
  std::map<std::string, ModuleTrie> children;
  std::vector<std::pair<std::string, uint64_t>> leaves;
  uint64_t total = 0;

  void add(const std::string& fqn, uint64_t bytes) {
    ModuleTrie* at = this;
    at->total += bytes;
    size_t start = 0;
    for (size_t dot = fqn.find('.'); dot != std::string::npos; dot = fqn.find('.', dot + 1)) {
      at = &at->children[fqn.substr(0, dot)];
      at->total += bytes;
      start = dot + 1;
    }
    (void)start;
    at->leaves.push_back({fqn, bytes});
  }

  // Modules with one child and no leaves fold into it ("layers.0.attention.wq").
  void emit(std::vector<SizeNode>& out) const {
    for (const auto& [name, sub] : children) {
      const ModuleTrie* t = &sub;
      if (t->children.empty() && t->leaves.size() == 1) {  // a module of one tensor: the tensor
        out.push_back({t->leaves[0].first, "constant", t->leaves[0].second, {}});
        continue;
      }
      std::string label = name;
      while (t->leaves.empty() && t->children.size() == 1) {
        label = t->children.begin()->first;
        t = &t->children.begin()->second;
      }
      SizeNode n{label, "module", t->total, {}};
      t->emit(n.children);
      out.push_back(std::move(n));
    }
    for (const auto& [fqn, bytes] : leaves) out.push_back({fqn, "constant", bytes, {}});
    std::stable_sort(out.begin(), out.end(),
                     [](const SizeNode& a, const SizeNode& b) { return a.bytes > b.bytes; });
  }
};

bool inside(const Section& s, uint64_t offset) {
  return offset >= s.offset && offset - s.offset < s.size;
}

// The remainder of a section beyond its attributed children.
void close_section(SizeNode& n, const char* what) {
  uint64_t sum = 0;
  for (const SizeNode& c : n.children) sum += c.bytes;
  if (sum < n.bytes) n.children.push_back({what, "other", n.bytes - sum, {}});
  std::stable_sort(n.children.begin(), n.children.end(),
                   [](const SizeNode& a, const SizeNode& b) { return a.bytes > b.bytes; });
}

}  // namespace

SizeNode size_tree(const Document& doc) {
  SizeNode root;
  root.kind = "file";
  root.name = doc.sources.empty() ? "" : doc.sources[0]->path();
  root.bytes = doc.sources.empty() ? 0 : doc.sources[0]->size();
  // Constants once each (methods share them), by where their bytes are.
  std::map<DataLocation, ModuleTrie> constants;
  std::set<std::pair<int, std::string>> seen;
  for (const Graph& g : doc.graphs) {
    if (g.kind == GraphKind::kDelegate) continue;  // a payload's constants are inside the payload
    for (const Value& v : g.values) {
      const TensorInfo& t = v.tensor;
      if (v.kind != ValueKind::kTensor || t.nbytes <= 0) continue;
      if (t.data_location != DataLocation::kConstantSegment &&
          t.data_location != DataLocation::kMutableSegment &&
          t.data_location != DataLocation::kInline)
        continue;
      const std::string key = !t.data_key.empty() ? t.data_key.str()
                              : t.data_index >= 0 ? fmt::format("#{}", t.data_index)
                                                  : v.name;
      if (!seen.insert({static_cast<int>(t.data_location), key}).second) continue;
      constants[t.data_location].add(t.data_key.empty() ? v.name : t.data_key.str(),
                                     static_cast<uint64_t>(t.nbytes));
    }
  }
  uint64_t covered = 0;
  for (const Section& s : doc.sections) {
    SizeNode n{s.name, s.kind == "padding" ? "padding" : "section", s.size, {}};
    covered += s.size;
    const bool constants_here = s.name.find("constants") != std::string::npos;
    const bool mutable_here = s.name.find("mutable data") != std::string::npos;
    if (constants_here) constants[DataLocation::kConstantSegment].emit(n.children);
    if (mutable_here) constants[DataLocation::kMutableSegment].emit(n.children);
    if (s.kind == "flatbuffer") {
      std::vector<SizeNode> inline_constants;
      constants[DataLocation::kInline].emit(inline_constants);
      if (!inline_constants.empty()) {
        SizeNode c{"inline constants (constant_buffer)", "module", 0, std::move(inline_constants)};
        for (const SizeNode& x : c.children) c.bytes += x.bytes;
        n.children.push_back(std::move(c));
      }
      // Payloads stored inline in the flatbuffer (backend_delegate_data) are in here too.
    }
    // One child per payload: methods may share one (a QNN context serves several methods).
    std::map<std::pair<uint64_t, uint64_t>, std::string> payloads;
    for (const Delegate& d : doc.delegates)
      if (d.payload.valid() && d.payload.source == 0 && inside(s, d.payload.offset)) {
        std::string& name = payloads[{d.payload.offset, d.payload.size}];
        const std::string use = fmt::format("#{} of {}", d.index_in_method, d.method);
        name = name.empty() ? fmt::format("{} payload {}", d.backend_id, use) : name + ", " + use;
      }
    for (const auto& [where, name] : payloads)
      n.children.push_back({name, "delegate", where.second, {}});
    for (const NamedBlob& b : doc.named_data)
      if (b.blob.valid() && b.blob.source == 0 && inside(s, b.blob.offset))
        n.children.push_back({"named data '" + b.key + "'", "named_data", b.blob.size, {}});
    if (!n.children.empty())
      close_section(n, s.kind == "flatbuffer" ? "program structure (ops, values, plans)"
                                              : "alignment and unattributed bytes");
    root.children.push_back(std::move(n));
  }
  if (covered < root.bytes)
    root.children.push_back({"not in any section", "other", root.bytes - covered, {}});
  return root;
}

}  // namespace etviz::analysis
