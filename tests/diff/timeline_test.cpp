// Timelines (analysis/timeline.h): a generated pass trace with known edits stepped through,
// the union graph's properties, the page data the viewer steps with, and `etviz trace`.
#include "analysis/timeline.h"

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "analysis/categories.h"
#include "cli_run.h"
#include "export_model.h"
#include "export_writer.h"
#include "render/html/html_page.h"
#include "render/html/timeline_data.h"
#include "test_support.h"
#include "trace_model.h"
#include "view/view_model.h"

namespace etviz {
namespace {

const char* kDnfDelegated = "pte/berndporr__dnf_executorch__dnf.47145c4a.pte";
const char* kDnfPortable = "pte/berndporr__dnf_executorch__dnf.d1aa57fe.pte";
const char* kLinearPt2 =
    "pt2/pytorch__executorch__extension__pt2_archive__test__linear.6f89131a.pt2";

gen::ExportModelSpec small_spec(int blocks) {
  gen::ExportModelSpec spec;
  spec.blocks = blocks;
  spec.dim = 16;
  spec.hidden = 32;
  spec.symbolic_seq = false;
  return spec;
}

std::string write_trace(int blocks, std::vector<gen::TraceEdits>* edits) {
  const std::string path = test::scratch_dir("diff") + "/trace_" + std::to_string(blocks) + ".json";
  std::ofstream(path) << gen::write_pass_trace_json(
      gen::build_pass_trace(small_spec(blocks), edits));
  return path;
}

// The page data element `id` of a page, parsed.
nlohmann::json page_element(const std::string& page, const std::string& id) {
  const std::string open = "id=\"" + id + "\">";
  const auto start = page.find(open);
  if (start == std::string::npos) return nullptr;
  const auto end = page.find("</script>", start);
  return nlohmann::json::parse(page.substr(start + open.size(), end - start - open.size()));
}

TEST(Timeline, StepsThroughAGeneratedTraceWithKnownEdits) {
  std::vector<gen::TraceEdits> edits;
  Document doc = test::load(write_trace(3, &edits));
  const std::vector<int32_t> steps = analysis::pipeline_graphs(doc);
  ASSERT_EQ(steps.size(), 6u);
  const analysis::Timeline t = analysis::build_timeline(doc, steps);
  ASSERT_EQ(t.steps.size(), 6u);
  // Each pass's diff against the pass before it with a graph is exactly what it edited:
  // 21 linears decomposed (3 blocks x 7), 3 silu+mul fused, every float32 output halved.
  EXPECT_EQ(edits[1].added, 21);
  EXPECT_EQ(edits[2].removed, 3);
  for (size_t k = 1; k < 6; ++k) {
    const analysis::GraphDiff& d = t.steps[k].diff;
    EXPECT_EQ(d.added, edits[k].added) << "step " << k;
    EXPECT_EQ(d.removed, edits[k].removed) << "step " << k;
    EXPECT_EQ(d.changed, edits[k].changed) << "step " << k;
  }
  // The failed pass: its error, no graph; the pass after it is compared with pass 4.
  EXPECT_NE(t.steps[4].error.find("expected a 4-D input"), std::string::npos);
  EXPECT_EQ(t.steps[4].base, 3);
  EXPECT_EQ(t.steps[5].base, 3);
  EXPECT_EQ(t.steps[5].diff.same, static_cast<int64_t>(doc.graphs[steps[5]].nodes.size()));
}

TEST(Timeline, TheUnionHoldsEveryStepExactly) {
  Document doc = test::load(write_trace(2, nullptr));
  const std::vector<int32_t> steps = analysis::pipeline_graphs(doc);
  const analysis::Timeline t = analysis::build_timeline(doc, steps);
  const Graph& m = t.merged;
  std::vector<int> held(m.nodes.size(), 0);
  for (size_t s = 0; s < t.steps.size(); ++s) {
    const Graph& g = doc.graphs[static_cast<size_t>(steps[s])];
    // One union node per node of the step, none twice.
    std::set<NodeId> members;
    std::vector<NodeId> union_of(g.nodes.size(), kNoId);
    for (size_t u = 0; u < m.nodes.size(); ++u)
      if (t.steps[s].member[u] != kNoId) {
        ++held[u];
        EXPECT_TRUE(members.insert(t.steps[s].member[u]).second);
        union_of[static_cast<size_t>(t.steps[s].member[u])] = static_cast<NodeId>(u);
      }
    EXPECT_EQ(members.size(), g.nodes.size()) << "step " << s;
    // Every edge of the step is an edge of the union that the step reads.
    for (size_t i = 0; i < g.nodes.size(); ++i)
      for (const Argument& a : g.nodes[i].inputs) {
        const NodeId p = g.values[static_cast<size_t>(a.value)].producer;
        if (p == kNoId) continue;
        const NodeId up = union_of[static_cast<size_t>(p)], uc = union_of[i];
        bool found = false;
        for (const Argument& ua : m.nodes[static_cast<size_t>(uc)].inputs)
          if (m.values[static_cast<size_t>(ua.value)].producer == up && t.reads(s, uc, ua.value))
            found = true;
        EXPECT_TRUE(found) << "step " << s << ": " << g.nodes[p].name << " -> " << g.nodes[i].name;
      }
  }
  // No union node is held by no step; a node that lives through the passes is one node.
  for (size_t u = 0; u < m.nodes.size(); ++u) EXPECT_GT(held[u], 0) << m.nodes[u].name;
  const size_t first = doc.graphs[steps[0]].nodes.size();
  EXPECT_EQ(m.nodes.size(), first + 14);  // the 14 permutes of pass 2 are all that was added
}

TEST(Timeline, PageDataListsWhatEachStepHidesAndChanged) {
  std::vector<gen::TraceEdits> edits;
  const std::string path = write_trace(2, &edits);
  Document doc = test::load(path);
  const std::vector<int32_t> steps = analysis::pipeline_graphs(doc);
  render::html::PageOptions options;
  options.file_name = "trace.json";
  auto page = render::html::write_timeline_page(doc, steps, options);
  ASSERT_TRUE(page) << page.error().message();
  const auto data = page_element(*page, "etviz-timeline");
  ASSERT_TRUE(data.is_object());
  ASSERT_EQ(data["steps"].size(), 6u);
  const Graph& merged = doc.graphs.back();
  for (size_t k = 0; k < 6; ++k) {
    const auto& s = data["steps"][k];
    const size_t nodes = doc.graphs[steps[k]].nodes.size();
    EXPECT_EQ(s["nodes"], nodes);
    // A trace has no inlined subgraphs: the view holds the union's nodes, the step the rest.
    EXPECT_EQ(s["absent"].size(), merged.nodes.size() - nodes) << k;
    if (k == 0) continue;
    EXPECT_EQ(s["added"].size(), static_cast<size_t>(edits[k].added)) << k;
    EXPECT_EQ(s["removed"].size(), static_cast<size_t>(edits[k].removed)) << k;
    EXPECT_EQ(s["changed"].size(), static_cast<size_t>(edits[k].changed)) << k;
    EXPECT_EQ(s["changes"].size(), static_cast<size_t>(edits[k].changed)) << k;
  }
  EXPECT_EQ(data["steps"][4]["error"].get<std::string>().find("TagChannelsLastPass"), 0u);
  // Pass 2 relabels the linears it made addmm; pass 1 still says linear.
  bool relabelled = false;
  for (const auto& [node, label] : data["steps"][0]["labels"].items())
    relabelled |= label == "linear";
  EXPECT_TRUE(relabelled);
}

// The page data of a timeline over `steps` of `doc` as write_timeline_page makes it, with the
// view it refers to (the union graph appended to `doc`, as the page does).
struct TimelinePage {
  analysis::Timeline timeline;
  etviz::view::ViewModel view;
  nlohmann::json data;
};
TimelinePage timeline_page(Document& doc, const std::vector<int32_t>& steps) {
  TimelinePage p;
  p.timeline = analysis::build_timeline(doc, steps);
  doc.graphs.push_back(p.timeline.merged);
  const auto merged = static_cast<int32_t>(doc.graphs.size() - 1);
  p.view = view::build_view_model(doc, merged, analysis::default_category_config());
  p.data =
      nlohmann::json::parse(render::html::timeline_data_json(p.timeline, doc, merged, p.view, 0));
  return p;
}

TEST(Timeline, EachStepKeepsItsOwnValues) {
  std::vector<gen::TraceEdits> edits;
  Document doc = test::load(write_trace(2, &edits));
  const std::vector<int32_t> steps = analysis::pipeline_graphs(doc);
  const analysis::Timeline t = analysis::build_timeline(doc, steps);
  const Graph& m = t.merged;
  for (size_t s = 0; s < t.steps.size(); ++s) {
    const Graph& g = doc.graphs[static_cast<size_t>(steps[s])];
    ASSERT_EQ(t.steps[s].values.size(), g.values.size()) << s;
    // Each output of a step's node stands for its union node's output of the same slot.
    for (size_t u = 0; u < m.nodes.size(); ++u) {
      const NodeId i = t.steps[s].member[u];
      if (i == kNoId) continue;
      const Node& n = g.nodes[static_cast<size_t>(i)];
      for (size_t k = 0; k < n.outputs.size(); ++k) {
        const ValueId uv = t.steps[s].values[static_cast<size_t>(n.outputs[k].value)];
        ASSERT_NE(uv, kNoId) << s << " " << n.name;
        ASSERT_LT(k, m.nodes[u].outputs.size());
        EXPECT_EQ(m.nodes[u].outputs[k].value, uv) << s << " " << n.name;
      }
    }
  }
  // The precision pass (step 4) made float16 of edits[3].changed float32 outputs: the values
  // steps 3 and 4 share through the union differ exactly there, float32 before, float16 after,
  // and the union's copy says what the last step says.
  const Graph& before = doc.graphs[static_cast<size_t>(steps[2])];
  const Graph& after = doc.graphs[static_cast<size_t>(steps[3])];
  std::map<ValueId, const Value*> before_of;
  for (size_t v = 0; v < before.values.size(); ++v)
    if (t.steps[2].values[v] != kNoId) before_of[t.steps[2].values[v]] = &before.values[v];
  int halved = 0, shared = 0;
  for (size_t v = 0; v < after.values.size(); ++v) {
    const ValueId uv = t.steps[3].values[v];
    const auto it = before_of.find(uv);
    if (it == before_of.end()) continue;
    ++shared;
    if (it->second->tensor.dtype == after.values[v].tensor.dtype) continue;
    ++halved;
    EXPECT_EQ(it->second->tensor.dtype, "float32");
    EXPECT_EQ(after.values[v].tensor.dtype, "float16");
    EXPECT_EQ(m.values[static_cast<size_t>(uv)].tensor.dtype, "float16");
  }
  EXPECT_EQ(halved, edits[3].changed);
  EXPECT_EQ(shared, static_cast<int>(after.values.size()));  // the pass only changed dtypes
}

TEST(Timeline, PageDataCarriesEachStepsOwnDataWhereItDiffers) {
  std::vector<gen::TraceEdits> edits;
  Document doc = test::load(write_trace(2, &edits));
  const std::vector<int32_t> steps = analysis::pipeline_graphs(doc);
  const TimelinePage p = timeline_page(doc, steps);
  const Graph& m = p.timeline.merged;
  const auto& data = p.data;
  const auto& facts = data["valueFacts"];
  ASSERT_EQ(data["steps"].size(), 6u);
  // Union value of a view value, union node of a view node (the view's root graph is the union).
  auto union_value = [&](int64_t v) { return static_cast<ValueId>(v - p.view.value_base[0]); };
  auto union_node = [&](const std::string& k) {
    return p.view.nodes[static_cast<size_t>(std::stoi(k))].node;
  };
  // Passes 4 and 6 say what the union says (the last pass; pass 4 is the same graph) and the
  // failed pass has no graph: nothing of theirs differs.
  for (size_t k : {3u, 4u, 5u}) {
    EXPECT_TRUE(data["steps"][k]["values"].empty()) << k;
    EXPECT_TRUE(data["steps"][k]["nodeFacts"].empty()) << k;
  }
  // Pass 3, before the precision pass: float32 exactly where pass 4 made float16, which are the
  // outputs of the nodes pass 4 lists as changed.
  std::set<ValueId> halved;
  for (const auto& k : data["steps"][3]["changed"])
    for (const Argument& out :
         m.nodes[static_cast<size_t>(p.view.nodes[k.get<size_t>()].node)].outputs)
      halved.insert(out.value);
  EXPECT_EQ(halved.size(), static_cast<size_t>(edits[3].changed));
  std::set<ValueId> pass3;
  for (const auto& [f, list] : data["steps"][2]["values"].items()) {
    // The dtype alone differs (the trace states no sizes).
    EXPECT_EQ(facts[std::stoul(f)], nlohmann::json({{"dtype", "float32"}}));
    for (const auto& v : list) pass3.insert(union_value(v.get<int64_t>()));
  }
  EXPECT_EQ(pass3, halved);
  for (ValueId uv : halved) EXPECT_EQ(m.values[static_cast<size_t>(uv)].tensor.dtype, "float16");
  // The first pass: float32 wherever it differs, and its linears are linears reading their
  // weights (pass 2 made them addmm reading a new permute): 14 of them in 2 blocks.
  const auto& pass1 = data["steps"][0];
  EXPECT_FALSE(pass1["values"].empty());
  for (const auto& [f, list] : pass1["values"].items())
    EXPECT_EQ(facts[std::stoul(f)]["dtype"], "float32");
  int linears = 0;
  for (const auto& [k, f] : pass1["nodeFacts"].items()) {
    if (f.value("op", "") != "aten::linear") continue;
    ++linears;
    EXPECT_EQ(m.nodes[static_cast<size_t>(union_node(k))].op, "aten::addmm");
    ASSERT_TRUE(f.contains("inputs")) << k;
    for (const auto& arg : f["inputs"]) {
      const ValueId uv = union_value(arg[1].get<int64_t>());
      const NodeId producer = m.values[static_cast<size_t>(uv)].producer;
      ASSERT_NE(producer, kNoId);
      EXPECT_NE(m.nodes[static_cast<size_t>(producer)].op, "aten::permute_copy");
    }
  }
  EXPECT_EQ(linears, edits[1].changed);
  EXPECT_EQ(linears, 14);
  // Once decomposed, the addmm is the union's op: pass 2 lists no op of its own for them.
  for (const auto& [k, f] : data["steps"][1]["nodeFacts"].items())
    EXPECT_NE(f.value("op", ""), "aten::linear") << k;
}

// A snapshot of x -> view(x, size) -> output whose size is an IntList boxing two Int values,
// as a program's lists are (Value::elements, values without a producer).
Graph view_snapshot(const std::string& name, const std::string& d0, const std::string& d1) {
  Graph g;
  g.name = name;
  g.stage.role = StageRole::kPass;
  Value x;
  x.name = "x";
  x.tensor.dtype = "float32";
  x.tensor.shape = parse_shape_string("[4]");
  g.add_value(std::move(x));
  Value size;
  size.kind = ValueKind::kIntList;
  size.literal = "[" + d0 + ", " + d1 + "]";
  size.elements = {2, 3};
  g.add_value(std::move(size));
  for (const std::string& d : {d0, d1}) {
    Value item;
    item.kind = ValueKind::kInt;
    item.literal = d;
    g.add_value(std::move(item));
  }
  Value y;
  y.name = "y";
  y.tensor.dtype = "float32";
  y.tensor.shape = parse_shape_string("[" + d0 + ", " + d1 + "]");
  g.add_value(std::move(y));
  auto node = [&](const char* id, const char* op, NodeKind kind, std::vector<Argument> inputs,
                  std::vector<Argument> outputs) {
    Node n;
    n.name = id;
    n.op = op;
    n.kind = kind;
    n.inputs = std::move(inputs);
    n.outputs = std::move(outputs);
    g.add_node(std::move(n));
  };
  node("x", "input", NodeKind::kInput, {}, {{"x", 0}});
  node("view", "aten::view_copy", NodeKind::kKernel, {{"self", 0}, {"size", 1}}, {{"out", 4}});
  node("output", "output", NodeKind::kOutput, {{"", 4}}, {});
  g.link_values();
  return g;
}

TEST(Timeline, ListsOfUnproducedValuesAreLiteralsOfTheirStep) {
  Document doc;
  doc.graphs.push_back(view_snapshot("1_before", "2", "2"));
  doc.graphs.push_back(view_snapshot("2_after", "1", "4"));
  EXPECT_TRUE(analysis::is_literal(doc.graphs[0], 1));   // the list
  EXPECT_TRUE(analysis::is_literal(doc.graphs[0], 2));   // an item
  EXPECT_FALSE(analysis::is_literal(doc.graphs[0], 0));  // x has a producer
  const TimelinePage p = timeline_page(doc, {0, 1});
  const Graph& m = p.timeline.merged;
  ASSERT_EQ(m.nodes.size(), 3u);
  const Node& view = m.nodes[1];
  ASSERT_EQ(view.name, "view");
  // The union node's arguments are the last step's: self and its own size, not the first
  // step's list as a third argument.
  ASSERT_EQ(view.inputs.size(), 2u);
  EXPECT_EQ(m.values[static_cast<size_t>(view.inputs[1].value)].literal, "[1, 4]");
  // The page: the first step's view reads its own list; the second step's is the union's.
  std::string view_key;
  for (size_t k = 0; k < p.view.nodes.size(); ++k)
    if (p.view.nodes[k].node == 1) view_key = std::to_string(k);
  const auto& first = p.data["steps"][0]["nodeFacts"];
  ASSERT_TRUE(first.contains(view_key)) << first.dump();
  const auto& inputs = first[view_key]["inputs"];
  ASSERT_EQ(inputs.size(), 2u);
  EXPECT_EQ(inputs[1][0], "size");
  const auto size = static_cast<size_t>(inputs[1][1].get<int64_t>() - p.view.value_base[0]);
  EXPECT_EQ(m.values[size].literal, "[2, 2]");
  EXPECT_FALSE(p.data["steps"][1]["nodeFacts"].contains(view_key));
  // And the tensor view makes is [2, 2] in the first step, [1, 4] (the union's) in the second.
  const auto& values = p.data["steps"][0]["values"];
  ASSERT_EQ(values.size(), 1u);
  const auto group = values.begin();
  ASSERT_EQ(group.value().size(), 1u);
  EXPECT_EQ(group.value()[0].get<int64_t>() - p.view.value_base[0], view.outputs[0].value);
  EXPECT_EQ(p.data["valueFacts"][std::stoul(group.key())]["shape"], "[2, 2]");
  EXPECT_TRUE(p.data["steps"][1]["values"].empty());
}

TEST(Timeline, DiffPageOfTwoProgramsCountsAsTheReport) {
  const std::string out = test::scratch_dir("diff") + "/dnf.html";
  const auto ok = test::run_etviz("diff " + test::corpus(kDnfDelegated) + " " +
                                  test::corpus(kDnfPortable) + " -o " + out);
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  std::ifstream in(out);
  const std::string page((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const auto data = page_element(page, "etviz-timeline");
  ASSERT_TRUE(data.is_object());
  ASSERT_EQ(data["steps"].size(), 2u);
  const Document a = test::load(test::corpus(kDnfDelegated));
  const Document b = test::load(test::corpus(kDnfPortable));
  const auto d = analysis::diff_graphs(a, a.graphs[*analysis::select_graph(a, "")], b,
                                       b.graphs[*analysis::select_graph(b, "")]);
  const auto& counts = data["steps"][1]["counts"];
  EXPECT_EQ(counts["added"], d.added);
  EXPECT_EQ(counts["removed"], d.removed);
  EXPECT_EQ(counts["changed"], d.changed);
  EXPECT_EQ(counts["same"], d.same);
  EXPECT_EQ(data["steps"][1]["nodes"], b.graphs[*analysis::select_graph(b, "")].nodes.size());
}

TEST(Timeline, TraceCommandWritesATraceThatReadsBack) {
  const std::string dir = test::scratch_dir("diff");
  const std::string one = dir + "/one_block.pt2";
  const std::string two = dir + "/two_blocks.pt2";
  ASSERT_EQ(gen::write_pt2(one, {{"model", gen::build_export_transformer(small_spec(1))}}, true),
            "");
  ASSERT_EQ(gen::write_pt2(two, {{"model", gen::build_export_transformer(small_spec(2))}}, true),
            "");
  const std::string trace = dir + "/snapshots.json";
  const auto r = test::run_etviz("trace " + one + " " + two + " -o " + trace);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Document doc = test::load(trace);
  EXPECT_EQ(doc.format, DocumentFormat::kTrace);
  const auto steps = analysis::pipeline_graphs(doc);
  ASSERT_EQ(steps.size(), 2u);
  EXPECT_EQ(doc.graphs[steps[0]].nodes.size(), test::load(one).graphs[0].nodes.size());
  EXPECT_EQ(doc.graphs[steps[1]].nodes.size(), test::load(two).graphs[0].nodes.size());
  // Paths are relative to the trace, so the trace and its snapshots move together.
  std::ifstream in(trace);
  const auto j = nlohmann::json::parse(in);
  EXPECT_EQ(j["format"], "etviz.trace/1");
  EXPECT_EQ(j["passes"][1]["file"], "two_blocks.pt2");
  // A snapshot that does not open fails the command, naming it; -o is required.
  const auto bad = test::run_etviz("trace " + two + " " + dir + "/missing.pt2 -o " + trace);
  EXPECT_EQ(bad.exit_code, 1);
  EXPECT_NE(bad.err.find("missing.pt2"), std::string::npos);
  EXPECT_NE(test::run_etviz("trace " + two + " " + two).exit_code, 0);
  // A snapshot outside the trace's folder: the reader would refuse it, so the writer does.
  const auto outside =
      test::run_etviz("trace " + test::corpus(kLinearPt2) + " " + two + " -o " + trace);
  EXPECT_EQ(outside.exit_code, 1);
  EXPECT_NE(outside.err.find("outside the trace's folder"), std::string::npos) << outside.err;
}

TEST(Timeline, TheExampleTraceIsWhatTheGeneratorWrites) {
  // tests/data/transformer_2blocks.trace.json: `etviz-gen trace --blocks 2 --dim 16 --hidden 32`.
  std::ifstream in(std::string(ETVIZ_SOURCE_DIR) + "/tests/data/transformer_2blocks.trace.json");
  const std::string file((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(file, gen::write_pass_trace_json(gen::build_pass_trace(small_spec(2))));
}

}  // namespace
}  // namespace etviz
