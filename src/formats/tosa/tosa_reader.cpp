#include "formats/tosa/tosa_reader.h"

#include <flatbuffers/minireflect.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <optional>
#include <unordered_map>

#include "core/bytes.h"
#include "core/expansion_budget.h"
#include "core/graph_builder.h"
#include "formats/flatbuffer_verify.h"
#include "formats/tosa/tosa_ops.h"
#include "tosa_generated.h"

namespace etviz::tosa {
namespace {

// Element types by the flatbuffer's DType number: etviz's canonical name and bytes per element
// (0: packed below a byte, or not a storage type).
struct TypeInfo {
  const char* name;
  int size;
};
constexpr TypeInfo kTypes[] = {
    {"unknown", 0},        {"bool", 1},          {"int4", 0},          {"int8", 1},
    {"int16", 2},          {"int32", 4},         {"int48", 6},         {"float32", 4},
    {"float16", 2},        {"bfloat16", 2},      {"shape", 8},         {"float8_e4m3fn", 1},
    {"float8_e5m2", 1},    {"float6_e2m3fn", 0}, {"float6_e3m2fn", 0}, {"float4_e2m1fn", 0},
    {"float8_e8m0fnu", 1}, {"int64", 8},         {"mxint8", 1},
};
constexpr size_t kTypeCount = sizeof(kTypes) / sizeof(kTypes[0]);
static_assert(kTypeCount == 19, "DType 0..18");
// DType numbers the value previews decode.
enum : uint32_t {
  kBool = 1,
  kInt4 = 2,
  kInt8 = 3,
  kInt16 = 4,
  kInt32 = 5,
  kInt48 = 6,
  kFp32 = 7,
  kFp16 = 8,
  kBf16 = 9,
  kShape = 10,
  kInt64 = 17,
};

TypeInfo type_info(uint32_t t) {
  return t < kTypeCount ? kTypes[t] : TypeInfo{nullptr, 0};
}

std::string dtype_name(uint32_t t) {
  const TypeInfo info = type_info(t);
  return info.name ? info.name : fmt::format("dtype({})", t);
}

float half_to_float(uint16_t h) {
  const uint32_t sign = (h >> 15) & 1, exp = (h >> 10) & 0x1F, frac = h & 0x3FF;
  float v;
  if (exp == 0)
    v = std::ldexp(static_cast<float>(frac), -24);
  else if (exp == 31)
    v = frac ? NAN : INFINITY;
  else
    v = std::ldexp(static_cast<float>(frac | 0x400), static_cast<int>(exp) - 25);
  return sign ? -v : v;
}

// One element of type `t` at `p` (little-endian), as text; empty for types not decoded here.
std::string element_text(uint32_t t, const uint8_t* p) {
  switch (t) {
    case kBool:
      return p[0] ? "true" : "false";
    case kInt8:
      return std::to_string(static_cast<int8_t>(p[0]));
    case kInt16:
      return std::to_string(load_le<int16_t>(p));
    case kInt32:
      return std::to_string(load_le<int32_t>(p));
    case kInt48: {
      uint64_t v = 0;
      std::memcpy(&v, p, 6);
      if (v & (uint64_t{1} << 47)) v |= ~uint64_t{0} << 48;  // sign-extend
      return std::to_string(static_cast<int64_t>(v));
    }
    case kShape:
    case kInt64:
      return std::to_string(load_le<int64_t>(p));
    case kFp32:
      return fmt::format("{:g}", load_le<float>(p));
    case kFp16:
      return fmt::format("{:g}", half_to_float(load_le<uint16_t>(p)));
    case kBf16: {
      const uint32_t bits = uint32_t{load_le<uint16_t>(p)} << 16;
      float f;
      std::memcpy(&f, &bits, sizeof f);
      return fmt::format("{:g}", f);
    }
    default:
      return {};
  }
}

// Up to this many elements of a constant are shown as its node's "value" (zero points,
// shifts, shapes); larger constants are only located, never read while the file is opened.
constexpr size_t kPreviewElements = 16;

std::string preview(uint32_t t, std::span<const uint8_t> data, size_t count, bool scalar) {
  const int size = type_info(t).size;
  if (size <= 0 || count > kPreviewElements || data.size() < count * static_cast<size_t>(size))
    return {};
  std::string out;
  for (size_t k = 0; k < count; ++k) {
    std::string e = element_text(t, data.data() + k * static_cast<size_t>(size));
    if (e.empty()) return {};
    out += (k ? ", " : "") + e;
  }
  return scalar ? out : "[" + out + "]";
}

std::string hex_preview(const flatbuffers::Vector<uint8_t>* v) {
  if (!v) return "<0 bytes>";
  std::string hex;
  for (size_t i = 0; i < std::min<size_t>(v->size(), 16); ++i)
    hex += fmt::format("{:02x}", v->Get(static_cast<flatbuffers::uoffset_t>(i)));
  return fmt::format("<{} bytes{}{}{}>", v->size(), v->size() ? ": " : "", hex,
                     v->size() > 16 ? "..." : "");
}

std::string str(const flatbuffers::String* s) {
  return s ? s->str() : std::string();
}

// A control-flow reference: operator `node` of graph `graph` names region `region` in its
// attribute `field`.
struct RegionRef {
  size_t graph;
  NodeId node;
  size_t op_index;
  std::string op;
  std::string field;
  std::string region;
};

struct BlockRef {
  const fb::Region* region;
  const fb::Block* block;
  size_t region_index;
  std::string name;  // "main", "cond_true", "region/block"
};

class Reader {
 public:
  Reader(std::span<const uint8_t> bytes, const ReadOptions& options)
      : bytes_(bytes), options_(options), budget_(bytes.size()) {}

