#include "layout_cache.h"

#include <algorithm>

namespace etviz::layout {
namespace {

std::vector<uint64_t> serialize(const FlatGraph& graph) {
  std::vector<uint64_t> key;
  key.reserve(2 + 3 * graph.nodes.size() + 4 * graph.edges.size());
  key.push_back(graph.nodes.size());
  for (uint32_t v = 0; v < graph.nodes.size(); ++v) {
    key.push_back(double_bits(graph.nodes[v].width));
    key.push_back(double_bits(graph.nodes[v].height));
    key.push_back(static_cast<uint64_t>(graph.pin(v)));
  }
  key.push_back(graph.edges.size());
  for (const FlatGraph::Edge& e : graph.edges) {
    key.push_back((uint64_t{e.source} << 32) | e.target);
    key.push_back(double_bits(graph.source_offset(e)));
    key.push_back(double_bits(graph.target_offset(e)));
  }
  return key;
}

uint64_t hash_words(const std::vector<uint64_t>& words) {
  uint64_t h = 0x243F6A8885A308D3ull;
  for (const uint64_t w : words) {
    h = (h ^ w) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
  }
  return h;
}

}  // namespace

std::vector<uint64_t> options_fingerprint(const Options& o) {
  std::vector<uint64_t> key;
  for (double v : encode_options(o)) key.push_back(double_bits(v));
  return key;
}

const FlatLayout& LayoutCache::get(const FlatGraph& graph, const Options& options, Hit& hit) {
  std::vector<uint64_t> key = serialize(graph);
  const uint64_t hash = hash_words(key);
  auto [first, last] = entries_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    if (it->second.key == key) {
      it->second.last_used = run_;
      hit = Hit::kLayout;
      return it->second.layout;
    }
  }
  std::vector<uint64_t> structure = topology_key(graph);
  const uint64_t structure_hash = hash_words(structure);
  LevelTopology* topology = nullptr;
  auto [tfirst, tlast] = topologies_.equal_range(structure_hash);
  for (auto it = tfirst; it != tlast && !topology; ++it) {
    if (it->second.key == structure) {
      it->second.last_used = run_;
      topology = &it->second.topology;
    }
  }
  hit = topology ? Hit::kStructure : Hit::kMiss;
  if (!topology) {
    auto it = topologies_.emplace(
        structure_hash, TopologyEntry{std::move(structure), level_topology(graph, options), run_});
    topology = &it->second.topology;
  }
  auto it =
      entries_.emplace(hash, Entry{std::move(key), layout_flat(graph, options, *topology), run_});
  return it->second.layout;
}

std::vector<uint64_t> topology_key(const FlatGraph& graph) {
  const auto n = graph.nodes.size(), m = graph.edges.size();
  // Rank of each edge end's offset among the offsets on the same side of its node (outgoing
  // ends, incoming ends). Ends are numbered 2 * edge (+1 for the target end) and bucketed by
  // (node, side) with a counting sort; each bucket (a node's few ports) is sorted by offset.
  const size_t buckets = 2 * n;
  auto bucket_of = [&](uint32_t end) {
    const FlatGraph::Edge& e = graph.edges[end / 2];
    return size_t{2} * ((end & 1) ? e.target : e.source) + (end & 1);
  };
  auto offset_of = [&](uint32_t end) {
    const FlatGraph::Edge& e = graph.edges[end / 2];
    return (end & 1) ? graph.target_offset(e) : graph.source_offset(e);
  };
  std::vector<uint32_t> begin(buckets + 1, 0);
  for (uint32_t end = 0; end < 2 * m; ++end) ++begin[bucket_of(end) + 1];
  for (size_t b = 0; b < buckets; ++b) begin[b + 1] += begin[b];
  std::vector<uint32_t> sorted(2 * m), fill(begin.begin(), begin.end() - 1);
  for (uint32_t end = 0; end < 2 * m; ++end) sorted[fill[bucket_of(end)]++] = end;
  std::vector<uint32_t> rank(2 * m, 0);
  for (size_t b = 0; b < buckets; ++b) {
    const auto first = sorted.begin() + begin[b], last = sorted.begin() + begin[b + 1];
    if (last - first < 2) continue;
    std::sort(first, last, [&](uint32_t x, uint32_t y) {
      const double ox = offset_of(x), oy = offset_of(y);
      return ox != oy ? ox < oy : x < y;
    });
    for (auto it = first + 1; it != last; ++it)
      rank[*it] = rank[*(it - 1)] + (offset_of(*it) == offset_of(*(it - 1)) ? 0 : 1);
  }
  std::vector<uint64_t> key;
  key.reserve(2 + (n + 63) / 32 + 2 * m);
  key.push_back(n);
  // Pins, two bits per node.
  uint64_t word = 0;
  for (size_t v = 0; v < n; ++v) {
    word |= uint64_t{static_cast<uint8_t>(graph.pin(static_cast<uint32_t>(v)))} << (2 * (v % 32));
    if (v % 32 == 31) {
      key.push_back(word);
      word = 0;
    }
  }
  if (n % 32) key.push_back(word);
  key.push_back(m);
  for (uint32_t e = 0; e < m; ++e) {
    key.push_back((uint64_t{graph.edges[e].source} << 32) | graph.edges[e].target);
    key.push_back((uint64_t{rank[2 * e]} << 32) | rank[2 * e + 1]);
  }
  return key;
}

void LayoutCache::finish_run() {
  for (auto it = entries_.begin(); it != entries_.end();) {
    it = it->second.last_used + 1 < run_ ? entries_.erase(it) : std::next(it);
  }
  for (auto it = topologies_.begin(); it != topologies_.end();) {
    it = it->second.last_used + 1 < run_ ? topologies_.erase(it) : std::next(it);
  }
  ++run_;
}

}  // namespace etviz::layout
