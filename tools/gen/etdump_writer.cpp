#include "etdump_writer.h"

#include <flatbuffers/flatbuffers.h>
#include <fmt/format.h>

#include <cstring>
#include <limits>
#include <map>

#include "core/tensor_info.h"
#include "etdump_generated.h"

namespace etviz::gen {
namespace fb = etviz::etdump;

namespace {

flatbuffers::Offset<fb::Tensor> tensor(flatbuffers::FlatBufferBuilder& b, const ProfileTensor& t) {
  auto sizes = b.CreateVector(t.sizes);
  auto strides = b.CreateVector(t.strides);
  return fb::CreateTensor(b, static_cast<int8_t>(t.scalar_type), sizes, strides, t.offset);
}

flatbuffers::Offset<fb::Value> value(flatbuffers::FlatBufferBuilder& b, const ProfileValue& v) {
  using K = ProfileValue::Kind;
  flatbuffers::Offset<fb::Tensor> t;
  flatbuffers::Offset<fb::TensorList> list;
  flatbuffers::Offset<fb::Int> i;
  flatbuffers::Offset<fb::Float> f;
  flatbuffers::Offset<fb::Double> d;
  flatbuffers::Offset<fb::Bool> bo;
  fb::ValueType type = fb::ValueType::Null;
  switch (v.kind) {
    case K::kInt:
      type = fb::ValueType::Int;
      i = fb::CreateInt(b, v.int_value);
      break;
    case K::kBool:
      type = fb::ValueType::Bool;
      bo = fb::CreateBool(b, v.bool_value);
      break;
    case K::kFloat:
      type = fb::ValueType::Float;
      f = fb::CreateFloat(b, static_cast<float>(v.float_value));
      break;
    case K::kDouble:
      type = fb::ValueType::Double;
      d = fb::CreateDouble(b, v.float_value);
      break;
    case K::kTensor:
      type = fb::ValueType::Tensor;
      if (!v.tensors.empty()) t = tensor(b, v.tensors.front());
      break;
    case K::kTensorList: {
      type = fb::ValueType::TensorList;
      std::vector<flatbuffers::Offset<fb::Tensor>> ts;
      for (const auto& x : v.tensors) ts.push_back(tensor(b, x));
      list = fb::CreateTensorList(b, b.CreateVector(ts));
      break;
    }
    case K::kString:
      type = fb::ValueType::String;
      break;
    default:
      break;
  }
  auto output = v.is_output ? fb::CreateBool(b, true) : flatbuffers::Offset<fb::Bool>();
  return fb::CreateValue(b, type, t, list, i, f, d, bo, output);
}

// Small deterministic generator (splitmix64) so synthetic profiles are reproducible.
struct Random {
  uint64_t state;
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t between(uint64_t lo, uint64_t hi) { return lo + next() % (hi - lo + 1); }
};

std::string bare_op(const std::string& op) {
  const auto colons = op.rfind("::");
  return colons == std::string::npos ? op : op.substr(colons + 2);
}

}  // namespace

std::vector<uint8_t> write_etdump(const Profile& profile, bool size_prefixed) {
  flatbuffers::FlatBufferBuilder b(1024);
  b.ForceDefaults(true);  // the runtime writes instruction ids and chains even when default
  std::vector<flatbuffers::Offset<fb::RunData>> runs;
  for (const ProfileRun& run : profile.runs) {
    std::vector<flatbuffers::Offset<fb::Allocator>> allocators;
    for (const auto& a : run.allocators)
      allocators.push_back(fb::CreateAllocator(b, b.CreateString(a)));
    std::vector<flatbuffers::Offset<fb::Event>> events;
    for (const ProfileEvent& e : run.profile_events) {
      auto name = b.CreateString(e.name);
      auto id_str = e.delegate_debug_id_str.empty() ? flatbuffers::Offset<flatbuffers::String>()
                                                    : b.CreateString(e.delegate_debug_id_str);
      auto meta = e.delegate_debug_metadata.empty()
                      ? flatbuffers::Offset<flatbuffers::Vector<uint8_t>>()
                      : b.CreateVector(e.delegate_debug_metadata);
      auto p = fb::CreateProfileEvent(b, name, e.chain, e.instruction, e.delegate_debug_id_int,
                                      id_str, meta, e.start, e.end);
      events.push_back(fb::CreateEvent(b, p));
    }
    for (const AllocationEvent& a : run.allocations)
      events.push_back(fb::CreateEvent(b, 0, fb::CreateAllocationEvent(b, a.allocator, a.size)));
    for (const DebugEvent& d : run.debug_events) {
      auto v = value(b, d.value);
      auto id_str = d.delegate_debug_id_str.empty() ? flatbuffers::Offset<flatbuffers::String>()
                                                    : b.CreateString(d.delegate_debug_id_str);
      auto name = b.CreateString(d.name);
      auto e = fb::CreateDebugEvent(b, static_cast<uint64_t>(d.chain), d.instruction, v,
                                    d.delegate_debug_id_int, id_str, name);
      events.push_back(fb::CreateEvent(b, 0, 0, e));
    }
    runs.push_back(fb::CreateRunData(b, b.CreateString(run.name), run.bundled_input_index,
                                     b.CreateVector(allocators), b.CreateVector(events)));
  }
  auto root = fb::CreateETDump(b, profile.version, b.CreateVector(runs));
  if (size_prefixed)
    b.FinishSizePrefixed(root, "ED00");
  else
    b.Finish(root, "ED00");
  return {b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize()};
}

Result<Profile> synthesize_profile(const Document& program, const SyntheticProfileSpec& spec,
                                   std::vector<uint8_t>* debug_buffer) {
  const Graph* graph = nullptr;
  for (const Graph& g : program.graphs)
    if (g.kind == GraphKind::kMethod && g.name == spec.method) graph = &g;
  if (!graph) return Error(fmt::format("the program has no method '{}'", spec.method));

  Random rng{spec.seed};
  Profile profile;
  ProfileRun load;
  load.name = "Default";
  uint64_t clock = 1000;
  const uint64_t load_start = clock;
  ProfileEvent init{
      "Method::init", -1, 0, -1, "", {}, clock + 50, clock + 50 + rng.between(1000, 5000)};
  clock = init.end + 20;
  load.profile_events.push_back(init);
  load.profile_events.push_back({"Program::load_method", -1, 0, -1, "", {}, load_start, clock});
  if (spec.allocations) {
    load.allocators = {"method_allocator", "temp_allocator"};
    load.allocations = {{0, 4096}, {0, 256}, {1, 1024}};
  }
  profile.runs.push_back(std::move(load));

  auto sizes_of = [](const Value& v) {
    std::vector<int64_t> sizes;
    for (const Dim& dim : v.tensor.shape) sizes.push_back(dim.size < 0 ? 1 : dim.size);
    return sizes;
  };
  int32_t last_instruction = 0;
  for (const Node& node : graph->nodes)
    last_instruction =
        std::max(last_instruction, static_cast<int32_t>(node.provenance.instruction));
  // Per run: how many outputs have drifted so far, and the drift each instruction's first
  // logged output got (the method outputs repeat their producer's).
  int32_t drifted = 0;
  std::map<int32_t, double> drift_of;
  // Logs one float32 tensor of `sizes` for `instruction` (see SyntheticProfileSpec: values,
  // drift, NaN), 64-byte aligned in the buffer.
  auto log_tensor = [&](ProfileRun& run, DebugEvent d, const std::vector<int64_t>& sizes,
                        int32_t instruction, bool repeat = false,
                        const std::string& dtype = "float32") {
    d.value.kind = ProfileValue::Kind::kTensor;
    ProfileTensor t;
    // Integer outputs (a quantize call's) are logged as they are; anything else as float32.
    static const std::map<std::string, std::pair<int, int>> kTypes = {
        {"uint8", {0, 1}}, {"int8", {1, 1}}, {"int32", {3, 4}}, {"int64", {4, 8}}};
    const auto type = kTypes.find(dtype);
    t.scalar_type = type == kTypes.end() ? 6 : type->second.first;
    t.dtype = type == kTypes.end() ? "float32" : dtype;
    const int64_t element = type == kTypes.end() ? 4 : type->second.second;
    t.sizes = sizes;
    int64_t numel = 1;
    for (int64_t s : sizes) numel *= s;
    int64_t stride = 1;
    t.strides.assign(t.sizes.size(), 1);
    for (size_t k = t.sizes.size(); k-- > 0;) {
      t.strides[k] = stride;
      stride *= t.sizes[k];
    }
    double drift = 0;
    if (repeat) {
      auto it = drift_of.find(instruction);
      drift = it == drift_of.end() ? 0 : it->second;
    } else if (spec.drift_from >= 0 && instruction >= spec.drift_from) {
      drift = spec.drift * (++drifted);
      drift_of.emplace(instruction, drift);
    }
    debug_buffer->resize((debug_buffer->size() + 63) / 64 * 64);
    t.offset = static_cast<int64_t>(debug_buffer->size());
    t.nbytes = numel * element;
    debug_buffer->resize(debug_buffer->size() + static_cast<size_t>(t.nbytes));
    uint8_t* p = debug_buffer->data() + t.offset;
    if (type != kTypes.end()) {
      // Integers: (instruction + k mod 16) mod 100, one step more once drifting.
      const int64_t steps = drift != 0 ? 1 : 0;
      for (int64_t k = 0; k < numel; ++k) {
        const int64_t q = (instruction + k % 16) % 100 + steps;
        if (element == 1) p[k] = static_cast<uint8_t>(q);
        if (element == 4) std::memcpy(p + 4 * k, &q, 4);  // little-endian low half
        if (element == 8) std::memcpy(p + 8 * k, &q, 8);
      }
      d.value.tensors.push_back(std::move(t));
      run.debug_events.push_back(std::move(d));
      return;
    }
    for (int64_t k = 0; k < numel; ++k) {
      // Values a test can predict, exact in float32: instruction + (k mod 16) / 16 + drift.
      float x = static_cast<float>(static_cast<double>(instruction) +
                                   static_cast<double>(k % 16) / 16.0 + drift);
      if (instruction == spec.nan_at && !repeat && k < 2)
        x = k == 0 ? std::numeric_limits<float>::quiet_NaN()
                   : std::numeric_limits<float>::infinity();
      std::memcpy(p + 4 * k, &x, 4);
    }
    d.value.tensors.push_back(std::move(t));
    run.debug_events.push_back(std::move(d));
  };

  for (int r = 0; r < spec.runs; ++r) {
    ProfileRun run;
    run.name = "Execute";
    run.bundled_input_index = spec.bundled_input_index;
    drifted = 0;
    drift_of.clear();
    const uint64_t execute_start = clock += 100;
    for (const Node& node : graph->nodes) {
      if (node.provenance.instruction < 0) continue;
      const int32_t chain = node.provenance.chain;
      const auto instruction = static_cast<int32_t>(node.provenance.instruction);
      if (node.kind == NodeKind::kKernel) {
        const uint64_t start = clock += 10;
        const uint64_t inner_start = clock += rng.between(5, 20);
        const uint64_t inner_end = clock += rng.between(100, 10000);
        const uint64_t end = clock += rng.between(5, 20);
        run.profile_events.push_back({"native_call_" + bare_op(node.op),
                                      chain,
                                      instruction,
                                      -1,
                                      "",
                                      {},
                                      inner_start,
                                      inner_end});
        run.profile_events.push_back({"OPERATOR_CALL", chain, instruction, -1, "", {}, start, end});
        if (spec.debug_events && debug_buffer && !node.outputs.empty()) {
          const Value& out = graph->values[static_cast<size_t>(node.outputs.back().value)];
          DebugEvent d;
          d.name = node.op;
          d.chain = chain;
          d.instruction = instruction;
          log_tensor(run, std::move(d), sizes_of(out), instruction, false, out.tensor.dtype.str());
        }
      } else if (node.kind == NodeKind::kDelegate) {
        // The ids a real backend logs are its ops' own: XNNPACK and Vulkan log each op's debug
        // handle, string-id backends an op name. A payload we cannot see into gets 0..k-1.
        std::vector<int64_t> handles;
        std::vector<std::string> names;
        if (const Graph* payload = program.subgraph_of(node))
          for (const Node& op : payload->nodes) {
            if (op.kind != NodeKind::kKernel) continue;
            handles.insert(handles.end(), op.provenance.debug_handles.begin(),
                           op.provenance.debug_handles.end());
            names.push_back(op.name);
          }
        const uint64_t start = clock += 10;
        for (int k = 0; k < spec.delegate_events; ++k) {
          ProfileEvent inner;
          inner.chain = chain;
          inner.instruction = instruction;
          const auto i = static_cast<size_t>(k);
          if (spec.delegate_ids_as_strings)
            inner.delegate_debug_id_str = i < names.size() ? names[i] : fmt::format("op_{}", k);
          else
            inner.delegate_debug_id_int = i < handles.size() ? handles[i] : k;
          inner.name = fmt::format("{}_op_{}", node.op, k);
          inner.start = clock += 5;
          inner.end = clock += rng.between(1000, 20000);
          if (spec.debug_events && debug_buffer) {
            DebugEvent d;
            d.chain = chain;
            d.instruction = instruction;
            d.delegate_debug_id_int = inner.delegate_debug_id_int;
            d.delegate_debug_id_str = inner.delegate_debug_id_str;
            log_tensor(run, std::move(d), {1, 16}, instruction);
          }
          run.profile_events.push_back(std::move(inner));
        }
        const uint64_t end = clock += 10;
        run.profile_events.push_back({"DELEGATE_CALL", chain, instruction, -1, "", {}, start, end});
      }
    }
    if (spec.outputs && spec.debug_events && debug_buffer)
      for (ValueId v : graph->outputs) {
        const Value& out = graph->values[static_cast<size_t>(v)];
        if (out.kind != ValueKind::kTensor) continue;
        // An output has the values its producer logged; the runtime logs it after the last
        // instruction, under the instruction counter's last value.
        int32_t from = -1;
        if (out.producer != kNoId)
          from = static_cast<int32_t>(
              graph->nodes[static_cast<size_t>(out.producer)].provenance.instruction);
        DebugEvent d;
        d.chain = 0;
        d.instruction = last_instruction;
        d.value.is_output = true;
        log_tensor(run, std::move(d), sizes_of(out), from < 0 ? last_instruction : from, true,
                   out.tensor.dtype.str());
      }
    run.profile_events.push_back(
        {"Method::execute", -1, 0, -1, "", {}, execute_start, clock += 10});
    profile.runs.push_back(std::move(run));
  }
  return profile;
}

}  // namespace etviz::gen
