#include "program_builder.h"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <limits>
#include <map>

#include "bundled_program_generated.h"
#include "program_generated.h"

namespace etviz::gen {

namespace fb = etviz::pte;

namespace {
constexpr uint64_t kSegmentAlignment = 128;  // ExecuTorch's default segment alignment
constexpr uint64_t kTensorAlignment = 16;
constexpr uint32_t kExtendedHeaderLength = 32;

// The number a filled constant holds at `index`: a hash of its fqn and the index, in [-1, 1).
float fill_value(const std::string& fqn, uint64_t index) {
  uint64_t h = 1469598103934665603ull;  // FNV-1a, then a mix of the index
  for (char c : fqn) h = (h ^ static_cast<uint8_t>(c)) * 1099511628211ull;
  uint64_t x = h ^ (index * 0x9e3779b97f4a7c15ull);
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdull;
  x ^= x >> 33;
  return static_cast<float>(static_cast<double>(x >> 40) / static_cast<double>(1ull << 23) - 1.0);
}

// A filled constant's bytes: float32 numbers, or for other dtypes the low bytes of the hash.
std::vector<uint8_t> fill_bytes(const std::string& fqn, ScalarType dtype, uint64_t elements) {
  const auto size = static_cast<uint64_t>(element_size(dtype));
  std::vector<uint8_t> out(elements * size);
  for (uint64_t i = 0; i < elements; ++i) {
    const float f = fill_value(fqn, i);
    if (dtype == ScalarType::kFloat32) {
      std::memcpy(out.data() + i * 4, &f, 4);
    } else {
      const auto q = static_cast<uint64_t>(static_cast<int64_t>(f * 100.0f));
      std::memcpy(out.data() + i * size, &q, size);  // little endian: the low bytes
    }
  }
  return out;
}

uint64_t align_up(uint64_t v, uint64_t a) {
  return (v + a - 1) / a * a;
}

void put_u32(std::vector<uint8_t>& b, size_t at, uint32_t v) {
  std::memcpy(b.data() + at, &v, 4);
}
void put_u64(std::vector<uint8_t>& b, size_t at, uint64_t v) {
  std::memcpy(b.data() + at, &v, 8);
}

// A BundledProgram (BP08) around a program of `program_bytes` bytes, as its head: the bundle's
// tables and test data (one suite per method, one case of a float [1, N] input and output of
// `test_bytes` bytes each),
// then the program vector's length, its bytes to follow at `program_at` (16-aligned). The
// program vector comes last so that its bytes, written by the caller, may hold a hole: the
// bundle is built with an empty program vector and its root's field is pointed past it.
std::vector<uint8_t> bundle_head(const std::vector<std::string>& methods, uint64_t program_bytes,
                                 uint64_t test_bytes, uint64_t& program_at) {
  namespace bp = etviz::bundled;
  flatbuffers::FlatBufferBuilder b;
  std::vector<flatbuffers::Offset<bp::BundledMethodTestSuite>> suites;
  auto tensor = [&](uint8_t fill) {
    const uint64_t floats = std::max<uint64_t>(test_bytes / 4, 1);
    auto t = bp::CreateTensor(b, 6,
                              b.CreateVector(std::vector<int32_t>{1, static_cast<int32_t>(floats)}),
                              b.CreateVector(std::vector<uint8_t>(floats * 4, fill)),
                              b.CreateVector(std::vector<uint8_t>{0, 1}));
    return bp::CreateValue(b, bp::ValueUnion::Tensor, t.Union());
  };
  for (const std::string& name : methods) {
    auto test = bp::CreateBundledMethodTestCase(b, b.CreateVector(std::vector{tensor(1)}),
                                                b.CreateVector(std::vector{tensor(2)}));
    suites.push_back(bp::CreateBundledMethodTestSuite(b, b.CreateString(name),
                                                      b.CreateVector(std::vector{test})));
  }
  auto root = bp::CreateBundledProgram(b, 0, b.CreateVector(suites),
                                       b.CreateVector(std::vector<uint8_t>{}));
  b.Finish(root, "BP08");
  std::vector<uint8_t> head(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  // The root table's program field: root offset, then the table's vtable entry for it.
  uint32_t table;
  int32_t to_vtable;
  uint16_t field;
  std::memcpy(&table, head.data(), 4);
  std::memcpy(&to_vtable, head.data() + table, 4);
  std::memcpy(&field, head.data() + table - to_vtable + bp::BundledProgram::VT_PROGRAM, 2);
  const uint64_t vector = align_up(head.size() + 4, 16) - 4;
  put_u32(head, table + field, static_cast<uint32_t>(vector - (table + field)));
  head.resize(vector + 4, 0);
  put_u32(head, vector, static_cast<uint32_t>(program_bytes));
  program_at = vector + 4;
  return head;
}
}  // namespace

int64_t element_size(ScalarType t) {
  switch (t) {
    case ScalarType::kUInt8:
    case ScalarType::kInt8:
    case ScalarType::kBool:
      return 1;
    case ScalarType::kInt16:
    case ScalarType::kFloat16:
    case ScalarType::kBFloat16:
      return 2;
    case ScalarType::kInt32:
    case ScalarType::kFloat32:
      return 4;
    case ScalarType::kInt64:
    case ScalarType::kFloat64:
      return 8;
  }
  return 1;
}

ValueIndex MethodBuilder::push(Value v) {
  values_.push_back(std::move(v));
  return static_cast<ValueIndex>(values_.size() - 1);
}
ValueIndex MethodBuilder::tensor(ScalarType dtype, std::vector<int32_t> sizes) {
  Value v{Value::kTensor};
  v.dtype = dtype;
  v.sizes = std::move(sizes);
  return push(std::move(v));
}
ValueIndex MethodBuilder::tensor_at(ScalarType dtype, std::vector<int32_t> sizes, uint64_t offset) {
  const ValueIndex v = tensor(dtype, std::move(sizes));
  values_[static_cast<size_t>(v)].fixed_offset = static_cast<int64_t>(offset);
  return v;
}
ValueIndex MethodBuilder::constant(ScalarType dtype, std::vector<int32_t> sizes, std::string fqn) {
  Value v{Value::kConstant};
  v.dtype = dtype;
  v.sizes = std::move(sizes);
  v.fqn = std::move(fqn);
  return push(std::move(v));
}
ValueIndex MethodBuilder::integer(int64_t x) {
  Value v{Value::kInt};
  v.i = x;
  return push(std::move(v));
}
ValueIndex MethodBuilder::boolean(bool x) {
  Value v{Value::kBool};
  v.i = x;
  return push(std::move(v));
}
ValueIndex MethodBuilder::real(double x) {
  Value v{Value::kDouble};
  v.d = x;
  return push(std::move(v));
}
ValueIndex MethodBuilder::int_list(std::vector<int64_t> x) {
  Value v{Value::kIntList};
  v.list.reserve(x.size());
  for (int64_t item : x) v.list.push_back(integer(item));
  return push(std::move(v));
}
ValueIndex MethodBuilder::int_list_of(std::vector<int64_t> items) {
  Value v{Value::kIntList};
  v.list = std::move(items);
  return push(std::move(v));
}
ValueIndex MethodBuilder::view(ValueIndex base, std::vector<int32_t> sizes) {
  Value v{Value::kTensor};
  v.dtype = values_[static_cast<size_t>(base)].dtype;
  v.sizes = std::move(sizes);
  // A view of a view shares the first base's bytes.
  const ValueIndex root = values_[static_cast<size_t>(base)].alias_of;
  v.alias_of = root >= 0 ? root : base;
  return push(std::move(v));
}
ValueIndex MethodBuilder::none() {
  return push(Value{Value::kNull});
}

void MethodBuilder::kernel(const std::string& op, std::vector<ValueIndex> args) {
  int32_t index = -1;
  for (size_t i = 0; i < operators_.size(); ++i)
    if (operators_[i] == op) index = static_cast<int32_t>(i);
  if (index < 0) {
    operators_.push_back(op);
    index = static_cast<int32_t>(operators_.size() - 1);
  }
  instructions_.push_back({false, index, std::move(args)});
}

void MethodBuilder::delegate_call(int32_t delegate, std::vector<ValueIndex> args) {
  instructions_.push_back({true, delegate, std::move(args)});
}

int32_t MethodBuilder::add_delegate(std::string backend, std::vector<CompileSpecEntry> specs,
                                    std::vector<uint8_t> payload) {
  delegates_.push_back({std::move(backend), std::move(specs), std::move(payload)});
  return static_cast<int32_t>(delegates_.size() - 1);
}

namespace {

int64_t tensor_bytes(ScalarType dtype, const std::vector<int32_t>& sizes) {
  int64_t bytes = element_size(dtype);
  for (int32_t s : sizes) bytes *= s;
  return bytes;
}

}  // namespace

// Arena offsets of a method's activations (memory id 1); views take their base's. Without
// reuse, each activation gets bytes of its own in value order. With reuse, as a memory planner
// does: a tensor lives from its first mention to its last (inputs from the start, outputs to
// the end; a view's mentions are its base's), and takes the lowest offset no live tensor uses
// (first fit). `arena` is set to the bytes the plan needs.
std::vector<uint64_t> ProgramBuilder::plan_memory(const MethodBuilder& mb, bool reuse,
                                                  uint64_t& arena) {
  const size_t n = mb.values_.size();
  std::vector<uint64_t> at(n, 0);
  auto root = [&](size_t v) {
    const ValueIndex a = mb.values_[v].alias_of;
    return a >= 0 ? static_cast<size_t>(a) : v;
  };
  auto planned = [&](size_t v) {
    return mb.values_[v].kind == MethodBuilder::Value::kTensor && mb.values_[v].alias_of < 0 &&
           mb.values_[v].fixed_offset < 0;
  };
  arena = 0;
  if (!reuse) {
    for (size_t v = 0; v < n; ++v) {
      if (!planned(v)) continue;
      arena = align_up(arena, kTensorAlignment);
      at[v] = arena;
      arena += static_cast<uint64_t>(tensor_bytes(mb.values_[v].dtype, mb.values_[v].sizes));
    }
  } else {
    const int64_t end = static_cast<int64_t>(mb.instructions_.size());
    std::vector<int64_t> first(n, INT64_MAX), last(n, -1);
    auto mention = [&](size_t v, int64_t p) {
      const size_t r = root(v);
      first[r] = std::min(first[r], p);
      last[r] = std::max(last[r], p);
    };
    for (ValueIndex v : mb.inputs_) mention(static_cast<size_t>(v), 0);
    for (ValueIndex v : mb.outputs_) mention(static_cast<size_t>(v), end);
    for (size_t i = 0; i < mb.instructions_.size(); ++i)
      for (ValueIndex v : mb.instructions_[i].args)
        mention(static_cast<size_t>(v), static_cast<int64_t>(i));
    std::vector<size_t> order;
    for (size_t v = 0; v < n; ++v)
      if (planned(v) && last[v] >= 0) order.push_back(v);
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t a, size_t b) { return first[a] < first[b]; });
    struct Live {
      uint64_t offset, end;
      int64_t last;
    };
    std::vector<Live> live;  // sorted by offset
    for (size_t v : order) {
      std::erase_if(live, [&](const Live& l) { return l.last < first[v]; });
      const auto bytes =
          static_cast<uint64_t>(tensor_bytes(mb.values_[v].dtype, mb.values_[v].sizes));
      uint64_t offset = 0;
      size_t k = 0;
      for (; k < live.size(); ++k) {
        if (align_up(offset, kTensorAlignment) + bytes <= live[k].offset) break;
        offset = std::max(offset, live[k].end);
      }
      offset = align_up(offset, kTensorAlignment);
      at[v] = offset;
      live.insert(live.begin() + static_cast<long>(k), {offset, offset + bytes, last[v]});
      arena = std::max(arena, offset + bytes);
    }
  }
  for (size_t v = 0; v < n; ++v) {
    const auto& value = mb.values_[v];
    if (value.kind != MethodBuilder::Value::kTensor || value.fixed_offset < 0) continue;
    at[v] = static_cast<uint64_t>(value.fixed_offset);
    arena = std::max(arena, at[v] + static_cast<uint64_t>(tensor_bytes(value.dtype, value.sizes)));
  }
  for (size_t v = 0; v < n; ++v)
    if (mb.values_[v].kind == MethodBuilder::Value::kTensor && mb.values_[v].alias_of >= 0)
      at[v] = at[root(v)];
  return at;
}

