// The app's WebAssembly entry points (docs/app.md). The page's worker (web/src/app_worker.js,
// through app_api.js) writes dropped files into Emscripten's in-memory file system, inflates
// the zip members etviz_app_zip_plan() lists with the browser's DecompressionStream and hands
// them back, then asks for the page data etviz_app_open() writes: the same session code the
// CLI runs (session/companions.h), so the page shows what `etviz FILES -o page.html` shows.
#include <emscripten.h>
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "analysis/summary.h"
#include "core/mapped_file.h"
#include "formats/open_document.h"
#include "formats/torch_export/archive_reader.h"
#include "render/summary_report.h"
#include "session/companions.h"
#include "session/page_options.h"
#include "session/profile_session.h"
#include "wasm/partial_plan.h"

// Progress lines go to the worker, which posts them to the page.
EM_JS(void, etviz_app_report_progress, (const char* text), {
  if (Module['onProgress']) Module['onProgress'](UTF8ToString(text));
});

namespace {

std::string g_result;  // what the last call produced, read by app_api.js
// The last page's column bytes, one per file (etviz_app_open), read by app_api.js.
std::vector<std::string> g_columns;
// The large file being read in part (etviz_app_partial_*).
std::unique_ptr<etviz::wasm::PartialPlan> g_plan;

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

EMSCRIPTEN_KEEPALIVE size_t etviz_app_columns_count() {
  return g_columns.size();
}

EMSCRIPTEN_KEEPALIVE const char* etviz_app_columns_data(size_t k) {
  return g_columns[k].data();
}

EMSCRIPTEN_KEEPALIVE size_t etviz_app_columns_size(size_t k) {
  return g_columns[k].size();
}

// The deflated members of the zip at `path` the readers may ask for, as JSON
// [{"name", "offset", "compressed", "size"}] (offset: where its deflate stream starts in the
// file); [] for any other file. Members the archive would refuse (zip bombs) are left out: the
// reader then reports them as ZipArchive::read does natively; so are those the readers never
// read (weights, constants, pickles: torch_export::is_payload_member).
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
            e.size > ratio_bound || total + e.size > total_bound ||
            etviz::torch_export::is_payload_member(**zip, e.name))
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

// A large file read in part (docs/app.md, wasm/partial_plan.h): the worker begins with memory
// the size of the file, says which ranges of it it has read, and asks what to read next:
// {"need": [[offset, size], ...]} (read those, say so, ask again), {"done": true} (register
// the memory as the file) or {"error": ...} (not a kind read in part, or malformed: the worker
// reads the file whole and the reader says what is wrong).
// Whether a file of this head and tail is read in part (before memory is set aside for it);
// etviz_app_partial_tail_bytes() says how much of its end to pass.
EMSCRIPTEN_KEEPALIVE int etviz_app_partial_kind(const uint8_t* head, double head_size,
                                                const uint8_t* tail, double tail_size) {
  return etviz::wasm::PartialPlan::reads_in_part(
      std::span<const uint8_t>(head, static_cast<size_t>(head_size)),
      std::span<const uint8_t>(tail, static_cast<size_t>(tail_size)));
}

EMSCRIPTEN_KEEPALIVE double etviz_app_partial_tail_bytes() {
  return static_cast<double>(etviz::wasm::PartialPlan::kTailBytes);
}

EMSCRIPTEN_KEEPALIVE void etviz_app_partial_begin(const uint8_t* file, double file_size) {
  g_plan = std::make_unique<etviz::wasm::PartialPlan>(
      std::span<const uint8_t>(file, static_cast<size_t>(file_size)));
}

EMSCRIPTEN_KEEPALIVE void etviz_app_partial_loaded(double offset, double size) {
  if (g_plan) g_plan->loaded(static_cast<uint64_t>(offset), static_cast<uint64_t>(size));
}

EMSCRIPTEN_KEEPALIVE int etviz_app_partial_next() {
  nlohmann::json out;
  const auto step = g_plan ? g_plan->next() : etviz::wasm::PartialStep{{}, false, "no plan"};
  if (!step.error.empty()) {
    out["error"] = step.error;
  } else if (step.done) {
    out["done"] = true;
    g_plan.reset();
  } else {
    out["need"] = nlohmann::json::array();
    for (const auto& r : step.need) out["need"].push_back({r.offset, r.size});
  }
  g_result = out.dump();
  return 0;
}

