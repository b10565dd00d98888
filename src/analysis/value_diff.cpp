#include "analysis/value_diff.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

namespace etviz::analysis {
namespace {

constexpr size_t kReadersKept = 4;

const Value* value_at(const Graph& g, ValueId v) {
  return v >= 0 && static_cast<size_t>(v) < g.values.size() ? &g.values[static_cast<size_t>(v)]
                                                            : nullptr;
}

bool contiguous(const SmallVector<uint8_t>& order) {
  for (size_t i = 0; i < order.size(); ++i)
    if (order[i] != i) return false;
  return true;
}

std::string dim_order_text(const TensorInfo& t) {
  if (t.dim_order.empty()) return "contiguous";
  std::string s = "[";
  for (size_t i = 0; i < t.dim_order.size(); ++i)
    s += (i ? ", " : "") + std::to_string(t.dim_order[i]);
  return s + "]";
}

std::string placement_text(const TensorInfo& t) {
  if (!t.placement) return "none";
  return fmt::format("memory {} offset {}", t.placement->memory_id, t.placement->offset);
}

std::string quant_text(const TensorInfo& t) {
  if (!t.quantization) return "none";
  const Quantization& q = *t.quantization;
  std::string s = q.scheme;
  if (!q.scales.empty()) s += fmt::format(" scale={:g}", q.scales[0]);
  if (!q.zero_points.empty()) s += fmt::format(" zp={}", q.zero_points[0]);
  if (q.axis >= 0) s += fmt::format(" axis={}", q.axis);
  if (q.num_scales > 1) s += fmt::format(" scales={}", q.num_scales);
  return s;
}

// A list as it reads, with items only known at run time (a size another kernel computes, a
// method input) as `?`: their names are value indices, which renumbering changes.
std::string list_text(const Graph& g, const Value& v) {
  if (v.kind != ValueKind::kIntList || v.elements.empty()) return value_text(v);
  std::string s = "[";
  for (size_t k = 0; k < v.elements.size(); ++k) {
    const Value* e = value_at(g, v.elements[k]);
    std::string item = "?";
    if (e && e->kind == ValueKind::kInt && e->producer == kNoId && !e->literal.empty())
      item = e->literal.str();
    s += (k ? ", " : "") + item;
  }
  return s + "]";
}

bool is_tensor_list(ValueKind k) {
  return k == ValueKind::kTensorList || k == ValueKind::kOptionalTensorList;
}

// The nodes reading `v` (a list that holds it counts), up to kReadersKept.
std::vector<ValueReader> readers_of(const Graph& g, ValueId v, int64_t& total) {
  std::vector<ValueReader> out;
  const Value* value = value_at(g, v);
  total = value ? static_cast<int64_t>(value->consumers.size()) : 0;
  if (!value) return out;
  for (NodeId n : value->consumers) {
    if (out.size() >= kReadersKept) break;
    const Node& node = g.nodes[static_cast<size_t>(n)];
    ValueReader r;
    r.node = n;
    r.node_name = node.name;
    r.op = node.op.str();
    for (size_t k = 0; k < node.inputs.size(); ++k) {
      const Argument& arg = node.inputs[k];
      bool here = arg.value == v;
      if (!here)
        if (const Value* list = value_at(g, arg.value))
          for (ValueId e : list->elements) here |= e == v;
      if (here) {
        r.argument = arg.name.empty() ? fmt::format("#{}", k) : arg.name.str();
        break;
      }
    }
    out.push_back(std::move(r));
  }
  return out;
}

int64_t instruction_count(const Graph& g) {
  int64_t n = 0;
  for (const Node& node : g.nodes)
    if (node.provenance.instruction >= 0) ++n;
  return n;
}

std::string shape_text(const TensorInfo& t) {
  return t.shape_string();
}

std::vector<int64_t> concrete_shape(const TensorInfo& t) {
  std::vector<int64_t> out;
  for (const Dim& d : t.shape) out.push_back(d.size);
  return out;
}

// The scale and zero point of a quantized constant, when the program states them: the
// tensor's own quantization (a delegate's), or the literal arguments of the
// dequantize_per_tensor that reads it, or the constant scale and zero-point tensors of the
// dequantize_per_channel that reads it.
std::optional<QuantParams> quant_of(const Document& doc, const Graph& g, ValueId v,
                                    std::string& how) {
  const Value* value = value_at(g, v);
  if (!value) return std::nullopt;
  const TensorInfo& t = value->tensor;
  if (t.quantization) {
    const Quantization& q = *t.quantization;
    if (q.scales.empty()) return std::nullopt;
    QuantParams a;
    if (q.scheme == "per_tensor") {
      a.scales = {q.scales[0]};
    } else if (q.scheme == "per_channel" && q.axis >= 0 &&
               static_cast<int64_t>(q.scales.size()) == q.num_scales) {
      a.scales = q.scales;
      a.axis = q.axis;
    } else {
      return std::nullopt;
    }
    for (int64_t z : q.zero_points) a.zero_points.push_back(static_cast<double>(z));
    how = quant_text(t);
    return a;
  }
  for (NodeId n : value->consumers) {
    const Node& node = g.nodes[static_cast<size_t>(n)];
    const std::string base = op_base(node.op.str());
    if (base != "dequantize_per_tensor" && base != "dequantize_per_channel") continue;
    if (node.inputs.empty() || node.inputs[0].value != v) continue;
    auto arg = [&](std::string_view name, size_t position) -> const Value* {
      for (const Argument& a : node.inputs)
        if (a.name == name) return value_at(g, a.value);
      return position < node.inputs.size() ? value_at(g, node.inputs[position].value) : nullptr;
    };
    auto number = [](const Value* x) -> std::optional<double> {
      if (!x || x->literal.empty() || (x->kind != ValueKind::kDouble && x->kind != ValueKind::kInt))
        return std::nullopt;
      char* end = nullptr;
      const std::string text = x->literal.str();
      const double d = std::strtod(text.c_str(), &end);
      if (end == text.c_str()) return std::nullopt;
      return d;
    };
    QuantParams a;
    if (base == "dequantize_per_tensor") {
      auto scale = number(arg("scale", 1)), zp = number(arg("zero_point", 2));
      if (!scale || !zp) continue;
      a.scales = {*scale};
      a.zero_points = {*zp};
      how = fmt::format("{} scale={:g} zero_point={:g}", node.op.str(), *scale, *zp);
      return a;
    }
    // Per channel: scales and zero points are constant tensors of their own.
    const Value* scales = arg("scales", 1);
    const Value* zps = arg("zero_points", 2);
    const auto axis = number(arg("axis", 3));
    if (!scales || !axis || scales->kind != ValueKind::kTensor) continue;
    auto read_all = [&](const Value* x, std::vector<double>& into) {
      if (!x || x->kind != ValueKind::kTensor) return false;
      const auto bytes = constant_bytes(doc, g, static_cast<ValueId>(x - g.values.data()));
      const ElementType type = element_type(x->tensor.dtype.str());
      const auto size = static_cast<size_t>(element_size(type));
      if (type == ElementType::kBytes) return false;
      for (size_t i = 0; i + size <= bytes.size(); i += size)
        into.push_back(read_element(type, bytes.data() + i));
      return !into.empty();
    };
    if (!read_all(scales, a.scales)) continue;
    if (zps && zps->kind == ValueKind::kTensor) read_all(zps, a.zero_points);
    a.axis = static_cast<int64_t>(*axis);
    how = fmt::format("{} scales ({}) axis={}", node.op.str(), a.scales.size(), a.axis);
    return a;
  }
  return std::nullopt;
}

bool is_quantized_dtype(const std::string& dtype) {
  return dtype.starts_with("qint") || dtype.starts_with("quint") || dtype == "int8" ||
         dtype == "uint8" || dtype == "int16" || dtype == "int32";
}

class ValuePairing {
 public:
  ValuePairing(const Graph& a, const Graph& b, const GraphDiff& d) : a_(a), b_(b), d_(d) {
    a_to_b.assign(a.values.size(), kNoId);
    b_to_a.assign(b.values.size(), kNoId);
  }

