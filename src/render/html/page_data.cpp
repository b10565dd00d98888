#include "render/html/page_data.h"

#include <fmt/format.h>
#ifndef ETVIZ_NO_ZLIB
#include <zlib.h>
#endif

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <optional>
#include <unordered_map>

#include "analysis/delegation.h"
#include "core/text.h"
#include "formats/json/json_string.h"
#include "layout/route_sharing.h"
#include "layout/viewer_form.h"

namespace etviz::render::html {
namespace {

// The columns of a page as one gzip stream, compressed as they are written so the
// uncompressed bytes (hundreds of MiB at a million nodes) never exist at once. The app's
// WebAssembly build has no zlib (docs/app.md): there the columns are kept as they are, and
// the page takes them as bytes from its worker (EncodedPageData::raw_columns).
class ColumnSink {
 public:
  ColumnSink() {
    // Level 1: at a million nodes the columns are ~0.5 GiB; level 1 takes a third of level
    // 3's time for ~10% more bytes, and the page is read once.
#ifndef ETVIZ_NO_ZLIB
    ok_ = deflateInit2(&zs_, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) == Z_OK;
#else
    ok_ = true;
#endif
  }
  ~ColumnSink() {
#ifndef ETVIZ_NO_ZLIB
    deflateEnd(&zs_);
#endif
  }
  ColumnSink(const ColumnSink&) = delete;
  ColumnSink& operator=(const ColumnSink&) = delete;

  // Appends one column; returns its index in the directory.
  size_t add(const char* type, uint64_t count, const void* data, size_t bytes) {
    directory_.push_back({type, count, bytes});
    raw_bytes_ += bytes;
    if (bytes > largest_) largest_ = bytes;
    feed(data, bytes, false);
    return directory_.size() - 1;
  }
  Status finish() {
    feed(nullptr, 0, true);
    if (!ok_) return Error("compressing the page data failed (zlib)");
    return {};
  }
  struct Column {
    const char* type;
    uint64_t count;
    uint64_t bytes;
  };
  const std::vector<Column>& directory() const {
    return directory_;
  }
  uint64_t raw_bytes() const {
    return raw_bytes_;
  }
  uint64_t largest() const {
    return largest_;
  }
  // The whole stream, sized exactly; each chunk is given back as it is copied.
  std::string take() {
    std::string all;
    all.reserve(size_);
    for (std::string& c : chunks_) {
      all += c;
      std::string().swap(c);
    }
    chunks_.clear();
    size_ = 0;
    return all;
  }

 private:
  void feed(const void* data, size_t bytes, bool last) {
    if (!ok_) return;
#ifndef ETVIZ_NO_ZLIB
    const int flush = last ? Z_FINISH : Z_NO_FLUSH;
    zs_.next_in = static_cast<Bytef*>(const_cast<void*>(data));
    zs_.avail_in = static_cast<uInt>(bytes);
    // deflate takes at most uInt bytes at a time; columns stay far below (kMaxPageColumnBytes).
    for (;;) {
      char buf[1 << 16];
      zs_.next_out = reinterpret_cast<Bytef*>(buf);
      zs_.avail_out = sizeof buf;
      const int rc = deflate(&zs_, flush);
      if (rc == Z_STREAM_ERROR) {
        ok_ = false;
        return;
      }
      append(buf, sizeof buf - zs_.avail_out);
      if (flush == Z_FINISH ? rc == Z_STREAM_END : zs_.avail_in == 0 && zs_.avail_out != 0) return;
    }
#else
    (void)last;
    append(static_cast<const char*>(data), bytes);
#endif
  }
  // Output in fixed chunks: one string grown by doubling held up to twice the stream (and both
  // copies while it moved), ~100 MiB at a million nodes while every column was still alive.
  static constexpr size_t kChunk = size_t{4} << 20;
  void append(const char* data, size_t bytes) {
    size_ += bytes;
    while (bytes > 0) {
      if (chunks_.empty() || chunks_.back().size() == kChunk) {
        chunks_.emplace_back();
        chunks_.back().reserve(kChunk);
      }
      std::string& c = chunks_.back();
      const size_t n = std::min(bytes, kChunk - c.size());
      c.append(data, n);
      data += n;
      bytes -= n;
    }
  }
#ifndef ETVIZ_NO_ZLIB
  z_stream zs_{};
#endif
  bool ok_ = false;
  std::vector<std::string> chunks_;
  size_t size_ = 0;
  std::vector<Column> directory_;
  uint64_t raw_bytes_ = 0;
  uint64_t largest_ = 0;
};

// The page's string table: each distinct text once, numbered in first-use order. A million-node
// page holds millions of distinct texts (node names, value names, labels); kept in fixed-size
// blocks (no doubling arena) with an open-addressed index of ids, a text costs its bytes plus
// ~24, where a std::unordered_map<std::string, int> cost ~80 (node, key object, bucket, copy).
class StringTable {
 public:
  int32_t id(std::string_view s) {
    if ((texts_.size() + 1) * 2 > slots_.size()) grow();
    const size_t mask = slots_.size() - 1;
    for (size_t i = std::hash<std::string_view>{}(s)&mask;; i = (i + 1) & mask) {
      const int32_t slot = slots_[i];
      if (slot < 0) {
        slots_[i] = static_cast<int32_t>(texts_.size());
        texts_.push_back(store(s));
        return slots_[i];
      }
      if (texts_[static_cast<size_t>(slot)] == s) return slot;
    }
  }
  size_t size() const { return texts_.size(); }
  std::string_view text(int32_t id) const { return texts_[static_cast<size_t>(id)]; }

