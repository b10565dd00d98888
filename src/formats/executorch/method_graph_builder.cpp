#include "formats/executorch/method_graph_builder.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>
#include <unordered_map>

#include "core/graph_builder.h"
#include "core/memory_hint.h"
#include "core/op_schema.h"
#include "formats/executorch/scalar_type.h"

namespace etviz::executorch {
namespace {

namespace fb = etviz::pte;

// List literals longer than this show their head and the total count.
constexpr size_t kMaxLiteralItems = 32;

template <typename Vec, typename Fmt>
std::string list_literal(const Vec* items, Fmt&& format_item) {
  if (!items) return "[]";
  std::string s = "[";
  const size_t n = items->size();
  for (size_t i = 0; i < n && i < kMaxLiteralItems; ++i) {
    if (i) s += ", ";
    s += format_item(items->Get(static_cast<flatbuffers::uoffset_t>(i)));
  }
  if (n > kMaxLiteralItems) s += fmt::format(", ... ({} items)", n);
  return s + "]";
}

std::string op_name(const fb::Operator* op) {
  if (!op || !op->name()) return "<unnamed operator>";
  std::string name = op->name()->str();
  if (op->overload() && op->overload()->size() > 0) name += "." + op->overload()->str();
  return name;
}

// "aten::convolution.out" -> "convolution"
std::string short_op_name(const std::string& op) {
  std::string s = op;
  if (auto p = s.rfind("::"); p != std::string::npos) s = s.substr(p + 2);
  if (auto p = s.find('.'); p != std::string::npos) s = s.substr(0, p);
  return s;
}

std::string method_name(const fb::ExecutionPlan& plan) {
  return plan.name() ? plan.name()->str() : "";
}

class Builder {
 public:
  Builder(const fb::ExecutionPlan& plan, const ProgramContext& ctx, ExpansionBudget& budget)
      : plan_(plan),
        ctx_(ctx),
        budget_(budget),
        builder_(method_name(plan), GraphKind::kMethod,
                 Stage{StageRole::kExecuTorch, method_name(plan)}),
        graph_(builder_.graph()) {}

  // Instructions between two page releases: ~1/16 of a 1M-op plan's pages resident at once.
  static constexpr int64_t kReleaseEvery = 1 << 16;
  void release_pages() const {
    if (ctx_.release_pages) ctx_.release_pages();
  }

  Result<Graph> build() {
    if (auto s = read_values(); !s) return s.error();
    release_pages();
    produced_.assign(graph_.values.size(), false);
    is_graph_input_.assign(graph_.values.size(), false);
    scan_mentions();
    release_pages();
    reserve_nodes();
    if (auto s = add_inputs(); !s) return s.error();
    if (auto s = add_instructions(); !s) return s.error();
    if (auto s = add_outputs(); !s) return s.error();
    resolve_run_time_scalars();
    resolve_lists();
    if (const auto* sizes = plan_.non_const_buffer_sizes())
      graph_.memory_buffer_sizes.assign(sizes->begin(), sizes->end());
    return builder_.finish();
  }

 private:
  Error error(const std::string& what) const {
    return Error(fmt::format("method '{}': {}", graph_.name, what));
  }
  bool valid_value(int64_t id) const {
    return id >= 0 && static_cast<size_t>(id) < graph_.values.size();
  }

  // One node per instruction, input, output and constant, at most: reserved up front so a
  // million-instruction method never holds its node array twice while it grows.
  void reserve_nodes() {
    size_t count = 0;
    if (const auto* chains = plan_.chains())
      for (const fb::Chain* chain : *chains)
        if (chain && chain->instructions()) count += chain->instructions()->size();
    if (const auto* inputs = plan_.inputs()) count += inputs->size();
    if (const auto* outputs = plan_.outputs()) count += outputs->size();
    for (const Value& v : graph_.values)
      if (v.kind == ValueKind::kTensor && v.tensor.is_constant()) ++count;
    graph_.nodes.reserve(count);
    prefer_huge_pages(graph_.nodes);
  }

  Status read_values() {
    const auto* values = plan_.values();
    if (!values) return Status::Ok();
    graph_.values.reserve(values->size());
    prefer_huge_pages(graph_.values);
    for (flatbuffers::uoffset_t i = 0; i < values->size(); ++i) {
      Value v;
      v.name = fmt::format("v{}", i);
      const fb::EValue* ev = values->Get(i);
      if (auto s = read_value(ev, v); !s)
        return error(fmt::format("value {}: {}", i, s.error().message()));
      graph_.values.push_back(std::move(v));
    }
    check_tensor_lists();
    return Status::Ok();
  }

