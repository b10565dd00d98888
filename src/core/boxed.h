#pragma once
// Boxed<T>: an optional T kept on the heap, so a rarely present field costs one pointer in the
// struct that holds it instead of sizeof(T). The graph IR holds millions of values and nodes
// (a 1M-op program: 2.2M values); a field that one value in a thousand has must not make every
// value bigger. The interface is std::optional's (a Boxed reads like one), and copies are deep:
// a copied Value owns its own Quantization, as it did with std::optional.
#include <memory>
#include <string>
#include <string_view>
#include <utility>

namespace etviz {

template <class T>
class Boxed {
 public:
  Boxed() = default;
  Boxed(T value) : ptr_(std::make_unique<T>(std::move(value))) {}  // NOLINT: implicit, as optional
  Boxed(const Boxed& other) : ptr_(other.ptr_ ? std::make_unique<T>(*other.ptr_) : nullptr) {}
  Boxed(Boxed&&) noexcept = default;
  Boxed& operator=(const Boxed& other) {
    if (this != &other) ptr_ = other.ptr_ ? std::make_unique<T>(*other.ptr_) : nullptr;
    return *this;
  }
  Boxed& operator=(Boxed&&) noexcept = default;
  Boxed& operator=(T value) {
    ptr_ = std::make_unique<T>(std::move(value));
    return *this;
  }

  bool has_value() const { return ptr_ != nullptr; }
  explicit operator bool() const { return has_value(); }
  T& operator*() { return *ptr_; }
  const T& operator*() const { return *ptr_; }
  T* operator->() { return ptr_.get(); }
  const T* operator->() const { return ptr_.get(); }
  // The held value, or nullptr: for callers that take an optional pointer.
  const T* get() const { return ptr_.get(); }
  template <class... Args>
  T& emplace(Args&&... args) {
    ptr_ = std::make_unique<T>(std::forward<Args>(args)...);
    return *ptr_;
  }
  void reset() { ptr_.reset(); }

 private:
  std::unique_ptr<T> ptr_;
};

// A string that is empty almost always (a symbolic dimension's name: one dimension in millions
// has one): one pointer instead of std::string's 32 bytes. Reads as a const std::string&.
class RareString {
 public:
  RareString() = default;
  RareString(std::string text) { assign(std::move(text)); }  // NOLINT: implicit, as std::string
  RareString(const char* text) : RareString(std::string(text)) {}  // NOLINT
  RareString& operator=(std::string text) {
    assign(std::move(text));
    return *this;
  }
  RareString& operator=(const char* text) { return *this = std::string(text); }

  const std::string& str() const { return text_ ? *text_ : empty_string(); }
  operator const std::string&() const { return str(); }  // NOLINT: reads as a string
  bool empty() const { return !text_; }
  size_t size() const { return str().size(); }
  void clear() { text_.reset(); }
  bool operator==(const RareString& other) const { return str() == other.str(); }
  bool operator==(std::string_view other) const { return str() == other; }

 private:
  static const std::string& empty_string() {
    static const std::string empty;
    return empty;
  }
  void assign(std::string text) {
    if (text.empty())
      text_.reset();
    else
      text_ = std::move(text);
  }
  Boxed<std::string> text_;
};

}  // namespace etviz
