#pragma once
// The page's overlays as picture colours (scene.h PictureOverlay): the profile's heat
// (`etviz export --etdump`) and Model Explorer node data (`--node-data`), with the same
// colours and legend the page shows.
#include "analysis/heat_scale.h"
#include "analysis/node_data.h"
#include "render/export/scene.h"
#include "render/html/profile_data.h"
#include "render/html/view_model.h"

namespace etviz::render::picture {

// What the heat colours measure, as the page's legend buttons.
enum class HeatMode : uint8_t { kAvg, kP90, kShare };
// "avg" -> kAvg, "p90", "share"; false when the name is none of them.
bool parse_heat_mode(std::string_view name, HeatMode& out);

// Heat colours of the profiled method's nodes (the page's nodeStyles for the same mode and
// scale): a step per timed node, untimed nodes grey; a legend with each step's lower bound.
PictureOverlay profile_picture_overlay(const html::ProfileOverlay& profile, const Document& doc,
                                       const html::ViewModel& model, HeatMode mode,
                                       analysis::HeatScale scale, Theme theme,
                                       const Palette& palette);

// Node data colours of the model's nodes; nodes without a value grey; the legend of the first
// value set that lands in this view.
PictureOverlay node_data_picture_overlay(const analysis::NodeDataJoin& join,
                                         const html::ViewModel& model, const Palette& palette);

// The time "1.25 µs" as the page's formatTime writes it.
std::string format_time(double v, const std::string& unit);

}  // namespace etviz::render::picture
