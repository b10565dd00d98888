// What a group holds (ViewGroup::ops and its constants, the group panel's figures) on generated
// models whose weights and ops are known from their spec, and on a hand-made graph where one
// tensor is read twice and through two values.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "analysis/categories.h"
#include "analysis/qdq_clusters.h"
#include "export_model.h"
#include "export_writer.h"
#include "generated_program.h"
#include "program_builder.h"
#include "test_support.h"
#include "view/view_model.h"

namespace etviz {
namespace {

using view::build_view_model;
using view::ViewGroup;
using view::ViewModel;

ViewModel view_of(const Document& doc) {
  return build_view_model(doc, 0, analysis::default_category_config());
}

const ViewGroup* find_group(const ViewModel& m, GroupKind kind, const std::string& name = "") {
  for (const ViewGroup& g : m.groups)
    if (g.kind == kind && (name.empty() || g.name == name)) return &g;
  return nullptr;
}

// Op counts by base name ("linear"), summed over overloads.
std::map<std::string, int> by_base(const ViewGroup& g) {
  std::map<std::string, int> out;
  for (const auto& [op, n] : g.ops) out[analysis::op_base_name(op)] += n;
  return out;
}

int total_ops(const ViewGroup& g) {
  int n = 0;
  for (const auto& [op, count] : g.ops) n += count;
  return n;
}

Document exported(int blocks) {
  gen::ExportModelSpec spec;
  spec.blocks = blocks;  // dim 64, hidden 128
  const std::string path =
      test::scratch_dir("structure") + "/contents_" + std::to_string(blocks) + ".pt2";
  EXPECT_EQ(gen::write_pt2(path, {{"model", gen::build_export_transformer(spec)}}, true), "");
  return test::load(path);
}

// One generated block (tools/gen/export_model.cpp, dim 64, hidden 128): attention wq, wk, wv,
// wo (64x64), two RMSNorm weights (64), feed-forward w1, w3 (128x64) and w2 (64x128), all
// float32; 32 ops: 7 linear, 5 mul, 4 view, 4 transpose, 2 each of add (Tensor and Scalar),
// pow, mean, rsqrt, one scaled_dot_product_attention and one silu.
constexpr int64_t kBlockParameters = 4 * 64 * 64 + 2 * 64 + 3 * 128 * 64;  // 41,088
constexpr int64_t kBlockTensors = 9;
constexpr int kBlockOps = 32;

TEST(GroupContents, ModuleInstancesAndTheirRepeatBoxCountTheirWeightsAndOps) {
  const Document doc = exported(6);
  const ViewModel m = view_of(doc);
  const ViewGroup* layer = find_group(m, GroupKind::kModule, "layers.2");
  ASSERT_NE(layer, nullptr);
  EXPECT_EQ(layer->constant_tensors, kBlockTensors);
  EXPECT_EQ(layer->parameters, kBlockParameters);
  EXPECT_EQ(layer->parameter_bytes, 4 * kBlockParameters);
  EXPECT_EQ(total_ops(*layer), kBlockOps);
  const auto ops = by_base(*layer);
  EXPECT_EQ(ops.at("linear"), 7);
  EXPECT_EQ(ops.at("mul"), 5);
  EXPECT_EQ(ops.at("view"), 4);
  EXPECT_EQ(ops.at("transpose"), 4);
  EXPECT_EQ(ops.at("add"), 4);
  EXPECT_EQ(ops.at("scaled_dot_product_attention"), 1);
  // Most frequent first.
  ASSERT_FALSE(layer->ops.empty());
  EXPECT_EQ(analysis::op_base_name(layer->ops.front().first), "linear");

  const ViewGroup* attention = find_group(m, GroupKind::kModule, "layers.2.attention");
  ASSERT_NE(attention, nullptr);
  EXPECT_EQ(attention->parameters, 4 * 64 * 64);
  EXPECT_EQ(attention->constant_tensors, 4);
  EXPECT_EQ(total_ops(*attention), 13);

  // The folded "TransformerBlock ×6" box: six blocks' weights, each block's once.
  const ViewGroup* run = find_group(m, GroupKind::kRepeat);
  ASSERT_NE(run, nullptr);
  EXPECT_EQ(run->constant_tensors, 6 * kBlockTensors);
  EXPECT_EQ(run->parameters, 6 * kBlockParameters);
  EXPECT_EQ(run->parameter_bytes, 6 * 4 * kBlockParameters);
  EXPECT_EQ(total_ops(*run), 6 * kBlockOps);
  EXPECT_EQ(by_base(*run).at("linear"), 42);
}

// A flat program (no module paths): the "block ×N" box of the sequence run holds the N
// instances' ops; every instance the same histogram; a delegate box lists its payload's ops,
// not its own call, and their sum is the box's badge ("N ops").
TEST(GroupContents, FlatProgramBlocksAndDelegates) {
  gen::TransformerSpec spec;
  spec.blocks = 5;
  spec.dim = 64;
  spec.hidden = 128;
  spec.vocab = 256;
  spec.delegates = true;
  spec.delegate_backend = "xnnpack";
  const Document doc =
      test::load(test::write_transformer_program(spec, "structure", "contents_flat.pte"));
  const ViewModel m = view_of(doc);
  const ViewGroup* run = find_group(m, GroupKind::kRepeat);
  ASSERT_NE(run, nullptr);
  std::vector<const ViewGroup*> instances;
  for (const ViewGroup& g : m.groups)
    if (g.parent >= 0 && &m.groups[static_cast<size_t>(g.parent)] == run) instances.push_back(&g);
  ASSERT_EQ(instances.size(), 5u);
  int sum = 0;
  int64_t params = 0;
  for (const ViewGroup* g : instances) {
    EXPECT_EQ(g->ops, instances[0]->ops) << g->name;
    EXPECT_EQ(g->parameters, instances[0]->parameters) << g->name;
    sum += total_ops(*g);
    params += g->parameters;
  }
  EXPECT_GT(instances[0]->parameters, 0);
  EXPECT_EQ(total_ops(*run), sum);
  EXPECT_EQ(run->parameters, params) << "blocks share no weight";

  int delegates = 0;
  for (const ViewGroup& g : m.groups) {
    if (g.kind != GroupKind::kDelegate) continue;
    ++delegates;
    EXPECT_EQ(std::to_string(total_ops(g)) + " ops", g.badge) << g.name;
    for (const auto& [op, n] : g.ops) EXPECT_EQ(op.find("Backend"), std::string::npos) << op;
  }
  EXPECT_EQ(delegates, 5);
}

// One tensor read by two nodes, and through a second value naming the same bytes, counts once;
// a node reading it from outside the group does not make it the group's.
TEST(GroupContents, ATensorReadTwiceCountsOnce) {
  Document doc;
  Graph g;
  g.groups.push_back(Group{"blk", "blk", GroupKind::kModule, kNoId});
  auto constant = [&](const std::string& name) {
    Value v;
    v.name = name;
    v.tensor.dtype = "float32";
    v.tensor.shape = parse_shape_string("[4, 4]");
    v.tensor.nbytes = 64;
    v.tensor.data_location = DataLocation::kConstantSegment;
    v.tensor.data_index = 1;  // both values name constant 1
    const ValueId id = g.add_value(v);
    Node n;
    n.name = name;
    n.op = "parameter";
    n.kind = NodeKind::kConstant;
    n.outputs.push_back({"", id});
    g.add_node(n);
    return id;
  };
  const ValueId w = constant("w");
  const ValueId w_alias = constant("w_alias");
  auto kernel = [&](const std::string& name, std::vector<ValueId> in, GroupId group) {
    Node n;
    n.name = name;
    n.op = "aten::mm.out";
    n.group = group;
    for (ValueId v : in) n.inputs.push_back({"", v});
    Value out;
    out.name = name + "_out";
    out.tensor.dtype = "float32";
    n.outputs.push_back({"", g.add_value(out)});
    return g.add_node(n);
  };
  kernel("a", {w}, 0);
  kernel("b", {w, w_alias}, 0);
  kernel("outside", {w}, kNoId);
  g.link_values();
  doc.graphs.push_back(std::move(g));
  const ViewModel m = view_of(doc);
  const ViewGroup* blk = find_group(m, GroupKind::kModule, "blk");
  ASSERT_NE(blk, nullptr);
  EXPECT_EQ(blk->constant_tensors, 1);
  EXPECT_EQ(blk->parameters, 16);
  EXPECT_EQ(blk->parameter_bytes, 64);
  ASSERT_EQ(blk->ops.size(), 1u);
  EXPECT_EQ(blk->ops[0], (std::pair<std::string, int32_t>{"aten::mm.out", 2}));
}

// A broadcast source's stub says where its undrawn uses go (ViewModel::stubs): an input read by
// the ops of 4 module boxes (`per_box` each) and by 5 loose ops of 3 kinds, over the fan-out the
// layout draws (32).
ViewModel broadcast(const std::vector<int>& per_box) {
  Document doc;
  Graph g;
  for (size_t b = 0; b < per_box.size(); ++b)
    g.groups.push_back(Group{"layers." + std::to_string(b), "", GroupKind::kModule, kNoId});
  Value in;
  in.name = "x";
  in.tensor.dtype = "float32";
  const ValueId x = g.add_value(in);
  Node input;
  input.name = "x";
  input.op = "x";
  input.kind = NodeKind::kInput;
  input.outputs.push_back({"", x});
  g.add_node(input);
  auto use = [&](const std::string& name, const std::string& op, GroupId group) {
    Node n;
    n.name = name;
    n.op = op;
    n.group = group;
    n.inputs.push_back({"", x});
    Value out;
    out.name = name + "_out";
    n.outputs.push_back({"", g.add_value(out)});
    g.add_node(n);
  };
  for (size_t b = 0; b < per_box.size(); ++b)
    for (int k = 0; k < per_box[b]; ++k)
      use("mm_" + std::to_string(b) + "_" + std::to_string(k), "aten::mm.out",
          static_cast<GroupId>(b));
  for (int k = 0; k < 5; ++k)
    use("loose_" + std::to_string(k),
        k < 2   ? "aten::add.out"
        : k < 4 ? "aten::mul.out"
                : "aten::sub.out",
        kNoId);
  g.link_values();
  doc.graphs.push_back(std::move(g));
  return view_of(doc);
}

TEST(Stubs, SayHowManyUsesAndWhereTheyGo) {
  // Four different boxes: the first and last named whole, and how many.
  const ViewModel m = broadcast({25, 26, 27, 28});
  ASSERT_EQ(m.stubs.size(), 1u);
  EXPECT_EQ(m.stubs[0].first, 0);
  EXPECT_EQ(m.stubs[0].second, "111 uses \u2192 layers.0 \u2026 layers.3 (4 boxes), 5 ops");
  int detached = 0;
  for (const auto& e : m.edges) detached += e.detached;
  EXPECT_EQ(detached, 111);
  // Four equal boxes fold into one repeat box, which is where the uses go.
  const ViewModel folded = broadcast({30, 30, 30, 30});
  ASSERT_EQ(folded.stubs.size(), 1u);
  EXPECT_EQ(folded.stubs[0].second, "125 uses \u2192 layers \u00d74, 5 ops");
  // Loose uses of at most two kinds are named.
  const ViewModel loose = broadcast({30});
  ASSERT_EQ(loose.stubs.size(), 1u);
  EXPECT_EQ(loose.stubs[0].second, "35 uses \u2192 layers.0, 5 ops");
}

}  // namespace
}  // namespace etviz

