#include "render/html/page_data.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <iterator>
#include <unordered_map>

#include "analysis/delegation.h"
#include "layout/route_sharing.h"
#include "layout/viewer_form.h"

namespace etviz::render::html {
namespace {

// Length of the valid UTF-8 sequence starting at s[i], or 0 if it is invalid.
size_t utf8_sequence_length(std::string_view s, size_t i) {
  const auto c = static_cast<unsigned char>(s[i]);
  size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
  if (n == 0 || i + n > s.size()) return 0;
  for (size_t k = 1; k < n; ++k)
    if ((static_cast<unsigned char>(s[i + k]) & 0xC0) != 0x80) return 0;
  if (n == 2 && c < 0xC2) return 0;  // overlong
  return n;
}

class Writer {
 public:
  std::string out;

  int32_t sid(const std::string& s) {
    auto [it, inserted] = ids_.try_emplace(s, static_cast<int32_t>(strings_.size()));
    if (inserted) strings_.push_back(&it->first);
    return it->second;
  }
  int32_t sid_or_none(const std::string& s) { return s.empty() ? -1 : sid(s); }
  void reserve_strings(size_t n) { ids_.reserve(n); }

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
    append_json_string(out, s);
  }
  // Numbers are most of a page's data (100k nodes: tens of millions of digits), so they are
  // formatted in place with to_chars instead of through temporary strings.
  void num(int64_t v) {
    comma();
    char buf[24];
    const auto r = std::to_chars(buf, buf + sizeof buf, v);
    out.append(buf, r.ptr);
  }
  void real(double v) {
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
  template <typename T, typename F>
  void array(const char* k, const std::vector<T>& items, F&& each) {
    key(k);
    open('[');
    for (const T& item : items) each(item);
    close(']');
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
  void string_table() {
    key("strings");
    open('[');
    for (const std::string* s : strings_) str(*s);
    close(']');
  }

 private:
  void comma() {
    if (!first_) out += ',';
    first_ = false;
  }
  bool first_ = true;
  std::unordered_map<std::string, int32_t> ids_;
  std::vector<const std::string*> strings_;
};

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

std::string quant_text(const std::optional<Quantization>& q) {
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

void write_view(Writer& w, const Document& doc, const ViewModel& m) {
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
  attrs.insert(attrs.end(), root.attributes.begin(), root.attributes.end());
  w.pairs("attrs", attrs);
  w.array("arena", root.memory_buffer_sizes, [&](int64_t v) { w.num(v); });

  // Global value ids: each included graph's values follow the previous graph's.
  std::vector<const Value*> values;
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
  w.array("name", nodes, [&](const ViewNode& n) { w.num(w.sid(node_of(n).name)); });
  w.array("op", nodes, [&](const ViewNode& n) { w.num(w.sid(node_of(n).op)); });
  w.array("label", nodes, [&](const ViewNode& n) { w.num(w.sid(n.label)); });
  w.array("kind", nodes, [&](const ViewNode& n) { w.num(w.sid(to_string(node_of(n).kind))); });
  w.array("cat", nodes, [&](const ViewNode& n) { w.num(static_cast<int>(n.category)); });
  w.array("group", nodes, [&](const ViewNode& n) { w.num(n.group); });
  w.array("graph", nodes, [&](const ViewNode& n) { w.num(n.graph); });
  w.array("w", nodes, [&](const ViewNode& n) { w.real(n.width); });
  w.array("h", nodes, [&](const ViewNode& n) { w.real(n.height); });
  w.array("deleg", nodes, [&](const ViewNode& n) { w.num(node_of(n).delegate); });
  w.array("instr", nodes, [&](const ViewNode& n) { w.num(node_of(n).provenance.instruction); });
  w.array("chain", nodes, [&](const ViewNode& n) { w.num(node_of(n).provenance.chain); });
  w.array("module", nodes,
          [&](const ViewNode& n) { w.num(w.sid_or_none(node_of(n).provenance.module_path)); });
  w.array("stack", nodes, [&](const ViewNode& n) {
    w.num(w.sid_or_none(stack_text(node_of(n).provenance.stack)));
  });
  w.array("handles", nodes, [&](const ViewNode& n) {
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
    w.array(off_key, off, [&](int32_t v) { w.num(v); });
    w.array(name_key, names, [&](int32_t v) { w.num(v); });
    w.array(val_key, vals, [&](int32_t v) { w.num(v); });
  };
  args("inOff", "inName", "inVal", true);
  args("outOff", "outName", "outVal", false);
  {
    std::vector<int32_t> off{0}, keys, vals;
    for (const ViewNode& vn : nodes) {
      for (const Attribute& a : node_of(vn).attributes) {
        keys.push_back(w.sid(a.name));
        vals.push_back(w.sid(a.value));
      }
      off.push_back(static_cast<int32_t>(keys.size()));
    }
    w.array("atOff", off, [&](int32_t v) { w.num(v); });
    w.array("atKey", keys, [&](int32_t v) { w.num(v); });
    w.array("atVal", vals, [&](int32_t v) { w.num(v); });
  }
  w.array("x", form.node_x, [&](double v) { w.real(v); });
  w.array("y", form.node_y, [&](double v) { w.real(v); });
  w.close('}');

  w.key("v");
  w.open('{');
  w.array("name", values, [&](const Value* v) { w.num(w.sid_or_none(v->name)); });
  w.array("kind", values, [&](const Value* v) { w.num(w.sid(to_string(v->kind))); });
  w.array("dtype", values, [&](const Value* v) {
    w.num(w.sid_or_none(v->kind == ValueKind::kTensor ? v->tensor.dtype : ""));
  });
  w.array("shape", values, [&](const Value* v) {
    w.num(v->kind == ValueKind::kTensor ? w.sid(v->tensor.shape_string()) : -1);
  });
  w.array("dimOrder", values,
          [&](const Value* v) { w.num(w.sid_or_none(dim_order_text(v->tensor.dim_order))); });
  w.array("mem", values, [&](const Value* v) {
    const auto& p = v->tensor.placement;
    w.num(p ? w.sid(fmt::format("arena {} @ {}", p->memory_id, p->offset)) : -1);
  });
  w.array("loc", values, [&](const Value* v) {
    w.num(v->tensor.data_location == DataLocation::kNone
              ? -1
              : w.sid(to_string(v->tensor.data_location)));
  });
  w.array("key", values, [&](const Value* v) { w.num(w.sid_or_none(v->tensor.data_key)); });
  w.array("nbytes", values, [&](const Value* v) { w.num(v->tensor.nbytes); });
  w.array("lit", values, [&](const Value* v) { w.num(w.sid_or_none(v->literal)); });
  w.array("quant", values,
          [&](const Value* v) { w.num(w.sid_or_none(quant_text(v->tensor.quantization))); });
  w.array("dyn", values, [&](const Value* v) { w.num(static_cast<int>(v->tensor.dynamism)); });
  w.array("prod", producer, [&](int32_t p) { w.num(p); });
  w.close('}');

  w.key("e");
  w.open('{');
  w.array("src", m.edges, [&](const ViewEdge& e) { w.num(e.source); });
  w.array("dst", m.edges, [&](const ViewEdge& e) { w.num(e.target); });
  w.array("val", m.edges, [&](const ViewEdge& e) { w.num(e.value); });
  w.array("sp", m.edges, [&](const ViewEdge& e) {
    w.num(e.source_port == layout::kNone ? -1 : int64_t(e.source_port));
  });
  w.array("tp", m.edges, [&](const ViewEdge& e) {
    w.num(e.target_port == layout::kNone ? -1 : int64_t(e.target_port));
  });
  w.array("structural", m.edges, [&](const ViewEdge& e) { w.num(e.structural ? 1 : 0); });
  w.array("detached", m.edges, [&](const ViewEdge& e) { w.num(e.detached ? 1 : 0); });
  // Shared fan-out trunks are stored once (layout/route_sharing.h): edge e lists its own
  // points after the first shareN[e] points of edge share[e] (web/src/routes.js reads this).
  w.array("share", form.routes.share, [&](int32_t v) { w.num(v); });
  w.array("shareN", form.routes.share_count, [&](int32_t v) { w.num(v); });
  w.array("ptOff", form.routes.offsets, [&](uint32_t v) { w.num(v); });
  w.array("pts", form.routes.coords, [&](double v) { w.real(v); });
  w.array("lx", form.label_x, [&](double v) { w.real(v); });
  w.array("ly", form.label_y, [&](double v) { w.real(v); });
  w.close('}');

  const auto& groups = m.groups;
  w.key("g");
  w.open('{');
  w.array("name", groups, [&](const ViewGroup& g) { w.num(w.sid(g.name)); });
  w.array("label", groups, [&](const ViewGroup& g) { w.num(w.sid(g.label)); });
  w.array("kind", groups, [&](const ViewGroup& g) { w.num(w.sid(to_string(g.kind))); });
  w.array("parent", groups, [&](const ViewGroup& g) { w.num(g.parent); });
  w.array("owner", groups, [&](const ViewGroup& g) { w.num(g.owner); });
  w.array("count", groups, [&](const ViewGroup& g) { w.num(g.node_count); });
  w.array("badge", groups, [&](const ViewGroup& g) { w.num(w.sid_or_none(g.badge)); });
  w.array("expanded", groups, [&](const ViewGroup& g) { w.num(g.expanded ? 1 : 0); });
  w.array("cw", groups, [&](const ViewGroup& g) { w.real(g.collapsed_width); });
  w.array("ch", groups, [&](const ViewGroup& g) { w.real(g.collapsed_height); });
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
    w.array("atOff", off, [&](int32_t v) { w.num(v); });
    w.array("atKey", keys, [&](int32_t v) { w.num(v); });
    w.array("atVal", vals, [&](int32_t v) { w.num(v); });
  }
  w.array("x", form.group_x, [&](double v) { w.real(v); });
  w.array("y", form.group_y, [&](double v) { w.real(v); });
  w.array("w", form.group_w, [&](double v) { w.real(v); });
  w.array("h", form.group_h, [&](double v) { w.real(v); });
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

void append_json_string(std::string& out, std::string_view s) {
  out += '"';
  for (size_t i = 0; i < s.size();) {
    const auto c = static_cast<unsigned char>(s[i]);
    if (c < 0x80) {
      switch (c) {
        case '"':
          out += "\\\"";
          break;
        case '\\':
          out += "\\\\";
          break;
        case '\n':
          out += "\\n";
          break;
        case '\r':
          out += "\\r";
          break;
        case '\t':
          out += "\\t";
          break;
        case '<':
          out += "\\u003c";
          break;
        case '>':
          out += "\\u003e";
          break;
        case '&':
          out += "\\u0026";
          break;
        default:
          if (c < 0x20 || c == 0x7f)
            out += fmt::format("\\u{:04x}", c);
          else
            out += static_cast<char>(c);
      }
      ++i;
      continue;
    }
    const size_t n = utf8_sequence_length(s, i);
    if (n == 0) {
      out += "\\ufffd";
      ++i;
      continue;
    }
    if (n == 3 && c == 0xE2 && static_cast<unsigned char>(s[i + 1]) == 0x80 &&
        (static_cast<unsigned char>(s[i + 2]) == 0xA8 ||
         static_cast<unsigned char>(s[i + 2]) == 0xA9)) {
      out += static_cast<unsigned char>(s[i + 2]) == 0xA8 ? "\\u2028" : "\\u2029";
    } else {
      out.append(s.data() + i, n);
    }
    i += n;
  }
  out += '"';
}

std::string page_data_json(const Document& doc, const PageSource& source,
                           const analysis::CategoryConfig& categories,
                           const std::vector<ViewModel>& views) {
  Writer w;
  size_t items = 0;
  for (const ViewModel& m : views) items += m.nodes.size() + m.edges.size();
  w.out.reserve(std::max<size_t>(1 << 16, items * 128));
  w.reserve_strings(items);
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
    w.str(d.severity == Severity::kWarning ? "warning" : "info");
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
  w.array("layoutOptions", layout::encode_options(layout_options()), [&](double v) { w.exact(v); });
  w.array("graphs", views, [&](const ViewModel& m) { write_view(w, doc, m); });
  w.string_table();
  w.close('}');
  return std::move(w.out);
}

std::string script_safe_json(const std::string& text) {
  std::string out;
  out.reserve(text.size() + 64);
  for (size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '<')
      out += "\\u003c";
    else if (c == '>')
      out += "\\u003e";
    else if (c == '&')
      out += "\\u0026";
    else if (c == '\xE2' && i + 2 < text.size() && text[i + 1] == '\x80' &&
             (text[i + 2] == '\xA8' || text[i + 2] == '\xA9')) {
      out += text[i + 2] == '\xA8' ? "\\u2028" : "\\u2029";
      i += 2;
    } else {
      out += c;
    }
  }
  return out;
}

}  // namespace etviz::render::html