 private:
  static constexpr size_t kBlock = size_t{1} << 20;
  std::string_view store(std::string_view s) {
    if (s.empty()) return {};
    if (s.size() > kBlock / 4) {  // a long text gets a block of its own
      blocks_.push_back(std::make_unique<char[]>(s.size()));
      std::memcpy(blocks_.back().get(), s.data(), s.size());
      return {blocks_.back().get(), s.size()};
    }
    if (blocks_.empty() || used_ + s.size() > kBlock) {
      blocks_.push_back(std::make_unique<char[]>(kBlock));
      current_ = blocks_.back().get();
      used_ = 0;
    }
    char* at = current_ + used_;
    std::memcpy(at, s.data(), s.size());
    used_ += s.size();
    return {at, s.size()};
  }
  void grow() {
    std::vector<int32_t> slots(std::max<size_t>(64, slots_.size() * 2), -1);
    const size_t mask = slots.size() - 1;
    for (size_t k = 0; k < texts_.size(); ++k) {
      size_t i = std::hash<std::string_view>{}(texts_[k]) & mask;
      while (slots[i] >= 0) i = (i + 1) & mask;
      slots[i] = static_cast<int32_t>(k);
    }
    slots_ = std::move(slots);
  }
  std::vector<std::unique_ptr<char[]>> blocks_;
  char* current_ = nullptr;  // the block short texts are appended to
  size_t used_ = 0;          // bytes of it in use
  std::vector<std::string_view> texts_;
  std::vector<int32_t> slots_;  // open addressing, -1 empty; size a power of two
};

class Writer {
 public:
  std::string out;
  // Null: every column is written into `out` as a JSON array.
  ColumnSink* sink = nullptr;

  int32_t sid(std::string_view s) { return strings_.id(s); }
  int32_t sid_or_none(std::string_view s) { return s.empty() ? -1 : sid(s); }