  void run() {
    for (size_t k = 0; k < a_.inputs.size() && k < b_.inputs.size(); ++k)
      pair(a_.inputs[k], b_.inputs[k]);
    for (size_t k = 0; k < a_.outputs.size() && k < b_.outputs.size(); ++k)
      pair(a_.outputs[k], b_.outputs[k]);
    for (size_t nb = 0; nb < b_.nodes.size(); ++nb) {
      const NodeId na = d_.b_to_a[nb];
      if (na == kNoId) continue;
      const Node& x = a_.nodes[static_cast<size_t>(na)];
      const Node& y = b_.nodes[nb];
      for (size_t k = 0; k < x.outputs.size() && k < y.outputs.size(); ++k)
        pair(x.outputs[k].value, y.outputs[k].value);
      pair_arguments(x.inputs, y.inputs);
    }
  }

  std::vector<ValueId> a_to_b, b_to_a;

 private:
  void pair(ValueId va, ValueId vb) {
    const Value* x = value_at(a_, va);
    const Value* y = value_at(b_, vb);
    if (!x || !y || a_to_b[static_cast<size_t>(va)] != kNoId ||
        b_to_a[static_cast<size_t>(vb)] != kNoId)
      return;
    a_to_b[static_cast<size_t>(va)] = vb;
    b_to_a[static_cast<size_t>(vb)] = va;
    // A tensor list's members pair by position; an IntList's items are its literal.
    if (is_tensor_list(x->kind) && is_tensor_list(y->kind))
      for (size_t k = 0; k < x->elements.size() && k < y->elements.size(); ++k)
        pair(x->elements[k], y->elements[k]);
  }

