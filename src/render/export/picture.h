#pragma once
// `etviz export`: a graph as a picture (SVG, PNG, PDF) drawn as the page draws it, or as a
// Graphviz DOT file for Graphviz users. docs/export.md.
#include <string>
#include <vector>

#include "analysis/categories.h"
#include "core/document.h"
#include "render/export/cairo_painter.h"
#include "render/export/scene.h"
#include "view/view_model.h"

namespace etviz::render::picture {

// What `etviz export` writes: pictures (drawn by write_picture), DOT, or Model Explorer's
// graph JSON (model_explorer_json.h).
// kGraphJson: etviz's own graph JSON (render/graph_json.h); `.json` names Model Explorer's.
enum class ExportFormat : uint8_t { kSvg, kPng, kPdf, kDot, kMeJson, kGraphJson };
inline constexpr ExportFormat kExportFormats[] = {ExportFormat::kSvg,    ExportFormat::kPng,
                                                  ExportFormat::kPdf,    ExportFormat::kDot,
                                                  ExportFormat::kMeJson, ExportFormat::kGraphJson};
const char* to_string(ExportFormat f);       // "svg", ..., "me-json"
const char* file_extension(ExportFormat f);  // "svg", ..., "json"
// "svg" -> kSvg, "me-json" -> kMeJson; an extension (".svg", ".gv", ".json") also names one.
// False when the name is none of them.
bool parse_export_format(std::string_view name, ExportFormat& out);
// "svg, png, pdf, dot or me-json", for help and errors.
std::string export_format_list();

struct PictureOptions {
  ExportFormat format = ExportFormat::kSvg;
  ExpandRequest expand;
  Theme theme = Theme::kLight;
  double scale = 1;  // PNG: pixels per layout unit (2 for a sharp picture on a HiDPI screen)
  bool edge_labels = false;
  // Node colours and legend of an overlay (profile heat, node data), or null: categories.
  const PictureOverlay* overlay = nullptr;
  // PDF: kAuto splits the drawing over pages of `paper` when one page would shrink it below
  // half the requested scale; kOne never does, kPaged always does.
  enum class Pages : uint8_t { kAuto, kOne, kPaged } pages = Pages::kAuto;
  Paper paper = Paper::kA4;
  std::string title;  // paged PDF: each page's header
};

struct PictureResult {
  std::string bytes;
  double scale = 1;  // what it was drawn at (PNG and PDF are capped: cairo_painter.h)
  size_t nodes = 0, groups = 0, edges = 0;  // drawn (visible) boxes and edges
  double width = 0, height = 0;             // output units: px for SVG/PNG, pt for PDF
                                            // (a paged PDF: one page)
  int pages = 1;                            // PDF pages
  std::string note;                         // why a drawing was not paged, or empty
};

Result<PictureResult> write_picture(const Document& doc, const view::ViewModel& model,
                                    const analysis::CategoryConfig& categories,
                                    const PictureOptions& options);

// DOT: nodes with the page's labels and category colours, expanded groups as clusters with
// their title, collapsed groups as one node (edges into them join there), tensor shapes as
// edge labels when asked.
std::string dot_text(const Document& doc, const view::ViewModel& model,
                     const std::vector<bool>& expanded, const Palette& palette, bool edge_labels,
                     const PictureOverlay* overlay = nullptr);

// `text` inside a DOT double-quoted string: quotes and backslashes escaped (so Graphviz's
// \N, \G and \l escapes cannot be injected), newlines as \n, made printable UTF-8.
std::string dot_quote(std::string_view text);

}  // namespace etviz::render::picture