namespace etviz {
namespace {

// QDQ clusters in the corpus, counted exactly. Every quantized program there is already
// lowered: its int8 work runs in fused kernels (cortex_m::quantized_conv2d,
// cadence::quantized_conv2d_nchw) or in a delegate, with quantize at the inputs and dequantize
// at the outputs (quantize -> op -> dequantize), so none keeps the exporter's dequantize -> op
// -> quantize chain that a QDQ cluster is. Counted twice: by find_qdq_clusters, and by the
// chain itself (an op with a dequantize producer or a quantize consumer, by op name).
TEST(QdqClusters, CorpusQuantizedProgramsCountedExactly) {
  const std::map<std::string, int> quantized = {
      // file (prefix) -> quantize/dequantize nodes in forward, clusters: 0 each
      {"pytorch__executorch__examples__arduino__examples__KeywordSpotting__model", 2},
      {"pytorch__executorch__operator_and_model_testing__conv2d__pte1__CadenceDemoModel", 2},
      {"Arm-Examples__CMSIS-Executorch__ai_layer__engine__model__ethos_u_minimal_example.pte", 3},
      {"fidel-makatia__ALIF_Executorch__executorch_mnist__mnist_ethos_u55", 2},
  };
  auto base = [](const std::string& op) { return analysis::op_base_name(op); };
  // quantize, quantize_per_tensor, ...; not quantized_conv2d (a fused int8 kernel).
  auto named = [&](const std::string& op, const std::string& stem) {
    const std::string b = base(op);
    return b == stem || b.rfind(stem + "_", 0) == 0;
  };
  auto is_q = [&](const std::string& op) { return named(op, "quantize"); };
  auto is_dq = [&](const std::string& op) { return named(op, "dequantize"); };
  int files = 0;
  for (const std::string& f : test::corpus_files("pte")) {
    auto opened = open_document(f);
    if (!opened) continue;
    for (const Graph& g : opened->graphs) {
      std::vector<analysis::Category> cats;
      for (const Node& n : g.nodes)
        cats.push_back(analysis::categorize(n, analysis::default_category_config()));
      const size_t clusters = analysis::find_qdq_clusters(g, cats).size();
      size_t chains = 0, qdq_nodes = 0;
      for (const Node& n : g.nodes) {
        if (is_q(n.op) || is_dq(n.op)) {
          ++qdq_nodes;
          continue;
        }
        if (n.kind != NodeKind::kKernel) continue;
        bool chain = false;
        for (const Argument& a : n.inputs)
          if (a.value >= 0 && static_cast<size_t>(a.value) < g.values.size()) {
            const NodeId p = g.values[static_cast<size_t>(a.value)].producer;
            chain |= p >= 0 && is_dq(g.nodes[static_cast<size_t>(p)].op);
          }
        for (const Argument& a : n.outputs)
          if (a.value >= 0 && static_cast<size_t>(a.value) < g.values.size())
            for (NodeId c : g.values[static_cast<size_t>(a.value)].consumers)
              chain |= c >= 0 && is_q(g.nodes[static_cast<size_t>(c)].op);
        chains += chain ? 1 : 0;
      }
      EXPECT_EQ(clusters, chains) << f << " " << g.name;
      for (const auto& [prefix, count] : quantized)
        if (g.name == "forward" && f.find("/pte/" + prefix) != std::string::npos) {
          ++files;
          EXPECT_EQ(qdq_nodes, static_cast<size_t>(count)) << f;
          EXPECT_EQ(clusters, 0u) << f;
        }
    }
  }
  EXPECT_EQ(files, 4);
}

}  // namespace
}  // namespace etviz