  Result<TosaGraphs> read() {
    if (auto s = verify_flatbuffer<fb::Graph>(bytes_, "TOSA", "TOSA flatbuffer"); !s)
      return s.error();
    const fb::Graph* root = flatbuffers::GetRoot<fb::Graph>(bytes_.data());
    const fb::Version* v = root->version();
    out_.version = fmt::format("{}.{}.{}{}", v->_major(), v->_minor(), v->_patch(),
                               v->_draft() ? " draft" : "");
    if (const fb::SoftwareVersion* sw = root->software_version())
      out_.software_version =
          fmt::format("{}.{}.{}{}{}", sw->_major(), sw->_minor(), sw->_micro(),
                      sw->_modifier() && sw->_modifier()->size() ? "-" : "", str(sw->_modifier()));
    const auto* regions = root->regions();
    if (!regions || regions->size() == 0) return Error("the file holds no region (no graph)");
    // The entry: region "main", else the first region; its first block.
    size_t main_region = 0;
    for (size_t r = 0; r < regions->size(); ++r)
      if (str(regions->Get(static_cast<flatbuffers::uoffset_t>(r))->name()) == "main") {
        main_region = r;
        break;
      }
    // Blocks in graph order: the entry first, then every other block in file order.
    auto add_block = [&](size_t r, size_t b) {
      const fb::Region* region = regions->Get(static_cast<flatbuffers::uoffset_t>(r));
      const fb::Block* block = region->blocks()->Get(static_cast<flatbuffers::uoffset_t>(b));
      const std::string rn = str(region->name()), bn = str(block->name());
      std::string name = region->blocks()->size() == 1 && (bn.empty() || bn == rn)
                             ? rn
                             : rn + "/" + (bn.empty() ? std::to_string(b) : bn);
      if (name.empty()) name = fmt::format("region{}", r);
      blocks_.push_back({region, block, r, std::move(name)});
    };
    const fb::Region* entry = regions->Get(static_cast<flatbuffers::uoffset_t>(main_region));
    if (!entry->blocks() || entry->blocks()->size() == 0)
      return Error(fmt::format("region '{}' holds no block", str(entry->name())));
    add_block(main_region, 0);
    for (size_t r = 0; r < regions->size(); ++r) {
      const auto* blocks = regions->Get(static_cast<flatbuffers::uoffset_t>(r))->blocks();
      for (size_t b = 0; blocks && b < blocks->size(); ++b)
        if (r != main_region || b != 0) add_block(r, b);
    }
    // Each region's graph: its first block's.
    for (size_t k = 0; k < blocks_.size(); ++k) region_graph_.emplace(blocks_[k].region_index, k);
    for (size_t k = 0; k < blocks_.size(); ++k) {
      auto g = read_block(k);
      if (!g) return g.error();
      out_.graphs.push_back(std::move(*g));
    }
    if (auto s = link_regions(regions); !s) return s.error();
    // Graphs no operator opens are graphs of their own (top level when the file is), the
    // others are bodies.
    std::vector<bool> opened(out_.graphs.size(), false);
    for (const RegionRef& r : refs_) opened[region_graph_.at(region_index_.at(r.region))] = true;
    for (size_t k = 1; k < out_.graphs.size(); ++k)
      out_.graphs[k].kind = opened[k] ? GraphKind::kSubgraph : options_.kind;
    return std::move(out_);
  }