  // A list that names a value outside the table, a value of the wrong kind or itself: the
  // runtime refuses the program (runtime/executor/method.cpp); etviz shows the rest and marks
  // the item (docs/formats.md, "Argument values").
  std::string invalid_item(ValueId list, int64_t item, const char* why) {
    BadList bad;
    bad.list = list;
    bad.what = fmt::format("item {} {}", item, why);
    bad_lists_.push_back(std::move(bad));
    return fmt::format("<invalid value index {}>", item);
  }

  // TensorList and OptionalTensorList members are value indices (-1: None, optional lists
  // only); the literal names them. Members that are not tensors of this plan are dropped from
  // the links and marked in the literal.
  void check_tensor_lists() {
    for (size_t i = 0; i < graph_.values.size(); ++i) {
      Value& v = graph_.values[i];
      if (v.kind != ValueKind::kTensorList && v.kind != ValueKind::kOptionalTensorList) continue;
      const bool optional = v.kind == ValueKind::kOptionalTensorList;
      SmallVector<ValueId> members;
      std::string text = "[";
      size_t shown = 0;
      for (ValueId e : v.elements) {
        std::string item;
        if (e == kNoId && optional) {
          members.push_back(kNoId);
          item = "None";
        } else if (!valid_value(e) || static_cast<size_t>(e) == i) {
          item = invalid_item(static_cast<ValueId>(i), e,
                              static_cast<size_t>(e) == i ? "names the list itself"
                                                          : "is outside the values table");
        } else if (graph_.values[static_cast<size_t>(e)].kind != ValueKind::kTensor) {
          item = invalid_item(static_cast<ValueId>(i), e,
                              fmt::format("is a {}, not a tensor",
                                          to_string(graph_.values[static_cast<size_t>(e)].kind))
                                  .c_str());
        } else {
          members.push_back(e);
          item = fmt::format("v{}", e);
        }
        if (shown++ < kMaxLiteralItems) text += (shown > 1 ? ", " : "") + item;
      }
      if (shown > kMaxLiteralItems) text += fmt::format(", ... ({} items)", shown);
      v.elements = std::move(members);
      v.literal = text + "]";
    }
  }

  Status read_value(const fb::EValue* ev, Value& v) {
    if (!budget_.charge(1)) return ExpansionBudget::exhausted_error();
    // The verifier accepts a union whose type is set but whose table is absent.
    if (ev && ev->val_type() != fb::KernelTypes::NONE && ev->val_type() != fb::KernelTypes::Null &&
        !ev->val())
      return Error(fmt::format("{} value without its table", static_cast<int>(ev->val_type())));
    switch (ev ? ev->val_type() : fb::KernelTypes::NONE) {
      case fb::KernelTypes::NONE:
      case fb::KernelTypes::Null:
        v.kind = ValueKind::kNull;
        v.literal = "None";
        return Status::Ok();
      case fb::KernelTypes::Int:
        v.kind = ValueKind::kInt;
        v.literal = std::to_string(ev->val_as_Int()->int_val());
        return Status::Ok();
      case fb::KernelTypes::Bool:
        v.kind = ValueKind::kBool;
        v.literal = ev->val_as_Bool()->bool_val() ? "True" : "False";
        return Status::Ok();
      case fb::KernelTypes::Double:
        v.kind = ValueKind::kDouble;
        v.literal = fmt::format("{}", ev->val_as_Double()->double_val());
        return Status::Ok();
      case fb::KernelTypes::String: {
        v.kind = ValueKind::kString;
        const auto* s = ev->val_as_String()->string_val();
        if (s && !budget_.charge(s->size())) return ExpansionBudget::exhausted_error();
        v.literal = s ? s->str() : "";
        return Status::Ok();
      }
      case fb::KernelTypes::IntList: {
        // Items are indices into the values table, not the integers: the runtime boxes
        // &values[items[j]] (runtime/executor/method.cpp). Resolved once every value is read
        // and every instruction has said which values it writes (resolve_lists).
        v.kind = ValueKind::kIntList;
        if (const auto* items = ev->val_as_IntList()->items()) {
          if (!budget_.charge(items->size())) return ExpansionBudget::exhausted_error();
          int_lists_.push_back(
              {static_cast<ValueId>(graph_.values.size()), {items->begin(), items->end()}});
        }
        v.literal = "[]";
        return Status::Ok();
      }
      case fb::KernelTypes::DoubleList:
        v.kind = ValueKind::kDoubleList;
        v.literal = list_literal(ev->val_as_DoubleList()->items(),
                                 [](double x) { return fmt::format("{}", x); });
        return Status::Ok();
      case fb::KernelTypes::BoolList:
        v.kind = ValueKind::kBoolList;
        v.literal = list_literal(ev->val_as_BoolList()->items(),
                                 [](bool x) { return std::string(x ? "True" : "False"); });
        return Status::Ok();
      case fb::KernelTypes::TensorList:
      case fb::KernelTypes::OptionalTensorList: {
        const bool optional = ev->val_type() == fb::KernelTypes::OptionalTensorList;
        v.kind = optional ? ValueKind::kOptionalTensorList : ValueKind::kTensorList;
        const auto* items =
            optional ? ev->val_as_OptionalTensorList()->items() : ev->val_as_TensorList()->items();
        // Members are value indices (-1: None); check_tensor_lists checks them and writes the
        // literal once the whole table is read.
        if (items) {
          if (!budget_.charge(items->size())) return ExpansionBudget::exhausted_error();
          for (int32_t item : *items) v.elements.push_back(item < 0 && optional ? kNoId : item);
        }
        return Status::Ok();
      }
      case fb::KernelTypes::Tensor:
        v.kind = ValueKind::kTensor;
        return read_tensor(*ev->val_as_Tensor(), v);
    }
    v.kind = ValueKind::kOther;
    v.literal = fmt::format("<unknown value kind {}>", static_cast<int>(ev->val_type()));
    return Status::Ok();
  }

