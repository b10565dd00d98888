// XNNPACK payloads: an optional "XH00" header, then the XNNPACK graph flatbuffer ("XN00" or
// "XN01"), then constant data. Format notes: docs/delegates.md.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <unordered_map>

#include "core/bytes.h"
#include "core/expansion_budget.h"
#include "formats/delegates/delegate_decoders.h"
#include "formats/delegates/subgraph_builder.h"
#include "formats/flatbuffer_verify.h"
#include "xnnpack_generated.h"

namespace etviz::delegates {
namespace {

namespace xnn = etviz::xnn;

constexpr uint32_t kInvalidId = 0xFFFFFFFFu;     // XNN_INVALID_VALUE_ID: optional operand absent
constexpr uint32_t kDefaultDebugHandle = 65535;  // layout transposes the delegate inserted
constexpr size_t kMaxScalesShown = 256;          // per-channel scales kept for display

struct Layout {
  bool has_header = false;
  std::span<const uint8_t> flatbuffer;
  std::span<const uint8_t> constants;  // the constant-data region (empty for old payloads)
};

Result<Layout> split_payload(std::span<const uint8_t> payload) {
  Layout layout;
  if (payload.size() >= 8 && std::memcmp(payload.data() + 4, "XH00", 4) == 0) {
    if (payload.size() < 30)
      return Error(fmt::format("XH00 header needs 30 bytes, payload has {}", payload.size()));
    const uint8_t* p = payload.data();
    const uint16_t header_length = load_le<uint16_t>(p + 8);
    const uint64_t fb_offset = load_le<uint32_t>(p + 10);
    const uint64_t fb_size = load_le<uint32_t>(p + 14);
    const uint64_t const_offset = load_le<uint32_t>(p + 18);
    const uint64_t const_size = load_le<uint64_t>(p + 22);
    if (header_length < 30)
      return Error(
          fmt::format("XH00 header length {} is below the 30 bytes it must hold", header_length));
    if (fb_offset < header_length || fb_offset > payload.size() ||
        fb_size > payload.size() - fb_offset)
      return Error(
          fmt::format("XH00 header places the flatbuffer at [{}, +{}) outside the {}-byte payload",
                      fb_offset, fb_size, payload.size()));
    if (const_offset < fb_offset + fb_size || const_offset > payload.size() ||
        const_size > payload.size() - const_offset)
      return Error(fmt::format(
          "XH00 header places constant data at [{}, +{}), which overlaps the flatbuffer or runs "
          "past the {}-byte payload",
          const_offset, const_size, payload.size()));
    layout.has_header = true;
    layout.flatbuffer = payload.subspan(fb_offset, fb_size);
    layout.constants = payload.subspan(const_offset, const_size);
  } else {
    layout.flatbuffer = payload;  // 2023 layout: the payload is the flatbuffer
  }
  return layout;
}

std::string dtype_name(xnn::DataType t) {
  switch (t) {
    case xnn::DataType::fp32:
      return "float32";
    case xnn::DataType::fp16:
      return "float16";
    case xnn::DataType::qint8:
      return "qint8";
    case xnn::DataType::quint8:
      return "quint8";
    case xnn::DataType::qint32:
      return "qint32";
    case xnn::DataType::qcint8:
      return "qint8";
    case xnn::DataType::qcint32:
      return "qint32";
    case xnn::DataType::qcint4:
      return "qint4";
    case xnn::DataType::qdint8:
      return "qint8";
    case xnn::DataType::qbint4:
      return "qint4";
    case xnn::DataType::qpint8:
      return "qint8";
    case xnn::DataType::int32:
      return "int32";
    case xnn::DataType::pfp32:
      return "float32";
    case xnn::DataType::bf16:
      return "bfloat16";
    case xnn::DataType::invalid:
      return "invalid";
  }
  return fmt::format("xnn_datatype({})", static_cast<int>(t));
}

std::string format_float(double v) {
  return fmt::format("{:g}", v);
}

float bf16_to_float(uint16_t bits) {
  const uint32_t wide = static_cast<uint32_t>(bits) << 16;
  float f;
  std::memcpy(&f, &wide, sizeof f);
  return f;
}

class XnnpackGraphReader {
 public:
  XnnpackGraphReader(const DecodeInput& in, const Layout& layout, const xnn::Graph& fb)
      : in_(in),
        layout_(layout),
        fb_(fb),
        builder_(in.graph_name, std::string(in.delegate.backend_id)),
        budget_(in.payload.size()) {}

