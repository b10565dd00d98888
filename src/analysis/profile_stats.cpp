#include "analysis/profile_stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <map>
#include <numeric>
#include <set>
#include <tuple>

namespace etviz::analysis {

std::optional<TimeUnit> parse_time_unit(std::string_view text) {
  if (text == "ticks" || text == "tick" || text == "raw") return TimeUnit::kTicks;
  if (text == "ns") return TimeUnit::kNanoseconds;
  if (text == "us" || text == "\xC2\xB5s") return TimeUnit::kMicroseconds;
  if (text == "ms") return TimeUnit::kMilliseconds;
  if (text == "s") return TimeUnit::kSeconds;
  return std::nullopt;
}

const char* to_string(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kTicks:
      return "ticks";
    case TimeUnit::kNanoseconds:
      return "ns";
    case TimeUnit::kMicroseconds:
      return "us";
    case TimeUnit::kMilliseconds:
      return "ms";
    case TimeUnit::kSeconds:
      return "s";
  }
  return "ticks";
}

namespace {
double nanoseconds_per(TimeUnit unit) {
  switch (unit) {
    case TimeUnit::kNanoseconds:
      return 1;
    case TimeUnit::kMicroseconds:
      return 1e3;
    case TimeUnit::kMilliseconds:
      return 1e6;
    case TimeUnit::kSeconds:
      return 1e9;
    case TimeUnit::kTicks:
      return 0;
  }
  return 0;
}
}  // namespace

double TimeScale::factor() const {
  if (source == TimeUnit::kTicks || target == TimeUnit::kTicks) return 1;
  return nanoseconds_per(source) / nanoseconds_per(target);
}

Result<TimeScale> make_time_scale(std::optional<TimeUnit> source, std::optional<TimeUnit> target) {
  TimeScale scale;
  scale.source = source.value_or(TimeUnit::kTicks);
  if (scale.source == TimeUnit::kTicks) {
    if (target && *target != TimeUnit::kTicks)
      return Error(fmt::format(
          "cannot show times in {}: an ETDump stores raw ticks of the device clock and does not "
          "say what a tick is; pass --source-unit (e.g. --source-unit ns for the default "
          "Linux/macOS runtime clock)",
          to_string(*target)));
    scale.target = TimeUnit::kTicks;
    return scale;
  }
  // Unasked, show microseconds: what a kernel's time reads best in.
  scale.target = target.value_or(TimeUnit::kMicroseconds);
  if (scale.target == TimeUnit::kTicks) scale.target = scale.source;
  return scale;
}

double percentile_sorted(const std::vector<double>& sorted, double q) {
  if (sorted.empty()) return 0;
  const double rank = q / 100.0 * static_cast<double>(sorted.size() - 1);
  const auto lo = static_cast<size_t>(std::floor(rank));
  const size_t hi = std::min(lo + 1, sorted.size() - 1);
  const double frac = rank - static_cast<double>(lo);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * frac;
}

DurationStats compute_stats(std::vector<double> samples) {
  DurationStats s;
  if (samples.empty()) return s;
  std::sort(samples.begin(), samples.end());
  s.count = samples.size();
  s.total = std::accumulate(samples.begin(), samples.end(), 0.0);
  s.avg = s.total / static_cast<double>(s.count);
  s.min = samples.front();
  s.max = samples.back();
  s.p10 = percentile_sorted(samples, 10);
  s.p50 = percentile_sorted(samples, 50);
  s.p90 = percentile_sorted(samples, 90);
  return s;
}

std::string EventRow::delegate_debug_id() const {
  if (delegate_debug_id_int != -1) return std::to_string(delegate_debug_id_int);
  return delegate_debug_id_str;
}

double ProfileStats::execute_total(std::string_view block) const {
  for (const auto& [name, total] : execute_totals)
    if (name == block) return total;
  return 0;
}

