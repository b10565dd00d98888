#include "render/html/html_page.h"

#include <fmt/format.h>

#include <array>
#include <random>

#include "analysis/timeline.h"
#include "core/text.h"
#include "render/html/memory_data.h"
#include "render/html/node_data.h"
#include "render/html/numerics_data.h"
#include "render/html/page_data.h"
#include "render/html/profile_data.h"
#include "render/html/timeline_data.h"
#include "render/html/viewer_assets.h"
#include "view/view_model.h"

namespace etviz::render::html {
namespace {

std::string base64(std::string_view in) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((in.size() + 2) / 3 * 4);
  size_t i = 0;
  for (; i + 2 < in.size(); i += 3) {
    const uint32_t v = (uint8_t(in[i]) << 16) | (uint8_t(in[i + 1]) << 8) | uint8_t(in[i + 2]);
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += kAlphabet[(v >> 6) & 63];
    out += kAlphabet[v & 63];
  }
  if (i < in.size()) {
    uint32_t v = uint8_t(in[i]) << 16;
    if (i + 1 < in.size()) v |= uint8_t(in[i + 1]) << 8;
    out += kAlphabet[v >> 18];
    out += kAlphabet[(v >> 12) & 63];
    out += i + 1 < in.size() ? kAlphabet[(v >> 6) & 63] : '=';
    out += '=';
  }
  return out;
}

// A script's text must not close its element early; "</script" cannot occur in valid JS
// outside strings, regexes and comments, where "<\/script" means the same.
std::string script_safe(std::string_view js) {
  std::string out(js);
  for (size_t p = 0; (p = out.find("</", p)) != std::string::npos; p += 2) {
    std::string next = out.substr(p + 2, 6);
    for (auto& ch : next) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    if (next == "script") out.replace(p, 2, "<\\/");
  }
  return out;
}

std::string make_nonce() {
  std::random_device rd;
  std::string raw;
  for (int i = 0; i < 16; ++i) raw += static_cast<char>(rd() & 0xFF);
  return base64(raw);
}

}  // namespace

bool viewer_has_wasm_layout() {
  return !assets::kLayoutWasmJs.empty();
}

bool viewer_has_wasm_app() {
  return !assets::kAppModuleJs.empty();
}

namespace {

// One file's views and its encoded page data.
struct EncodedFile {
  std::vector<ViewModel> views;
  EncodedPageData data;
};

Result<EncodedFile> encode_file(const Document& doc, const PageSource& source,
                                const PageOptions& options, const std::vector<int32_t>& graphs) {
  EncodedFile f;
  for (int32_t g : graphs.empty() ? doc.root_graphs() : graphs) {
    if (options.progress && doc.graphs[g].nodes.size() > 2000)
      options.progress(
          fmt::format("laying out {} ({} nodes)", doc.graphs[g].name, doc.graphs[g].nodes.size()));
    if (auto fits = view::view_within_budget(doc, g); !fits) return fits.error();
    view::ViewOptions shown;
    shown.partitions = options.partitions;
    f.views.push_back(view::build_view_model(doc, g, options.categories, shown));
  }
  if (options.progress) options.progress("encoding the page data");
  auto data = encode_page_data(doc, source, options.categories, f.views, options.allow_compression,
                               ViewLayouts::kRelease);
  if (!data) return data.error();
  f.data = std::move(*data);
  return f;
}

// Everything before the page's data elements: the policy, the styles and the viewer's markup.
// An app page (docs/app.md) may also start a worker from a blob: URL (the readers run off the
// main thread); no page may fetch anything ('wasm-unsafe-eval' lets it compile its embedded
// WebAssembly without allowing eval).
std::string page_head(const std::string& title, const std::string& nonce, bool app,
                      size_t reserve) {
  const std::string csp = fmt::format(
      "default-src 'none'; script-src 'nonce-{0}' 'wasm-unsafe-eval'; style-src 'nonce-{0}'; "
      "img-src data: blob:; font-src 'none'; connect-src 'none'; worker-src {1}; "
      "frame-src 'none'; object-src 'none'; base-uri 'none'; form-action 'none'",
      nonce, app ? "blob:" : "'none'");
  std::string page;
  page.reserve(reserve + assets::kViewerJs.size() + assets::kLayoutWasmJs.size() +
               assets::kLayoutWasm.size() +
               (app ? assets::kAppModuleJs.size() + assets::kAppModuleWasm.size() : 0) + 65536);
  page += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  page += "<meta http-equiv=\"Content-Security-Policy\" content=\"" + csp + "\">\n";
  page += "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n";
  page += "<meta name=\"generator\" content=\"etviz\">\n";
  page += "<title>" + markup_escape(title) + " — etviz</title>\n";
  page += "<style nonce=\"" + nonce + "\">\n";
  page += assets::kViewerCss;
  page += "\n</style>\n</head>\n<body>\n";
  page += assets::kViewerBody;
  return page;
}

// The scripts after the data: the layout module, for an app page the readers' module (its JS
// glue and wasm, gzipped) and the worker's code as inert text (web/src/app.js starts the worker
// from them), then the viewer.
std::string page_scripts(const std::string& nonce, bool app) {
  std::string page;
  if (!assets::kLayoutWasmJs.empty()) {
    page += "<script nonce=\"" + nonce + "\">\n";
    page += script_safe(assets::kLayoutWasmJs);
    page += "\n</script>\n";
    // Base64 of gzip (no '<' to escape); web/src/layout_wasm.js inflates it for the glue.
    page += "<script type=\"text/plain\" id=\"etviz-layout-wasm\" data-encoding=\"gzip-base64\">";
    page += assets::kLayoutWasm;
    page += "</script>\n";
  }
  if (app) {
    // Base64 of gzip (no '<' to escape); web/src/app.js inflates them before starting the worker.
    page += "<script type=\"text/plain\" id=\"etviz-app-module\" data-encoding=\"gzip-base64\">";
    page += assets::kAppModuleJs;
    page +=
        "</script>\n<script type=\"text/plain\" id=\"etviz-app-wasm\" "
        "data-encoding=\"gzip-base64\">";
    page += assets::kAppModuleWasm;
    page += "</script>\n<script type=\"text/plain\" id=\"etviz-app-worker\">";
    page += script_safe(assets::kAppWorkerJs);
    page += "</script>\n";
  }
  page += "<script nonce=\"" + nonce + "\">\n";
  page += script_safe(assets::kViewerJs);
  page += "\n</script>\n</body>\n</html>\n";
  return page;
}

}  // namespace

