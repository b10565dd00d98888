#pragma once
// A read-only JSON tree built in one pass over a buffer the caller keeps alive.
//
// Why not nlohmann::json: exported programs of LLMs run to tens of MB and the DOM of a general
// library allocates per value; this tree is one flat vector of 24-byte nodes whose strings and
// numbers stay as spans into the source until asked for. It also accepts what Python's json.dumps
// writes and strict JSON forbids (NaN, Infinity, -Infinity: attention masks use -inf), bounds the
// nesting depth, and reports errors with a byte offset instead of throwing.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/budget.h"
#include "core/status.h"

namespace etviz {

enum class JsonType : uint8_t { kNull, kBool, kNumber, kString, kArray, kObject };

class JsonTree;

// A handle to one value of a JsonTree: cheap to copy, valid while the tree lives.
class JsonRef {
 public:
  JsonRef() = default;
  JsonRef(const JsonTree* tree, uint32_t index) : tree_(tree), index_(index) {}

  bool valid() const { return tree_ != nullptr; }
  JsonType type() const;
  bool is_null() const { return !valid() || type() == JsonType::kNull; }
  bool is_object() const { return valid() && type() == JsonType::kObject; }
  bool is_array() const { return valid() && type() == JsonType::kArray; }
  bool is_string() const { return valid() && type() == JsonType::kString; }
  bool is_number() const { return valid() && type() == JsonType::kNumber; }
  bool is_bool() const { return valid() && type() == JsonType::kBool; }

  // Member by key (objects), or an invalid ref. Linear in the member count.
  JsonRef operator[](std::string_view key) const;
  // Element count of an array or member count of an object.
  uint32_t size() const;

  // Scalars; nullopt when the type does not match.
  std::optional<int64_t> as_int() const;    // integral numbers (and doubles that are integral)
  std::optional<double> as_double() const;  // numbers, incl. NaN/Infinity
  std::optional<bool> as_bool() const;
  std::optional<std::string> as_string() const;  // unescaped
  // Text of a string without unescaping when it has no escapes (fast path), else unescaped.
  std::string string_or(std::string_view fallback) const;

  // A string's body as written (escapes not decoded) and whether it holds escapes.
  std::string_view string_body() const;
  bool has_escapes() const;

  // The source text of this value, as written (for keeping unknown fields).
  std::string_view raw() const;
  // Key of this value when it is an object member.
  std::string key() const;
  std::string_view raw_key() const;

  // Iteration over children (array elements or object members, in source order).
  class Iterator {
   public:
    Iterator(const JsonTree* tree, uint32_t index) : tree_(tree), index_(index) {}
    JsonRef operator*() const { return JsonRef(tree_, index_); }
    Iterator& operator++();
    bool operator!=(const Iterator& o) const { return index_ != o.index_; }

   private:
    const JsonTree* tree_;
    uint32_t index_;
  };
  Iterator begin() const;
  Iterator end() const;

  uint32_t index() const { return index_; }

 private:
  const JsonTree* tree_ = nullptr;
  uint32_t index_ = 0;
};

// Append-only storage in 64K-element chunks: past the first chunk, growing never copies or
// moves elements, so a 100 MB document does not pay for reallocating (and faulting in) a 200 MB
// array twice. The first chunk grows as a vector does, so a small document costs what it holds,
// not 64K value-initialised elements (2.6 MB faulted in and cleared for every JSON member of
// every archive). Like a vector's, references do not survive emplace_back; indices do.
template <typename T>
class ChunkedVector {
 public:
  static constexpr uint32_t kShift = 16;
  static constexpr uint32_t kChunk = 1u << kShift;
  T& operator[](uint32_t i) { return chunks_[i >> kShift][i & (kChunk - 1)]; }
  const T& operator[](uint32_t i) const { return chunks_[i >> kShift][i & (kChunk - 1)]; }
  size_t size() const { return size_; }
  T& emplace_back() {
    if ((size_ & (kChunk - 1)) == 0) {
      chunks_.emplace_back();
      if (chunks_.size() > 1) chunks_.back().reserve(kChunk);
    }
    ++size_;
    return chunks_.back().emplace_back();
  }

 private:
  std::vector<std::vector<T>> chunks_;
  size_t size_ = 0;
};

// Defaults: the run's budget (core/budget.h).
struct JsonLimits {
  uint32_t max_depth = run_budget().json_depth;
  uint64_t max_string = run_budget().json_string;
};

class JsonTree {
 public:
  // Parses `text`, which must outlive the tree. Errors name the byte offset and what was expected.
  static Result<JsonTree> parse(std::string_view text, const JsonLimits& limits = {});

  JsonRef root() const { return JsonRef(this, 0); }
  size_t node_count() const { return nodes_.size(); }

  static constexpr uint32_t kNone = 0xffffffffu;
  struct Node {
    JsonType type = JsonType::kNull;
    bool escaped = false;  // string (or key) contains backslash escapes
    bool key_escaped = false;
    uint32_t key_offset = 0;  // into text, for object members
    uint32_t key_length = 0;
    uint32_t offset = 0;    // scalars: span of the text; containers: first child index
    uint32_t length = 0;    // scalars: span length; containers: child count
    uint32_t next = kNone;  // next sibling
    uint32_t start = 0;     // offset of the value's text (for raw())
    uint32_t raw_end = 0;   // end offset of the value's text
  };

 private:
  friend class JsonRef;
  friend class JsonParser;
  std::string_view text_;
  ChunkedVector<Node> nodes_;
};

// Unescapes the body of a JSON string (without quotes); invalid escapes become U+FFFD.
std::string json_unescape(std::string_view body);

}  // namespace etviz
