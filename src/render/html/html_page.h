#pragma once
// `etviz FILE -o model.html`: one self-contained page with the viewer, the graph data and the
// precomputed layout. No network access (Content-Security-Policy), every model string escaped.
#include <map>
#include <string>
#include <vector>

#include "analysis/categories.h"
#include "core/document.h"
#include "core/status.h"

namespace etviz::view {
struct ProfileOverlay;  // view/profile_figures.h
}  // namespace etviz::view
namespace etviz::analysis {
struct Timeline;      // analysis/timeline.h
struct NodeDataJoin;  // analysis/node_data.h
}  // namespace etviz::analysis
namespace etviz::render::html {

struct NumericsPage;  // render/html/numerics_data.h

struct PageOptions {
  std::string file_name;  // shown in the title and header
  uint64_t file_size = 0;
  analysis::CategoryConfig categories = analysis::default_category_config();
  bool allow_compression = true;  // gzip+base64 the data when it pays
  // Called with a short description before each slow step (layout of a large graph).
  void (*progress)(const std::string&) = nullptr;
  // A runtime profile to overlay (heat colours, timing panel, profile table), or null.
  const view::ProfileOverlay* profile = nullptr;
  // Model Explorer node data joined with the document (`--node-data`), or null.
  const analysis::NodeDataJoin* node_data = nullptr;
  // Numerics of the profile's run against a reference (`--reference`), or null.
  const NumericsPage* numerics = nullptr;
  // The graphs the page shows (Document::graphs indices), in selector order; empty: every
  // root graph (Document::root_graphs).
  std::vector<int32_t> graphs;
  // Steps to show over one graph (a pass trace, ETRecord stages, a diff of files), or null:
  // `timeline_graph` is the Document graph holding timeline->merged (docs/viewer.md).
  const analysis::Timeline* timeline = nullptr;
  int32_t timeline_graph = -1;
  // User-supplied grouping (`--groups FILE.json`): node name -> partition name, as Model
  // Explorer's visualize_with_clusters takes it (ViewOptions::partitions).
  std::map<std::string, std::string> partitions;
  // An app page (`view --app`, docs/app.md): it carries the WebAssembly readers and opens
  // more files dropped on it. Needs viewer_has_wasm_app().
  bool app = false;
  // Where the app's WebAssembly build puts each file's column bytes when they are not
  // compressed (EncodedPageData::raw_columns): its worker hands them to the page as bytes
  // instead of base64 parts. Null: they go into the page as parts, whatever they are.
  std::vector<std::string>* column_bytes = nullptr;
};

struct PageStats {
  size_t data_bytes = 0;      // JSON before compression
  size_t embedded_bytes = 0;  // what went into the page
  bool compressed = false;
  bool has_wasm = false;
  size_t graphs = 0;
  // What the page left out to stay openable (an overlay over kMaxPageJsonText), for the user.
  std::vector<std::string> warnings;
};

Result<std::string> write_html_page(const Document& doc, const PageOptions& options,
                                    PageStats* stats = nullptr);

// One file among several in one page (`etviz A.pte B.pte -o page.html`): the page gets a
// file selector beside the graph selector. The first file is `doc`/`options` of
// write_html_page; the profile overlay applies to it.
struct PageFile {
  const Document* doc = nullptr;
  std::string file_name;
  uint64_t file_size = 0;
};
Result<std::string> write_html_page(const Document& doc, const PageOptions& options,
                                    const std::vector<PageFile>& more_files,
                                    PageStats* stats = nullptr);

// A page that steps through graphs of `doc` (pass snapshots, ETRecord stages, or graphs of
// several files absorbed into one document: Document::absorb_graph), in order: their union is
// laid out once (analysis/timeline.h) and appended to `doc` as one more graph, which is the
// graph the page shows; the timeline overlay shows each step over it.
Result<std::string> write_timeline_page(Document& doc, const std::vector<int32_t>& steps,
                                        PageOptions options, PageStats* stats = nullptr);

// True when this binary carries the WebAssembly layout module (expand/collapse re-layout).
bool viewer_has_wasm_layout();
// True when this binary carries the WebAssembly app module (readers in the page).
bool viewer_has_wasm_app();

// `etviz app`: the blank app page (docs/app.md), the viewer and the WebAssembly readers with
// no file; it opens files dropped on it or picked. An error when the build has no app module.
Result<std::string> write_app_page(const std::string& title);

}  // namespace etviz::render::html
