#pragma once
// Builds valid ExecuTorch programs (.pte bytes) from a typed description: values, kernel and
// delegate calls, constants and payloads. The generator's model shapes use it, and tests use
// it to make programs the corpus lacks (hostile names, huge graphs, odd layouts).
#include <cstdint>
#include <string>
#include <vector>

namespace etviz::gen {

using ValueIndex = int32_t;

enum class ScalarType : int8_t {
  kUInt8 = 0,
  kInt8 = 1,
  kInt16 = 2,
  kInt32 = 3,
  kInt64 = 4,
  kFloat16 = 5,
  kFloat32 = 6,
  kFloat64 = 7,
  kBool = 11,
  kBFloat16 = 15,
};
int64_t element_size(ScalarType t);

struct CompileSpecEntry {
  std::string key;
  std::string value;
};

// One method (ExecutionPlan) under construction.
class MethodBuilder {
 public:
  explicit MethodBuilder(std::string name) : name_(std::move(name)) {}

  // An activation or input: memory-planned in memory id 1.
  ValueIndex tensor(ScalarType dtype, std::vector<int32_t> sizes);
  // An activation at an offset chosen by hand (tests: a plan whose live tensors overlap).
  ValueIndex tensor_at(ScalarType dtype, std::vector<int32_t> sizes, uint64_t offset);
  // A constant whose bytes go to the constant segment (zeros; the generator does not need data).
  ValueIndex constant(ScalarType dtype, std::vector<int32_t> sizes, std::string fqn);
  ValueIndex integer(int64_t v);
  ValueIndex boolean(bool v);
  ValueIndex real(double v);
  // An IntList as ExecuTorch writes it: one Int value per item, and the list's items name
  // those values (the runtime boxes &values[items[j]]).
  ValueIndex int_list(std::vector<int64_t> v);
  // An IntList of Int values already in the method (a size another kernel computes, as
  // aten::sym_size.int writes it), or of any indices at all, written as given (tests: lists
  // naming missing values, values of the wrong kind, themselves).
  ValueIndex int_list_of(std::vector<int64_t> items);
  ValueIndex none();
  // A view of `base` that memory planning folded away, as ExecuTorch's emitter elides a static,
  // planned view: a tensor of its own with `base`'s memory placement, written by no
  // instruction. Also the out of an executorch_prim::et_view.default call (a view the runtime
  // makes), which shares its input's storage likewise.
  ValueIndex view(ValueIndex base, std::vector<int32_t> sizes);

  void input(ValueIndex v) { inputs_.push_back(v); }
  void output(ValueIndex v) { outputs_.push_back(v); }
  // `op` is "namespace::name.overload"; args are inputs then outputs (out-variant convention).
  void kernel(const std::string& op, std::vector<ValueIndex> args);
  // A call into backend `delegate` (index returned by add_delegate).
  void delegate_call(int32_t delegate, std::vector<ValueIndex> args);
  int32_t add_delegate(std::string backend, std::vector<CompileSpecEntry> specs,
                       std::vector<uint8_t> payload);

 private:
  friend class ProgramBuilder;
  struct Value {
    enum Kind { kTensor, kConstant, kInt, kBool, kDouble, kIntList, kNull };
    explicit Value(Kind k) : kind(k) {}
    Kind kind;
    ScalarType dtype = ScalarType::kFloat32;
    std::vector<int32_t> sizes;
    std::string fqn;
    int64_t i = 0;
    double d = 0;
    std::vector<int64_t> list;
    ValueIndex alias_of = -1;   // a view: shares this tensor's memory
    int64_t fixed_offset = -1;  // placed by hand
  };
  struct Instruction {
    bool is_delegate = false;
    int32_t index = 0;  // operator or delegate index
    std::vector<ValueIndex> args;
  };
  struct Delegate {
    std::string backend;
    std::vector<CompileSpecEntry> specs;
    std::vector<uint8_t> payload;
  };
  ValueIndex push(Value v);

  std::string name_;
  std::vector<Value> values_;
  std::vector<ValueIndex> inputs_, outputs_;
  std::vector<std::string> operators_;
  std::vector<Instruction> instructions_;
  std::vector<Delegate> delegates_;
};

struct WriteOptions {
  // Pad the constant segment to at least this many bytes (simulates large weights; the
  // padding is written as a hole, so the file is sparse on disk).
  uint64_t min_constant_segment_bytes = 0;
  // Write a bundled program (.bpte, BP08): the program as the bundle's program vector, after
  // the bundle's tables and one test case per method.
  bool bundled = false;
  uint64_t bundle_test_bytes = 16;  // bytes of each test input and expected output
  // Plan activations as a memory planner does: a tensor's bytes are reused once it is dead
  // (greedy first fit, by each tensor's first and last mention; a view keeps its base alive).
  // Off: every activation gets bytes of its own.
  bool reuse_memory = false;

  // Constants' bytes: zeros written as a hole (default), or numbers derived from each
  // constant's fqn and element index (fill_constants), the same in every program that names
  // the constant, so that two programs differ only where an edit says (docs/diff.md).
  bool fill_constants = false;
  // Edits, for program pairs with known differences (`etviz diff` tests). Each is applied to
  // the first method.
  int edit_weights = 0;              // the first N filled constants: every 61st element + 0.25
  bool edit_nan = false;             // the first filled float constant's element 1 becomes NaN
  bool edit_scalar = false;          // the first Int argument of an instruction: + 42
  bool edit_sizes = false;           // the first 2-D constant's sizes swapped ([a, b] -> [b, a])
  bool edit_dim_order = false;       // the first 2-D constant's dim order [1, 0]
  bool edit_storage_offset = false;  // the first constant's storage offset 4
  std::string swap_op;               // "FROM=TO": operator FROM renamed TO
  uint32_t version = 0;              // Program.version
};

class ProgramBuilder {
 public:
  MethodBuilder& method(const std::string& name);
  // Writes the program with an extended header ("eh00", 32 bytes) and segments: constants
  // first, then one per delegate payload. Returns false with `error` set on I/O failure.
  bool write(const std::string& path, const WriteOptions& options, std::string& error) const;

 private:
  static std::vector<uint64_t> plan_memory(const MethodBuilder& mb, bool reuse, uint64_t& arena);
  std::vector<MethodBuilder> methods_;
};

}  // namespace etviz::gen
