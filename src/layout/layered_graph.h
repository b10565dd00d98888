// The layered graph the ordering and coordinate phases work on: every edge spans exactly
// one layer, long edges pass through dummy nodes, one per layer, or (LayeredForm::kSpans)
// each long edge's middle is one *span* item that passes several layers.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "flat_graph.h"

namespace etviz::layout {

struct Segment {
  uint32_t upper = 0;
  uint32_t lower = 0;
  // Port positions relative to the nodes' centres, as indices into
  // LayeredGraph::port_offsets (0: the centre; upper_offset() and lower_offset() read them).
  uint32_t upper_port = 0;
  uint32_t lower_port = 0;
};

// A node's segment ids (LayeredGraph::ups and downs): a slice of an id list, or, without a
// list, the ids first .. last themselves (ups: segments are numbered by their lower end).
class SegmentIds {
 public:
  SegmentIds(const uint32_t* list, uint32_t first, uint32_t last)
      : list_(list), first_(first), last_(last) {}
  class iterator {
   public:
    using value_type = uint32_t;
    using difference_type = std::ptrdiff_t;
    iterator() = default;
    iterator(const uint32_t* list, uint32_t at) : list_(list), at_(at) {}
    uint32_t operator*() const { return list_ ? list_[at_] : at_; }
    iterator& operator++() {
      ++at_;
      return *this;
    }
    iterator operator++(int) {
      iterator before = *this;
      ++at_;
      return before;
    }
    bool operator==(const iterator& o) const { return at_ == o.at_; }

   private:
    const uint32_t* list_ = nullptr;
    uint32_t at_ = 0;
  };
  iterator begin() const { return {list_, first_}; }
  iterator end() const { return {list_, last_}; }
  uint32_t operator[](uint32_t k) const { return list_ ? list_[first_ + k] : first_ + k; }
  uint32_t size() const { return last_ - first_; }
  bool empty() const { return last_ == first_; }

 private:
  const uint32_t* list_;
  uint32_t first_, last_;
};

struct LayeredGraph {
  // Nodes are numbered layer by layer (top layer first), so that the sweeps, which walk a
  // layer and its neighbours, touch memory that is close together. of_flat[v] is the id of
  // flat node v; creation[id] ranks nodes by creation (flat nodes in order, then dummies),
  // the order used wherever ties need a stable, input-derived order. A node's height is its
  // flat node's (a dummy has none): only the layer bands and the routes' ends read it, from
  // the flat graph.
  std::vector<double> width;
  std::vector<uint32_t> layer;
  std::vector<uint8_t> is_dummy;
  uint32_t layer_count = 0;
  std::vector<uint32_t> of_flat;
  std::vector<uint32_t> by_creation;  // ids in creation order

  // Spans (LayeredForm::kSpans): a run of three or more dummies with one neighbour above
  // and one below (a long edge, or a bundle trunk between two branches) keeps its first and
  // last dummy (p, q) as dummies of their layers, and the dummies between them are one span
  // item: a dummy whose layer is the first layer it passes and last_layer[v] the last (kNone
  // for every other node), with p as its one neighbour above and q as its one below. A span
  // is drawn as one vertical line, so the graph, its order and its coordinates grow with the
  // long edges, not with the layers they pass. Empty in the per-layer form.
  std::vector<uint32_t> last_layer;
  bool has_spans() const { return !last_layer.empty(); }
  bool is_span(uint32_t v) const { return has_spans() && last_layer[v] != kNone; }
  uint32_t bottom_layer(uint32_t v) const { return is_span(v) ? last_layer[v] : layer[v]; }

  std::vector<Segment> segments;
  // Per segment, the input edges drawn along it (> 1 on bundle trunks); empty where every
  // segment carries one (4 B per segment less).
  std::vector<uint32_t> weights;
  uint32_t weight(uint32_t s) const { return weights.empty() ? 1 : weights[s]; }
  // Each distinct port offset once (a PortTable): 20 B per segment, not 32 with two doubles.
  std::vector<double> port_offsets{0.0};
  double upper_offset(const Segment& s) const { return port_offsets[s.upper_port]; }
  double lower_offset(const Segment& s) const { return port_offsets[s.lower_port]; }
  // Segment ids by node, CSR: segments whose lower end is v (ups: up_begin[v] ..
  // up_begin[v + 1], as index_segments numbers segments by their lower end, and nodes are
  // numbered by layer, so a layer's segments are one block) / whose upper end is v (downs:
  // down_segments from down_begin[v]).
  std::vector<uint32_t> up_begin;
  std::vector<uint32_t> down_begin, down_segments;

