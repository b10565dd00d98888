// Arm VGF payloads (VgfBackend): a complete ".vgf" file from Arm's ML SDK for Vulkan. A
// 128-byte header locates four sections: modules (SPIR-V), the model sequence, the resource
// table and constants. GRAPH modules are SPIR-V graphs (SPV_ARM_graph, SPV_ARM_tensors) whose
// ops are TOSA instructions of the "TOSA.001000.1" extended set; each becomes a node, graph
// constants become constant nodes tied to the VGF constant records. See docs/delegates.md.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <map>
#include <optional>
#include <unordered_map>

#include "core/bytes.h"
#include "formats/delegates/delegate_decoders.h"
#include "formats/delegates/subgraph_builder.h"
#include "formats/flatbuffer_verify.h"
#include "formats/tosa/tosa_ops.h"
#include "vgf_generated.h"

namespace etviz::delegates {
namespace {

constexpr size_t kHeaderSize = 128;
constexpr uint32_t kLegacyMagic = 0xF0E1D2C3u;
constexpr uint32_t kSpirvMagic = 0x07230203u;

// SPIR-V opcodes used below (core spec and SPV_ARM_graph / SPV_ARM_tensors).
enum Op : uint32_t {
  kOpName = 5,
  kOpExtInstImport = 11,
  kOpExtInst = 12,
  kOpTypeBool = 20,
  kOpTypeInt = 21,
  kOpTypeFloat = 22,
  kOpConstantTrue = 41,
  kOpConstantFalse = 42,
  kOpConstant = 43,
  kOpConstantComposite = 44,
  kOpConstantNull = 46,
  kOpTypeTensorARM = 4163,
  kOpGraphConstantARM = 4181,
  kOpGraphInputARM = 4184,
  kOpGraphSetOutputARM = 4185,
  kOpConstantCompositeReplicateEXT = 4461,
};

struct Span {
  uint64_t offset = 0, size = 0;
};

// A section copied to an aligned buffer: older writers did not align sections.
Result<std::vector<uint8_t>> section(std::span<const uint8_t> p, Span s, const char* what) {
  if (s.offset > p.size() || s.size > p.size() - s.offset)
    return Error(fmt::format("{} section [{}, +{}) lies outside the {}-byte VGF", what, s.offset,
                             s.size, p.size()));
  return std::vector<uint8_t>(p.begin() + static_cast<std::ptrdiff_t>(s.offset),
                              p.begin() + static_cast<std::ptrdiff_t>(s.offset + s.size));
}

struct ConstantRecord {
  uint32_t mrt_index = 0;
  int32_t sparsity_dimension = -1;
  uint64_t size = 0;
};

struct SpirvType {
  uint32_t opcode = 0;
  uint32_t width = 0;
  bool is_signed = false;
  uint32_t element = 0, rank = 0, shape = 0;  // tensors
};

struct SpirvConstant {
  uint32_t opcode = 0;
  uint32_t type = 0;
  std::vector<uint32_t> words;  // literal words, or constituent ids for composites
};

class SpirvGraphReader {
 public:
  SpirvGraphReader(SubgraphBuilder& b, const std::vector<ConstantRecord>& records,
                   std::string module_name)
      : b_(b), records_(records), module_(std::move(module_name)) {}

  Status read(std::span<const uint32_t> words) {
    if (words.size() < 5 || words[0] != kSpirvMagic)
      return Error(fmt::format("module '{}' is not SPIR-V (magic 0x{:08x})", module_,
                               words.empty() ? 0 : words[0]));
    size_t i = 5;
    while (i < words.size()) {
      const uint32_t count = words[i] >> 16;
      const uint32_t opcode = words[i] & 0xFFFF;
      if (count == 0 || count > words.size() - i)
        return Error(
            fmt::format("module '{}': instruction at word {} has length {} ({} words left)",
                        module_, i, count, words.size() - i));
      if (auto s = instruction(opcode, words.subspan(i + 1, count - 1)); !s)
        return s.error().within(fmt::format("module '{}' word {}", module_, i));
      i += count;
    }
    return Status::Ok();
  }