  Status read_tensor(const fb::Tensor& t, Value& v) {
    TensorInfo& info = v.tensor;
    info.dtype = scalar_type_name(t.scalar_type());
    if (const auto* sizes = t.sizes()) {
      if (!budget_.charge(sizes->size())) return ExpansionBudget::exhausted_error();
      info.shape.reserve(sizes->size());
      for (int32_t s : *sizes) info.shape.push_back(Dim{s, {}});
    }
    if (const auto* order = t.dim_order()) {
      if (!budget_.charge(order->size())) return ExpansionBudget::exhausted_error();
      info.dim_order.assign(order->begin(), order->end());
    }
    info.requires_grad = t.requires_grad();
    switch (t.shape_dynamism()) {
      case 1:
        info.dynamism = ShapeDynamism::kDynamicBound;
        break;
      case 2:
        info.dynamism = ShapeDynamism::kDynamicUnbound;
        break;
      default:
        info.dynamism = ShapeDynamism::kStatic;
        break;
    }
    if (const auto* alloc = t.allocation_info()) {
      info.placement = MemoryPlacement{
          alloc->memory_id(),
          (static_cast<uint64_t>(alloc->memory_offset_high()) << 32) | alloc->memory_offset_low()};
    }
    const auto* extra = t.extra_tensor_info();
    if (extra && extra->fully_qualified_name()) {
      info.data_key = extra->fully_qualified_name()->str();
      if (!info.data_key.empty()) v.name = info.data_key;
    }
    // Where the initial bytes live; see docs/formats.md ("Constant tensors").
    if (extra && extra->location() == 1) {
      info.data_location = DataLocation::kExternal;
    } else if (t.data_buffer_idx() > 0) {
      info.data_index = t.data_buffer_idx();
      if (t.allocation_info())
        info.data_location = DataLocation::kMutableSegment;
      else if (ctx_.legacy_constant_buffer)
        info.data_location = DataLocation::kInline;
      else
        info.data_location = DataLocation::kConstantSegment;
    }
    if (auto b = info.byte_size()) info.nbytes = *b;
    // The rare facts and the constant's bytes go to the graph's side table (ConstantData).
    const auto id = static_cast<ValueId>(graph_.values.size());  // v is appended next
    if (info.is_constant() || t.storage_offset() != 0 || t.layout() != 0) {
      ConstantData& st = graph_.constant_data_for(id);
      st.storage_offset = t.storage_offset();
      st.layout = t.layout();
      if (info.is_constant() && ctx_.locate_data)
        st.blob = ctx_.locate_data(info.data_location, info.data_index, info.nbytes);
    }
    return Status::Ok();
  }

