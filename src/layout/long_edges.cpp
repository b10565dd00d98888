// Phase 3: long-edge splitting (build_layered_graph, declared in layered_graph.h).
#include <algorithm>
#include <unordered_map>

#include "layered_graph.h"

namespace etviz::layout {
namespace {

// An edge as the layered graph sees it: from the upper to the lower node.
struct Oriented {
  uint32_t edge;
  uint32_t upper, lower;
  double upper_offset, lower_offset;
  // Reversed to break a cycle: the upper end is the input edge's target. Such an edge leaves
  // its upper node on another side than the forward edges, so it is never bundled with them
  // (and bundles depend only on the order of offsets on one side of a node, which is what
  // the engine's cache keys on; see topology_key).
  bool upper_is_target;
};

// Fan-outs into a single layer of this many edges are drawn as separate edges rather than
// one bundle. Two edges make a V, not a broom: splitting those changes random DAGs' areas
// (random_dag 20k/50k: +7/+8 %) without saving crossings.
constexpr size_t kMinSeparateFanOut = 3;
constexpr size_t kMaxSeparateFanOut = 32;

uint32_t add_dummy(LayeredGraph& g, uint32_t layer) {
  g.width.push_back(0);
  g.layer.push_back(layer);
  g.is_dummy.push_back(1);
  if (g.has_spans()) g.last_layer.push_back(kNone);
  return static_cast<uint32_t>(g.width.size() - 1);
}

// Segments refer to port offsets by index into g.port_offsets (a PortTable).
class SegmentAdder {
 public:
  explicit SegmentAdder(LayeredGraph& g) : g_(g), port_(g.port_offsets) {}
  void operator()(uint32_t upper, uint32_t lower, double upper_offset, double lower_offset,
                  uint32_t weight = 1) {
    if (weight != 1 && g_.weights.empty()) {
      g_.weights.reserve(g_.segments.capacity());
      g_.weights.assign(g_.segments.size(), 1);
    }
    g_.segments.push_back({upper, lower, port_(upper_offset), port_(lower_offset)});
    if (!g_.weights.empty()) g_.weights.push_back(weight);
  }

