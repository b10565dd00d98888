#pragma once
// Boxed<T>: an optional T kept on the heap, so a rarely present field costs one pointer in the
// struct that holds it instead of sizeof(T). The graph IR holds millions of values and nodes
// (a 1M-op program: 2.2M values); a field that one value in a thousand has must not make every
// value bigger. The interface is std::optional's (a Boxed reads like one), and copies are deep:
// a copied Value owns its own Quantization, as it did with std::optional.
#include <algorithm>
#include <atomic>
#include <compare>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <iterator>
#include <memory>
#include <ostream>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

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

// What RareString and SharedString share: they read as a const std::string (the derived class
// gives str()), with std::string's const interface, comparisons and concatenation, so code
// written against std::string fields keeps working when a field becomes compact.
template <class D>
class StringReads {
 public:
  operator const std::string&() const { return s(); }  // NOLINT: reads as a string
  operator std::string_view() const { return s(); }    // NOLINT
  size_t size() const { return s().size(); }
  size_t length() const { return s().size(); }
  const char* c_str() const { return s().c_str(); }
  const char* data() const { return s().data(); }
  char front() const { return s().front(); }
  char back() const { return s().back(); }
  char operator[](size_t i) const { return s()[i]; }
  std::string::const_iterator begin() const { return s().begin(); }
  std::string::const_iterator end() const { return s().end(); }
  template <class... A>
  size_t find(A&&... a) const {
    return s().find(std::forward<A>(a)...);
  }
  template <class... A>
  size_t rfind(A&&... a) const {
    return s().rfind(std::forward<A>(a)...);
  }
  template <class... A>
  size_t find_first_of(A&&... a) const {
    return s().find_first_of(std::forward<A>(a)...);
  }
  template <class... A>
  size_t find_last_of(A&&... a) const {
    return s().find_last_of(std::forward<A>(a)...);
  }
  template <class... A>
  std::string substr(A&&... a) const {
    return s().substr(std::forward<A>(a)...);
  }
  template <class... A>
  int compare(A&&... a) const {
    return s().compare(std::forward<A>(a)...);
  }
  template <class A>
  bool starts_with(A&& a) const {
    return s().starts_with(std::forward<A>(a));
  }
  template <class A>
  bool ends_with(A&& a) const {
    return s().ends_with(std::forward<A>(a));
  }

  friend bool operator==(const D& a, const D& b) { return a.str() == b.str(); }
  friend bool operator==(const D& a, const std::string& b) { return a.str() == b; }
  friend bool operator==(const D& a, std::string_view b) { return a.str() == b; }
  friend bool operator==(const D& a, const char* b) { return a.str() == b; }
  // Through compare(): Emscripten's libc++ has no <=> for strings.
  friend std::strong_ordering operator<=>(const D& a, const D& b) {
    return a.str().compare(b.str()) <=> 0;
  }
  friend std::strong_ordering operator<=>(const D& a, std::string_view b) {
    return a.str().compare(b) <=> 0;
  }
  friend std::string operator+(const D& a, std::string_view b) { return cat(a.str(), b); }
  friend std::string operator+(const D& a, const std::string& b) { return a.str() + b; }
  friend std::string operator+(const D& a, const char* b) { return a.str() + b; }
  friend std::string operator+(const D& a, char b) { return a.str() + b; }
  friend std::string operator+(std::string_view a, const D& b) { return cat(a, b.str()); }
  friend std::string operator+(const std::string& a, const D& b) { return a + b.str(); }
  friend std::string operator+(std::string&& a, const D& b) { return std::move(a) + b.str(); }
  friend std::string operator+(const char* a, const D& b) { return a + b.str(); }
  friend std::string operator+(char a, const D& b) { return a + b.str(); }
  friend std::ostream& operator<<(std::ostream& os, const D& d) {
    return os.write(d.str().data(), static_cast<std::streamsize>(d.str().size()));
  }