  // Where each value is last named, so argument splitting can ask "is this read later?".
  void scan_mentions() {
    last_mention_.assign(graph_.values.size(), -1);
    is_graph_output_.assign(graph_.values.size(), false);
    if (const auto* outputs = plan_.outputs())
      for (int32_t id : *outputs)
        if (valid_value(id)) is_graph_output_[id] = true;
    const auto* chains = plan_.chains();
    int64_t position = 0;
    for (flatbuffers::uoffset_t c = 0; chains && c < chains->size(); ++c) {
      const auto* instructions = chains->Get(c)->instructions();
      for (flatbuffers::uoffset_t i = 0; instructions && i < instructions->size();
           ++i, ++position) {
        const fb::Instruction* ins = instructions->Get(i);
        const flatbuffers::Vector<int32_t>* args = nullptr;
        if (const auto* k = ins->instr_args_as_KernelCall()) args = k->args();
        if (const auto* d = ins->instr_args_as_DelegateCall()) args = d->args();
        if (!args) continue;
        for (int32_t a : *args) {
          if (!valid_value(a)) continue;
          last_mention_[a] = position;
          for (ValueId e : graph_.values[a].elements)
            if (e != kNoId) last_mention_[e] = position;
        }
      }
    }
  }

  Status add_inputs() {
    const auto* inputs = plan_.inputs();
    if (!inputs) return Status::Ok();
    for (flatbuffers::uoffset_t k = 0; k < inputs->size(); ++k) {
      const int32_t id = inputs->Get(k);
      if (!valid_value(id))
        return error(fmt::format("input {} names value {} but the method has {} values", k, id,
                                 graph_.values.size()));
      builder_.add_input(id);
      is_graph_input_[id] = true;
      mark_produced(id);
    }
    return Status::Ok();
  }

  Status add_outputs() {
    const auto* outputs = plan_.outputs();
    if (!outputs) return Status::Ok();
    for (flatbuffers::uoffset_t k = 0; k < outputs->size(); ++k) {
      const int32_t id = outputs->Get(k);
      if (!valid_value(id))
        return error(fmt::format("output {} names value {} but the method has {} values", k, id,
                                 graph_.values.size()));
      ensure_producer(id);
      builder_.add_output(id);
    }
    return Status::Ok();
  }

  // A value is "fresh" at an instruction when nothing has written it yet and it is not an
  // input or a constant: in a well-formed program only an output can be fresh.
  bool is_fresh(ValueId id) const {
    const Value& v = graph_.values[id];
    if (v.kind == ValueKind::kTensorList) {
      if (v.elements.empty()) return false;
      for (ValueId e : v.elements)
        if (e == kNoId || !is_fresh_tensor(e)) return false;
      return true;
    }
    return is_fresh_tensor(id);
  }
  bool is_fresh_tensor(ValueId id) const {
    const Value& v = graph_.values[id];
    return v.kind == ValueKind::kTensor && !produced_[id] && !is_graph_input_[id] &&
           !v.tensor.is_constant();
  }

