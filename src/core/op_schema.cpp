#include "core/op_schema.h"

#include <mutex>
#include <unordered_map>

namespace etviz {
namespace {

// The generated table: one schema per string, sorted by name. Pointers, not string_views: the
// lengths of 3,000 literals exceed clang's constant-evaluation step limit.
constexpr const char* kSchemas[] = {
#include "core/op_schemas.inc"
};

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// Walks `s` from `from`, past quoted strings (with their escapes), calling visit(i, depth) at
// every other character with the bracket depth after it (an opening bracket counts itself, a
// closing one does not); stops where visit returns true and returns that index, else npos.
template <class Visit>
size_t walk_unquoted(std::string_view s, size_t from, Visit visit) {
  int depth = 0;
  char quote = 0;
  for (size_t i = from; i < s.size(); ++i) {
    const char c = s[i];
    if (quote) {
      if (c == '\\')
        ++i;
      else if (c == quote)
        quote = 0;
      continue;
    }
    if (c == '"' || c == '\'') {
      quote = c;
      continue;
    }
    if (c == '(' || c == '[')
      ++depth;
    else if (c == ')' || c == ']')
      --depth;
    if (visit(i, depth)) return i;
  }
  return std::string_view::npos;
}

// Splits at `sep` where no bracket, parenthesis or quoted string is open.
std::vector<std::string_view> split_top(std::string_view s, char sep) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  walk_unquoted(s, 0, [&](size_t i, int depth) {
    if (s[i] == sep && depth == 0) {
      parts.push_back(s.substr(start, i - start));
      start = i + 1;
    }
    return false;
  });
  parts.push_back(s.substr(start));
  return parts;
}

// Index of the bracket closing the one at `open`, or npos.
size_t closing(std::string_view s, size_t open) {
  return walk_unquoted(
      s, open, [&](size_t i, int depth) { return (s[i] == ')' || s[i] == ']') && depth == 0; });
}

// "Tensor(a!) self", "int[2] stride=[]", "Tensor" (no name): type, name, default.
std::optional<OpArgument> parse_argument(std::string_view text, bool keyword_only) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  OpArgument a;
  a.keyword_only = keyword_only;
  if (auto eq = split_top(text, '='); eq.size() == 2) {
    a.default_value = std::string(trim(eq[1]));
    text = trim(eq[0]);
  } else if (eq.size() > 2) {
    return std::nullopt;
  }
  const auto words = split_top(text, ' ');
  std::string_view type = text;
  if (words.size() >= 2) {
    a.name = std::string(trim(words.back()));
    type = trim(text.substr(0, text.size() - words.back().size()));
  }
  if (type.empty()) return std::nullopt;
  a.type = std::string(type);
  a.writes = a.type.find('!') != std::string::npos;
  return a;
}

}  // namespace

std::optional<OpSchema> parse_op_schema(std::string_view text) {
  text = trim(text);
  const size_t open = text.find('(');
  if (open == std::string_view::npos || open == 0) return std::nullopt;
  const size_t close = closing(text, open);
  if (close == std::string_view::npos) return std::nullopt;
  OpSchema s;
  s.name = std::string(trim(text.substr(0, open)));
  s.text = std::string(text);
  const std::string_view args = trim(text.substr(open + 1, close - open - 1));
  bool keyword_only = false;
  if (!args.empty())
    for (std::string_view part : split_top(args, ',')) {
      if (trim(part) == "*") {
        keyword_only = true;
        continue;
      }
      auto a = parse_argument(part, keyword_only);
      if (!a) return std::nullopt;
      s.arguments.push_back(std::move(*a));
    }
  std::string_view rest = trim(text.substr(close + 1));
  if (rest.substr(0, 2) != "->") return std::nullopt;
  rest = trim(rest.substr(2));
  if (rest.empty()) return std::nullopt;
  if (rest.front() == '(' && closing(rest, 0) == rest.size() - 1) {
    const std::string_view inner = trim(rest.substr(1, rest.size() - 2));
    if (!inner.empty())
      for (std::string_view part : split_top(inner, ',')) {
        auto r = parse_argument(part, false);
        if (!r) return std::nullopt;
        s.returns.push_back(std::move(*r));
      }
  } else {
    auto r = parse_argument(rest, false);
    if (!r) return std::nullopt;
    s.returns.push_back(std::move(*r));
  }
  return s;
}

namespace {

struct Table {
  std::vector<OpSchema> schemas;
  std::unordered_map<std::string_view, size_t> by_name;
};

const Table& table() {
  static const Table parsed = [] {
    Table t;
    t.schemas.reserve(std::size(kSchemas));
    for (std::string_view text : kSchemas)
      if (auto s = parse_op_schema(text)) t.schemas.push_back(std::move(*s));
    for (size_t i = 0; i < t.schemas.size(); ++i) t.by_name.emplace(t.schemas[i].name, i);
    return t;
  }();
  return parsed;
}

}  // namespace

const OpSchema* find_op_schema(std::string_view name, std::string_view overload) {
  const Table& t = table();
  std::string key(name);
  if (!overload.empty()) {
    key += '.';
    key += overload;
  }
  if (auto it = t.by_name.find(key); it != t.by_name.end()) return &t.schemas[it->second];
  if (overload == "default")
    if (auto it = t.by_name.find(name); it != t.by_name.end()) return &t.schemas[it->second];
  return nullptr;
}

const OpSchema* find_op_schema(std::string_view qualified_name) {
  const size_t ns = qualified_name.rfind("::");
  const size_t dot = qualified_name.find('.', ns == std::string_view::npos ? 0 : ns + 2);
  if (dot == std::string_view::npos) return find_op_schema(qualified_name, "");
  return find_op_schema(qualified_name.substr(0, dot), qualified_name.substr(dot + 1));
}

namespace {

// The alias set of a type: "Tensor(a)" -> "a", "Tensor(b!)" -> "b", "Tensor" -> "".
std::string_view alias_set(std::string_view type) {
  const size_t open = type.find('(');
  if (open == std::string_view::npos) return {};
  const size_t close = type.find(')', open);
  if (close == std::string_view::npos) return {};
  std::string_view set = type.substr(open + 1, close - open - 1);
  if (!set.empty() && set.back() == '!') set.remove_suffix(1);
  if (const size_t arrow = set.find(" ->"); arrow != std::string_view::npos)
    set = set.substr(0, arrow);
  return set;
}

}  // namespace

bool returns_alias_of(const OpSchema& schema, size_t ret, size_t arg) {
  if (ret >= schema.returns.size() || arg >= schema.arguments.size()) return false;
  const std::string_view r = alias_set(schema.returns[ret].type);
  return !r.empty() && r == alias_set(schema.arguments[arg].type);
}

bool is_view_op(std::string_view qualified_name) {
  return qualified_name.substr(0, qualified_name.find('.')) == "executorch_prim::et_view";
}

size_t op_schema_count() {
  return table().schemas.size();
}

}  // namespace etviz
