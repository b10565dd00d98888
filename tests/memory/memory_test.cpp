// Memory plans (analysis/memory_plan.h): synthetic methods with known lifetimes and a planted
// defect, every corpus program checked against its own non_const_buffer_sizes, and the CLI.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <set>
#include <stdexcept>

#include "analysis/memory_plan.h"
#include "analysis/size_tree.h"
#include "cli_run.h"
#include "program_builder.h"
#include "test_support.h"
#include "transformer_model.h"

namespace etviz {
namespace {

// A method: input x (arena 1 @0, 64 B), three kernels a = f(x), b = g(a), c = h(a, b), output c.
// `defect`: b is placed over a while both are live.
Graph three_kernels(bool defect) {
  Graph g;
  g.name = "forward";
  g.kind = GraphKind::kMethod;
  g.stage = {StageRole::kExecuTorch, "forward"};
  g.memory_buffer_sizes = {0, 256};
  auto tensor = [&](const char* name, uint64_t offset, int64_t bytes) {
    Value v;
    v.name = name;
    v.tensor.dtype = "float32";
    v.tensor.nbytes = bytes;
    v.tensor.placement = MemoryPlacement{1, offset};
    return g.add_value(std::move(v));
  };
  const ValueId x = tensor("x", 0, 64), a = tensor("a", 64, 64),
                b = tensor("b", defect ? 96 : 128, 64), c = tensor("c", 0, 64);
  Node in;
  in.kind = NodeKind::kInput;
  in.op = "input";
  in.outputs = {{"", x}};
  g.add_node(in);
  auto kernel = [&](const char* op, int64_t index, std::vector<ValueId> ins, ValueId out) {
    Node n;
    n.op = op;
    n.provenance.chain = 0;
    n.provenance.instruction = index;
    for (ValueId v : ins) n.inputs.push_back({"", v});
    n.outputs = {{"out", out}};
    g.add_node(n);
  };
  kernel("f", 0, {x}, a);
  kernel("g", 1, {a}, b);
  kernel("h", 2, {a, b}, c);
  Node out;
  out.kind = NodeKind::kOutput;
  out.op = "output";
  out.inputs = {{"", c}};
  g.add_node(out);
  g.inputs = {x};
  g.outputs = {c};
  g.link_values();
  return g;
}

const analysis::PlannedTensor& named(const analysis::MemoryPlan& p, const std::string& n) {
  for (const auto& t : p.tensors)
    if (t.name == n) return t;
  throw std::runtime_error("no tensor " + n);
}

TEST(Memory, LifetimesPeakAndTheLiveSetOfAKnownMethod) {
  Document doc;
  const Graph g = three_kernels(false);
  auto plan = analysis::memory_plan(doc, g);
  ASSERT_TRUE(plan) << plan.error().message();
  EXPECT_EQ(plan->instructions, 3);
  ASSERT_EQ(plan->tensors.size(), 4u);
  // x is read by f (0); a written at 0, last read at 2; b 1-2; c written at 2, an output.
  EXPECT_EQ(named(*plan, "x").first, 0);
  EXPECT_EQ(named(*plan, "x").last, 0);
  EXPECT_EQ(named(*plan, "a").first, 0);
  EXPECT_EQ(named(*plan, "a").last, 2);
  EXPECT_EQ(named(*plan, "b").first, 1);
  EXPECT_EQ(named(*plan, "b").last, 2);
  EXPECT_TRUE(named(*plan, "c").never_freed);
  EXPECT_EQ(named(*plan, "c").last, 2);
  ASSERT_EQ(plan->arenas.size(), 1u);
  const auto& arena = plan->arenas[0];
  EXPECT_EQ(arena.planned_bytes, 256);
  // At 2: a, b, c (c shares x's bytes, x is dead by then) = 192 B; at 0: x + a = 128.
  EXPECT_EQ(arena.peak_bytes, 192);
  EXPECT_EQ(arena.peak_at, 2);
  EXPECT_EQ(arena.live_at_peak.size(), 3u);
  EXPECT_EQ(arena.highest_end, 192);
  EXPECT_EQ(plan->overlap_count, 0);
}

TEST(Memory, TwoLiveTensorsSharingBytesAreAPlanDefect) {
  Document doc;
  auto plan = analysis::memory_plan(doc, three_kernels(true));
  ASSERT_TRUE(plan);
  ASSERT_EQ(plan->overlap_count, 1);
  const auto& o = plan->overlaps[0];
  std::set<std::string> pair = {plan->tensors[static_cast<size_t>(o.a)].name,
                                plan->tensors[static_cast<size_t>(o.b)].name};
  EXPECT_EQ(pair, (std::set<std::string>{"a", "b"}));
  EXPECT_EQ(o.from, 1);
  EXPECT_EQ(o.to, 2);
}

TEST(Memory, EveryCorpusProgramsPlanFitsItsArenasAndHasNoOverlap) {
  int methods = 0;
  std::vector<std::string> files = test::corpus_files("pte");
  for (const std::string& f : test::corpus_files("bpte")) files.push_back(f);
  for (const std::string& path : files) {
    auto opened = open_document(path);
    if (!opened)
      continue;  // files etviz refuses with a reason (pre-release schemas) are tested elsewhere
    const Document& doc = *opened;
    for (const Graph& g : doc.graphs) {
      if (g.stage.role != StageRole::kExecuTorch || !g.is_top_level()) continue;
      auto plan = analysis::memory_plan(doc, g);
      if (!plan) continue;
      ++methods;
      for (const auto& a : plan->arenas) {
        // The program's own arena sizes, and every tensor inside its arena.
        ASSERT_LT(a.id, g.memory_buffer_sizes.size()) << path;
        EXPECT_EQ(a.planned_bytes, g.memory_buffer_sizes[a.id]) << path;
        EXPECT_LE(a.highest_end, a.planned_bytes) << path << " arena " << a.id;
        EXPECT_LE(a.peak_bytes, a.planned_bytes) << path << " arena " << a.id;
      }
      EXPECT_EQ(plan->overlap_count, 0) << path << " " << g.name;
    }
  }
  EXPECT_GE(methods, 40);
}

std::string write_generated(gen::ProgramBuilder& b, const std::string& name,
                            const gen::WriteOptions& options = {}) {
  const std::string path = test::scratch_dir("memory") + "/" + name;
  std::string error;
  EXPECT_TRUE(b.write(path, options, error)) << error;
  return path;
}

TEST(Memory, GeneratedViewsAndReusedMemoryAreNoDefect) {
  // Views share their base's bytes by design (folded static views, executorch_prim::et_view
  // calls), and a planner reuses the bytes of dead tensors: neither is two live storages on the
  // same bytes.
  int64_t arena_without_reuse = 0;
  for (const bool views : {false, true})
    for (const bool reuse : {false, true}) {
      gen::TransformerSpec spec;
      spec.blocks = 3;
      spec.methods = 2;
      spec.views = views;
      gen::ProgramBuilder b;
      gen::build_transformer(b, spec);
      gen::WriteOptions options;
      options.reuse_memory = reuse;
      const std::string name =
          std::string(views ? "views" : "copies") + (reuse ? "_reuse" : "") + ".pte";
      const Document doc = test::load(write_generated(b, name, options));
      for (const Graph& g : doc.graphs) {
        if (g.kind != GraphKind::kMethod) continue;
        auto plan = analysis::memory_plan(doc, g);
        ASSERT_TRUE(plan) << plan.error().message();
        EXPECT_EQ(plan->overlap_count, 0) << name << " " << g.name;
        ASSERT_EQ(plan->arenas.size(), 1u);
        EXPECT_LE(plan->arenas[0].highest_end, plan->arenas[0].planned_bytes) << name;
        EXPECT_LE(plan->arenas[0].peak_bytes, plan->arenas[0].planned_bytes) << name;
        if (views) {
          // Per block: 7 folded reshapes and the et_view's out.
          EXPECT_EQ(plan->aliases, 3 * 8) << name << " " << g.name;
        }
        if (g.name == "prefill_1" && !views) {
          if (!reuse) arena_without_reuse = plan->arenas[0].planned_bytes;
          if (reuse) {
            EXPECT_LT(plan->arenas[0].planned_bytes * 4, arena_without_reuse);
          }
        }
      }
    }
}

TEST(Memory, APlanThatReallyOverlapsIsStillADefect) {
  // a = relu(x) at bytes 0..64; b = relu(a) placed on a's bytes; c = add(a, b): a and b are live
  // together on the same bytes. The same with an et_view in place of the second relu is a view.
  for (const bool view : {false, true}) {
    gen::ProgramBuilder b;
    auto& m = b.method("forward");
    const auto f32 = gen::ScalarType::kFloat32;
    const auto x = m.tensor_at(f32, {16}, 128);
    m.input(x);
    const auto a = m.tensor_at(f32, {16}, 0);
    m.kernel("aten::relu.out", {x, a});
    const auto bb = m.tensor_at(f32, {16}, 0);
    if (view)
      m.kernel("executorch_prim::et_view.default", {a, m.int_list({16}), bb});
    else
      m.kernel("aten::relu.out", {a, bb});
    const auto c = m.tensor_at(f32, {16}, 64);
    m.kernel("aten::add.out", {a, bb, m.integer(1), c});
    m.output(c);
    const Document doc = test::load(write_generated(b, view ? "view.pte" : "overlap.pte"));
    ASSERT_FALSE(doc.graphs.empty());
    auto plan = analysis::memory_plan(doc, doc.graphs[0]);
    ASSERT_TRUE(plan) << plan.error().message();
    if (view) {
      EXPECT_EQ(plan->overlap_count, 0);
      EXPECT_EQ(plan->aliases, 1);
      continue;
    }
    ASSERT_EQ(plan->overlap_count, 1);
    const auto& o = plan->overlaps[0];
    std::set<std::string> pair = {plan->tensors[static_cast<size_t>(o.a)].name,
                                  plan->tensors[static_cast<size_t>(o.b)].name};
    EXPECT_EQ(pair, (std::set<std::string>{"v" + std::to_string(a), "v" + std::to_string(bb)}));
    const auto report = test::run_etviz("memory " + test::scratch_dir("memory") + "/overlap.pte");
    EXPECT_NE(report.out.find("PLAN DEFECT: 1 pair"), std::string::npos) << report.out;
  }
}

TEST(Memory, KeywordSpottingPeaksAtItsFirstClone) {
  const Document doc = test::load(test::corpus(
      "pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte"));
  auto plan = analysis::memory_plan(doc, doc.graphs[0]);
  ASSERT_TRUE(plan);
  ASSERT_EQ(plan->arenas.size(), 1u);
  EXPECT_EQ(plan->non_const_buffer_sizes, (std::vector<int64_t>{0, 16000}));
  // Two 8,000-byte activations (the [1, 1, 4000]-ish feature maps at int8 x 2) fill the arena
  // while the dim-order clone copies one into the other.
  EXPECT_EQ(plan->arenas[0].peak_bytes, 16000);
  EXPECT_EQ(plan->arenas[0].peak_at, 2);
  EXPECT_EQ(doc.graphs[0].nodes[static_cast<size_t>(plan->instruction_nodes[2])].op,
            "dim_order_ops::_clone_dim_order.out");
  EXPECT_EQ(plan->aliases, 1);
}

TEST(Memory, CommandReportsAndRefuses) {
  const std::string kws = test::corpus(
      "pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte");
  const auto json = test::run_etviz("memory " + kws + " --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["format"], "etviz.memory/1");
  EXPECT_EQ(j["arenas"][0]["planned_bytes"], 16000);
  EXPECT_EQ(j["tensors"].size(), 27u);
  const auto csv = test::run_etviz("memory " + kws + " --format csv");
  EXPECT_EQ(std::count(csv.out.begin(), csv.out.end(), '\n'), 28);  // header + 27 tensors
  const auto table = test::run_etviz("memory " + kws);
  EXPECT_NE(table.out.find("no two live tensors share bytes"), std::string::npos);
  // An exported program has no plan; a QNN program keeps its tensors in the delegate.
  const auto pt2 = test::run_etviz(
      "memory " +
      test::corpus("pt2/pytorch__executorch__extension__pt2_archive__test__linear.6f89131a.pt2"));
  EXPECT_EQ(pt2.exit_code, 1);
  EXPECT_NE(pt2.err.find("not an ExecuTorch method"), std::string::npos) << pt2.err;
  const auto qnn = test::run_etviz(
      "memory " + test::corpus("pte/"
                               "pytorch__executorch__examples__qualcomm__oss_scripts__llama__"
                               "artifacts__stories260k_hybrid_llama_qnn.pte"));
  EXPECT_EQ(qnn.exit_code, 1);
  EXPECT_NE(qnn.err.find("no planned memory"), std::string::npos) << qnn.err;
}

}  // namespace
}  // namespace etviz

namespace etviz {
namespace {

uint64_t check_sums(const analysis::SizeNode& n, const std::string& where) {
  if (n.children.empty()) return n.bytes;
  uint64_t sum = 0;
  for (const auto& c : n.children) sum += check_sums(c, where + "/" + c.name);
  EXPECT_EQ(sum, n.bytes) << where;
  return n.bytes;
}

uint64_t constant_bytes(const analysis::SizeNode& n) {
  if (n.kind == "constant") return n.bytes;
  uint64_t sum = 0;
  for (const auto& c : n.children) sum += constant_bytes(c);
  return sum;
}

TEST(Size, EveryCorpusFileSplitsExactlyAndConstantsMatchInfo) {
  int files = 0;
  for (const std::string& path : test::corpus_files("pte")) {
    auto doc = open_document(path);
    if (!doc) continue;
    ++files;
    const analysis::SizeNode tree = analysis::size_tree(*doc);
    EXPECT_EQ(tree.bytes, std::filesystem::file_size(path)) << path;
    check_sums(tree, path);
    // The constants `info` counts are the constant leaves here.
    const auto info = test::run_etviz("info " + path + " --json");
    ASSERT_EQ(info.exit_code, 0) << path;
    const auto j = nlohmann::json::parse(info.out);
    int64_t external = j["constants"].value("external", 0);
    if (external == 0) {
      EXPECT_EQ(constant_bytes(tree), j["constants"]["bytes"].get<uint64_t>()) << path;
    }
  }
  EXPECT_GE(files, 40);
}

TEST(Size, CommandTreeAndJson) {
  const std::string dnf = test::corpus("pte/berndporr__dnf_executorch__dnf.47145c4a.pte");
  const auto table = test::run_etviz("size " + dnf);
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_NE(table.out.find("XnnpackBackend payload #2 of forward"), std::string::npos);
  const auto json = test::run_etviz("size " + dnf + " --format json");
  const auto j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["format"], "etviz.size/1");
  EXPECT_EQ(j["bytes"], 8208);
  const auto csv = test::run_etviz("size " + dnf + " --format csv");
  EXPECT_NE(csv.out.find(
                "berndporr__dnf_executorch__dnf.47145c4a.pte/segment 4 (XnnpackBackend payload)"),
            std::string::npos)
      << csv.out;
}

}  // namespace
}  // namespace etviz