  // A kernel call lists every argument of its operator's schema, then one value per return
  // (runtime/executor/method.cpp hands them to the kernel as one stack). With the schema
  // (core/op_schema), each position has its name, and the outputs are exactly the out=
  // arguments and the returns. Without one (an operator no registry etviz knows defines, or a
  // call whose argument count does not fit it), ExecuTorch's out-variant convention decides:
  // the last argument is always an output; before it, a run of fresh tensors (multi-output
  // ops such as native_layer_norm.out or max_pool2d_with_indices.out) are outputs too.
  // Delegate calls list their inputs then their outputs, so the same rule applies. See
  // docs/formats.md.
  void split_args(const flatbuffers::Vector<int32_t>& args, Node& node, bool is_delegate,
                  const OpSchema* schema = nullptr) {
    const size_t n = args.size();
    if (n == 0) return;
    const size_t declared = schema ? schema->arguments.size() : 0;
    // The returns follow the arguments: one value each, or, for a tuple, one TensorList of
    // them (max_pool2d_with_indices.out: out, indices, then [out, indices]); or none.
    const size_t returns = schema ? schema->returns.size() : 0;
    if (schema && n != declared + returns && n != declared && !(returns > 1 && n == declared + 1)) {
      note_schema_mismatch(*schema, n);
      schema = nullptr;
    }
    const bool tuple_return = schema && returns > 1 && n == declared + 1;
    std::vector<uint8_t> is_output(n, 0);
    if (schema) {
      for (size_t i = 0; i < n; ++i) is_output[i] = i >= declared || schema->arguments[i].is_out();
    } else {
      size_t first_output = n - 1;
      while (first_output > 0) {
        const ValueId candidate = args.Get(static_cast<flatbuffers::uoffset_t>(first_output - 1));
        if (!is_fresh(candidate) || (is_delegate && looks_like_folded_view(candidate))) break;
        --first_output;
      }
      for (size_t i = first_output; i < n; ++i) is_output[i] = 1;
    }
    auto name_of = [&](size_t i) -> std::string {
      if (!schema) return "";
      if (i < declared) return schema->arguments[i].name;
      if (tuple_return) return "returns";
      const size_t r = i - declared;
      if (!schema->returns[r].name.empty()) return schema->returns[r].name;
      return schema->returns.size() == 1 ? "out" : fmt::format("out{}", r);
    };
    std::vector<ValueId> outputs;
    std::vector<std::string> output_names;
    node.inputs.reserve(n);
    for (size_t i = 0; i < n; ++i) {
      const ValueId id = args.Get(static_cast<flatbuffers::uoffset_t>(i));
      if (!is_output[i]) {
        ensure_producer(id);
        node.inputs.push_back({name_of(i), id});
      } else if (std::find(outputs.begin(), outputs.end(), id) == outputs.end()) {
        outputs.push_back(id);  // out= arguments come back as returns: each is kept once
        output_names.push_back(name_of(i));
      }
    }
    // A functional op's tuple return is a TensorList of its out arguments: record it as an
    // attribute instead of a second copy of every output edge.
    for (size_t k = 0; k < outputs.size(); ++k) {
      const ValueId id = outputs[k];
      const Value& v = graph_.values[id];
      const bool repeats_outputs =
          v.kind == ValueKind::kTensorList && !v.elements.empty() &&
          std::all_of(v.elements.begin(), v.elements.end(), [&](ValueId e) {
            return e != id && std::find(outputs.begin(), outputs.end(), e) != outputs.end();
          });
      if (repeats_outputs)
        node.attributes.push_back({"returns", fmt::format("v{} = {}", id, v.literal)});
      else
        node.outputs.push_back({output_names[k], id});
      mark_produced(id);
    }
  }

  // A call whose argument count fits neither the schema's arguments nor arguments plus
  // returns (a program from another release of the operator): named by position instead,
  // noted once per operator.
  void note_schema_mismatch(const OpSchema& schema, size_t count) {
    if (!ctx_.notes) return;
    for (const std::string& op : mismatched_ops_)
      if (op == schema.name) return;
    mismatched_ops_.push_back(schema.name);
    ctx_.notes->push_back(fmt::format(
        "method '{}': {} is called with {} arguments, but its schema ({}) has {} and {} "
        "returns; its arguments are shown by position",
        graph_.name, schema.name, count, schema.text, schema.arguments.size(),
        schema.returns.size()));
  }

  // Scalars an instruction writes (sym_size's size, a prim op's sum) have no value until the
  // program runs; the file holds a placeholder. They become symbolic (kSymInt, ...) with no
  // literal, as torch.export names them.
  void resolve_run_time_scalars() {
    for (const Node& n : graph_.nodes) {
      if (n.provenance.instruction < 0) continue;
      for (const Argument& a : n.outputs) {
        if (!valid_value(a.value)) continue;
        Value& v = graph_.values[static_cast<size_t>(a.value)];
        const ValueKind sym = v.kind == ValueKind::kInt      ? ValueKind::kSymInt
                              : v.kind == ValueKind::kDouble ? ValueKind::kSymFloat
                              : v.kind == ValueKind::kBool   ? ValueKind::kSymBool
                                                             : v.kind;
        if (sym == v.kind) continue;
        v.kind = sym;
        v.literal = "";
      }
    }
  }