namespace {

using EventKey = std::tuple<size_t, std::string, int32_t, int32_t, int32_t, std::string>;

// Reads element i of a numeric dtype as a double; nullopt for dtypes we do not decode.
std::optional<double> element(const std::string& dtype, const uint8_t* p) {
  auto load = [p](auto v) {
    std::memcpy(&v, p, sizeof v);
    return static_cast<double>(v);
  };
  if (dtype == "float32") return load(float{});
  if (dtype == "float64") return load(double{});
  if (dtype == "int8" || dtype == "qint8") return load(int8_t{});
  if (dtype == "uint8" || dtype == "quint8") return load(uint8_t{});
  if (dtype == "bool") return p[0] ? 1.0 : 0.0;
  if (dtype == "int16") return load(int16_t{});
  if (dtype == "uint16") return load(uint16_t{});
  if (dtype == "int32" || dtype == "qint32") return load(int32_t{});
  if (dtype == "uint32") return load(uint32_t{});
  if (dtype == "int64") return load(int64_t{});
  if (dtype == "uint64") return load(uint64_t{});
  if (dtype == "bfloat16") {
    uint16_t h;
    std::memcpy(&h, p, 2);
    // memcpy, not std::bit_cast: the libc++ of Debian's Emscripten (the app build) lacks it.
    const uint32_t bits = static_cast<uint32_t>(h) << 16;
    float f;
    std::memcpy(&f, &bits, 4);
    return static_cast<double>(f);
  }
  if (dtype == "float16") {
    uint16_t h;
    std::memcpy(&h, p, 2);
    const int exponent = (h >> 10) & 0x1f;
    const int mantissa = h & 0x3ff;
    const double sign = (h & 0x8000) ? -1.0 : 1.0;
    if (exponent == 0) return sign * std::ldexp(mantissa, -24);
    if (exponent == 31) return mantissa ? std::nan("") : sign * INFINITY;
    return sign * std::ldexp(mantissa + 1024, exponent - 25);
  }
  return std::nullopt;
}

std::string shape_text(const std::vector<int64_t>& sizes) {
  return fmt::format("[{}]", fmt::join(sizes, ", "));
}

void describe_tensor_data(const Profile& profile, const ProfileTensor& tensor, DebugRow& row) {
  const auto bytes = profile.tensor_bytes(tensor);
  const int64_t element_size = dtype_element_size(tensor.dtype);
  if (bytes.empty() || element_size <= 0) return;
  const size_t n = bytes.size() / static_cast<size_t>(element_size);
  double sum = 0, lo = INFINITY, hi = -INFINITY;
  size_t finite = 0;
  std::vector<std::string> head;
  for (size_t i = 0; i < n; ++i) {
    auto v = element(tensor.dtype, bytes.data() + i * static_cast<size_t>(element_size));
    if (!v) return;
    if (head.size() < 6) head.push_back(fmt::format("{:.6g}", *v));
    if (std::isnan(*v)) {
      ++row.nan_count;
      continue;
    }
    lo = std::min(lo, *v);
    hi = std::max(hi, *v);
    sum += *v;
    ++finite;
  }
  if (finite) {
    row.min = lo;
    row.max = hi;
    row.mean = sum / static_cast<double>(finite);
  }
  row.preview = fmt::format("[{}{}]", fmt::join(head, ", "), n > head.size() ? ", ..." : "");
}

DebugRow debug_row(const Profile& profile, const std::string& block, const DebugEvent& event) {
  DebugRow row;
  row.block = block;
  row.name = event.name;
  row.chain = event.chain;
  row.instruction = event.instruction;
  row.delegate_debug_id = event.delegate_debug_id_int != -1
                              ? std::to_string(event.delegate_debug_id_int)
                              : event.delegate_debug_id_str;
  const ProfileValue& v = event.value;
  row.kind = to_string(v.kind);
  row.is_output = v.is_output;
  switch (v.kind) {
    case ProfileValue::Kind::kInt:
      row.description = std::to_string(v.int_value);
      break;
    case ProfileValue::Kind::kBool:
      row.description = v.bool_value ? "True" : "False";
      break;
    case ProfileValue::Kind::kFloat:
    case ProfileValue::Kind::kDouble:
      row.description = fmt::format("{:.9g}", v.float_value);
      break;
    case ProfileValue::Kind::kTensor:
    case ProfileValue::Kind::kTensorList: {
      std::vector<std::string> parts;
      for (const auto& t : v.tensors) parts.push_back(t.dtype + shape_text(t.sizes));
      row.description = v.kind == ProfileValue::Kind::kTensor
                            ? fmt::format("{}", fmt::join(parts, ""))
                            : fmt::format("[{}]", fmt::join(parts, ", "));
      if (v.tensors.size() == 1) describe_tensor_data(profile, v.tensors[0], row);
      break;
    }
    default:
      break;
  }
  return row;
}

}  // namespace

