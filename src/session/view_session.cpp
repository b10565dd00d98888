#include "session/view_session.h"

#include <fmt/format.h>

#include <filesystem>

#include "analysis/diff.h"
#include "formats/side_files/categories_file.h"
#include "formats/side_files/groups_file.h"
#include "formats/side_files/node_data_file.h"

namespace etviz::session {

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

Result<View> resolve_view(std::vector<ViewFile> files, const view::Request& request,
                          Command command, void (*progress)(const std::string&)) {
  if (files.empty() || !files.front().doc) return Error("no document to show");
  View v;
  v.files = std::move(files);
  Document& doc = v.doc();
  if (!request.categories.empty()) {
    auto file = side_files::read_categories(request.categories);
    if (!file) return file.error();
    auto categories = analysis::category_config(*file);
    if (!categories) return categories.error().within(request.categories);
    v.categories = std::move(*categories);
  }
  if (!request.groups.empty()) {
    auto groups = side_files::read_groups(request.groups);
    if (!groups) return groups.error();
    v.options.partitions = std::move(*groups);
  }
  if (!request.graph.empty() || !doc.graphs.empty()) {
    auto graph = analysis::select_graph(doc, request.graph);
    if (!graph) return graph.error().within(v.files.front().file_name);
    v.graph = *graph;
  }

  if (auto s = check_profile_flags(request, command); !s) return s.error();
  if (const view::ProfileRequest& asked = request.profile; !asked.etdump.empty()) {
    ProfileSessionOptions load;
    static_cast<view::ProfileRequest&>(load) = asked;
    // A graph the user named is the one the profile ran (export's --method); else the
    // profile's own default, the program's default graph (analysis/profile_join.h).
    if (load.method.empty() && !request.graph.empty())
      load.method = doc.graphs[static_cast<size_t>(v.graph)].name;
    auto loaded = load_profile_overlay(load, asked.block, doc);
    if (!loaded) return loaded.error();
    v.profile = std::move(*loaded);
    for (const auto& w : v.profile->overlay.warnings) v.warnings.push_back(w);
    if (progress)
      progress(fmt::format("joined {} ({} event rows) with method '{}'", asked.etdump,
                           v.profile->session.stats.events.size(), v.profile->overlay.method));
  }
  if (auto s = check_numerics_flags(request); !s) return s.error();
  if (const view::NumericsRequest& asked = request.numerics; !asked.reference.empty()) {
    NumericsSessionOptions load;
    load.run = request.profile.etdump;
    load.debug_buffer = asked.debug_buffer;
    load.reference = asked.reference;
    load.reference_debug_buffer = asked.reference_debug_buffer;
    load.method = v.profile ? v.profile->overlay.method : request.profile.method;
    load.analysis.statistics = true;  // the panel shows both tensors and the differences
    if (!asked.threshold.empty()) {
      load.analysis.thresholds.clear();
      std::string_view rest = asked.threshold;
      while (!rest.empty()) {
        const auto comma = rest.find(',');
        auto t = analysis::parse_threshold(rest.substr(0, comma));
        if (!t) return t.error();
        load.analysis.thresholds.push_back(*t);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
      }
    }
    auto loaded = load_numerics_session(load, &doc);
    if (!loaded) return loaded.error();
    v.numerics = std::make_unique<NumericsSession>(std::move(*loaded));
    v.numerics_page.report = &v.numerics->report;
    v.numerics_page.run_label = std::filesystem::path(load.run).filename().string();
    v.numerics_page.reference_label = v.numerics->reference_label;
    for (const auto& w : v.numerics->warnings) v.warnings.push_back(w);
    if (progress)
      progress(
          fmt::format("numerics: {} rows compared, {} divergent", v.numerics->report.compared,
                      v.numerics->report.first_divergent
                          ? "first at row " + std::to_string(*v.numerics->report.first_divergent)
                          : "none"));
  }
  if (!request.node_data.empty()) {
    auto data = side_files::read_node_data(request.node_data);
    if (!data) return data.error();
    v.node_data = std::make_unique<analysis::NodeDataJoin>(analysis::join_node_data(*data, doc));
    for (const auto& w : v.node_data->warnings) v.warnings.push_back(w);
    if (progress)
      progress(fmt::format("node data: {} nodes have values", v.node_data->nodes.size()));
  }

  // A pass trace (or an ETRecord with stages asked for) is shown as steps over one layout.
  if (command == kViewCommand && (request.stages || doc.format == DocumentFormat::kTrace)) {
    if (v.files.size() > 1 || v.profile)
      return Error(
          "stepping through stages or passes shows one file without a profile; to compare files "
          "use `etviz diff A B -o page.html`");
    v.steps = analysis::pipeline_graphs(doc);
    if (request.stages && v.steps.size() < 2)
      return Error(fmt::format("{}: --stages found {} stage{} (graphs: {})",
                               v.files.front().file_name, v.steps.size(),
                               v.steps.size() == 1 ? "" : "s", doc.top_level_names()));
    if (v.steps.size() < 2) v.steps.clear();
  }
  return v;
}

Result<std::string> write_page(View& view, const PageSettings& settings,
                               render::html::PageStats* stats) {
  Document& doc = view.doc();
  render::html::PageOptions page;
  page.file_name = view.files.front().file_name;
  page.file_size = view.files.front().file_size;
  page.categories = view.categories;
  page.partitions = view.options.partitions;
  page.allow_compression = settings.compress;
  page.app = settings.app;
  page.column_bytes = settings.column_bytes;
  page.progress = settings.progress;
  if (view.profile) page.profile = &view.profile->overlay;
  page.node_data = view.node_data.get();
  if (view.numerics) page.numerics = &view.numerics_page;
  std::vector<render::html::PageFile> more;
  for (size_t k = 1; k < view.files.size(); ++k)
    more.push_back({view.files[k].doc, view.files[k].file_name, view.files[k].file_size});
  render::html::PageStats own_stats;
  if (!stats) stats = &own_stats;
  auto html = view.steps.size() >= 2
                  ? render::html::write_timeline_page(doc, view.steps, page, stats)
                  : render::html::write_html_page(doc, page, more, stats);
  if (!html) return html.error().within(page.file_name);
  for (const auto& w : stats->warnings) view.warnings.push_back(w);
  return html;
}

Result<std::string> render_page(const std::vector<ViewFile>& files, const view::Request& request,
                                const PageSettings& settings, std::vector<std::string>* warnings,
                                render::html::PageStats* stats) {
  auto view = resolve_view(files, request, kViewCommand, settings.progress);
  if (!view) return view.error();
  auto html = write_page(*view, settings, stats);
  if (warnings) warnings->insert(warnings->end(), view->warnings.begin(), view->warnings.end());
  return html;
}

}  // namespace etviz::session