  Result<Graph> read() {
    Graph& g = builder_.graph();
    const bool xn01 = std::memcmp(layout_.flatbuffer.data() + 4, "XN01", 4) == 0;
    g.attributes.push_back({"format", xn01 ? "XN01" : "XN00"});
    g.attributes.push_back({"header", layout_.has_header ? "XH00" : "none (pre-2024 payload)"});
    if (fb_.version()) g.attributes.push_back({"schema_version", fb_.version()->str()});
    g.attributes.push_back({"flatbuffer_bytes", std::to_string(layout_.flatbuffer.size())});
    g.attributes.push_back({"constant_data_bytes", std::to_string(layout_.constants.size())});
    if (auto s = read_values(); !s) return s.error();
    if (auto s = read_io(); !s) return s.error();
    if (auto s = read_nodes(); !s) return s.error();
    for (ValueId id : outputs_) builder_.add_output(id);
    g.attributes.push_back({"nodes", std::to_string(op_count_)});
    g.attributes.push_back({"constants", std::to_string(constant_count_)});
    return builder_.finish();
  }

 private:
  // Bytes of constant entry `idx` (for scales stored as constants), empty when not reachable.
  std::span<const uint8_t> constant_bytes(uint32_t idx) const {
    if (const auto* data = fb_.constant_data(); data && idx < data->size()) {
      const xnn::ConstantDataOffset* c = data->Get(idx);
      if (c->named_key() && c->named_key()->size() > 0) {
        const NamedBlob* blob = find_named_blob(in_.doc, c->named_key()->string_view());
        return blob ? in_.doc.bytes(blob->blob) : std::span<const uint8_t>{};
      }
      if (c->offset() > layout_.constants.size() ||
          c->size() > layout_.constants.size() - c->offset())
        return {};
      return layout_.constants.subspan(c->offset(), c->size());
    }
    if (const auto* buffers = fb_.constant_buffer(); buffers && idx < buffers->size()) {
      const auto* storage = buffers->Get(idx)->storage();
      return storage ? std::span<const uint8_t>(storage->data(), storage->size())
                     : std::span<const uint8_t>{};
    }
    return {};
  }

  // Where bytes inside the payload sit in the document's source (a constant's BlobRef);
  // invalid when the payload is not the mapped bytes themselves.
  BlobRef in_payload(std::span<const uint8_t> part) const {
    const auto whole = in_.doc.bytes(in_.delegate.payload);
    if (whole.empty() || part.data() < whole.data() ||
        part.data() + part.size() > whole.data() + whole.size())
      return {};
    return BlobRef{in_.delegate.payload.source,
                   in_.delegate.payload.offset + static_cast<uint64_t>(part.data() - whole.data()),
                   part.size()};
  }

  Status describe_constant(uint32_t idx, TensorInfo& t) {
    t.data_index = idx;
    const auto here = constant_bytes(idx);  // named data is resolved by key after reading
    constant_blob_ = here.empty() ? BlobRef{} : in_payload(here);
    if (const auto* data = fb_.constant_data()) {
      if (idx >= data->size())
        return Error(
            fmt::format("constant index {} but constant_data has {} entries", idx, data->size()));
      const xnn::ConstantDataOffset* c = data->Get(idx);
      if (c->named_key() && c->named_key()->size() > 0) {
        t.data_location = DataLocation::kNamedData;
        t.data_key = c->named_key()->str();
        t.nbytes = static_cast<int64_t>(c->size());
        if (!find_named_blob(in_.doc, t.data_key)) ++missing_named_;
      } else {
        t.data_location = DataLocation::kInline;
        t.nbytes = static_cast<int64_t>(c->size());
        if (c->offset() > layout_.constants.size() ||
            c->size() > layout_.constants.size() - c->offset())
          return Error(
              fmt::format("constant {} at [{}, +{}) lies outside the {}-byte constant data region",
                          idx, c->offset(), c->size(), layout_.constants.size()));
      }
      return Status::Ok();
    }
    const auto* buffers = fb_.constant_buffer();
    if (!buffers || idx >= buffers->size())
      return Error(fmt::format("constant index {} but constant_buffer has {} entries", idx,
                               buffers ? buffers->size() : 0));
    t.data_location = DataLocation::kInline;
    const auto* storage = buffers->Get(idx)->storage();
    t.nbytes = storage ? static_cast<int64_t>(storage->size()) : 0;
    return Status::Ok();
  }