MethodBuilder& ProgramBuilder::method(const std::string& name) {
  methods_.emplace_back(name);
  return methods_.back();
}

bool ProgramBuilder::write(const std::string& path, const WriteOptions& options,
                           std::string& error) const {
  // 1. Place constants in the constant segment (index 0 of its offsets is reserved).
  std::vector<uint64_t> constant_offsets = {0};
  std::vector<std::vector<uint32_t>> buffer_index(methods_.size());
  std::map<std::string, uint32_t> index_of_fqn;  // methods share weights, as exported programs do
  std::vector<const MethodBuilder::Value*> constant_values = {nullptr};  // per buffer index
  uint64_t constants_size = 0;
  for (size_t m = 0; m < methods_.size(); ++m) {
    buffer_index[m].assign(methods_[m].values_.size(), 0);
    for (size_t v = 0; v < methods_[m].values_.size(); ++v) {
      const auto& value = methods_[m].values_[v];
      if (value.kind != MethodBuilder::Value::kConstant) continue;
      if (auto it = index_of_fqn.find(value.fqn); it != index_of_fqn.end()) {
        buffer_index[m][v] = it->second;
        continue;
      }
      index_of_fqn[value.fqn] = static_cast<uint32_t>(constant_offsets.size());
      int64_t bytes = element_size(value.dtype);
      for (int32_t s : value.sizes) bytes *= s;
      constants_size = align_up(constants_size, kTensorAlignment);
      buffer_index[m][v] = static_cast<uint32_t>(constant_offsets.size());
      constant_offsets.push_back(constants_size);
      constant_values.push_back(&value);
      constants_size += static_cast<uint64_t>(bytes);
    }
  }
  constants_size = std::max(constants_size, options.min_constant_segment_bytes);

  // 2. Segments: constants, then each delegate payload, each aligned.
  struct Segment {
    uint64_t offset, size;
  };
  std::vector<Segment> segments = {{0, constants_size}};
  std::vector<std::vector<uint32_t>> payload_segment(methods_.size());
  uint64_t cursor = constants_size;
  for (size_t m = 0; m < methods_.size(); ++m)
    for (const auto& d : methods_[m].delegates_) {
      cursor = align_up(cursor, kSegmentAlignment);
      payload_segment[m].push_back(static_cast<uint32_t>(segments.size()));
      segments.push_back({cursor, d.payload.size()});
      cursor += d.payload.size();
    }
  const uint64_t segment_data_size = cursor;

  // Edits (WriteOptions): their targets in the first method.
  ValueIndex edit_int = -1, edit_2d = -1, edit_first_constant = -1;
  if (!methods_.empty()) {
    const MethodBuilder& mb = methods_[0];
    std::vector<bool> list_item(mb.values_.size(), false);
    for (const auto& value : mb.values_)
      for (int64_t item : value.list)
        if (item >= 0 && static_cast<size_t>(item) < list_item.size())
          list_item[static_cast<size_t>(item)] = true;
    for (const auto& ins : mb.instructions_)
      for (ValueIndex a : ins.args)
        if (edit_int < 0 && mb.values_[static_cast<size_t>(a)].kind == MethodBuilder::Value::kInt &&
            !list_item[static_cast<size_t>(a)])
          edit_int = a;
    for (size_t v = 0; v < mb.values_.size(); ++v) {
      const auto& value = mb.values_[v];
      if (value.kind != MethodBuilder::Value::kConstant) continue;
      if (edit_first_constant < 0) edit_first_constant = static_cast<ValueIndex>(v);
      if (edit_2d < 0 && value.sizes.size() == 2 && value.sizes[0] != value.sizes[1])
        edit_2d = static_cast<ValueIndex>(v);
    }
  }

  // 3. The program flatbuffer.
  flatbuffers::FlatBufferBuilder b(1 << 16);
  std::vector<flatbuffers::Offset<fb::ExecutionPlan>> plans;
  for (size_t m = 0; m < methods_.size(); ++m) {
    const MethodBuilder& mb = methods_[m];
    std::vector<flatbuffers::Offset<fb::EValue>> values;
    uint64_t arena = 0;
    const std::vector<uint64_t> placement = plan_memory(mb, options.reuse_memory, arena);
    for (size_t v = 0; v < mb.values_.size(); ++v) {
      const auto& value = mb.values_[v];
      switch (value.kind) {
        case MethodBuilder::Value::kTensor:
        case MethodBuilder::Value::kConstant: {
          const bool constant = value.kind == MethodBuilder::Value::kConstant;
          const bool edited = m == 0 && static_cast<ValueIndex>(v) == edit_2d;
          std::vector<int32_t> shape = value.sizes;
          if (edited && options.edit_sizes) std::swap(shape[0], shape[1]);
          auto sizes = b.CreateVector(shape);
          std::vector<uint8_t> order(value.sizes.size());
          for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<uint8_t>(i);
          if (edited && options.edit_dim_order) std::swap(order[0], order[1]);
          const int32_t storage_offset = m == 0 && options.edit_storage_offset &&
                                                 static_cast<ValueIndex>(v) == edit_first_constant
                                             ? 4
                                             : 0;
          auto dim_order = b.CreateVector(order);
          flatbuffers::Offset<fb::AllocationDetails> alloc;
          flatbuffers::Offset<fb::ExtraTensorInfo> extra;
          if (!constant) {
            const uint64_t at = placement[v];
            alloc = fb::CreateAllocationDetails(b, 1, static_cast<uint32_t>(at),
                                                static_cast<uint32_t>(at >> 32));
          } else {
            extra = fb::CreateExtraTensorInfo(b, 0, b.CreateString(value.fqn), 0);
          }
          auto t = fb::CreateTensor(b, static_cast<int8_t>(value.dtype), storage_offset, sizes,
                                    dim_order, false, constant ? buffer_index[m][v] : 0, alloc, 0,
                                    0, extra);
          values.push_back(fb::CreateEValue(b, fb::KernelTypes::Tensor, t.Union()));
          break;
        }
        case MethodBuilder::Value::kInt:
          values.push_back(fb::CreateEValue(
              b, fb::KernelTypes::Int,
              fb::CreateInt(b, value.i + (m == 0 && options.edit_scalar &&
                                                  static_cast<ValueIndex>(v) == edit_int
                                              ? 42
                                              : 0))
                  .Union()));
          break;
        case MethodBuilder::Value::kBool:
          values.push_back(
              fb::CreateEValue(b, fb::KernelTypes::Bool, fb::CreateBool(b, value.i != 0).Union()));
          break;
        case MethodBuilder::Value::kDouble:
          values.push_back(
              fb::CreateEValue(b, fb::KernelTypes::Double, fb::CreateDouble(b, value.d).Union()));
          break;
        case MethodBuilder::Value::kIntList:
          values.push_back(
              fb::CreateEValue(b, fb::KernelTypes::IntList,
                               fb::CreateIntList(b, b.CreateVector(value.list)).Union()));
          break;
        case MethodBuilder::Value::kNull:
          values.push_back(fb::CreateEValue(b, fb::KernelTypes::Null, fb::CreateNull(b).Union()));
          break;
      }
    }
    std::vector<flatbuffers::Offset<fb::Instruction>> instructions;
    for (const auto& ins : mb.instructions_) {
      auto args = b.CreateVector(ins.args);
      if (ins.is_delegate)
        instructions.push_back(
            fb::CreateInstruction(b, fb::InstructionArguments::DelegateCall,
                                  fb::CreateDelegateCall(b, ins.index, args).Union()));
      else
        instructions.push_back(
            fb::CreateInstruction(b, fb::InstructionArguments::KernelCall,
                                  fb::CreateKernelCall(b, ins.index, args).Union()));
    }
    auto chain = fb::CreateChain(b, b.CreateVector(mb.inputs_), b.CreateVector(mb.outputs_),
                                 b.CreateVector(instructions));
    std::vector<flatbuffers::Offset<fb::Operator>> ops;
    for (std::string op : mb.operators_) {
      if (const auto eq = options.swap_op.find('=');
          m == 0 && eq != std::string::npos && op == options.swap_op.substr(0, eq))
        op = options.swap_op.substr(eq + 1);
      const auto dot = op.find('.', op.rfind("::") == std::string::npos ? 0 : op.rfind("::"));
      const std::string name = dot == std::string::npos ? op : op.substr(0, dot);
      const std::string overload = dot == std::string::npos ? "" : op.substr(dot + 1);
      ops.push_back(fb::CreateOperator(b, b.CreateString(name), b.CreateString(overload)));
    }
    std::vector<flatbuffers::Offset<fb::BackendDelegate>> delegates;
    for (size_t d = 0; d < mb.delegates_.size(); ++d) {
      const auto& del = mb.delegates_[d];
      std::vector<flatbuffers::Offset<fb::CompileSpec>> specs;
      for (const auto& s : del.specs)
        specs.push_back(fb::CreateCompileSpec(
            b, b.CreateString(s.key),
            b.CreateVector(reinterpret_cast<const uint8_t*>(s.value.data()), s.value.size())));
      auto ref = fb::CreateBackendDelegateDataReference(b, 1, payload_segment[m][d]);
      delegates.push_back(
          fb::CreateBackendDelegate(b, b.CreateString(del.backend), ref, b.CreateVector(specs)));
    }
    std::vector<int64_t> buffer_sizes = {0,
                                         static_cast<int64_t>(align_up(arena, kTensorAlignment))};
    plans.push_back(fb::CreateExecutionPlan(
        b, b.CreateString(mb.name_), 0, b.CreateVector(values), b.CreateVector(mb.inputs_),
        b.CreateVector(mb.outputs_), b.CreateVector(std::vector{chain}), b.CreateVector(ops),
        b.CreateVector(delegates), b.CreateVector(buffer_sizes)));
  }
  std::vector<flatbuffers::Offset<fb::DataSegment>> segs;
  for (const Segment& s : segments) segs.push_back(fb::CreateDataSegment(b, s.offset, s.size));
  auto constant_segment = fb::CreateSubsegmentOffsets(b, 0, b.CreateVector(constant_offsets));
  auto root = fb::CreateProgram(b, options.version, b.CreateVector(plans), 0, 0,
                                b.CreateVector(segs), constant_segment);
  b.Finish(root, "ET12");

  // 4. Insert the extended header after the identifier. Offsets inside the buffer are
  // relative, so only the root offset (which jumps over the insertion) changes.
  std::vector<uint8_t> out(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
  std::vector<uint8_t> header(kExtendedHeaderLength, 0);
  std::memcpy(header.data(), "eh00", 4);
  put_u32(header, 4, kExtendedHeaderLength);
  out.insert(out.begin() + 8, header.begin(), header.end());
  uint32_t root_offset;
  std::memcpy(&root_offset, out.data(), 4);
  put_u32(out, 0, root_offset + kExtendedHeaderLength);
  const uint64_t program_size = out.size();
  const uint64_t segment_base = align_up(program_size, kSegmentAlignment);
  put_u64(out, 16, program_size);
  put_u64(out, 24, segment_base);
  put_u64(out, 32, segment_data_size);

  // 5. Write: the program, the payloads at their offsets, and a hole for the constants; in a
  // bundle, after the bundle's head (`base`).
  const uint64_t program_end = segment_base + segment_data_size;
  uint64_t base = 0;
  std::vector<uint8_t> head;
  if (options.bundled) {
    std::vector<std::string> names;
    for (const auto& m : methods_) names.push_back(m.name_);
    if (program_end > 0xffffffffu) {
      error = path + ": a bundled program holds programs under 4 GiB";
      return false;
    }
    head = bundle_head(names, program_end, options.bundle_test_bytes, base);
  }
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) {
    error = path + ": " + std::strerror(errno);
    return false;
  }
  bool ok = ::pwrite(fd, head.data(), head.size(), 0) == static_cast<ssize_t>(head.size());
  ok = ok && ::pwrite(fd, out.data(), out.size(), static_cast<off_t>(base)) ==
                 static_cast<ssize_t>(out.size());
  size_t s = 1;
  for (size_t m = 0; m < methods_.size() && ok; ++m)
    for (const auto& d : methods_[m].delegates_) {
      const uint64_t at = base + segment_base + segments[s++].offset;
      ok = ok && ::pwrite(fd, d.payload.data(), d.payload.size(), static_cast<off_t>(at)) ==
                     static_cast<ssize_t>(d.payload.size());
    }
  // Filled constants (their edits applied to the first ones); else the segment is a hole.
  int edits_left = options.edit_weights;
  bool nan_left = options.edit_nan;
  for (size_t k = 1; k < constant_values.size() && ok && options.fill_constants; ++k) {
    const MethodBuilder::Value& value = *constant_values[k];
    uint64_t elements = 1;
    for (int32_t d : value.sizes) elements *= static_cast<uint64_t>(d);
    std::vector<uint8_t> bytes = fill_bytes(value.fqn, value.dtype, elements);
    if (value.dtype == ScalarType::kFloat32 && edits_left > 0) {
      --edits_left;
      for (uint64_t i = 0; i < elements; i += 61) {
        float f;
        std::memcpy(&f, bytes.data() + i * 4, 4);
        f += 0.25f;
        std::memcpy(bytes.data() + i * 4, &f, 4);
      }
    }
    if (value.dtype == ScalarType::kFloat32 && nan_left && elements > 1) {
      nan_left = false;
      const float nan = std::numeric_limits<float>::quiet_NaN();
      std::memcpy(bytes.data() + 4, &nan, 4);
    }
    const uint64_t at = base + segment_base + constant_offsets[k];
    ok = ::pwrite(fd, bytes.data(), bytes.size(), static_cast<off_t>(at)) ==
         static_cast<ssize_t>(bytes.size());
  }
  ok = ok && ::ftruncate(fd, static_cast<off_t>(base + program_end)) == 0;
  ok = (::close(fd) == 0) && ok;
  if (!ok) error = path + ": write failed: " + std::strerror(errno);
  return ok;
}

}  // namespace etviz::gen
