#pragma once
// What a picture is drawn with: the few primitives the viewer's canvas drawing uses (rounded
// boxes, polylines, filled triangles, one line of text), so that one drawing routine
// (scene.h) produces SVG, PNG and PDF that look like the page.
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "core/colour.h"
#include "core/status.h"
#include "core/text.h"  // printable_utf8: what painters may draw
#include "layout/layout.h"

namespace etviz::render::picture {

// Colours are core's (core/colour.h): one parser for themes, categories and node data.
using etviz::Colour;
using etviz::mix;
using etviz::parse_colour;

struct Font {
  double size = 12;
  bool bold = false;
};
enum class Anchor : uint8_t { kStart, kMiddle, kEnd };

struct Stroke {
  Colour colour;
  double width = 1;
  bool dashed = false;
};

// One drawing surface. Coordinates are the layout's (y down); the painter scales.
class Painter {
 public:
  virtual ~Painter() = default;
  // `width` x `height` in layout units, `scale` output units per layout unit.
  virtual void begin(double width, double height, double scale, const Colour& background) = 0;
  virtual void box(const layout::Rect& r, double radius, const Colour& fill,
                   const Stroke& stroke) = 0;
  virtual void polyline(std::span<const layout::Point> points, const Stroke& stroke) = 0;
  virtual void triangle(const layout::Point (&corners)[3], const Colour& fill) = 0;
  // One line of text whose vertical middle is at y.
  virtual void text(double x, double y, std::string_view text, const Font& font, Anchor anchor,
                    const Colour& colour) = 0;
  // The same over a halo: a 3-unit outline of `halo` under the letters, so text drawn over edges
  // stays readable (group titles, drawn after the edges that cross their band, as the page
  // does).
  virtual void haloed_text(double x, double y, std::string_view text, const Font& font,
                           Anchor anchor, const Colour& colour, const Colour& halo) = 0;
  // How wide `text` is drawn in `font`, in layout units (to fit labels in their boxes).
  virtual double text_width(std::string_view text, const Font& font) = 0;
  // Structure some formats keep (SVG: a <g> with a class, an id and a <title> tooltip);
  // others ignore it.
  virtual void open_item(std::string_view /*kind*/, std::string_view /*id*/,
                         std::string_view /*title*/) {}
  virtual void close_item() {}
  // The encoded picture, or an error (a rendering library's failure, a size it refuses).
  virtual Result<std::string> finish() = 0;
};

}  // namespace etviz::render::picture
