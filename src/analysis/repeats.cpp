#include "analysis/repeats.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace etviz::analysis {
namespace {

// A repeated pattern of fewer ops (conv, relu, conv, relu) is how a sequence looks, not a block
// worth a box of its own.
constexpr int64_t kMinSequencePeriod = 4;

// splitmix64 step: mixes a value into a running 64-bit signature.
uint64_t mix(uint64_t h, uint64_t v) {
  uint64_t z = h ^ (v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2));
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
uint64_t text_hash(std::string_view s) {
  return std::hash<std::string_view>{}(s);
}

// The structure of an ordered set of nodes, up to renaming (see repeats.h).
class Signer {
 public:
  explicit Signer(const Graph& g) : g_(g), position_(g.nodes.size(), -1) {}

  // `path_prefix`: the instance's own module path, stripped from members' paths.
  uint64_t sign(const std::vector<NodeId>& nodes, std::string_view path_prefix) {
    for (size_t i = 0; i < nodes.size(); ++i)
      position_[static_cast<size_t>(nodes[i])] = static_cast<int32_t>(i);
    uint64_t h = nodes.size();
    for (NodeId id : nodes) {
      const Node& n = g_.nodes[static_cast<size_t>(id)];
      h = mix(h, text_hash(n.op));
      if (n.group >= 0 && static_cast<size_t>(n.group) < g_.groups.size()) {
        std::string_view path = g_.groups[static_cast<size_t>(n.group)].name;
        if (path.starts_with(path_prefix)) path.remove_prefix(path_prefix.size());
        h = mix(h, text_hash(path));
      }
      for (const Argument& a : n.outputs) h = mix(h, value_hash(a.value));
      for (const Argument& a : n.inputs) {
        if (a.value < 0 || static_cast<size_t>(a.value) >= g_.values.size()) {
          h = mix(h, 1);
          continue;
        }
        const Value& v = g_.values[static_cast<size_t>(a.value)];
        if (v.kind != ValueKind::kTensor) {
          h = mix(h, text_hash(v.literal));  // arguments such as dims and eps belong to the op
          continue;
        }
        const NodeId p = v.producer;
        const int32_t inside = p >= 0 && static_cast<size_t>(p) < position_.size()
                                   ? position_[static_cast<size_t>(p)]
                                   : -1;
        h = mix(h, static_cast<uint64_t>(inside + 2));
        h = mix(h, value_hash(a.value));
      }
    }
    for (NodeId id : nodes) position_[static_cast<size_t>(id)] = -1;
    return h;
  }

 private:
  uint64_t value_hash(ValueId id) const {
    if (id < 0 || static_cast<size_t>(id) >= g_.values.size()) return 3;
    const Value& v = g_.values[static_cast<size_t>(id)];
    if (v.kind != ValueKind::kTensor) return static_cast<uint64_t>(v.kind) + 5;
    uint64_t h = text_hash(v.tensor.dtype);
    for (const Dim& d : v.tensor.shape)
      h = mix(h, d.is_symbolic() ? text_hash(d.symbol.str()) : d.size);
    return h;
  }