  std::optional<Quantization> quantization(const xnn::QuantizedTensorValue& q,
                                           xnn::DataType dtype) {
    // The verifier accepts a union whose type is set but whose table is absent.
    if (!q.quant_params()) return std::nullopt;
    Quantization out;
    const int64_t implicit_zero =
        (dtype == xnn::DataType::qcint4 || dtype == xnn::DataType::qbint4) ? 8 : 0;
    auto take_scales = [&](const flatbuffers::Vector<float>* scales, uint32_t buffer_idx,
                           uint32_t num_scales, bool bf16) {
      if (scales && scales->size() > 0) {
        out.num_scales = scales->size();
        for (flatbuffers::uoffset_t i = 0; i < scales->size() && i < kMaxScalesShown; ++i)
          out.scales.push_back(scales->Get(i));
      } else if (buffer_idx != 0) {
        const auto bytes = constant_bytes(buffer_idx);
        const size_t each = bf16 ? 2 : 4;
        out.num_scales = num_scales ? num_scales : static_cast<int64_t>(bytes.size() / each);
        for (size_t i = 0; i < bytes.size() / each && i < kMaxScalesShown; ++i)
          out.scales.push_back(bf16 ? bf16_to_float(load_le<uint16_t>(bytes.data() + i * 2))
                                    : load_le<float>(bytes.data() + i * 4));
      } else {
        out.num_scales = num_scales;
      }
    };
    switch (q.quant_params_type()) {
      case xnn::QuantParams::PerTensorQuant: {
        const auto* p = q.quant_params_as_PerTensorQuant();
        out.scheme = "per_tensor";
        out.scales = {p->scale()};
        out.zero_points = {p->zero_point()};
        out.num_scales = 1;
        return out;
      }
      case xnn::QuantParams::PerChannelQuant: {
        const auto* p = q.quant_params_as_PerChannelQuant();
        out.scheme = "per_channel";
        out.axis = p->channel_dim();
        take_scales(p->scale(), p->scale_buffer_idx(), p->num_scales(), false);
        out.zero_points = {implicit_zero};
        return out;
      }
      case xnn::QuantParams::PerTokenDynamicQuant: {
        const auto* p = q.quant_params_as_PerTokenDynamicQuant();
        out.scheme = "per_token_dynamic";
        out.axis = p->num_nonbatch_dims();  // dims after the batch dims that share one scale
        return out;
      }
      case xnn::QuantParams::PerChannelGroupQuant: {
        const auto* p = q.quant_params_as_PerChannelGroupQuant();
        out.scheme = "per_channel_group";
        out.axis = p->channel_dim();
        out.group_size = p->group_size();
        if (p->scale_bf16() && p->scale_bf16()->size() > 0 && !(p->scale() && p->scale()->size())) {
          out.num_scales = p->scale_bf16()->size();
          for (flatbuffers::uoffset_t i = 0; i < p->scale_bf16()->size() && i < kMaxScalesShown;
               ++i)
            out.scales.push_back(bf16_to_float(p->scale_bf16()->Get(i)));
        } else {
          take_scales(p->scale(), p->scale_buffer_idx(), p->num_scales(), true);
        }
        out.zero_points = {implicit_zero};
        return out;
      }
      default:
        return std::nullopt;
    }
  }

