// Google Benchmark timings of the layout engine on synthetic model-shaped graphs; the
// comparison with other engines lives in ./compare.
#include <benchmark/benchmark.h>

#include "layout.h"

namespace {

using namespace etviz::layout;

// Decoder-like blocks: norm → q/k/v branches of a few ops → attention → residual add →
// gated MLP → residual add; one group per block when `grouped`.
Graph decoder_stack(int blocks, bool grouped) {
  Graph g;
  auto add = [&](double width, uint32_t group) {
    g.nodes.push_back({width, 30, group});
    return static_cast<uint32_t>(g.nodes.size() - 1);
  };
  uint32_t h = add(80, kNone);
  for (int b = 0; b < blocks; ++b) {
    uint32_t group = kNone;
    if (grouped) {
      g.groups.push_back({kNone, true, 120, 30});
      group = static_cast<uint32_t>(g.groups.size() - 1);
    }
    const uint32_t norm = add(70, group);
    g.edges.push_back({h, norm});
    uint32_t branch[3];
    for (uint32_t& x : branch) {
      x = norm;
      for (int op = 0; op < 4; ++op) {
        const uint32_t next = add(60 + 7 * op, group);
        g.edges.push_back({x, next});
        x = next;
      }
    }
    const uint32_t scores = add(70, group);
    g.edges.push_back({branch[0], scores});
    g.edges.push_back({branch[1], scores});
    const uint32_t attention = add(70, group);
    g.edges.push_back({scores, attention});
    g.edges.push_back({branch[2], attention});
    const uint32_t residual = add(50, group);
    g.edges.push_back({attention, residual});
    g.edges.push_back({h, residual});
    const uint32_t gate = add(60, group), up = add(60, group), mul = add(50, group);
    g.edges.push_back({residual, gate});
    g.edges.push_back({residual, up});
    g.edges.push_back({gate, mul});
    g.edges.push_back({up, mul});
    h = add(50, group);
    g.edges.push_back({mul, h});
    g.edges.push_back({residual, h});
  }
  return g;
}

void BM_DecoderStack(benchmark::State& state) {
  const Graph g = decoder_stack(static_cast<int>(state.range(0)) / 20, false);
  for (auto _ : state) benchmark::DoNotOptimize(compute_layout(g));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(g.nodes.size()));
}
BENCHMARK(BM_DecoderStack)->Arg(1000)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

// Re-layout after collapsing or expanding one group, with the level cache warm.
void BM_ToggleOneGroup(benchmark::State& state) {
  Graph g = decoder_stack(static_cast<int>(state.range(0)) / 20, true);
  LayoutEngine engine;
  engine.run(g);
  size_t i = 0;
  for (auto _ : state) {
    Group& group = g.groups[i++ % g.groups.size()];
    group.expanded = !group.expanded;
    benchmark::DoNotOptimize(engine.run(g));
  }
}
BENCHMARK(BM_ToggleOneGroup)->Arg(10000)->Unit(benchmark::kMillisecond);

// A program without module hierarchy (`etviz-gen program --delegates`): ~40 ops per block in
// the top level plus the block's MLP as a small collapsed delegate group. Toggling a group
// re-lays out the whole top level; the structure cache keeps its layering and order, so only
// coordinates and routes are recomputed. Items are the top level's nodes.
Graph flat_program(int blocks) {
  Graph g;
  uint32_t previous = kNone;
  for (int b = 0; b < blocks; ++b) {
    g.groups.push_back({kNone, false, 120, 34});
    const auto first = static_cast<uint32_t>(g.nodes.size());
    for (uint32_t k = 0; k < 4; ++k) g.nodes.push_back({60.0 + 10 * k, 28, uint32_t(b)});
    for (uint32_t k = 1; k < 4; ++k) g.edges.push_back({first + k - 1, first + k, 0, k % 2});
    const auto start = static_cast<uint32_t>(g.nodes.size());
    for (uint32_t k = 0; k < 36; ++k) {
      g.nodes.push_back({80, 28, kNone});
      if (k) g.edges.push_back({start + k - 1, start + k, 0, 0});
      if (k % 3 == 0) {  // a constant beside the op
        g.nodes.push_back({50, 28, kNone});
        g.edges.push_back({static_cast<uint32_t>(g.nodes.size() - 1), start + k, kNone, 1});
      }
    }
    g.edges.push_back({first + 3, start, 0, 1});
    if (previous != kNone) {
      g.edges.push_back({previous, first, 0, 0});
      g.edges.push_back({previous, first + 2, 0, 1});
      g.edges.push_back({previous, start + 5, 0, 2});  // a residual
    }
    previous = static_cast<uint32_t>(g.nodes.size() - 1);
  }
  return g;
}

void BM_FlatProgramFromScratch(benchmark::State& state) {
  const Graph g = flat_program(static_cast<int>(state.range(0)) / 52);
  for (auto _ : state) benchmark::DoNotOptimize(compute_layout(g));
  state.SetItemsProcessed(state.iterations() * static_cast<int64_t>(g.nodes.size()));
}
BENCHMARK(BM_FlatProgramFromScratch)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

void BM_FlatProgramToggle(benchmark::State& state) {
  Graph g = flat_program(static_cast<int>(state.range(0)) / 52);
  LayoutEngine engine;
  engine.run(g);
  size_t i = 0;
  for (auto _ : state) {
    // A different group each time, so every run is a state the engine has not seen.
    Group& group = g.groups[(i++ * 7) % g.groups.size()];
    group.expanded = !group.expanded;
    benchmark::DoNotOptimize(engine.run(g));
  }
}
BENCHMARK(BM_FlatProgramToggle)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
