// Vulkan payloads (VulkanBackend): "VH00" header (same shape as XNNPACK's XH00), the VK00
// graph flatbuffer, then constant bytes. OperatorCall args are one value per schema argument
// with the output last (a ValueList for multi-output ops). No corpus sample exists; tests use
// generated payloads. See docs/delegates.md.
#include <fmt/format.h>

#include <cstring>

#include "core/bytes.h"
#include "core/expansion_budget.h"
#include "formats/delegates/delegate_decoders.h"
#include "formats/delegates/subgraph_builder.h"
#include "formats/flatbuffer_verify.h"
#include "vulkan_generated.h"

namespace etviz::delegates {
namespace {

std::string vk_dtype(int8_t t) {
  switch (t) {
    case 0:
      return "bool";
    case 1:
      return "uint8";
    case 2:
      return "int8";
    case 3:
      return "int32";
    case 4:
      return "float16";
    case 5:
      return "float32";
    case 6:
      return "float64";
    case 7:
      return "int64";
  }
  return fmt::format("vk_datatype({})", t);
}

template <typename T>
std::string join(const flatbuffers::Vector<T>* v) {
  std::string s = "[";
  for (flatbuffers::uoffset_t i = 0; v && i < v->size(); ++i) {
    if (i == 16) {
      s += fmt::format(", ... ({} values)", v->size());
      break;
    }
    s += (i ? ", " : "") + fmt::format("{}", v->Get(i));
  }
  return s + "]";
}

}  // namespace

Result<Graph> decode_vulkan(const DecodeInput& in) {
  const auto p = in.payload;
  if (p.size() < 30 || std::memcmp(p.data() + 4, "VH00", 4) != 0)
    return Error("expected the 'VH00' header at bytes 4..8 of the Vulkan payload");
  const uint16_t header_length = load_le<uint16_t>(p.data() + 8);
  const uint64_t fb_offset = load_le<uint32_t>(p.data() + 10);
  const uint64_t fb_size = load_le<uint32_t>(p.data() + 14);
  const uint64_t bytes_offset = load_le<uint32_t>(p.data() + 18);
  const uint64_t bytes_size = load_le<uint64_t>(p.data() + 22);
  if (header_length < 30)
    return Error(fmt::format("VH00 header length {} is below 30", header_length));
  if (fb_offset > p.size() || fb_size > p.size() - fb_offset)
    return Error(
        fmt::format("VH00 header places the flatbuffer at [{}, +{}) outside the {}-byte payload",
                    fb_offset, fb_size, p.size()));
  if (bytes_offset > p.size() || bytes_size > p.size() - bytes_offset)
    return Error(
        fmt::format("VH00 header places constant bytes at [{}, +{}) outside the {}-byte payload",
                    bytes_offset, bytes_size, p.size()));
  const auto fb = p.subspan(fb_offset, fb_size);
  if (auto s = verify_flatbuffer<vk::Graph>(fb, "VK00", "Vulkan graph"); !s) return s.error();
  const vk::Graph* root = flatbuffers::GetRoot<vk::Graph>(fb.data());
  ExpansionBudget budget(p.size());

  SubgraphBuilder b(in.graph_name, in.delegate.backend_id);
  Graph& g = b.graph();
  g.attributes.push_back({"format", "VK00"});
  if (root->version()) g.attributes.push_back({"schema_version", root->version()->str()});
  g.attributes.push_back({"constant_bytes", std::to_string(bytes_size)});
  g.attributes.push_back(
      {"custom_shaders", std::to_string(root->shaders() ? root->shaders()->size() : 0)});
  const auto* values = root->values();
  const size_t n_values = values ? values->size() : 0;
  if (!budget.charge(n_values)) return ExpansionBudget::exhausted_error();
  for (size_t i = 0; i < n_values; ++i) {
    const vk::Value* v = values->Get(static_cast<flatbuffers::uoffset_t>(i));
    Value out;
    out.name = fmt::format("v{}", i);
    // The verifier accepts a union whose type is set but whose table is absent.
    if (v->value_type() != vk::GraphTypes::NONE && v->value_type() != vk::GraphTypes::Null &&
        !v->value())
      return Error(fmt::format("value {} of kind {} without its table", i,
                               static_cast<int>(v->value_type())));
    switch (v->value_type()) {
      case vk::GraphTypes::Tensor: {
        const vk::Tensor* t = v->value_as_Tensor();
        out.kind = ValueKind::kTensor;
        out.tensor.dtype = vk_dtype(t->datatype());
        if (t->dims())
          for (uint32_t d : *t->dims()) out.tensor.shape.push_back(Dim{d, {}});
        if (auto size = out.tensor.byte_size()) out.tensor.nbytes = *size;
        if (t->constant_id() >= 0) {
          const auto* constants = root->constants();
          if (!constants || static_cast<uint32_t>(t->constant_id()) >= constants->size())
            return Error(fmt::format("value {} names constant {} of {}", i, t->constant_id(),
                                     constants ? constants->size() : 0));
          const vk::Bytes* c =
              constants->Get(static_cast<flatbuffers::uoffset_t>(t->constant_id()));
          out.tensor.data_index = t->constant_id();
          out.tensor.nbytes = static_cast<int64_t>(c->length());
          if (c->named_key() && c->named_key()->size() > 0) {
            out.tensor.data_location = DataLocation::kNamedData;
            out.tensor.data_key = c->named_key()->str();
          } else {
            out.tensor.data_location = DataLocation::kInline;
            if (c->offset() > bytes_size || c->length() > bytes_size - c->offset())
              return Error(fmt::format("constant {} [{}, +{}) lies outside the {} constant bytes",
                                       t->constant_id(), c->offset(), c->length(), bytes_size));
          }
        }
        break;
      }
      case vk::GraphTypes::Int:
        out.kind = ValueKind::kInt;
        out.literal = std::to_string(v->value_as_Int()->int_val());
        break;
      case vk::GraphTypes::Double:
        out.kind = ValueKind::kDouble;
        out.literal = fmt::format("{:g}", v->value_as_Double()->double_val());
        break;
      case vk::GraphTypes::Bool:
        out.kind = ValueKind::kBool;
        out.literal = v->value_as_Bool()->bool_val() ? "True" : "False";
        break;
      case vk::GraphTypes::String:
        out.kind = ValueKind::kString;
        out.literal =
            v->value_as_String()->string_val() ? v->value_as_String()->string_val()->str() : "";
        break;
      case vk::GraphTypes::IntList:
        out.kind = ValueKind::kIntList;
        out.literal = join(v->value_as_IntList()->items());
        break;
      case vk::GraphTypes::DoubleList:
        out.kind = ValueKind::kDoubleList;
        out.literal = join(v->value_as_DoubleList()->items());
        break;
      case vk::GraphTypes::BoolList:
        out.kind = ValueKind::kBoolList;
        out.literal = join(v->value_as_BoolList()->items());
        break;
      case vk::GraphTypes::ValueList: {
        out.kind = ValueKind::kTensorList;
        if (const auto* items = v->value_as_ValueList()->items()) {
          if (!budget.charge(items->size())) return ExpansionBudget::exhausted_error();
          for (int32_t e : *items) {
            if (e < 0 || static_cast<size_t>(e) >= n_values)
              return Error(fmt::format("value list {} names value {} of {}", i, e, n_values));
            out.elements.push_back(e);
          }
        }
        break;
      }
      case vk::GraphTypes::SymInt:
        out.kind = ValueKind::kSymInt;
        out.literal = fmt::format("symint(v{})", v->value_as_SymInt()->value());
        break;
      case vk::GraphTypes::Null:
        out.kind = ValueKind::kNull;
        out.literal = "None";
        break;
      default:
        out.kind = ValueKind::kOther;
        break;
    }
    b.add_value(std::move(out));
  }
  auto check = [&](uint32_t id, const char* what) -> Status {
    if (id >= n_values) return Error(fmt::format("{} names value {} of {}", what, id, n_values));
    return Status::Ok();
  };
  if (const auto* ids = root->input_ids())
    for (uint32_t id : *ids) {
      if (auto s = check(id, "input_ids"); !s) return s.error();
      b.add_input(static_cast<ValueId>(id));
    }
  if (const auto* chain = root->chain()) {
    if (!budget.charge(chain->size())) return ExpansionBudget::exhausted_error();
    for (flatbuffers::uoffset_t k = 0; k < chain->size(); ++k) {
      const vk::OperatorCall* call = chain->Get(k);
      Node n;
      n.kind = NodeKind::kKernel;
      n.op = call->name() ? call->name()->str() : "<unnamed>";
      n.name = fmt::format("{}_{}", n.op, k);
      n.provenance.instruction = k;
      if (call->node_id()) n.provenance.debug_handles.push_back(call->node_id());
      const auto* args = call->args();
      const size_t count = args ? args->size() : 0;
      for (size_t a = 0; a < count; ++a) {
        const int32_t id = args->Get(static_cast<flatbuffers::uoffset_t>(a));
        if (id < 0 || static_cast<size_t>(id) >= n_values)
          return Error(fmt::format("operator {} ({}) argument {} names value {} of {}", k, n.op, a,
                                   id, n_values));
        (a + 1 == count ? n.outputs : n.inputs).push_back({"", id});
      }
      b.add_op(std::move(n));
    }
  }
  if (const auto* ids = root->output_ids())
    for (uint32_t id : *ids) {
      if (auto s = check(id, "output_ids"); !s) return s.error();
      b.add_output(static_cast<ValueId>(id));
    }
  return b.finish();
}

}  // namespace etviz::delegates
