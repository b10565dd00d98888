// Joins: the corpus profile with the program it was recorded from, and generated program +
// ETDump pairs with delegate calls and delegate debug ids, with and without ETRecord maps.
#include "analysis/profile_join.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "etdump_writer.h"
#include "formats/executorch/etdump_reader.h"
#include "formats/open_document.h"
#include "program_builder.h"
#include "test_files.h"

namespace etviz {
namespace {

TEST(ProfileJoin, CorpusProfileWithItsBundledProgram) {
  auto profile = executorch::read_etdump_file(testing::corpus_etdump());
  ASSERT_TRUE(profile);
  auto program = open_document(testing::corpus_cnn_bundle());
  ASSERT_TRUE(program) << program.error().message();
  auto stats = analysis::summarize_profile(*profile);
  analysis::JoinSources sources;
  sources.program = &*program;
  auto report = analysis::join_profile(stats, sources);
  ASSERT_TRUE(report) << report.error().message();
  EXPECT_EQ(report->method, "forward");
  EXPECT_EQ(report->joined, 28u);
  EXPECT_EQ(report->out_of_range, 0u);
  EXPECT_EQ(report->name_mismatches, 0u);
  EXPECT_TRUE(report->warnings.empty());
  const Graph* forward = program->find_graph("forward");
  ASSERT_NE(forward, nullptr);
  for (const auto& row : stats.events) {
    ASSERT_NE(row.join.node, kNoId) << row.name;
    const Node& node = forward->nodes[static_cast<size_t>(row.join.node)];
    EXPECT_EQ(node.provenance.instruction, row.instruction);
    ASSERT_EQ(row.join.op_types.size(), 1u);
    EXPECT_EQ(row.join.op_types[0], node.op);
    EXPECT_EQ(row.join.delegated, std::optional<bool>(false));
    EXPECT_TRUE(row.join.backend.empty());
    if (row.name.rfind("native_call_", 0) == 0) {
      EXPECT_EQ("aten::" + row.name.substr(12), node.op);
    }
  }
  // The heaviest instruction is the second convolution.
  EXPECT_EQ(stats.events[0].join.op_types[0], "aten::convolution.out");

  // Per-node timing for the viewer: every one of the 14 kernel nodes is timed by its
  // OPERATOR_CALL (which encloses native_call_*), shares against Method::execute.
  const auto timings = analysis::node_timings(stats, *forward);
  ASSERT_EQ(timings.size(), forward->nodes.size());
  size_t timed = 0;
  double share = 0;
  for (const auto& t : timings) {
    if (t.stats.count == 0) continue;
    ++timed;
    share += t.share;
    EXPECT_EQ(t.event, "OPERATOR_CALL");
  }
  EXPECT_EQ(timed, 14u);
  // OPERATOR_CALL totals sum to 1,896,076 ticks of 1,898,821 under Method::execute.
  EXPECT_NEAR(share, 1896076.0 / 1898821.0, 1e-12);
}

TEST(ProfileJoin, WrongProgramIsNoticed) {
  auto profile = executorch::read_etdump_file(testing::corpus_etdump());
  ASSERT_TRUE(profile);
  // The other bundled program (add/mul, a handful of instructions) did not record this run.
  auto program = open_document(
      std::string(ETVIZ_CORPUS_DIR) +
      "/bpte/pytorch__executorch__extension__module__test__resources__bundled_program.bpte");
  ASSERT_TRUE(program) << program.error().message();
  auto stats = analysis::summarize_profile(*profile);
  analysis::JoinSources sources;
  sources.program = &*program;
  auto report = analysis::join_profile(stats, sources);
  ASSERT_TRUE(report) << report.error().message();
  EXPECT_GT(report->out_of_range + report->name_mismatches, 0u);
  ASSERT_FALSE(report->warnings.empty());
  EXPECT_NE(report->warnings[0].find("is this the program that was profiled?"), std::string::npos);

  sources.method = "no_such_method";
  auto missing = analysis::join_profile(stats, sources);
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message().find("no method 'no_such_method'"), std::string::npos);
}

// A small program: conv kernel, a delegate call that swallowed two ops, a relu kernel.
std::string write_generated_program() {
  gen::ProgramBuilder builder;
  gen::MethodBuilder& m = builder.method("forward");
  auto x = m.tensor(gen::ScalarType::kFloat32, {1, 8});
  auto w = m.constant(gen::ScalarType::kFloat32, {8, 8}, "fc.weight");
  auto y = m.tensor(gen::ScalarType::kFloat32, {1, 8});
  auto z = m.tensor(gen::ScalarType::kFloat32, {1, 8});
  auto out = m.tensor(gen::ScalarType::kFloat32, {1, 8});
  m.input(x);
  m.kernel("aten::mm.out", {x, w, y});
  const int32_t npu =
      m.add_delegate("ExampleNpuBackend", {{"target", "npu-v1"}}, std::vector<uint8_t>(64, 7));
  m.delegate_call(npu, {y, z});
  m.kernel("aten::relu.out", {z, out});
  m.output(out);
  const std::string path = testing::scratch_dir() + "/join_pair.pte";
  std::string error;
  EXPECT_TRUE(builder.write(path, {}, error)) << error;
  return path;
}

// An ETRecord as its reader leaves it: the maps, and an edge-dialect graph whose nodes carry
// the debug handles (op, module path, stack trace per handle).
Document cnn_etrecord() {
  Document doc;
  doc.format = DocumentFormat::kETRecord;
  Graph edge;
  edge.name = "edge_dialect_exported_program";
  edge.kind = GraphKind::kExportedProgram;
  edge.stage = {StageRole::kEdgeDialect, "forward"};
  auto node = [&](int64_t handle, std::string op, std::string module, std::vector<StackFrame> st) {
    Node n;
    n.name = op;
    n.op = std::move(op);
    n.provenance.debug_handles = {handle};
    n.provenance.module_path = std::move(module);
    n.provenance.stack = std::move(st);
    edge.add_node(std::move(n));
  };
  node(1, "aten.mm.default", "encoder.fc", {{"model.py", 10, "forward", "x = self.fc(x)"}});
  node(2, "aten.add.Tensor", "encoder.block.add", {});
  node(3, "aten.gelu.default", "encoder.block.act", {});
  node(4, "aten.relu.default", "head", {});
  doc.graphs.push_back(std::move(edge));
  ETRecordMaps maps;
  maps.debug_handles["forward"] = {{0, {1}}, {1, {2, 3}}, {2, {4}}};
  ETRecordMaps::DelegateEntry entry;
  entry.backend = "ExampleNpuBackend";
  entry.debug_ids = {{"0", {2}}, {"1", {3}}};
  maps.delegates["forward"][1] = entry;
  maps.index_handles(doc.graphs);
  doc.etrecord = std::move(maps);
  return doc;
}

TEST(ProfileJoin, GeneratedPairWithDelegateEvents) {
  const std::string pte = write_generated_program();
  auto program = open_document(pte);
  ASSERT_TRUE(program) << program.error().message();
  gen::SyntheticProfileSpec spec;
  spec.runs = 4;
  spec.delegate_events = 2;
  auto synthetic = gen::synthesize_profile(*program, spec, nullptr);
  ASSERT_TRUE(synthetic) << synthetic.error().message();
  auto profile = executorch::read_etdump(gen::write_etdump(*synthetic));
  ASSERT_TRUE(profile) << profile.error().message();
  ASSERT_EQ(profile->runs.size(), 5u);  // Default + 4 Execute

  auto stats = analysis::summarize_profile(*profile);
  // kernel x2: OPERATOR_CALL + native_call; delegate: DELEGATE_CALL + 2 inner events.
  ASSERT_EQ(stats.events.size(), 7u);
  analysis::JoinSources sources;
  sources.program = &*program;
  auto report = analysis::join_profile(stats, sources);
  ASSERT_TRUE(report) << report.error().message();
  EXPECT_EQ(report->joined, 7u);
  EXPECT_EQ(report->name_mismatches, 0u);
  size_t inner = 0;
  for (const auto& row : stats.events) {
    EXPECT_EQ(row.stats.count, 4u) << row.name;
    if (row.instruction == 1) {
      EXPECT_EQ(row.join.delegated, std::optional<bool>(true)) << row.name;
      EXPECT_EQ(row.join.backend, "ExampleNpuBackend");
      if (row.has_delegate_debug_id()) {
        ++inner;
        EXPECT_TRUE(row.join.op_types.empty());  // the program alone cannot say which ops
      } else {
        EXPECT_EQ(row.name, "DELEGATE_CALL");
        EXPECT_EQ(row.join.op_types, std::vector<std::string>{"ExampleNpuBackend"});
      }
    } else {
      EXPECT_EQ(row.join.delegated, std::optional<bool>(false)) << row.name;
    }
  }
  EXPECT_EQ(inner, 2u);

  // Node timing: the delegate node carries DELEGATE_CALL's time, not its inner events'.
  const Graph* forward = program->find_graph("forward");
  ASSERT_NE(forward, nullptr);
  const auto timings = analysis::node_timings(stats, *forward);
  size_t timed = 0;
  for (const auto& t : timings) {
    if (t.stats.count == 0) continue;
    ++timed;
    const Node& node = forward->nodes[static_cast<size_t>(t.node)];
    EXPECT_EQ(t.event, node.kind == NodeKind::kDelegate ? "DELEGATE_CALL" : "OPERATOR_CALL");
    EXPECT_GT(t.share, 0);
    EXPECT_LT(t.share, 1);
  }
  EXPECT_EQ(timed, 3u);
}

TEST(ProfileJoin, EtrecordMapsResolveDelegateIdsAndModules) {
  const std::string pte = write_generated_program();
  auto program = open_document(pte);
  ASSERT_TRUE(program);
  for (bool string_ids : {false, true}) {
    gen::SyntheticProfileSpec spec;
    spec.runs = 2;
    spec.delegate_events = 2;
    spec.delegate_ids_as_strings = string_ids;
    auto synthetic = gen::synthesize_profile(*program, spec, nullptr);
    ASSERT_TRUE(synthetic);
    auto profile = executorch::read_etdump(gen::write_etdump(*synthetic, false));
    ASSERT_TRUE(profile);
    auto stats = analysis::summarize_profile(*profile);
    Document etrecord = cnn_etrecord();
    if (string_ids)
      etrecord.etrecord->delegates["forward"][1].debug_ids = {{"op_0", {2}}, {"op_1", {3}}};
    analysis::JoinSources sources;
    sources.program = &*program;
    sources.etrecord = &etrecord;
    auto report = analysis::join_profile(stats, sources);
    ASSERT_TRUE(report) << report.error().message();
    for (const auto& row : stats.events) {
      if (row.instruction == 0) {
        EXPECT_EQ(row.join.op_types, std::vector<std::string>{"aten.mm.default"});
        EXPECT_EQ(row.join.module_paths, std::vector<std::string>{"encoder.fc"});
        EXPECT_EQ(row.join.stack, "model.py:10 in forward");
      } else if (row.instruction == 1 && row.has_delegate_debug_id()) {
        const bool first = row.delegate_debug_id() == (string_ids ? "op_0" : "0");
        EXPECT_EQ(row.join.op_types,
                  std::vector<std::string>{first ? "aten.add.Tensor" : "aten.gelu.default"});
        EXPECT_EQ(row.join.debug_handles, std::vector<int64_t>{first ? 2 : 3});
      } else if (row.instruction == 1) {
        EXPECT_EQ(row.join.op_types,
                  (std::vector<std::string>{"aten.add.Tensor", "aten.gelu.default"}));
        EXPECT_EQ(row.join.module_paths,
                  (std::vector<std::string>{"encoder.block.add", "encoder.block.act"}));
      } else {
        EXPECT_EQ(row.join.module_paths, std::vector<std::string>{"head"});
      }
    }

    // Module totals: an event counts once per module on its path, with its average.
    const auto totals = analysis::module_totals(stats.events);
    auto find = [&](const std::string& m) {
      auto it =
          std::find_if(totals.begin(), totals.end(), [&](const auto& t) { return t.module == m; });
      return it == totals.end() ? nullptr : &*it;
    };
    // Only the outermost event per instruction counts: OPERATOR_CALL and DELEGATE_CALL.
    double expected_encoder = 0, expected_head = 0, expected_block = 0;
    for (const auto& row : stats.events) {
      if (row.name == "OPERATOR_CALL" && row.instruction == 0) expected_encoder += row.stats.avg;
      if (row.name == "DELEGATE_CALL") expected_block += row.stats.avg;
      if (row.name == "OPERATOR_CALL" && row.instruction == 2) expected_head += row.stats.avg;
    }
    ASSERT_GT(expected_encoder, 0);
    ASSERT_GT(expected_block, 0);
    ASSERT_NE(find("encoder"), nullptr);
    EXPECT_EQ(find("encoder")->events, 2u);
    EXPECT_DOUBLE_EQ(find("encoder")->total_avg, expected_encoder + expected_block);
    ASSERT_NE(find("encoder.block"), nullptr);
    EXPECT_EQ(find("encoder.block")->events, 1u);
    EXPECT_DOUBLE_EQ(find("encoder.block")->total_avg, expected_block);
    ASSERT_NE(find("head"), nullptr);
    EXPECT_EQ(find("head")->events, 1u);
    EXPECT_DOUBLE_EQ(find("head")->total_avg, expected_head);
    // Without the enclosing DELEGATE_CALL, the delegate's own events are the time.
    std::vector<analysis::EventRow> inner_only;
    for (const auto& row : stats.events)
      if (row.name != "DELEGATE_CALL") inner_only.push_back(row);
    const auto inner_totals = analysis::module_totals(inner_only);
    auto block = std::find_if(inner_totals.begin(), inner_totals.end(),
                              [](const auto& t) { return t.module == "encoder.block"; });
    ASSERT_NE(block, inner_totals.end());
    EXPECT_EQ(block->events, 2u);
  }
}

TEST(ProfileJoin, EtrecordWithoutProgram) {
  // Any subset works: ETDump + ETRecord alone resolves ops by instruction for 'forward'.
  Profile p;
  ProfileRun run;
  run.name = "Execute";
  run.profile_events.push_back({"OPERATOR_CALL", 0, 2, -1, "", {}, 0, 10});
  p.runs.push_back(run);
  auto stats = analysis::summarize_profile(p);
  const Document etrecord = cnn_etrecord();
  analysis::JoinSources sources;
  sources.etrecord = &etrecord;
  auto report = analysis::join_profile(stats, sources);
  ASSERT_TRUE(report);
  EXPECT_EQ(report->method, "forward");
  EXPECT_EQ(stats.events[0].join.op_types, std::vector<std::string>{"aten.relu.default"});
  EXPECT_FALSE(stats.events[0].join.delegated.has_value());
}

}  // namespace
}  // namespace etviz

