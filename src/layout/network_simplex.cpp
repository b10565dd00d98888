#include "network_simplex.h"

#include <algorithm>
#include <functional>
#include <limits>
#include <queue>

namespace etviz::layout {
namespace {

constexpr uint32_t kNoEdge = std::numeric_limits<uint32_t>::max();
constexpr uint32_t kNoTree = std::numeric_limits<uint32_t>::max();

// The spanning tree of tight edges and its pivots. Tree vertices are numbered in postorder
// (`lim`, children in the order of their node's incident edges), each with the size of its
// subtree (`size`), so a subtree is the contiguous range of numbers
// node_at_lim[low(v) .. lim[v]] with low(v) = lim[v] - size[v] + 1, and "x lies below v" is
// low(v) <= lim[x] <= lim[v]. Cut values are Gansner et al.'s: for a tree edge, the edges from
// its tail's component to its head's component minus those the other way.
//
// A pivot cuts the subtree S below the leaving edge off and hangs it, re-rooted, from the
// entering edge. The numbering a depth-first search would now give differs from the old one
// only between S's old block and its new place: the nodes between shift by |S| (their sizes
// unchanged), S is searched again, and the sizes on the two tree paths from S's old and new
// parents up to their common ancestor change by |S|. That is what a pivot costs, instead of
// searching the whole subtree of the common ancestor again (dot's way), which in a deep model
// is most of the graph every time: a U-Net of 200k nodes, 118 pivots, each renumbering 206k
// nodes. The numbering is the search's to the number, so the pivots and the ranking are too.
class Simplex {
 public:
  Simplex(std::span<const RankEdge> edges, std::vector<int32_t>& rank)
      : edges_(edges), rank_(rank), n_(static_cast<uint32_t>(rank.size())) {
    begin_.assign(n_ + 1, 0);
    for (const RankEdge& e : edges_) {
      ++begin_[e.tail + 1];
      ++begin_[e.head + 1];
    }
    for (uint32_t v = 0; v < n_; ++v) begin_[v + 1] += begin_[v];
    incident_.resize(begin_[n_]);
    std::vector<uint32_t> fill(begin_.begin(), begin_.end() - 1);
    for (uint32_t e = 0; e < edges_.size(); ++e) {
      incident_[fill[edges_[e].tail]++] = e;
      incident_[fill[edges_[e].head]++] = e;
    }
    in_tree_.assign(edges_.size(), 0);
    cut_.assign(edges_.size(), 0);
    tree_pos_.assign(edges_.size(), kNoEdge);
    par_.assign(n_, kNoEdge);
    size_.assign(n_, 0);
    lim_.assign(n_, 0);
    node_at_lim_.assign(n_, 0);
  }

  NetworkSimplexStats run(uint64_t budget, bool check_numbering) {
    constexpr uint32_t kMaxDegenerateRun = 8;
    uint32_t degenerate_run = 0;
    NetworkSimplexStats stats;
    feasible_tree();
    number_trees();
    initial_cut_values();
    while (true) {
      const uint32_t leaving = leave_edge();
      if (leaving == kNoEdge) break;
      if (work_ > budget) break;
      const uint32_t entering = enter_edge(leaving);
      if (entering == kNoEdge) break;  // cannot happen on a connected tree; never loop
      // A pivot whose entering edge is already tight changes the tree, not the ranks. Where
      // the ranking is optimal already but the tree is not (a transformer stack ranked
      // by the greedy moves: 9,090 such pivots in a row at 200k nodes, each costing up to most
      // of the tree), a long run of them is the search wandering on a plateau; where they
      // lead somewhere they come a few at a time between improving pivots (per-head LLM
      // 200k: 55 of 496).
      degenerate_run = slack(entering) == 0 ? degenerate_run + 1 : 0;
      if (degenerate_run > kMaxDegenerateRun) break;
      update(leaving, entering);
      ++stats.pivots;
      if (check_numbering && !numbering_is_a_search()) ++stats.numbering_errors;
    }
    return stats;
  }

 private:
  int64_t slack(uint32_t e) const {
    return int64_t{rank_[edges_[e].head]} - rank_[edges_[e].tail] - 1;
  }
  uint32_t other(uint32_t e, uint32_t v) const {
    return edges_[e].tail == v ? edges_[e].head : edges_[e].tail;
  }
  std::span<const uint32_t> incident(uint32_t v) const {
    return {incident_.data() + begin_[v], begin_[v + 1] - begin_[v]};
  }
  uint32_t low(uint32_t v) const { return lim_[v] + 1 - size_[v]; }
  bool below(uint32_t x, uint32_t v) const { return low(v) <= lim_[x] && lim_[x] <= lim_[v]; }
  uint32_t parent(uint32_t v) const { return other(par_[v], v); }