  void key(const char* k) {
    comma();
    out += '"';
    out += k;
    out += "\":";
    first_ = true;
  }
  void open(char c) {
    comma();
    out += c;
    first_ = true;
  }
  void close(char c) {
    out += c;
    first_ = false;
  }
  void str(std::string_view s) {
    comma();
    append_json_string(out, s.size() > kMaxShownText ? shown_text(s) : s);
  }
  // Numbers are most of a page's data (100k nodes: tens of millions of digits), so they are
  // formatted in place with to_chars instead of through temporary strings.
  void num(int64_t v) {
    if (capturing_) {
      if (ints_.empty() && ints_.capacity() < column_size_) ints_.reserve(column_size_);
      ints_.push_back(v);
      return;
    }
    comma();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
  }
  void real(double v) {
    if (capturing_) {
      if (reals_.empty() && reals_.capacity() < column_size_) reals_.reserve(column_size_);
      reals_.push_back(layout::round_tenth(v));
      return;
    }
    comma();
    const double r = layout::round_tenth(v);
    char buf[64];
#if defined(__cpp_lib_to_chars)
    const auto res = r == std::floor(r) && std::fabs(r) < 1e15
                         ? std::to_chars(buf, buf + sizeof buf, static_cast<int64_t>(r))
                         : std::to_chars(buf, buf + sizeof buf, r, std::chars_format::fixed, 1);
    out.append(buf, res.ec == std::errc() ? res.ptr : buf);
#else
    // Emscripten's libc++ (the app's WebAssembly build, docs/app.md) has no floating-point
    // to_chars; fmt writes the same correctly rounded digits.
    if (r == std::floor(r) && std::fabs(r) < 1e15)
      out.append(buf, std::to_chars(buf, buf + sizeof buf, static_cast<int64_t>(r)).ptr);
    else
      fmt::format_to(std::back_inserter(out), "{:.1f}", r);
#endif
  }
  // Shortest text that reads back as the same double (for values the page hands back to C++).
  void exact(double v) {
    comma();
#if defined(__cpp_lib_to_chars)
    char buf[64];
    const auto res = std::to_chars(buf, buf + sizeof buf, std::isfinite(v) ? v : 0.0);
    out.append(buf, res.ec == std::errc() ? res.ptr : buf);
#else
    fmt::format_to(std::back_inserter(out), "{}", std::isfinite(v) ? v : 0.0);
#endif
  }
  void boolean(bool b) {
    comma();
    out += b ? "true" : "false";
  }
  template <typename Items, typename F>
  void array(const char* k, Items&& items, F&& each) {
    key(k);
    open('[');
    for (auto& item : items) each(item);
    close(']');
  }
  // A column of numbers (each item gives one num() or real()): a JSON array, or with a sink
  // a reference to a typed array. Integers that all fit go as int32, reals rounded to a
  // tenth as int32 tenths when they all fit, anything else as float64.
  template <typename T, typename F>
  void column(const char* k, const std::vector<T>& items, F&& each) {
    if (!sink) return array(k, items, std::forward<F>(each));
    key(k);
    ints_.clear();
    reals_.clear();
    // The first value reserves exactly the column's size (the buffers are reused: their
    // capacity is then the largest column, not up to twice it after doubling).
    column_size_ = items.size();
    capturing_ = true;
    for (const T& item : items) each(item);
    capturing_ = false;
    size_t id = 0;
    if (!reals_.empty()) {
      tenths_.clear();
      tenths_.reserve(reals_.size());
      bool fits = true;
      for (double r : reals_) {
        const double t = std::round(r * 10);
        if (!(std::fabs(t) < 2147483647.0) || t / 10 != r) {
          fits = false;
          break;
        }
        tenths_.push_back(static_cast<int32_t>(t));
      }
      id = fits ? sink->add("t32", reals_.size(), tenths_.data(), tenths_.size() * 4)
                : sink->add("f64", reals_.size(), reals_.data(), reals_.size() * 8);
    } else {
      const bool fits = std::all_of(ints_.begin(), ints_.end(), [](int64_t v) {
        return v >= std::numeric_limits<int32_t>::min() && v <= std::numeric_limits<int32_t>::max();
      });
      if (fits) {
        tenths_.assign(ints_.begin(), ints_.end());
        id = sink->add("i32", ints_.size(), tenths_.data(), tenths_.size() * 4);
      } else {
        reals_.assign(ints_.begin(), ints_.end());
        id = sink->add("f64", ints_.size(), reals_.data(), reals_.size() * 8);
      }
    }
    out += "{\"$col\":";
    out += std::to_string(id);
    out += '}';
    first_ = false;
  }
  void pairs(const char* k, const std::vector<Attribute>& attrs) {
    key(k);
    open('[');
    for (const auto& a : attrs) {
      open('[');
      str(a.name);
      str(a.value);
      close(']');
    }
    close(']');
  }
  // With a sink, the table goes in chunks of JSON text (kPageStringChunk each), each parsed
  // on its own in the page, so no one JavaScript string holds the whole table.
  void string_table() {
    key("strings");
    if (!sink) {
      open('[');
      for (size_t k = 0; k < strings_.size(); ++k) str(strings_.text(static_cast<int32_t>(k)));
      close(']');
      return;
    }
    std::string chunk;
    std::vector<size_t> ids;
    auto flush = [&] {
      chunk += ']';
      ids.push_back(sink->add("json", 0, chunk.data(), chunk.size()));
      chunk.clear();
    };
    for (size_t k = 0; k < strings_.size(); ++k) {
      const std::string_view s = strings_.text(static_cast<int32_t>(k));
      chunk += chunk.empty() ? '[' : ',';
      append_json_string(chunk, s.size() > kMaxShownText ? shown_text(s) : s);
      if (chunk.size() >= kPageStringChunk) flush();
    }
    if (!chunk.empty() || ids.empty()) {
      if (chunk.empty()) chunk += '[';
      flush();
    }
    out += "{\"$strings\":[";
    for (size_t k = 0; k < ids.size(); ++k) out += (k ? "," : "") + std::to_string(ids[k]);
    out += "]}";
    first_ = false;
  }

