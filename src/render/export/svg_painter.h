#pragma once
// SVG written by us: text stays text (selectable, searchable), every node and group is a <g>
// with a class ("node compute", "group collapsed"), an id and a <title> tooltip, and names
// from the model are escaped so the file is valid XML whatever they hold.
#include <memory>

#include "render/export/painter.h"

namespace etviz::render::picture {

std::unique_ptr<Painter> make_svg_painter();

// The text width estimate the page sizes its boxes with (view::text_width), for `font`.
double estimated_text_width(std::string_view text, const Font& font);

}  // namespace etviz::render::picture