  // An IntList as the runtime sees it: each item is the Int value it names. A member the
  // program computes (a symbolic size) or takes as an input is shown by its value name ("v45");
  // the list links every member (Value::elements), so its boxed values stay reachable.
  void resolve_lists() {
    for (auto& [list, items] : int_lists_) {
      SmallVector<ValueId> members;
      std::string text = "[";
      for (size_t j = 0; j < items.size(); ++j) {
        const int64_t item = items[j];
        std::string shown;
        if (item < 0 || static_cast<uint64_t>(item) >= graph_.values.size()) {
          shown = invalid_item(list, item, "is outside the values table");
        } else if (item == list) {
          shown = invalid_item(list, item, "names the list itself");
        } else {
          const auto id = static_cast<ValueId>(item);
          const Value& m = graph_.values[static_cast<size_t>(id)];
          if (m.kind == ValueKind::kSymInt || (m.kind == ValueKind::kInt && is_graph_input_[id])) {
            shown = m.name;
            members.push_back(id);
          } else if (m.kind == ValueKind::kInt) {
            shown = m.literal;
            members.push_back(id);
          } else {
            shown = invalid_item(list, item,
                                 fmt::format("is a {}, not an int", to_string(m.kind)).c_str());
          }
        }
        if (j < kMaxLiteralItems) text += (j ? ", " : "") + shown;
      }
      if (items.size() > kMaxLiteralItems) text += fmt::format(", ... ({} items)", items.size());
      Value& v = graph_.values[static_cast<size_t>(list)];
      v.literal = text + "]";
      v.elements = std::move(members);
    }
    int_lists_.clear();
    int_lists_.shrink_to_fit();
    warn_bad_lists();
  }

  // One warning per bad item, naming the first instruction that reads its list.
  void warn_bad_lists() {
    if (!ctx_.warnings || bad_lists_.empty()) return;
    for (const Node& n : graph_.nodes) {
      if (n.provenance.instruction < 0) continue;
      for (const Argument& a : n.inputs)
        for (BadList& b : bad_lists_)
          if (b.list == a.value && b.instruction < 0) {
            b.instruction = n.provenance.instruction;
            b.chain = n.provenance.chain;
            b.op = n.op;
          }
    }
    for (const BadList& b : bad_lists_)
      ctx_.warnings->push_back(
          b.instruction >= 0
              ? fmt::format("method '{}' chain {} instruction {} ({}): list v{} {}; shown as "
                            "<invalid value index>",
                            graph_.name, b.chain, b.instruction, b.op, b.list, b.what)
              : fmt::format("method '{}': list v{} {} (no instruction reads it)", graph_.name,
                            b.list, b.what));
  }

  // Every value an instruction reads gets a producer node: constants get a parameter node;
  // an activation that no instruction wrote is usually a view that memory planning folded
  // away (it shares its memory with the value it views), so it gets an "alias" node fed by
  // that value. See docs/formats.md.
  void ensure_producer(ValueId id) {
    // A constant tensor gets one node, created where it is first read (unless an instruction
    // wrote it first: a mutable buffer updated in place).
    if (!produced_[id]) builder_.use(id);
    const Value& v = graph_.values[id];
    if (v.kind != ValueKind::kTensor || produced_[id] || is_graph_input_[id] ||
        v.tensor.is_constant())
      return;
    // A tensor of no bytes (a kernel's empty scratch area, uint8[0]) holds nothing to come
    // from anywhere.
    if (v.tensor.nbytes == 0) return;
    Node n;
    n.kind = NodeKind::kOther;
    n.outputs.push_back({"", id});
    const ValueId source = viewed_value(id);
    if (source != kNoId) {
      n.op = "alias";
      n.name = fmt::format("alias_v{}", id);
      n.inputs.push_back({"", source});
      n.attributes.push_back(
          {"note", fmt::format("no instruction writes v{}; it shares memory with v{} (a view "
                               "folded into the memory plan)",
                               id, source)});
    } else {
      n.op = "unwritten";
      n.name = fmt::format("unwritten_v{}", id);
      n.attributes.push_back(
          {"note", fmt::format("v{} is read before any instruction writes it (a buffer the "
                               "kernel uses as it finds it, such as a scratch area)",
                               id)});
    }
    builder_.add_node(std::move(n));
    mark_produced(id);
  }

  // The value a tensor no instruction writes is a view of, folded into the memory plan: the
  // last value written at the same placement, holding the same number of bytes (ExecuTorch
  // folds static reshapes, memory.view, which keep every byte). A buffer of another size at
  // bytes a dead tensor used (a kernel's scratch area, uint8[256] where an int8[1, 64, 25, 5]
  // lived) is not a view of it. kNoId when there is none.
  ValueId viewed_value(ValueId id) const {
    const Value& v = graph_.values[id];
    if (v.kind != ValueKind::kTensor || !v.tensor.placement) return kNoId;
    auto it = last_writer_.find(placement_key(*v.tensor.placement));
    if (it == last_writer_.end()) return kNoId;
    const int64_t a = v.tensor.nbytes, b = graph_.values[it->second].tensor.nbytes;
    return a < 0 || b < 0 || a == b ? it->second : kNoId;
  }

