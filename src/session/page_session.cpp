#include "session/page_session.h"

#include <fmt/format.h>

#include <filesystem>
#include <nlohmann/json.hpp>

#include "analysis/categories.h"
#include "analysis/diff.h"
#include "analysis/node_data.h"
#include "core/mapped_file.h"
#include "formats/model_explorer/node_data_reader.h"
#include "session/profile_session.h"

namespace etviz::session {

Result<std::map<std::string, std::string>> parse_partitions(std::span<const uint8_t> bytes,
                                                            const std::string& path) {
  const auto j = nlohmann::json::parse(bytes.begin(), bytes.end(), nullptr, false);
  if (j.is_discarded() || !j.is_object())
    return Error(path + ": --groups expects a JSON object {\"node name\": \"group name\", ...}");
  std::map<std::string, std::string> out;
  for (const auto& [node, group] : j.items()) {
    if (!group.is_string())
      return Error(fmt::format("{}: the group of '{}' is not a string", path, node));
    out[node] = group.get<std::string>();
  }
  return out;
}

Result<std::map<std::string, std::string>> load_partitions(const std::string& path) {
  auto file = MappedFile::open(path);
  if (!file) return Error(file.error().message() + " (--groups)");
  if ((*file)->size() > kMaxGroupsFileBytes)
    return Error(
        fmt::format("{}: groups file is {} bytes; the limit is 64 MiB", path, (*file)->size()));
  return parse_partitions((*file)->bytes(), path);
}

Result<std::unique_ptr<ProfileOverlaySession>> load_profile_overlay(
    const ProfileSessionOptions& load, const std::string& block, const Document& doc) {
  auto s = load_profile_session(load, &doc);
  if (!s) return s.error();
  auto chosen = s->choose_block(block);
  if (!chosen) return chosen.error().within(load.etdump);
  auto p = std::make_unique<ProfileOverlaySession>();
  p->session = std::move(*s);
  p->overlay.warnings = p->session.warnings;
  p->overlay.method = p->session.join ? p->session.join->method : "";
  p->overlay.file_name = std::filesystem::path(load.etdump).filename().string();
  p->overlay.scale = p->session.scale;
  p->overlay.block = *chosen;
  p->overlay.stats = &p->session.stats;
  return p;
}

Result<std::string> render_page(const std::vector<PageInput>& files, PageRequest& request,
                                render::html::PageStats* stats) {
  if (files.empty() || !files.front().doc) return Error("no document to show");
  Document& doc = *files.front().doc;
  render::html::PageOptions page;
  if (!request.categories.empty()) {
    auto cats = analysis::load_category_config(request.categories);
    if (!cats) return cats.error();
    page.categories = std::move(*cats);
  }
  if (!request.groups.empty()) {
    auto partitions = load_partitions(request.groups);
    if (!partitions) return partitions.error();
    page.partitions = std::move(*partitions);
  }
  page.file_name = files.front().file_name;
  page.file_size = files.front().file_size;
  page.allow_compression = request.compress;
  page.app = request.app;
  page.column_bytes = request.column_bytes;
  page.progress = request.progress;

  std::unique_ptr<ProfileOverlaySession> profile;
  if (request.etdump.empty() &&
      (!request.etrecord.empty() || !request.source_unit.empty() || !request.unit.empty() ||
       !request.block.empty() || !request.method.empty()))
    return Error(
        "--etrecord, --method, --source-unit, --unit and --block describe a profile: they need "
        "--etdump RUN.etdp");
  if (!request.etdump.empty()) {
    ProfileSessionOptions load;
    load.etdump = request.etdump;
    load.etrecord = request.etrecord;
    load.method = request.method;
    load.source_unit = request.source_unit;
    load.unit = request.unit;
    auto loaded = load_profile_overlay(load, request.block, doc);
    if (!loaded) return loaded.error();
    profile = std::move(*loaded);
    for (const auto& w : profile->overlay.warnings) request.warnings.push_back(w);
    if (request.progress)
      request.progress(fmt::format("joined {} ({} event rows) with method '{}'", request.etdump,
                                   profile->session.stats.events.size(), profile->overlay.method));
    page.profile = &profile->overlay;
  }
  analysis::NodeDataJoin node_data;
  if (!request.node_data.empty()) {
    auto data = model_explorer::read_node_data(request.node_data);
    if (!data) return data.error();
    node_data = analysis::join_node_data(*data, doc);
    for (const auto& w : node_data.warnings) request.warnings.push_back(w);
    if (request.progress)
      request.progress(fmt::format("node data: {} nodes have values", node_data.nodes.size()));
    page.node_data = &node_data;
  }
  std::vector<render::html::PageFile> more;
  for (size_t k = 1; k < files.size(); ++k)
    more.push_back({files[k].doc, files[k].file_name, files[k].file_size});
  // A pass trace (or an ETRecord with stages asked for) is shown as steps over one layout.
  const bool steps = request.stages || doc.format == DocumentFormat::kTrace;
  if (steps && (!more.empty() || page.profile))
    return Error(
        "stepping through stages or passes shows one file without a profile; to compare files "
        "use `etviz diff A B -o page.html`");
  const std::vector<int32_t> stage_graphs =
      steps ? analysis::pipeline_graphs(doc) : std::vector<int32_t>{};
  if (request.stages && stage_graphs.size() < 2)
    return Error(fmt::format("{}: --stages found {} stage{} (graphs: {})", page.file_name,
                             stage_graphs.size(), stage_graphs.size() == 1 ? "" : "s",
                             doc.top_level_names()));
  render::html::PageStats own_stats;
  if (!stats) stats = &own_stats;
  auto html = steps && stage_graphs.size() >= 2
                  ? render::html::write_timeline_page(doc, stage_graphs, page, stats)
                  : render::html::write_html_page(doc, page, more, stats);
  if (!html) return html.error().within(page.file_name);
  for (const auto& w : stats->warnings) request.warnings.push_back(w);
  return html;
}

}  // namespace etviz::session