std::vector<RunSummary> summarize_runs(const Profile& profile) {
  std::vector<RunSummary> out;
  out.reserve(profile.runs.size());
  for (const ProfileRun& run : profile.runs) {
    RunSummary s;
    s.name = run.name;
    s.bundled_input = run.bundled_input_index;
    s.profile_events = run.profile_events.size();
    bool timed = false;
    for (const ProfileEvent& e : run.profile_events) {
      if (e.is_framework())
        ++s.framework_events;
      else if (e.has_delegate_debug_id())
        ++s.delegate_events;
      else
        ++s.instruction_events;
      if (e.end < e.start) continue;  // a clock that went backwards spans nothing
      s.first_start = timed ? std::min(s.first_start, e.start) : e.start;
      s.last_end = timed ? std::max(s.last_end, e.end) : e.end;
      timed = true;
    }
    s.debug_events = run.debug_events.size();
    for (const DebugEvent& d : run.debug_events) s.logged_outputs += d.value.is_output ? 1 : 0;
    s.allocators = run.allocators.size();
    s.allocations = run.allocations.size();
    for (const AllocationEvent& a : run.allocations) s.allocated_bytes += a.size;
    out.push_back(std::move(s));
  }
  return out;
}

ProfileStats summarize_profile(const Profile& profile) {
  ProfileStats stats;
  stats.runs = profile.runs.size();
  std::map<std::string, size_t> block_index;
  std::map<EventKey, size_t> row_index;
  std::vector<EventRow> rows;
  std::map<std::pair<size_t, std::string>, AllocatorRow> allocators;

  for (const ProfileRun& run : profile.runs) {
    auto [it, fresh] = block_index.try_emplace(run.name, stats.blocks.size());
    if (fresh) stats.blocks.push_back(run.name);
    const size_t block = it->second;
    for (const ProfileEvent& e : run.profile_events) {
      EventKey key{block,
                   e.name,
                   e.chain,
                   e.is_framework() ? -1 : e.instruction,
                   e.delegate_debug_id_int,
                   e.delegate_debug_id_str};
      auto [slot, added] = row_index.try_emplace(key, rows.size());
      if (added) {
        EventRow row;
        row.block = run.name;
        row.name = e.name;
        row.chain = e.chain;
        // Framework events carry instruction 0 in real files; it means nothing there.
        row.instruction = e.is_framework() ? -1 : e.instruction;
        row.delegate_debug_id_int = e.delegate_debug_id_int;
        row.delegate_debug_id_str = e.delegate_debug_id_str;
        rows.push_back(std::move(row));
      }
      rows[slot->second].samples.push_back(static_cast<double>(e.duration()));
    }
    for (const AllocationEvent& a : run.allocations) {
      const std::string name =
          a.allocator >= 0 && static_cast<size_t>(a.allocator) < run.allocators.size()
              ? run.allocators[static_cast<size_t>(a.allocator)]
              : fmt::format("allocator {}", a.allocator);
      AllocatorRow& row = allocators[{block, name}];
      row.block = run.name;
      row.allocator = name;
      ++row.allocations;
      row.total_bytes += a.size;
      row.max_bytes = std::max(row.max_bytes, a.size);
    }
    for (const DebugEvent& d : run.debug_events)
      stats.debug_events.push_back(debug_row(profile, run.name, d));
  }

  for (EventRow& row : rows) row.stats = compute_stats(row.samples);
  std::vector<double> execute(stats.blocks.size(), 0);
  for (EventRow& row : rows) {
    if (row.is_framework()) {
      if (row.name == "Method::execute") execute[block_index[row.block]] += row.stats.total;
      stats.method_events.push_back(std::move(row));
    } else {
      stats.events.push_back(std::move(row));
    }
  }
  for (size_t b = 0; b < stats.blocks.size(); ++b)
    stats.execute_totals.emplace_back(stats.blocks[b], execute[b]);
  std::stable_sort(stats.events.begin(), stats.events.end(),
                   [&](const EventRow& a, const EventRow& b) {
                     if (a.stats.total != b.stats.total) return a.stats.total > b.stats.total;
                     const size_t ba = block_index[a.block], bb = block_index[b.block];
                     if (ba != bb) return ba < bb;
                     return std::tie(a.chain, a.instruction) < std::tie(b.chain, b.instruction);
                   });
  for (auto& [key, row] : allocators) stats.allocators.push_back(row);
  return stats;
}

