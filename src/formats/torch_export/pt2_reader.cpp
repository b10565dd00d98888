// .pt2 archives: torch.export.save / torch._inductor package output.
//
// 2024 layout (schema 1.x-7.x): [top/]serialized_exported_program.json, serialized_state_dict,
// serialized_constants, serialized_example_inputs, version.
// Newer layout (archive_version 0): [top/]archive_format ("pt2"), archive_version, byteorder,
// .data/version, models/<name>.json (one ExportedProgram per model, several per archive),
// data/weights/<name>_weights_config.json (fqn -> path_name, tensor_meta) with the weight files
// beside it, data/constants/..., data/sample_inputs/<name>.pt.
#include <fmt/format.h>

#include "formats/json/json_tree.h"
#include "formats/torch_export/archive_reader.h"
#include "formats/torch_export/exported_program_reader.h"

namespace etviz::torch_export {
namespace {

// The 2024 layout's payloads beside serialized_exported_program.json (pickles), listed with
// their sizes, never read.
constexpr const char* kPayloadSiblings[] = {
    "serialized_state_dict.json", "serialized_state_dict.pt", "serialized_constants.json",
    "serialized_constants.pt", "serialized_example_inputs.pt"};

std::string trim_text(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  return s;
}

// Small text entries (version, byteorder): read when present and short.
std::string small_text(ZipArchive& zip, const std::string& name) {
  const ZipEntry* e = zip.find(name);
  if (!e || e->size > 256) return {};
  auto r = zip.read(*e, 256);
  return r ? trim_text(std::move(*r)) : std::string();
}

// Weights and constants configs: fqn -> {path_name, is_param, use_pickle, tensor_meta}.
void read_payload_config(Document& doc, ZipArchive& zip, const std::string& dir,
                         const std::string& config_name, const std::string& kind) {
  const ZipEntry* e = zip.find(dir + config_name);
  if (!e) return;
  auto text = zip.read(*e, 256u << 20);
  if (!text) {
    doc.warn(text.error().message());
    return;
  }
  auto tree = JsonTree::parse(*text);
  if (!tree) {
    doc.warn(fmt::format("{}: {}", e->name, tree.error().message()));
    return;
  }
  JsonRef config = tree->root()["config"];
  if (!config.is_object()) {
    doc.warn(fmt::format("{}: expected an object with a 'config' member", e->name));
    return;
  }
  for (JsonRef item : config) {
    NamedBlob blob;
    blob.key = item.key();
    const std::string path_name = item["path_name"].string_or("");
    if (const ZipEntry* data = zip.find(dir + path_name)) {
      blob.blob.size = data->size;
      if (data->stored_data_offset >= 0) {
        blob.blob.source = 0;
        blob.blob.offset = static_cast<uint64_t>(data->stored_data_offset);
      }
    }
    JsonRef meta = item["tensor_meta"];
    if (meta.is_object()) {
      TensorInfo t;
      t.dtype = export_scalar_type_name(meta["dtype"].as_int().value_or(0));
      for (JsonRef s : meta["sizes"]) {
        Dim d;
        if (auto v = s["as_int"].as_int())
          d.size = *v;
        else
          d.symbol = s["as_expr"]["expr_str"].string_or("?");
        t.shape.push_back(std::move(d));
      }
      t.requires_grad = meta["requires_grad"].as_bool().value_or(false);
      t.data_location = DataLocation::kNamedData;
      t.data_key = blob.key;
      if (auto b = t.byte_size()) t.nbytes = *b;
      blob.tensor = std::move(t);
    }
    if (item["use_pickle"].as_bool().value_or(false))
      doc.note(fmt::format("{} '{}' is pickled ({}); its layout is not shown", kind, blob.key,
                           path_name));
    doc.named_data.push_back(std::move(blob));
  }
}

Status read_program_entry(Document& doc, ZipArchive& zip, const ZipEntry& entry,
                          const std::string& name) {
  auto text = zip.read(entry);
  if (!text) return text.error();
  ExportedProgramOptions options;
  options.graph_name = name;
  // A 2025 archive names each model (models/<name>.json); the 2024 layout holds one program.
  options.stage = Stage{StageRole::kExported, name == "exported_program" ? "forward" : name};
  auto r = read_exported_program(*text, doc, options);
  if (!r) return r.error().within(zip.entries().empty() ? entry.name : entry.name);
  return Status::Ok();
}

}  // namespace

bool is_pt2_payload(std::string_view name) {
  const auto slash = name.rfind('/');
  const std::string_view base = slash == std::string_view::npos ? name : name.substr(slash + 1);
  for (const char* s : kPayloadSiblings)
    if (base == s) return true;
  // The newer layout's data/ folder: weights, constants and sample inputs beside the JSON
  // configs that describe them (read), and compiled code.
  const bool in_data = name.starts_with("data/") || name.find("/data/") != std::string_view::npos;
  return in_data && !name.ends_with(".json");
}

Result<Document> read_pt2(std::shared_ptr<const MappedFile> file, ZipArchive& zip) {
  Document doc;
  doc.sources.push_back(file);
  doc.format = DocumentFormat::kPt2;

  // Archive root: the folder holding archive_format or serialized_exported_program.json.
  std::string root;
  bool new_layout = false;
  for (const ZipEntry& e : zip.entries()) {
    if (e.name == "archive_format" || e.name.ends_with("/archive_format")) {
      root = e.name.substr(0, e.name.size() - std::string_view("archive_format").size());
      new_layout = true;
      break;
    }
    if (e.name.ends_with("serialized_exported_program.json"))
      root = e.name.substr(
          0, e.name.size() - std::string_view("serialized_exported_program.json").size());
  }
  // archive_format comes last in PyTorch's writer: an archive cut off after its models has
  // lost it, and its root is the folder holding models/<name>.json.
  if (!new_layout && root.empty())
    for (const ZipEntry& e : zip.entries()) {
      const size_t at = e.name.rfind("models/");
      if (at == std::string::npos || (at > 0 && e.name[at - 1] != '/') ||
          !e.name.ends_with(".json") || e.name.find('/', at + 7) != std::string::npos)
        continue;
      root = e.name.substr(0, at);
      new_layout = true;
      break;
    }
  if (zip.prefix_bytes() > 0)
    doc.note(
        fmt::format("the zip central directory sits {} bytes later than it states: bytes were "
                    "prepended to or inserted into the archive",
                    zip.prefix_bytes()));

  std::vector<std::string> schema_versions;
  if (new_layout) {
    const std::string format = small_text(zip, root + "archive_format");
    const std::string version = small_text(zip, root + "archive_version");
    doc.properties.push_back({"archive_format", format});
    if (!version.empty()) doc.properties.push_back({"archive_version", version});
    if (auto b = small_text(zip, root + "byteorder"); !b.empty())
      doc.properties.push_back({"byteorder", b});
    if (auto v = small_text(zip, root + ".data/version"); !v.empty())
      doc.properties.push_back({"data_version", v});
    if (!root.empty()) doc.properties.push_back({"archive_root", root.substr(0, root.size() - 1)});
    const std::string models_dir = root + "models/";
    for (const ZipEntry& e : zip.entries()) {
      if (!e.name.starts_with(models_dir) || !e.name.ends_with(".json")) continue;
      const std::string model =
          e.name.substr(models_dir.size(), e.name.size() - models_dir.size() - 5);
      if (model.find('/') != std::string::npos) continue;
      if (auto s = read_program_entry(doc, zip, e, model); !s) return s.error();
      read_payload_config(doc, zip, root + "data/weights/", model + "_weights_config.json",
                          "weight");
      read_payload_config(doc, zip, root + "data/constants/", model + "_constants_config.json",
                          "constant");
      if (zip.find(root + "data/sample_inputs/" + model + ".pt"))
        doc.properties.push_back({"sample_inputs." + model, "present (pickled)"});
    }
    doc.format_version = fmt::format("{} archive v{}", format.empty() ? "pt2" : format,
                                     version.empty() ? "?" : version);
  } else {
    const ZipEntry* ep = zip.find(root + "serialized_exported_program.json");
    if (!ep)
      return Error(file->path() +
                   ": .pt2 archive without serialized_exported_program.json or models/");
    if (auto s = read_program_entry(doc, zip, *ep, "exported_program"); !s) return s.error();
    if (auto v = small_text(zip, root + "version"); !v.empty())
      doc.properties.push_back({"version", v});
    for (const char* sibling : kPayloadSiblings)
      if (const ZipEntry* e = zip.find(root + sibling))
        doc.properties.push_back({sibling, fmt::format("{} bytes (not read)", e->size)});
    doc.format_version = "pt2 archive (2024 layout)";
  }
  if (doc.graphs.empty()) doc.warn("the archive holds no exported program");
  for (const Graph& g : doc.graphs) {
    if (g.kind != GraphKind::kExportedProgram) continue;
    for (const Attribute& a : g.attributes)
      if (a.name == "schema_version") schema_versions.push_back(a.value);
  }
  if (!schema_versions.empty()) doc.format_version += ", schema " + schema_versions.front();
  describe_archive(zip, doc);
  return doc;
}

}  // namespace etviz::torch_export
