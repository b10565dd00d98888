#pragma once
// `etviz export`: a graph as a picture (SVG, PNG, PDF) drawn as the page draws it, or as a
// Graphviz DOT file for Graphviz users. docs/export.md.
#include <string>
#include <vector>

#include "analysis/categories.h"
#include "core/document.h"
#include "render/html/view_model.h"
#include "render/picture/scene.h"

namespace etviz::render::picture {

enum class PictureFormat : uint8_t { kSvg, kPng, kPdf, kDot };
const char* to_string(PictureFormat f);
// "svg" -> kSvg; also from an output file's extension. False when the name is none of them.
bool parse_picture_format(std::string_view name, PictureFormat& out);

struct PictureOptions {
  PictureFormat format = PictureFormat::kSvg;
  ExpandRequest expand;
  Theme theme = Theme::kLight;
  double scale = 1;  // PNG: pixels per layout unit (2 for a sharp picture on a HiDPI screen)
  bool edge_labels = false;
};

struct PictureResult {
  std::string bytes;
  double scale = 1;  // what it was drawn at (PNG and PDF are capped: cairo_painter.h)
  size_t nodes = 0, groups = 0, edges = 0;  // drawn (visible) boxes and edges
  double width = 0, height = 0;             // output units: px for SVG/PNG, pt for PDF
};

Result<PictureResult> write_picture(const Document& doc, const html::ViewModel& model,
                                    const analysis::CategoryConfig& categories,
                                    const PictureOptions& options);

// DOT: nodes with the page's labels and category colours, expanded groups as clusters with
// their title, collapsed groups as one node (edges into them join there), tensor shapes as
// edge labels when asked.
std::string dot_text(const Document& doc, const html::ViewModel& model,
                     const std::vector<bool>& expanded, const Palette& palette, bool edge_labels);

// `text` inside a DOT double-quoted string: quotes and backslashes escaped (so Graphviz's
// \N, \G and \l escapes cannot be injected), newlines as \n, made printable UTF-8.
std::string dot_quote(std::string_view text);

}  // namespace etviz::render::picture