  // A delegate call's argument list does not say where its inputs end. A fresh tensor that
  // nothing reads afterwards, that is not a method output, and that is a view folded into the
  // memory plan is an input, not an output.
  bool looks_like_folded_view(ValueId id) const {
    if (last_mention_[id] > current_instruction_ || is_graph_output_[id]) return false;
    return viewed_value(id) != kNoId;
  }

  static uint64_t placement_key(const MemoryPlacement& p) {
    return (static_cast<uint64_t>(p.memory_id) << 48) ^ p.offset;
  }

  void mark_produced(ValueId id) {
    auto mark = [&](ValueId v) {
      produced_[v] = true;
      const auto& t = graph_.values[v].tensor;
      if (graph_.values[v].kind == ValueKind::kTensor && t.placement)
        last_writer_[placement_key(*t.placement)] = v;
    };
    mark(id);
    for (ValueId e : graph_.values[id].elements)
      if (e != kNoId) mark(e);
  }

  Status check_args(const flatbuffers::Vector<int32_t>* args, const std::string& where) {
    if (!args) return Status::Ok();
    if (!budget_.charge(args->size())) return ExpansionBudget::exhausted_error();
    for (int32_t a : *args)
      if (!valid_value(a))
        return error(fmt::format("{} names value {} but the method has {} values", where, a,
                                 graph_.values.size()));
    return Status::Ok();
  }

  Status add_instructions() {
    const auto* chains = plan_.chains();
    if (!chains) return Status::Ok();
    int64_t position = 0;
    for (flatbuffers::uoffset_t c = 0; c < chains->size(); ++c) {
      const fb::Chain* chain = chains->Get(c);
      const auto* instructions = chain->instructions();
      if (!instructions) continue;
      for (flatbuffers::uoffset_t i = 0; i < instructions->size(); ++i) {
        const std::string where = fmt::format("chain {} instruction {}", c, i);
        Node node;
        current_instruction_ = position++;
        node.provenance.chain = static_cast<int32_t>(c);
        node.provenance.instruction = i;
        if (auto s = read_instruction(*instructions->Get(i), where, node); !s) return s;
        if (auto s = attach_stack(*chain, i, node); !s) return s;
        builder_.add_node(std::move(node));
        if (position % kReleaseEvery == 0) release_pages();
      }
    }
    return Status::Ok();
  }