  int64_t ops() const { return ops_; }
  const std::vector<std::pair<uint32_t, ValueId>>& outputs() const { return outputs_; }
  const std::vector<std::pair<uint32_t, ValueId>>& inputs() const { return inputs_; }

 private:
  static std::string literal_string(std::span<const uint32_t> w) {
    std::string s;
    for (uint32_t word : w)
      for (int k = 0; k < 4; ++k) {
        const char c = static_cast<char>((word >> (8 * k)) & 0xFF);
        if (c == 0) return s;
        s += c;
      }
    return s;
  }

  std::string dtype_of(uint32_t type_id) const {
    auto it = types_.find(type_id);
    if (it == types_.end()) return "unknown";
    const SpirvType& t = it->second;
    if (t.opcode == kOpTypeBool) return "bool";
    if (t.opcode == kOpTypeFloat)
      return t.width == 16 ? "float16" : t.width == 64 ? "float64" : "float32";
    if (t.opcode == kOpTypeInt) return fmt::format("int{}", t.width);
    if (t.opcode == kOpTypeTensorARM) return dtype_of(t.element);
    return "unknown";
  }

  std::optional<int64_t> int_value(uint32_t id) const {
    auto it = constants_.find(id);
    if (it == constants_.end() || it->second.opcode != kOpConstant || it->second.words.empty())
      return std::nullopt;
    const auto& w = it->second.words;
    auto t = types_.find(it->second.type);
    const uint32_t width = t == types_.end() ? 32 : t->second.width;
    if (width == 64 && w.size() >= 2) return static_cast<int64_t>(uint64_t{w[1]} << 32 | w[0]);
    if (width == 8) return static_cast<int8_t>(w[0] & 0xFF);
    if (width == 16) return static_cast<int16_t>(w[0] & 0xFFFF);
    return static_cast<int32_t>(w[0]);
  }

  TensorInfo tensor_of(uint32_t type_id) const {
    TensorInfo info;
    info.dtype = dtype_of(type_id);
    auto it = types_.find(type_id);
    if (it != types_.end() && it->second.opcode == kOpTypeTensorARM && it->second.shape) {
      auto shape = constants_.find(it->second.shape);
      if (shape != constants_.end() && shape->second.opcode == kOpConstantComposite)
        for (uint32_t d : shape->second.words)
          info.shape.push_back(Dim{int_value(d).value_or(-1), {}});
    }
    if (auto b = info.byte_size()) info.nbytes = *b;
    return info;
  }

  // Attribute operands (pad, stride, acc_type...) as text.
  // `count` copies of one value as a list: written out up to 16, else marked repeated.
  static std::string repeated(const std::string& one, std::optional<int64_t> count) {
    if (!count || *count < 1 || *count > 16) return "[" + one + " ...]";
    std::string s = "[";
    for (int64_t k = 0; k < *count; ++k) s += (k ? ", " : "") + one;
    return s + "]";
  }

  std::string render(uint32_t id, int depth = 0) const {
    auto it = constants_.find(id);
    if (it == constants_.end()) return fmt::format("%{}", id);
    const SpirvConstant& c = it->second;
    switch (c.opcode) {
      case kOpConstantTrue:
        return "true";
      case kOpConstantFalse:
        return "false";
      case kOpConstantNull: {
        // All zeros of its type (SPIR-V's null constant): a pad [0, 0, 0, 0] reads as the
        // TOSA flatbuffer writes it.
        const std::string zero = dtype_of(c.type) == "bool" ? "false" : "0";
        auto t = types_.find(c.type);
        if (t == types_.end() || t->second.opcode != kOpTypeTensorARM) return zero;
        return repeated(zero, tensor_of(c.type).numel());
      }
      case kOpConstant: {
        auto t = types_.find(c.type);
        if (t != types_.end() && t->second.opcode == kOpTypeFloat && !c.words.empty()) {
          float f;
          std::memcpy(&f, &c.words[0], sizeof f);
          return fmt::format("{:g}", f);
        }
        auto v = int_value(id);
        return v ? std::to_string(*v) : "?";
      }
      case kOpConstantCompositeReplicateEXT: {
        if (c.words.empty() || depth > 3) return "[...]";
        // One value for every element: written out when the tensor type says how many (a
        // stride [2, 2], as the TOSA flatbuffer lists it), else marked repeated.
        return repeated(render(c.words[0], depth + 1), tensor_of(c.type).numel());
      }
      case kOpConstantComposite: {
        if (depth > 3) return "[...]";
        std::string s = "[";
        for (size_t k = 0; k < c.words.size(); ++k) {
          if (k == 16) {
            s += fmt::format(", ... ({} values)", c.words.size());
            break;
          }
          s += (k ? ", " : "") + render(c.words[k], depth + 1);
        }
        return s + "]";
      }
      default:
        return "?";
    }
  }

