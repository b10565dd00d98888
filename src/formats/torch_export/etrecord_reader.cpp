// ETRecord (devtools/etrecord): a zip with an empty ETRECORD_V0 marker entry, exported programs
// as JSON entries (exported_program, edge_dialect_exported_program — one per method in newer
// records, as edge_dialect_exported_program/<method> — aten_dialect_output/<method> in 2023
// records, and user-named extra modules <name>/<method>), each with <entry>_state_dict,
// _constants and _example_inputs siblings (pickles, never read), plus JSON maps debug_handle_map,
// delegate_map, instruction_id_to_num_outs_map and pickled representative_inputs /
// reference_outputs.
#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "formats/json/json_tree.h"
#include "formats/torch_export/archive_reader.h"
#include "formats/torch_export/exported_program_reader.h"
#include "formats/torch_export/node_metadata.h"

namespace etviz::torch_export {
namespace {

const std::set<std::string, std::less<>> kMetadataEntries = {
    "ETRECORD_V0",       "debug_handle_map",
    "delegate_map",      "instruction_id_to_num_outs_map",
    "reference_outputs", "representative_inputs",
    "export_graph_id",   "et_dialect_graph_module"};
const char* kSiblingSuffixes[] = {"_state_dict", "_constants", "_example_inputs"};
// Metadata entries that are pickles, never read.
const char* kPickledEntries[] = {"reference_outputs", "representative_inputs",
                                 "et_dialect_graph_module"};

bool is_sibling(std::string_view name) {
  for (const char* s : kSiblingSuffixes)
    if (name.ends_with(s)) return true;
  return false;
}

// An entry's stage: its role from the name ETRecord gives it, its method from the
// "/<method>" suffix newer records add (older ones hold one graph, for forward).
Stage stage_of(const std::string& name) {
  Stage stage;
  if (name == "exported_program" || name.starts_with("exported_program/"))
    stage.role = StageRole::kExported;
  else if (name.starts_with("edge_dialect_exported_program"))
    stage.role = StageRole::kEdgeDialect;
  else if (name.starts_with("aten_dialect_output"))
    stage.role = StageRole::kAtenDialect;
  else
    stage.role = StageRole::kExtraModule;
  const auto slash = name.rfind('/');
  stage.method = slash == std::string::npos ? "forward" : name.substr(slash + 1);
  return stage;
}

// A JSON map entry; absent or unreadable entries leave a warning and an invalid tree.
std::optional<std::pair<std::string, JsonTree>> json_entry(Document& doc, ZipArchive& zip,
                                                           const char* name, std::string& storage) {
  const ZipEntry* e = zip.find(name);
  if (!e) return std::nullopt;
  auto text = zip.read(*e, 512u << 20);
  if (!text) {
    doc.warn(text.error().message());
    return std::nullopt;
  }
  storage = std::move(*text);
  auto tree = JsonTree::parse(storage);
  if (!tree) {
    doc.warn(fmt::format("{}: {}", name, tree.error().message()));
    return std::nullopt;
  }
  return std::make_pair(std::string(name), std::move(*tree));
}

std::vector<int64_t> int_list(JsonRef v) {
  std::vector<int64_t> out;
  if (v.is_array()) {
    for (JsonRef x : v)
      if (auto i = x.as_int()) out.push_back(*i);
  } else if (auto i = v.as_int()) {
    out.push_back(*i);
  } else if (v.is_string()) {
    out = parse_int_list(v.string_or(""));
  }
  return out;
}

// {method: {instruction id: handles}}; 2023 records may be flat {instruction id: handles}.
void read_debug_handle_map(Document& doc, JsonRef root, ETRecordMaps& maps) {
  if (!root.is_object()) {
    doc.warn("debug_handle_map: expected a JSON object");
    return;
  }
  for (JsonRef m : root) {
    if (m.is_object()) {
      auto& per = maps.debug_handles[m.key()];
      for (JsonRef i : m)
        if (auto id = parse_int_list(i.key()); id.size() == 1) per[id[0]] = int_list(i);
    } else if (auto id = parse_int_list(m.key()); id.size() == 1) {
      maps.debug_handles["forward"][id[0]] = int_list(m);
    }
  }
}

void read_delegate_map(Document& doc, JsonRef root, ETRecordMaps& maps) {
  if (!root.is_object()) {
    doc.warn("delegate_map: expected a JSON object");
    return;
  }
  for (JsonRef m : root) {
    auto& per = maps.delegates[m.key()];
    for (JsonRef i : m) {
      auto id = parse_int_list(i.key());
      if (id.size() != 1) continue;
      ETRecordMaps::DelegateEntry entry;
      entry.backend = i["name"].string_or("");
      for (JsonRef d : i["delegate_map"]) entry.debug_ids[d.key()] = int_list(d);
      per[id[0]] = std::move(entry);
    }
  }
}

void read_num_outs_map(Document& doc, JsonRef root, ETRecordMaps& maps) {
  if (!root.is_object()) {
    doc.warn("instruction_id_to_num_outs_map: expected a JSON object");
    return;
  }
  for (JsonRef m : root) {
    auto& per = maps.instruction_num_outs[m.key()];
    for (JsonRef i : m) {
      auto id = parse_int_list(i.key());
      if (id.size() == 1)
        per[id[0]] = i.as_int().value_or(int_list(i).empty() ? 0 : int_list(i).front());
    }
  }
}

// Marks edge-dialect nodes with the instructions and delegate debug ids that cover them.
void attach_maps(Document& doc, const ETRecordMaps& maps) {
  for (Graph& g : doc.graphs) {
    if (g.kind != GraphKind::kExportedProgram || g.stage.role != StageRole::kEdgeDialect) continue;
    const std::string& method = g.stage.method;
    std::map<int64_t, std::vector<NodeId>> by_handle;
    for (size_t n = 0; n < g.nodes.size(); ++n)
      for (int64_t h : g.nodes[n].provenance.debug_handles)
        by_handle[h].push_back(static_cast<NodeId>(n));
    if (by_handle.empty()) continue;
    if (auto it = maps.debug_handles.find(method); it != maps.debug_handles.end())
      for (const auto& [instr, handles] : it->second)
        for (int64_t h : handles)
          if (auto f = by_handle.find(h); f != by_handle.end())
            for (NodeId n : f->second)
              g.nodes[n].attributes.push_back({"instruction", std::to_string(instr)});
    if (auto it = maps.delegates.find(method); it != maps.delegates.end())
      for (const auto& [instr, entry] : it->second)
        for (const auto& [debug_id, handles] : entry.debug_ids)
          for (int64_t h : handles)
            if (auto f = by_handle.find(h); f != by_handle.end())
              for (NodeId n : f->second)
                g.nodes[n].attributes.push_back(
                    {"delegate", fmt::format("{} (instruction {}, delegate debug id {})",
                                             entry.backend, instr, debug_id)});
  }
}

}  // namespace

bool is_etrecord_payload(std::string_view name) {
  for (const char* p : kPickledEntries)
    if (name == p) return true;
  return is_sibling(name);
}

Result<Document> read_etrecord(std::shared_ptr<const MappedFile> file, ZipArchive& zip) {
  Document doc;
  doc.sources.push_back(file);
  doc.format = DocumentFormat::kETRecord;
  doc.format_version = "ETRECORD_V0";
  if (zip.prefix_bytes() > 0)
    doc.note(
        fmt::format("the zip central directory sits {} bytes later than it states: bytes were "
                    "prepended to or inserted into the archive",
                    zip.prefix_bytes()));

  ETRecordMaps maps;
  for (const ZipEntry& e : zip.entries()) {
    if (kMetadataEntries.count(e.name) || is_etrecord_payload(e.name) || e.name.ends_with("/"))
      continue;
    auto text = zip.read(e);
    if (!text) {
      // One unreadable stage does not hide the others.
      doc.warn(text.error().message());
      continue;
    }
    ExportedProgramOptions options;
    options.graph_name = e.name;
    options.stage = stage_of(e.name);
    auto index = read_exported_program(*text, doc, options);
    if (!index) {
      doc.warn(fmt::format("entry '{}' is not a readable exported program: {}", e.name,
                           index.error().message()));
      continue;
    }
    Graph& g = doc.graphs[static_cast<size_t>(*index)];
    std::string siblings;
    for (const char* s : kSiblingSuffixes)
      if (const ZipEntry* sib = zip.find(e.name + s))
        siblings +=
            fmt::format("{}{} ({} bytes)", siblings.empty() ? "" : ", ", e.name + s, sib->size);
    if (!siblings.empty()) g.attributes.push_back({"siblings", siblings});
  }

  std::string storage;
  if (auto t = json_entry(doc, zip, "debug_handle_map", storage))
    read_debug_handle_map(doc, t->second.root(), maps);
  if (auto t = json_entry(doc, zip, "delegate_map", storage))
    read_delegate_map(doc, t->second.root(), maps);
  if (auto t = json_entry(doc, zip, "instruction_id_to_num_outs_map", storage))
    read_num_outs_map(doc, t->second.root(), maps);
  if (auto t = json_entry(doc, zip, "export_graph_id", storage))
    maps.export_graph_id = t->second.root().as_int().value_or(-1);
  maps.has_representative_inputs = zip.find("representative_inputs") != nullptr;
  maps.has_reference_outputs = zip.find("reference_outputs") != nullptr;
  if (zip.find("et_dialect_graph_module"))
    doc.note("et_dialect_graph_module is present (pickled; not read)");
  doc.properties.push_back(
      {"programs",
       std::to_string(std::count_if(doc.graphs.begin(), doc.graphs.end(), [](const Graph& g) {
         return g.kind == GraphKind::kExportedProgram;
       }))});
  doc.properties.push_back(
      {"representative_inputs", maps.has_representative_inputs ? "present" : "absent"});
  doc.properties.push_back(
      {"reference_outputs", maps.has_reference_outputs ? "present" : "absent"});
  if (doc.graphs.empty())
    doc.note("this ETRecord is empty: it holds only the ETRECORD_V0 marker and no programs");
  attach_maps(doc, maps);
  maps.index_handles(doc.graphs);
  doc.etrecord = std::move(maps);
  describe_archive(zip, doc);
  return doc;
}

}  // namespace etviz::torch_export