  // By schema name where both sides name every argument (a call whose arguments moved still
  // pairs `weight` with `weight`), else by position.
  void pair_arguments(const std::vector<Argument>& x, const std::vector<Argument>& y) {
    bool named = !x.empty() && !y.empty();
    for (const Argument& a : x) named &= !a.name.empty();
    for (const Argument& a : y) named &= !a.name.empty();
    if (!named) {
      for (size_t k = 0; k < x.size() && k < y.size(); ++k) pair(x[k].value, y[k].value);
      return;
    }
    for (const Argument& ay : y)
      for (const Argument& ax : x)
        if (ax.name == ay.name) {
          pair(ax.value, ay.value);
          break;
        }
  }

  const Graph& a_;
  const Graph& b_;
  const GraphDiff& d_;
};

class ValueComparer {
 public:
  ValueComparer(const Document& da, const Graph& a, const Document& db, const Graph& b,
                GraphDiff& d, const ValueDiffOptions& options, ValueDiff& out)
      : da_(da), a_(a), db_(db), b_(b), d_(d), options_(options), out_(out) {}

  void run() {
    out_.values_a = static_cast<int64_t>(a_.values.size());
    out_.values_b = static_cast<int64_t>(b_.values.size());
    out_.instructions_a = instruction_count(a_);
    out_.instructions_b = instruction_count(b_);
    out_.buffers_a = a_.memory_buffer_sizes;
    out_.buffers_b = b_.memory_buffer_sizes;
    ValuePairing pairing(a_, b_, d_);
    pairing.run();
    for (size_t vb = 0; vb < b_.values.size(); ++vb) {
      const ValueId va = pairing.b_to_a[vb];
      if (va == kNoId) continue;
      ++out_.values_paired;
      compare(va, static_cast<ValueId>(vb));
    }
    constants_only(a_, pairing.a_to_b, d_.a_status, out_.constants_only_a);
    constants_only(b_, pairing.b_to_a, d_.b_status, out_.constants_only_b);
    nested_and_payloads();
    mark_nodes();
  }

 private:
  void compare(ValueId va, ValueId vb) {
    const Value& x = a_.values[static_cast<size_t>(va)];
    const Value& y = b_.values[static_cast<size_t>(vb)];
    const bool tx = x.kind == ValueKind::kTensor, ty = y.kind == ValueKind::kTensor;
    if (tx && ty) {
      compare_tensor_values(va, vb);
      return;
    }
    if (is_symbolic(x.kind) && is_symbolic(y.kind) && x.kind == y.kind) return;
    std::string text_a, text_b;
    if (is_tensor_list(x.kind) && x.kind == y.kind) {
      // Members are edges (paired above); only the length says something here.
      if (x.elements.size() == y.elements.size()) return;
      text_a = fmt::format("{} items", x.elements.size());
      text_b = fmt::format("{} items", y.elements.size());
    } else {
      text_a = tx ? x.tensor.dtype.str() + x.tensor.shape_string() : list_text(a_, x);
      text_b = ty ? y.tensor.dtype.str() + y.tensor.shape_string() : list_text(b_, y);
      if (x.kind == y.kind && text_a == text_b) return;
    }
    ScalarChange c;
    c.a = va;
    c.b = vb;
    c.name = y.name;
    c.kind_a = to_string(x.kind);
    c.kind_b = to_string(y.kind);
    c.text_a = std::move(text_a);
    c.text_b = std::move(text_b);
    c.readers = readers_of(b_, vb, c.readers_total);
    out_.scalars.push_back(std::move(c));
  }