 private:
  std::string graph_name(size_t k) const {
    return k == 0 ? options_.graph_name : options_.graph_name + "/" + blocks_[k].name;
  }

  Status charge(uint64_t n) {
    if (!budget_.charge(n)) return ExpansionBudget::exhausted_error();
    return Status::Ok();
  }

  // Where a constant's bytes are: inside the flatbuffer (`data`), or, in files over 2 GiB,
  // `size` bytes at `offset` of the file.
  // `what` names the tensor in an error; called only then (it searches the block's operators).
  template <typename What>
  Result<std::optional<BlobRef>> locate(const flatbuffers::Vector<uint8_t>* data, uint64_t offset,
                                        uint64_t size, What&& what) {
    if (data && data->size() > 0) {
      const auto at = static_cast<uint64_t>(data->data() - bytes_.data());
      return std::optional<BlobRef>(BlobRef{options_.source, options_.base + at, data->size()});
    }
    if (offset > 1 && size > 0) {
      const uint64_t file = options_.file_size ? options_.file_size : bytes_.size();
      if (offset > file || size > file - offset)
        return Error(
            fmt::format("{} states {} bytes of data at offset {}, past the end of the {}-byte file",
                        what(), size, offset, file));
      return std::optional<BlobRef>(BlobRef{options_.source, options_.base + offset, size});
    }
    return std::optional<BlobRef>();
  }

  // The operator that writes each name, for messages about constants.
  static std::string writer_of(const fb::Block* block, std::string_view name) {
    const auto* ops = block->operators();
    for (size_t i = 0; ops && i < ops->size(); ++i) {
      const auto* op = ops->Get(static_cast<flatbuffers::uoffset_t>(i));
      if (!op->outputs()) continue;
      for (const auto* o : *op->outputs())
        if (o->string_view() == name) {
          const auto n = static_cast<uint32_t>(op->op());
          return fmt::format(" (written by operator {}, {})", i,
                             n < kOpCount ? kOps[n].name : std::string_view("?"));
        }
    }
    return {};
  }