  void add_tree_edge(uint32_t e) {
    in_tree_[e] = 1;
    tree_pos_[e] = static_cast<uint32_t>(tree_edges_.size());
    tree_edges_.push_back(e);
  }

  // Tight trees grown from every node, then merged smallest first: a tree moves by the
  // slack of its tightest edge to another tree (up or down, whichever that edge needs; no
  // edge of the tree gets negative slack, as that edge's is the smallest), which makes the
  // edge tight and joins the two.
  void feasible_tree() {
    std::vector<uint32_t> tree_of(n_, kNoTree), next(n_, kNoTree), first, last, size;
    for (uint32_t root = 0; root < n_; ++root) {
      if (tree_of[root] != kNoTree) continue;
      const auto t = static_cast<uint32_t>(first.size());
      tree_of[root] = t;
      first.push_back(root);
      last.push_back(root);
      size.push_back(1);
      for (uint32_t x = root; x != kNoTree; x = next[x]) {
        for (const uint32_t e : incident(x)) {
          const uint32_t y = other(e, x);
          if (tree_of[y] != kNoTree || slack(e) != 0) continue;
          tree_of[y] = t;
          next[last[t]] = y;
          last[t] = y;
          ++size[t];
          add_tree_edge(e);
        }
      }
    }
    using Entry = std::pair<uint32_t, uint32_t>;  // size, tree
    std::priority_queue<Entry, std::vector<Entry>, std::greater<>> heap;
    for (uint32_t t = 0; t < first.size(); ++t) heap.push({size[t], t});
    while (!heap.empty()) {
      const auto [s, t] = heap.top();
      heap.pop();
      if (size[t] != s) continue;  // merged since (size 0) or grown since (pushed again)
      uint32_t best = kNoEdge;
      int64_t best_slack = std::numeric_limits<int64_t>::max();
      for (uint32_t x = first[t]; x != kNoTree && best_slack > 0; x = next[x]) {
        work_ += 1 + incident(x).size();
        for (const uint32_t e : incident(x)) {
          if (tree_of[other(e, x)] == t) continue;
          const int64_t sl = slack(e);
          if (sl < best_slack) {
            best_slack = sl;
            best = e;
          }
        }
      }
      if (best == kNoEdge) continue;  // no edge to another tree: a component of its own
      // Down when the edge leaves the tree, up when it enters it.
      const bool leaves = tree_of[edges_[best].tail] == t;
      const auto delta = static_cast<int32_t>(leaves ? best_slack : -best_slack);
      const uint32_t into = tree_of[leaves ? edges_[best].head : edges_[best].tail];
      for (uint32_t x = first[t]; x != kNoTree; x = next[x]) {
        rank_[x] += delta;
        tree_of[x] = into;
      }
      next[last[into]] = first[t];
      last[into] = last[t];
      size[into] += size[t];
      size[t] = 0;
      add_tree_edge(best);
      heap.push({size[into], into});
    }
  }

  // Postorder numbers of the subtree at `root` (entered by tree edge `par`), from `low`.
  uint32_t dfs_range(uint32_t root, uint32_t par, uint32_t low) {
    uint32_t counter = low;
    par_[root] = par;
    stack_.assign(1, {root, begin_[root], counter});
    while (!stack_.empty()) {
      auto& [v, i, first] = stack_.back();
      bool descended = false;
      for (; i < begin_[v + 1]; ++i) {
        const uint32_t e = incident_[i];
        if (!in_tree_[e] || e == par_[v]) continue;
        const uint32_t w = other(e, v);
        ++i;
        par_[w] = e;
        stack_.push_back({w, begin_[w], counter});
        descended = true;
        break;
      }
      if (descended) continue;
      lim_[v] = counter;
      size_[v] = counter + 1 - first;
      node_at_lim_[counter] = v;
      ++counter;
      stack_.pop_back();
    }
    work_ += counter - low;
    return counter;
  }

  // Whether the numbering is what a fresh search from every tree's root gives (a test's check).
  bool numbering_is_a_search() {
    const std::vector<uint32_t> par = par_, lim = lim_, size = size_, at = node_at_lim_;
    std::vector<uint32_t> roots;
    for (uint32_t v = 0; v < n_; ++v)
      if (par_[v] == kNoEdge) roots.push_back(v);
    std::sort(roots.begin(), roots.end(),
              [&](uint32_t a, uint32_t b) { return lim_[a] < lim_[b]; });
    for (const uint32_t r : roots) dfs_range(r, kNoEdge, low(r));
    const bool same = par == par_ && lim == lim_ && size == size_ && at == node_at_lim_;
    par_ = par, lim_ = lim, size_ = size, node_at_lim_ = at;
    return same;
  }