 protected:
  // What an empty RareString or SharedString reads as (they hold nothing).
  static const std::string& empty_string() {
    static const std::string empty;
    return empty;
  }

 private:
  const std::string& s() const { return static_cast<const D&>(*this).str(); }
  static std::string cat(std::string_view a, std::string_view b) {
    std::string out;
    out.reserve(a.size() + b.size());
    out.append(a);
    out.append(b);
    return out;
  }
};

// A string that is empty almost always (a symbolic dimension's name: one dimension in millions
// has one): one pointer instead of std::string's 32 bytes. Reads as a const std::string&.
class RareString : public StringReads<RareString> {
 public:
  RareString() = default;
  RareString(std::string text) { assign(std::move(text)); }  // NOLINT: implicit, as std::string
  RareString(const char* text) : RareString(std::string(text)) {}  // NOLINT
  RareString& operator=(std::string text) {
    assign(std::move(text));
    return *this;
  }
  RareString& operator=(const char* text) { return *this = std::string(text); }

  RareString& operator=(std::string_view text) { return *this = std::string(text); }
  const std::string& str() const { return text_ ? *text_ : empty_string(); }
  bool empty() const { return !text_; }
  void clear() { text_.reset(); }

 private:
  void assign(std::string text) {
    if (text.empty())
      text_.reset();
    else
      text_ = std::move(text);
  }
  Boxed<std::string> text_;
};

// A string that many IR records hold the same text of: an operator's name on every call of it,
// a dtype on every tensor, an argument's schema name on every argument. One pointer (8 bytes,
// not std::string's 32 plus a heap copy per record) to an immutable, reference-counted text.
// Short texts are interned in one process-wide table, so a million calls of
// "aten::convolution.out" share one copy; the table is capped (entries and text length), so a
// hostile file with a million distinct names cannot grow it without bound: past the cap a
// text gets its own counted copy, freed with its last holder. Reads as a const std::string&
// (and a string_view); empty text holds nothing. Thread-safe.
class SharedString : public StringReads<SharedString> {
 public:
  SharedString() = default;
  SharedString(std::string_view text) : rep_(make(text)) {}  // NOLINT: implicit, as std::string
  SharedString(const std::string& text) : SharedString(std::string_view(text)) {}  // NOLINT
  SharedString(const char* text) : SharedString(std::string_view(text)) {}         // NOLINT
  SharedString(const SharedString& other) : rep_(other.rep_) { retain(rep_); }
  SharedString(SharedString&& other) noexcept : rep_(std::exchange(other.rep_, nullptr)) {}
  SharedString& operator=(const SharedString& other) {
    retain(other.rep_);
    release(std::exchange(rep_, other.rep_));
    return *this;
  }
  SharedString& operator=(SharedString&& other) noexcept {
    if (this != &other) release(std::exchange(rep_, std::exchange(other.rep_, nullptr)));
    return *this;
  }
  SharedString& operator=(std::string_view text) { return *this = SharedString(text); }
  SharedString& operator=(const std::string& text) { return *this = SharedString(text); }
  SharedString& operator=(const char* text) { return *this = SharedString(text); }
  ~SharedString() { release(rep_); }

  const std::string& str() const { return rep_ ? rep_->text : empty_string(); }
  bool empty() const { return !rep_; }
  void clear() { release(std::exchange(rep_, nullptr)); }
  // Texts in the process-wide table (for tests and the limits documentation).
  static size_t interned_count();
  static constexpr size_t kMaxInterned = 1 << 16;    // entries
  static constexpr size_t kMaxInternedLength = 256;  // bytes of one text

 private:
  struct Rep {
    std::atomic<uint32_t> refs;
    std::string text;
  };
  static Rep* make(std::string_view text);
  static void retain(Rep* rep) {
    if (rep) rep->refs.fetch_add(1, std::memory_order_relaxed);
  }
  static void release(Rep* rep) {
    if (rep && rep->refs.fetch_sub(1, std::memory_order_acq_rel) == 1) delete rep;
  }
  Rep* rep_ = nullptr;
};