  void compare_tensor_values(ValueId va, ValueId vb) {
    const Value& x = a_.values[static_cast<size_t>(va)];
    const Value& y = b_.values[static_cast<size_t>(vb)];
    const TensorInfo& s = x.tensor;
    const TensorInfo& t = y.tensor;
    TensorDiff td;
    auto field = [&](const char* name, std::string before, std::string after) {
      if (before != after) td.metadata.push_back({name, std::move(before), std::move(after)});
    };
    field("scalar_type", s.dtype.str(), t.dtype.str());
    field("sizes", shape_text(s), shape_text(t));
    if (!(contiguous(s.dim_order) && contiguous(t.dim_order)))
      field("dim_order", dim_order_text(s), dim_order_text(t));
    const ConstantData* ss = a_.constant_data_of(va);
    const ConstantData* st = b_.constant_data_of(vb);
    field("storage_offset", std::to_string(ss ? ss->storage_offset : 0),
          std::to_string(st ? st->storage_offset : 0));
    field("layout", std::to_string(ss ? ss->layout : 0), std::to_string(st ? st->layout : 0));
    field("allocation", placement_text(s), placement_text(t));
    field("shape_dynamism", to_string(s.dynamism), to_string(t.dynamism));
    field("requires_grad", s.requires_grad ? "True" : "False", t.requires_grad ? "True" : "False");
    field("data_location", to_string(s.data_location), to_string(t.data_location));
    // Named data keys of delegates are hashes of the bytes: a new key is a data change, said
    // below; fully qualified names are identities.
    if (s.data_location != DataLocation::kNamedData || t.data_location != DataLocation::kNamedData)
      field("fqn", s.data_key.str(), t.data_key.str());
    field("quantization", quant_text(s), quant_text(t));
    if (s.is_constant() && t.is_constant()) compare_data(va, vb, td);
    if (td.metadata.empty() && td.data != DataStatus::kDiffer &&
        td.data != DataStatus::kUnavailable)
      return;
    td.a = va;
    td.b = vb;
    td.name = y.name;
    td.dtype = t.dtype.str();
    td.shape = shape_text(t);
    td.location = to_string(t.data_location);
    td.readers = readers_of(b_, vb, td.readers_total);
    out_.tensors.push_back(std::move(td));
  }

  void compare_data(ValueId va, ValueId vb, TensorDiff& td) {
    ++out_.constants_paired;
    const TensorInfo& s = a_.values[static_cast<size_t>(va)].tensor;
    const TensorInfo& t = b_.values[static_cast<size_t>(vb)].tensor;
    if (s.dtype != t.dtype || shape_text(s) != shape_text(t)) {
      td.data = DataStatus::kMetadata;
      return;
    }
    if (!options_.compare_data) {
      td.data = DataStatus::kEqual;
      return;
    }
    std::string note_a, note_b;
    const auto bytes_a = constant_bytes(da_, a_, va, &note_a);
    const auto bytes_b = constant_bytes(db_, b_, vb, &note_b);
    td.expected_a = s.nbytes;
    td.expected_b = t.nbytes;
    const ConstantData* sa = a_.constant_data_of(va);
    const ConstantData* sb = b_.constant_data_of(vb);
    const bool reachable_a = sa && sa->blob.valid(), reachable_b = sb && sb->blob.valid();
    if (!reachable_a || !reachable_b) {
      td.data = DataStatus::kUnavailable;
      td.data_note = !reachable_a ? "A: " + note_a : "B: " + note_b;
      if (!reachable_a && !reachable_b) td.data_note += "; B: " + note_b;
      ++out_.constants_unavailable;
      return;
    }
    td.bytes_a = static_cast<int64_t>(bytes_a.size());
    td.bytes_b = static_cast<int64_t>(bytes_b.size());
    std::string cut;
    if (!note_a.empty()) cut += "A: " + note_a;
    if (!note_b.empty()) cut += (cut.empty() ? "" : "; ") + std::string("B: ") + note_b;
    const bool same_place = sa->blob.source >= 0 && da_.sources.size() > 0 &&
                            db_.sources.size() > 0 && &da_ == &db_ &&
                            sa->blob.source == sb->blob.source &&
                            sa->blob.offset == sb->blob.offset && sa->blob.size == sb->blob.size;
    out_.bytes_compared += same_place ? 0 : bytes_a.size() + bytes_b.size();
    if (cut.empty() && bytes_a.size() == bytes_b.size() &&
        (same_place || std::memcmp(bytes_a.data(), bytes_b.data(), bytes_a.size()) == 0)) {
      td.data = DataStatus::kEqual;
      ++out_.constants_equal;
      return;
    }
    td.data_note = cut;
    // Both sides as the tensor module reads them (analysis/tensor_compare.h). A side cut off
    // short of its shape is compared over the elements both hold, as a flat run.
    TensorData ta, tb;
    ta.dtype = s.dtype.str();
    tb.dtype = t.dtype.str();
    ta.sizes = concrete_shape(s);
    tb.sizes = concrete_shape(t);
    ta.dim_order.assign(s.dim_order.begin(), s.dim_order.end());
    tb.dim_order.assign(t.dim_order.begin(), t.dim_order.end());
    ta.bytes = bytes_a;
    tb.bytes = bytes_b;
    const ElementType type = element_type(tb.dtype);
    const auto size = static_cast<uint64_t>(element_size(type));
    const auto whole = [&](const TensorData& x) {  // numel saturates; never multiply it
      return x.numel() >= 0 && static_cast<uint64_t>(x.numel()) <= x.bytes.size() / size;
    };
    if (!whole(ta) || !whole(tb)) {
      const uint64_t n = std::min(bytes_a.size(), bytes_b.size()) / size;
      for (TensorData* x : {&ta, &tb}) {
        x->sizes = {static_cast<int64_t>(n)};
        x->dim_order.clear();
        x->bytes = x->bytes.first(static_cast<size_t>(n * size));
      }
    }
    const PairCheck check = check_pair(ta, tb);
    if (!check.domain) {  // another layout of the same shape: a metadata change, said above
      td.data = DataStatus::kMetadata;
      td.data_note = check.mismatch;
      return;
    }
    // Quantized integers: compared as stored first; dequantized below when both sides state
    // scale and zero point.
    td.domain = *check.domain == Domain::kDequantized ? Domain::kInteger : *check.domain;
    CompareOptions compare;
    compare.first_k = options_.first_k;
    td.stats = compare_tensors(ta, tb, td.domain, compare);
    if (td.stats.differing == 0 && cut.empty() && bytes_a.size() == bytes_b.size()) {
      // Bytes differ, numbers do not (+0 and -0, NaN payloads, bytes past the elements).
      td.data = DataStatus::kEqual;
      ++out_.constants_equal;
      return;
    }
    td.data = DataStatus::kDiffer;
    ++out_.constants_differ;
    if (td.domain == Domain::kInteger && is_quantized_dtype(tb.dtype)) {
      std::string how_a, how_b;
      ta.quant = quant_of(da_, a_, va, how_a);
      tb.quant = quant_of(db_, b_, vb, how_b);
      if (ta.quant && tb.quant) {
        td.has_dequantized = true;
        td.dequantized_by = how_a == how_b ? how_b : how_a + " -> " + how_b;
        td.dequantized = compare_tensors(ta, tb, Domain::kDequantized, compare);
      }
    }
  }