  Result<Graph> read_block(size_t k) {
    const BlockRef& ref = blocks_[k];
    const fb::Block* block = ref.block;
    const std::string where = fmt::format("block '{}'", ref.name);
    GraphBuilder b(graph_name(k), k == 0 ? options_.kind : GraphKind::kSubgraph);
    Graph& g = b.graph();
    std::unordered_map<std::string_view, ValueId> names;
    std::vector<uint32_t> dtype;  // per value: the DType number (value previews, Clamp)
    const auto* tensors = block->tensors();
    const auto* shapes = block->shapes();
    const size_t n_tensors = tensors ? tensors->size() : 0, n_shapes = shapes ? shapes->size() : 0;
    if (auto s = charge(n_tensors + n_shapes); !s) return s.error();
    g.values.reserve(n_tensors + n_shapes);
    names.reserve(n_tensors + n_shapes);
    auto define = [&](std::string_view name, const std::string& kind) -> Result<ValueId> {
      if (name.empty())
        return Error(fmt::format("{}: a {} has no name, so no operator can use it", where, kind));
      if (names.count(name))
        return Error(fmt::format("{}: two tensors or shapes are named '{}'", where, name));
      const auto v = static_cast<ValueId>(g.values.size());
      names.emplace(name, v);
      return v;
    };
    size_t longer = 0;  // constants holding more bytes than their shape and type need
    std::string longer_example;
    for (size_t i = 0; i < n_tensors; ++i) {
      const fb::Tensor* t = tensors->Get(static_cast<flatbuffers::uoffset_t>(i));
      const std::string name = str(t->name());
      auto v = define(t->name() ? t->name()->string_view() : std::string_view(), "tensor");
      if (!v) return v.error();
      TensorInfo info;
      const auto type = static_cast<uint32_t>(t->type());
      info.dtype = dtype_name(type);
      if (const auto* shape = t->shape()) {
        if (auto s = charge(shape->size()); !s) return s.error();
        info.shape.reserve(shape->size());
        for (int32_t d : *shape) info.shape.push_back(Dim{d, {}});
      }
      if (t->is_unranked()) {
        info.shape.clear();
        info.dynamism = ShapeDynamism::kDynamicUnbound;
      }
      const int size = type_info(type).size;
      if (auto n = info.byte_size(size > 0 ? size : -1)) info.nbytes = *n;
      if (type == kInt4)
        if (auto n = info.numel()) info.nbytes = (*n + 1) / 2;
      auto blob = locate(t->data(), t->offset(), t->size(), [&] {
        return fmt::format("{}: tensor '{}'{}", where, name, writer_of(block, name));
      });
      if (!blob) return blob.error();
      if (*blob) {
        info.data_location = DataLocation::kInline;
        if (info.nbytes >= 0 && static_cast<uint64_t>(info.nbytes) > (*blob)->size)
          out_.warnings.push_back(fmt::format(
              "{}: tensor '{}' holds {} bytes of data; its shape {} and type {} need {}", where,
              name, (*blob)->size, info.shape_string(), info.dtype.str(), info.nbytes));
        // Arm's serializer writes per-channel weight zero points as shape [1] with one byte
        // per channel: harmless, said once per block.
        if (info.nbytes >= 0 && static_cast<uint64_t>(info.nbytes) < (*blob)->size) {
          if (longer == 0)
            longer_example = fmt::format("'{}': {} {}, {} bytes", name, info.shape_string(),
                                         info.dtype.str(), (*blob)->size);
          ++longer;
        }
        g.constant_data.push_back(ConstantData{*v, **blob, 0, 0});
      }
      b.add_tensor(name, std::move(info));
      dtype.push_back(type);
    }
    if (longer)
      out_.notes.push_back(fmt::format(
          "{}: {} constant tensor{} hold{} more bytes than {} shape and type need (e.g. {}); "
          "the shape's are shown",
          where, longer, longer == 1 ? "" : "s", longer == 1 ? "s" : "",
          longer == 1 ? "its" : "their", longer_example));
    for (size_t i = 0; i < n_shapes; ++i) {
      const fb::Shape* s = shapes->Get(static_cast<flatbuffers::uoffset_t>(i));
      const std::string name = str(s->name());
      auto v = define(s->name() ? s->name()->string_view() : std::string_view(), "shape");
      if (!v) return v.error();
      TensorInfo info;
      info.dtype = "shape";
      info.shape.push_back(Dim{static_cast<int64_t>(s->rank()), {}});
      info.nbytes = static_cast<int64_t>(s->rank()) * 8;
      auto blob = locate(s->data(), 0, 0, [&] {
        return fmt::format("{}: shape '{}'{}", where, name, writer_of(block, name));
      });
      if (!blob) return blob.error();
      if (*blob) {
        info.data_location = DataLocation::kInline;
        if ((*blob)->size != static_cast<uint64_t>(info.nbytes))
          out_.warnings.push_back(fmt::format("{}: shape '{}' of rank {} holds {} bytes, not {}",
                                              where, name, s->rank(), (*blob)->size, info.nbytes));
        g.constant_data.push_back(ConstantData{*v, **blob, 0, 0});
      }
      b.add_tensor(name, std::move(info));
      dtype.push_back(kShape);
    }
    // `context` says who names it, for the error; made only then (100k-operator graphs).
    auto lookup = [&](const flatbuffers::String* s, auto&& context) -> Result<ValueId> {
      const std::string_view name = s ? s->string_view() : std::string_view();
      auto it = names.find(name);
      if (it == names.end())
        return Error(fmt::format("{}: {} '{}', which is no tensor or shape of the block", where,
                                 context(), name));
      return it->second;
    };
    // Block inputs first: the viewer draws them at the top.
    if (const auto* ins = block->inputs()) {
      if (auto s = charge(ins->size()); !s) return s.error();
      for (size_t i = 0; i < ins->size(); ++i) {
        auto v = lookup(ins->Get(static_cast<flatbuffers::uoffset_t>(i)),
                        [&] { return fmt::format("input {} names", i); });
        if (!v) return v.error();
        b.add_input(*v, g.values[static_cast<size_t>(*v)].name);
      }
    }
    const auto* ops = block->operators();
    const size_t n_ops = ops ? ops->size() : 0;
    out_.operators += static_cast<int64_t>(n_ops);
    g.nodes.reserve(g.nodes.size() + n_ops + (block->outputs() ? block->outputs()->size() : 0));
    std::map<std::string, int64_t> histogram;
    for (size_t i = 0; i < n_ops; ++i) {
      const fb::Operator* op = ops->Get(static_cast<flatbuffers::uoffset_t>(i));
      const auto number = static_cast<uint32_t>(op->op());
      const OpInfo* info = number < kOpCount && number > 0 ? &kOps[number] : nullptr;
      const std::string op_name =
          info ? std::string(info->name) : fmt::format("TOSA_op_{}", number);
      const auto context = [&] { return fmt::format("operator {} ({})", i, op_name); };
      const auto* ins = op->inputs();
      const auto* outs = op->outputs();
      if (auto s = charge(1 + (ins ? ins->size() : 0) + (outs ? outs->size() : 0)); !s)
        return s.error();
      std::vector<ValueId> in_values, out_values;
      for (size_t j = 0; ins && j < ins->size(); ++j) {
        auto v = lookup(ins->Get(static_cast<flatbuffers::uoffset_t>(j)),
                        [&] { return fmt::format("{} reads input {}", context(), j); });
        if (!v) return v.error();
        in_values.push_back(*v);
      }
      for (size_t j = 0; outs && j < outs->size(); ++j) {
        auto v = lookup(outs->Get(static_cast<flatbuffers::uoffset_t>(j)),
                        [&] { return fmt::format("{} writes output {}", context(), j); });
        if (!v) return v.error();
        out_values.push_back(*v);
      }
      if (number == kOpConst || number == kOpConstShape) {
        // A constant: one node per tensor, named by it (core/graph_builder.h), with the value
        // of small ones.
        ++histogram[op_name];
        for (ValueId v : out_values) {
          const NodeId n = b.add_constant(v, GraphBuilder::default_role(g.values[v].tensor));
          if (const BlobRef* blob = g.constant_blob(v)) {
            const TensorInfo& t = g.values[v].tensor;
            const auto count = t.numel();
            if (count && blob->source == options_.source && blob->offset >= options_.base &&
                blob->offset - options_.base <= bytes_.size()) {
              const auto data = bytes_.subspan(blob->offset - options_.base);
              std::string text = preview(dtype[static_cast<size_t>(v)],
                                         data.first(std::min<size_t>(data.size(), blob->size)),
                                         static_cast<size_t>(*count), t.shape.empty());
              if (!text.empty())
                g.nodes[static_cast<size_t>(n)].attributes.push_back({"value", text});
            }
          }
        }
        continue;
      }
      Node n;
      n.kind = NodeKind::kKernel;
      n.op = op_name;
      n.name = out_values.empty() ? fmt::format("{}_{}", op_name, i)
                                  : g.values[static_cast<size_t>(out_values[0])].name;
      // Inputs named by the specification's argument list, after its attributes.
      std::vector<std::string_view> arg_names;
      bool last_is_list = false;
      if (info)
        for_each_argument(*info, [&](std::string_view a, bool list) {
          arg_names.push_back(a);
          last_is_list = list;
        });
      const size_t first_input = info ? info->attributes : 0;
      for (size_t j = 0; j < in_values.size(); ++j) {
        const size_t at = first_input + j;
        std::string_view name = at < arg_names.size() ? arg_names[at]
                                : last_is_list && arg_names.size() > first_input
                                    ? arg_names.back()
                                    : std::string_view();
        n.inputs.push_back({std::string(name), in_values[j]});
      }
      for (ValueId v : out_values) n.outputs.push_back({"output", v});
      attributes(op, info, in_values.empty() ? 0 : dtype[static_cast<size_t>(in_values[0])], n);
      if (const fb::Location* loc = op->location())
        if (loc->text() && loc->text()->size())
          n.attributes.push_back({"location", str(loc->text())});
      if (const auto* cond = op->attributes_as_COND_IF()) {
        refs_.push_back({k, static_cast<NodeId>(g.nodes.size()), i, op_name, "then_graph",
                         str(cond->then_graph())});
        refs_.push_back({k, static_cast<NodeId>(g.nodes.size()), i, op_name, "else_graph",
                         str(cond->else_graph())});
      } else if (const auto* loop = op->attributes_as_WHILE_LOOP()) {
        // The body first: it is what the loop does, the node opens it.
        refs_.push_back({k, static_cast<NodeId>(g.nodes.size()), i, op_name, "body_graph",
                         str(loop->body_graph())});
        refs_.push_back({k, static_cast<NodeId>(g.nodes.size()), i, op_name, "cond_graph",
                         str(loop->cond_graph())});
      }
      ++histogram[op_name];
      b.add_node(std::move(n));
    }
    if (const auto* outs = block->outputs()) {
      if (auto s = charge(outs->size()); !s) return s.error();
      for (size_t i = 0; i < outs->size(); ++i) {
        auto v = lookup(outs->Get(static_cast<flatbuffers::uoffset_t>(i)),
                        [&] { return fmt::format("output {} names", i); });
        if (!v) return v.error();
        b.add_output(*v, g.values[static_cast<size_t>(*v)].name);
      }
    }
    if (k == 0) {
      auto io = [&](const std::vector<ValueId>& ids, std::vector<IoTensor>& to) {
        for (ValueId v : ids) {
          IoTensor t;
          t.dtype = g.values[static_cast<size_t>(v)].tensor.dtype.str();
          for (const Dim& d : g.values[static_cast<size_t>(v)].tensor.shape)
            t.shape.push_back(d.size);
          to.push_back(std::move(t));
        }
      };
      io(g.inputs, out_.inputs);
      io(g.outputs, out_.outputs);
    }
    g.attributes.push_back({"format", "TOSA flatbuffer"});
    g.attributes.push_back({"tosa_version", out_.version});
    if (!out_.software_version.empty())
      g.attributes.push_back({"software_version", out_.software_version});
    g.attributes.push_back({"region", str(ref.region->name())});
    g.attributes.push_back({"block", str(block->name())});
    g.attributes.push_back({"operators", std::to_string(n_ops)});
    std::string hist;
    for (const auto& [op, count] : histogram)
      hist += fmt::format("{}{} {}", hist.empty() ? "" : ", ", op, count);
    g.attributes.push_back({"tosa_operations", hist});
    std::sort(g.constant_data.begin(), g.constant_data.end(),
              [](const ConstantData& a, const ConstantData& c) { return a.value < c.value; });
    return b.finish();
  }