// A vector of small trivially copyable items that usually holds a few (a value's consumers, a
// tensor's dim order, a node's debug handles): 16 bytes, with up to 8 bytes of items inline
// (two ids, eight dim-order bytes, one handle) and the rest on the heap, where std::vector
// costs 24 bytes plus a heap block for even one item. The interface is std::vector's, with
// pointers as iterators.
template <class T>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>, "SmallVector holds plain items");
  static constexpr uint32_t kInline = sizeof(T) <= 8 ? static_cast<uint32_t>(8 / sizeof(T)) : 0;

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;
  using size_type = size_t;

  SmallVector() = default;
  SmallVector(std::initializer_list<T> items) { assign(items.begin(), items.end()); }
  template <class It>
  SmallVector(It first, It last) {
    assign(first, last);
  }
  SmallVector(const std::vector<T>& items) { assign(items.begin(), items.end()); }  // NOLINT
  SmallVector(const SmallVector& other) { assign(other.begin(), other.end()); }
  SmallVector(SmallVector&& other) noexcept { steal(other); }
  SmallVector& operator=(const SmallVector& other) {
    if (this != &other) assign(other.begin(), other.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& other) noexcept {
    if (this != &other) {
      free_heap();
      steal(other);
    }
    return *this;
  }
  SmallVector& operator=(std::initializer_list<T> items) {
    assign(items.begin(), items.end());
    return *this;
  }
  ~SmallVector() { free_heap(); }

  T* data() { return on_heap() ? storage_.heap : reinterpret_cast<T*>(storage_.inline_bytes); }
  const T* data() const {
    return on_heap() ? storage_.heap : reinterpret_cast<const T*>(storage_.inline_bytes);
  }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return on_heap() ? capacity_ : kInline; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& front() { return data()[0]; }
  const T& front() const { return data()[0]; }
  T& back() { return data()[size_ - 1]; }
  const T& back() const { return data()[size_ - 1]; }

  void reserve(size_t n) {
    if (n <= capacity()) return;
    if (n > UINT32_MAX) throw std::length_error("SmallVector past 2^32 items");
    T* block = static_cast<T*>(::operator new(n * sizeof(T)));
    if (size_) std::memcpy(block, data(), size_ * sizeof(T));
    free_heap();
    storage_.heap = block;
    capacity_ = static_cast<uint32_t>(n);
  }
  void push_back(const T& item) {
    if (size_ == capacity()) {
      const T copy = item;  // item may live in this vector
      reserve(std::max<size_t>(capacity() * 2, 4));
      data()[size_++] = copy;
      return;
    }
    data()[size_++] = item;
  }
  template <class... A>
  T& emplace_back(A&&... a) {
    push_back(T{std::forward<A>(a)...});
    return back();
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }
  void resize(size_t n, const T& fill = T{}) {
    reserve(n);
    for (size_t i = size_; i < n; ++i) data()[i] = fill;
    size_ = static_cast<uint32_t>(n);
  }
  template <class It>
  void assign(It first, It last) {
    const auto n = static_cast<size_t>(std::distance(first, last));
    std::vector<T> staged;  // first..last may point into this vector
    if (n > capacity() && n > 0) staged.assign(first, last);
    clear();
    reserve(n);
    if (!staged.empty())
      std::copy(staged.begin(), staged.end(), data());
    else
      std::copy(first, last, data());
    size_ = static_cast<uint32_t>(n);
  }
  template <class It>
  T* insert(const T* pos, It first, It last) {
    const size_t at = static_cast<size_t>(pos - begin());
    std::vector<T> items(first, last);
    reserve(size_ + items.size());
    T* p = data() + at;
    std::memmove(p + items.size(), p, (size_ - at) * sizeof(T));
    std::copy(items.begin(), items.end(), p);
    size_ += static_cast<uint32_t>(items.size());
    return p;
  }
  T* insert(const T* pos, const T& item) { return insert(pos, &item, &item + 1); }
  T* erase(const T* first, const T* last) {
    T* f = begin() + (first - begin());
    const size_t n = static_cast<size_t>(last - first);
    std::memmove(f, f + n, static_cast<size_t>(end() - f - static_cast<ptrdiff_t>(n)) * sizeof(T));
    size_ -= static_cast<uint32_t>(n);
    return f;
  }
  T* erase(const T* pos) { return erase(pos, pos + 1); }
  operator std::vector<T>() const { return std::vector<T>(begin(), end()); }  // NOLINT
  friend bool operator==(const SmallVector& a, const SmallVector& b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end());
  }

 private:
  bool on_heap() const { return capacity_ > kInline; }
  void free_heap() {
    if (on_heap()) ::operator delete(storage_.heap);
    capacity_ = 0;
  }
  void steal(SmallVector& other) {
    storage_ = other.storage_;
    size_ = other.size_;
    capacity_ = other.capacity_;
    other.size_ = 0;
    other.capacity_ = 0;
  }
  union Storage {
    T* heap;
    alignas(T) unsigned char inline_bytes[8];
  } storage_{};
  uint32_t size_ = 0;
  uint32_t capacity_ = 0;  // 0 while the items are inline
};

