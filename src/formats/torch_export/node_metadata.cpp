#include "formats/torch_export/node_metadata.h"

#include <charconv>

namespace etviz::torch_export {
namespace {

// Splits at `sep` outside (), [], {} and quotes.
std::vector<std::string_view> split_top_level(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  int depth = 0;
  char quote = 0;
  size_t start = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (quote) {
      if (c == quote) quote = 0;
      continue;
    }
    if (c == '\'' || c == '"')
      quote = c;
    else if (c == '(' || c == '[' || c == '{')
      ++depth;
    else if ((c == ')' || c == ']' || c == '}') && depth > 0)
      --depth;
    else if (c == sep && depth == 0) {
      parts.push_back(text.substr(start, i - start));
      start = i + 1;
    }
  }
  parts.push_back(text.substr(start));
  return parts;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() &&
         (s.front() == ' ' || s.front() == '\n' || s.front() == '\t' || s.front() == '\r'))
    s.remove_prefix(1);
  while (!s.empty() &&
         (s.back() == ' ' || s.back() == '\n' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

std::string normalize_module_path(std::string_view path) {
  path = trim(path);
  if (path == "L__self__" || path == "L['self']" || path == "self") return {};
  std::string_view rest = path;
  bool dynamo = false;
  for (std::string_view prefix : {"L['self'].", "L['self']", "self."}) {
    if (rest.substr(0, prefix.size()) == prefix) {
      rest.remove_prefix(prefix.size());
      dynamo = true;
      break;
    }
  }
  if (!dynamo && rest.find('[') == std::string_view::npos) return std::string(rest);
  // Rewrite ['name'] and [3] subscripts as dotted components.
  std::string out;
  for (size_t i = 0; i < rest.size(); ++i) {
    const char c = rest[i];
    if (c == '[') {
      size_t close = rest.find(']', i);
      if (close == std::string_view::npos) {
        out.append(rest.substr(i));
        break;
      }
      std::string_view inner = rest.substr(i + 1, close - i - 1);
      if (inner.size() >= 2 && (inner.front() == '\'' || inner.front() == '"'))
        inner = inner.substr(1, inner.size() - 2);
      if (!out.empty() && out.back() != '.') out += '.';
      out.append(inner);
      i = close;
    } else {
      out += c;
    }
  }
  return out;
}

std::vector<ModuleFrame> parse_nn_module_stack(std::string_view text) {
  std::vector<ModuleFrame> frames;
  if (trim(text).empty()) return frames;
  for (std::string_view item : split_top_level(text, ';')) {
    item = trim(item);
    if (item.empty()) continue;
    auto fields = split_top_level(item, ',');
    ModuleFrame f;
    f.key = std::string(trim(fields[0]));
    if (fields.size() >= 3) {
      // The type never contains a top-level comma; the path may, so it takes the middle.
      f.type = std::string(trim(fields.back()));
      const size_t path_begin = static_cast<size_t>(fields[1].data() - item.data());
      const size_t path_end = static_cast<size_t>(fields.back().data() - item.data()) - 1;
      f.path = normalize_module_path(item.substr(path_begin, path_end - path_begin));
    } else if (fields.size() == 2) {
      f.path = normalize_module_path(fields[1]);
    } else {
      f.path = normalize_module_path(f.key);
    }
    frames.push_back(std::move(f));
  }
  return frames;
}

std::vector<StackFrame> parse_stack_trace(std::string_view text) {
  std::vector<StackFrame> frames;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t eol = text.find('\n', pos);
    if (eol == std::string_view::npos) eol = text.size();
    std::string_view line = trim(text.substr(pos, eol - pos));
    pos = eol + 1;
    if (line.substr(0, 6) != "File \"") {
      // A code line belongs to the frame above it.
      if (!frames.empty() && frames.back().context.empty() && !line.empty())
        frames.back().context = std::string(line);
      continue;
    }
    StackFrame f;
    const size_t name_end = line.find('"', 6);
    if (name_end == std::string_view::npos) continue;
    f.file = std::string(line.substr(6, name_end - 6));
    std::string_view rest = line.substr(name_end + 1);
    if (auto at = rest.find("line "); at != std::string_view::npos) {
      const char* b = rest.data() + at + 5;
      std::from_chars(b, rest.data() + rest.size(), f.line);
    }
    if (auto at = rest.find(", in "); at != std::string_view::npos)
      f.function = std::string(trim(rest.substr(at + 5)));
    frames.push_back(std::move(f));
  }
  return frames;
}

std::vector<int64_t> parse_int_list(std::string_view text) {
  std::vector<int64_t> out;
  size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    if ((c >= '0' && c <= '9') ||
        (c == '-' && i + 1 < text.size() && text[i + 1] >= '0' && text[i + 1] <= '9')) {
      int64_t v = 0;
      auto [ptr, ec] = std::from_chars(text.data() + i, text.data() + text.size(), v);
      if (ec == std::errc()) out.push_back(v);
      size_t next = static_cast<size_t>(ptr - text.data());
      i = next > i ? next : i + 1;
      while (i < text.size() && text[i] >= '0' && text[i] <= '9') ++i;
    } else {
      ++i;
    }
  }
  return out;
}

}  // namespace etviz::torch_export