  void constants_only(const Graph& g, const std::vector<ValueId>& paired,
                      const std::vector<DiffStatus>& status, std::vector<ConstantOnly>& into) {
    for (size_t n = 0; n < g.nodes.size(); ++n) {
      const Node& node = g.nodes[n];
      if (node.kind != NodeKind::kConstant || status[n] == DiffStatus::kSame ||
          status[n] == DiffStatus::kChanged)
        continue;
      for (const Argument& out : node.outputs) {
        const Value* v = value_at(g, out.value);
        if (!v || v->kind != ValueKind::kTensor || paired[static_cast<size_t>(out.value)] != kNoId)
          continue;
        into.push_back(
            {out.value, v->name, v->tensor.dtype.str(), shape_text(v->tensor), v->tensor.nbytes});
      }
    }
  }

  // Delegate calls matched with each other: their payloads' bytes, and the decoded payload
  // graphs diffed in turn (an XNNPACK graph's constants).
  void nested_and_payloads() {
    for (size_t nb = 0; nb < b_.nodes.size(); ++nb) {
      const NodeId na = d_.b_to_a[nb];
      if (na == kNoId) continue;
      const Node& x = a_.nodes[static_cast<size_t>(na)];
      const Node& y = b_.nodes[nb];
      if (x.kind != NodeKind::kDelegate || y.kind != NodeKind::kDelegate) continue;
      const Delegate* dx = delegate_of(da_, x);
      const Delegate* dy = delegate_of(db_, y);
      if (dx && dy && dx->backend_id == dy->backend_id && dx->payload.size == dy->payload.size &&
          options_.compare_data) {
        const auto px = da_.bytes(dx->payload), py = db_.bytes(dy->payload);
        if (px.size() == py.size() && !px.empty() &&
            std::memcmp(px.data(), py.data(), px.size()) != 0)
          out_.payloads_differ.push_back({na, static_cast<NodeId>(nb)});
      }
      const Graph* gx = da_.subgraph_of(x);
      const Graph* gy = db_.subgraph_of(y);
      if (!gx || !gy || options_.nested_depth <= 0) continue;
      NestedDiff nested;
      nested.label = fmt::format("{} ({})", y.name, gy->name);
      nested.call_a = na;
      nested.call_b = static_cast<NodeId>(nb);
      nested.graph_a = static_cast<int32_t>(gx - da_.graphs.data());
      nested.graph_b = static_cast<int32_t>(gy - db_.graphs.data());
      nested.diff = diff_graphs(da_, *gx, db_, *gy);
      ValueDiffOptions inner = options_;
      --inner.nested_depth;
      add_value_diff(da_, *gx, db_, *gy, nested.diff, inner);
      out_.nested.push_back(std::move(nested));
    }
  }

  static const Delegate* delegate_of(const Document& doc, const Node& n) {
    return n.delegate >= 0 && static_cast<size_t>(n.delegate) < doc.delegates.size()
               ? &doc.delegates[static_cast<size_t>(n.delegate)]
               : nullptr;
  }