// A vector that is empty almost always (a node's attributes, a provenance's stack frames in a
// program without an ETRecord): one pointer, null when empty. std::vector's interface.
template <class T>
class RareVector {
 public:
  using value_type = T;
  using iterator = typename std::vector<T>::iterator;
  using const_iterator = typename std::vector<T>::const_iterator;
  using size_type = size_t;

  RareVector() = default;
  RareVector(std::initializer_list<T> items) { *this = std::vector<T>(items); }
  RareVector(std::vector<T> items) { *this = std::move(items); }  // NOLINT: implicit, as vector
  RareVector& operator=(std::vector<T> items) {
    if (items.empty())
      items_.reset();
    else
      items_ = std::move(items);
    return *this;
  }

  const std::vector<T>& vec() const { return items_ ? *items_ : empty_vector(); }
  operator const std::vector<T>&() const { return vec(); }  // NOLINT: reads as a vector
  size_t size() const { return items_ ? items_->size() : 0; }
  bool empty() const { return size() == 0; }
  const_iterator begin() const { return vec().begin(); }
  const_iterator end() const { return vec().end(); }
  iterator begin() { return items_ ? items_->begin() : iterator(); }
  iterator end() { return items_ ? items_->end() : iterator(); }
  const T& operator[](size_t i) const { return (*items_)[i]; }
  T& operator[](size_t i) { return (*items_)[i]; }
  const T& front() const { return items_->front(); }
  const T& back() const { return items_->back(); }
  T& front() { return items_->front(); }
  T& back() { return items_->back(); }
  void push_back(T item) { own().push_back(std::move(item)); }
  template <class... A>
  T& emplace_back(A&&... a) {
    return own().emplace_back(std::forward<A>(a)...);
  }
  void reserve(size_t n) {
    if (n) own().reserve(n);
  }
  void clear() { items_.reset(); }
  template <class It>
  void assign(It first, It last) {
    *this = std::vector<T>(first, last);
  }
  template <class It>
  void insert(const_iterator pos, It first, It last) {
    const auto at = pos - begin();
    own().insert(items_->begin() + at, first, last);
  }
  friend bool operator==(const RareVector& a, const RareVector& b) { return a.vec() == b.vec(); }

 private:
  std::vector<T>& own() {
    if (!items_) items_.emplace();
    return *items_;
  }
  static const std::vector<T>& empty_vector() {
    static const std::vector<T> empty;
    return empty;
  }
  Boxed<std::vector<T>> items_;
};

}  // namespace etviz