  // Attribute operands: enumerations by the specification's names, as the flatbuffer spells
  // them; the rest as their constants.
  std::string render_attribute(std::string_view name, uint32_t id) const {
    if (auto v = int_value(id); v && *v >= 0) {
      const auto u = static_cast<uint32_t>(*v);
      std::string_view e = name == "acc_type"        ? tosa::acc_type_name(u)
                           : name == "nan_mode"      ? tosa::nan_mode_name(u)
                           : name == "rounding_mode" ? tosa::rounding_mode_name(u)
                           : name == "mode"          ? tosa::resize_mode_name(u)
                                                     : std::string_view();
      if (!e.empty()) return std::string(e);
    }
    return render(id);
  }

  // A tensor constant (OpConstantComposite or a replicated composite of a tensor type) read
  // as an input: one constant value per id, its literal as the constant node's "value".
  std::optional<ValueId> constant_value(uint32_t id) {
    if (auto it = constant_values_.find(id); it != constant_values_.end()) return it->second;
    auto c = constants_.find(id);
    if (c == constants_.end()) return std::nullopt;
    auto t = types_.find(c->second.type);
    if (t == types_.end() || t->second.opcode != kOpTypeTensorARM) return std::nullopt;
    TensorInfo info = tensor_of(c->second.type);
    info.data_location = DataLocation::kInline;
    auto n = names_.find(id);
    const ValueId v =
        b_.add_tensor(n != names_.end() ? n->second : fmt::format("const_{}", id), std::move(info));
    const NodeId node = b_.add_constant(v, ConstantRole::kParameter);
    b_.graph().nodes[static_cast<size_t>(node)].attributes.push_back({"value", render(id)});
    constant_values_.emplace(id, v);
    return v;
  }

  ValueId define(uint32_t id, uint32_t type, std::string fallback_name, TensorInfo info) {
    auto n = names_.find(id);
    const ValueId v =
        b_.add_tensor(n != names_.end() ? n->second : std::move(fallback_name), std::move(info));
    values_[id] = v;
    (void)type;
    return v;
  }

