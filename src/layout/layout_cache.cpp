#include "layout_cache.h"

#include <cstring>

namespace etviz::layout {
namespace {

// (std::bit_cast is missing from the libc++ of Debian's Emscripten.)
uint64_t bits(double v) {
  uint64_t b;
  std::memcpy(&b, &v, sizeof b);
  return b;
}

std::vector<uint64_t> serialize(const FlatGraph& graph) {
  std::vector<uint64_t> key;
  key.reserve(2 + 3 * graph.nodes.size() + 4 * graph.edges.size());
  key.push_back(graph.nodes.size());
  for (const FlatGraph::Node& n : graph.nodes) {
    key.push_back(bits(n.width));
    key.push_back(bits(n.height));
    key.push_back(static_cast<uint64_t>(n.pin));
  }
  key.push_back(graph.edges.size());
  for (const FlatGraph::Edge& e : graph.edges) {
    key.push_back((uint64_t{e.source} << 32) | e.target);
    key.push_back(bits(e.source_offset));
    key.push_back(bits(e.target_offset));
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
  return {static_cast<uint64_t>(o.direction),
          bits(o.node_spacing),
          bits(o.layer_spacing),
          bits(o.edge_spacing),
          bits(o.group_padding),
          bits(o.component_spacing),
          static_cast<uint64_t>(o.layering),
          static_cast<uint64_t>(o.ordering),
          static_cast<uint64_t>(o.ordering_sweeps),
          static_cast<uint64_t>(o.transpose),
          static_cast<uint64_t>(o.bundle_fan_out),
          static_cast<uint64_t>(o.coordinates)};
}

const FlatLayout& LayoutCache::get(const FlatGraph& graph, const Options& options, bool& reused) {
  std::vector<uint64_t> key = serialize(graph);
  const uint64_t hash = hash_words(key);
  auto [first, last] = entries_.equal_range(hash);
  for (auto it = first; it != last; ++it) {
    if (it->second.key == key) {
      it->second.last_used = run_;
      reused = true;
      return it->second.layout;
    }
  }
  reused = false;
  auto it = entries_.emplace(hash, Entry{std::move(key), layout_flat(graph, options), run_});
  return it->second.layout;
}

void LayoutCache::finish_run() {
  for (auto it = entries_.begin(); it != entries_.end();) {
    it = it->second.last_used + 1 < run_ ? entries_.erase(it) : std::next(it);
  }
  ++run_;
}

}  // namespace etviz::layout
