#pragma once
// A plain table rendered as aligned text, CSV or Markdown: every report that prints rows uses
// this so `--format table|csv|markdown` behaves the same everywhere.
#include <string>
#include <vector>

namespace etviz::render {

enum class Align { kLeft, kRight };

class Table {
 public:
  explicit Table(std::vector<std::string> header, std::vector<Align> align = {});
  void add_row(std::vector<std::string> row);
  size_t rows() const { return rows_.size(); }

  // Aligned text. With max_width > 0 the lines are kept within it (indent included) by
  // ellipsizing the shrinkable columns, widest first, never below their header's width.
  std::string to_text(const std::string& indent = "", size_t max_width = 0) const;
  // Columns whose cells may be cut with "…" to fit a width (names, op lists, paths).
  void set_shrinkable(std::vector<size_t> columns) { shrinkable_ = std::move(columns); }
  std::string to_csv() const;
  std::string to_markdown() const;

  // Longest cell kept whole, in bytes; longer ones end with core/text.h's visible marker.
  static constexpr size_t kMaxCell = 1024;

 private:
  std::vector<std::string> header_;
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;
  std::vector<size_t> shrinkable_;
};

// "1.5 MiB", "312 B"
std::string human_bytes(uint64_t bytes);
// "1,234,567"
std::string with_thousands(int64_t n);
// "1,234.568" with `decimals` digits after the point.
std::string with_thousands(double x, int decimals);

}  // namespace etviz::render