  Status instruction(uint32_t opcode, std::span<const uint32_t> w) {
    auto need = [&](size_t n) -> Status {
      if (w.size() < n)
        return Error(fmt::format("opcode {} has {} operands, needs {}", opcode, w.size(), n));
      return Status::Ok();
    };
    switch (opcode) {
      case kOpName:
        if (auto s = need(2); !s) return s;
        names_[w[0]] = literal_string(w.subspan(1));
        return Status::Ok();
      case kOpExtInstImport:
        if (auto s = need(2); !s) return s;
        if (literal_string(w.subspan(1)).rfind("TOSA.", 0) == 0) tosa_set_ = w[0];
        return Status::Ok();
      case kOpTypeBool:
        if (auto s = need(1); !s) return s;
        types_[w[0]] = {opcode};
        return Status::Ok();
      case kOpTypeInt:
      case kOpTypeFloat:
        if (auto s = need(2); !s) return s;
        types_[w[0]] = {opcode, w[1], opcode == kOpTypeInt && w.size() > 2 && w[2] == 1};
        return Status::Ok();
      case kOpTypeTensorARM: {
        if (auto s = need(2); !s) return s;
        SpirvType t{opcode};
        t.element = w[1];
        t.rank = w.size() > 2 ? w[2] : 0;
        t.shape = w.size() > 3 ? w[3] : 0;
        types_[w[0]] = t;
        return Status::Ok();
      }
      case kOpConstantTrue:
      case kOpConstantFalse:
      case kOpConstantNull:
      case kOpConstant:
      case kOpConstantComposite:
      case kOpConstantCompositeReplicateEXT:
        if (auto s = need(2); !s) return s;
        constants_[w[1]] = {opcode, w[0], std::vector<uint32_t>(w.begin() + 2, w.end())};
        return Status::Ok();
      case kOpGraphConstantARM: {
        if (auto s = need(3); !s) return s;
        TensorInfo info = tensor_of(w[0]);
        const uint32_t index = w[2];
        info.data_location = DataLocation::kInline;
        info.data_index = index;
        if (index < records_.size()) info.nbytes = static_cast<int64_t>(records_[index].size);
        define(w[1], w[0], fmt::format("constant_{}", index), std::move(info));
        return Status::Ok();
      }
      case kOpGraphInputARM: {
        if (auto s = need(3); !s) return s;
        const auto index = int_value(w[2]).value_or(static_cast<int64_t>(inputs_.size()));
        const ValueId v = define(w[1], w[0], fmt::format("input_{}", index), tensor_of(w[0]));
        inputs_.emplace_back(static_cast<uint32_t>(index), v);
        return Status::Ok();
      }
      case kOpGraphSetOutputARM: {
        if (auto s = need(2); !s) return s;
        auto it = values_.find(w[0]);
        if (it == values_.end())
          return Error(fmt::format("graph output names undefined value %{}", w[0]));
        outputs_.emplace_back(
            static_cast<uint32_t>(int_value(w[1]).value_or(static_cast<int64_t>(outputs_.size()))),
            it->second);
        return Status::Ok();
      }
      case kOpExtInst: {
        if (auto s = need(4); !s) return s;
        if (w[2] != tosa_set_ || tosa_set_ == 0) return Status::Ok();
        // Named, ordered and spelled as the TOSA flatbuffer reader does (formats/tosa/
        // tosa_ops.h): attributes first (constants), then inputs.
        const uint32_t number = w[3];
        const tosa::OpInfo* info = tosa::spirv_op(number);
        Node n;
        n.kind = NodeKind::kKernel;
        n.op = info ? std::string(info->name) : fmt::format("TOSA_{}", number);
        std::vector<std::string_view> operand_names;
        bool last_is_list = false;
        if (info)
          tosa::for_each_argument(*info, [&](std::string_view a, bool list) {
            operand_names.push_back(a);
            last_is_list = list;
          });
        for (size_t k = 4; k < w.size(); ++k) {
          const size_t at = k - 4;
          std::string name;
          if (at < operand_names.size())
            name = operand_names[at];
          else if (last_is_list)
            name = operand_names.back();
          else if (!info)
            name = fmt::format("operand{}", at);
          if (info && at < info->attributes) {
            n.attributes.push_back({name, render_attribute(name, w[k])});
            continue;
          }
          auto v = values_.find(w[k]);
          if (v != values_.end()) {
            n.inputs.push_back({name, v->second});
          } else if (auto c = constant_value(w[k])) {
            // A tensor the instruction set requires to be a constant (zero points, shifts):
            // a constant input, as the flatbuffer's CONST operators are.
            n.inputs.push_back({name, *c});
          } else {
            n.attributes.push_back({name, render(w[k])});
          }
        }
        n.name = fmt::format("{}_{}", n.op.str(), ops_);
        auto nm = names_.find(w[1]);
        if (nm != names_.end()) n.name = nm->second;
        n.outputs.push_back(
            {"output", define(w[1], w[0], fmt::format("v{}", w[1]), tensor_of(w[0]))});
        b_.add_op(std::move(n));
        ++ops_;
        return Status::Ok();
      }
      default:
        return Status::Ok();
    }
  }