 private:
  LayeredGraph& g_;
  PortTable port_;
};

// Renumbers nodes by layer (stable), remapping everything that refers to node ids.
void number_by_layer(LayeredGraph& g, uint32_t flat_count) {
  const uint32_t n = g.node_count();
  std::vector<uint32_t> start(g.layer_count + 1, 0);
  for (uint32_t v = 0; v < n; ++v) ++start[g.layer[v] + 1];
  for (uint32_t l = 0; l < g.layer_count; ++l) start[l + 1] += start[l];
  std::vector<uint32_t> new_id(n);
  for (uint32_t v = 0; v < n; ++v) new_id[v] = start[g.layer[v]]++;
  auto permute = [&](auto& values) {
    auto copy = values;
    for (uint32_t v = 0; v < n; ++v) values[new_id[v]] = copy[v];
  };
  permute(g.width);
  permute(g.layer);
  permute(g.is_dummy);
  if (g.has_spans()) permute(g.last_layer);
  for (Segment& s : g.segments) {
    s.upper = new_id[s.upper];
    s.lower = new_id[s.lower];
  }
  for (LayeredGraph::Path& p : g.paths) {
    if (p.first_dummy != kNone) p.first_dummy = new_id[p.first_dummy];
  }
  g.of_flat.assign(new_id.begin(), new_id.begin() + flat_count);
  g.by_creation = std::move(new_id);
}

}  // namespace

void LayeredGraph::index_segments() {
  LayeredGraph& g = *this;
  const uint32_t n = g.node_count();
  const auto m = static_cast<uint32_t>(g.segments.size());
  g.up_begin.assign(n + 1, 0);
  g.down_begin.assign(n + 1, 0);
  for (const Segment& s : g.segments) {
    ++g.up_begin[s.lower + 1];
    ++g.down_begin[s.upper + 1];
  }
  for (uint32_t v = 0; v < n; ++v) {
    g.up_begin[v + 1] += g.up_begin[v];
    g.down_begin[v + 1] += g.down_begin[v];
  }
  // Segments are renumbered by their lower end (in creation order among those of one node),
  // so that the segments a layer's nodes reach up by are one block, next to the next
  // layer's: the sweeps walk a layer's lists and, numbered as created, each segment was a
  // cache miss (the sweeps' largest cost at 200k nodes). Each node's lists keep the creation
  // order, which breaks ties. The ups lists are then the identity, not stored (ups()).
  std::vector<uint32_t> new_id(m);
  g.down_segments.resize(m);
  std::vector<uint32_t> up_fill(g.up_begin.begin(), g.up_begin.end() - 1);
  std::vector<uint32_t> down_fill(g.down_begin.begin(), g.down_begin.end() - 1);
  for (uint32_t s = 0; s < m; ++s) new_id[s] = up_fill[g.segments[s].lower]++;
  for (uint32_t s = 0; s < m; ++s) g.down_segments[down_fill[g.segments[s].upper]++] = new_id[s];
  // Applies the renumbering in place, cycle by cycle; each swap puts one segment at its new
  // id and sets new_id there to that id, so new_id ends as the identity: segment ids by lower
  // end.
  for (uint32_t s = 0; s < m; ++s) {
    while (new_id[s] != s) {
      const uint32_t t = new_id[s];
      std::swap(g.segments[s], g.segments[t]);
      if (!g.weights.empty()) std::swap(g.weights[s], g.weights[t]);
      std::swap(new_id[s], new_id[t]);
    }
  }
}

void LayeredGraph::release_segments() {
  // A dummy's next dummy down: the first dummy among its lower neighbours, in the order the
  // segments were created (which its downs list keeps).
  below.assign(node_count(), kNone);
  for (uint32_t v = 0; v < node_count(); ++v) {
    if (!is_dummy[v]) continue;
    for (const uint32_t s : downs(v)) {
      if (is_dummy[segments[s].lower]) {
        below[v] = segments[s].lower;
        break;
      }
    }
  }
  for (std::vector<uint32_t>* v : {&up_begin, &down_begin, &down_segments, &by_creation})
    release(*v);
  release(segments);
  release(weights);
}

LayeredForm layered_form(const Options& options) {
  if (options.long_edges == LongEdgeOrdering::kPerDummy ||
      options.coordinates == CoordinateStrategy::kBrandesKoepf)
    return LayeredForm::kPerLayer;
  return options.long_edges == LongEdgeOrdering::kSegments ? LayeredForm::kSpans
                                                           : LayeredForm::kSpansIfLong;
}

LayeredGraph build_layered_graph(const FlatGraph& graph, const std::vector<uint32_t>& layer,
                                 const std::vector<uint8_t>& reversed, bool bundle_fan_out,
                                 LayeredForm form) {
  LayeredGraph g;
  const auto n = static_cast<uint32_t>(graph.nodes.size());
  const auto m = static_cast<uint32_t>(graph.edges.size());
  g.paths.assign(m, {});
  SegmentAdder add_segment(g);

  // Each edge as the layered graph sees it; short ones (adjacent layers, or, impossible for a
  // valid layering, not below: no segment) get their segment below, before the long ones'.
  auto oriented = [&](uint32_t e) {
    const FlatGraph::Edge& edge = graph.edges[e];
    if (reversed[e])
      return Oriented{
          e, edge.target, edge.source, graph.target_offset(edge), graph.source_offset(edge), true};
    return Oriented{
        e, edge.source, edge.target, graph.source_offset(edge), graph.target_offset(edge), false};
  };
  auto is_long = [&](const Oriented& o) { return layer[o.lower] > layer[o.upper] + 1; };
  auto adjacent = [&](const Oriented& o) { return layer[o.lower] == layer[o.upper] + 1; };
  std::vector<Oriented> long_edges;
  uint64_t short_segments = 0;
  for (uint32_t e = 0; e < m; ++e) {
    if (graph.edges[e].source == graph.edges[e].target) continue;
    const Oriented o = oriented(e);
    if (is_long(o)) {
      long_edges.push_back(o);
    } else {
      g.paths[e] = {kNone, 0};
      short_segments += adjacent(o) ? 1 : 0;
    }
  }

  // Long edges from the same node and port form a bundle: one trunk of dummies down to the
  // layer above the deepest target, each edge branching off the trunk above its target.
  std::stable_sort(long_edges.begin(), long_edges.end(), [&](const Oriented& a, const Oriented& b) {
    if (!bundle_fan_out) return false;
    if (a.upper != b.upper) return a.upper < b.upper;
    if (a.upper_is_target != b.upper_is_target) return b.upper_is_target;
    return a.upper_offset < b.upper_offset;
  });
  // Bundles, each drawn as one trunk: [begin, end) of long_edges.
  std::vector<std::pair<size_t, size_t>> bundles;
  uint64_t per_layer_dummies = 0;
  for (size_t begin = 0; begin < long_edges.size();) {
    size_t end = begin + 1;
    bool one_layer = true;  // every target in the same layer
    while (bundle_fan_out && end < long_edges.size() &&
           long_edges[end].upper == long_edges[begin].upper &&
           long_edges[end].upper_is_target == long_edges[begin].upper_is_target &&
           long_edges[end].upper_offset == long_edges[begin].upper_offset) {
      one_layer &= layer[long_edges[end].lower] == layer[long_edges[begin].lower];
      ++end;
    }
    // A bundle whose targets all sit in one layer saves dummies but no crossings: it ends in
    // a broom, one point fanning out to every target, crossed by every edge that enters the
    // targets between them (a mixture-of-experts router's input reaching 8 experts: +80 %
    // crossings over separate edges). Such a fan-out keeps separate edges, unless it is so
    // wide that the dummies would dominate the layered graph. Bundles that feed several
    // layers (a shared input reaching every decoder layer) keep their trunk.
    const bool separate =
        one_layer && end - begin >= kMinSeparateFanOut && end - begin <= kMaxSeparateFanOut;
    for (size_t i = begin; i < end; i += separate ? 1 : end - begin) {
      const size_t last = separate ? i + 1 : end;
      bundles.push_back({i, last});
      uint32_t deepest = 0;
      for (size_t k = i; k < last; ++k) deepest = std::max(deepest, layer[long_edges[k].lower]);
      per_layer_dummies += deepest - layer[long_edges[i].upper] - 1;
    }
    begin = end;
  }
  constexpr uint64_t kDummiesPerEdge = 3;  // orders_by_segments() uses the same rule
  const bool spans = form == LayeredForm::kSpans ||
                     (form == LayeredForm::kSpansIfLong && per_layer_dummies > kDummiesPerEdge * m);
  // With a dummy per layer, the dummies and segments are known now: each bundle has one dummy
  // per layer down to its deepest target's, a segment into each and one out to each target.
  // Reserved exactly, the arrays are built without the copies growing them by doubling made
  // (per-head attention at 200k nodes: the layout's heap peak); spans, fewer, still grow.
  const uint64_t nodes = n + (spans ? 0 : per_layer_dummies);
  g.width.reserve(nodes);
  g.layer.reserve(nodes);
  g.is_dummy.reserve(nodes);
  if (!spans) g.segments.reserve(short_segments + per_layer_dummies + long_edges.size());
  for (uint32_t v = 0; v < n; ++v) {
    g.width.push_back(graph.nodes[v].width);
    g.layer.push_back(layer[v]);
    g.is_dummy.push_back(0);
  }
  if (spans) g.last_layer.assign(n, kNone);
  for (uint32_t e = 0; e < m; ++e) {
    if (graph.edges[e].source == graph.edges[e].target) continue;
    const Oriented o = oriented(e);
    if (adjacent(o)) add_segment(o.upper, o.lower, o.upper_offset, o.lower_offset);
  }

  std::vector<uint32_t> trunk;  // trunk[i]: dummy in layer (upper layer + 1 + i)
  std::vector<uint32_t> passing;
  auto split = [&](const Oriented* edges, size_t count) {
    const Oriented& head = edges[0];
    const uint32_t top = layer[head.upper];
    uint32_t deepest = 0;
    for (size_t i = 0; i < count; ++i) deepest = std::max(deepest, layer[edges[i].lower]);
    // passing[i]: edges of the bundle still on the trunk when it enters trunk[i].
    passing.assign(deepest - top, 0);
    for (size_t i = 0; i < count; ++i) ++passing[layer[edges[i].lower] - top - 2];
    for (size_t i = passing.size() - 1; i-- > 0;) passing[i] += passing[i + 1];
    trunk.clear();
    for (uint32_t l = top + 1; l < deepest; ++l) {
      const uint32_t d = add_dummy(g, l);
      const uint32_t weight = passing[l - top - 1];
      if (trunk.empty()) {
        add_segment(head.upper, d, head.upper_offset, 0, weight);
      } else {
        add_segment(trunk.back(), d, 0, 0, weight);
      }
      trunk.push_back(d);
    }
    for (size_t i = 0; i < count; ++i) {
      const Oriented& o = edges[i];
      const uint32_t span = layer[o.lower] - top;  // >= 2
      add_segment(trunk[span - 2], o.lower, 0, o.lower_offset);
      g.paths[o.edge] = {trunk[0], span - 1};
    }
  };

  // The same trunk with its runs of three or more one-in-one-out dummies held as p, span, q,
  // without visiting the layers a span passes: the trunk's dummy in layer l has edges
  // branching off iff a target sits in layer l + 1, except the last one when it leads to a
  // single target, and every other trunk dummy is a link of a run.
  std::vector<uint32_t> targets;      // indices into edges, by target layer
  std::vector<uint32_t> branch_from;  // per edge: the trunk item it leaves from
  auto split_into_spans = [&](const Oriented* edges, size_t count) {
    const Oriented& head = edges[0];
    const uint32_t top = layer[head.upper];
    targets.resize(count);
    branch_from.resize(count);
    for (uint32_t i = 0; i < count; ++i) targets[i] = i;
    std::stable_sort(targets.begin(), targets.end(), [&](uint32_t a, uint32_t b) {
      return layer[edges[a].lower] < layer[edges[b].lower];
    });
    const uint32_t deepest = layer[edges[targets.back()].lower];
    size_t next = 0;  // first target not branched off yet
    uint32_t previous = head.upper, items = 0, first = kNone;
    // Appends an item whose first layer is l (passing the trunk's edges still on it there).
    auto append = [&](uint32_t item) {
      const auto weight = static_cast<uint32_t>(count - next);
      if (previous == head.upper) {
        add_segment(head.upper, item, head.upper_offset, 0, weight);
        first = item;
      } else {
        add_segment(previous, item, 0, 0, weight);
      }
      previous = item;
      ++items;
    };
    for (uint32_t l = top + 1; l < deepest;) {
      // Links (one in, one out) from l to the next dummy that edges branch off (or to the
      // trunk's end).
      const uint32_t target_layer = layer[edges[targets[next]].lower];
      const bool last_is_link = target_layer == deepest && count - next == 1;
      const uint32_t link_end = last_is_link ? deepest : target_layer - 1;
      if (link_end - l >= 3) {
        append(add_dummy(g, l));
        const uint32_t span = add_dummy(g, l + 1);
        g.last_layer[span] = link_end - 2;
        append(span);
        append(add_dummy(g, link_end - 1));
      } else {
        for (uint32_t k = l; k < link_end; ++k) append(add_dummy(g, k));
      }
      if (!last_is_link) append(add_dummy(g, link_end));  // the dummy edges branch off
      while (next < count && layer[edges[targets[next]].lower] == target_layer) {
        const uint32_t i = targets[next++];
        branch_from[i] = previous;
        g.paths[edges[i].edge] = {first, items};
      }
      l = target_layer;
    }
    // Branches after the trunk, in the bundle's order, as split() adds them: the order of
    // each node's neighbours is what breaks ties in ordering, so both forms order alike.
    for (uint32_t i = 0; i < count; ++i)
      add_segment(branch_from[i], edges[i].lower, 0, edges[i].lower_offset);
  };
  for (const auto& [begin, end] : bundles) {
    if (spans) {
      split_into_spans(&long_edges[begin], end - begin);
    } else {
      split(&long_edges[begin], end - begin);
    }
  }
  // (Before the renumbering and the index allocate theirs: 40 B per long edge.)
  release(long_edges);
  release(bundles);
  for (uint32_t v = 0; v < g.node_count(); ++v)
    g.layer_count = std::max(g.layer_count, g.layer[v] + 1);
  number_by_layer(g, n);
  g.index_segments();
  // Dummies and segments were appended one by one; the graph lives through ordering and
  // coordinates, where the memory peaks, so it gives back what doubling over-allocated.
  g.width.shrink_to_fit();
  g.layer.shrink_to_fit();
  g.is_dummy.shrink_to_fit();
  g.last_layer.shrink_to_fit();
  g.segments.shrink_to_fit();
  g.weights.shrink_to_fit();
  return g;
}

}  // namespace etviz::layout