  const Graph& g_;
  std::vector<int32_t> position_;
};

// "lacks 1 aten::add.Tensor; has 2 more aten::mul.Tensor", or a note when the ops agree.
std::string describe_difference(const Graph& g, const std::vector<NodeId>& usual,
                                const std::vector<NodeId>& other) {
  std::map<std::string, int64_t> delta;
  for (NodeId n : usual) --delta[g.nodes[static_cast<size_t>(n)].op];
  for (NodeId n : other) ++delta[g.nodes[static_cast<size_t>(n)].op];
  std::string out;
  auto add = [&](const std::string& part) { out += (out.empty() ? "" : "; ") + part; };
  for (const auto& [op, d] : delta) {
    if (d < 0) add(fmt::format("lacks {} {}", -d, op));
    if (d > 0) add(fmt::format("has {} more {}", d, op));
  }
  return out.empty() ? "same ops, other shapes or wiring" : out;
}

// Fills identical/differences from per-instance signatures and node lists.
void compare_instances(const Graph& g, const std::vector<uint64_t>& signatures,
                       const std::vector<std::vector<NodeId>>& nodes, RepeatRun& run) {
  std::unordered_map<uint64_t, size_t> count;
  for (uint64_t s : signatures) ++count[s];
  uint64_t usual = signatures.front();
  for (uint64_t s : signatures)
    if (count[s] > count[usual]) usual = s;
  const size_t representative = static_cast<size_t>(
      std::find(signatures.begin(), signatures.end(), usual) - signatures.begin());
  run.identical = count[usual];
  for (size_t i = 0; i < signatures.size(); ++i)
    if (signatures[i] != usual)
      run.differences.push_back({i, describe_difference(g, nodes[representative], nodes[i])});
}

// "layers.12" -> ("layers", 12); nullopt when the last segment is not an index.
std::optional<std::pair<std::string, int64_t>> indexed_name(const std::string& name) {
  const auto dot = name.rfind('.');
  const std::string_view last =
      dot == std::string::npos ? std::string_view(name) : std::string_view(name).substr(dot + 1);
  if (last.empty() || last.size() > 9) return std::nullopt;
  int64_t index = 0;
  auto [end, ec] = std::from_chars(last.data(), last.data() + last.size(), index);
  if (ec != std::errc() || end != last.data() + last.size()) return std::nullopt;
  return std::pair{dot == std::string::npos ? std::string() : name.substr(0, dot), index};
}

// "0 (DecoderLayer)" -> "DecoderLayer"; "" without a class.
std::string module_class(const std::string& label) {
  const auto open = label.rfind('(');
  if (open == std::string::npos || label.empty() || label.back() != ')') return "";
  return label.substr(open + 1, label.size() - open - 2);
}

void module_runs(const Graph& g, std::vector<RepeatRun>& out) {
  const size_t groups = g.groups.size();
  // Nodes of every group's subtree, in graph order.
  std::vector<std::vector<NodeId>> members(groups);
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    GroupId grp = g.nodes[n].group;
    for (size_t depth = 0; grp >= 0 && static_cast<size_t>(grp) < groups && depth < groups;
         ++depth) {
      members[static_cast<size_t>(grp)].push_back(static_cast<NodeId>(n));
      grp = g.groups[static_cast<size_t>(grp)].parent;
    }
  }
  // Siblings by parent, prefix and class.
  struct Sibling {
    int64_t index;
    GroupId group;
  };
  std::map<std::tuple<GroupId, std::string, std::string>, std::vector<Sibling>> families;
  for (size_t i = 0; i < groups; ++i) {
    const Group& grp = g.groups[i];
    if (grp.kind != GroupKind::kModule || members[i].empty()) continue;
    auto indexed = indexed_name(grp.name);
    if (!indexed) continue;
    const GroupId parent =
        grp.parent >= 0 && static_cast<size_t>(grp.parent) < groups ? grp.parent : kNoId;
    families[{parent, indexed->first, module_class(grp.label)}].push_back(
        {indexed->second, static_cast<GroupId>(i)});
  }
  Signer signer(g);
  for (auto& [key, siblings] : families) {
    const auto& [parent, prefix, cls] = key;
    std::sort(siblings.begin(), siblings.end(),
              [](const Sibling& a, const Sibling& b) { return a.index < b.index; });
    // Runs of consecutive indices; without a class, also of equal structure.
    size_t start = 0;
    std::vector<uint64_t> signatures;
    for (const Sibling& s : siblings) {
      const std::string& name = g.groups[static_cast<size_t>(s.group)].name;
      signatures.push_back(signer.sign(members[static_cast<size_t>(s.group)], name));
    }
    for (size_t i = 1; i <= siblings.size(); ++i) {
      const bool continues = i < siblings.size() &&
                             siblings[i].index == siblings[i - 1].index + 1 &&
                             (!cls.empty() || signatures[i] == signatures[i - 1]);
      if (continues) continue;
      if (i - start >= 2) {
        RepeatRun run;
        run.parent = parent;
        std::vector<uint64_t> sigs;
        std::vector<std::vector<NodeId>> nodes;
        for (size_t k = start; k < i; ++k) {
          run.groups.push_back(siblings[k].group);
          sigs.push_back(signatures[k]);
          nodes.push_back(members[static_cast<size_t>(siblings[k].group)]);
        }
        std::string shown = cls;
        if (shown.empty()) shown = prefix.substr(prefix.rfind('.') + 1);
        if (shown.empty()) shown = "block";
        run.label = fmt::format("{} \u00d7{}", shown, run.groups.size());
        run.name = fmt::format("{}{}{}-{}", prefix, prefix.empty() ? "" : ".",
                               siblings[start].index, siblings[i - 1].index);
        compare_instances(g, sigs, nodes, run);
        out.push_back(std::move(run));
      }
      start = i;
    }
  }
}

