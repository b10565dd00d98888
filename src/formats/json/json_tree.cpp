#include "formats/json/json_tree.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <limits>

#include "core/number_text.h"
namespace etviz {

class JsonParser {
 public:
  JsonParser(std::string_view text, const JsonLimits& limits, ChunkedVector<JsonTree::Node>& nodes)
      : p_(text.data()),
        begin_(text.data()),
        end_(text.data() + text.size()),
        limits_(limits),
        nodes_(nodes) {}

  Status run() {
    skip_ws();
    if (auto s = value(0, 0, 0, false); !s) return s;
    skip_ws();
    if (p_ != end_) return fail("end of input after the top-level value");
    return Status::Ok();
  }

 private:
  const char* p_;
  const char* begin_;
  const char* end_;
  JsonLimits limits_;
  ChunkedVector<JsonTree::Node>& nodes_;

  Error fail(std::string_view expected) const {
    const auto at = static_cast<size_t>(p_ - begin_);
    if (p_ >= end_)
      return Error(fmt::format("JSON ends early at byte {}: expected {}", at, expected));
    const char c = *p_;
    const std::string shown = (c >= 0x20 && c < 0x7f)
                                  ? fmt::format("'{}'", c)
                                  : fmt::format("byte 0x{:02x}", static_cast<uint8_t>(c));
    return Error(
        fmt::format("JSON syntax error at byte {}: expected {}, found {}", at, expected, shown));
  }

  void skip_ws() {
    while (p_ < end_ && (*p_ == ' ' || *p_ == '\n' || *p_ == '\r' || *p_ == '\t')) ++p_;
  }

  uint32_t offset() const { return static_cast<uint32_t>(p_ - begin_); }

  // Scans a string body starting after the opening quote; leaves p_ after the closing quote.
  Status string_body(uint32_t& off, uint32_t& len, bool& escaped) {
    off = offset();
    escaped = false;
    const char* s = p_;
    for (;;) {
      // Fast scan for the next quote or backslash.
      while (s < end_ && *s != '"' && *s != '\\') {
        if (static_cast<unsigned char>(*s) < 0x20) {
          p_ = s;
          return fail("a string without raw control characters");
        }
        ++s;
      }
      if (s >= end_) {
        p_ = s;
        return fail("closing '\"' of a string");
      }
      if (*s == '"') break;
      escaped = true;
      s += 2;  // skip the escaped character; \uXXXX digits are plain characters here
      if (s > end_) {
        p_ = end_;
        return fail("an escape sequence");
      }
    }
    len = static_cast<uint32_t>(s - begin_) - off;
    if (len > limits_.max_string) {
      p_ = begin_ + off;
      return over_budget(fmt::format("the JSON string at byte {}", off), len, limits_.max_string,
                         "--max-json-string", true);
    }
    p_ = s + 1;
    return Status::Ok();
  }

  bool literal(const char* word) {
    const size_t n = std::strlen(word);
    if (static_cast<size_t>(end_ - p_) < n || std::memcmp(p_, word, n) != 0) return false;
    p_ += n;
    return true;
  }