  Status read_values() {
    const auto* values = fb_.xvalues();
    if (!values) return Status::Ok();
    if (!budget_.charge(values->size())) return ExpansionBudget::exhausted_error();
    for (flatbuffers::uoffset_t i = 0; i < values->size(); ++i) {
      const xnn::Value* v = values->Get(i);
      if (!v->value())
        return Error(fmt::format("value {} has no table (union type {})", i,
                                 static_cast<int>(v->value_type())));
      const xnn::TensorValue* t = nullptr;
      const xnn::QuantizedTensorValue* q = nullptr;
      if (v->value_type() == xnn::ValueUnion::TensorValue) {
        t = v->value_as_TensorValue();
      } else if (v->value_type() == xnn::ValueUnion::QuantizedTensorValue) {
        q = v->value_as_QuantizedTensorValue();
        t = q->tensor_value();
      }
      if (!t)
        return Error(fmt::format("value {} has no tensor (union type {})", i,
                                 static_cast<int>(v->value_type())));
      TensorInfo info;
      info.dtype = dtype_name(t->datatype());
      if (const auto* dims = t->dims()) {
        if (!budget_.charge(dims->size())) return ExpansionBudget::exhausted_error();
        for (uint32_t d : *dims) info.shape.push_back(Dim{static_cast<int64_t>(d), {}});
      }
      if (t->constant_buffer_idx() != 0) {
        if (auto s = describe_constant(t->constant_buffer_idx(), info); !s)
          return s.error().within(fmt::format("value {}", t->id_out()));
        ++constant_count_;
      } else if (auto b = info.byte_size()) {
        info.nbytes = *b;
      }
      if (q)
        if (auto parameters = quantization(*q, t->datatype()))
          info.quantization = std::move(*parameters);
      const uint32_t id = t->id_out();
      if (ids_.count(id))
        return Error(
            fmt::format("value id {} is defined twice (values {} and {})", id, ids_[id], i));
      std::string name = fmt::format("v{}", id);
      if (t->flags() & 1) name = fmt::format("in{}", id);
      if (t->flags() & 2) name = fmt::format("out{}", id);
      const bool constant = info.is_constant();
      ids_[id] = builder_.add_tensor(std::move(name), std::move(info));
      if (constant && constant_blob_.valid())
        builder_.graph().constant_data_for(ids_[id]).blob = constant_blob_;
    }
    return Status::Ok();
  }

  Result<ValueId> value(uint32_t id, const char* what) {
    auto it = ids_.find(id);
    if (it == ids_.end())
      return Error(fmt::format("{} names value id {}, which is not defined", what, id));
    return it->second;
  }

  Status read_io() {
    std::vector<uint32_t> in, out;
    if (fb_.input_ids()) in.assign(fb_.input_ids()->begin(), fb_.input_ids()->end());
    if (fb_.output_ids()) out.assign(fb_.output_ids()->begin(), fb_.output_ids()->end());
    // The runtime binds the call's arguments to the ids in ascending order.
    std::sort(in.begin(), in.end());
    std::sort(out.begin(), out.end());
    for (uint32_t id : in) {
      auto v = value(id, "input_ids");
      if (!v) return v.error();
      builder_.add_input(*v);
    }
    for (uint32_t id : out) {
      auto v = value(id, "output_ids");
      if (!v) return v.error();
      outputs_.push_back(*v);
    }
    return Status::Ok();
  }

  // Adds an operand if present (optional operands use XNN_INVALID_VALUE_ID).
  Status arg(std::vector<Argument>& list, const char* name, uint32_t id, bool optional = false) {
    if (optional && id == kInvalidId) return Status::Ok();
    auto v = value(id, name);
    if (!v) return v.error();
    list.push_back({name, *v});
    return Status::Ok();
  }

  static void attr(Node& n, const char* name, const std::string& value) {
    n.attributes.push_back({name, value});
  }
  template <typename T>
  static std::string list(const flatbuffers::Vector<T>* v) {
    std::string s = "[";
    for (flatbuffers::uoffset_t i = 0; v && i < v->size(); ++i)
      s += (i ? ", " : "") + std::to_string(v->Get(i));
    return s + "]";
  }

