#include "analysis/numerics.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <tuple>
#include <type_traits>
#include <unordered_set>

#include "analysis/profile_join.h"
#include "core/number_text.h"
#include "core/tensor_info.h"

namespace etviz::analysis {
namespace {

std::string shape_text(const std::vector<int64_t>& sizes) {
  return fmt::format("[{}]", fmt::join(sizes, ", "));
}

// A scalar as a one-element float64 tensor (ExecuTorch's convert_to_float_tensor does the same).
TensorData scalar_tensor(const double& value) {
  TensorData t;
  t.dtype = "float64";
  t.bytes = {reinterpret_cast<const uint8_t*>(&value), sizeof value};
  return t;
}

}  // namespace

const char* to_string(Metric m) {
  switch (m) {
    case Metric::kMse:
      return "mse";
    case Metric::kL1:
      return "l1";
    case Metric::kSnr:
      return "snr";
    case Metric::kCosine:
      return "cosine";
    case Metric::kMaxAbs:
      return "max_abs";
  }
  return "snr";
}

bool Threshold::crossed(const TensorComparison& m) const {
  // NaN figures (nothing compared) never cross; the comparisons below are false for them.
  switch (metric) {
    case Metric::kMse:
      return m.mse > value;
    case Metric::kL1:
      return m.l1 > value;
    case Metric::kMaxAbs:
      return m.max_abs > value;
    case Metric::kSnr:
      return m.snr_db < value;
    case Metric::kCosine:
      return m.cosine < value;
  }
  return false;
}

std::string Threshold::describe() const {
  switch (metric) {
    case Metric::kSnr:
      return fmt::format("snr < {:g} dB", value);
    case Metric::kCosine:
      return fmt::format("cosine < {:g}", value);
    default:
      return fmt::format("{} > {:g}", to_string(metric), value);
  }
}

std::vector<Threshold> default_thresholds() {
  return {Threshold{Metric::kSnr, 20}};
}

Result<Threshold> parse_threshold(std::string_view text) {
  const auto eq = text.find('=');
  const auto bad = [&] {
    return Error(fmt::format(
        "--threshold '{}': expected METRIC=VALUE with METRIC one of snr, mse, l1, cosine, "
        "max_abs (e.g. snr=20, mse=1e-4)",
        text));
  };
  if (eq == std::string_view::npos) return bad();
  std::string name(text.substr(0, eq));
  std::replace(name.begin(), name.end(), '-', '_');
  std::transform(name.begin(), name.end(), name.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  Threshold t;
  if (name == "snr")
    t.metric = Metric::kSnr;
  else if (name == "mse")
    t.metric = Metric::kMse;
  else if (name == "l1")
    t.metric = Metric::kL1;
  else if (name == "cosine" || name == "cos")
    t.metric = Metric::kCosine;
  else if (name == "max_abs" || name == "maxabs")
    t.metric = Metric::kMaxAbs;
  else
    return bad();
  if (parse_double(text.substr(eq + 1), t.value) != NumberText::kOk || !std::isfinite(t.value))
    return bad();
  return t;
}

std::string DebugEntry::delegate_debug_id() const {
  if (delegate_debug_id_int != -1) return std::to_string(delegate_debug_id_int);
  return delegate_debug_id_str;
}

std::vector<size_t> debug_runs(const Profile& profile) {
  std::vector<size_t> out;
  for (size_t r = 0; r < profile.runs.size(); ++r)
    if (!profile.runs[r].debug_events.empty()) out.push_back(r);
  return out;
}

std::vector<DebugEntry> debug_entries(const Profile& profile, size_t run,
                                      std::vector<std::string>* warnings) {
  std::vector<DebugEntry> out;
  if (run >= profile.runs.size()) return out;
  const std::string buffer = profile.debug_buffer ? profile.debug_buffer->path() : "";
  const uint64_t buffer_size = profile.debug_buffer ? profile.debug_buffer->size() : 0;
  size_t outside = 0;
  for (const DebugEvent& e : profile.runs[run].debug_events) {
    DebugEntry base;
    base.name = e.name;
    base.chain = e.chain;
    base.instruction = e.instruction;
    base.delegate_debug_id_int = e.delegate_debug_id_int;
    base.delegate_debug_id_str = e.delegate_debug_id_str;
    base.is_output = e.value.is_output;
    base.kind = e.value.kind;
    using K = ProfileValue::Kind;
    if (e.value.kind != K::kTensor && e.value.kind != K::kTensorList) {
      base.dtype = e.value.kind == K::kInt    ? "int64"
                   : e.value.kind == K::kBool ? "bool"
                                              : "float64";
      base.scalar = e.value.kind == K::kInt    ? static_cast<double>(e.value.int_value)
                    : e.value.kind == K::kBool ? (e.value.bool_value ? 1.0 : 0.0)
                                               : e.value.float_value;
      out.push_back(std::move(base));
      continue;
    }
    for (size_t k = 0; k < e.value.tensors.size(); ++k) {
      const ProfileTensor& t = e.value.tensors[k];
      DebugEntry d = base;
      d.tensor_index = static_cast<int32_t>(k);
      d.dtype = t.dtype;
      d.sizes = t.sizes;
      d.strides = t.strides;
      d.offset = t.offset;
      d.nbytes = t.nbytes;
      const std::string where =
          fmt::format("event '{}' (chain {} instruction {}{}{})", e.name.empty() ? "?" : e.name,
                      e.chain, e.instruction,
                      d.has_delegate_debug_id() ? ", delegate debug id " + d.delegate_debug_id()
                                                : std::string(),
                      e.value.tensors.size() > 1 ? fmt::format(", tensor {}", k) : std::string());
      if (!numeric_dtype(t.dtype) || t.nbytes < 0) {
        d.missing = t.nbytes < 0 ? "size unknown (dtype or shape)" : "dtype not read as numbers";
      } else if (!profile.debug_buffer) {
        d.missing = "no debug buffer";
      } else {
        auto bytes = profile.tensor_bytes(t);
        if (bytes.empty() && t.nbytes > 0) {
          d.missing = fmt::format("bytes {}..{} lie outside the debug buffer ({} bytes)", t.offset,
                                  t.offset + t.nbytes, buffer_size);
          if (warnings && ++outside <= 5)
            warnings->push_back(fmt::format(
                "{}: {} tensor {}: bytes {}..{} lie outside it ({} bytes); skipped", buffer, where,
                d.dtype + shape_text(t.sizes), t.offset, t.offset + t.nbytes, buffer_size));
        } else {
          TensorData data;
          data.dtype = t.dtype;
          data.sizes = t.sizes;
          data.strides = t.strides;
          data.bytes = bytes;
          d.data = std::move(data);
        }
      }
      out.push_back(std::move(d));
    }
  }
  if (warnings && outside > 5)
    warnings->push_back(fmt::format(
        "{}: {} logged tensors in all lie outside the debug buffer ({} bytes): a buffer shorter "
        "than the ETDump says, or another run's",
        buffer, outside, buffer_size));
  return out;
}

const char* to_string(RowStatus s) {
  switch (s) {
    case RowStatus::kCompared:
      return "compared";
    case RowStatus::kShapeMismatch:
      return "shape_mismatch";
    case RowStatus::kDtypeMismatch:
      return "dtype_mismatch";
    case RowStatus::kLayoutMismatch:
      return "layout_mismatch";
    case RowStatus::kMissingData:
      return "missing_data";
    case RowStatus::kNotNumeric:
      return "not_numeric";
    case RowStatus::kUnmatched:
      return "unmatched";
  }
  return "compared";
}

namespace {

// What pairs two entries: outputs by their order among outputs; the rest by where they were
// logged and, inside a delegate, the id the backend gave (or the event's name without one).
struct MatchKey {
  bool output = false;
  int64_t chain = 0;
  int32_t instruction = -1;
  std::string id;
  int32_t tensor = 0;
  // std::tie, not a defaulted <=>: the app's libc++ (clang 14) has no <=> for std::string.
  bool operator<(const MatchKey& o) const {
    return std::tie(output, chain, instruction, id, tensor) <
           std::tie(o.output, o.chain, o.instruction, o.id, o.tensor);
  }
};

MatchKey key_of(const DebugEntry& e) {
  MatchKey k;
  k.tensor = e.tensor_index;
  if (e.is_output) {
    k.output = true;
    return k;
  }
  k.chain = e.chain;
  k.instruction = e.instruction;
  k.id = e.has_delegate_debug_id() ? e.delegate_debug_id() : e.name;
  return k;
}

// The entries with their occurrence (k-th of their key; outputs: k-th output).
std::vector<std::pair<MatchKey, int32_t>> keyed(const std::vector<DebugEntry>& entries) {
  std::vector<std::pair<MatchKey, int32_t>> out;
  std::map<MatchKey, int32_t> seen;
  for (const DebugEntry& e : entries) {
    MatchKey k = key_of(e);
    const int32_t n = seen[k]++;
    out.emplace_back(std::move(k), n);
  }
  return out;
}

std::string entry_label(const DebugEntry& e) {
  if (e.is_output) return "method output";
  return fmt::format("chain {} instruction {}{}", e.chain, e.instruction,
                     e.has_delegate_debug_id() ? " id " + e.delegate_debug_id() : std::string());
}

}  // namespace

NumericsReport match_entries(const std::vector<DebugEntry>& reference,
                             const std::vector<DebugEntry>& run) {
  NumericsReport report;
  const auto ref_keys = keyed(reference);
  const auto run_keys = keyed(run);
  std::map<std::pair<MatchKey, int32_t>, size_t> ref_index;
  for (size_t i = 0; i < ref_keys.size(); ++i) ref_index.emplace(ref_keys[i], i);
  std::vector<bool> used(reference.size(), false);
  std::vector<std::string> unmatched_names;
  for (size_t i = 0; i < run.size(); ++i) {
    NumericsRow row;
    row.run = run[i];
    row.occurrence = run_keys[i].second;
    auto it = ref_index.find(run_keys[i]);
    if (it == ref_index.end()) {
      row.has_reference = false;
      row.reference.kind = ProfileValue::Kind::kNull;
      row.status = RowStatus::kUnmatched;
      row.note = "no reference event at " + entry_label(run[i]);
      ++report.unmatched_run;
    } else {
      row.reference = reference[it->second];
      used[it->second] = true;
      ++report.matched;
    }
    report.rows.push_back(std::move(row));
  }
  for (size_t i = 0; i < reference.size(); ++i) {
    if (used[i]) continue;
    NumericsRow row;
    row.reference = reference[i];
    row.run = DebugEntry{};
    row.run.kind = ProfileValue::Kind::kNull;
    row.has_run = false;
    row.occurrence = ref_keys[i].second;
    row.status = RowStatus::kUnmatched;
    row.note = "no run event at " + entry_label(reference[i]);
    ++report.unmatched_reference;
    report.rows.push_back(std::move(row));
  }
  if (report.unmatched_run || report.unmatched_reference)
    report.warnings.push_back(fmt::format(
        "{} of {} run events have no counterpart in the reference and {} of {} reference events "
        "none in the run: are these runs of different programs?",
        report.unmatched_run, run.size(), report.unmatched_reference, reference.size()));
  // Same place, other names: another program's kernels at the same instructions.
  size_t renamed = 0;
  for (const NumericsRow& row : report.rows)
    if (row.has_run && row.has_reference && !row.run.has_delegate_debug_id() &&
        !row.run.name.empty() && !row.reference.name.empty() && row.run.name != row.reference.name)
      ++renamed;
  if (renamed)
    report.warnings.push_back(fmt::format(
        "{} matched events carry different names in the two runs (e.g. another op at the same "
        "instruction): are these runs of different programs?",
        renamed));
  return report;
}

Status join_numerics(NumericsReport& report, const Document& program, const std::string& method) {
  // The profile join decides ops, delegates and payload ops of an instruction; rows go through
  // it as event rows so that both agree.
  ProfileStats stats;
  std::vector<size_t> row_of;
  for (size_t i = 0; i < report.rows.size(); ++i) {
    const NumericsRow& r = report.rows[i];
    const DebugEntry& e = r.has_run ? r.run : r.reference;
    if (e.is_output) continue;  // logged after the last instruction: no instruction of its own
    EventRow row;
    row.block = "numerics";
    row.name = e.name.empty() ? "DEBUG_EVENT" : e.name;
    row.chain = static_cast<int32_t>(e.chain);
    row.instruction = e.instruction;
    row.delegate_debug_id_int = e.delegate_debug_id_int;
    row.delegate_debug_id_str = e.delegate_debug_id_str;
    stats.events.push_back(std::move(row));
    row_of.push_back(i);
  }
  JoinSources sources;
  sources.program = &program;
  sources.method = method;
  auto join = join_profile(stats, sources);
  if (!join) return join.error();
  for (const std::string& w : join->warnings)
    if (w.find("native_call_") == std::string::npos) report.warnings.push_back(w);
  for (size_t k = 0; k < stats.events.size(); ++k)
    report.rows[row_of[k]].join = std::move(stats.events[k].join);
  // Quantization parameters of integer outputs, from the node that wrote them.
  const Graph* graph = nullptr;
  for (const Graph& g : program.graphs)
    if (g.kind == GraphKind::kMethod && g.name == join->method) graph = &g;
  if (!graph) return Status::Ok();
  for (NumericsRow& r : report.rows) {
    if (r.join.node == kNoId) continue;
    const Node& node = graph->nodes[static_cast<size_t>(r.join.node)];
    if (node.kind != NodeKind::kKernel || node.outputs.empty()) continue;
    // Kernel calls log their out arguments in order: entry k of the instruction is output k.
    const size_t k = std::min(static_cast<size_t>(r.occurrence), node.outputs.size() - 1);
    const ValueId v = node.outputs[k].value;
    if (v == kNoId) continue;
    const auto q = value_quant_params(*graph, v);
    if (!q) continue;
    for (DebugEntry* e : {&r.run, &r.reference})
      if (e->data && integer_dtype(e->data->dtype)) e->data->quant = q;
  }
  return Status::Ok();
}

namespace {

// The literal of a node's argument named `name` as a number.
std::optional<double> number_argument(const Graph& g, const Node& node, std::string_view name) {
  for (const Argument& a : node.inputs) {
    if (a.name != name || a.value == kNoId) continue;
    const Value& v = g.values[static_cast<size_t>(a.value)];
    double x = 0;
    const std::string text = v.literal.str();
    if (parse_double(text, x) == NumberText::kOk) return x;
  }
  return std::nullopt;
}

bool op_is(const std::string& op, std::string_view what) {
  // "quantized_decomposed::quantize_per_tensor.out": the name between "::" and ".".
  const auto colons = op.rfind("::");
  std::string_view bare = op;
  if (colons != std::string::npos) bare.remove_prefix(colons + 2);
  if (auto dot = bare.find('.'); dot != std::string_view::npos) bare = bare.substr(0, dot);
  return bare == what;
}

std::optional<QuantParams> call_params(const Graph& g, const Node& node, const char* source) {
  auto scale = number_argument(g, node, "scale");
  auto zero = number_argument(g, node, "zero_point");
  if (!scale) return std::nullopt;
  QuantParams q;
  q.scales = {*scale};
  q.zero_points = {zero ? *zero : 0.0};
  if (auto lo = number_argument(g, node, "quant_min")) q.qmin = static_cast<int64_t>(*lo);
  if (auto hi = number_argument(g, node, "quant_max")) q.qmax = static_cast<int64_t>(*hi);
  q.source = source;
  return q;
}

}  // namespace

std::optional<QuantParams> value_quant_params(const Graph& graph, ValueId v) {
  if (v < 0 || static_cast<size_t>(v) >= graph.values.size()) return std::nullopt;
  const Value& value = graph.values[static_cast<size_t>(v)];
  if (value.tensor.quantization && !value.tensor.quantization->scales.empty()) {
    const Quantization& tq = *value.tensor.quantization;
    // A prefix of the scales (num_scales more than held) cannot dequantize every channel.
    if (tq.num_scales <= static_cast<int64_t>(tq.scales.size()) && tq.group_size == 0) {
      QuantParams q;
      q.scales = tq.scales;
      q.zero_points.assign(tq.zero_points.begin(), tq.zero_points.end());
      q.axis = tq.scales.size() > 1 ? tq.axis : -1;
      q.source = "tensor quantization (" + tq.scheme + ")";
      if (q.scales.size() == 1 || q.axis >= 0) return q;
    }
  }
  if (value.producer != kNoId) {
    const Node& p = graph.nodes[static_cast<size_t>(value.producer)];
    if (op_is(p.op.str(), "quantize_per_tensor"))
      if (auto q = call_params(graph, p, "quantize_per_tensor arguments")) return q;
  }
  for (NodeId c : value.consumers) {
    const Node& n = graph.nodes[static_cast<size_t>(c)];
    if (!op_is(n.op.str(), "dequantize_per_tensor")) continue;
    if (n.inputs.empty() || n.inputs.front().value != v) continue;
    if (auto q = call_params(graph, n, "dequantize_per_tensor arguments")) return q;
  }
  return std::nullopt;
}

void compare_rows(NumericsReport& report, const NumericsOptions& options) {
  report.thresholds = options.thresholds;
  report.compared = report.mismatched = report.missing = report.not_numeric = 0;
  report.first_divergent.reset();
  for (size_t i = 0; i < report.rows.size(); ++i) {
    NumericsRow& r = report.rows[i];
    r.divergent = false;
    r.crossed.clear();
    r.domain.reset();
    if (!r.has_run || !r.has_reference) continue;
    const DebugEntry& a = r.reference;
    const DebugEntry& b = r.run;
    using K = ProfileValue::Kind;
    const auto scalar = [](K k) {
      return k == K::kInt || k == K::kBool || k == K::kFloat || k == K::kDouble;
    };
    std::optional<TensorData> ta = a.data, tb = b.data;
    // Scalars compare as one-element tensors, as ExecuTorch's convert_to_float_tensor does.
    std::array<double, 2> scalars = {a.scalar, b.scalar};
    if (scalar(a.kind) && scalar(b.kind)) {
      ta = scalar_tensor(scalars[0]);
      tb = scalar_tensor(scalars[1]);
    } else if (scalar(a.kind) != scalar(b.kind) ||
               !(a.kind == K::kTensor || a.kind == K::kTensorList || scalar(a.kind))) {
      r.status = RowStatus::kNotNumeric;
      r.note = fmt::format("{} vs {}", to_string(a.kind), to_string(b.kind));
      ++report.not_numeric;
      continue;
    }
    if (!ta || !tb) {
      // Shapes and dtypes are known without the bytes: a mismatch is the better report.
      TensorData sa, sb;
      sa.dtype = a.dtype;
      sa.sizes = a.sizes;
      sa.strides = a.strides;
      sb.dtype = b.dtype;
      sb.sizes = b.sizes;
      sb.strides = b.strides;
      const PairCheck c = check_pair(sa, sb);
      if (c.kind == PairCheck::Kind::kShape || c.kind == PairCheck::Kind::kDtype) {
        r.status = c.kind == PairCheck::Kind::kShape ? RowStatus::kShapeMismatch
                                                     : RowStatus::kDtypeMismatch;
        r.note = c.mismatch;
        ++report.mismatched;
        continue;
      }
      const bool not_numbers = (!ta && a.missing.find("dtype") != std::string::npos) ||
                               (!tb && b.missing.find("dtype") != std::string::npos);
      r.status = not_numbers ? RowStatus::kNotNumeric : RowStatus::kMissingData;
      r.note = !ta ? "reference: " + a.missing : "run: " + b.missing;
      ++(not_numbers ? report.not_numeric : report.missing);
      continue;
    }
    const PairCheck c = check_pair(*ta, *tb);
    if (!c.domain) {
      r.status = c.kind == PairCheck::Kind::kShape   ? RowStatus::kShapeMismatch
                 : c.kind == PairCheck::Kind::kDtype ? RowStatus::kDtypeMismatch
                                                     : RowStatus::kLayoutMismatch;
      r.note = c.mismatch;
      ++report.mismatched;
      continue;
    }
    if (*c.domain == Domain::kBytes) {
      r.status = RowStatus::kNotNumeric;
      r.note = fmt::format("dtype {}: not read as numbers", ta->dtype);
      ++report.not_numeric;
      continue;
    }
    r.status = RowStatus::kCompared;
    r.domain = c.domain;
    r.metrics = compare_tensors(*ta, *tb, *c.domain, CompareOptions{options.first_differences});
    ++report.compared;
    if (r.metrics.nonfinite_mismatch > 0) {
      r.divergent = true;
      r.crossed = fmt::format("non-finite: {} positions NaN/Inf on one side only",
                              r.metrics.nonfinite_mismatch);
    } else {
      for (const Threshold& t : options.thresholds)
        if (t.crossed(r.metrics)) {
          r.divergent = true;
          r.crossed = t.describe();
          break;
        }
    }
    if (r.divergent && !report.first_divergent) report.first_divergent = i;
    if (options.statistics && !scalar(a.kind)) {
      const bool dq = *c.domain == Domain::kDequantized;
      r.reference_stats = tensor_stats(*ta, options.histogram_bins, dq);
      r.run_stats = tensor_stats(*tb, options.histogram_bins, dq);
      r.differences =
          diff_histogram(*ta, *tb, *c.domain, r.metrics.max_abs, options.histogram_bins);
    }
  }
}

NumericsReport compare_entries(const std::vector<DebugEntry>& reference,
                               const std::vector<DebugEntry>& run, const NumericsOptions& options) {
  NumericsReport report = match_entries(reference, run);
  compare_rows(report, options);
  return report;
}

}  // namespace etviz::analysis
