#pragma once
// The TOSA operators as etviz names them, shared by the two readers of Arm's TOSA graphs: the
// TOSA flatbuffer (formats/tosa/tosa_reader.cpp: .tosa side files, TOSABackend payloads) and
// the SPIR-V graphs of VGF payloads (formats/delegates/vgf_decoder.cpp), so a model compiled
// for Ethos-U and for VGF reads alike: same op names, same argument and attribute names in the
// same order, same enum spellings.
//
// Indexed by the flatbuffer's operator number. Numbers 1..66 are the operators the SPIR-V
// instruction set "TOSA.001000.1" numbers 0..65 (KhronosGroup/SPIRV-Headers
// extinst.tosa.001000.1.grammar.json), in the same order, so one table serves both. Names are
// the MLIR spirv.Tosa spellings Arm's Model Explorer adapter shows ("Conv2D", "Rescale"); the
// operators the instruction set lacks are spelled the same way ("Const", "CondIf").
#include <cstddef>
#include <cstdint>
#include <string_view>

namespace etviz::tosa {

struct OpInfo {
  std::string_view name;  // "Conv2D"
  std::string_view spec;  // the specification's name, "CONV2D"
  // The operator's arguments in the specification's order, space-separated: the first
  // `attributes` are attributes (the SPIR-V operands that must be constants; the
  // flatbuffer's attribute table), the rest are inputs. A trailing '*' marks a list that
  // takes every remaining input. Empty where the arguments are not named here (TOSA 1.1's
  // additions): inputs are then shown unnamed, attributes by their table's field names.
  std::string_view arguments;
  uint8_t attributes = 0;
};

inline constexpr OpInfo kOps[] = {
    {"Unknown", "UNKNOWN", "", 0},
    {"ArgMax", "ARGMAX", "axis nan_mode input", 2},
    {"AvgPool2D", "AVG_POOL2D", "kernel stride pad acc_type input input_zp output_zp", 4},
    {"Conv2D", "CONV2D",
     "pad stride dilation acc_type local_bound input weight bias input_zp weight_zp", 5},
    {"Conv3D", "CONV3D",
     "pad stride dilation acc_type local_bound input weight bias input_zp weight_zp", 5},
    {"DepthwiseConv2D", "DEPTHWISE_CONV2D",
     "pad stride dilation acc_type local_bound input weight bias input_zp weight_zp", 5},
    {"FFT2D", "FFT2D", "inverse local_bound input_real input_imag", 2},
    {"MatMul", "MATMUL", "A B A_zp B_zp", 0},
    {"MaxPool2D", "MAX_POOL2D", "kernel stride pad nan_mode input", 4},
    {"RFFT2D", "RFFT2D", "local_bound input_real", 1},
    {"TransposeConv2D", "TRANSPOSE_CONV2D",
     "out_pad stride acc_type local_bound input weight bias input_zp weight_zp", 4},
    {"Clamp", "CLAMP", "min_val max_val nan_mode input", 3},
    {"Erf", "ERF", "input", 0},
    {"Sigmoid", "SIGMOID", "input", 0},
    {"Tanh", "TANH", "input", 0},
    {"Add", "ADD", "input1 input2", 0},
    {"ArithmeticRightShift", "ARITHMETIC_RIGHT_SHIFT", "round input1 input2", 1},
    {"BitwiseAnd", "BITWISE_AND", "input1 input2", 0},
    {"BitwiseOr", "BITWISE_OR", "input1 input2", 0},
    {"BitwiseXor", "BITWISE_XOR", "input1 input2", 0},
    {"IntDiv", "INTDIV", "input1 input2", 0},
    {"LogicalAnd", "LOGICAL_AND", "input1 input2", 0},
    {"LogicalLeftShift", "LOGICAL_LEFT_SHIFT", "input1 input2", 0},
    {"LogicalRightShift", "LOGICAL_RIGHT_SHIFT", "input1 input2", 0},
    {"LogicalOr", "LOGICAL_OR", "input1 input2", 0},
    {"LogicalXor", "LOGICAL_XOR", "input1 input2", 0},
    {"Maximum", "MAXIMUM", "nan_mode input1 input2", 1},
    {"Minimum", "MINIMUM", "nan_mode input1 input2", 1},
    {"Mul", "MUL", "input1 input2 shift", 0},
    {"Pow", "POW", "input1 input2", 0},
    {"Sub", "SUB", "input1 input2", 0},
    {"Table", "TABLE", "input1 table", 0},
    {"Abs", "ABS", "input1", 0},
    {"BitwiseNot", "BITWISE_NOT", "input1", 0},
    {"Ceil", "CEIL", "input1", 0},
    {"Clz", "CLZ", "input1", 0},
    {"Cos", "COS", "input1", 0},
    {"Exp", "EXP", "input1", 0},
    {"Floor", "FLOOR", "input1", 0},
    {"Log", "LOG", "input1", 0},
    {"LogicalNot", "LOGICAL_NOT", "input1", 0},
    {"Negate", "NEGATE", "input1 input1_zp output_zp", 0},
    {"Reciprocal", "RECIPROCAL", "input1", 0},
    {"Rsqrt", "RSQRT", "input1", 0},
    {"Sin", "SIN", "input1", 0},
    {"Select", "SELECT", "input1 input2 input3", 0},
    {"Equal", "EQUAL", "input1 input2", 0},
    {"Greater", "GREATER", "input1 input2", 0},
    {"GreaterEqual", "GREATER_EQUAL", "input1 input2", 0},
    {"ReduceAll", "REDUCE_ALL", "axis input", 1},
    {"ReduceAny", "REDUCE_ANY", "axis input", 1},
    {"ReduceMax", "REDUCE_MAX", "axis nan_mode input", 2},
    {"ReduceMin", "REDUCE_MIN", "axis nan_mode input", 2},
    {"ReduceProduct", "REDUCE_PRODUCT", "axis input", 1},
    {"ReduceSum", "REDUCE_SUM", "axis input", 1},
    {"Concat", "CONCAT", "axis input1*", 1},
    {"Pad", "PAD", "input1 padding pad_const", 0},
    {"Reshape", "RESHAPE", "input1 shape", 0},
    {"Reverse", "REVERSE", "axis input1", 1},
    {"Slice", "SLICE", "input1 start size", 0},
    {"Tile", "TILE", "input1 multiples", 0},
    {"Transpose", "TRANSPOSE", "perms input1", 1},
    {"Gather", "GATHER", "values indices", 0},
    {"Scatter", "SCATTER", "values_in indices input", 0},
    {"Resize", "RESIZE", "mode input scale offset border", 1},
    {"Cast", "CAST", "input", 0},
    {"Rescale", "RESCALE",
     "scale32 rounding_mode per_channel input_unsigned output_unsigned input multiplier shift "
     "input_zp output_zp",
     5},
    // Graph-level operators (no SPIR-V instruction).
    {"Const", "CONST", "", 0},
    {"Identity", "IDENTITY", "input1", 0},
    {"Custom", "CUSTOM", "input_list*", 0},
    {"CondIf", "COND_IF", "condition input_list*", 0},
    {"WhileLoop", "WHILE_LOOP", "input_list*", 0},
    {"Variable", "VARIABLE", "", 0},
    {"VariableWrite", "VARIABLE_WRITE", "input1", 0},
    {"VariableRead", "VARIABLE_READ", "", 0},
    {"ConstShape", "CONST_SHAPE", "", 0},
    // TOSA 1.1.
    {"MatMulTBlockScaled", "MATMUL_T_BLOCK_SCALED", "", 0},
    {"CastFromBlockScaled", "CAST_FROM_BLOCK_SCALED", "", 0},
    {"CastToBlockScaled", "CAST_TO_BLOCK_SCALED", "", 0},
    {"Dim", "DIM", "", 0},
    {"ConcatShape", "CONCAT_SHAPE", "", 0},
    {"AddShape", "ADD_SHAPE", "", 0},
    {"SubShape", "SUB_SHAPE", "", 0},
    {"MulShape", "MUL_SHAPE", "", 0},
    {"SliceShape", "SLICE_SHAPE", "", 0},
    {"Exp2Shape", "EXP2_SHAPE", "", 0},
    {"Log2CeilShape", "LOG2_CEIL_SHAPE", "", 0},
    {"Log2FloorShape", "LOG2_FLOOR_SHAPE", "", 0},
    {"MaxShape", "MAX_SHAPE", "", 0},
    {"MinShape", "MIN_SHAPE", "", 0},
    {"ModShape", "MOD_SHAPE", "", 0},
    {"DivCeilShape", "DIV_CEIL_SHAPE", "", 0},
    {"DivFloorShape", "DIV_FLOOR_SHAPE", "", 0},
    {"AssertEqualShape", "ASSERT_EQUAL_SHAPE", "", 0},
    {"Conv2DBlockScaled", "CONV2D_BLOCK_SCALED", "", 0},
    {"MaxPool2DAdaptive", "MAX_POOL2D_ADAPTIVE", "", 0},
    {"AvgPool2DAdaptive", "AVG_POOL2D_ADAPTIVE", "", 0},
};
inline constexpr size_t kOpCount = sizeof(kOps) / sizeof(kOps[0]);
static_assert(kOpCount == 97, "TOSA 1.1 numbers its operators 0..96");

// The flatbuffer numbers of operators the readers treat specially.
inline constexpr uint32_t kOpConst = 67;
inline constexpr uint32_t kOpCondIf = 70;
inline constexpr uint32_t kOpWhileLoop = 71;
inline constexpr uint32_t kOpConstShape = 75;

// The SPIR-V instruction set numbers the first 66 operators from 0.
inline constexpr uint32_t kSpirvOpCount = 66;
inline constexpr const OpInfo* spirv_op(uint32_t instruction) {
  return instruction < kSpirvOpCount ? &kOps[instruction + 1] : nullptr;
}

// Calls `f(name, is_list)` for each argument name of `op`, in order.
template <typename F>
void for_each_argument(const OpInfo& op, F&& f) {
  std::string_view rest = op.arguments;
  while (!rest.empty()) {
    const size_t sp = rest.find(' ');
    std::string_view name = rest.substr(0, sp);
    const bool list = !name.empty() && name.back() == '*';
    if (list) name.remove_suffix(1);
    f(name, list);
    rest = sp == std::string_view::npos ? std::string_view{} : rest.substr(sp + 1);
  }
}

// Enumerations the attributes use, as the specification spells them. The SPIR-V operands
// carry the specification's values (acc_type_t: INT32 1, FP16 2, FP32 3, INT48 4); the
// flatbuffer's acc_type is an element type (DType) and the other three share these values.
inline std::string_view acc_type_name(uint32_t v) {
  switch (v) {
    case 1:
      return "INT32";
    case 2:
      return "FP16";
    case 3:
      return "FP32";
    case 4:
      return "INT48";
  }
  return {};
}
inline std::string_view nan_mode_name(uint32_t v) {
  return v == 1 ? "PROPAGATE" : v == 2 ? "IGNORE" : std::string_view{};
}
inline std::string_view rounding_mode_name(uint32_t v) {
  return v == 1   ? "SINGLE_ROUND"
         : v == 2 ? "INEXACT_ROUND"
         : v == 3 ? "DOUBLE_ROUND"
                  : std::string_view{};
}
inline std::string_view resize_mode_name(uint32_t v) {
  return v == 1 ? "NEAREST_NEIGHBOR" : v == 2 ? "BILINEAR" : std::string_view{};
}

}  // namespace etviz::tosa
