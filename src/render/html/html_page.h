#pragma once
// `etviz FILE -o model.html`: one self-contained page with the viewer, the graph data and the
// precomputed layout. No network access (Content-Security-Policy), every model string escaped.
#include <string>
#include <vector>

#include "analysis/categories.h"
#include "core/document.h"
#include "core/status.h"

namespace etviz::render::html {

struct ProfileOverlay;  // render/html/profile_data.h

struct PageOptions {
  std::string file_name;  // shown in the title and header
  uint64_t file_size = 0;
  analysis::CategoryConfig categories = analysis::default_category_config();
  bool allow_compression = true;  // gzip+base64 the data when it pays
  // Called with a short description before each slow step (layout of a large graph).
  void (*progress)(const std::string&) = nullptr;
  // A runtime profile to overlay (heat colours, timing panel, profile table), or null.
  const ProfileOverlay* profile = nullptr;
};

struct PageStats {
  size_t data_bytes = 0;      // JSON before compression
  size_t embedded_bytes = 0;  // what went into the page
  bool compressed = false;
  bool has_wasm = false;
  size_t graphs = 0;
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

// True when this binary carries the WebAssembly layout module (expand/collapse re-layout).
bool viewer_has_wasm_layout();

}  // namespace etviz::render::html
