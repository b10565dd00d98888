#pragma once
// The viewer's files, inlined at build time (src/render/html/CMakeLists.txt runs
// web/build.mjs and cmake/embed_assets.cmake).
#include <string_view>

namespace etviz::render::html::assets {

extern const std::string_view kViewerJs;       // web/src bundled into one classic script
extern const std::string_view kViewerCss;      // web/src/viewer.css
extern const std::string_view kViewerBody;     // web/src/body.html: the page's markup
extern const std::string_view kLayoutWasmJs;   // layout engine's JS glue; empty when the
                                               // build had no Emscripten
extern const std::string_view kLayoutWasm;     // its wasm, base64 of its gzip
extern const std::string_view kAppModuleJs;    // readers, analysis, page data (src/wasm): the
                                               // JS glue as base64 of its gzip; empty without
                                               // Emscripten
extern const std::string_view kAppModuleWasm;  // its wasm, base64 of its gzip
extern const std::string_view kAppWorkerJs;    // web/src/app_worker.js: the app's worker

}  // namespace etviz::render::html::assets
