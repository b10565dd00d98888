#pragma once
// PNG and PDF through cairo (Debian's libcairo2): the same drawing as the SVG, rasterised
// (PNG) or as vector pages with real text (PDF, fonts embedded as subsets).
#include <memory>

#include "render/export/painter.h"

namespace etviz::render::picture {

enum class CairoTarget : uint8_t { kPng, kPdf };

// Largest output cairo is asked for: PNG at most this many pixels a side and in all (an ARGB
// image of the limit is 256 MiB), a PDF page at most 14400 pt a side (PDF viewers' limit).
inline constexpr double kMaxRasterSide = 16384;
inline constexpr double kMaxRasterPixels = 64.0 * 1024 * 1024;
inline constexpr double kMaxPdfSide = 14400;

// The scale to draw `width` x `height` (layout units) at: `requested` when the output stays
// within the limits above, else the largest that does.
double fit_scale(CairoTarget target, double width, double height, double requested);

std::unique_ptr<Painter> make_cairo_painter(CairoTarget target);

}  // namespace etviz::render::picture