  // The operator's attribute table, field by field (mini-reflection over the schema's own
  // tables), in the order the specification lists them so both Arm readers agree.
  void attributes(const fb::Operator* op, const OpInfo* info, uint32_t input_type, Node& n) {
    const auto type = static_cast<uint8_t>(op->attributes_type());
    const flatbuffers::TypeTable* unions = fb::AttributesTypeTable();
    const auto* table = reinterpret_cast<const flatbuffers::Table*>(op->attributes());
    if (type == 0 || type >= unions->num_elems || !table) return;
    const flatbuffers::TypeCode code = unions->type_codes[type];
    if (code.sequence_ref < 0) return;
    const flatbuffers::TypeTable* tt = unions->type_refs[code.sequence_ref]();
    std::vector<bool> done(tt->num_elems, false);
    auto emit = [&](size_t f) {
      done[f] = true;
      n.attributes.push_back({tt->names[f], field_text(table, tt, f, input_type)});
    };
    if (info) {
      size_t k = 0;
      for_each_argument(*info, [&](std::string_view a, bool) {
        if (k++ >= info->attributes) return;
        for (size_t f = 0; f < tt->num_elems; ++f)
          if (!done[f] && a == tt->names[f]) emit(f);
      });
    }
    for (size_t f = 0; f < tt->num_elems; ++f)
      if (!done[f]) emit(f);
  }