  void number_trees() {
    std::vector<uint8_t> numbered(n_, 0);
    uint32_t counter = 0;
    for (uint32_t v = 0; v < n_; ++v) {
      if (numbered[v]) continue;
      const uint32_t start = counter;
      counter = dfs_range(v, kNoEdge, counter);
      for (uint32_t l = start; l < counter; ++l) numbered[node_at_lim_[l]] = 1;
    }
  }

  // Contribution of edge e at v to the cut value of v's parent edge (dot's x_val).
  int64_t x_val(uint32_t e, uint32_t v, bool v_is_tail_of_par) const {
    const uint32_t o = other(e, v);
    const bool outside = !below(o, v);
    int64_t value = outside ? 1 : (in_tree_[e] ? cut_[e] : 0) - 1;
    int d = v_is_tail_of_par ? (edges_[e].head == v ? 1 : -1) : (edges_[e].tail == v ? 1 : -1);
    if (outside) d = -d;
    return d < 0 ? -value : value;
  }

  void set_cut_value(uint32_t v) {
    const uint32_t f = par_[v];
    const bool v_is_tail = edges_[f].tail == v;
    int64_t sum = 0;
    for (const uint32_t e : incident(v)) sum += x_val(e, v, v_is_tail);
    cut_[f] = sum;
  }

  void initial_cut_values() {
    for (uint32_t l = 0; l < n_; ++l) {
      const uint32_t v = node_at_lim_[l];
      if (par_[v] != kNoEdge) set_cut_value(v);
    }
    work_ += n_ + incident_.size();
  }

  // A tree edge with a negative cut value: the most negative of the first kSearch found,
  // searching on from where the last search stopped (as dot does).
  uint32_t leave_edge() {
    constexpr int kSearch = 30;
    uint32_t found = kNoEdge;
    int count = 0;
    const size_t total = tree_edges_.size();
    if (total > 0) search_ %= total;
    for (size_t step = 0; step < total; ++step) {
      const uint32_t e = tree_edges_[search_];
      if (cut_[e] < 0) {
        if (found == kNoEdge || cut_[e] < cut_[found]) found = e;
        if (++count >= kSearch) break;
      }
      if (++search_ == total) search_ = 0;  // (not a division per step)
    }
    work_ += 1;
    return found;
  }

  // The non-tree edge of least slack that reconnects the two parts in the direction that
  // makes the leaving edge's cut value positive.
  uint32_t enter_edge(uint32_t f) {
    const uint32_t t = edges_[f].tail, h = edges_[f].head;
    const bool tail_side = lim_[t] < lim_[h];  // the subtree below f holds f's tail
    const uint32_t v = tail_side ? t : h;
    uint32_t best = kNoEdge;
    int64_t best_slack = std::numeric_limits<int64_t>::max();
    for (uint32_t l = low(v); l <= lim_[v] && best_slack > 0; ++l) {
      const uint32_t x = node_at_lim_[l];
      work_ += 1 + incident(x).size();
      for (const uint32_t e : incident(x)) {
        if (in_tree_[e]) continue;
        // Into the subtree when it holds f's tail, out of it when it holds f's head.
        const bool x_end_ok = tail_side ? edges_[e].head == x : edges_[e].tail == x;
        if (!x_end_ok || below(other(e, x), v)) continue;
        const int64_t sl = slack(e);
        if (sl < best_slack) {
          best_slack = sl;
          best = e;
        }
      }
    }
    return best;
  }

  uint32_t tree_update(uint32_t v, uint32_t w, int64_t cut, bool dir) {
    while (!below(w, v)) {
      const uint32_t e = par_[v];
      const bool d = v == edges_[e].tail ? dir : !dir;
      cut_[e] += d ? cut : -cut;
      v = lim_[edges_[e].tail] > lim_[edges_[e].head] ? edges_[e].tail : edges_[e].head;
      ++work_;
    }
    return v;
  }

  void update(uint32_t leaving, uint32_t entering) {
    const int64_t delta = slack(entering);
    if (delta > 0) {
      const uint32_t t = edges_[leaving].tail, h = edges_[leaving].head;
      const uint32_t v = lim_[t] < lim_[h] ? t : h;
      const auto shift = static_cast<int32_t>(v == t ? -delta : delta);
      for (uint32_t l = low(v); l <= lim_[v]; ++l) rank_[node_at_lim_[l]] += shift;
      work_ += size_[v];
    }
    const int64_t cut = cut_[leaving];
    const uint32_t lca = tree_update(edges_[entering].tail, edges_[entering].head, cut, true);
    tree_update(edges_[entering].head, edges_[entering].tail, cut, false);
    cut_[entering] = -cut;
    cut_[leaving] = 0;
    const Moved moved = renumber(leaving, entering, lca);
    in_tree_[leaving] = 0;
    in_tree_[entering] = 1;
    tree_pos_[entering] = tree_pos_[leaving];
    tree_edges_[tree_pos_[entering]] = entering;
    tree_pos_[leaving] = kNoEdge;
    dfs_range(moved.root, entering, moved.first);
  }