  SubgraphBuilder& b_;
  const std::vector<ConstantRecord>& records_;
  std::string module_;
  uint32_t tosa_set_ = 0;
  std::unordered_map<uint32_t, std::string> names_;
  std::unordered_map<uint32_t, SpirvType> types_;
  std::unordered_map<uint32_t, SpirvConstant> constants_;
  std::unordered_map<uint32_t, ValueId> values_;
  std::unordered_map<uint32_t, ValueId> constant_values_;  // tensor constants used as inputs
  std::vector<std::pair<uint32_t, ValueId>> inputs_, outputs_;
  int64_t ops_ = 0;
};

const char* category_name(uint8_t c) {
  switch (c) {
    case 0:
      return "input";
    case 1:
      return "output";
    case 2:
      return "intermediate";
    case 3:
      return "constant";
  }
  return "unknown";
}

}  // namespace

Result<Graph> decode_vgf(const DecodeInput& in) {
  const auto p = in.payload;
  if (p.size() < kHeaderSize)
    return Error(fmt::format("a VGF header needs 128 bytes, payload has {}", p.size()));
  const bool modern = std::memcmp(p.data(), "VGF1", 4) == 0;
  if (!modern && load_le<uint32_t>(p.data()) != kLegacyMagic)
    return Error(
        fmt::format("expected VGF magic 'VGF1' at byte 0, found '{}'", printable_tag(p.first(4))));
  Span spans[4];
  for (int k = 0; k < 4; ++k)
    spans[k] = {load_le<uint64_t>(p.data() + 16 + 16 * k),
                load_le<uint64_t>(p.data() + 24 + 16 * k)};
  auto modules_bytes = section(p, spans[0], "module");
  if (!modules_bytes) return modules_bytes.error();
  auto sequence_bytes = section(p, spans[1], "model sequence");
  if (!sequence_bytes) return sequence_bytes.error();
  auto resource_bytes = section(p, spans[2], "model resource");
  if (!resource_bytes) return resource_bytes.error();
  if (spans[3].offset > p.size() || spans[3].size > p.size() - spans[3].offset)
    return Error("constants section lies outside the VGF");
  if (auto s = verify_flatbuffer<vgf::ModuleTable>(*modules_bytes, nullptr, "VGF module table"); !s)
    return s.error();
  if (auto s = verify_flatbuffer<vgf::SequenceTable>(*sequence_bytes, nullptr,
                                                     "VGF model sequence table");
      !s)
    return s.error();
  if (auto s = verify_flatbuffer<vgf::ResourceTable>(*resource_bytes, nullptr,
                                                     "VGF model resource table");
      !s)
    return s.error();
  const auto* modules = flatbuffers::GetRoot<vgf::ModuleTable>(modules_bytes->data());
  const auto* sequence = flatbuffers::GetRoot<vgf::SequenceTable>(sequence_bytes->data());
  const auto* resources = flatbuffers::GetRoot<vgf::ResourceTable>(resource_bytes->data());

  // Constant records: "CONST00\0", u64 count, 24-byte records. Older files hold a FlatBuffer
  // ConstantSection instead; then the records stay unknown (sizes are not shown).
  std::vector<ConstantRecord> records;
  const auto consts = p.subspan(spans[3].offset, spans[3].size);
  std::string constants_layout = "none";
  if (consts.size() >= 16 && std::memcmp(consts.data(), "CONST00\0", 8) == 0) {
    const uint64_t count = load_le<uint64_t>(consts.data() + 8);
    if (count > (consts.size() - 16) / 24)
      return Error(fmt::format("constants section states {} records; {} bytes hold at most {}",
                               count, consts.size(), (consts.size() - 16) / 24));
    for (uint64_t k = 0; k < count; ++k) {
      const uint8_t* r = consts.data() + 16 + 24 * k;
      records.push_back({load_le<uint32_t>(r), load_le<int32_t>(r + 4), load_le<uint64_t>(r + 8)});
    }
    constants_layout = "CONST00";
  } else if (!consts.empty()) {
    constants_layout = "FlatBuffer ConstantSection (legacy)";
  }

  SubgraphBuilder b(in.graph_name, in.delegate.backend_id);
  Graph& g = b.graph();
  g.attributes.push_back({"format", modern ? "VGF1" : "VGF (legacy magic)"});
  g.attributes.push_back({"vgf_version", fmt::format("{}.{}.{}", p[8], p[9], p[10])});
  g.attributes.push_back({"vk_header_version", std::to_string(load_le<uint16_t>(p.data() + 4))});
  g.attributes.push_back(
      {"sections", fmt::format("module {} B, sequence {} B, resources {} B, constants {} B",
                               spans[0].size, spans[1].size, spans[2].size, spans[3].size)});
  g.attributes.push_back({"constants_layout", constants_layout});
  g.attributes.push_back({"constant_records", std::to_string(records.size())});
  if (const auto* entries = resources->mrt_entry()) {
    std::map<std::string, int> by_category;
    for (const auto* e : *entries) ++by_category[category_name(e->category())];
    std::string s = std::to_string(entries->size());
    for (const auto& [cat, n] : by_category) s += fmt::format(", {} {}", n, cat);
    g.attributes.push_back({"resources", s});
  }
  std::vector<std::pair<uint32_t, ValueId>> inputs, outputs;
  int64_t ops = 0;
  if (const auto* segments = sequence->segments()) {
    for (const vgf::SegmentInfo* seg : *segments) {
      const std::string seg_name = seg->name() ? seg->name()->str() : "";
      const auto* mods = modules->modules();
      if (!mods || seg->module_index() >= mods->size())
        return Error(fmt::format("segment '{}' names module {} of {}", seg_name,
                                 seg->module_index(), mods ? mods->size() : 0));
      const vgf::Module* m = mods->Get(seg->module_index());
      const std::string mod_name = m->name() ? m->name()->str() : "";
      g.attributes.push_back(
          {"segment." + seg_name,
           fmt::format("{} module '{}'", m->type() == 1 ? "GRAPH" : "COMPUTE", mod_name)});
      if (m->type() != 1 || m->code_type() != vgf::ModuleCode::SPIRV) {
        // Compute shaders (custom GLSL/SPIR-V kernels): one opaque kernel node.
        Node n;
        n.name = seg_name;
        n.op = "ComputeShader";
        n.kind = NodeKind::kKernel;
        n.attributes.push_back({"module", mod_name});
        if (m->entry_point()) n.attributes.push_back({"entry_point", m->entry_point()->str()});
        b.add_op(std::move(n));
        ++ops;
        continue;
      }
      const auto* spirv = m->code_as_SPIRV();
      const auto* words = spirv ? spirv->words() : nullptr;
      if (!words) return Error(fmt::format("graph module '{}' has no SPIR-V words", mod_name));
      g.attributes.push_back(
          {"module." + mod_name + ".spirv_words", std::to_string(words->size())});
      std::vector<uint32_t> code(words->begin(), words->end());
      SpirvGraphReader reader(b, records, mod_name);
      if (auto s = reader.read(code); !s) return s.error();
      ops += reader.ops();
      inputs.insert(inputs.end(), reader.inputs().begin(), reader.inputs().end());
      outputs.insert(outputs.end(), reader.outputs().begin(), reader.outputs().end());
    }
  }
  std::stable_sort(inputs.begin(), inputs.end(),
                   [](auto& a, auto& c) { return a.first < c.first; });
  std::stable_sort(outputs.begin(), outputs.end(),
                   [](auto& a, auto& c) { return a.first < c.first; });
  // Graph inputs get their nodes first in the viewer's order; names from the sequence table.
  const auto* in_names = sequence->input_names();
  const auto* out_names = sequence->output_names();
  for (size_t k = 0; k < inputs.size(); ++k) {
    if (in_names && k < in_names->size())
      g.values[inputs[k].second].name =
          in_names->Get(static_cast<flatbuffers::uoffset_t>(k))->str();
    b.add_input(inputs[k].second);
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    if (out_names && k < out_names->size())
      g.values[outputs[k].second].name =
          out_names->Get(static_cast<flatbuffers::uoffset_t>(k))->str();
    b.add_output(outputs[k].second);
  }
  g.attributes.push_back({"nodes", std::to_string(ops)});
  return b.finish();
}

}  // namespace etviz::delegates