Result<std::string> write_app_page(const std::string& title) {
  if (!viewer_has_wasm_app())
    return Error(
        "this etviz build has no WebAssembly app module (it needs Emscripten's emcc at build "
        "time; Debian: apt-get install emscripten)");
  const std::string nonce = make_nonce();
  return page_head(title, nonce, true, 0) + page_scripts(nonce, true);
}

Result<std::string> write_html_page(const Document& doc, const PageOptions& options,
                                    PageStats* stats) {
  return write_html_page(doc, options, {}, stats);
}

Result<std::string> write_html_page(const Document& doc, const PageOptions& options,
                                    const std::vector<PageFile>& more_files, PageStats* stats) {
  if (doc.graphs.empty()) return Error("the file holds no graph to show");
  if (options.app && !viewer_has_wasm_app())
    return Error(
        "--app: this etviz build has no WebAssembly app module (it needs Emscripten's emcc at "
        "build time)");
  for (const PageFile& f : more_files)
    if (!f.doc || f.doc->graphs.empty())
      return Error(fmt::format("{}: the file holds no graph to show", f.file_name));
  std::vector<EncodedFile> files;
  for (int32_t g : options.graphs)
    if (g < 0 || static_cast<size_t>(g) >= doc.graphs.size())
      return Error(fmt::format("no graph {} to show (the document has {})", g, doc.graphs.size()));
  auto first =
      encode_file(doc, PageSource{options.file_name, options.file_size}, options, options.graphs);
  if (!first) return first.error();
  files.push_back(std::move(*first));
  for (const PageFile& f : more_files) {
    auto file = encode_file(*f.doc, PageSource{f.file_name, f.file_size}, options, {});
    if (!file) return file.error().within(f.file_name);
    files.push_back(std::move(*file));
  }
  const std::vector<ViewModel>& views = files.front().views;

  const std::string nonce = make_nonce();
  const bool compressed_page = !files.front().data.compressed.empty();
  size_t payload_bytes = 0;
  for (const EncodedFile& f : files)
    payload_bytes += f.data.head.size() + (f.data.compressed.size() + 2) / 3 * 4;
  // The overlays' data elements, made before the page so that its one allocation holds them
  // (a 19 MiB size treemap appended past the reserve doubled a 68 MiB page).
  std::vector<std::pair<const char*, std::string>> extras;
  std::vector<std::string> warnings;
  // Each of these elements is parsed as one string in the page (kMaxPageJsonText).
  auto too_big = [](const std::string& json) { return json.size() > kMaxPageJsonText; };
  auto size_note = [](const std::string& json, const char* what) {
    return fmt::format("{} is {:.0f} MiB of JSON, over the {} MiB a browser parses as one string",
                       what, json.size() / 1048576.0, kMaxPageJsonText >> 20);
  };
  if (options.profile) {
    std::string profile = profile_data_json(*options.profile, doc, views);
    if (too_big(profile)) return Error(size_note(profile, "the profile overlay"));
    extras.emplace_back("etviz-profile", std::move(profile));
  }
  if (options.node_data)
    extras.emplace_back("etviz-node-data", node_data_json(*options.node_data, doc, views));
  if (options.numerics) {
    std::string numerics = numerics_data_json(*options.numerics, doc, views);
    if (too_big(numerics)) return Error(size_note(numerics, "the numerics overlay"));
    extras.emplace_back("etviz-numerics", std::move(numerics));
  }
  // The memory plan of every method that has one (the timeline under the canvas), and where
  // the file's bytes go (the treemap beside it).
  if (!options.timeline) {
    std::string size = size_data_json(doc);
    if (too_big(size))
      warnings.push_back(size_note(size, "the size treemap") + "; the page leaves it out");
    else if (!size.empty())
      extras.emplace_back("etviz-size", std::move(size));
    std::string memory = memory_data_json(doc, views, &warnings);
    if (too_big(memory))
      warnings.push_back(size_note(memory, "the memory timeline") +
                         "; the page leaves it out (`etviz memory` reports it)");
    else if (!memory.empty())
      extras.emplace_back("etviz-memory", std::move(memory));
  }
  if (options.timeline) {
    for (size_t k = 0; k < views.size(); ++k) {
      if (views[k].root_graph != options.timeline_graph) continue;
      std::string timeline =
          timeline_data_json(*options.timeline, doc, options.timeline_graph, views[k], k);
      if (too_big(timeline)) return Error(size_note(timeline, "the timeline of steps"));
      extras.emplace_back("etviz-timeline", std::move(timeline));
      break;
    }
  }
  size_t extra_bytes = 0;
  for (const auto& [id, json] : extras) extra_bytes += json.size() + 64;

  std::string title = options.file_name;
  if (!more_files.empty()) title += fmt::format(" and {} more", more_files.size());
  std::string page = page_head(title, nonce, options.app, payload_bytes + extra_bytes);
  // One data element per file: etviz-data, then etviz-data-2, -3, ... (web/src/data.js), each
  // followed by the base64 parts of its column stream (kPagePartBytes of it per element, so
  // no element's text nears a browser's string limit).
  for (size_t k = 0; k < files.size(); ++k) {
    const std::string id = k == 0 ? "etviz-data" : fmt::format("etviz-data-{}", k + 1);
    const EncodedPageData& data = files[k].data;
    page += "\n<script type=\"application/json\" id=\"" + id + "\" data-encoding=\"" +
            (data.compressed.empty() ? "json"
             : data.raw_columns      ? "columns-raw"
                                     : "columns") +
            "\">";
    page += data.head;
    page += "</script>\n";
    if (data.raw_columns && options.column_bytes) {
      options.column_bytes->push_back(std::move(files[k].data.compressed));
      continue;
    }
    const std::string_view z = data.compressed;
    for (size_t off = 0; off < z.size(); off += kPagePartBytes) {
      page += "<script type=\"application/octet-stream\" data-part-of=\"" + id + "\">";
      page += base64(z.substr(off, kPagePartBytes));
      page += "</script>\n";
    }
    // The page holds it now: give back the compressed stream (82 MiB at a million nodes).
    std::string().swap(files[k].data.compressed);
  }
  for (const auto& [id, json] : extras) {
    page += "<script type=\"application/json\" id=\"";
    page += id;
    page += "\">";
    page += json;
    page += "</script>\n";
  }
  std::vector<std::pair<const char*, std::string>>().swap(extras);
  page += page_scripts(nonce, options.app);

  if (stats) {
    stats->data_bytes = 0;
    stats->graphs = 0;
    for (const EncodedFile& f : files) {
      stats->data_bytes += f.data.raw_bytes;
      stats->graphs += f.views.size();
    }
    stats->embedded_bytes = payload_bytes;
    stats->compressed = compressed_page;
    stats->has_wasm = !assets::kLayoutWasmJs.empty();
    stats->warnings = std::move(warnings);
  }
  return page;
}

Result<std::string> write_timeline_page(Document& doc, const std::vector<int32_t>& steps,
                                        PageOptions options, PageStats* stats) {
  if (steps.size() < 2)
    return Error(fmt::format("stepping needs two graphs or more; found {}", steps.size()));
  if (options.progress)
    options.progress(fmt::format("matching nodes across {} graphs", steps.size()));
  const analysis::Timeline timeline = analysis::build_timeline(doc, steps);
  Graph merged = timeline.merged;
  merged.name = fmt::format("{} steps: {} \u2192 {}", steps.size(), timeline.steps.front().name,
                            timeline.steps.back().name);
  merged.kind = GraphKind::kMethod;
  doc.graphs.push_back(std::move(merged));
  options.timeline = &timeline;
  options.timeline_graph = static_cast<int32_t>(doc.graphs.size() - 1);
  options.graphs = {options.timeline_graph};
  return write_html_page(doc, options, {}, stats);
}

}  // namespace etviz::render::html