std::vector<EventRow> group_by_name(const std::vector<EventRow>& rows) {
  std::vector<EventRow> out;
  std::map<std::pair<std::string, std::string>, size_t> index;
  for (const EventRow& row : rows) {
    auto [it, added] = index.try_emplace({row.block, row.name}, out.size());
    if (added) {
      EventRow merged;
      merged.block = row.block;
      merged.name = row.name;
      merged.chain = row.chain;
      merged.join.delegated = row.join.delegated;
      merged.join.backend = row.join.backend;
      if (row.has_delegate_debug_id()) merged.delegate_debug_id_str = "*";
      out.push_back(std::move(merged));
    }
    EventRow& m = out[it->second];
    if (m.chain != row.chain) m.chain = -2;  // mixed; instruction shown as "*"
    m.instruction = -1;
    m.samples.insert(m.samples.end(), row.samples.begin(), row.samples.end());
    auto add_unique = [](std::vector<std::string>& to, const std::vector<std::string>& from) {
      for (const auto& s : from)
        if (std::find(to.begin(), to.end(), s) == to.end()) to.push_back(s);
    };
    add_unique(m.join.op_types, row.join.op_types);
    add_unique(m.join.module_paths, row.join.module_paths);
    if (m.join.method.empty()) m.join.method = row.join.method;
    if (m.join.delegated != row.join.delegated) m.join.delegated.reset();
    if (m.join.backend != row.join.backend) m.join.backend.clear();
  }
  for (EventRow& row : out) row.stats = compute_stats(row.samples);
  std::stable_sort(out.begin(), out.end(), [](const EventRow& a, const EventRow& b) {
    return a.stats.total > b.stats.total;
  });
  return out;
}

std::vector<int32_t> enclosing_rows(const std::vector<EventRow>& rows) {
  std::vector<int32_t> parent(rows.size(), -1);
  const auto n = static_cast<int32_t>(rows.size());
  // Per instruction: the outermost row (no delegate id, largest total).
  std::map<std::tuple<std::string, int32_t, int32_t>, int32_t> outer;
  // Merged rows: the OPERATOR_CALL and DELEGATE_CALL row of each block.
  std::map<std::pair<std::string, std::string>, int32_t> by_name;
  for (int32_t i = 0; i < n; ++i) {
    const EventRow& row = rows[static_cast<size_t>(i)];
    if (row.is_framework()) continue;
    if (row.instruction < 0) {
      by_name.try_emplace({row.block, row.name}, i);
      continue;
    }
    if (row.has_delegate_debug_id()) continue;
    auto [it, added] = outer.try_emplace({row.block, row.chain, row.instruction}, i);
    if (!added && row.stats.total > rows[static_cast<size_t>(it->second)].stats.total)
      it->second = i;
  }
  for (int32_t i = 0; i < n; ++i) {
    const EventRow& row = rows[static_cast<size_t>(i)];
    if (row.is_framework()) continue;
    int32_t p = -1;
    if (row.instruction >= 0) {
      auto it = outer.find({row.block, row.chain, row.instruction});
      if (it != outer.end() && it->second != i) p = it->second;
    } else if (row.has_delegate_debug_id()) {
      if (auto it = by_name.find({row.block, "DELEGATE_CALL"}); it != by_name.end()) p = it->second;
    } else if (row.name.rfind("native_call_", 0) == 0) {
      if (auto it = by_name.find({row.block, "OPERATOR_CALL"}); it != by_name.end()) p = it->second;
    }
    parent[static_cast<size_t>(i)] = p;
  }
  return parent;
}

}  // namespace etviz::analysis