 private:
  void comma() {
    if (!first_) out += ',';
    first_ = false;
  }
  bool first_ = true;
  bool capturing_ = false;
  size_t column_size_ = 0;  // items of the column being captured
  std::vector<int64_t> ints_;
  std::vector<double> reals_;
  std::vector<int32_t> tenths_;
  StringTable strings_;
};

// "prefix_12" as {"prefix", 12}; any other name as {name, -1}. The number is canonical (no
// leading zero, below 2^31) so that prefix + "_" + number gives the name back exactly.
struct NumberedName {
  std::string_view prefix;
  int64_t number = -1;
};
NumberedName split_numbered_name(std::string_view name) {
  const size_t us = name.rfind('_');
  if (us == std::string_view::npos || us + 1 >= name.size() || name.size() - us - 1 > 9)
    return {name, -1};
  const std::string_view digits = name.substr(us + 1);
  if (digits.size() > 1 && digits[0] == '0') return {name, -1};
  int64_t n = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return {name, -1};
    n = n * 10 + (c - '0');
  }
  return {name.substr(0, us), n};
}

// "v<index>" exactly (no sign, no leading zero), as the program reader names values.
bool is_index_name(std::string_view name, size_t index) {
  if (name.size() < 2 || name[0] != 'v') return false;
  char digits[24];
  const auto [end, ec] = std::to_chars(std::begin(digits), std::end(digits), index);
  return ec == std::errc() && name.substr(1) == std::string_view(digits, end - digits);
}

void write_view(Writer& w, const Document& doc, ViewModel& m, ViewLayouts layouts) {
  const Graph& root = doc.graphs[m.root_graph];
  // The layout as the viewer holds it; its WebAssembly engine produces the same form.
  // Detached edges were not laid out (view_model.h).
  std::vector<bool> laid(m.edges.size());
  std::vector<uint32_t> sources;
  for (size_t e = 0; e < m.edges.size(); ++e)
    if (!m.edges[e].detached && sources.size() < m.layout.edges.size()) {
      laid[e] = true;
      sources.push_back(static_cast<uint32_t>(m.edges[e].source));
    }
  const layout::ViewerForm form = layout::viewer_form(m.layout, laid, sources);
  if (layouts == ViewLayouts::kRelease) m.layout = {};  // the form holds what the page needs
  std::vector<bool>().swap(laid);
  std::vector<uint32_t>().swap(sources);
  w.open('{');
  w.key("name");
  w.str(root.name);
  w.key("kind");
  w.str(to_string(root.kind));
  w.key("irNodes");
  w.num(m.root_node_count);
  // What the IR says of the graph as fields shows in the panel beside the reader's attributes.
  std::vector<Attribute> attrs;
  if (root.stage.role != StageRole::kNone)
    attrs.push_back(
        {"stage", std::string(to_string(root.stage.role)) + " (" + root.stage.method + ")"});
  if (root.opaque) attrs.push_back({"opaque", "true"});
  for (Attribute& a : with_failure(root)) attrs.push_back(std::move(a));
  w.pairs("attrs", attrs);
  w.array("arena", root.memory_buffer_sizes, [&](int64_t v) { w.num(v); });

  // Global value ids: each included graph's values follow the previous graph's.
  std::vector<const Value*> values;
  size_t value_count = 0;
  for (int32_t g : m.graphs) value_count += doc.graphs[g].values.size();
  values.reserve(value_count);
  for (int32_t g : m.graphs)
    for (const Value& v : doc.graphs[g].values) values.push_back(&v);
  // Producers as view node ids.
  std::vector<int32_t> producer(values.size(), -1);
  std::unordered_map<int32_t, int32_t> slot_of_graph;
  for (size_t s = 0; s < m.graphs.size(); ++s)
    slot_of_graph.emplace(m.graphs[s], static_cast<int32_t>(s));
  {
    // View node index of (graph, node): nodes of one graph are contiguous in the view.
    std::unordered_map<int32_t, int32_t> first_node;
    for (size_t i = 0; i < m.nodes.size(); ++i)
      first_node.try_emplace(m.nodes[i].graph, static_cast<int32_t>(i));
    for (size_t s = 0; s < m.graphs.size(); ++s) {
      const Graph& g = doc.graphs[m.graphs[s]];
      for (size_t v = 0; v < g.values.size(); ++v)
        if (g.values[v].producer >= 0)
          producer[m.value_base[s] + v] = first_node[m.graphs[s]] + g.values[v].producer;
    }
  }

  const auto& nodes = m.nodes;
  auto node_of = [&](const ViewNode& vn) -> const Node& {
    return doc.graphs[vn.graph].nodes[vn.node];
  };
  auto base_of = [&](const ViewNode& vn) { return m.value_base[slot_of_graph[vn.graph]]; };
  w.key("n");
  w.open('{');
  // A name "prefix_12" (ops numbered by instruction, as readers name them) is written as the
  // prefix's string and the number (web/src/data.js nodeName): the prefixes repeat, the names
  // would not, and a million-node page would hold a million more strings.
  w.column("name", nodes, [&](const ViewNode& n) {
    const NumberedName split = split_numbered_name(node_of(n).name);
    w.num(w.sid(split.prefix));
  });
  w.column("nameN", nodes,
           [&](const ViewNode& n) { w.num(split_numbered_name(node_of(n).name).number); });
  w.column("op", nodes, [&](const ViewNode& n) { w.num(w.sid(node_of(n).op)); });
  w.column("label", nodes, [&](const ViewNode& n) { w.num(w.sid(n.label)); });
  w.column("kind", nodes, [&](const ViewNode& n) { w.num(w.sid(to_string(node_of(n).kind))); });
  w.column("cat", nodes, [&](const ViewNode& n) { w.num(static_cast<int>(n.category)); });
  w.column("group", nodes, [&](const ViewNode& n) { w.num(n.group); });
  w.column("graph", nodes, [&](const ViewNode& n) { w.num(n.graph); });
  w.column("w", nodes, [&](const ViewNode& n) { w.real(n.width); });
  w.column("h", nodes, [&](const ViewNode& n) { w.real(n.height); });
  w.column("deleg", nodes, [&](const ViewNode& n) { w.num(node_of(n).delegate); });
  w.column("drawnAt", nodes, [&](const ViewNode& n) { w.num(n.drawn_at); });
  {
    std::vector<int32_t> stub(nodes.size(), -1);
    for (const auto& [node, text] : m.stubs) stub[static_cast<size_t>(node)] = w.sid(text);
    w.column("stub", stub, [&](int32_t v) { w.num(v); });
  }
  w.column("instr", nodes, [&](const ViewNode& n) { w.num(node_of(n).provenance.instruction); });
  w.column("chain", nodes, [&](const ViewNode& n) { w.num(node_of(n).provenance.chain); });
  w.column("module", nodes,
           [&](const ViewNode& n) { w.num(w.sid_or_none(node_of(n).provenance.module_path)); });
  w.column("stack", nodes, [&](const ViewNode& n) {
    w.num(w.sid_or_none(stack_text(node_of(n).provenance.stack)));
  });
  w.column("handles", nodes, [&](const ViewNode& n) {
    w.num(w.sid_or_none(join_ints(node_of(n).provenance.debug_handles)));
  });
  // Arguments and attributes as offset arrays into flat lists.
  auto args = [&](const char* off_key, const char* name_key, const char* val_key, bool inputs) {
    std::vector<int32_t> off{0}, names, vals;
    for (const ViewNode& vn : nodes) {
      const Node& n = node_of(vn);
      const auto& list = inputs ? n.inputs : n.outputs;
      const int32_t base = base_of(vn);
      const auto nv = static_cast<int32_t>(doc.graphs[vn.graph].values.size());
      for (const Argument& a : list) {
        names.push_back(w.sid_or_none(a.name));
        vals.push_back(a.value >= 0 && a.value < nv ? base + a.value : -1);
      }
      off.push_back(static_cast<int32_t>(names.size()));
    }
    w.column(off_key, off, [&](int32_t v) { w.num(v); });
    w.column(name_key, names, [&](int32_t v) { w.num(v); });
    w.column(val_key, vals, [&](int32_t v) { w.num(v); });
  };
  args("inOff", "inName", "inVal", true);
  args("outOff", "outName", "outVal", false);
  {
    std::vector<int32_t> off{0}, keys, vals;
    for (const ViewNode& vn : nodes) {
      // A failed op's Failure first, as the panel listed its "error" attribute.
      const Node& n = node_of(vn);
      if (n.failure) {
        keys.push_back(w.sid("error"));
        vals.push_back(w.sid(n.failure->message));
      }
      for (const Attribute& a : n.attributes) {
        keys.push_back(w.sid(a.name));
        vals.push_back(w.sid(a.value));
      }
      off.push_back(static_cast<int32_t>(keys.size()));
    }
    w.column("atOff", off, [&](int32_t v) { w.num(v); });
    w.column("atKey", keys, [&](int32_t v) { w.num(v); });
    w.column("atVal", vals, [&](int32_t v) { w.num(v); });
  }
  w.column("x", form.node_x, [&](double v) { w.real(v); });
  w.column("y", form.node_y, [&](double v) { w.real(v); });
  w.close('}');

  w.key("v");
  w.open('{');
  {
    // A value named by its index in its graph ("v12": the EValue index, as ExecuTorch names
    // it) is written as -2 - index instead of a string; the page derives the name
    // (web/src/data.js valueName). At a million ops that is two million table entries fewer.
    std::vector<int32_t> names;
    names.reserve(values.size());
    for (size_t s = 0; s < m.graphs.size(); ++s) {
      const auto& gv = doc.graphs[m.graphs[s]].values;
      for (size_t i = 0; i < gv.size(); ++i)
        names.push_back(i < (size_t{1} << 30) && is_index_name(gv[i].name, i)
                            ? -2 - static_cast<int32_t>(i)
                            : w.sid_or_none(gv[i].name));
    }
    w.column("name", names, [&](int32_t v) { w.num(v); });
  }
  w.column("kind", values, [&](const Value* v) { w.num(w.sid(to_string(v->kind))); });
  w.column("dtype", values, [&](const Value* v) {
    w.num(w.sid_or_none(v->kind == ValueKind::kTensor ? v->tensor.dtype : ""));
  });
  w.column("shape", values, [&](const Value* v) {
    w.num(v->kind == ValueKind::kTensor ? w.sid(v->tensor.shape_string()) : -1);
  });
  w.column("dimOrder", values,
           [&](const Value* v) { w.num(w.sid_or_none(dim_order_text(v->tensor.dim_order))); });
  // Where a planned tensor lives, as numbers (the page writes "arena 1 @ 4096"): offsets are
  // mostly distinct, so as texts they were a table entry per tensor.
  w.column("memId", values, [&](const Value* v) {
    const auto& p = v->tensor.placement;
    w.num(p ? static_cast<int64_t>(p->memory_id) : -1);
  });
  w.column("memOff", values, [&](const Value* v) {
    const auto& p = v->tensor.placement;
    w.num(p ? static_cast<int64_t>(p->offset) : 0);
  });
  w.column("loc", values, [&](const Value* v) {
    w.num(v->tensor.data_location == DataLocation::kNone
              ? -1
              : w.sid(to_string(v->tensor.data_location)));
  });
  w.column("key", values, [&](const Value* v) { w.num(w.sid_or_none(v->tensor.data_key)); });
  w.column("nbytes", values, [&](const Value* v) { w.num(v->tensor.nbytes); });
  w.column("lit", values, [&](const Value* v) { w.num(w.sid_or_none(v->literal)); });
  // The values a boxed list names ("v12, v13": an IntList's items are value indices): where the
  // list's literal came from.
  w.column("items", values, [&](const Value* v) {
    if (v->kind != ValueKind::kIntList || v->elements.empty()) return w.num(int64_t{-1});
    std::string items;
    for (ValueId e : v->elements) items += (items.empty() ? "v" : ", v") + std::to_string(e);
    w.num(w.sid(items));
  });
  w.column("quant", values,
           [&](const Value* v) { w.num(w.sid_or_none(quant_text(v->tensor.quantization))); });
  w.column("dyn", values, [&](const Value* v) { w.num(static_cast<int>(v->tensor.dynamism)); });
  w.column("prod", producer, [&](int32_t p) { w.num(p); });
  w.close('}');

  w.key("e");
  w.open('{');
  w.column("src", m.edges, [&](const ViewEdge& e) { w.num(e.source); });
  w.column("dst", m.edges, [&](const ViewEdge& e) { w.num(e.target); });
  w.column("val", m.edges, [&](const ViewEdge& e) { w.num(e.value); });
  w.column("sp", m.edges, [&](const ViewEdge& e) {
    w.num(e.source_port == layout::kNone ? -1 : int64_t(e.source_port));
  });
  w.column("tp", m.edges, [&](const ViewEdge& e) {
    w.num(e.target_port == layout::kNone ? -1 : int64_t(e.target_port));
  });
  w.column("structural", m.edges, [&](const ViewEdge& e) { w.num(e.structural ? 1 : 0); });
  w.column("detached", m.edges, [&](const ViewEdge& e) { w.num(e.detached ? 1 : 0); });
  // Shared fan-out trunks are stored once (layout/route_sharing.h): edge e lists its own
  // points after the first shareN[e] points of edge share[e] (web/src/routes.js reads this).
  w.column("share", form.routes.share, [&](int32_t v) { w.num(v); });
  w.column("shareN", form.routes.share_count, [&](int32_t v) { w.num(v); });
  w.column("ptOff", form.routes.offsets, [&](uint32_t v) { w.num(v); });
  w.column("pts", form.routes.coords, [&](double v) { w.real(v); });
  w.column("lx", form.label_x, [&](double v) { w.real(v); });
  w.column("ly", form.label_y, [&](double v) { w.real(v); });
  w.close('}');

  const auto& groups = m.groups;
  w.key("g");
  w.open('{');
  w.column("name", groups, [&](const ViewGroup& g) { w.num(w.sid(g.name)); });
  w.column("label", groups, [&](const ViewGroup& g) { w.num(w.sid(g.label)); });
  w.column("kind", groups, [&](const ViewGroup& g) { w.num(w.sid(to_string(g.kind))); });
  w.column("parent", groups, [&](const ViewGroup& g) { w.num(g.parent); });
  w.column("owner", groups, [&](const ViewGroup& g) { w.num(g.owner); });
  w.column("count", groups, [&](const ViewGroup& g) { w.num(g.node_count); });
  w.column("badge", groups, [&](const ViewGroup& g) { w.num(w.sid_or_none(g.badge)); });
  w.column("expanded", groups, [&](const ViewGroup& g) { w.num(g.expanded ? 1 : 0); });
  w.column("cw", groups, [&](const ViewGroup& g) { w.real(g.collapsed_width); });
  w.column("ch", groups, [&](const ViewGroup& g) { w.real(g.collapsed_height); });
  {
    // Attributes of derived boxes (repeat runs, QDQ clusters, partitions) as offset arrays.
    std::vector<int32_t> off{0}, keys, vals;
    for (const ViewGroup& g : groups) {
      for (const Attribute& a : g.attributes) {
        keys.push_back(w.sid(a.name));
        vals.push_back(w.sid(a.value));
      }
      off.push_back(static_cast<int32_t>(keys.size()));
    }
    w.column("atOff", off, [&](int32_t v) { w.num(v); });
    w.column("atKey", keys, [&](int32_t v) { w.num(v); });
    w.column("atVal", vals, [&](int32_t v) { w.num(v); });
  }
  {
    // What each group holds (ViewGroup::ops, constants) for the group panel.
    std::vector<int32_t> off{0}, ops, counts;
    for (const ViewGroup& g : groups) {
      for (const auto& [op, count] : g.ops) {
        ops.push_back(w.sid(op));
        counts.push_back(count);
      }
      off.push_back(static_cast<int32_t>(ops.size()));
    }
    w.column("opOff", off, [&](int32_t v) { w.num(v); });
    w.column("opKey", ops, [&](int32_t v) { w.num(v); });
    w.column("opCount", counts, [&](int32_t v) { w.num(v); });
    w.column("ctens", groups, [&](const ViewGroup& g) { w.num(g.constant_tensors); });
    w.column("params", groups, [&](const ViewGroup& g) { w.num(g.parameters); });
    w.column("pbytes", groups, [&](const ViewGroup& g) { w.num(g.parameter_bytes); });
  }
  w.column("x", form.group_x, [&](double v) { w.real(v); });
  w.column("y", form.group_y, [&](double v) { w.real(v); });
  w.column("w", form.group_w, [&](double v) { w.real(v); });
  w.column("h", form.group_h, [&](double v) { w.real(v); });
  w.close('}');

  w.key("qdq");
  w.open('[');
  for (const auto& c : m.qdq_clusters) {
    w.open('[');
    for (NodeId n : c.members) w.num(n);
    w.close(']');
  }
  w.close(']');
  w.close('}');
}

}  // namespace

