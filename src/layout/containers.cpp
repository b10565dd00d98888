#include "containers.h"

#include <algorithm>
#include <tuple>
#include <unordered_map>

namespace etviz::layout {
namespace {

double clean_size(double v) {
  return v > 0 && v < 1e30 ? v : 0;
}  // NaN, negative → 0

class Builder {
 public:
  Builder(const Graph& graph, const Hierarchy& h, bool transposed)
      : graph_(graph), h_(h), transposed_(transposed) {}

  ContainerSet build() {
    make_containers();
    add_items();
    count_ports();
    add_edges();
    // The levels live through every phase of their layout, the top level's lists with a
    // node and an edge per input one: what push_back over-allocated goes back (per-head
    // attention at 200k nodes, 311,354 edges: 12.6 MB of level edges' capacity for 7.5 MB).
    for (Container& c : set_.containers) {
      c.items.shrink_to_fit();
      c.flat.nodes.shrink_to_fit();
      c.flat.edges.shrink_to_fit();
      c.ends.shrink_to_fit();
    }
    return std::move(set_);
  }

 private:
  void make_containers() {
    const auto groups = static_cast<uint32_t>(graph_.groups.size());
    set_.containers.push_back({});
    set_.container_of_group.assign(groups, kNone);
    for (uint32_t g = 0; g < groups; ++g) {
      if (!h_.is_laid_out(g)) continue;
      set_.container_of_group[g] = static_cast<uint32_t>(set_.containers.size());
      Container c;
      c.group = g;
      c.depth = h_.group_depth[g] + 1;
      set_.containers.push_back(std::move(c));
    }
    if (groups == 0) return;  // items are the top level's nodes: no tables
    const size_t items = h_.node_count + groups;
    set_.item_container.assign(items, kNone);
    set_.item_local.assign(items, kNone);
  }

  uint32_t container_of_parent(uint32_t item) const {
    const uint32_t p = h_.parent_of_item(item);
    return p == kNone ? 0 : set_.container_of_group[p];
  }

  // Adds an item and, first, any of its enclosing groups not yet placed; so items appear in
  // the order the input first mentions them, which seeds a natural initial ordering.
  void ensure_item(uint32_t item) {
    pending_.clear();
    for (uint32_t it = item; set_.item_container[it] == kNone;) {
      pending_.push_back(it);
      const uint32_t p = h_.parent_of_item(it);
      if (p == kNone) break;
      it = h_.group_item(p);
    }
    for (auto it = pending_.rbegin(); it != pending_.rend(); ++it) {
      const uint32_t c = container_of_parent(*it);
      Container& container = set_.containers[c];
      set_.item_container[*it] = c;
      set_.item_local[*it] = static_cast<uint32_t>(container.flat.nodes.size());
      container.items.push_back(*it);
      ++container.item_count;
      add_node(container, *it);
    }
  }

  void add_node(Container& container, uint32_t item) {
    double w = 0, hgt = 0;
    if (!h_.is_group_item(item)) {
      w = clean_size(graph_.nodes[item].width);
      hgt = clean_size(graph_.nodes[item].height);
    } else if (!h_.is_laid_out(h_.group_of_item(item))) {
      const Group& g = graph_.groups[h_.group_of_item(item)];
      w = clean_size(g.collapsed_width);
      hgt = clean_size(g.collapsed_height);
    }
    if (transposed_) std::swap(w, hgt);
    container.flat.add_node(w, hgt);
  }

  void add_items() {
    if (graph_.groups.empty()) {  // node v is the top level's item v (ContainerSet::local_of)
      Container& top = set_.containers[0];
      top.flat.nodes.reserve(h_.node_count);
      for (uint32_t v = 0; v < h_.node_count; ++v) add_node(top, v);
      top.item_count = h_.node_count;
      return;
    }
    for (uint32_t v = 0; v < h_.node_count; ++v) ensure_item(h_.visible_item(v));
    for (uint32_t g = 0; g < graph_.groups.size(); ++g) {
      if (h_.is_visible_group(g)) ensure_item(h_.group_item(g));
    }
  }