// A real ETRecord archive (written by etviz-gen's ETRecord writer, read by the .etrecord
// reader) joined with the generated program and profile: program + ETDump + ETRecord.
#include "export_model.h"

namespace etviz {
namespace {

TEST(ProfileJoin, AllThreeWithAnEtrecordArchive) {
  gen::ExportModelSpec spec;
  spec.blocks = 1;
  spec.dim = 8;
  spec.hidden = 16;
  spec.debug_handles = true;
  gen::ExportETRecord record;
  record.programs.push_back({"edge_dialect_exported_program", gen::build_export_transformer(spec)});
  record.debug_handle_map_json = R"({"forward": {"0": [1], "1": [2, 3], "2": [4]}})";
  record.delegate_map_json =
      R"({"forward": {"1": {"name": "ExampleNpuBackend", "delegate_map": {"0": [2], "1": [3]}}}})";
  const std::string path = testing::scratch_dir() + "/triple.etrecord";
  ASSERT_EQ(gen::write_etrecord(path, record), "");
  auto etrecord_doc = open_document(path);
  ASSERT_TRUE(etrecord_doc) << etrecord_doc.error().message();
  ASSERT_TRUE(etrecord_doc->etrecord);
  const ETRecordMaps& maps = *etrecord_doc->etrecord;
  EXPECT_EQ(maps.debug_handles.at("forward").at(1), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(maps.delegates.at("forward").at(1).backend, "ExampleNpuBackend");
  // Expected ops and modules, straight from the edge graph's nodes.
  const Graph* edge = etrecord_doc->find_graph("edge_dialect_exported_program");
  ASSERT_NE(edge, nullptr);
  std::map<int64_t, const Node*> by_handle;
  for (const Node& n : edge->nodes)
    for (int64_t h : n.provenance.debug_handles) by_handle[h] = &n;
  for (int64_t h : {1, 2, 3, 4}) {
    ASSERT_TRUE(by_handle.count(h)) << h;
    const NodeRef* ref = maps.node_for("forward", h);
    ASSERT_NE(ref, nullptr) << h;
    EXPECT_EQ(&etrecord_doc->graphs[ref->graph].nodes[ref->node], by_handle[h]);
  }

  auto program = open_document(write_generated_program());
  ASSERT_TRUE(program);
  gen::SyntheticProfileSpec pspec;
  pspec.runs = 3;
  pspec.delegate_events = 2;
  auto synthetic = gen::synthesize_profile(*program, pspec, nullptr);
  ASSERT_TRUE(synthetic);
  auto profile = executorch::read_etdump(gen::write_etdump(*synthetic));
  ASSERT_TRUE(profile);
  auto stats = analysis::summarize_profile(*profile);
  analysis::JoinSources sources;
  sources.program = &*program;
  sources.etrecord = &*etrecord_doc;
  auto report = analysis::join_profile(stats, sources);
  ASSERT_TRUE(report) << report.error().message();
  bool saw_inner = false;
  for (const auto& row : stats.events) {
    if (row.instruction == 1 && row.has_delegate_debug_id()) {
      saw_inner = true;
      const int64_t h = row.delegate_debug_id() == "0" ? 2 : 3;
      EXPECT_EQ(row.join.op_types, std::vector<std::string>{by_handle[h]->op});
      EXPECT_EQ(row.join.debug_handles, std::vector<int64_t>{h});
      EXPECT_EQ(row.join.backend, "ExampleNpuBackend");
    }
    if (row.instruction == 2) {
      EXPECT_EQ(row.join.op_types, std::vector<std::string>{by_handle[4]->op});
      if (!by_handle[4]->provenance.module_path.empty()) {
        EXPECT_EQ(row.join.module_paths,
                  std::vector<std::string>{by_handle[4]->provenance.module_path});
      }
    }
  }
  EXPECT_TRUE(saw_inner);
  // The transformer's nodes sit under layers.0...; module totals see them.
  const auto totals = analysis::module_totals(stats.events);
  EXPECT_FALSE(totals.empty());
}

}  // namespace
}  // namespace etviz