  // What the value diff found, as changes of the nodes a report and the page show.
  void mark_nodes() {
    std::unordered_map<NodeId, std::vector<std::string>> what;
    for (const TensorDiff& t : out_.tensors) {
      const Value& y = b_.values[static_cast<size_t>(t.b)];
      const NodeId at =
          y.producer != kNoId ? y.producer : (y.consumers.empty() ? kNoId : y.consumers.front());
      if (at == kNoId) continue;
      if (t.data == DataStatus::kDiffer) what[at].push_back(data_change_text(t));
      for (const FieldChange& f : t.metadata) {
        // dtype, shape and dim order of outputs are the structural diff's; planned placement
        // moves with every plan change and is listed, not marked.
        if (f.field == "scalar_type" || f.field == "sizes" || f.field == "dim_order" ||
            f.field == "allocation" || f.field == "quantization")
          continue;
        what[at].push_back(fmt::format("{} {}: {} -> {}", y.name, f.field, f.a, f.b));
      }
    }
    for (const auto& [na, nb] : out_.payloads_differ)
      what[nb].push_back("payload bytes differ (same size)");
    for (const NestedDiff& n : out_.nested) {
      if (!n.diff.values) continue;
      const int64_t data = n.diff.values->data_changes();
      if (data > 0)
        what[n.call_b].push_back(
            fmt::format("payload constants: {} tensor{} differ", data, data == 1 ? "" : "s"));
      const int64_t nodes = n.diff.changed + n.diff.added + n.diff.removed;
      if (nodes > 0 && data == 0)
        what[n.call_b].push_back(fmt::format("payload graph: {} changed, {} added, {} removed",
                                             n.diff.changed, n.diff.added, n.diff.removed));
    }
    if (what.empty()) return;
    std::vector<NodeId> order;
    for (const auto& [n, w] : what) order.push_back(n);
    std::sort(order.begin(), order.end());
    for (NodeId nb : order) {
      auto& items = what[nb];
      const NodeId na = d_.b_to_a[static_cast<size_t>(nb)];
      if (na == kNoId) continue;  // an added node: already reported as added
      auto it = std::find_if(d_.changes.begin(), d_.changes.end(),
                             [&](const NodeChange& c) { return c.b == nb; });
      if (it != d_.changes.end()) {
        it->what.insert(it->what.end(), items.begin(), items.end());
        continue;
      }
      d_.changes.push_back({na, nb, std::move(items)});
      ++out_.nodes_marked;
      d_.b_status[static_cast<size_t>(nb)] = DiffStatus::kChanged;
      d_.a_status[static_cast<size_t>(na)] = DiffStatus::kChanged;
      --d_.same;
      ++d_.changed;
    }
    std::stable_sort(d_.changes.begin(), d_.changes.end(),
                     [](const NodeChange& x, const NodeChange& y) { return x.b < y.b; });
  }

  static std::string data_change_text(const TensorDiff& t) {
    const TensorComparison& s = t.stats;
    std::string text =
        fmt::format("data: {} of {} elements differ, max |diff| {:.6g}, cosine {:.6g}", s.differing,
                    s.positions, s.max_abs, s.cosine);
    if (s.has_nonfinite())
      text += fmt::format(", NaN {}/{}, Inf {}/{}", s.nan_reference, s.nan_run, s.inf_reference,
                          s.inf_run);
    if (!t.data_note.empty()) text += " (" + t.data_note + ")";
    return text;
  }