  Status read_instruction(const fb::Instruction& instr, const std::string& where, Node& node) {
    const auto index = node.provenance.instruction;
    if (instr.instr_args_type() != fb::InstructionArguments::NONE && !instr.instr_args())
      return error(fmt::format("{}: instruction kind {} without its arguments", where,
                               static_cast<int>(instr.instr_args_type())));
    switch (instr.instr_args_type()) {
      case fb::InstructionArguments::KernelCall: {
        const auto* call = instr.instr_args_as_KernelCall();
        const auto* ops = plan_.operators();
        const int32_t op = call->op_index();
        if (!ops || op < 0 || static_cast<size_t>(op) >= ops->size())
          return error(fmt::format("{}: operator index {} but the method has {} operators", where,
                                   op, ops ? ops->size() : 0));
        node.kind = NodeKind::kKernel;
        const fb::Operator* op_entry = ops->Get(op);
        node.op = op_name(op_entry);
        node.name = fmt::format("{}_{}", short_op_name(node.op), index);
        if (auto s = check_args(call->args(), where); !s) return s;
        const OpSchema* schema =
            op_entry && op_entry->name()
                ? find_op_schema(op_entry->name()->string_view(),
                                 op_entry->overload() ? op_entry->overload()->string_view() : "")
                : nullptr;
        if (call->args()) split_args(*call->args(), node, false, schema);
        return Status::Ok();
      }
      case fb::InstructionArguments::DelegateCall: {
        const auto* call = instr.instr_args_as_DelegateCall();
        const int32_t d = call->delegate_index();
        if (d < 0 || static_cast<size_t>(d) >= ctx_.delegate_ids.size())
          return error(fmt::format("{}: delegate index {} but the method has {} delegates", where,
                                   d, ctx_.delegate_ids.size()));
        node.kind = NodeKind::kDelegate;
        node.delegate = ctx_.delegate_ids[d];
        const auto* delegate = plan_.delegates()->Get(d);
        node.op = delegate->id() ? delegate->id()->str() : "<unnamed backend>";
        node.name = fmt::format("{}_{}", node.op, index);
        node.attributes.push_back({"delegate_index", std::to_string(d)});
        if (auto s = check_args(call->args(), where); !s) return s;
        if (call->args()) split_args(*call->args(), node, true);
        return Status::Ok();
      }
      case fb::InstructionArguments::MoveCall: {
        const auto* call = instr.instr_args_as_MoveCall();
        if (!valid_value(call->move_from()) || !valid_value(call->move_to()))
          return error(fmt::format("{}: move from {} to {} names a missing value", where,
                                   call->move_from(), call->move_to()));
        node.kind = NodeKind::kMove;
        node.op = "move";
        node.name = fmt::format("move_{}", index);
        ensure_producer(call->move_from());
        node.inputs.push_back({"from", call->move_from()});
        node.outputs.push_back({"to", call->move_to()});
        mark_produced(call->move_to());
        return Status::Ok();
      }
      case fb::InstructionArguments::JumpFalseCall: {
        const auto* call = instr.instr_args_as_JumpFalseCall();
        if (!valid_value(call->cond_value_index()))
          return error(fmt::format("{}: jump condition names missing value {}", where,
                                   call->cond_value_index()));
        node.kind = NodeKind::kJumpFalse;
        node.op = "jump_false";
        node.name = fmt::format("jump_false_{}", index);
        node.inputs.push_back({"condition", call->cond_value_index()});
        node.attributes.push_back(
            {"destination_instruction", std::to_string(call->destination_instruction())});
        return Status::Ok();
      }
      case fb::InstructionArguments::FreeCall: {
        const auto* call = instr.instr_args_as_FreeCall();
        if (!valid_value(call->value_index()))
          return error(fmt::format("{}: free names missing value {}", where, call->value_index()));
        node.kind = NodeKind::kFree;
        node.op = "free";
        node.name = fmt::format("free_{}", index);
        node.inputs.push_back({"value", call->value_index()});
        return Status::Ok();
      }
      case fb::InstructionArguments::NONE:
        break;
    }
    // An instruction kind from a newer schema: keep a placeholder so indices stay aligned.
    node.kind = NodeKind::kOther;
    node.op =
        fmt::format("<unknown instruction kind {}>", static_cast<int>(instr.instr_args_type()));
    node.name = fmt::format("instruction_{}", index);
    return Status::Ok();
  }

  Status attach_stack(const fb::Chain& chain, flatbuffers::uoffset_t i, Node& node) {
    const auto* traces = chain.stacktrace();
    if (!traces || i >= traces->size()) return Status::Ok();
    const fb::FrameList* frames = traces->Get(i);
    if (!frames || !frames->items()) return Status::Ok();
    if (!budget_.charge(frames->items()->size())) return ExpansionBudget::exhausted_error();
    for (const fb::Frame* f : *frames->items()) {
      StackFrame frame;
      if (f->filename()) frame.file = f->filename()->str();
      frame.line = f->lineno();
      if (f->name()) frame.function = f->name()->str();
      if (f->context()) frame.context = f->context()->str();
      if (!budget_.charge(frame.file.size() + frame.context.size()))
        return ExpansionBudget::exhausted_error();
      node.provenance.stack.push_back(std::move(frame));
    }
    return Status::Ok();
  }

  const fb::ExecutionPlan& plan_;
  const ProgramContext& ctx_;
  ExpansionBudget& budget_;
  GraphBuilder builder_;
  Graph& graph_;  // builder_'s graph
  std::vector<bool> produced_;
  std::vector<bool> is_graph_input_;
  std::unordered_map<uint64_t, ValueId> last_writer_;  // memory placement -> latest value there
  std::vector<int64_t> last_mention_;  // last instruction (in program order) naming each value
  std::vector<bool> is_graph_output_;
  int64_t current_instruction_ = 0;
  // IntList values and their raw items (value indices), until resolve_lists.
  std::vector<std::pair<ValueId, std::vector<int64_t>>> int_lists_;
  struct BadList {
    ValueId list = kNoId;
    std::string what;
    int32_t chain = -1, instruction = -1;
    std::string op;
  };
  std::vector<BadList> bad_lists_;
  std::vector<std::string> mismatched_ops_;  // operators already noted
};

}  // namespace

Result<Graph> build_method_graph(const etviz::pte::ExecutionPlan& plan, const ProgramContext& ctx,
                                 ExpansionBudget& budget) {
  return Builder(plan, ctx, budget).build();
}

}  // namespace etviz::executorch
