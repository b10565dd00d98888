// The profile overlay's page data (render/html/profile_data.h): the corpus pair (tutorial CNN
// bundled program + the ETDump recorded from it), a hand-built program whose delegate has a
// decoded payload (delegate debug ids -> ops inside it), and hostile event names.
#include "render/html/profile_data.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "analysis/profile_join.h"
#include "analysis/profile_stats.h"
#include "formats/executorch/etdump_reader.h"
#include "formats/open_document.h"
#include "view/view_model.h"

namespace etviz {
namespace {

using nlohmann::json;

const std::string kCorpus = ETVIZ_CORPUS_DIR;
const std::string kEtdump =
    kCorpus + "/etdp/pytorch__executorch__docs__source__tutorials_source__etdump.etdp";
const std::string kBundle =
    kCorpus +
    "/bpte/pytorch__executorch__docs__source__tutorials_source__bundled_program.a59a06e0.bp";

std::vector<view::ViewModel> views_of(const Document& doc) {
  std::vector<view::ViewModel> views;
  const auto cats = analysis::default_category_config();
  for (int32_t g : doc.root_graphs()) views.push_back(view::build_view_model(doc, g, cats));
  return views;
}

struct Overlay {
  analysis::ProfileStats stats;
  json data;
};

Overlay overlay_of(const Document& doc, const Profile& profile, analysis::TimeScale scale = {}) {
  Overlay o;
  o.stats = analysis::summarize_profile(profile);
  analysis::JoinSources sources;
  sources.program = &doc;
  auto join = analysis::join_profile(o.stats, sources);
  EXPECT_TRUE(join) << (join ? "" : join.error().message());
  view::ProfileOverlay overlay;
  overlay.file_name = "run.etdp";
  overlay.stats = &o.stats;
  overlay.method = join ? join->method : "forward";
  overlay.scale = scale;
  const auto views = views_of(doc);
  const std::string text = render::html::profile_data_json(overlay, doc, views);
  EXPECT_EQ(text.find('<'), std::string::npos);
  o.data = json::parse(text);
  return o;
}

TEST(ProfileOverlayData, CorpusConvolutionIsHottest) {
  auto doc = open_document(kBundle);
  ASSERT_TRUE(doc) << doc.error().message();
  auto profile = executorch::read_etdump_file(kEtdump, "");
  ASSERT_TRUE(profile) << profile.error().message();

  // Independently from the raw events: instruction 3's OPERATOR_CALL over Method::execute.
  uint64_t conv = 0, execute = 0;
  for (const auto& run : profile->runs) {
    if (run.name != "Execute") continue;
    for (const auto& e : run.profile_events) {
      if (e.name == "OPERATOR_CALL" && e.instruction == 3) conv += e.end - e.start;
      if (e.name == "Method::execute") execute += e.end - e.start;
    }
  }
  ASSERT_GT(conv, 0u);
  ASSERT_EQ(execute, 1898821u);

  const Overlay o = overlay_of(*doc, *profile);
  const json& d = o.data;
  EXPECT_EQ(d["unit"], "ticks");
  EXPECT_EQ(d["block"], "Execute");
  EXPECT_EQ(d["method"], "forward");
  EXPECT_DOUBLE_EQ(d["executeTotal"].get<double>(), 1898821.0);
  ASSERT_EQ(d["rows"].size(), 28u);
  ASSERT_EQ(d["graphs"].size(), 1u);
  const json& g = d["graphs"][0];
  // 14 instructions, one timed node each (OPERATOR_CALL wins over native_call_<op>).
  ASSERT_EQ(g["node"].size(), 14u);
  size_t hottest = 0;
  for (size_t k = 0; k < g["avg"].size(); ++k) {
    EXPECT_EQ(g["event"][k], "OPERATOR_CALL");
    EXPECT_EQ(g["inside"][k], 0);
    if (g["avg"][k].get<double>() > g["avg"][hottest].get<double>()) hottest = k;
  }
  EXPECT_DOUBLE_EQ(g["avg"][hottest].get<double>(), static_cast<double>(conv));
  EXPECT_NEAR(g["share"][hottest].get<double>(), static_cast<double>(conv) / execute, 1e-12);
  EXPECT_NEAR(g["share"][hottest].get<double>(), 0.544, 0.0005);

  // The view node is the second convolution, instruction 3.
  const auto views = views_of(*doc);
  const auto& vn = views[g["graph"].get<size_t>()].nodes[g["node"][hottest].get<size_t>()];
  const Node& node = doc->graphs[static_cast<size_t>(vn.graph)].nodes[static_cast<size_t>(vn.node)];
  EXPECT_EQ(node.provenance.instruction, 3);
  EXPECT_NE(node.op.find("convolution"), std::string::npos);

  // Rows keep the statistics' order (total time): the top row is that node, and the node's
  // figures name it.
  const json& top = d["rows"][0];
  EXPECT_EQ(top["name"], "OPERATOR_CALL");
  EXPECT_EQ(top["instr"], 3);
  EXPECT_EQ(top["nodes"], json::array({g["node"][hottest]}));
  EXPECT_EQ(g["row"][hottest], 0);
  // Method-level events of the block.
  ASSERT_EQ(d["methodEvents"].size(), 1u);
  EXPECT_EQ(d["methodEvents"][0]["name"], "Method::execute");
}

TEST(ProfileOverlayData, CorpusInMicroseconds) {
  auto doc = open_document(kBundle);
  ASSERT_TRUE(doc);
  auto profile = executorch::read_etdump_file(kEtdump, "");
  ASSERT_TRUE(profile);
  auto scale = analysis::make_time_scale(analysis::TimeUnit::kNanoseconds,
                                         analysis::TimeUnit::kMicroseconds);
  ASSERT_TRUE(scale);
  const Overlay o = overlay_of(*doc, *profile, *scale);
  EXPECT_EQ(o.data["unit"], "us");
  EXPECT_NEAR(o.data["executeTotal"].get<double>(), 1898.821, 1e-9);
  EXPECT_NEAR(o.data["rows"][0]["share"].get<double>(), 0.544, 0.0005);  // shares keep
}

// forward: input -> delegate call (instruction 0) -> output; the delegate's decoded payload
// has three ops whose debug handles are 5, 6 and 7, and one named "op_x".
Document delegate_document() {
  Document doc;
  doc.format = DocumentFormat::kExecuTorchProgram;
  Graph fwd;
  fwd.name = "forward";
  fwd.kind = GraphKind::kMethod;
  Value v;
  v.name = "x";
  const ValueId x = fwd.add_value(v);
  v.name = "y";
  const ValueId y = fwd.add_value(v);
  Node in;
  in.name = "x";
  in.op = "input";
  in.kind = NodeKind::kInput;
  in.outputs = {{"", x}};
  fwd.add_node(in);
  Node call;
  call.name = "delegate_0";
  call.op = "XnnpackBackend";
  call.kind = NodeKind::kDelegate;
  call.delegate = 0;
  call.subgraph = 1;  // the decoded payload (decode_delegates sets it on every call)
  call.provenance.chain = 0;
  call.provenance.instruction = 0;
  call.inputs = {{"", x}};
  call.outputs = {{"", y}};
  fwd.add_node(call);
  Node out;
  out.name = "y";
  out.op = "output";
  out.kind = NodeKind::kOutput;
  out.inputs = {{"", y}};
  fwd.add_node(out);
  fwd.inputs = {x};
  fwd.outputs = {y};
  fwd.link_values();
  doc.graphs.push_back(std::move(fwd));

  Graph payload;
  payload.name = "forward/delegate 0 (XnnpackBackend)";
  payload.kind = GraphKind::kDelegate;
  ValueId prev = payload.add_value(Value{});
  for (int k = 0; k < 4; ++k) {
    Node n;
    n.op = k == 3 ? "XNNStaticTranspose" : "XNNFullyConnected";
    n.name = k == 3 ? "op_x" : "fc_" + std::to_string(k);
    n.kind = NodeKind::kKernel;
    n.provenance.instruction = k;
    if (k < 3) n.provenance.debug_handles = {5 + k};
    const ValueId next = payload.add_value(Value{});
    n.inputs = {{"", prev}};
    n.outputs = {{"", next}};
    payload.add_node(std::move(n));
    prev = next;
  }
  payload.link_values();
  doc.graphs.push_back(std::move(payload));
  Delegate del;
  del.backend_id = "XnnpackBackend";
  del.method = "forward";
  del.index_in_method = 0;
  del.subgraph = 1;
  doc.delegates.push_back(del);
  return doc;
}

ProfileEvent event(std::string name, int32_t instruction, uint64_t start, uint64_t end,
                   int32_t id_int = -1, std::string id_str = "") {
  ProfileEvent e;
  e.name = std::move(name);
  e.chain = instruction < 0 ? -1 : 0;
  e.instruction = instruction < 0 ? 0 : instruction;
  e.delegate_debug_id_int = id_int;
  e.delegate_debug_id_str = std::move(id_str);
  e.start = start;
  e.end = end;
  return e;
}

TEST(ProfileOverlayData, DelegateDebugIdsLandOnDecodedOps) {
  const Document doc = delegate_document();
  Profile profile;
  ProfileRun run;
  run.name = "Execute";
  run.profile_events = {
      event("fc_6", 0, 10, 50, 6),                // 40 ticks on the op with handle 6
      event("transpose", 0, 50, 60, -1, "op_x"),  // 10 ticks on the op named op_x
      event("mystery", 0, 60, 65, 99),            // 5 ticks, matches no op
      event("DELEGATE_CALL", 0, 5, 105),          // 100 ticks on the delegate node
      event("Method::execute", -1, 0, 200),
  };
  profile.runs.push_back(run);
  const Overlay o = overlay_of(doc, profile);
  const json& d = o.data;
  ASSERT_EQ(d["graphs"].size(), 1u);
  const json& g = d["graphs"][0];
  const auto views = views_of(doc);
  const auto& view = views[g["graph"].get<size_t>()];
  std::map<std::string, size_t> timed;  // node name -> index in the figure arrays
  for (size_t k = 0; k < g["node"].size(); ++k) {
    const auto& vn = view.nodes[g["node"][k].get<size_t>()];
    timed[doc.graphs[static_cast<size_t>(vn.graph)].nodes[static_cast<size_t>(vn.node)].name] = k;
  }
  ASSERT_EQ(timed.size(), 3u) << d.dump();
  ASSERT_TRUE(timed.count("delegate_0"));
  ASSERT_TRUE(timed.count("fc_1"));  // handle 6
  ASSERT_TRUE(timed.count("op_x"));
  const size_t del = timed["delegate_0"], fc = timed["fc_1"], tr = timed["op_x"];
  EXPECT_EQ(g["event"][del], "DELEGATE_CALL");
  EXPECT_DOUBLE_EQ(g["share"][del].get<double>(), 0.5);
  EXPECT_EQ(g["inside"][del], 0);
  EXPECT_EQ(g["event"][fc], "fc_6");
  EXPECT_DOUBLE_EQ(g["avg"][fc].get<double>(), 40.0);
  EXPECT_DOUBLE_EQ(g["share"][fc].get<double>(), 0.2);
  EXPECT_EQ(g["inside"][fc], 1);
  EXPECT_DOUBLE_EQ(g["avg"][tr].get<double>(), 10.0);
  EXPECT_EQ(g["inside"][tr], 1);
  // The row of the unmatched id is listed without a node.
  bool found = false;
  for (const json& r : d["rows"])
    if (r["name"] == "mystery") {
      found = true;
      EXPECT_EQ(r["did"], "99");
      EXPECT_EQ(r["graph"], -1);
      EXPECT_TRUE(r["nodes"].empty());
      EXPECT_EQ(r["inside"], false);
    }
  EXPECT_TRUE(found);
}

TEST(ProfileOverlayData, HostileNamesAreEscaped) {
  const Document doc = delegate_document();
  Profile profile;
  ProfileRun run;
  run.name = "Execute";
  run.profile_events = {event("</script><img src=x onerror=alert(1)>\xE2\x80\xA8\xFF", 0, 0, 9),
                        event("Method::execute", -1, 0, 10)};
  profile.runs.push_back(run);
  profile.warnings.push_back("<b>&");
  const Overlay o = overlay_of(doc, profile);  // checks: no '<' in the text, parses
  const std::string name = o.data["rows"][0]["name"];
  EXPECT_EQ(name.rfind("</script><img src=x onerror=alert(1)>\xE2\x80\xA8", 0), 0u);
  EXPECT_EQ(name.substr(name.size() - 3), "\xEF\xBF\xBD");  // invalid byte -> U+FFFD
}

}  // namespace
}  // namespace etviz

