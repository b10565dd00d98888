// Arguments as the runtime sees them: IntList items resolved through the values table, scalars
// an instruction writes shown as symbols, names from operator schemas, and lists that name
// missing values shown and warned about, never a crash (docs/formats.md, "Argument values").
// The facts about the tutorial CNN were read with flatc (tests/oracle checks every value of
// every corpus program the same way).
#include <gtest/gtest.h>

#include <filesystem>

#include "core/op_schema.h"
#include "corpus.h"
#include "program_builder.h"

namespace etviz::test {
namespace {

const std::string kTutorial =
    "bpte/pytorch__executorch__docs__source__tutorials_source__bundled_program.a59a06e0.bp";

const Node* nth_op(const Graph& g, const std::string& op, int nth = 0) {
  for (const Node& n : g.nodes)
    if (n.op == op && nth-- == 0) return &n;
  return nullptr;
}

// "name=value" for every non-tensor input of `n`, in order.
std::vector<std::string> literal_args(const Graph& g, const Node& n) {
  std::vector<std::string> out;
  for (const Argument& a : n.inputs) {
    const Value& v = g.values[static_cast<size_t>(a.value)];
    if (v.kind != ValueKind::kTensor) out.push_back(a.name.str() + "=" + value_text(v));
  }
  return out;
}

std::vector<std::string> arg_names(const std::vector<Argument>& args) {
  std::vector<std::string> out;
  for (const Argument& a : args) out.push_back(a.name.str());
  return out;
}

TEST(Values, TutorialConvolutionShowsResolvedNamedArguments) {
  Document doc = load(corpus(kTutorial));
  ASSERT_FALSE(doc.graphs.empty());
  const Graph& g = doc.graphs[0];
  const Node* conv = nth_op(g, "aten::convolution.out");
  ASSERT_NE(conv, nullptr);
  // flatc: stride v14 = IntList[12, 13] -> Int 1, Int 1; padding v17 -> [0, 0]; dilation v20.
  EXPECT_EQ(literal_args(g, *conv),
            (std::vector<std::string>{"stride=[1, 1]", "padding=[0, 0]", "dilation=[1, 1]",
                                      "transposed=False", "output_padding=[0, 0]", "groups=1"}));
  EXPECT_EQ(arg_names(conv->inputs),
            (std::vector<std::string>{"input", "weight", "bias", "stride", "padding", "dilation",
                                      "transposed", "output_padding", "groups"}));
  EXPECT_EQ(arg_names(conv->outputs), (std::vector<std::string>{"out"}));
  // The list links the Int values it boxes, which name the convolution as a reader.
  const Value& stride = g.values[static_cast<size_t>(conv->inputs[3].value)];
  EXPECT_EQ(conv->inputs[3].value, 14);
  EXPECT_EQ(std::vector<ValueId>(stride.elements.begin(), stride.elements.end()),
            (std::vector<ValueId>{12, 13}));
  const NodeId conv_id = static_cast<NodeId>(conv - g.nodes.data());
  EXPECT_EQ(g.values[12].consumers.front(), conv_id);
}

TEST(Values, TutorialPermuteAndPoolArguments) {
  Document doc = load(corpus(kTutorial));
  const Graph& g = doc.graphs[0];
  for (int k = 0; k < 3; ++k) {
    const Node* permute = nth_op(g, "aten::permute_copy.out", k);
    ASSERT_NE(permute, nullptr);
    EXPECT_EQ(literal_args(g, *permute), (std::vector<std::string>{"dims=[1, 0]"}));
  }
  const Node* pool = nth_op(g, "aten::max_pool2d_with_indices.out");
  ASSERT_NE(pool, nullptr);
  EXPECT_EQ(literal_args(g, *pool),
            (std::vector<std::string>{"kernel_size=[2, 2]", "stride=[]", "padding=[0, 0]",
                                      "dilation=[1, 1]", "ceil_mode=False"}));
  EXPECT_EQ(arg_names(pool->outputs), (std::vector<std::string>{"out", "indices"}));
  const Node* addmm = nth_op(g, "aten::addmm.out");
  ASSERT_NE(addmm, nullptr);
  EXPECT_EQ(literal_args(g, *addmm), (std::vector<std::string>{"beta=1", "alpha=1"}));
}

TEST(Values, NoValueTableIndexIsShownAsAnIntegerAnywhereInTheCorpus) {
  // Every IntList of every corpus program resolves through the table: its literal lists the
  // Int values its members hold (or their names, for run-time sizes), never the indices.
  int lists = 0;
  for (const char* folder : {"pte", "bpte"})
    for (const std::string& path : corpus_files(folder)) {
      auto doc = open_document(path);
      if (!doc) continue;  // the pre-release ET02 program
      for (const Graph& g : doc->graphs) {
        if (g.kind != GraphKind::kMethod) continue;
        for (const Value& v : g.values) {
          if (v.kind != ValueKind::kIntList) continue;
          ++lists;
          std::string expected = "[";
          for (size_t j = 0; j < v.elements.size(); ++j) {
            const Value& m = g.values[static_cast<size_t>(v.elements[j])];
            expected += (j ? ", " : "") + value_text(m);
          }
          if (v.elements.size() <= 32) {
            EXPECT_EQ(v.literal.str(), expected + "]") << path;
          }
        }
      }
    }
  EXPECT_GE(lists, 160);  // 161 IntLists in the corpus (2026-11-28)
}

std::string write_program(gen::ProgramBuilder& b, const std::string& name) {
  const std::string path = scratch_dir("values") + "/" + name;
  std::string error;
  EXPECT_TRUE(b.write(path, {}, error)) << error;
  return path;
}

TEST(Values, SymbolicSizesAreShownByName) {
  // x [2, 8] -> sym_size.int(x, 1) -> s; view_copy(x, [s, 2]) reads the size the program
  // computes: the file holds a placeholder 0 for s, which must not be shown as a size.
  gen::ProgramBuilder b;
  auto& m = b.method("forward");
  const auto x = m.tensor(gen::ScalarType::kFloat32, {2, 8});
  m.input(x);
  const auto dim = m.integer(1);
  const auto s = m.integer(0);
  m.kernel("aten::sym_size.int", {x, dim, s});
  const auto two = m.integer(2);
  const auto size = m.int_list_of({s, two});
  const auto y = m.tensor(gen::ScalarType::kFloat32, {8, 2});
  m.kernel("aten::view_copy.out", {x, size, y});
  m.output(y);
  Document doc = load(write_program(b, "symbolic.pte"));
  ASSERT_FALSE(doc.graphs.empty());
  const Graph& g = doc.graphs[0];
  EXPECT_EQ(g.values[static_cast<size_t>(s)].kind, ValueKind::kSymInt);
  EXPECT_EQ(g.values[static_cast<size_t>(s)].literal.str(), "");
  EXPECT_EQ(g.values[static_cast<size_t>(size)].literal.str(), "[v" + std::to_string(s) + ", 2]");
  const Node* view = nth_op(g, "aten::view_copy.out");
  ASSERT_NE(view, nullptr);
  EXPECT_EQ(literal_args(g, *view),
            (std::vector<std::string>{"size=[v" + std::to_string(s) + ", 2]"}));
  const Node* sym = nth_op(g, "aten::sym_size.int");
  ASSERT_NE(sym, nullptr);
  EXPECT_EQ(arg_names(sym->inputs), (std::vector<std::string>{"self", "dim"}));
  ASSERT_EQ(sym->outputs.size(), 1u);
  EXPECT_EQ(sym->outputs[0].value, s);
  // The size flows from sym_size to the view through the list: a consumer, as in .pt2.
  const auto& readers = g.values[static_cast<size_t>(s)].consumers;
  EXPECT_EQ(readers.size(), 1u);
  EXPECT_EQ(&g.nodes[static_cast<size_t>(readers.front())], view);
}

TEST(Values, ListsNamingMissingOrWrongValuesAreMarkedAndWarned) {
  gen::ProgramBuilder b;
  auto& m = b.method("forward");
  const auto x = m.tensor(gen::ScalarType::kFloat32, {4});
  m.input(x);
  const auto one = m.integer(1);
  // Items: a good Int, a missing value, the tensor x, and the list itself (value 2).
  const auto list = m.int_list_of({one, 999, x, 2});
  ASSERT_EQ(list, 2);
  const auto y = m.tensor(gen::ScalarType::kFloat32, {4});
  m.kernel("aten::permute_copy.out", {x, list, y});
  m.output(y);
  Document doc = load(write_program(b, "bad_lists.pte"));
  ASSERT_FALSE(doc.graphs.empty());
  const Graph& g = doc.graphs[0];
  EXPECT_EQ(g.values[2].literal.str(),
            "[1, <invalid value index 999>, <invalid value index 0>, <invalid value index 2>]");
  EXPECT_EQ(std::vector<ValueId>(g.values[2].elements.begin(), g.values[2].elements.end()),
            (std::vector<ValueId>{one}));
  std::vector<std::string> warnings;
  for (const Diagnostic& d : doc.diagnostics)
    if (d.severity == Severity::kWarning) warnings.push_back(d.message);
  ASSERT_EQ(warnings.size(), 3u);
  for (const std::string& w : warnings) {
    EXPECT_NE(w.find("method 'forward' chain 0 instruction 0 (aten::permute_copy.out)"),
              std::string::npos)
        << w;
    EXPECT_NE(w.find("list v2"), std::string::npos) << w;
  }
  EXPECT_NE(warnings[0].find("item 999 is outside the values table"), std::string::npos);
  EXPECT_NE(warnings[1].find("item 0 is a tensor, not an int"), std::string::npos);
  EXPECT_NE(warnings[2].find("item 2 names the list itself"), std::string::npos);
}

TEST(Values, CallsThatDoNotFitTheirSchemaKeepPositionsAndAreNoted) {
  gen::ProgramBuilder b;
  auto& m = b.method("forward");
  const auto x = m.tensor(gen::ScalarType::kFloat32, {4});
  m.input(x);
  const auto y = m.tensor(gen::ScalarType::kFloat32, {4});
  // aten::relu.out(Tensor self, *, Tensor(a!) out): two arguments (three with the return).
  m.kernel("aten::relu.out", {x, m.integer(7), m.integer(8), m.integer(9), y});
  m.output(y);
  Document doc = load(write_program(b, "mismatch.pte"));
  ASSERT_FALSE(doc.graphs.empty());
  const Node* relu = nth_op(doc.graphs[0], "aten::relu.out");
  ASSERT_NE(relu, nullptr);
  for (const Argument& a : relu->inputs) EXPECT_EQ(a.name.str(), "");
  int notes = 0;
  for (const Diagnostic& d : doc.diagnostics)
    if (d.severity == Severity::kInfo && d.message.find("aten::relu.out is called with 5 "
                                                        "arguments") != std::string::npos)
      ++notes;
  EXPECT_EQ(notes, 1);
}

TEST(OpSchema, EveryTableEntryParses) {
  // A schema the parser refused would be silently missing: the count is the table's.
  EXPECT_GT(op_schema_count(), 3000u);
  EXPECT_NE(find_op_schema("aten::add", "out"), nullptr);
  EXPECT_NE(find_op_schema("executorch_prim::et_view", "default"), nullptr);
  EXPECT_NE(find_op_schema("quantized_decomposed::quantize_per_tensor", "out"), nullptr);
  EXPECT_NE(find_op_schema("cortex_m::quantized_conv2d", "out"), nullptr);
  EXPECT_NE(find_op_schema("dim_order_ops::_to_dim_order_copy", "out"), nullptr);
  EXPECT_NE(find_op_schema("llama::sdpa_with_kv_cache", "out"), nullptr);
  EXPECT_EQ(find_op_schema("etnp::lstm", "out"), nullptr);
  // torch names no overload where ExecuTorch programs say "default".
  EXPECT_EQ(find_op_schema("aten::linear", "default"), find_op_schema("aten::linear", ""));
}

TEST(OpSchema, ParsesTorchSyntax) {
  auto s = parse_op_schema(
      "aten::max_pool2d_with_indices.out(Tensor self, int[2] kernel_size, int[2] stride=[], "
      "int[2] padding=0, int[2] dilation=1, bool ceil_mode=False, *, Tensor(a!) out, Tensor(b!) "
      "indices) -> (Tensor(a!), Tensor(b!))");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->name, "aten::max_pool2d_with_indices.out");
  ASSERT_EQ(s->arguments.size(), 8u);
  EXPECT_EQ(s->arguments[2].name, "stride");
  EXPECT_EQ(s->arguments[2].type, "int[2]");
  EXPECT_EQ(s->arguments[2].default_value, "[]");
  EXPECT_FALSE(s->arguments[5].keyword_only);
  EXPECT_TRUE(s->arguments[6].is_out());
  EXPECT_TRUE(s->arguments[7].is_out());
  EXPECT_EQ(s->returns.size(), 2u);

