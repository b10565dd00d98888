#pragma once
// The profile overlay's page data: per-node timing of the profiled method (for heat colours
// and the details panel) and the event table, from an ETDump joined with the program on show.
// Written as its own JSON element (`<script type="application/json" id="etviz-profile">`) so
// the graph data stays as it is; web/src/profile_overlay.js reads it. docs/viewer.md
// ("Profile overlay") describes the fields. The figures are the view's
// (view/profile_figures.h), as pictures draw them.
#include <span>
#include <string>

#include "core/document.h"
#include "view/profile_figures.h"
#include "view/view_model.h"

namespace etviz::render::html {

// The JSON for the etviz-profile element, safe inside <script> (<, >, & and U+2028/2029
// escaped, invalid UTF-8 replaced).
std::string profile_data_json(const view::ProfileOverlay& overlay, const Document& doc,
                              std::span<const view::ViewModel> views);

}  // namespace etviz::render::html