  const Document& da_;
  const Graph& a_;
  const Document& db_;
  const Graph& b_;
  GraphDiff& d_;
  const ValueDiffOptions& options_;
  ValueDiff& out_;
};

}  // namespace

const char* to_string(DataStatus s) {
  switch (s) {
    case DataStatus::kEqual:
      return "equal";
    case DataStatus::kDiffer:
      return "differ";
    case DataStatus::kMetadata:
      return "metadata";
    case DataStatus::kUnavailable:
      return "unavailable";
    case DataStatus::kNotConstant:
      return "not_constant";
  }
  return "equal";
}

int64_t ValueDiff::data_changes() const {
  int64_t n = 0;
  for (const TensorDiff& t : tensors) n += t.data == DataStatus::kDiffer;
  for (const NestedDiff& nd : nested)
    if (nd.diff.values) n += nd.diff.values->data_changes();
  return n;
}

int64_t ValueDiff::metadata_changes() const {
  int64_t n = 0;
  for (const TensorDiff& t : tensors) n += !t.metadata.empty();
  for (const NestedDiff& nd : nested)
    if (nd.diff.values) n += nd.diff.values->metadata_changes();
  return n;
}

bool ValueDiff::empty() const {
  if (!tensors.empty() || !scalars.empty() || !constants_only_a.empty() ||
      !constants_only_b.empty() || !payloads_differ.empty() || values_a != values_b ||
      instructions_a != instructions_b || buffers_a != buffers_b)
    return false;
  for (const NestedDiff& nd : nested)
    if (nd.diff.changed + nd.diff.added + nd.diff.removed > 0 ||
        (nd.diff.values && !nd.diff.values->empty()))
      return false;
  return true;
}

std::span<const uint8_t> constant_bytes(const Document& doc, const Graph& g, ValueId v,
                                        std::string* note) {
  const Value* value = value_at(g, v);
  const ConstantData* s = g.constant_data_of(v);
  if (!value || !s || !s->blob.valid()) {
    if (note && value) {
      const TensorInfo& t = value->tensor;
      if (t.data_location == DataLocation::kExternal)
        *note = fmt::format("'{}' is in a .ptd file that was not given (--data)", t.data_key.str());
      else if (t.data_location == DataLocation::kNamedData)
        *note =
            fmt::format("named data '{}' is not in the file (or is compressed)", t.data_key.str());
      else
        *note = fmt::format("its bytes ({}) are not reachable", to_string(t.data_location));
    }
    return {};
  }
  const auto bytes = doc.bytes(s->blob);
  const int64_t want = value->tensor.nbytes;
  if (note && want >= 0 && static_cast<int64_t>(bytes.size()) < want)
    *note = fmt::format("{} of its {} bytes are in the file (cut off)", bytes.size(), want);
  if (want >= 0 && static_cast<int64_t>(bytes.size()) > want)
    return bytes.first(static_cast<size_t>(want));
  return bytes;
}

void add_value_diff(const Document& da, const Graph& a, const Document& db, const Graph& b,
                    GraphDiff& d, const ValueDiffOptions& options) {
  auto out = std::make_shared<ValueDiff>();
  ValueComparer(da, a, db, b, d, options, *out).run();
  d.values = std::move(out);
}

// ---- whole programs ------------------------------------------------------------------------

ProgramDiff diff_programs(const std::string& file_a, const Document& a, const std::string& file_b,
                          const Document& b) {
  ProgramDiff p;
  p.file_a = file_a;
  p.file_b = file_b;
  const auto bytes_a = a.sources.empty() ? std::span<const uint8_t>{} : a.sources[0]->bytes();
  const auto bytes_b = b.sources.empty() ? std::span<const uint8_t>{} : b.sources[0]->bytes();
  p.size_a = bytes_a.size();
  p.size_b = bytes_b.size();
  p.bitwise_equal = bytes_a.size() == bytes_b.size() &&
                    std::memcmp(bytes_a.data(), bytes_b.data(), bytes_a.size()) == 0;
  // Weights files given with --data take part: equal programs with other weights differ.
  if (p.bitwise_equal) {
    if (a.sources.size() != b.sources.size()) p.bitwise_equal = false;
    for (size_t k = 1; p.bitwise_equal && k < a.sources.size(); ++k) {
      const auto x = a.sources[k]->bytes(), y = b.sources[k]->bytes();
      p.bitwise_equal = x.size() == y.size() && std::memcmp(x.data(), y.data(), x.size()) == 0;
    }
  }
  p.version_a = a.format_version;
  p.version_b = b.format_version;
  auto methods = [](const Document& doc) {
    std::vector<int32_t> out;
    for (size_t g = 0; g < doc.graphs.size(); ++g)
      if (doc.graphs[g].is_top_level()) out.push_back(static_cast<int32_t>(g));
    return out;
  };
  const auto ma = methods(a), mb = methods(b);
  for (int32_t ga : ma) {
    const std::string& name = a.graphs[static_cast<size_t>(ga)].name;
    auto it = std::find_if(mb.begin(), mb.end(), [&](int32_t gb) {
      return b.graphs[static_cast<size_t>(gb)].name == name;
    });
    if (it == mb.end())
      p.methods_only_a.push_back(name);
    else
      p.methods.push_back({name, ga, *it});
  }
  for (int32_t gb : mb) {
    const std::string& name = b.graphs[static_cast<size_t>(gb)].name;
    if (std::none_of(ma.begin(), ma.end(),
                     [&](int32_t ga) { return a.graphs[static_cast<size_t>(ga)].name == name; }))
      p.methods_only_b.push_back(name);
  }
  std::unordered_map<std::string_view, const NamedBlob*> keys_a, keys_b;
  for (const NamedBlob& n : a.named_data) keys_a.emplace(n.key, &n);
  for (const NamedBlob& n : b.named_data) keys_b.emplace(n.key, &n);
  for (const NamedBlob& n : a.named_data) {
    if (keys_a[n.key] != &n) continue;
    auto it = keys_b.find(n.key);
    if (it == keys_b.end()) {
      p.named_data.push_back({n.key, "only in A", static_cast<int64_t>(n.blob.size), -1});
      continue;
    }
    const NamedBlob& m = *it->second;
    NamedDataChange c{n.key, "", static_cast<int64_t>(n.blob.size),
                      static_cast<int64_t>(m.blob.size)};
    if (n.blob.size != m.blob.size) {
      c.change = "size differs";
    } else {
      const auto x = a.bytes(n.blob), y = b.bytes(m.blob);
      if (x.size() != y.size() || std::memcmp(x.data(), y.data(), x.size()) != 0)
        c.change = "bytes differ";
    }
    if (!c.change.empty()) p.named_data.push_back(std::move(c));
  }
  for (const NamedBlob& n : b.named_data)
    if (keys_b[n.key] == &n && !keys_a.count(n.key))
      p.named_data.push_back({n.key, "only in B", -1, static_cast<int64_t>(n.blob.size)});
  for (const Diagnostic& dg : a.diagnostics)
    if (dg.severity == Severity::kError) p.damaged.push_back("A: " + dg.message);
  for (const Diagnostic& dg : b.diagnostics)
    if (dg.severity == Severity::kError) p.damaged.push_back("B: " + dg.message);
  return p;
}

void summarize(ProgramDiff& p, const std::vector<const GraphDiff*>& diffs) {
  if (p.bitwise_equal) {
    p.same_program = true;
    p.summary = fmt::format("bitwise equal ({} bytes)", p.size_a);
    return;
  }
  std::vector<std::string> facets;
  if (p.version_a != p.version_b)
    facets.push_back(fmt::format("{} -> {}", p.version_a, p.version_b));
  if (!p.methods_only_a.empty() || !p.methods_only_b.empty()) {
    std::string s = "methods";
    auto names = [](const std::vector<std::string>& v) {
      std::string out;
      for (const auto& n : v) out += (out.empty() ? "" : ", ") + n;
      return out;
    };
    if (!p.methods_only_a.empty()) s += " only in A: " + names(p.methods_only_a);
    if (!p.methods_only_b.empty())
      s += std::string(p.methods_only_a.empty() ? "" : ";") +
           " only in B: " + names(p.methods_only_b);
    facets.push_back(std::move(s));
  }
  // Constants whose bytes are not reachable (a .ptd not given): no difference, but the verdict
  // cannot vouch for them.
  int64_t unavailable = 0;
  for (size_t k = 0; k < p.methods.size() && k < diffs.size(); ++k) {
    const GraphDiff& d = *diffs[k];
    std::vector<std::string> parts;
    if (d.values) {
      const ValueDiff& v = *d.values;
      if (const int64_t n = v.data_changes())
        parts.push_back(fmt::format("weights of {} tensor{}", n, n == 1 ? "" : "s"));
      if (!v.scalars.empty())
        parts.push_back(
            fmt::format("{} scalar{}", v.scalars.size(), v.scalars.size() == 1 ? "" : "s"));
      if (const int64_t n = v.metadata_changes())
        parts.push_back(fmt::format("metadata of {} tensor{}", n, n == 1 ? "" : "s"));
      if (!v.payloads_differ.empty())
        parts.push_back(fmt::format("{} delegate payload{}", v.payloads_differ.size(),
                                    v.payloads_differ.size() == 1 ? "" : "s"));
      if (v.buffers_a != v.buffers_b) parts.push_back("planned buffer sizes");
      unavailable += v.constants_unavailable;
    }
    // Nodes only the value diff marked (a constant whose bytes differ) are said above.
    const int64_t value_marked = d.values ? d.values->nodes_marked : 0;
    const int64_t changed = d.changed - value_marked;
    if (changed > 0 || d.added > 0 || d.removed > 0)
      parts.push_back(
          fmt::format("nodes {} changed, {} added, {} removed", changed, d.added, d.removed));
    if (parts.empty()) continue;
    std::string s = p.methods[k].name + ": ";
    for (size_t i = 0; i < parts.size(); ++i) s += (i ? ", " : "") + parts[i];
    facets.push_back(std::move(s));
  }
  if (!p.named_data.empty())
    facets.push_back(fmt::format("named data: {} key{}", p.named_data.size(),
                                 p.named_data.size() == 1 ? "" : "s"));
  if (!p.damaged.empty())
    facets.push_back(
        fmt::format("{} damaged part{}", p.damaged.size(), p.damaged.size() == 1 ? "" : "s"));
  const std::string not_compared =
      unavailable > 0 ? fmt::format("{} constant{} not compared (bytes not reachable)", unavailable,
                                    unavailable == 1 ? "" : "s")
                      : "";
  if (facets.empty() && unavailable > 0) {
    p.summary = "no difference found; " + not_compared;
    return;
  }
  if (!not_compared.empty()) facets.push_back(not_compared);
  if (facets.empty()) {
    p.same_program = true;
    p.summary = fmt::format(
        "same program: every method, value and constant reads the same ({} -> {} bytes; the "
        "files differ only in layout)",
        p.size_a, p.size_b);
    return;
  }
  p.summary = "differs: ";
  for (size_t i = 0; i < facets.size(); ++i) p.summary += (i ? "; " : "") + facets[i];
}

}  // namespace etviz::analysis