namespace etviz {
namespace {

// Generated programs whose QDQ clusters are known: every block quantizes and dequantizes the
// attention output before wo (view_copy -> quantize, dequantize -> linear) and, without
// delegates, the gated MLP before w2 (mul -> quantize, dequantize -> linear): four clusters per
// block, two when the MLP is a delegate call. Each becomes one collapsed box in its block,
// named by its op and listing the quantization parameters the generator wrote.
TEST(QdqClusters, GeneratedProgramsCountedExactly) {
  for (bool delegates : {false, true}) {
    gen::TransformerSpec spec;
    spec.blocks = 5;
    spec.dim = 16;
    spec.hidden = 16;
    spec.vocab = 64;
    spec.delegates = delegates;
    const Document doc = test::load(test::write_transformer_program(
        spec, "structure", "qdq_" + std::to_string(delegates) + ".pte"));
    const ViewModel m = view_of(doc);
    const size_t expected = delegates ? 10u : 20u;
    EXPECT_EQ(m.qdq_clusters.size(), expected);
    size_t boxes = 0;
    for (const ViewGroup& g : m.groups) {
      if (g.kind != GroupKind::kQdqCluster) continue;
      ++boxes;
      EXPECT_FALSE(g.expanded) << g.name;
      ASSERT_GE(g.attributes.size(), 2u) << g.name;
      // The quantize or dequantize beside the op, with its scale, zero point and range.
      EXPECT_NE(g.attributes[1].value.find("0.0125"), std::string::npos) << g.attributes[1].value;
      EXPECT_NE(g.attributes[1].value.find("-128"), std::string::npos) << g.attributes[1].value;
      // Inside one block of the "block ×5" run.
      ASSERT_GE(g.parent, 0);
      EXPECT_EQ(m.groups[static_cast<size_t>(g.parent)].label.rfind("block ", 0), 0u) << g.name;
    }
    EXPECT_EQ(boxes, expected);
  }
}

}  // namespace
}  // namespace etviz

