#include "render/export/svg_painter.h"

#include <fmt/format.h>

#include "view/view_model.h"

namespace etviz::render::picture {
namespace {

constexpr const char* kFontFamily =
    "system-ui, -apple-system, 'Segoe UI', Roboto, Helvetica, Arial, sans-serif";

// Coordinates at the page's 0.1 precision keep the file small and stable.
std::string num(double v) {
  const double r = std::round(v * 10) / 10;
  return r == std::floor(r) ? fmt::format("{:.0f}", r) : fmt::format("{:.1f}", r);
}

class SvgPainter final : public Painter {
 public:
  void begin(double width, double height, double scale, const Colour& background) override {
    out_.reserve(1 << 16);
    out_ += "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
    out_ += fmt::format(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{}\" height=\"{}\" viewBox=\"0 0 {} "
        "{}\" font-family=\"{}\">\n",
        num(width * scale), num(height * scale), num(width), num(height), kFontFamily);
    out_ += fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", num(width), num(height),
                        background.hex());
  }

  void box(const layout::Rect& r, double radius, const Colour& fill,
           const Stroke& stroke) override {
    out_ += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"", num(r.x), num(r.y),
                        num(r.width), num(r.height));
    if (radius > 0) out_ += fmt::format(" rx=\"{}\"", num(radius));
    paint("fill", fill);
    if (stroke.width > 0 && !stroke.colour.none()) stroke_attrs(stroke);
    out_ += "/>\n";
  }

  void polyline(std::span<const layout::Point> points, const Stroke& stroke) override {
    out_ += "<polyline points=\"";
    for (size_t i = 0; i < points.size(); ++i)
      out_ += fmt::format("{}{},{}", i ? " " : "", num(points[i].x), num(points[i].y));
    out_ += "\" fill=\"none\"";
    stroke_attrs(stroke);
    out_ += "/>\n";
  }

  void triangle(const layout::Point (&c)[3], const Colour& fill) override {
    out_ += fmt::format("<path d=\"M{},{}L{},{}L{},{}Z\"", num(c[0].x), num(c[0].y), num(c[1].x),
                        num(c[1].y), num(c[2].x), num(c[2].y));
    paint("fill", fill);
    out_ += "/>\n";
  }

  void text(double x, double y, std::string_view text, const Font& font, Anchor anchor,
            const Colour& colour) override {
    write_text(x, y, text, font, anchor, colour, nullptr);
  }
  void haloed_text(double x, double y, std::string_view text, const Font& font, Anchor anchor,
                   const Colour& colour, const Colour& halo) override {
    write_text(x, y, text, font, anchor, colour, &halo);
  }

  double text_width(std::string_view text, const Font& font) override {
    return estimated_text_width(text, font);
  }

  void open_item(std::string_view kind, std::string_view id, std::string_view title) override {
    out_ += fmt::format("<g class=\"{}\" id=\"{}\"><title>{}</title>\n", markup_escape(kind),
                        markup_escape(id), markup_escape(title));
  }
  void close_item() override { out_ += "</g>\n"; }

  Result<std::string> finish() override {
    out_ += "</svg>\n";
    return std::move(out_);
  }

 private:
  // A halo is a second <text> before the letters, outline only (as the page's SVG writes
  // strokeText): readers without SVG 2's paint-order still draw it under them.
  void write_text(double x, double y, std::string_view text, const Font& font, Anchor anchor,
                  const Colour& colour, const Colour* halo) {
    if (text.empty()) return;
    const std::string open =
        fmt::format("<text x=\"{}\" y=\"{}\" dy=\"0.35em\" font-size=\"{}\"{}{}", num(x), num(y),
                    font.size, font.bold ? " font-weight=\"600\"" : "",
                    anchor == Anchor::kStart    ? ""
                    : anchor == Anchor::kMiddle ? " text-anchor=\"middle\""
                                                : " text-anchor=\"end\"");
    const std::string letters = markup_escape(text);
    if (halo && !halo->none()) {
      out_ += open + " fill=\"none\"";
      paint("stroke", *halo);
      out_ += " stroke-width=\"3\" stroke-linejoin=\"round\">" + letters + "</text>\n";
    }
    out_ += open;
    paint("fill", colour);
    out_ += ">" + letters + "</text>\n";
  }
  void paint(const char* what, const Colour& c) {
    if (c.none()) {
      out_ += fmt::format(" {}=\"none\"", what);
      return;
    }
    out_ += fmt::format(" {}=\"{}\"", what, c.hex());
    if (c.a < 1) out_ += fmt::format(" {}-opacity=\"{:.3g}\"", what, c.a);
  }
  void stroke_attrs(const Stroke& s) {
    paint("stroke", s.colour);
    out_ += fmt::format(" stroke-width=\"{:.3g}\"", s.width);
    if (s.dashed) out_ += " stroke-dasharray=\"4 3\"";
  }

  std::string out_;
};

}  // namespace

std::unique_ptr<Painter> make_svg_painter() {
  return std::make_unique<SvgPainter>();
}

double estimated_text_width(std::string_view text, const Font& font) {
  return view::text_width(std::string(text)) * font.size / 12 * (font.bold ? 1.06 : 1.0);
}

}  // namespace etviz::render::picture
