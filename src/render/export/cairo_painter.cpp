#include "render/export/cairo_painter.h"

#include <cairo-pdf.h>
#include <cairo.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <vector>

namespace etviz::render::picture {
namespace {

cairo_status_t append_to_string(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

class CairoPainter final : public Painter {
 public:
  explicit CairoPainter(CairoTarget target) : target_(target) {}
  // Draws into a context someone else owns (a paged PDF replaying its pages, a measuring
  // context); begin() and finish() are not called then.
  explicit CairoPainter(cairo_t* external) : target_(CairoTarget::kPdf), cr_(external) {
    external_ = true;
    forget_font();
  }
  ~CairoPainter() override {
    if (cr_ && !external_) cairo_destroy(cr_);
    if (surface_) cairo_surface_destroy(surface_);
  }
  // The context's font was reset (cairo_restore, a new context): select ours again.
  void forget_font() {
    cairo_select_font_face(cr_, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    bold_ = false;
  }

  void begin(double width, double height, double scale, const Colour& background) override {
    const double w = std::max(1.0, std::ceil(width * scale));
    const double h = std::max(1.0, std::ceil(height * scale));
    if (target_ == CairoTarget::kPng) {
      surface_ =
          cairo_image_surface_create(CAIRO_FORMAT_ARGB32, static_cast<int>(w), static_cast<int>(h));
    } else {
      surface_ = cairo_pdf_surface_create_for_stream(append_to_string, &out_, w, h);
    }
    cr_ = cairo_create(surface_);
    cairo_scale(cr_, scale, scale);
    cairo_select_font_face(cr_, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    set(background);
    cairo_paint(cr_);
    cairo_set_line_join(cr_, CAIRO_LINE_JOIN_ROUND);
  }

  void box(const layout::Rect& r, double radius, const Colour& fill,
           const Stroke& stroke) override {
    radius = std::min({radius, r.width / 2, r.height / 2});
    cairo_new_path(cr_);
    if (radius <= 0) {
      cairo_rectangle(cr_, r.x, r.y, r.width, r.height);
    } else {
      const double x = r.x, y = r.y, w = r.width, h = r.height;
      cairo_new_sub_path(cr_);
      cairo_arc(cr_, x + w - radius, y + radius, radius, -M_PI / 2, 0);
      cairo_arc(cr_, x + w - radius, y + h - radius, radius, 0, M_PI / 2);
      cairo_arc(cr_, x + radius, y + h - radius, radius, M_PI / 2, M_PI);
      cairo_arc(cr_, x + radius, y + radius, radius, M_PI, 3 * M_PI / 2);
      cairo_close_path(cr_);
    }
    if (!fill.none()) {
      set(fill);
      cairo_fill_preserve(cr_);
    }
    if (stroke.width > 0 && !stroke.colour.none()) apply(stroke);
    cairo_new_path(cr_);
  }

  void polyline(std::span<const layout::Point> points, const Stroke& stroke) override {
    if (points.size() < 2) return;
    cairo_new_path(cr_);
    cairo_move_to(cr_, points[0].x, points[0].y);
    for (size_t i = 1; i < points.size(); ++i) cairo_line_to(cr_, points[i].x, points[i].y);
    apply(stroke);
    cairo_new_path(cr_);
  }

  void triangle(const layout::Point (&c)[3], const Colour& fill) override {
    cairo_new_path(cr_);
    cairo_move_to(cr_, c[0].x, c[0].y);
    cairo_line_to(cr_, c[1].x, c[1].y);
    cairo_line_to(cr_, c[2].x, c[2].y);
    cairo_close_path(cr_);
    set(fill);
    cairo_fill(cr_);
  }

  void text(double x, double y, std::string_view text, const Font& font, Anchor anchor,
            const Colour& colour) override {
    draw_text(x, y, text, font, anchor, colour, nullptr);
  }
  void haloed_text(double x, double y, std::string_view text, const Font& font, Anchor anchor,
                   const Colour& colour, const Colour& halo) override {
    draw_text(x, y, text, font, anchor, colour, &halo);
  }

  double text_width(std::string_view text, const Font& font) override {
    if (text.empty()) return 0;
    const std::string s = printable_utf8(text);
    use(font);
    cairo_text_extents_t ext;
    cairo_text_extents(cr_, s.c_str(), &ext);
    return ext.x_advance;
  }

  Result<std::string> finish() override {
    cairo_status_t status = cairo_status(cr_);
    cairo_destroy(cr_);
    cr_ = nullptr;
    if (status == CAIRO_STATUS_SUCCESS && target_ == CairoTarget::kPng)
      status = cairo_surface_write_to_png_stream(surface_, append_to_string, &out_);
    cairo_surface_finish(surface_);
    if (status == CAIRO_STATUS_SUCCESS) status = cairo_surface_status(surface_);
    cairo_surface_destroy(surface_);
    surface_ = nullptr;
    if (status != CAIRO_STATUS_SUCCESS)
      return Error(fmt::format("cairo could not draw the {}: {}",
                               target_ == CairoTarget::kPng ? "PNG" : "PDF",
                               cairo_status_to_string(status)));
    return std::move(out_);
  }

 private:
  // The letters at (x, y); with a halo, their outline in the halo's colour first (the canvas's
  // strokeText then fillText).
  void draw_text(double x, double y, std::string_view text, const Font& font, Anchor anchor,
                 const Colour& colour, const Colour* halo) {
    if (text.empty()) return;
    const std::string s = printable_utf8(text);  // cairo refuses invalid UTF-8
    use(font);
    cairo_text_extents_t ext;
    cairo_text_extents(cr_, s.c_str(), &ext);
    cairo_font_extents_t fe;
    cairo_font_extents(cr_, &fe);
    double left = x;
    if (anchor == Anchor::kMiddle) left -= ext.x_advance / 2;
    if (anchor == Anchor::kEnd) left -= ext.x_advance;
    // Vertical middle of the font's ascent/descent at y (the canvas's textBaseline middle).
    const double baseline = y + (fe.ascent - fe.descent) / 2;
    if (halo && !halo->none()) {
      cairo_new_path(cr_);
      cairo_move_to(cr_, left, baseline);
      cairo_text_path(cr_, s.c_str());
      set(*halo);
      cairo_set_line_width(cr_, 3);
      cairo_set_dash(cr_, nullptr, 0, 0);
      cairo_stroke(cr_);
    }
    set(colour);
    cairo_move_to(cr_, left, baseline);
    cairo_show_text(cr_, s.c_str());
    cairo_new_path(cr_);
  }

  void set(const Colour& c) { cairo_set_source_rgba(cr_, c.r, c.g, c.b, c.a); }
  void apply(const Stroke& s) {
    set(s.colour);
    cairo_set_line_width(cr_, s.width);
    const double dash[2] = {4, 3};
    cairo_set_dash(cr_, dash, s.dashed ? 2 : 0, 0);
    cairo_stroke_preserve(cr_);
  }
  void use(const Font& f) {
    if (f.bold != bold_) {
      cairo_select_font_face(cr_, "sans-serif", CAIRO_FONT_SLANT_NORMAL,
                             f.bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
      bold_ = f.bold;
    }
    cairo_set_font_size(cr_, f.size);
  }

  CairoTarget target_;
  bool external_ = false;
  cairo_surface_t* surface_ = nullptr;
  cairo_t* cr_ = nullptr;
  std::string out_;
  bool bold_ = false;
};

// A PDF of many pages: the drawing is kept as a list of primitives, each filed under the pages
// its box touches, then every page replays only its own (a 125k-node graph on 936 pages does
// each primitive about once, where replaying a cairo recording per page redid all of it on
// every page). Text is measured with cairo's real advances, as a one-page PDF measures it.
class PagedPdfPainter final : public Painter {
 public:
  explicit PagedPdfPainter(const PdfPaging& paging)
      : paging_(paging), pages_(static_cast<size_t>(paging.pages())) {
    measure_surface_ = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    measure_ = cairo_create(measure_surface_);
    measurer_ = std::make_unique<CairoPainter>(measure_);
  }
  ~PagedPdfPainter() override {
    measurer_.reset();
    cairo_destroy(measure_);
    cairo_surface_destroy(measure_surface_);
  }

  void begin(double width, double height, double scale, const Colour& background) override {
    scale_ = scale;
    width_ = std::ceil(width * scale);
    height_ = std::ceil(height * scale);
    background_ = background;
  }
  void box(const layout::Rect& r, double radius, const Colour& fill,
           const Stroke& stroke) override {
    Op op;
    op.kind = Op::kBox;
    op.rect = r;
    op.radius = radius;
    op.fill = fill;
    op.stroke = stroke;
    file(std::move(op), r.x - stroke.width, r.y - stroke.width, r.x + r.width + stroke.width,
         r.y + r.height + stroke.width);
  }
  void polyline(std::span<const layout::Point> points, const Stroke& stroke) override {
    if (points.size() < 2) return;
    Op op;
    op.kind = Op::kPolyline;
    op.first = static_cast<uint32_t>(points_.size());
    op.count = static_cast<uint32_t>(points.size());
    op.stroke = stroke;
    double x0 = points[0].x, y0 = points[0].y, x1 = x0, y1 = y0;
    for (const layout::Point& p : points) {
      points_.push_back(p);
      x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x),
      y1 = std::max(y1, p.y);
    }
    file(std::move(op), x0 - stroke.width, y0 - stroke.width, x1 + stroke.width, y1 + stroke.width);
  }
  void triangle(const layout::Point (&c)[3], const Colour& fill) override {
    Op op;
    op.kind = Op::kTriangle;
    op.first = static_cast<uint32_t>(points_.size());
    op.count = 3;
    op.fill = fill;
    for (const layout::Point& p : c) points_.push_back(p);
    file(std::move(op), std::min({c[0].x, c[1].x, c[2].x}), std::min({c[0].y, c[1].y, c[2].y}),
         std::max({c[0].x, c[1].x, c[2].x}), std::max({c[0].y, c[1].y, c[2].y}));
  }
  void text(double x, double y, std::string_view text, const Font& font, Anchor anchor,
            const Colour& colour) override {
    if (text.empty()) return;
    const double w = text_width(text, font);
    const double left = anchor == Anchor::kStart    ? x
                        : anchor == Anchor::kMiddle ? x - w / 2
                                                    : x - w;
    Op op;
    op.kind = Op::kText;
    op.rect = {x, y, 0, 0};
    op.text = std::string(text);
    op.font = font;
    op.anchor = anchor;
    op.fill = colour;
    file(std::move(op), left, y - font.size, left + w, y + font.size);
  }
  void haloed_text(double x, double y, std::string_view text, const Font& font, Anchor anchor,
                   const Colour& colour, const Colour& halo) override {
    const size_t before = ops_.size();
    this->text(x, y, text, font, anchor, colour);
    if (ops_.size() > before) ops_.back().halo = halo;
  }
  double text_width(std::string_view text, const Font& font) override {
    return measurer_->text_width(text, font);
  }

  Result<std::string> finish() override {
    std::string out;
    const PdfPaging& p = paging_;
    cairo_surface_t* pdf =
        cairo_pdf_surface_create_for_stream(append_to_string, &out, p.page_width, p.page_height);
    cairo_t* cr = cairo_create(pdf);
    CairoPainter drawer(cr);
    const double tw = p.tile_width(), th = p.tile_height();
    const double top = p.margin + p.header;
    const int n = p.pages();
    for (int r = 0; r < p.rows; ++r) {
      for (int c = 0; c < p.columns; ++c) {
        const double ox = c * (tw - p.overlap), oy = r * (th - p.overlap);
        const double cw = std::min(tw, width_ - ox), ch = std::min(th, height_ - oy);
        cairo_save(cr);
        cairo_rectangle(cr, p.margin, top, cw, ch);
        cairo_clip(cr);
        cairo_set_source_rgba(cr, background_.r, background_.g, background_.b, background_.a);
        cairo_paint(cr);
        cairo_translate(cr, p.margin - ox, top - oy);
        cairo_scale(cr, scale_, scale_);
        cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
        drawer.forget_font();
        for (uint32_t k : pages_[static_cast<size_t>(r * p.columns + c)]) replay(drawer, ops_[k]);
        cairo_restore(cr);
        const int page = r * p.columns + c + 1;
        const std::string label =
            p.columns > 1
                ? fmt::format("{} \u00b7 page {} of {} \u00b7 row {} of {}, column {} of {}",
                              p.title, page, n, r + 1, p.rows, c + 1, p.columns)
                : fmt::format("{} \u00b7 page {} of {}", p.title, page, n);
        cairo_select_font_face(cr, "sans-serif", CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_font_size(cr, 8);
        cairo_set_source_rgb(cr, 0.42, 0.45, 0.5);
        cairo_move_to(cr, p.margin, p.margin + 8);
        cairo_show_text(cr, printable_utf8(label).c_str());
        cairo_show_page(cr);
      }
    }
    cairo_status_t status = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_finish(pdf);
    if (status == CAIRO_STATUS_SUCCESS) status = cairo_surface_status(pdf);
    cairo_surface_destroy(pdf);
    if (status != CAIRO_STATUS_SUCCESS)
      return Error(fmt::format("cairo could not draw the PDF: {}", cairo_status_to_string(status)));
    return out;
  }

 private:
  struct Op {
    enum Kind : uint8_t { kBox, kPolyline, kTriangle, kText } kind = kBox;
    layout::Rect rect;  // box; text: (x, y)
    double radius = 0;
    Colour fill;  // box, triangle; text: its colour
    Stroke stroke;
    uint32_t first = 0, count = 0;  // polyline, triangle: into points_
    std::string text;
    Font font;
    Anchor anchor = Anchor::kStart;
    std::optional<Colour> halo;  // text: drawn over a halo (haloed_text)
  };

  // Files the primitive under every page whose tile its box (layout units) touches.
  void file(Op op, double x0, double y0, double x1, double y1) {
    const auto k = static_cast<uint32_t>(ops_.size());
    ops_.push_back(std::move(op));
    const double tw = paging_.tile_width(), th = paging_.tile_height();
    const double sx = tw - paging_.overlap, sy = th - paging_.overlap;
    x0 *= scale_, y0 *= scale_, x1 *= scale_, y1 *= scale_;
    auto first = [](double lo, double tile, double step) {
      return std::max(0, static_cast<int>(std::floor((lo - tile) / step)));
    };
    for (int r = first(y0, th, sy); r < paging_.rows && r * sy <= y1; ++r) {
      if (r * sy + th < y0) continue;
      for (int c = first(x0, tw, sx); c < paging_.columns && c * sx <= x1; ++c) {
        if (c * sx + tw < x0) continue;
        pages_[static_cast<size_t>(r * paging_.columns + c)].push_back(k);
      }
    }
  }

  void replay(CairoPainter& d, const Op& op) {
    switch (op.kind) {
      case Op::kBox:
        d.box(op.rect, op.radius, op.fill, op.stroke);
        break;
      case Op::kPolyline:
        d.polyline(std::span<const layout::Point>(points_.data() + op.first, op.count), op.stroke);
        break;
      case Op::kTriangle: {
        const layout::Point c[3] = {points_[op.first], points_[op.first + 1],
                                    points_[op.first + 2]};
        d.triangle(c, op.fill);
        break;
      }
      case Op::kText:
        if (op.halo)
          d.haloed_text(op.rect.x, op.rect.y, op.text, op.font, op.anchor, op.fill, *op.halo);
        else
          d.text(op.rect.x, op.rect.y, op.text, op.font, op.anchor, op.fill);
        break;
    }
  }

  PdfPaging paging_;
  double scale_ = 1, width_ = 0, height_ = 0;  // width_, height_: output units
  Colour background_;
  std::vector<Op> ops_;
  std::vector<layout::Point> points_;
  std::vector<std::vector<uint32_t>> pages_;  // ops_ indices per page, in drawing order
  cairo_surface_t* measure_surface_ = nullptr;
  cairo_t* measure_ = nullptr;
  std::unique_ptr<CairoPainter> measurer_;
};

}  // namespace

double fit_scale(CairoTarget target, double width, double height, double requested) {
  double s = requested;
  const double side = target == CairoTarget::kPng ? kMaxRasterSide : kMaxPdfSide;
  s = std::min(s, side / std::max(width, 1.0));
  s = std::min(s, side / std::max(height, 1.0));
  if (target == CairoTarget::kPng)
    s = std::min(s, std::sqrt(kMaxRasterPixels / std::max(width * height, 1.0)));
  return s;
}

std::unique_ptr<Painter> make_cairo_painter(CairoTarget target) {
  return std::make_unique<CairoPainter>(target);
}

std::unique_ptr<Painter> make_paged_pdf_painter(const PdfPaging& paging) {
  return std::make_unique<PagedPdfPainter>(paging);
}

bool parse_paper(std::string_view name, Paper& out) {
  if (name == "a4")
    out = Paper::kA4;
  else if (name == "letter")
    out = Paper::kLetter;
  else if (name == "a3")
    out = Paper::kA3;
  else
    return false;
  return true;
}

PdfPaging pdf_paging(Paper paper, double width, double height) {
  PdfPaging p;
  switch (paper) {
    case Paper::kA4:
      p.page_width = 595.28, p.page_height = 841.89;
      break;
    case Paper::kLetter:
      p.page_width = 612, p.page_height = 792;
      break;
    case Paper::kA3:
      p.page_width = 841.89, p.page_height = 1190.55;
      break;
  }
  // A hundredth of a point over is rounding, not another page.
  auto tiles = [&](double extent, double tile) {
    if (extent <= tile + 0.01) return 1;
    return 1 + static_cast<int>(std::ceil((extent - tile - 0.01) / (tile - p.overlap)));
  };
  p.columns = tiles(width, p.tile_width());
  p.rows = tiles(height, p.tile_height());
  return p;
}

}  // namespace etviz::render::picture
