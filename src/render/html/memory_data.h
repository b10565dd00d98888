#pragma once
// The memory overlay's page data (`<script type="application/json" id="etviz-memory">`): the
// memory plan (analysis/memory_plan.h) of every ExecuTorch method on the page, in view-node
// terms, for web/src/memory_overlay.js's timeline (x = instruction, y = offset, one rectangle
// per tensor). docs/viewer.md ("Memory timeline") describes the fields. Empty when no method
// plans memory.
#include <string>
#include <vector>

#include "core/document.h"
#include "view/view_model.h"

namespace etviz::render::html {

// The page serialises views (view/view_model.h).
using view::ViewEdge;
using view::ViewGroup;
using view::ViewModel;
using view::ViewNode;

// Methods with more planned tensors than this are left out (the page stays small).
inline constexpr size_t kMaxMemoryTensors = 300000;

// `left_out`, when given, gets one line per method left out for its size (for a warning).
std::string memory_data_json(const Document& doc, const std::vector<ViewModel>& views,
                             std::vector<std::string>* left_out = nullptr);

// The size treemap's data (`<script type="application/json" id="etviz-size">`): the tree of
// analysis/size_tree.h as {n: name, k: kind, b: bytes, c: [children]}; empty for documents
// without sections (a trace).
std::string size_data_json(const Document& doc);

}  // namespace etviz::render::html
