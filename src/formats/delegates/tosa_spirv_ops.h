#pragma once
// The TOSA 1.0 extended instruction set for SPIR-V ("TOSA.001000.1"): instruction number ->
// op name and operand names, in the grammar's order (KhronosGroup/SPIRV-Headers
// extinst.tosa.001000.1.grammar.json). Names are the MLIR spirv.Tosa spellings Arm's Model
// Explorer adapter shows ("Conv2D", "Rescale"), so the two views can be compared.
#include <cstddef>
#include <string_view>

namespace etviz::delegates {

struct TosaOp {
  std::string_view name;
  std::string_view operands;  // space-separated; a trailing '*' marks a variadic last operand
};

inline constexpr TosaOp kTosaOps[] = {
    {"ArgMax", "axis nan_mode input"},
    {"AvgPool2D", "kernel stride pad acc_type input input_zp output_zp"},
    {"Conv2D", "pad stride dilation acc_type local_bound input weight bias input_zp weight_zp"},
    {"Conv3D", "pad stride dilation acc_type local_bound input weight bias input_zp weight_zp"},
    {"DepthwiseConv2D",
     "pad stride dilation acc_type local_bound input weight bias input_zp weight_zp"},
    {"FFT2D", "inverse local_bound input_real input_imag"},
    {"MatMul", "A B A_zp B_zp"},
    {"MaxPool2D", "kernel stride pad nan_mode input"},
    {"RFFT2D", "local_bound input_real"},
    {"TransposeConv2D", "out_pad stride acc_type local_bound input weight bias input_zp weight_zp"},
    {"Clamp", "min_val max_val nan_mode input"},
    {"Erf", "input"},
    {"Sigmoid", "input"},
    {"Tanh", "input"},
    {"Add", "input1 input2"},
    {"ArithmeticRightShift", "round input1 input2"},
    {"BitwiseAnd", "input1 input2"},
    {"BitwiseOr", "input1 input2"},
    {"BitwiseXor", "input1 input2"},
    {"IntDiv", "input1 input2"},
    {"LogicalAnd", "input1 input2"},
    {"LogicalLeftShift", "input1 input2"},
    {"LogicalRightShift", "input1 input2"},
    {"LogicalOr", "input1 input2"},
    {"LogicalXor", "input1 input2"},
    {"Maximum", "nan_mode input1 input2"},
    {"Minimum", "nan_mode input1 input2"},
    {"Mul", "input1 input2 shift"},
    {"Pow", "input1 input2"},
    {"Sub", "input1 input2"},
    {"Table", "input1 table"},
    {"Abs", "input1"},
    {"BitwiseNot", "input1"},
    {"Ceil", "input1"},
    {"Clz", "input1"},
    {"Cos", "input1"},
    {"Exp", "input1"},
    {"Floor", "input1"},
    {"Log", "input1"},
    {"LogicalNot", "input1"},
    {"Negate", "input1 input1_zp output_zp"},
    {"Reciprocal", "input1"},
    {"Rsqrt", "input1"},
    {"Sin", "input1"},
    {"Select", "input1 input2 input3"},
    {"Equal", "input1 input2"},
    {"Greater", "input1 input2"},
    {"GreaterEqual", "input1 input2"},
    {"ReduceAll", "axis input"},
    {"ReduceAny", "axis input"},
    {"ReduceMax", "axis nan_mode input"},
    {"ReduceMin", "axis nan_mode input"},
    {"ReduceProduct", "axis input"},
    {"ReduceSum", "axis input"},
    {"Concat", "axis input1*"},
    {"Pad", "input1 padding pad_const"},
    {"Reshape", "input1 shape"},
    {"Reverse", "axis input1"},
    {"Slice", "input1 start size"},
    {"Tile", "input1 multiples"},
    {"Transpose", "perms input1"},
    {"Gather", "values indices"},
    {"Scatter", "values_in indices input"},
    {"Resize", "mode input scale offset border"},
    {"Cast", "input"},
    {"Rescale",
     "scale32 rounding_mode per_channel input_unsigned output_unsigned input multiplier shift "
     "input_zp output_zp"},
};
inline constexpr size_t kTosaOpCount = sizeof(kTosaOps) / sizeof(kTosaOps[0]);
static_assert(kTosaOpCount == 66, "TOSA.001000.1 has instructions 0..65");

}  // namespace etviz::delegates
