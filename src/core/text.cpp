#include "core/text.h"

#include <cstdio>

namespace etviz {

bool is_bidi_control(char32_t c) {
  return c == 0x061C || c == 0x200E || c == 0x200F || (c >= 0x202A && c <= 0x202E) ||
         (c >= 0x2066 && c <= 0x2069);
}

namespace {

// Invisible characters that reorder or break the text around them: bidi controls and U+2028/
// U+2029 (line and paragraph separators). terminal_safe escapes them; invisible_as_references
// writes them as references.
bool is_invisible_control(char32_t c) {
  return is_bidi_control(c) || c == 0x2028 || c == 0x2029;
}

std::string hex(const char* form, unsigned value) {
  char buf[16];
  std::snprintf(buf, sizeof buf, form, value);
  return buf;
}

// Decodes one UTF-8 sequence at s[i]; returns its length (0: invalid) and the code point.
size_t decode(std::string_view s, size_t i, char32_t& c) {
  const auto b = static_cast<unsigned char>(s[i]);
  size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  c = n == 1 ? b : n == 2 ? (b & 0x1F) : n == 3 ? (b & 0x0F) : (b & 0x07);
  for (size_t k = 1; k < n; ++k) {
    const auto x = static_cast<unsigned char>(s[i + k]);
    if ((x & 0xC0) != 0x80) return 0;
    c = (c << 6) | (x & 0x3F);
  }
  // Overlong forms, surrogates and values past U+10FFFF are invalid.
  static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  if (c < kMin[n] || (c >= 0xD800 && c <= 0xDFFF) || c > 0x10FFFF) return 0;
  return n;
}

}  // namespace

std::string shown_text(std::string_view text, size_t max) {
  if (text.size() <= max) return std::string(text);
  size_t cut = max;
  // Back up over continuation bytes so the kept part ends on a whole character.
  while (cut > 0 && max - cut < 3 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  std::string out(text.substr(0, cut));
  out += "\u2026[+" + grouped_digits(text.size() - cut) + " bytes]";
  return out;
}

std::string grouped_digits(uint64_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (size_t k = 0; k < digits.size(); ++k) {
    if (k > 0 && (digits.size() - k) % 3 == 0) out += ',';
    out += digits[k];
  }
  return out;
}

std::string terminal_safe(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    char32_t c = 0;
    const size_t n = decode(text, i, c);
    if (n == 0) {
      out += hex("\\x%02x", static_cast<unsigned char>(text[i]));
      ++i;
      continue;
    }
    if ((c < 0x20 && c != '\n' && c != '\t') || c == 0x7F)
      out += hex("\\x%02x", static_cast<unsigned>(c));
    else if ((c >= 0x80 && c <= 0x9F) || is_invisible_control(c))
      out += hex("\\u%04x", static_cast<unsigned>(c));
    else
      out.append(text.substr(i, n));
    i += n;
  }
  return out;
}

std::string one_line(std::string_view text) {
  std::string out;
  const std::string safe = terminal_safe(text);
  out.reserve(safe.size());
  for (const char c : safe) {
    if (c == '\n')
      out += "\\n";
    else if (c == '\t')
      out += "\\t";
    else
      out += c;
  }
  return out;
}

std::string json_terminal_safe(std::string_view json) {
  std::string out;
  out.reserve(json.size());
  for (size_t i = 0; i < json.size();) {
    char32_t c = 0;
    const size_t n = decode(json, i, c);
    if (n == 0) {  // the JSON writer replaces invalid UTF-8; keep whatever else is there
      out += json[i++];
      continue;
    }
    if (is_bidi_control(c) || (c >= 0x80 && c <= 0x9F) || c == 0x7F)
      out += hex("\\u%04x", static_cast<unsigned>(c));
    else
      out.append(json.substr(i, n));
    i += n;
  }
  return out;
}

std::string printable_utf8(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  const auto* p = reinterpret_cast<const unsigned char*>(text.data());
  const size_t n = text.size();
  const char* kReplacement = "\xEF\xBF\xBD";
  for (size_t i = 0; i < n;) {
    const unsigned char c = p[i];
    if (c < 0x80) {
      if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7F)
        out += kReplacement;
      else
        out += static_cast<char>(c);
      ++i;
      continue;
    }
    // A well-formed sequence: no overlongs, surrogates or values past U+10FFFF.
    size_t len = 0;
    char32_t cp = 0;
    if (c >= 0xC2 && c <= 0xDF) {
      len = 2;
      cp = c & 0x1F;
    } else if (c >= 0xE0 && c <= 0xEF) {
      len = 3;
      cp = c & 0x0F;
    } else if (c >= 0xF0 && c <= 0xF4) {
      len = 4;
      cp = c & 0x07;
    }
    bool ok = len > 0 && i + len <= n;
    for (size_t k = 1; ok && k < len; ++k) {
      ok = (p[i + k] & 0xC0) == 0x80;
      cp = (cp << 6) | (p[i + k] & 0x3F);
    }
    ok = ok && !(len == 3 && cp < 0x800) && !(len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) &&
         !(cp >= 0xD800 && cp <= 0xDFFF) && cp != 0xFFFE && cp != 0xFFFF &&
         !(cp >= 0x80 && cp <= 0x9F);
    if (!ok) {
      out += kReplacement;
      ++i;
      continue;
    }
    out.append(text.substr(i, len));
    i += len;
  }
  return out;
}

std::string invisible_as_references(std::string_view valid) {
  std::string out;
  out.reserve(valid.size());
  for (size_t i = 0; i < valid.size();) {
    char32_t c = 0;
    const size_t n = decode(valid, i, c);
    if (n > 0 && is_invisible_control(c))
      out += hex("&#x%04X;", static_cast<unsigned>(c));
    else
      out.append(valid.substr(i, n > 0 ? n : 1));
    i += n > 0 ? n : 1;
  }
  return out;
}

std::string markup_escape(std::string_view text) {
  const std::string valid = printable_utf8(text);
  std::string out;
  out.reserve(valid.size());
  for (char c : valid) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return invisible_as_references(out);
}

}  // namespace etviz
