#pragma once
// PNG and PDF through cairo (Debian's libcairo2): the same drawing as the SVG, rasterised
// (PNG) or as vector pages with real text (PDF, fonts embedded as subsets).
#include <memory>
#include <string>
#include <string_view>

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

// A drawing too tall (or wide) for one readable PDF page, split over pages of a standard size:
// a grid of `columns` x `rows` tiles of the drawing, neighbouring tiles overlapping by
// `overlap` pt so nothing falls in a seam, each page labelled with its place in the grid.
enum class Paper : uint8_t { kA4, kLetter, kA3 };
bool parse_paper(std::string_view name, Paper& out);
struct PdfPaging {
  double page_width = 595.28, page_height = 841.89;  // pt, portrait
  double margin = 28, header = 14, overlap = 24;     // pt
  int columns = 1, rows = 1;
  std::string title;  // printed in each page's header with "page k of n"
  double tile_width() const { return page_width - 2 * margin; }
  double tile_height() const { return page_height - 2 * margin - header; }
  int pages() const { return columns * rows; }
};
// The paging of a drawing of `width` x `height` pt on `paper`: one column when the drawing
// fits the page's width, else as many as needed.
PdfPaging pdf_paging(Paper paper, double width, double height);
// Most pages a PDF is split into; a drawing that needs more at half size is drawn smaller, on
// at most this many pages, with a warning.
inline constexpr int kMaxPdfPages = 2000;
// Draws into a recording first, then places each tile of it on its own page; text stays
// text and the drawing is stored once (each page shows part of the same form).
std::unique_ptr<Painter> make_paged_pdf_painter(const PdfPaging& paging);

}  // namespace etviz::render::picture