  static std::string enum_text(const flatbuffers::TypeTable* et, int64_t value) {
    for (size_t i = 0; et && i < et->num_elems; ++i)
      if ((et->values ? et->values[i] : static_cast<int64_t>(i)) == value) return et->names[i];
    return std::to_string(value);
  }

  // One field of a verified attribute table, as text. The generated verifier checked the
  // table against the same schema, so each field is read as the type it was verified as.
  static std::string field_text(const flatbuffers::Table* t, const flatbuffers::TypeTable* tt,
                                size_t f, uint32_t input_type) {
    const flatbuffers::TypeCode c = tt->type_codes[f];
    const auto vo = static_cast<flatbuffers::voffset_t>(
        flatbuffers::FieldIndexToOffset(static_cast<flatbuffers::voffset_t>(f)));
    const auto base = static_cast<flatbuffers::ElementaryType>(c.base_type);
    const flatbuffers::TypeTable* et =
        c.sequence_ref >= 0 ? tt->type_refs[c.sequence_ref]() : nullptr;
    if (c.is_repeating) {
      if (base == flatbuffers::ET_INT) {
        const auto* v = t->GetPointer<const flatbuffers::Vector<int32_t>*>(vo);
        std::string s = "[";
        for (size_t i = 0; v && i < v->size(); ++i)
          s += (i ? ", " : "") + std::to_string(v->Get(static_cast<flatbuffers::uoffset_t>(i)));
        return s + "]";
      }
      if (base == flatbuffers::ET_UCHAR) {
        const auto* v = t->GetPointer<const flatbuffers::Vector<uint8_t>*>(vo);
        // Clamp's bounds are one element of the input's type.
        const std::string_view name = tt->names[f];
        const int size = type_info(input_type).size;
        if ((name == "min_val" || name == "max_val") && v && size > 0 &&
            v->size() == static_cast<size_t>(size)) {
          std::string e = element_text(input_type, v->data());
          if (!e.empty()) return e;
        }
        return hex_preview(v);
      }
      return "?";
    }
    switch (base) {
      case flatbuffers::ET_BOOL:
        return t->GetField<uint8_t>(vo, 0) ? "true" : "false";
      case flatbuffers::ET_INT:
        return std::to_string(t->GetField<int32_t>(vo, 0));
      case flatbuffers::ET_UINT: {
        const uint32_t v = t->GetField<uint32_t>(vo, 0);
        if (!et) return std::to_string(v);
        return enum_text(et, v);
      }
      case flatbuffers::ET_STRING:
        return str(t->GetPointer<const flatbuffers::String*>(vo));
      default:
        return "?";
    }
  }