  // The cut-off subtree S after a pivot: its new root and its new first number.
  struct Moved {
    uint32_t root, first;
  };
  // The numbering after the exchange, all but S's block (which dfs_range then fills from S's
  // new root): the old one with S taken out and put back where a search from the common
  // ancestor would now reach it.
  Moved renumber(uint32_t leaving, uint32_t entering, uint32_t lca) {
    const uint32_t t = edges_[leaving].tail, h = edges_[leaving].head;
    const uint32_t v = lim_[t] < lim_[h] ? t : h;  // S's root
    const uint32_t u = other(leaving, v);
    const uint32_t x =
        below(edges_[entering].tail, v) ? edges_[entering].tail : edges_[entering].head;
    const uint32_t y = other(entering, x);
    const uint32_t s = size_[v], s_low = low(v), s_lim = lim_[v];
    // Positions once S is taken out.
    const auto out = [&](uint32_t p) { return p < s_low ? p : p > s_lim ? p - s : s_low; };
    // S's new place: after the subtree of y's tree child that comes before the entering edge
    // in y's incident edges, or first in y's subtree.
    uint32_t at = kNoEdge;
    for (uint32_t i = begin_[y]; incident_[i] != entering; ++i) {
      const uint32_t e = incident_[i];
      if (in_tree_[e] && e != leaving && e != par_[y]) at = out(lim_[other(e, y)]) + 1;
    }
    if (at == kNoEdge) at = out(low(y));
    // Sizes on the paths from S's old parent and its new one up to the common ancestor (the
    // paths tree_update walked and counted as work).
    for (uint32_t z = u; z != lca; z = parent(z)) size_[z] -= s;
    for (uint32_t z = y; z != lca; z = parent(z)) size_[z] += s;
    // The nodes between S's old block and its new place move by |S|.
    if (at >= s_low) {
      std::copy(node_at_lim_.begin() + s_lim + 1, node_at_lim_.begin() + at + s,
                node_at_lim_.begin() + s_low);
      for (uint32_t p = s_low; p < at; ++p) lim_[node_at_lim_[p]] = p;
      work_ += at - s_low;
    } else {
      std::copy_backward(node_at_lim_.begin() + at, node_at_lim_.begin() + s_low,
                         node_at_lim_.begin() + s_lim + 1);
      for (uint32_t p = at + s; p <= s_lim; ++p) lim_[node_at_lim_[p]] = p;
      work_ += s_low - at;
    }
    return {x, at};
  }

  std::span<const RankEdge> edges_;
  std::vector<int32_t>& rank_;
  uint32_t n_;
  std::vector<uint32_t> begin_, incident_;  // per node, the edges at it (both directions)
  std::vector<uint8_t> in_tree_;
  std::vector<int64_t> cut_;
  std::vector<uint32_t> tree_edges_, tree_pos_;
  std::vector<uint32_t> par_, size_, lim_, node_at_lim_;
  struct Frame {
    uint32_t node, next_incident, first;  // first: the subtree's lowest number
  };
  std::vector<Frame> stack_;
  size_t search_ = 0;
  uint64_t work_ = 0;
};

}  // namespace

NetworkSimplexStats minimise_edge_lengths(std::span<const RankEdge> edges,
                                          std::vector<int32_t>& rank, uint64_t work_budget,
                                          bool check_numbering) {
  if (rank.empty() || edges.empty()) return {};
  for (const RankEdge& e : edges) {
    if (e.tail >= rank.size() || e.head >= rank.size() || rank[e.head] - rank[e.tail] < 1)
      return {};  // not a feasible ranking of these nodes: nothing to start from
  }
  const int32_t lowest = *std::min_element(rank.begin(), rank.end());
  if (work_budget == 0) {
    // Pivots from a good start are few (the greedy layering leaves little to do); the
    // budget only stops pathological inputs from taking quadratic time.
    constexpr uint64_t kWorkPerItem = 256;
    work_budget = kWorkPerItem * (rank.size() + edges.size()) + 1'000'000;
  }
  Simplex simplex(edges, rank);
  const NetworkSimplexStats stats = simplex.run(work_budget, check_numbering);
  const int32_t now = *std::min_element(rank.begin(), rank.end());
  for (int32_t& r : rank) r += lowest - now;
  return stats;
}

}  // namespace etviz::layout
