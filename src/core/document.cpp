#include "core/document.h"

#include <algorithm>
#include <cstdio>

namespace etviz {

std::string CompileSpec::display() const {
  // A single trailing NUL is common (C strings written as bytes); it is not part of the text.
  const size_t text_size = !value.empty() && value.back() == 0 ? value.size() - 1 : value.size();
  const bool printable =
      text_size > 0 && std::all_of(value.begin(), value.begin() + static_cast<long>(text_size),
                                   [](uint8_t c) { return c >= 0x20 && c <= 0x7e; });
  if (printable) return std::string(value.begin(), value.begin() + static_cast<long>(text_size));
  std::string hex;
  const size_t shown = std::min<size_t>(value.size(), 16);
  for (size_t i = 0; i < shown; ++i) {
    char buf[4];
    std::snprintf(buf, sizeof buf, "%02x", value[i]);
    hex += buf;
  }
  if (value.size() > shown) hex += "...";
  return "<" + std::to_string(value.size()) + " bytes: " + hex + ">";
}

const std::string& Document::path() const {
  static const std::string empty;
  return sources.empty() ? empty : sources.front()->path();
}

std::span<const uint8_t> Document::bytes(const BlobRef& blob) const {
  if (blob.source < 0 || static_cast<size_t>(blob.source) >= sources.size()) return {};
  auto all = sources[blob.source]->bytes();
  if (blob.offset > all.size() || blob.size > all.size() - blob.offset) return {};
  return all.subspan(blob.offset, blob.size);
}

const Graph* Document::find_graph(const std::string& name) const {
  for (const Graph& g : graphs)
    if (g.name == name) return &g;
  return nullptr;
}

const Graph* Document::find_stage(StageRole role, std::string_view method) const {
  for (const Graph& g : graphs)
    if (g.is_top_level() && g.stage.role == role && g.stage.method == method) return &g;
  return nullptr;
}

const Graph* Document::subgraph_of(const Node& node) const {
  if (node.subgraph < 0 || static_cast<size_t>(node.subgraph) >= graphs.size()) return nullptr;
  return &graphs[static_cast<size_t>(node.subgraph)];
}

std::string Document::top_level_names() const {
  std::string names;
  for (const Graph& g : graphs)
    if (g.is_top_level()) names += (names.empty() ? "" : ", ") + g.name;
  return names;
}

const char* to_string(DocumentFormat f) {
  switch (f) {
    case DocumentFormat::kUnknown:
      return "unknown";
    case DocumentFormat::kExecuTorchProgram:
      return "executorch_program";
    case DocumentFormat::kBundledProgram:
      return "bundled_program";
    case DocumentFormat::kFlatTensor:
      return "flat_tensor";
    case DocumentFormat::kPt2:
      return "torch_export_pt2";
    case DocumentFormat::kETRecord:
      return "etrecord";
  }
  return "unknown";
}

}  // namespace etviz