  Status read_node(const xnn::Node& xn, Node& n) {
    using U = xnn::NodeUnion;
    const U type = xn.node_type();
    if (type != U::NONE && !xn.node())
      return Error(fmt::format("node of kind {} without its table", static_cast<int>(type)));
    Status s;
    auto check = [&](Status st) {
      if (s.ok() && !st.ok()) s = st;
    };
    switch (type) {
      case U::Add:
      case U::Div:
      case U::Minimum:
      case U::Maximum:
      case U::Multiply:
      case U::Subtract:
      case U::PReLU:
      case U::BatchMatrixMultiply: {
        const auto* t = static_cast<const xnn::Node2x1*>(xn.node());
        check(arg(n.inputs, "input1", t->input1_id()));
        check(arg(n.inputs, "input2", t->input2_id()));
        check(arg(n.outputs, "output", t->output_id()));
        if (t->flags()) attr(n, "flags", std::to_string(t->flags()));
        break;
      }
      case U::Softmax:
      case U::Sigmoid:
      case U::Clamp:
      case U::Floor:
      case U::Convert:
      case U::GlobalAvgPooling2d:
      case U::SquareRoot:
      case U::Ceiling:
      case U::Hardswish:
      case U::Negate:
      case U::Square:
      case U::Abs:
      case U::ReciprocalSquareRoot:
      case U::Log:
      case U::Gelu:
      case U::Tanh:
      case U::Exp:
      case U::Sin:
      case U::Copy:
      case U::Cos: {
        const auto* t = static_cast<const xnn::Node1x1*>(xn.node());
        check(arg(n.inputs, "input", t->input_id()));
        check(arg(n.outputs, "output", t->output_id()));
        if (t->flags()) attr(n, "flags", std::to_string(t->flags()));
        break;
      }
      case U::FullyConnected: {
        const auto* t = xn.node_as_FullyConnected();
        check(arg(n.inputs, "input", t->input1_id()));
        check(arg(n.inputs, "filter", t->filter_id()));
        check(arg(n.inputs, "bias", t->bias_id(), true));
        check(arg(n.outputs, "output", t->output_id()));
        if (t->flags()) attr(n, "flags", std::to_string(t->flags()));
        break;
      }
      case U::Conv2d:
      case U::DepthwiseConv2d:
      case U::ConvTranspose2d: {
        const auto* t = static_cast<const xnn::Conv*>(xn.node());
        check(arg(n.inputs, "input", t->input1_id()));
        check(arg(n.inputs, "filter", t->filter_id()));
        check(arg(n.inputs, "bias", t->bias_id(), true));
        check(arg(n.outputs, "output", t->output_id()));
        attr(n, "padding",
             fmt::format("[{}, {}, {}, {}]", t->padding_top(), t->padding_right(),
                         t->padding_bottom(), t->padding_left()));
        attr(n, "kernel", fmt::format("[{}, {}]", t->kernel_height(), t->kernel_width()));
        attr(n, "stride", fmt::format("[{}, {}]", t->subsampling_height(), t->subsampling_width()));
        attr(n, "dilation", fmt::format("[{}, {}]", t->dilation_height(), t->dilation_width()));
        attr(n, "groups", std::to_string(t->groups()));
        attr(n, "group_input_channels", std::to_string(t->group_input_channels()));
        attr(n, "group_output_channels", std::to_string(t->group_output_channels()));
        if (type == U::ConvTranspose2d)
          attr(n, "adjustment",
               fmt::format("[{}, {}]", t->adjustment_height(), t->adjustment_width()));
        if (t->flags()) attr(n, "flags", std::to_string(t->flags()));
        break;
      }
      case U::AvgPooling2d:
      case U::MaxPooling2d: {
        const auto* t = static_cast<const xnn::Pooling2D*>(xn.node());
        check(arg(n.inputs, "input", t->input_id()));
        check(arg(n.outputs, "output", t->output_id()));
        attr(n, "padding",
             fmt::format("[{}, {}, {}, {}]", t->padding_top(), t->padding_right(),
                         t->padding_bottom(), t->padding_left()));
        attr(n, "pooling", fmt::format("[{}, {}]", t->pooling_height(), t->pooling_width()));
        attr(n, "stride", fmt::format("[{}, {}]", t->stride_height(), t->stride_width()));
        attr(n, "dilation", fmt::format("[{}, {}]", t->dilation_height(), t->dilation_width()));
        if (t->flags()) attr(n, "flags", std::to_string(t->flags()));
        break;
      }
      case U::ArgMaxPooling2d: {
        const auto* t = xn.node_as_ArgMaxPooling2d();
        check(arg(n.inputs, "input", t->input_id()));
        check(arg(n.outputs, "output_value", t->output_value_id()));
        check(arg(n.outputs, "output_index", t->output_index_id()));
        attr(n, "padding",
             fmt::format("[{}, {}, {}, {}]", t->padding_top(), t->padding_right(),
                         t->padding_bottom(), t->padding_left()));
        attr(n, "pooling", fmt::format("[{}, {}]", t->pooling_height(), t->pooling_width()));
        break;
      }
      case U::StaticTranspose: {
        const auto* t = xn.node_as_StaticTranspose();
        check(arg(n.inputs, "input", t->input_id()));
        check(arg(n.outputs, "output", t->output_id()));
        attr(n, "perm", list(t->perm()));
        break;
      }
      case U::StaticReshape: {
        const auto* t = xn.node_as_StaticReshape();
        check(arg(n.inputs, "input", t->input_id()));
        check(arg(n.outputs, "output", t->output_id()));
        attr(n, "new_shape", list(t->new_shape()));
        break;
      }
      case U::StaticSlice: {
        const auto* t = xn.node_as_StaticSlice();
        check(arg(n.inputs, "input", t->input_id()));
        check(arg(n.outputs, "output", t->output_id()));
        attr(n, "offsets", list(t->offsets()));
        attr(n, "sizes", list(t->sizes()));
        break;
      }
      case U::StaticConstantPad: {
        const auto* t = xn.node_as_StaticConstantPad();
        check(arg(n.inputs, "input", t->input_id()));
        check(arg(n.outputs, "output", t->output_id()));
        attr(n, "pre_paddings", list(t->pre_paddings()));
        attr(n, "post_paddings", list(t->post_paddings()));
        attr(n, "padding_value", format_float(t->padding_value()));
        break;
      }
      case U::StaticResizeBilinear2D: {
        const auto* t = xn.node_as_StaticResizeBilinear2D();
        check(arg(n.inputs, "input", t->input_id()));
        check(arg(n.outputs, "output", t->output_id()));
        attr(n, "new_size", fmt::format("[{}, {}]", t->new_height(), t->new_width()));
        if (t->flags()) attr(n, "flags", std::to_string(t->flags()));
        break;
      }
      case U::LeakyReLU: {
        const auto* t = xn.node_as_LeakyReLU();
        check(arg(n.inputs, "input", t->input_id()));
        check(arg(n.outputs, "output", t->output_id()));
        attr(n, "negative_slope", format_float(t->negative_slope()));
        break;
      }
      case U::ELU: {
        const auto* t = xn.node_as_ELU();
        check(arg(n.inputs, "input", t->input_id()));
        check(arg(n.outputs, "output", t->output_id()));
        attr(n, "alpha", format_float(t->alpha()));
        break;
      }
      case U::Concatenate2:
      case U::Concatenate3:
      case U::Concatenate4:
      case U::Concatenate5: {
        const auto* t = static_cast<const xnn::Cat*>(xn.node());
        const int count = type == U::Concatenate2   ? 2
                          : type == U::Concatenate3 ? 3
                          : type == U::Concatenate4 ? 4
                                                    : 5;
        const uint32_t ids[5] = {t->input1_id(), t->input2_id(), t->input3_id(), t->input4_id(),
                                 t->input5_id()};
        static const char* names[5] = {"input1", "input2", "input3", "input4", "input5"};
        for (int k = 0; k < count; ++k) check(arg(n.inputs, names[k], ids[k]));
        check(arg(n.outputs, "output", t->output_id()));
        attr(n, "axis", std::to_string(t->axis()));
        break;
      }
      case U::ScaledDotProductAttention: {
        const auto* t = xn.node_as_ScaledDotProductAttention();
        check(arg(n.inputs, "query", t->query_id()));
        check(arg(n.inputs, "key", t->key_id()));
        check(arg(n.inputs, "value", t->value_id()));
        check(arg(n.inputs, "scale", t->scale_id(), true));
        check(arg(n.inputs, "mask", t->mask_id(), true));
        check(arg(n.outputs, "output", t->output_id()));
        break;
      }
      case U::NONE:
        return Error("node without an operation (union type 0)");
      default:
        // A node type from a newer writer: keep it, with its tag, so counts stay right.
        n.op = fmt::format("XNNUnknown{}", static_cast<int>(type));
        n.kind = NodeKind::kOther;
        attr(n, "note", "node type newer than this reader; operands not shown");
        return Status::Ok();
    }
    return s;
  }