  s = parse_op_schema(
      "aten::fft_ifft2.out(Tensor self, SymInt[1]? s=None, int[1] dim=[-2,-1], str? norm=None, *, "
      "Tensor(a!) out) -> Tensor(a!)");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->arguments[2].default_value, "[-2,-1]");
  EXPECT_EQ(s->arguments[3].name, "norm");

  s = parse_op_schema(
      "aten::pad(Tensor self, SymInt[] pad, str mode=\"constant\", float? "
      "value=None) -> Tensor");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->arguments[2].default_value, "\"constant\"");

  s = parse_op_schema(
      "aten::max.dim(Tensor self, int dim, bool keepdim=False) -> (Tensor values, Tensor indices)");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->returns[0].name, "values");
  EXPECT_EQ(s->returns[1].name, "indices");

  s = parse_op_schema("executorch_prim::et_view.default(Tensor, int[]) -> Tensor");
  ASSERT_TRUE(s);
  EXPECT_EQ(s->arguments[1].name, "");
  EXPECT_EQ(s->arguments[1].type, "int[]");

  EXPECT_FALSE(parse_op_schema("not a schema"));
  EXPECT_FALSE(parse_op_schema("aten::f(Tensor self"));
  EXPECT_FALSE(parse_op_schema("aten::f(Tensor self) Tensor"));
}

TEST(OpSchema, AliasAnnotationsSayWhichReturnsShareStorage) {
  const OpSchema* view = find_op_schema("aten::view", "");
  ASSERT_NE(view, nullptr);
  EXPECT_TRUE(returns_alias_of(*view, 0, 0));
  EXPECT_FALSE(returns_alias_of(*view, 0, 1));
  const OpSchema* add = find_op_schema("aten::add", "out");
  ASSERT_NE(add, nullptr);
  EXPECT_FALSE(returns_alias_of(*add, 0, 0));  // self
  EXPECT_TRUE(returns_alias_of(*add, 0, 3));   // out
  EXPECT_TRUE(is_view_op("executorch_prim::et_view.default"));
  EXPECT_FALSE(is_view_op("aten::view_copy.out"));
}

}  // namespace
}  // namespace etviz::test