  Status value(uint32_t depth, uint32_t key_off, uint32_t key_len, bool key_escaped) {
    if (depth > limits_.max_depth)
      return fail(fmt::format("nesting of at most {} levels (raise it with --max-json-depth)",
                              limits_.max_depth));
    if (p_ >= end_) return fail("a value");
    const auto index = static_cast<uint32_t>(nodes_.size());
    if (index == JsonTree::kNone) return fail("fewer values");
    {
      auto& n = nodes_.emplace_back();
      n.key_offset = key_off;
      n.key_length = key_len;
      n.key_escaped = key_escaped;
    }
    const uint32_t start = offset();
    const char c = *p_;
    if (c == '{' || c == '[') {
      const bool object = c == '{';
      nodes_[index].type = object ? JsonType::kObject : JsonType::kArray;
      ++p_;
      skip_ws();
      uint32_t count = 0;
      uint32_t prev = JsonTree::kNone;
      const char close = object ? '}' : ']';
      if (p_ < end_ && *p_ == close) {
        ++p_;
      } else {
        for (;;) {
          uint32_t koff = 0, klen = 0;
          bool kesc = false;
          if (object) {
            if (p_ >= end_ || *p_ != '"') return fail("'\"' starting an object key");
            ++p_;
            if (auto s = string_body(koff, klen, kesc); !s) return s;
            skip_ws();
            if (p_ >= end_ || *p_ != ':') return fail("':' after an object key");
            ++p_;
            skip_ws();
          }
          const auto child = static_cast<uint32_t>(nodes_.size());
          if (auto s = value(depth + 1, koff, klen, kesc); !s) return s;
          if (prev == JsonTree::kNone) {
            nodes_[index].offset = child;
          } else {
            nodes_[prev].next = child;
          }
          prev = child;
          ++count;
          skip_ws();
          if (p_ < end_ && *p_ == ',') {
            ++p_;
            skip_ws();
            continue;
          }
          if (p_ < end_ && *p_ == close) {
            ++p_;
            break;
          }
          return fail(object ? "',' or '}' in an object" : "',' or ']' in an array");
        }
      }
      nodes_[index].length = count;
      if (count == 0) nodes_[index].offset = JsonTree::kNone;
    } else if (c == '"') {
      ++p_;
      uint32_t off = 0, len = 0;
      bool esc = false;
      if (auto s = string_body(off, len, esc); !s) return s;
      auto& n = nodes_[index];
      n.type = JsonType::kString;
      n.offset = off;
      n.length = len;
      n.escaped = esc;
    } else if (c == 't' || c == 'f') {
      if (!literal(c == 't' ? "true" : "false")) return fail("true or false");
      auto& n = nodes_[index];
      n.type = JsonType::kBool;
      n.offset = start;
      n.length = offset() - start;
    } else if (c == 'n') {
      if (!literal("null")) return fail("null");
      nodes_[index].type = JsonType::kNull;
    } else if (c == 'N' || c == 'I' || c == '-' || (c >= '0' && c <= '9')) {
      // Python writes NaN, Infinity and -Infinity for non-finite floats.
      if (!literal("NaN") && !literal("Infinity") && !literal("-Infinity")) {
        if (*p_ == '-') ++p_;
        const char* digits = p_;
        while (p_ < end_ && ((*p_ >= '0' && *p_ <= '9') || *p_ == '.' || *p_ == 'e' || *p_ == 'E' ||
                             *p_ == '+' || *p_ == '-'))
          ++p_;
        if (p_ == digits) return fail("a number");
      }
      auto& n = nodes_[index];
      n.type = JsonType::kNumber;
      n.offset = start;
      n.length = offset() - start;
    } else {
      return fail("a value (object, array, string, number, true, false or null)");
    }
    nodes_[index].start = start;
    nodes_[index].raw_end = offset();
    return Status::Ok();
  }
};

Result<JsonTree> JsonTree::parse(std::string_view text, const JsonLimits& limits) {
  if (text.size() >= std::numeric_limits<uint32_t>::max())
    return Error(fmt::format("JSON text of {} bytes is larger than the 4 GiB this reader handles",
                             text.size()));
  JsonTree tree;
  tree.text_ = text;
  JsonParser parser(text, limits, tree.nodes_);
  if (auto s = parser.run(); !s) return s.error();
  return tree;
}

namespace {
void append_utf8(std::string& out, uint32_t cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xc0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xe0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  } else {
    out += static_cast<char>(0xf0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3f));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3f));
    out += static_cast<char>(0x80 | (cp & 0x3f));
  }
}

std::optional<uint32_t> hex4(std::string_view s, size_t at) {
  if (at + 4 > s.size()) return std::nullopt;
  uint32_t v = 0;
  for (size_t i = at; i < at + 4; ++i) {
    const char c = s[i];
    v <<= 4;
    if (c >= '0' && c <= '9')
      v |= static_cast<uint32_t>(c - '0');
    else if (c >= 'a' && c <= 'f')
      v |= static_cast<uint32_t>(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F')
      v |= static_cast<uint32_t>(c - 'A' + 10);
    else
      return std::nullopt;
  }
  return v;
}
}  // namespace