  void count_ports() {
    set_.out_ports.assign(h_.node_count, 0);
    set_.in_ports.assign(h_.node_count, 0);
    for (const Edge& e : graph_.edges) {
      if (!valid(e)) continue;
      if (e.source_port != kNone) {
        set_.out_ports[e.source] = std::max(set_.out_ports[e.source], e.source_port + 1);
      }
      if (e.target_port != kNone) {
        set_.in_ports[e.target] = std::max(set_.in_ports[e.target], e.target_port + 1);
      }
    }
  }

  bool valid(const Edge& e) const { return e.source < h_.node_count && e.target < h_.node_count; }

  // The port node for `key` on the entry (top) or exit (bottom) border of container c.
  uint32_t port(uint32_t c, bool entry, uint32_t key) {
    const uint64_t k = (uint64_t{c} << 33) | (uint64_t{entry} << 32) | key;
    auto [it, added] = ports_.try_emplace(k, 0);
    if (added) {
      Container& container = set_.containers[c];
      it->second = static_cast<uint32_t>(container.flat.nodes.size());
      container.flat.add_node(0, 0, entry ? Pin::kFirstLayer : Pin::kLastLayer);
      (entry ? container.has_entry_ports : container.has_exit_ports) = true;
    }
    return it->second;
  }

  // Adds a level edge between flat nodes of container c as the next link of the current
  // input edge's chain (merge_parallel_edges then folds edges between the same ends).
  void level_edge(uint32_t c, uint32_t source, uint32_t source_slot, uint32_t target,
                  uint32_t target_slot) {
    Container& container = set_.containers[c];
    set_.chain.push_back({c, static_cast<uint32_t>(container.flat.edges.size())});
    container.flat.edges.push_back({source, target, 0, 0});
    container.ends.push_back({source_slot, target_slot});
  }

  // Parallel input edges between the same attachment points share one level edge and so one
  // route: each level's edges are sorted by their ends, every edge of a run of equal ones
  // becomes the run's first, and the level keeps its first-met edges in order. (A hash map
  // keyed by the ends, probed per level edge, took 56 B per edge and a cache miss per probe.)
  void merge_parallel_edges() {
    struct Key {
      uint32_t source, source_slot, target, target_slot, edge;
      auto tied() const { return std::tie(source, source_slot, target, target_slot); }
    };
    std::vector<uint32_t> first_edge(set_.containers.size() + 1, 0);  // per container
    for (size_t c = 0; c < set_.containers.size(); ++c)
      first_edge[c + 1] = first_edge[c] + static_cast<uint32_t>(set_.containers[c].ends.size());
    std::vector<uint32_t> new_id(first_edge.back());
    std::vector<Key> keys;
    bool merged = false;
    for (size_t c = 0; c < set_.containers.size(); ++c) {
      Container& container = set_.containers[c];
      const auto count = static_cast<uint32_t>(container.ends.size());
      uint32_t* id = new_id.data() + first_edge[c];
      keys.resize(count);
      for (uint32_t e = 0; e < count; ++e) {
        const FlatGraph::Edge& edge = container.flat.edges[e];
        keys[e] = {edge.source, container.ends[e].source_slot, edge.target,
                   container.ends[e].target_slot, e};
      }
      std::sort(keys.begin(), keys.end(), [](const Key& a, const Key& b) {
        return a.tied() != b.tied() ? a.tied() < b.tied() : a.edge < b.edge;
      });
      bool level_merged = false;
      for (uint32_t i = 0; i < count; ++i) {  // id[e]: the first edge of e's run
        const bool repeat = i > 0 && keys[i].tied() == keys[i - 1].tied();
        id[keys[i].edge] = repeat ? id[keys[i - 1].edge] : keys[i].edge;
        level_merged |= repeat;
      }
      if (!level_merged) {
        for (uint32_t e = 0; e < count; ++e) id[e] = e;
        continue;
      }
      merged = true;
      uint32_t kept = 0;  // id[e]: e's edge among those kept
      for (uint32_t e = 0; e < count; ++e) {
        if (id[e] != e) {
          id[e] = id[id[e]];  // its run's first, met and renumbered before it
          continue;
        }
        container.flat.edges[kept] = container.flat.edges[e];
        container.ends[kept] = container.ends[e];
        id[e] = kept++;
      }
      container.flat.edges.resize(kept);
      container.ends.resize(kept);
    }
    if (merged) {
      for (LevelEdgeRef& link : set_.chain) {
        if (link.edge != kNone) link.edge = new_id[first_edge[link.container] + link.edge];
      }
    }
    if (set_.chain_begin.empty()) {  // one level: is every edge its own level edge?
      for (uint32_t e = 0; e < set_.chain.size(); ++e) {
        if (set_.chain[e].edge != e) return;
      }
      release(set_.chain);  // chain_of(e) is edge e
    }
  }

