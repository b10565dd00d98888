// Arm Ethos-U payloads (EthosUBackend and the legacy ArmBackend id): Vela's block stream.
// The original graph is compiled away; what remains is the NPU command stream, the weights
// and the I/O layout. The subgraph shows the real inputs and outputs (shape, element size,
// scratch offset, region) around one node that summarises the command stream: target
// configuration, sizes and a histogram of NPU operations. It is marked opaque because NPU
// operations are not the model's operators. See docs/delegates.md.
#include <fmt/format.h>

#include <cstring>
#include <map>

#include "core/bytes.h"
#include "formats/delegates/delegate_decoders.h"
#include "formats/delegates/subgraph_builder.h"

namespace etviz::delegates {
namespace {

constexpr size_t kBlockHeader = 32;

struct Block {
  std::string name;
  bool external = false;
  std::span<const uint8_t> data;
};

Result<std::vector<Block>> read_blocks(std::span<const uint8_t> p) {
  std::vector<Block> blocks;
  size_t at = 0;
  while (true) {
    if (p.size() - at < kBlockHeader)
      return Error(
          fmt::format("block header at byte {} runs past the {}-byte payload", at, p.size()));
    Block b;
    const char* name = reinterpret_cast<const char*>(p.data() + at);
    b.name.assign(name, strnlen(name, 16));
    const uint32_t size = load_le<uint32_t>(p.data() + at + 16);
    b.external = p[at + 20] == 1;
    if (size > p.size() - at - kBlockHeader)
      return Error(fmt::format("block '{}' at byte {} states {} bytes; only {} remain", b.name, at,
                               size, p.size() - at - kBlockHeader));
    b.data = p.subspan(at + kBlockHeader, size);
    if (blocks.empty() && b.name != "vela_bin_stream")
      return Error(
          fmt::format("expected the first block to be 'vela_bin_stream', found '{}'", b.name));
    at += kBlockHeader + ((static_cast<size_t>(size) + 15) / 16) * 16;
    blocks.push_back(b);
    if (b.name == "vela_end_stream") break;
    if (at > p.size()) return Error("blocks run past the payload without 'vela_end_stream'");
  }
  return blocks;
}

struct IoRecord {
  std::vector<int64_t> shape;
  int32_t elem_size = 0;
  int32_t offset = 0;
  int32_t region = 0;
};

Result<std::vector<IoRecord>> read_io(const Block& b) {
  if (b.data.size() < 4) return Error(fmt::format("block '{}' is too short for a count", b.name));
  const int32_t count = load_le<int32_t>(b.data.data());
  if (count < 0 || count > 4096)
    return Error(fmt::format("block '{}' states {} tensors", b.name, count));
  std::vector<IoRecord> out;
  if (count == 0) return out;
  const size_t record = (b.data.size() - 4) / static_cast<size_t>(count);
  // 6-D shapes since 2025-09 (36-byte records), 4-D before (28 bytes).
  if (record != 36 && record != 28)
    return Error(
        fmt::format("block '{}': {} records in {} bytes is neither the 36- nor the 28-byte layout",
                    b.name, count, b.data.size() - 4));
  const size_t dims = record == 36 ? 6 : 4;
  for (int32_t i = 0; i < count; ++i) {
    const uint8_t* r = b.data.data() + 4 + static_cast<size_t>(i) * record;
    IoRecord io;
    for (size_t d = 0; d < dims; ++d) io.shape.push_back(load_le<int32_t>(r + 4 * d));
    io.elem_size = load_le<int32_t>(r + 4 * dims);
    io.offset = load_le<int32_t>(r + 4 * dims + 4);
    io.region = load_le<int32_t>(r + 4 * dims + 8);
    out.push_back(std::move(io));
  }
  return out;
}

const char* npu_op_name(uint32_t code) {
  switch (code) {
    case 0x00:
      return "STOP";
    case 0x01:
      return "IRQ";
    case 0x02:
      return "CONV";
    case 0x03:
      return "DEPTHWISE";
    case 0x05:
      return "POOL";
    case 0x06:
      return "ELEMENTWISE";
    case 0x07:
      return "RESIZE";
    case 0x10:
      return "DMA_START";
    case 0x11:
      return "DMA_WAIT";
    case 0x12:
      return "KERNEL_WAIT";
    case 0x13:
      return "PMU_MASK";
    default:
      return nullptr;
  }
}

std::string sub_mode(uint32_t code, uint32_t param) {
  static const char* pool[] = {"max", "average", "reduce_sum"};
  static const char* elementwise[] = {"MUL",   "ADD", "SUB", "MIN", "MAX",
                                      "LRELU", "ABS", "CLZ", "SHR", "SHL"};
  if (code == 0x05 && param < 3) return pool[param];
  if (code == 0x06 && param < 10) return elementwise[param];
  return "";
}

struct StreamSummary {
  int64_t words = 0;
  int64_t commands = 0;
  std::map<std::string, int64_t> ops;  // "CONV", "POOL(average)"...
  uint32_t config = 0, npu_id = 0;
  bool has_config = false;
};

Result<StreamSummary> read_cmd_data(std::span<const uint8_t> d) {
  if (d.size() < 4 || std::memcmp(d.data(), "COP1", 4) != 0)
    return Error("cmd_data does not start with the 'COP1' driver payload tag");
  StreamSummary s;
  const size_t n = d.size() / 4;
  size_t i = 1;
  auto word = [&](size_t k) { return load_le<uint32_t>(d.data() + 4 * k); };
  while (i < n) {
    const uint32_t w = word(i++);
    const uint32_t action = w & 0xFF;
    const uint32_t length = ((w >> 8) & 0xFF) << 16 | (w >> 16);
    if (action == 1) {  // optimizer config: two words follow
      if (i + 2 > n) return Error("optimizer config runs past cmd_data");
      s.config = word(i);
      s.npu_id = word(i + 1);
      s.has_config = true;
      i += 2;
    } else if (action == 5) {  // NOP
    } else if (action == 2) {  // command stream of `length` words
      if (length > n - i)
        return Error(fmt::format("command stream of {} words runs past cmd_data", length));
      const size_t end = i + length;
      s.words += length;
      while (i < end) {
        const uint32_t c = word(i++);
        const uint32_t code = c & 0xFFFF;
        ++s.commands;
        if (code & 0x4000) {
          ++i;  // one payload word
          continue;
        }
        if (const char* name = npu_op_name(code & 0x3FF)) {
          const std::string mode = sub_mode(code & 0x3FF, c >> 16);
          if ((code & 0x3FF) < 0x100)
            ++s.ops[mode.empty() ? name : fmt::format("{}({})", name, mode)];
        }
      }
      if (i > end) return Error("the command stream's last command lacks its payload word");
    } else {
      break;  // an action this reader does not know: stop, keep what was read
    }
  }
  return s;
}

std::string dtype_for_elem_size(int32_t size) {
  switch (size) {
    case 1:
      return "int8";
    case 2:
      return "int16";
    case 4:
      return "int32";
    default:
      return fmt::format("bytes{}", size);
  }
}

}  // namespace

Result<Graph> decode_ethosu(const DecodeInput& in) {
  auto blocks = read_blocks(in.payload);
  if (!blocks) return blocks.error();
  auto facts = basic_payload_facts(in);
  facts.push_back({"format", "Vela bin stream"});
  std::vector<IoRecord> inputs, outputs;
  for (const Block& b : *blocks) {
    if (b.name == "cmd_data") {
      facts.push_back({"command_data_bytes", std::to_string(b.data.size())});
      if (b.external) continue;
      auto s = read_cmd_data(b.data);
      if (!s) return s.error();
      if (s->has_config) {
        static const char* products[] = {"Ethos-U55", "Ethos-U65", "Ethos-U85"};
        const uint32_t product = s->config >> 28;
        // The SHRAM size field is meaningful for U55/U65 only.
        const std::string shram =
            product < 2 ? fmt::format(", {} KB SHRAM", (s->config >> 8) & 0xFF) : "";
        facts.push_back(
            {"npu", fmt::format("{} ({} MACs/cc{})", product < 3 ? products[product] : "Ethos-U?",
                                1u << (s->config & 0xF), shram)});
        facts.push_back({"npu_config_word", fmt::format("0x{:08x}", s->config)});
        facts.push_back({"npu_id_word", fmt::format("0x{:08x}", s->npu_id)});
      }
      facts.push_back({"command_stream_words", std::to_string(s->words)});
      facts.push_back({"commands", std::to_string(s->commands)});
      std::string hist;
      for (const auto& [op, count] : s->ops)
        hist += fmt::format("{}{} {}", hist.empty() ? "" : ", ", op, count);
      facts.push_back({"npu_operations", hist});
    } else if (b.name == "weight_data") {
      facts.push_back({"weight_bytes", std::to_string(b.data.size())});
    } else if (b.name == "scratch_size" && b.data.size() >= 4) {
      facts.push_back({"scratch_bytes", std::to_string(load_le<uint32_t>(b.data.data()))});
    } else if (b.name == "scratch_data") {
      // Pre-2025 writers stored the zero-filled scratch area itself; only its size matters.
      facts.push_back(
          {"scratch_bytes", std::to_string(b.data.size()) + " (stored as scratch_data)"});
    } else if (b.name == "inputs" || b.name == "outputs") {
      auto io = read_io(b);
      if (!io) return io.error();
      (b.name == "inputs" ? inputs : outputs) = std::move(*io);
    } else if (b.external) {
      facts.push_back({"external_block." + b.name, "named data key"});
    }
  }
  facts.push_back(
      {"note",
       "Vela compiled the graph into NPU commands; operator-level ops are not recoverable"});

  SubgraphBuilder sb(in.graph_name, in.delegate.backend_id);
  sb.graph().opaque = true;
  sb.graph().attributes.push_back({"format", "Vela bin stream"});
  Node n;
  n.name = in.graph_name;
  n.op = "Ethos-U command stream";
  n.kind = NodeKind::kOther;
  n.attributes = std::move(facts);
  // Shapes are stored right-aligned in 6 (or 4) dims; show the call's rank when it matches.
  auto make = [&](const IoRecord& r, const char* kind, size_t k,
                  const std::vector<Argument>* call_args) {
    TensorInfo t;
    t.dtype = dtype_for_elem_size(r.elem_size);
    std::vector<int64_t> shape = r.shape;
    if (in.method && call_args && k < call_args->size()) {
      const ValueId v = (*call_args)[k].value;
      if (v >= 0 && static_cast<size_t>(v) < in.method->values.size()) {
        const size_t rank = in.method->values[v].tensor.shape.size();
        while (shape.size() > rank && shape.front() == 1) shape.erase(shape.begin());
      }
    }
    for (int64_t d : shape) t.shape.push_back(Dim{d, {}});
    if (auto b = t.byte_size(r.elem_size)) t.nbytes = *b;
    const ValueId id = sb.add_tensor(fmt::format("{}{}", kind, k), std::move(t));
    return id;
  };
  std::vector<ValueId> outs;
  for (size_t k = 0; k < inputs.size(); ++k) {
    const ValueId v = make(inputs[k], "input", k, in.call ? &in.call->inputs : nullptr);
    sb.add_input(v);
    n.inputs.push_back({fmt::format("region {} offset {}", inputs[k].region, inputs[k].offset), v});
  }
  for (size_t k = 0; k < outputs.size(); ++k) {
    const ValueId v = make(outputs[k], "output", k, in.call ? &in.call->outputs : nullptr);
    outs.push_back(v);
    n.outputs.push_back(
        {fmt::format("region {} offset {}", outputs[k].region, outputs[k].offset), v});
  }
  sb.add_op(std::move(n));
  for (ValueId v : outs) sb.add_output(v);
  return sb.finish();
}

}  // namespace etviz::delegates
