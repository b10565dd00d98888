#pragma once
// One call resolves what a shown output needs (view/request.h): the side files read (formats/
// side_files), the profile loaded and joined, the node data joined, the graph chosen. The page
// (`etviz view`, the app, Python's visualize) and pictures (`etviz export`) all start from a
// resolved View, so they agree on every default and message; then one writer serialises it
// (render/html for the page, render/export for pictures).
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "analysis/categories.h"
#include "analysis/node_data.h"
#include "core/document.h"
#include "render/html/html_page.h"
#include "render/html/numerics_data.h"
#include "session/numerics_session.h"
#include "session/page_options.h"
#include "session/profile_session.h"
#include "view/profile_figures.h"
#include "view/request.h"
#include "view/view_model.h"

namespace etviz::session {

// A document the caller opened (the CLI with its damage report, Python's handles, the app's
// paired files) and what the page header says of it.
struct ViewFile {
  Document* doc = nullptr;  // the first may gain a graph (the union of its stages)
  std::string file_name;
  uint64_t file_size = 0;
};

// A runtime profile (ETDump) with the view's overlay settings over it: `overlay.stats` points
// into `session`, so the two stay together.
struct ProfileOverlaySession {
  ProfileSession session;
  view::ProfileOverlay overlay;
};
Result<std::unique_ptr<ProfileOverlaySession>> load_profile_overlay(
    const ProfileSessionOptions& load, const std::string& block, const Document& doc);

// A request resolved for its files.
struct View {
  std::vector<ViewFile> files;  // at least one; side files and the profile apply to the first
  analysis::CategoryConfig categories = analysis::default_category_config();
  view::ViewOptions options;                          // with the --groups partitions
  std::unique_ptr<ProfileOverlaySession> profile;     // --etdump, else null
  std::unique_ptr<analysis::NodeDataJoin> node_data;  // --node-data, else null
  std::unique_ptr<NumericsSession> numerics;          // --reference, else null
  render::html::NumericsPage numerics_page;           // what the page shows of it
  // The first file's graph the output opens on or draws: Request::graph, else its
  // Document::default_graph(); -1 when it holds none.
  int32_t graph = -1;
  // The page steps through these graphs of the first file (--stages, a pass trace), or none.
  std::vector<int32_t> steps;
  std::vector<std::string> warnings;  // the profile's and node data's, for the user
  Document& doc() const { return *files.front().doc; }
};

// An error names the option or file that is wrong; `command` words the profile-flag check
// (session/page_options.h). `progress` (may be null) hears each slow step.
Result<View> resolve_view(std::vector<ViewFile> files, const view::Request& request,
                          Command command, void (*progress)(const std::string&) = nullptr);

// How a page is written, beside what it shows.
struct PageSettings {
  bool compress = true;
  bool app = false;  // an app page: carries the WebAssembly readers (docs/app.md)
  // The app's worker: each file's uncompressed column bytes (PageOptions::column_bytes).
  std::vector<std::string>* column_bytes = nullptr;
  void (*progress)(const std::string&) = nullptr;
};

// The page of a resolved view; the page writer's warnings join view.warnings.
Result<std::string> write_page(View& view, const PageSettings& settings,
                               render::html::PageStats* stats = nullptr);

// resolve_view and write_page, as `etviz view` and Python's visualize make a page: what the
// user should see goes to `warnings` (may be null), also when the page fails.
Result<std::string> render_page(const std::vector<ViewFile>& files, const view::Request& request,
                                const PageSettings& settings,
                                std::vector<std::string>* warnings = nullptr,
                                render::html::PageStats* stats = nullptr);

}  // namespace etviz::session
