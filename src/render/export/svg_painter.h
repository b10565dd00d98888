#pragma once
// SVG written by us: text stays text (selectable, searchable), every node and group is a <g>
// with a class ("node compute", "group collapsed"), an id and a <title> tooltip, and names
// from the model are escaped so the file is valid XML whatever they hold.
#include <memory>

#include "render/export/painter.h"

namespace etviz::render::picture {

std::unique_ptr<Painter> make_svg_painter();

// `text` as XML character data or attribute value: markup characters escaped, characters XML
// forbids (controls, invalid UTF-8, U+FFFE/U+FFFF) replaced by U+FFFD.
std::string xml_escape(std::string_view text);

// The text width estimate the page sizes its boxes with (render/html text_width), for `font`.
double estimated_text_width(std::string_view text, const Font& font);

}  // namespace etviz::render::picture