std::string stack_text(const std::vector<StackFrame>& stack) {
  std::string s;
  for (const auto& f : stack) {
    s += fmt::format("{}:{} in {}\n", f.file, f.line, f.function);
    if (!f.context.empty()) s += "    " + f.context + "\n";
  }
  return s;
}

std::string join_ints(const std::vector<int64_t>& v) {
  std::string s;
  for (auto x : v) s += (s.empty() ? "" : ", ") + std::to_string(x);
  return s;
}

std::string dim_order_text(const std::vector<uint8_t>& v) {
  if (v.empty()) return {};
  std::string s = "[";
  for (size_t i = 0; i < v.size(); ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s + "]";
}

std::string quant_text(const Boxed<Quantization>& q) {
  if (!q) return {};
  std::string s = q->scheme;
  if (!q->scales.empty()) {
    s += " scale=";
    for (size_t i = 0; i < q->scales.size() && i < 4; ++i)
      s += (i ? "," : "") + fmt::format("{:g}", q->scales[i]);
    if (q->num_scales > 4 || q->scales.size() > 4)
      s += fmt::format("… ({})", std::max<int64_t>(q->num_scales, q->scales.size()));
  }
  if (!q->zero_points.empty()) s += fmt::format(" zp={}", q->zero_points[0]);
  if (q->axis >= 0) s += fmt::format(" axis={}", q->axis);
  if (q->group_size > 0) s += fmt::format(" group={}", q->group_size);
  return s;
}

Result<EncodedPageData> encode_page_data(const Document& doc, const PageSource& source,
                                         const analysis::CategoryConfig& categories,
                                         std::vector<ViewModel>& views, bool columns,
                                         ViewLayouts layouts) {
  Writer w;
  std::optional<ColumnSink> sink;
  if (columns) w.sink = &sink.emplace();
  size_t items = 0;
  for (const ViewModel& m : views) items += m.nodes.size() + m.edges.size();
  w.out.reserve(columns ? size_t{1} << 16 : std::max<size_t>(1 << 16, items * 128));
  // The string table grows as it fills: names the page derives (values "v12", nodes "add_7",
  // places in memory) are not in it, so it holds far fewer texts than nodes and edges (475k at
  // 1.25M nodes), and reserving for one per item filled a 34 MiB index it never used.
  w.open('{');
  w.key("version");
  w.num(1);
  w.key("file");
  w.open('{');
  w.key("name");
  w.str(source.file_name);
  w.key("size");
  w.num(static_cast<int64_t>(source.file_size));
  w.key("format");
  w.str(to_string(doc.format));
  w.key("formatVersion");
  w.str(doc.format_version);
  w.close('}');
  w.pairs("props", doc.properties);
  w.array("sections", doc.sections, [&](const Section& s) {
    w.open('[');
    w.str(s.name);
    w.str(s.kind);
    w.num(static_cast<int64_t>(s.offset));
    w.num(static_cast<int64_t>(s.size));
    w.close(']');
  });
  w.array("diagnostics", doc.diagnostics, [&](const Diagnostic& d) {
    w.open('[');
    w.str(to_string(d.severity));
    w.str(d.message);
    w.close(']');
  });
  w.array("cats", categories.categories, [&](const analysis::CategoryInfo& c) {
    w.open('{');
    w.key("id");
    w.str(c.id);
    w.key("label");
    w.str(c.label);
    w.key("color");
    w.str(c.color);
    w.key("rule");
    w.str(c.rule);
    w.close('}');
  });
  w.array("delegates", doc.delegates, [&](const Delegate& d) {
    w.open('{');
    w.key("backend");
    w.str(d.backend_id);
    w.key("method");
    w.str(d.method);
    w.key("index");
    w.num(d.index_in_method);
    w.key("location");
    w.str(d.payload_location);
    w.key("payloadIndex");
    w.num(d.payload_index);
    w.key("payloadSize");
    w.num(d.payload.valid() ? static_cast<int64_t>(d.payload.size) : -1);
    w.key("subgraph");
    w.num(d.subgraph);
    // A summary of a payload whose ops are not recoverable (Graph::opaque).
    w.key("opaque");
    w.boolean(d.subgraph >= 0 && static_cast<size_t>(d.subgraph) < doc.graphs.size() &&
              doc.graphs[static_cast<size_t>(d.subgraph)].opaque);
    w.key("note");
    w.str(d.decoder_note);
    // The TOSA side file whose graph shows this delegate's operators (--tosa), if any.
    w.key("tosaFile");
    w.str(d.subgraph >= 0 && static_cast<size_t>(d.subgraph) < doc.graphs.size()
              ? [&] {
                  for (const Attribute& a : doc.graphs[static_cast<size_t>(d.subgraph)].attributes)
                    if (a.name == "tosa_file") return a.value;
                  return std::string();
                }()
              : std::string());
    w.key("specs");
    w.open('[');
    for (const auto& s : d.compile_specs) {
      w.open('[');
      w.str(s.key);
      w.str(s.display());
      w.close(']');
    }
    w.close(']');
    w.close('}');
  });
  // What each backend took (analysis/delegation.h, the numbers `etviz delegation` prints), for
  // the summary panel's Delegation section.
  if (auto info = analysis::delegation_info(doc); info && info->num_delegated_subgraphs > 0) {
    w.key("delegation");
    w.open('{');
    w.key("subgraphs");
    w.num(info->num_delegated_subgraphs);
    w.key("delegated");
    w.num(info->num_delegated_nodes);
    w.key("nonDelegated");
    w.num(info->num_non_delegated_nodes);
    w.key("opaque");
    w.num(info->num_opaque_subgraphs);
    w.array("backends", info->backends, [&](const analysis::BackendDelegation& b) {
      w.open('[');
      w.str(b.backend);
      w.num(b.subgraphs);
      w.num(b.decoded);
      w.num(b.opaque);
      w.num(b.delegated_nodes);
      w.close(']');
    });
    w.array("operators", info->operators, [&](const analysis::OperatorDelegation& o) {
      w.open('[');
      w.str(o.op_type);
      w.num(o.delegated);
      w.num(o.non_delegated);
      w.close(']');
    });
    w.close('}');
  }
  // The options the embedded layouts were computed with, in layout::encode_options order:
  // the page's WebAssembly engine re-lays out with exactly these.
  w.array("layoutOptions", layout::encode_options(view::layout_options()),
          [&](double v) { w.exact(v); });
  // Their names (the option table's), so the page reads one by name (groupTitle: the band its
  // group titles are drawn and clicked in) rather than keeping a copy of the value.
  w.array("layoutOptionNames", layout::option_fields(),
          [&](const layout::OptionField& f) { w.str(f.name); });
  w.array("graphs", views, [&](ViewModel& m) { write_view(w, doc, m, layouts); });
  w.string_table();
  w.close('}');

  EncodedPageData data;
  if (!columns) {
    if (w.out.size() > kMaxPageJsonText)
      return Error(fmt::format(
          "the page data is {:.0f} MiB of JSON, over the {} MiB a browser parses as one string; "
          "leave out --no-compress (columns are then embedded in parts)",
          w.out.size() / 1048576.0, kMaxPageJsonText >> 20));
    data.raw_bytes = w.out.size();
    data.head = std::move(w.out);
    return data;
  }
  if (Status st = sink->finish(); !st) return st.error();
  if (sink->largest() > kMaxPageColumnBytes)
    return Error(fmt::format(
        "one column of the page data is {:.0f} MiB, over the {} MiB a browser holds as one typed "
        "array; show fewer graphs or a smaller one",
        sink->largest() / 1048576.0, kMaxPageColumnBytes >> 20));
  // The directory the page decodes the stream with.
  std::string head = R"({"data":)";
  head += w.out;
  head += R"(,"columns":[)";
  const auto& dir = sink->directory();
  for (size_t k = 0; k < dir.size(); ++k)
    head += fmt::format("{}[\"{}\",{},{}]", k ? "," : "", dir[k].type, dir[k].count, dir[k].bytes);
  head += "]}";
  if (head.size() > kMaxPageJsonText)
    return Error(fmt::format(
        "the page's header data is {:.0f} MiB of JSON (properties, diagnostics, delegates), over "
        "the {} MiB a browser parses as one string",
        head.size() / 1048576.0, kMaxPageJsonText >> 20));
  data.raw_bytes = head.size() + sink->raw_bytes();
  data.columns = dir.size();
  data.head = std::move(head);
  data.compressed = sink->take();
#ifdef ETVIZ_NO_ZLIB
  data.raw_columns = true;
#endif
  return data;
}

}  // namespace etviz::render::html
