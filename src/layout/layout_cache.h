// Memo of level layouts, keyed by everything a level's layout depends on.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "flat_graph.h"
#include "level_topology.h"

namespace etviz::layout {

class LayoutCache {
 public:
  enum class Hit { kMiss, kStructure, kLayout };
  // The layout of `graph`, remembered, or computed from a remembered topology (layering and
  // order of a level with the same structure), or from scratch. Entries unused for two runs
  // are dropped.
  const FlatLayout& get(const FlatGraph& graph, const Options& options, Hit& hit);
  void finish_run();
  void clear() {
    entries_.clear();
    topologies_.clear();
  }

 private:
  struct Entry {
    std::vector<uint64_t> key;
    FlatLayout layout;
    uint64_t last_used = 0;
  };
  struct TopologyEntry {
    std::vector<uint64_t> key;
    LevelTopology topology;
    uint64_t last_used = 0;
  };
  std::unordered_multimap<uint64_t, Entry> entries_;
  std::unordered_multimap<uint64_t, TopologyEntry> topologies_;
  uint64_t run_ = 1;
};

// Bits of every option that influences a level's layout, for invalidating the cache.
std::vector<uint64_t> options_fingerprint(const Options& options);

}  // namespace etviz::layout