  Status read_nodes() {
    const auto* nodes = fb_.xnodes();
    if (!nodes) return Status::Ok();
    if (!budget_.charge(nodes->size())) return ExpansionBudget::exhausted_error();
    for (flatbuffers::uoffset_t i = 0; i < nodes->size(); ++i) {
      const xnn::Node* xn = nodes->Get(i);
      Node n;
      n.kind = NodeKind::kKernel;
      n.op = std::string("XNN") + xnn::EnumNameNodeUnion(xn->node_type());
      if (auto s = read_node(*xn, n); !s)
        return s.error().within(fmt::format("node {} ({})", i, n.op));
      n.name = fmt::format("{}_{}", n.op, i);
      n.provenance.instruction = i;
      const uint32_t handle = xn->debug_handle();
      n.attributes.push_back({"debug_handle", std::to_string(handle)});
      if (handle == kDefaultDebugHandle)
        n.attributes.push_back({"inserted_by", "XNNPACK partitioner (layout conversion)"});
      else
        n.provenance.debug_handles.push_back(handle);
      if (const auto* mm = xn->output_min_max())
        n.attributes.push_back(
            {"output_min_max", fmt::format("[{}, {}]", format_float(mm->output_min()),
                                           format_float(mm->output_max()))});
      builder_.add_op(std::move(n));
      ++op_count_;
    }
    return Status::Ok();
  }

