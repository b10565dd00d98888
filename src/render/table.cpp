#include "render/table.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdint>

#include "core/text.h"

namespace etviz::render {

Table::Table(std::vector<std::string> header, std::vector<Align> align)
    : header_(std::move(header)), align_(std::move(align)) {
  align_.resize(header_.size(), Align::kLeft);
}

void Table::add_row(std::vector<std::string> row) {
  row.resize(header_.size());
  // Escaped here, before widths are measured, so a name with control characters keeps its
  // column (the output writer escapes whatever else reaches a terminal). A cell sets its
  // column's width for every row, so a long one is cut shorter than other text (kMaxCell).
  for (std::string& cell : row)
    cell = one_line(cell.size() > kMaxCell ? shown_text(cell, kMaxCell) : cell);
  rows_.push_back(std::move(row));
}

namespace {
// Display width in code points, so UTF-8 names line up.
size_t display_width(const std::string& s) {
  return static_cast<size_t>(std::count_if(
      s.begin(), s.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}
}  // namespace

namespace {
// The first `width` display columns of s, the last one "…" when s is cut.
std::string ellipsize(const std::string& s, size_t width) {
  if (display_width(s) <= width) return s;
  if (width == 0) return "";
  std::string out;
  size_t shown = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    const bool starts = (static_cast<unsigned char>(s[i]) & 0xC0) != 0x80;
    if (starts && ++shown == width) break;
    out += s[i];
  }
  return out + "\u2026";
}
}  // namespace

std::string Table::to_text(const std::string& indent, size_t max_width) const {
  std::vector<size_t> width(header_.size());
  for (size_t c = 0; c < header_.size(); ++c) {
    width[c] = display_width(header_[c]);
    for (const auto& row : rows_) width[c] = std::max(width[c], display_width(row[c]));
  }
  if (max_width > 0) {
    auto total = [&] {
      size_t t = display_width(indent);
      for (size_t c = 0; c < width.size(); ++c) t += width[c] + (c ? 2 : 0);
      return t;
    };
    // Take one column from the widest shrinkable column at a time until the table fits.
    for (size_t over = total() > max_width ? total() - max_width : 0; over > 0; --over) {
      size_t widest = width.size();
      for (size_t c : shrinkable_)
        if (c < width.size() && width[c] > std::max<size_t>(display_width(header_[c]), 12) &&
            (widest == width.size() || width[c] > width[widest]))
          widest = c;
      if (widest == width.size()) break;  // nothing left to shrink: wider than asked
      --width[widest];
    }
  }
  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    std::string line = indent;
    for (size_t c = 0; c < row.size(); ++c) {
      const std::string cell = ellipsize(row[c], width[c]);
      const size_t pad = width[c] - display_width(cell);
      if (c) line += "  ";
      if (align_[c] == Align::kRight)
        line += std::string(pad, ' ') + cell;
      else
        line += cell + (c + 1 < row.size() ? std::string(pad, ' ') : "");
    }
    out += line + "\n";
  };
  emit(header_);
  std::vector<std::string> rule;
  for (size_t w : width) rule.push_back(std::string(w, '-'));
  emit(rule);
  for (const auto& row : rows_) emit(row);
  return out;
}

namespace {
// A number as a spreadsheet reads it ("-3", "+1.5e3"): no formula, no guard needed.
bool plain_number(const std::string& s) {
  if (s.empty()) return false;
  size_t i = s[0] == '-' || s[0] == '+' ? 1 : 0;
  bool digit = false;
  for (; i < s.size(); ++i) {
    const char c = s[i];
    if (c >= '0' && c <= '9')
      digit = true;
    else if (c != '.' && c != 'e' && c != 'E' && c != '-' && c != '+' && c != '%')
      return false;
  }
  return digit;
}

// A cell a spreadsheet could run as a formula (= + - @, or a tab or carriage return first)
// gets a leading ' (OWASP's CSV injection guard); numbers stay numbers.
std::string csv_field(const std::string& cell) {
  std::string s = cell;
  if (!s.empty() && std::string_view("=+-@\t\r").find(s[0]) != std::string_view::npos &&
      !plain_number(s))
    s = "'" + s;
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) {
    if (c == '"') q += '"';
    q += c;
  }
  return q + "\"";
}

// Markdown cells: no raw HTML (markup_escape's entities: an autolink needs <), no link or
// image syntax ([ and ] escaped), no table breaks (|), one line.
std::string md_field(const std::string& s) {
  std::string out;
  for (char c : markup_escape(s)) {
    if (c == '|' || c == '[' || c == ']') out += '\\';
    out += c == '\n' ? ' ' : c;
  }
  return out;
}
}  // namespace

std::string Table::to_csv() const {
  std::string out;
  auto emit = [&](const std::vector<std::string>& row) {
    for (size_t c = 0; c < row.size(); ++c) out += (c ? "," : "") + csv_field(row[c]);
    out += "\n";
  };
  emit(header_);
  for (const auto& row : rows_) emit(row);
  return out;
}

std::string Table::to_markdown() const {
  std::string out = "|";
  for (const auto& h : header_) out += " " + md_field(h) + " |";
  out += "\n|";
  for (Align a : align_) out += a == Align::kRight ? " ---: |" : " --- |";
  out += "\n";
  for (const auto& row : rows_) {
    out += "|";
    for (const auto& f : row) out += " " + md_field(f) + " |";
    out += "\n";
  }
  return out;
}

std::string human_bytes(uint64_t bytes) {
  static const char* units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024) return fmt::format("{} B", bytes);
  double v = static_cast<double>(bytes);
  int u = 0;
  while (v >= 1024 && u < 4) {
    v /= 1024;
    ++u;
  }
  return fmt::format("{:.1f} {}", v, units[u]);
}

std::string with_thousands(int64_t n) {
  const uint64_t magnitude = n < 0 ? 0 - static_cast<uint64_t>(n) : static_cast<uint64_t>(n);
  return n < 0 ? "-" + grouped_digits(magnitude) : grouped_digits(magnitude);
}

std::string with_thousands(double x, int decimals) {
  const std::string text = fmt::format("{:.{}f}", std::fabs(x), decimals);
  const auto point = text.find('.');
  std::string whole = text.substr(0, point);
  std::string out;
  for (size_t i = 0; i < whole.size(); ++i) {
    if (i && (whole.size() - i) % 3 == 0) out += ',';
    out += whole[i];
  }
  if (point != std::string::npos) out += text.substr(point);
  return (x < 0 && text.find_first_not_of("0.") != std::string::npos ? "-" : "") + out;
}

}  // namespace etviz::render