std::string json_unescape(std::string_view body) {
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    // Copy the run up to the next backslash in one go.
    const size_t next = body.find('\\', i);
    if (next == std::string_view::npos) {
      out.append(body.substr(i));
      break;
    }
    out.append(body.substr(i, next - i));
    i = next;
    if (i + 1 >= body.size()) {
      out += '\\';
      continue;
    }
    const char e = body[++i];
    switch (e) {
      case '"':
        out += '"';
        break;
      case '\\':
        out += '\\';
        break;
      case '/':
        out += '/';
        break;
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u': {
        auto cp = hex4(body, i + 1);
        if (!cp) {
          append_utf8(out, 0xfffd);
          break;
        }
        i += 4;
        uint32_t code = *cp;
        if (code >= 0xd800 && code < 0xdc00 && i + 2 < body.size() && body[i + 1] == '\\' &&
            body[i + 2] == 'u') {
          if (auto lo = hex4(body, i + 3); lo && *lo >= 0xdc00 && *lo < 0xe000) {
            code = 0x10000 + ((code - 0xd800) << 10) + (*lo - 0xdc00);
            i += 6;
          }
        }
        if (code >= 0xd800 && code < 0xe000) code = 0xfffd;
        append_utf8(out, code);
        break;
      }
      default:
        append_utf8(out, 0xfffd);
        break;
    }
  }
  return out;
}

// ---- JsonRef ----

JsonType JsonRef::type() const {
  return tree_->nodes_[index_].type;
}

uint32_t JsonRef::size() const {
  if (!valid()) return 0;
  const auto& n = tree_->nodes_[index_];
  return (n.type == JsonType::kArray || n.type == JsonType::kObject) ? n.length : 0;
}

JsonRef::Iterator JsonRef::begin() const {
  if (size() == 0) return end();
  return Iterator(tree_, tree_->nodes_[index_].offset);
}
JsonRef::Iterator JsonRef::end() const {
  return Iterator(tree_, JsonTree::kNone);
}
JsonRef::Iterator& JsonRef::Iterator::operator++() {
  index_ = tree_->nodes_[index_].next;
  return *this;
}

std::string_view JsonRef::raw_key() const {
  const auto& n = tree_->nodes_[index_];
  return tree_->text_.substr(n.key_offset, n.key_length);
}

std::string JsonRef::key() const {
  if (!valid()) return {};
  const auto& n = tree_->nodes_[index_];
  return n.key_escaped ? json_unescape(raw_key()) : std::string(raw_key());
}

JsonRef JsonRef::operator[](std::string_view key) const {
  if (!is_object()) return {};
  for (JsonRef member : *this) {
    const auto& n = tree_->nodes_[member.index_];
    if (!n.key_escaped ? member.raw_key() == key : member.key() == key) return member;
  }
  return {};
}

std::optional<bool> JsonRef::as_bool() const {
  if (!is_bool()) return std::nullopt;
  return tree_->text_[tree_->nodes_[index_].offset] == 't';
}

std::optional<double> JsonRef::as_double() const {
  if (!is_number()) return std::nullopt;
  const auto& n = tree_->nodes_[index_];
  const std::string_view s = tree_->text_.substr(n.offset, n.length);
  if (s == "NaN") return std::numeric_limits<double>::quiet_NaN();
  if (s == "Infinity") return std::numeric_limits<double>::infinity();
  if (s == "-Infinity") return -std::numeric_limits<double>::infinity();
  // Out of range reads as 0 (what from_chars leaves), in every build.
  double v = 0;
  if (parse_double(s, v) == NumberText::kInvalid) return std::nullopt;
  return v;
}

std::optional<int64_t> JsonRef::as_int() const {
  if (!is_number()) return std::nullopt;
  const auto& n = tree_->nodes_[index_];
  const std::string_view s = tree_->text_.substr(n.offset, n.length);
  int64_t v = 0;
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc() && ptr == s.data() + s.size()) return v;
  auto d = as_double();
  if (d && std::isfinite(*d) && std::floor(*d) == *d && std::fabs(*d) < 9.2e18)
    return static_cast<int64_t>(*d);
  return std::nullopt;
}

std::optional<std::string> JsonRef::as_string() const {
  if (!is_string()) return std::nullopt;
  const auto& n = tree_->nodes_[index_];
  const std::string_view body = tree_->text_.substr(n.offset, n.length);
  return n.escaped ? json_unescape(body) : std::string(body);
}

std::string_view JsonRef::string_body() const {
  if (!is_string()) return {};
  const auto& n = tree_->nodes_[index_];
  return tree_->text_.substr(n.offset, n.length);
}

bool JsonRef::has_escapes() const {
  return is_string() && tree_->nodes_[index_].escaped;
}

std::string JsonRef::string_or(std::string_view fallback) const {
  auto s = as_string();
  return s ? std::move(*s) : std::string(fallback);
}

std::string_view JsonRef::raw() const {
  if (!valid()) return {};
  const auto& n = tree_->nodes_[index_];
  return tree_->text_.substr(n.start, n.raw_end - n.start);
}

}  // namespace etviz