  uint32_t container_of_item(uint32_t item) const { return set_.container_of(item); }
  uint32_t local(uint32_t item) const { return set_.local_of(item); }

  void add_edges() {
    set_.chain.reserve(graph_.edges.size());
    std::vector<uint32_t> up, down;
    if (set_.containers.size() == 1) {  // one link per edge at most: chain[e] (chain_of)
      for (const Edge& e : graph_.edges) {
        const size_t before = set_.chain.size();
        if (valid(e)) add_edge(e, up, down);
        if (set_.chain.size() == before) set_.chain.push_back({0, kNone});
      }
    } else {
      set_.chain_begin.reserve(graph_.edges.size() + 1);
      set_.chain_begin.push_back(0);
      for (const Edge& e : graph_.edges) {
        if (valid(e)) add_edge(e, up, down);
        set_.chain_begin.push_back(static_cast<uint32_t>(set_.chain.size()));
      }
    }
    merge_parallel_edges();
  }

  void add_edge(const Edge& e, std::vector<uint32_t>& up, std::vector<uint32_t>& down) {
    const uint32_t from = h_.visible_item(e.source), to = h_.visible_item(e.target);
    const uint32_t source_port = from == e.source ? e.source_port : kNone;
    const uint32_t target_port = to == e.target ? e.target_port : kNone;
    if (from == to) {
      if (!h_.is_group_item(from)) {  // a self-loop; edges inside a collapsed group are hidden
        level_edge(container_of_item(from), local(from), source_port, local(from), target_port);
      }
      return;
    }
    // Climb from both ends to the lowest level containing both.
    up.assign(1, from);
    down.assign(1, to);
    uint32_t a = from, b = to;
    while (container_of_item(a) != container_of_item(b)) {
      const Container& ca = set_.containers[container_of_item(a)];
      const Container& cb = set_.containers[container_of_item(b)];
      if (ca.depth >= cb.depth) {
        a = h_.group_item(ca.group);
        up.push_back(a);
      } else {
        b = h_.group_item(cb.group);
        down.push_back(b);
      }
    }
    // Entry ports are keyed by the source as seen at the common level, so what happens
    // inside that item (expanding, collapsing) never changes the receiving groups.
    const uint32_t entry_key = up.back();
    auto entry_port_of = [&](uint32_t group_item) {
      return port(set_.container_of_group[h_.group_of_item(group_item)], true, entry_key);
    };
    uint32_t slot = source_port;
    for (size_t i = 0; i + 1 < up.size(); ++i) {
      const uint32_t c = container_of_item(up[i]);
      const uint32_t exit = port(c, false, from);
      level_edge(c, local(up[i]), slot, exit, kNone);
      slot = exit;
    }
    const uint32_t top_target_slot = down.size() > 1 ? entry_port_of(down.back()) : target_port;
    level_edge(container_of_item(a), local(a), slot, local(b), top_target_slot);
    for (size_t j = down.size() - 1; j >= 1; --j) {
      const uint32_t c = set_.container_of_group[h_.group_of_item(down[j])];
      const uint32_t child_slot = j > 1 ? entry_port_of(down[j - 1]) : target_port;
      level_edge(c, entry_port_of(down[j]), kNone, local(down[j - 1]), child_slot);
    }
  }

  const Graph& graph_;
  const Hierarchy& h_;
  const bool transposed_;
  ContainerSet set_;
  std::vector<uint32_t> pending_;
  std::unordered_map<uint64_t, uint32_t> ports_;
};

}  // namespace

ContainerSet build_containers(const Graph& graph, const Hierarchy& hierarchy, bool transposed) {
  return Builder(graph, hierarchy, transposed).build();
}

}  // namespace etviz::layout
