#pragma once
// The page's overlays as picture colours (scene.h PictureOverlay): the profile's heat
// (`etviz export --etdump`) and Model Explorer node data (`--node-data`), with the same
// colours and legend the page shows. Which nodes get which figure is the view's
// (view/profile_figures.h, view/node_data_figures.h); this only turns figures into colours.
#include "analysis/heat_scale.h"
#include "analysis/node_data.h"
#include "render/export/model_explorer_json.h"
#include "render/export/scene.h"
#include "view/profile_figures.h"
#include "view/view_model.h"

namespace etviz::render::picture {

using view::HeatMode;

// Heat colours of the profiled method's nodes (the page's nodeStyles for the same mode and
// scale): a step per timed node, untimed nodes grey; a legend with each step's lower bound.
PictureOverlay profile_picture_overlay(const view::ProfileOverlay& profile, const Document& doc,
                                       const view::ViewModel& model, HeatMode mode,
                                       analysis::HeatScale scale, Theme theme,
                                       const Palette& palette);

// Node data colours of the model's nodes; nodes without a value grey; the legend of the first
// value set that lands in this view.
PictureOverlay node_data_picture_overlay(const analysis::NodeDataJoin& join,
                                         const view::ViewModel& model, const Palette& palette);

// The profile's per-node figures as a Model Explorer node data file (ModelNodeData: graph id
// -> {results: {node id: {value}}, gradient}) naming the ids `ids` says the graph JSON was
// written with, so Model Explorer colours the same nodes the page heat-colours, from the
// heat scale's light colours. `nodes` counts the results written.
std::string profile_me_node_data(const view::ProfileOverlay& profile, const Document& doc,
                                 const view::ViewModel& model, HeatMode mode,
                                 const std::map<int32_t, MeJsonStats::GraphIds>& ids,
                                 size_t* nodes = nullptr);

// The time "1.25 µs" as the page's formatTime writes it.
std::string format_time(double v, const std::string& unit);

}  // namespace etviz::render::picture
