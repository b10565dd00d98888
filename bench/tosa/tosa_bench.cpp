// TOSA graphs (issue 43, "Speed"): the 3.8 MB corpus TOSA file opens in under 50 ms; a page with
// eleven attached TOSA files is written within 1.5x the time of the same page without them.
// In-process: reading, attaching, the view model, layouts and the page data, no process start.
// bench/tosa/run.sh runs this and the CLI end to end and reports the ratios.
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "ethosu_command.h"
#include "formats/open_document.h"
#include "session/view_session.h"

namespace {

const std::string kFixture =
    "arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__"
    "mobilenet_v2_ethosu__";

std::string corpus(const std::string& rel) {
  const char* env = std::getenv("ETVIZ_CORPUS_DIR");
  return std::string(env ? env : ETVIZ_CORPUS_DIR) + "/" + rel;
}
std::string corpus_tosa() {
  return corpus("tosa/" + kFixture + "output_tag1_TOSA-1.0+INT+int16+u55.tosa");
}

// A program fragmented into eleven Ethos-U partitions with their TOSA files, written once.
struct Eleven {
  Eleven() {
    dir = (std::filesystem::temp_directory_path() /
           ("etviz_bench_tosa_" + std::to_string(::getpid())))
              .string();
    etviz::gen::EthosuSpec spec;  // 11 partitions of 6 layers
    std::string error;
    files = etviz::gen::write_ethosu_program(dir, spec, error);
    if (files.empty()) throw std::runtime_error(error);
  }
  ~Eleven() { std::filesystem::remove_all(dir); }
  std::string dir;
  std::vector<std::string> files;  // program first
};
Eleven& eleven() {
  static Eleven e;
  return e;
}

void BM_OpenCorpusTosa(benchmark::State& state) {
  const std::string path = corpus_tosa();
  size_t nodes = 0;
  for (auto _ : state) {
    auto doc = etviz::open_document(path);
    if (!doc) {
      state.SkipWithError(doc.error().message().c_str());
      return;
    }
    nodes = doc->graphs.front().nodes.size();
    benchmark::DoNotOptimize(doc);
  }
  state.counters["nodes"] = static_cast<double>(nodes);
  state.counters["file_MiB"] = static_cast<double>(std::filesystem::file_size(path)) / (1 << 20);
}
BENCHMARK(BM_OpenCorpusTosa)->Unit(benchmark::kMillisecond);

void BM_OpenProgramWithCorpusTosa(benchmark::State& state) {
  etviz::OpenOptions options;
  options.tosa_files = {corpus_tosa()};
  for (auto _ : state) {
    auto doc = etviz::open_document(corpus("pte/" + kFixture + "input.pte"), options);
    if (!doc) {
      state.SkipWithError(doc.error().message().c_str());
      return;
    }
    benchmark::DoNotOptimize(doc);
  }
}
BENCHMARK(BM_OpenProgramWithCorpusTosa)->Unit(benchmark::kMillisecond);

// Open and write the page: state.range(0) = 0 without the side files, 1 with the eleven.
void BM_PageEleven(benchmark::State& state) {
  const Eleven& e = eleven();
  etviz::OpenOptions options;
  if (state.range(0)) options.tosa_files = {e.dir};
  size_t bytes = 0;
  for (auto _ : state) {
    auto doc = etviz::open_document(e.files[0], options);
    if (!doc) {
      state.SkipWithError(doc.error().message().c_str());
      return;
    }
    auto html = etviz::session::render_page({{&*doc, "program.pte", 0}}, {}, {});
    if (!html) {
      state.SkipWithError(html.error().message().c_str());
      return;
    }
    bytes = html->size();
  }
  state.counters["page_KiB"] = static_cast<double>(bytes) / 1024;
}
BENCHMARK(BM_PageEleven)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->MinTime(1.0);

}  // namespace

BENCHMARK_MAIN();