// Memory for a whole large file, outside malloc's heap: this Emscripten's malloc hands out
// less than 2 GiB at once, so the break is moved in steps under 1 GiB. Untouched pages cost
// nothing; the memory is never given back (the worker starts a fresh module after using it).
// Null when the module cannot grow that far.
EMSCRIPTEN_KEEPALIVE uint8_t* etviz_app_reserve(double size) {
  uint64_t left = static_cast<uint64_t>(size);
  uint8_t* start = nullptr;
  uint8_t* next = nullptr;
  while (left > 0) {
    const uint64_t step = std::min<uint64_t>(left, 1u << 30);
    void* p = sbrk(static_cast<intptr_t>(step));
    if (p == reinterpret_cast<void*>(-1) || (next && p != next)) return nullptr;
    if (!start) start = static_cast<uint8_t*>(p);
    next = static_cast<uint8_t*>(p) + step;
    left -= step;
  }
  return start;
}

// A program read in part: the `size` bytes at `data` (from etviz_app_reserve, the file's
// size) become the file at `path` for the readers.
EMSCRIPTEN_KEEPALIVE void etviz_app_register_memory_file(const char* path, uint8_t* data,
                                                         double size) {
  etviz::register_memory_file(
      path, etviz::MappedFile::over_memory(
                path, std::span<const uint8_t>(data, static_cast<size_t>(size)), nullptr));
}

EMSCRIPTEN_KEEPALIVE void etviz_app_unregister_memory_file(const char* path) {
  etviz::unregister_memory_file(path);
}

// Forgets the members handed in and the last page's columns (the worker removes the files too).
EMSCRIPTEN_KEEPALIVE void etviz_app_forget() {
  etviz::torch_export::clear_inflated_members();
  g_columns.clear();
}

// The page options the app offers (session/page_options.h: those of `etviz view` with one
// value), as JSON [{"flag", "help", "kind": "flag" | "text" | "file"}]: the page lists the
// flags and texts; files come from the files dropped together.
EMSCRIPTEN_KEEPALIVE int etviz_app_page_options() {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& o : etviz::session::page_options()) {
    if (!o.takes(etviz::session::kViewCommand) || !o.single()) continue;
    out.push_back({{"flag", o.flag},
                   {"help", o.help},
                   {"kind", o.set    ? "flag"
                            : o.file ? "file"
                                     : "text"}});
  }
  g_result = out.dump();
  return 0;
}

// Opens the newline-separated paths as one page, with the page options `options` (JSON
// [[flag, value], ...], as the CLI would take them: session::apply_page_option). 0: the result is
// one line of JSON
// {"notes": [...], "warnings": [...]} (how files were paired, what the readers noticed), a
// newline, then the page's HTML (its data elements are what the viewer reads), and each
// file's column bytes are in etviz_app_columns_*: the page takes them as bytes, not as text
// it would parse (numbers as JSON text cost this module twice what the rest of the page
// data costs). 1: the result is the error, naming the file.
EMSCRIPTEN_KEEPALIVE int etviz_app_open(const char* paths, const char* options) {
  etviz::view::Request request;
  const auto chosen = nlohmann::json::parse(options ? options : "", nullptr, false);
  if (chosen.is_array())
    for (const auto& o : chosen) {
      if (!o.is_array() || o.size() != 2 || !o[0].is_string() || !o[1].is_string()) continue;
      if (auto s = etviz::session::apply_page_option(request, o[0].get<std::string>(),
                                                     o[1].get<std::string>());
          !s)
        return fail(s.error());
    }
  g_columns.clear();
  etviz::session::PageSettings settings;
  settings.column_bytes = &g_columns;  // no zlib here: the columns as they are
  settings.progress = &progress;
  auto page = etviz::session::page_from_files(lines(paths), request, settings);
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
  auto profile = etviz::session::profile_info(path, true);
  if (!profile) return fail(profile.error());
  if (*profile) {
    g_result = **profile;
    return 0;
  }
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