 public:
  int missing_named_ = 0;

 private:
  const DecodeInput& in_;
  const Layout& layout_;
  const xnn::Graph& fb_;
  SubgraphBuilder builder_;
  ExpansionBudget budget_;
  std::unordered_map<uint32_t, ValueId> ids_;
  std::vector<ValueId> outputs_;
  int64_t op_count_ = 0;
  int64_t constant_count_ = 0;
  BlobRef constant_blob_;  // of the constant describe_constant last described
};

}  // namespace

Result<Graph> decode_xnnpack(const DecodeInput& in) {
  auto layout = split_payload(in.payload);
  if (!layout) return layout.error();
  const auto fb = layout->flatbuffer;
  if (fb.size() < 8 ||
      (std::memcmp(fb.data() + 4, "XN01", 4) != 0 && std::memcmp(fb.data() + 4, "XN00", 4) != 0))
    return Error(
        fmt::format("expected XNNPACK flatbuffer identifier 'XN01' or 'XN00' at bytes "
                    "4..8 of the flatbuffer, found '{}'",
                    fb.size() >= 8 ? printable_tag(fb.subspan(4, 4)) : "(too short)"));
  if (auto s = verify_flatbuffer<xnn::Graph>(fb, nullptr, "XNNPACK graph"); !s) return s.error();
  const auto* root = flatbuffers::GetRoot<xnn::Graph>(fb.data());
  if ((!root->xnodes() || root->xnodes()->size() == 0) &&
      (!root->xvalues() || root->xvalues()->size() == 0))
    return Error("the XNNPACK graph holds no nodes and no values (the exporter never writes one)");
  XnnpackGraphReader reader(in, *layout, *root);
  auto graph = reader.read();
  if (graph && reader.missing_named_ > 0)
    graph->attributes.push_back(
        {"missing_named_data", fmt::format("{} constants name keys that neither the program nor a "
                                           "--data file provides",
                                           reader.missing_named_)});
  return graph;
}

}  // namespace etviz::delegates
