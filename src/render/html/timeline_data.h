#pragma once
// The timeline overlay's page data (`<script type="application/json" id="etviz-timeline">`):
// the steps of a pass trace, an ETRecord's stages or a diff of files, each as the subset of
// the union graph's view it holds, with its diff against the step before. The page shows the
// union graph once (its layout never changes between steps) and web/src/timeline_overlay.js
// hides, colours and relabels its nodes per step. docs/viewer.md ("Passes and diffs")
// describes the fields.
#include <string>
#include <vector>

#include "analysis/timeline.h"
#include "core/document.h"
#include "view/view_model.h"

namespace etviz::render::html {

// The page serialises views (view/view_model.h).
using view::ViewEdge;
using view::ViewGroup;
using view::ViewModel;
using view::ViewNode;

// `view` is the view of the union graph (the Document graph `merged_graph`, a copy of
// timeline.merged) at page graph index `page_graph`.
std::string timeline_data_json(const analysis::Timeline& timeline, const Document& doc,
                               int32_t merged_graph, const ViewModel& view, size_t page_graph);

}  // namespace etviz::render::html