  // Control flow: each named region must exist and must not lead back to a region that is
  // being entered (a body that contains its own loop would nest without end).
  Status link_regions(const flatbuffers::Vector<flatbuffers::Offset<fb::Region>>* regions) {
    for (size_t r = 0; r < regions->size(); ++r) {
      const std::string name = str(regions->Get(static_cast<flatbuffers::uoffset_t>(r))->name());
      region_index_.emplace(name, r);
    }
    const auto block_where = [&](const RegionRef& ref) {
      return fmt::format("block '{}', operator {} ({})", blocks_[ref.graph].name, ref.op_index,
                         ref.op);
    };
    std::vector<std::vector<const RegionRef*>> out(regions->size());
    for (const RegionRef& ref : refs_) {
      if (!region_index_.count(ref.region) || !region_graph_.count(region_index_.at(ref.region)))
        return Error(fmt::format("{}: {} names region '{}', which the file does not have",
                                 block_where(ref), ref.field, ref.region));
      out[blocks_[ref.graph].region_index].push_back(&ref);
    }
    // Depth-first over regions; 0 unvisited, 1 on the path, 2 done. Iterative: a hostile file
    // may chain thousands of regions.
    std::vector<int> state(regions->size(), 0);
    for (size_t start = 0; start < regions->size(); ++start) {
      if (state[start]) continue;
      std::vector<std::pair<size_t, size_t>> stack{{start, 0}};
      state[start] = 1;
      while (!stack.empty()) {
        auto& [r, next] = stack.back();
        if (next == out[r].size()) {
          state[r] = 2;
          stack.pop_back();
          continue;
        }
        const RegionRef* ref = out[r][next++];
        const size_t to = region_index_.at(ref->region);
        if (state[to] == 1)
          return Error(fmt::format(
              "{}: {} names region '{}', which leads back to this operator (a cyclic region "
              "reference)",
              block_where(*ref), ref->field, ref->region));
        if (state[to] == 0) {
          state[to] = 1;
          stack.emplace_back(to, 0);
        }
      }
    }
    for (const RegionRef& ref : refs_) {
      const size_t target = region_graph_.at(region_index_.at(ref.region));
      Node& n = out_.graphs[ref.graph].nodes[static_cast<size_t>(ref.node)];
      if (n.subgraph < 0)
        n.subgraph = static_cast<int32_t>(target);
      else
        n.attributes.push_back({"subgraph." + ref.field, out_.graphs[target].name});
    }
    return Status::Ok();
  }

