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

  std::string to_text(const std::string& indent = "") const;
  std::string to_csv() const;
  std::string to_markdown() const;

 private:
  std::vector<std::string> header_;
  std::vector<Align> align_;
  std::vector<std::vector<std::string>> rows_;
};

// "1.5 MiB", "312 B"
std::string human_bytes(uint64_t bytes);
// "1,234,567"
std::string with_thousands(int64_t n);

}  // namespace etviz::render
