// The app's WebAssembly entry points (docs/app.md). The page's worker (web/src/app_worker.js,
// through app_api.js) writes dropped files into Emscripten's in-memory file system, inflates
// the zip members etviz_app_zip_plan() lists with the browser's DecompressionStream and hands
// them back, then asks for the page data etviz_app_open() writes: the same session code the
// CLI runs (session/companions.h), so the page shows what `etviz FILES -o page.html` shows.
#include <emscripten.h>
#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/summary.h"
#include "core/mapped_file.h"
#include "formats/open_document.h"
#include "formats/torch_export/zip_archive.h"
#include "render/summary_report.h"
#include "session/companions.h"

// Progress lines go to the worker, which posts them to the page.
EM_JS(void, etviz_app_report_progress, (const char* text), {
  if (Module['onProgress']) Module['onProgress'](UTF8ToString(text));
});

namespace {

std::string g_result;  // what the last call produced, read by app_api.js

void progress(const std::string& text) {
  etviz_app_report_progress(text.c_str());
}

std::vector<std::string> lines(const char* text) {
  std::vector<std::string> out;
  std::istringstream in(text ? text : "");
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) out.push_back(line);
  return out;
}

int fail(const etviz::Error& error) {
  g_result = error.message();
  return 1;
}

}  // namespace

extern "C" {

EMSCRIPTEN_KEEPALIVE const char* etviz_app_result_data() {
  return g_result.data();
}

EMSCRIPTEN_KEEPALIVE size_t etviz_app_result_size() {
  return g_result.size();
}

// The deflated members of the zip at `path` the readers may ask for, as JSON
// [{"name", "offset", "compressed", "size"}] (offset: where its deflate stream starts in the
// file); [] for any other file. Members the archive would refuse (zip bombs) are left out: the
// reader then reports them as ZipArchive::read does natively.
EMSCRIPTEN_KEEPALIVE int etviz_app_zip_plan(const char* path) {
  using etviz::torch_export::ZipArchive;
  nlohmann::json plan = nlohmann::json::array();
  auto file = etviz::MappedFile::open(path);
  if (file && etviz::sniff_file_kind((*file)->bytes()) == etviz::FileKind::kZip) {
    auto zip = ZipArchive::open((*file)->bytes(), path);
    uint64_t total = 0;
    const uint64_t total_bound = (*file)->size() * ZipArchive::kMaxCompressionRatio + (64u << 20);
    if (zip) {
      for (const auto& e : (*zip)->entries()) {
        const uint64_t ratio_bound =
            std::max<uint64_t>(e.compressed_size, 1) * ZipArchive::kMaxCompressionRatio +
            (1u << 16);
        if (e.method != 8 || e.data_offset < 0 || e.size > ZipArchive::kDefaultMaxEntryBytes ||
            e.size > ratio_bound || total + e.size > total_bound)
          continue;
        total += e.size;
        plan.push_back({{"name", e.name},
                        {"offset", e.data_offset},
                        {"compressed", e.compressed_size},
                        {"size", e.size}});
      }
    }
  }
  g_result = plan.dump();
  return 0;
}

// A member the page inflated (or `error`, non-empty, when its stream was corrupt).
EMSCRIPTEN_KEEPALIVE void etviz_app_provide_member(const char* path, const char* name,
                                                   const uint8_t* data, size_t size,
                                                   const char* error) {
  etviz::torch_export::provide_inflated_member(
      path, name, std::string(reinterpret_cast<const char*>(data), size), error ? error : "");
}

// Forgets the members handed in (the worker removes the files too).
EMSCRIPTEN_KEEPALIVE void etviz_app_forget() {
  etviz::torch_export::clear_inflated_members();
}

// Opens the newline-separated paths as one page. 0: the result is one line of JSON
// {"notes": [...], "warnings": [...]} (how files were paired, what the readers noticed), a
// newline, then the page's HTML (its data elements are what the viewer reads). 1: the result
// is the error, naming the file.
EMSCRIPTEN_KEEPALIVE int etviz_app_open(const char* paths) {
  etviz::session::PageRequest request;
  request.compress = false;  // no zlib here; the JSON goes to the page in memory anyway
  request.progress = &progress;
  auto page = etviz::session::page_from_files(lines(paths), request);
  if (!page) return fail(page.error());
  const nlohmann::json meta = {
      {"notes", page->roles.notes}, {"warnings", page->warnings}, {"shown", page->roles.shown}};
  g_result = meta.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  g_result += '\n';
  g_result += page->html;
  return 0;
}

// `etviz info --json PATH [--data D...]`, the document the native-vs-WebAssembly test compares.
EMSCRIPTEN_KEEPALIVE int etviz_app_info(const char* path, const char* data_paths) {
  etviz::OpenOptions open;
  open.data_files = lines(data_paths);
  auto doc = etviz::open_document(path, open);
  if (!doc) return fail(doc.error());
  auto summary = etviz::analysis::summarize(*doc, "");
  if (!summary) return fail(summary.error().within(path));
  g_result = etviz::render::summary_json(*summary);
  return 0;
}

}  // extern "C"