  // Per flat edge: the dummies it passes (one per layer between its ends, or spans for runs
  // of them), starting at first_dummy and each the dummy_below() the previous one. Not a list
  // per edge: the edges of a bundle pass the same trunk, and copies of it were most of the
  // memory of a per-head LLM (22,000 edges from one rotary table along a 10,000-layer trunk).
  // Its ends are its flat ends' nodes (of_flat), not stored: 8 B per edge, not 16. Short
  // edges and self-loops pass no dummies.
  struct Path {
    uint32_t first_dummy = kNone;
    uint32_t dummies = 0;
  };
  std::vector<Path> paths;

  // Per node, the next dummy down its chain or trunk (kNone for other nodes and a chain's
  // last dummy): a trunk's dummy has one dummy below it; its other lower neighbours are
  // targets branching off. Filled by release_segments from the segments it frees (only
  // routing reads it: 4 B per item less through ordering and coordinates).
  std::vector<uint32_t> below;

  uint32_t node_count() const { return static_cast<uint32_t>(width.size()); }
  // Renumbers `segments` by their lower end and fills the CSR index (up_begin, down_begin,
  // down_segments).
  void index_segments();
  // Routing reads nodes, paths and dummy chains (`below`, filled here), not the segments and their
  // index (which the coordinate phase uses) or the creation order (only the ordering's tie-breaks;
  // layout_component frees it before the coordinates): those (~60 % of the graph) go before the
  // routes are built, so that the routes do not pile up on them.
  void release_segments();
  SegmentIds ups(uint32_t v) const { return {nullptr, up_begin[v], up_begin[v + 1]}; }
  SegmentIds downs(uint32_t v) const {
    return {down_segments.data(), down_begin[v], down_begin[v + 1]};
  }
  uint32_t dummy_below(uint32_t d) const { return below[d]; }
};

// How long edges are held: a dummy per layer, spans, or spans where the dummies a dummy per
// layer would make exceed three times the edges (a U-Net's skips: 21x), the rule under
// which LongEdgeOrdering::kAuto orders by segments.
enum class LayeredForm : uint8_t { kPerLayer, kSpans, kSpansIfLong };

// The form Options ask for: spans where long edges are ordered by segments, unless
// coordinates are Brandes–Köpf's, which place every dummy (kPerDummy: per layer).
LayeredForm layered_form(const Options& options);

// Long-edge splitting. `layer` is per flat node; `reversed` marks edges the cycle-breaking
// phase turned around. With `bundle_fan_out`, long edges leaving the same node at the same
// port share one chain of dummies and branch off one layer above each target.
LayeredGraph build_layered_graph(const FlatGraph& graph, const std::vector<uint32_t>& layer,
                                 const std::vector<uint8_t>& reversed, bool bundle_fan_out,
                                 LayeredForm form = LayeredForm::kPerLayer);

// Positions within layers. nodes[layer_begin[l] .. layer_begin[l + 1]) is layer l, left to
// right; pos[v] is v's index within its layer. On a graph with spans, layer l lists only
// its nodes other than spans, gap[v] is the number of spans left of node v in its layer,
// segment_order lists every span left to right (spans never cross, so one sequence is
// consistent with every layer) and pos[span] is its index there.
struct Order {
  std::vector<uint32_t> layer_begin;
  std::vector<uint32_t> nodes;
  std::vector<uint32_t> pos;
  std::vector<uint32_t> gap;            // with spans only
  std::vector<uint32_t> segment_order;  // with spans only
  // Made by segments (segment_ordering.h): long edges' inner segments never cross, so the
  // coordinate phase can straighten them side by side, left to right.
  bool by_segments = false;

  std::span<uint32_t> layer(uint32_t l) {
    return {nodes.data() + layer_begin[l], nodes.data() + layer_begin[l + 1]};
  }
  std::span<const uint32_t> layer(uint32_t l) const {
    return {nodes.data() + layer_begin[l], nodes.data() + layer_begin[l + 1]};
  }
};

}  // namespace etviz::layout
