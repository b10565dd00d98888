#include "render/export/cairo_painter.h"

#include <cairo-pdf.h>
#include <cairo.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <string>

namespace etviz::render::picture {
namespace {

cairo_status_t append_to_string(void* closure, const unsigned char* data, unsigned int length) {
  static_cast<std::string*>(closure)->append(reinterpret_cast<const char*>(data), length);
  return CAIRO_STATUS_SUCCESS;
}

class CairoPainter final : public Painter {
 public:
  explicit CairoPainter(CairoTarget target) : target_(target) {}
  ~CairoPainter() override {
    if (cr_) cairo_destroy(cr_);
    if (surface_) cairo_surface_destroy(surface_);
  }

  void begin(double width, double height, double scale, const Colour& background) override {
    const double w = std::max(1.0, std::ceil(width * scale));
    const double h = std::max(1.0, std::ceil(height * scale));
    if (target_ == CairoTarget::kPng)
      surface_ =
          cairo_image_surface_create(CAIRO_FORMAT_ARGB32, static_cast<int>(w), static_cast<int>(h));
    else
      surface_ = cairo_pdf_surface_create_for_stream(append_to_string, &out_, w, h);
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
    set(colour);
    cairo_move_to(cr_, left, baseline);
    cairo_show_text(cr_, s.c_str());
    cairo_new_path(cr_);
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
  cairo_surface_t* surface_ = nullptr;
  cairo_t* cr_ = nullptr;
  std::string out_;
  bool bold_ = false;
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

}  // namespace etviz::render::picture