void sequence_runs(const Graph& g, std::vector<RepeatRun>& out) {
  // The operator sequence: kernels and delegate calls in program order.
  std::vector<NodeId> seq;
  std::vector<int32_t> token;
  std::unordered_map<std::string_view, int32_t> ids;
  for (size_t n = 0; n < g.nodes.size(); ++n) {
    const Node& node = g.nodes[n];
    if (node.kind != NodeKind::kKernel && node.kind != NodeKind::kDelegate) continue;
    seq.push_back(static_cast<NodeId>(n));
    token.push_back(ids.try_emplace(node.op, static_cast<int32_t>(ids.size())).first->second);
  }
  if (seq.size() < 6) return;
  std::vector<std::vector<int64_t>> positions(ids.size());
  for (size_t i = 0; i < token.size(); ++i)
    positions[static_cast<size_t>(token[i])].push_back(static_cast<int64_t>(i));
  // The anchor: an op that occurs once per block, so nearly all of its gaps are one period
  // (give or take the few ops an odd instance lacks); of those, the one covering the most.
  // An op that occurs twice per block alternates two gaps and is not taken.
  int32_t anchor = -1;
  int64_t period = 0, best_cover = 0;
  for (size_t t = 0; t < positions.size(); ++t) {
    const auto& pos = positions[t];
    if (pos.size() < 3) continue;
    std::unordered_map<int64_t, int64_t> gaps;
    for (size_t i = 1; i < pos.size(); ++i) ++gaps[pos[i] - pos[i - 1]];
    int64_t mode = 0, mode_count = 0;
    for (const auto& [gap, n] : gaps)
      if (n > mode_count || (n == mode_count && gap > mode)) {
        mode = gap;
        mode_count = n;
      }
    if (mode < kMinSequencePeriod) continue;
    const int64_t slack = std::max<int64_t>(2, mode / 10);
    int64_t near = 0;
    for (const auto& [gap, n] : gaps)
      if (std::abs(gap - mode) <= slack) near += n;
    const auto total = static_cast<int64_t>(pos.size() - 1);
    if (near * 5 < total * 4) continue;  // under 80% of the gaps are one period
    const int64_t cover = near * mode;
    if (cover > best_cover || (cover == best_cover && mode > period)) {
      best_cover = cover;
      period = mode;
      anchor = static_cast<int32_t>(t);
    }
  }
  if (anchor < 0) return;
  // A few ops more or less still make an instance ("the last layer lacks one op").
  const int64_t tolerance = std::max<int64_t>(2, period / 10);
  // An instance that lacks the anchor op itself leaves a gap of two periods: its boundary is
  // one period after the previous anchor.
  std::vector<int64_t> pos;
  const auto& found = positions[static_cast<size_t>(anchor)];
  for (size_t i = 0; i < found.size(); ++i) {
    if (i > 0 && std::abs(found[i] - found[i - 1] - 2 * period) <= tolerance)
      pos.push_back(found[i - 1] + period);
    pos.push_back(found[i]);
  }

  // Runs of anchors spaced by about one period.
  size_t start = 0;
  Signer signer(g);
  for (size_t i = 1; i <= pos.size(); ++i) {
    if (i < pos.size() && std::abs(pos[i] - pos[i - 1] - period) <= tolerance) continue;
    const size_t count = i - start;  // anchors in this run
    if (count >= 3 || (count >= 2 && i == pos.size())) {
      // Shift the boundaries back to the block's first op: as far as the ops before the
      // anchors agree. A periodic sequence has no start of its own, so the first instance
      // decides (what precedes the first block differs); the others need only agree for 80%
      // of them, so one odd instance does not cut every block short.
      const size_t anchors = i - start;
      int64_t shift = 0;
      const int64_t limit = std::min<int64_t>(period - 1, pos[start]);
      while (shift < limit) {
        const int32_t first = token[static_cast<size_t>(pos[start] - shift - 1)];
        size_t agree = 0;
        for (size_t k = start; k < i; ++k)
          agree +=
              pos[k] - shift - 1 >= 0 && token[static_cast<size_t>(pos[k] - shift - 1)] == first;
        if (agree * 5 < anchors * 4) break;
        ++shift;
      }
      // Each instance starts at the block's usual first op nearest to where it should be.
      std::unordered_map<int32_t, size_t> first_votes;
      for (size_t k = start; k < i; ++k) ++first_votes[token[static_cast<size_t>(pos[k] - shift)]];
      int32_t first_op = token[static_cast<size_t>(pos[start] - shift)];
      for (const auto& [t, v] : first_votes)
        if (v > first_votes[first_op]) first_op = t;
      const int64_t n = static_cast<int64_t>(seq.size());
      auto nearest = [&](int64_t expected, int32_t op, int64_t lo, int64_t hi) {
        for (int64_t d = 0; d <= tolerance; ++d)
          for (int64_t e : {expected + d, expected - d})
            if (e >= lo && e < hi && token[static_cast<size_t>(e)] == op) return e;
        return int64_t{-1};
      };
      std::vector<int64_t> starts;
      for (size_t k = start; k < i; ++k) {
        const int64_t lo = starts.empty() ? 0 : starts.back() + 1;
        const int64_t found_at = nearest(pos[k] - shift, first_op, lo, pos[k] + 1);
        starts.push_back(found_at >= 0 ? found_at : std::max(lo, pos[k] - shift));
      }
      std::vector<std::pair<int64_t, int64_t>> spans;
      for (size_t k = 0; k + 1 < starts.size(); ++k) spans.push_back({starts[k], starts[k + 1]});
      // The last instance ends where a block usually ends (the op before the second
      // instance), searched near one period after its start.
      const int64_t last_begin = starts.back();
      const int32_t last_op = token[static_cast<size_t>(starts[1] - 1)];
      int64_t end = nearest(last_begin + period - 1, last_op, last_begin, n);
      end = end >= 0 ? end + 1 : (last_begin + period <= n ? last_begin + period : -1);
      if (end > last_begin) spans.push_back({last_begin, end});
      if (spans.size() >= 3) {
        RepeatRun run;
        std::vector<uint64_t> sigs;
        for (const auto& [b, e] : spans) {
          run.ranges.emplace_back(seq.begin() + b, seq.begin() + e);
          sigs.push_back(signer.sign(run.ranges.back(), ""));
        }
        compare_instances(g, sigs, run.ranges, run);
        run.label = fmt::format("block \u00d7{}", run.ranges.size());
        run.name = fmt::format("repeat@{}", spans.front().first);
        out.push_back(std::move(run));
      }
    }
    start = i;
  }
}

}  // namespace

std::vector<RepeatRun> find_repeats(const Graph& graph) {
  std::vector<RepeatRun> out;
  if (graph.groups.empty())
    sequence_runs(graph, out);
  else
    module_runs(graph, out);
  std::stable_sort(out.begin(), out.end(), [](const RepeatRun& a, const RepeatRun& b) {
    return a.instances() > b.instances();
  });
  return out;
}

}  // namespace etviz::analysis