  std::span<const uint8_t> bytes_;
  ReadOptions options_;
  ExpansionBudget budget_;
  TosaGraphs out_;
  std::vector<BlockRef> blocks_;
  std::map<size_t, size_t> region_graph_;  // region index -> graph of its first block
  std::map<std::string, size_t> region_index_;
  std::vector<RegionRef> refs_;
};

}  // namespace

bool looks_like_tosa(std::span<const uint8_t> bytes) {
  return bytes.size() >= 8 && std::memcmp(bytes.data() + 4, "TOSA", 4) == 0;
}

Result<TosaGraphs> read_tosa(std::span<const uint8_t> bytes, const ReadOptions& options) {
  return Reader(bytes, options).read();
}

Result<Document> read_tosa_file(std::shared_ptr<const MappedFile> file) {
  Document doc;
  doc.sources.push_back(file);
  doc.format = DocumentFormat::kTosa;
  ReadOptions options;
  options.source = 0;
  auto read = read_tosa(file->bytes(), options);
  if (!read) return read.error().within(file->path());
  doc.format_version = "TOSA " + read->version;
  doc.properties.push_back({"tosa_version", read->version});
  if (!read->software_version.empty())
    doc.properties.push_back({"software_version", read->software_version});
  doc.properties.push_back({"operators", std::to_string(read->operators)});
  doc.graphs = std::move(read->graphs);
  for (std::string& w : read->warnings) doc.warn(std::move(w));
  for (std::string& n : read->notes) doc.note(std::move(n));
  return doc;
}

std::string describe(const IoTensor& t) {
  std::string s = "[";
  for (size_t i = 0; i < t.shape.size(); ++i) s += (i ? ", " : "") + std::to_string(t.shape[i]);
  return s + "] " + t.dtype;
}

}  // namespace etviz::tosa
