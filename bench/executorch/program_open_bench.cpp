// Opening a program must cost what its flatbuffer costs, never what its weights cost:
// the same generated program with tiny weights and with a 1 GiB constant segment should
// take about the same time. Also: open + summarise at 1k, 10k and 100k nodes.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <map>
#include <string>

#include "analysis/summary.h"
#include "formats/open_document.h"
#include "transformer_model.h"

namespace {

// Programs are generated once per process into a temporary directory and removed at exit.
class Programs {
 public:
  ~Programs() {
    for (auto& [key, path] : paths_) std::filesystem::remove(path);
  }
  const std::string& get(int blocks, uint64_t pad) {
    const std::string key = std::to_string(blocks) + "_" + std::to_string(pad);
    auto it = paths_.find(key);
    if (it != paths_.end()) return it->second;
    const std::string path = (std::filesystem::temp_directory_path() /
                              ("etviz_bench_" + std::to_string(::getpid()) + "_" + key + ".pte"))
                                 .string();
    etviz::gen::ProgramBuilder builder;
    etviz::gen::TransformerSpec spec;
    spec.blocks = blocks;
    spec.dim = 64;
    spec.hidden = 128;
    spec.vocab = 256;
    etviz::gen::build_transformer(builder, spec);
    etviz::gen::WriteOptions options;
    options.min_constant_segment_bytes = pad;
    std::string error;
    if (!builder.write(path, options, error)) throw std::runtime_error(error);
    return paths_.emplace(key, path).first->second;
  }

 private:
  std::map<std::string, std::string> paths_;
};

Programs& programs() {
  static Programs p;
  return p;
}

void open_and_summarize(benchmark::State& state, const std::string& path) {
  size_t nodes = 0;
  for (auto _ : state) {
    auto doc = etviz::open_document(path);
    if (!doc) {
      state.SkipWithError(doc.error().message().c_str());
      return;
    }
    auto summary = etviz::analysis::summarize(*doc);
    benchmark::DoNotOptimize(summary);
    nodes = doc->graphs.front().nodes.size();
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["file_MiB"] = static_cast<double>(std::filesystem::file_size(path)) / (1 << 20);
}

// 25 blocks (~1.3k nodes) with tiny weights vs the same program with a 1 GiB constant segment.
void BM_Info_TinyWeights(benchmark::State& state) {
  open_and_summarize(state, programs().get(25, 0));
}
void BM_Info_1GiBWeights(benchmark::State& state) {
  open_and_summarize(state, programs().get(25, 1ull << 30));
}
BENCHMARK(BM_Info_TinyWeights)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Info_1GiBWeights)->Unit(benchmark::kMillisecond);

// Scale: ~50 nodes per block (41 kernel calls, 6 constants, alias-free): 500, 5k, 50k, 100k nodes.
void BM_Info_Scale(benchmark::State& state) {
  open_and_summarize(state, programs().get(static_cast<int>(state.range(0)), 0));
}
BENCHMARK(BM_Info_Scale)->Arg(10)->Arg(100)->Arg(1000)->Arg(2000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