namespace etviz {
namespace {

// A pre-lowering graph whose partitioner tagged its nodes (node.meta["delegation_tag"], an
// attribute after reading): one partition box per tag, in the innermost box its nodes share,
// saying where it came from; untagged nodes stay where they were.
TEST(Partitions, DelegationTagsBecomeBoxes) {
  Document doc;
  Graph g;
  g.groups.push_back(Group{"layers.0", "0 (Block)", GroupKind::kModule, kNoId});
  g.groups.push_back(Group{"layers.0.mlp", "mlp (MLP)", GroupKind::kModule, 0});
  ValueId prev = g.add_value(Value{"x", ValueKind::kTensor, kNoId, {}, "", {}, {}});
  auto node = [&](const std::string& name, GroupId group, const std::string& tag) {
    Node n;
    n.name = name;
    n.op = "aten::relu";
    n.group = group;
    if (!tag.empty()) n.attributes.push_back({"delegation_tag", tag});
    n.inputs.push_back({"", prev});
    prev = g.add_value(Value{name + "_out", ValueKind::kTensor, kNoId, {}, "", {}, {}});
    n.outputs.push_back({"", prev});
    g.add_node(n);
  };
  node("a", 1, "tag0");
  node("b", 0, "tag0");
  node("c", 1, "tag1");
  node("d", 1, "");
  g.link_values();
  doc.graphs.push_back(std::move(g));
  const ViewModel m = view_of(doc);
  const ViewGroup* tag0 = find_group(m, GroupKind::kPartition, "partition/tag0");
  const ViewGroup* tag1 = find_group(m, GroupKind::kPartition, "partition/tag1");
  ASSERT_NE(tag0, nullptr);
  ASSERT_NE(tag1, nullptr);
  EXPECT_EQ(m.groups[static_cast<size_t>(tag0->parent)].name, "layers.0") << "a and b meet there";
  EXPECT_EQ(m.groups[static_cast<size_t>(tag1->parent)].name, "layers.0.mlp");
  EXPECT_EQ(tag0->node_count, 2);
  EXPECT_EQ(tag1->node_count, 1);
  ASSERT_EQ(tag0->attributes.size(), 2u);
  EXPECT_EQ(tag0->attributes[1].value, "the partitioner's delegation_tag");
  EXPECT_EQ(m.groups[static_cast<size_t>(m.nodes[3].group)].name, "layers.0.mlp") << "d untagged";
}

}  // namespace
}  // namespace etviz