// Regression: a generated program with four XNNPACK delegates and a synthesized ETDump: the
// events inside every delegate (not only delegate #0) land on the decoded ops, as the ids a
// real XNNPACK delegate logs are its ops' debug handles.
#include "etdump_writer.h"
#include "transformer_model.h"

namespace etviz {
namespace {

TEST(ProfileOverlayData, EveryDelegatesInnerEventsLandOnItsOps) {
  gen::ProgramBuilder builder;
  gen::TransformerSpec spec;
  spec.blocks = 4;
  spec.delegates = true;
  spec.delegate_backend = "xnnpack";
  gen::build_transformer(builder, spec);
  const std::string path = std::string(ETVIZ_BINARY_DIR) + "/profile_overlay_four_xnnpack.pte";
  std::string error;
  ASSERT_TRUE(builder.write(path, {}, error)) << error;
  auto doc = open_document(path);
  ASSERT_TRUE(doc) << doc.error().message();
  ASSERT_EQ(doc->delegates.size(), 4u);
  gen::SyntheticProfileSpec pspec;
  pspec.runs = 2;
  pspec.delegate_events = 3;
  auto profile = gen::synthesize_profile(*doc, pspec, nullptr);
  ASSERT_TRUE(profile) << profile.error().message();
  const Overlay o = overlay_of(*doc, *profile);
  std::map<int64_t, int> landed_per_instruction;
  int inner = 0;
  for (const json& row : o.data["rows"]) {
    if (!row.contains("did")) continue;
    ++inner;
    EXPECT_EQ(row["graph"], 0) << row.dump();
    EXPECT_EQ(row["nodes"].size(), 1u) << row.dump();
    if (!row["nodes"].empty()) ++landed_per_instruction[row["instr"].get<int64_t>()];
  }
  EXPECT_EQ(inner, 4 * 3);
  ASSERT_EQ(landed_per_instruction.size(), 4u);  // every delegate call, not only the first
  for (const auto& [instruction, count] : landed_per_instruction)
    EXPECT_EQ(count, 3) << instruction;
}

}  // namespace
}  // namespace etviz
