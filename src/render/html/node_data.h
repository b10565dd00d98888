#pragma once
// The node data overlay's page data (`etviz view --node-data FILE.json`): per node of each
// page graph its value and style, the styles (colours C++ computed from the file's gradient,
// thresholds or own colours: analysis/node_data.h, the same colours `etviz export` draws),
// each value set's legend and the keys that matched nothing. Written as its own element
// (`<script type="application/json" id="etviz-node-data">`); web/src/node_data_overlay.js
// reads it. docs/viewer.md ("Node data overlay") describes the fields.
#include <span>
#include <string>

#include "analysis/node_data.h"
#include "core/document.h"
#include "view/view_model.h"

namespace etviz::render::html {

// Most distinct styles a page carries (the viewer styles nodes by a byte per node); further
// colours take the nearest of these.
inline constexpr size_t kMaxNodeDataStyles = 250;

// The JSON for the etviz-node-data element, safe inside <script>.
std::string node_data_json(const analysis::NodeDataJoin& join, const Document& doc,
                           std::span<const view::ViewModel> views);

}  // namespace etviz::render::html
