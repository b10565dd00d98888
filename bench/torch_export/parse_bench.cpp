// Parse throughput of exported-program JSON (target: >= 200 MB/s on the CI machine).
// The input is a generated transformer with ~100k nodes in the real JSON layout, with
// nn_module_stack and stack traces on every node. Reports bytes/s (MB/s) per stage:
//   JsonTree/...          tokenising into the flat tree only
//   ExportedProgram/...   the whole reader: tree + IR graph, groups, provenance
#include <benchmark/benchmark.h>

#include <memory>

#include "export_model.h"
#include "formats/json/json_tree.h"
#include "formats/torch_export/exported_program_reader.h"

namespace {

const std::string& program_json() {
  static const std::string json = [] {
    etviz::gen::ExportModelSpec spec;
    spec.blocks = 2440;  // 41 nodes per block -> 100,040 nodes
    spec.dim = 512;
    spec.hidden = 1536;
    spec.debug_handles = true;
    return etviz::gen::write_exported_program_json(etviz::gen::build_export_transformer(spec));
  }();
  return json;
}

void JsonTreeParse(benchmark::State& state) {
  const std::string& json = program_json();
  for (auto _ : state) {
    auto tree = etviz::JsonTree::parse(json);
    if (!tree) state.SkipWithError(tree.error().message().c_str());
    benchmark::DoNotOptimize(tree);
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(json.size()));
  state.counters["json_MB"] = static_cast<double>(json.size()) / 1e6;
  auto tree = etviz::JsonTree::parse(json);
  state.counters["json_values"] = tree ? static_cast<double>(tree->node_count()) : 0.0;
}
BENCHMARK(JsonTreeParse)->Unit(benchmark::kMillisecond)->UseRealTime();

void ExportedProgramRead(benchmark::State& state) {
  const std::string& json = program_json();
  int64_t nodes = 0;
  for (auto _ : state) {
    auto doc = std::make_unique<etviz::Document>();
    auto r = etviz::torch_export::read_exported_program(json, *doc);
    if (!r) state.SkipWithError(r.error().message().c_str());
    nodes = static_cast<int64_t>(doc->graphs[0].nodes.size());
    benchmark::DoNotOptimize(doc);
    // Freeing the finished IR is not parsing; it is timed apart (DocumentFree).
    state.PauseTiming();
    doc.reset();
    state.ResumeTiming();
  }
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) *
                          static_cast<int64_t>(json.size()));
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["json_MB"] = static_cast<double>(json.size()) / 1e6;
}
BENCHMARK(ExportedProgramRead)->Unit(benchmark::kMillisecond)->UseRealTime();

void DocumentFree(benchmark::State& state) {
  const std::string& json = program_json();
  for (auto _ : state) {
    state.PauseTiming();
    auto doc = std::make_unique<etviz::Document>();
    (void)etviz::torch_export::read_exported_program(json, *doc);
    state.ResumeTiming();
    doc.reset();
  }
}
BENCHMARK(DocumentFree)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace

BENCHMARK_MAIN();
