#pragma once
// Inspector-style statistics over a runtime profile: one row per distinct event in each
// event block, with occurrences, p10/p50/p90, average, minimum, maximum and total time.
//
// Blocks are run names ("Default", "Execute"): runs that share a name are repeated
// measurements of the same thing, so their events pool. Within a block an event is identified
// by (name, chain, instruction, delegate debug id), so OPERATOR_CALL at instruction 3 and
// OPERATOR_CALL at instruction 4 are different rows, while OPERATOR_CALL at instruction 3 in
// ten "Execute" runs is one row with ten occurrences. Framework events (chain -1:
// Method::execute, Method::init, Program::load_method) are kept apart as method-level figures.
//
// All times here are raw ticks as logged; TimeScale converts them when a report prints them.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/graph.h"
#include "core/profile.h"

namespace etviz::analysis {

enum class TimeUnit { kTicks, kNanoseconds, kMicroseconds, kMilliseconds, kSeconds };

// "ns", "us" (also "µs"), "ms", "s", "ticks" -> unit; nullopt for anything else.
std::optional<TimeUnit> parse_time_unit(std::string_view text);
const char* to_string(TimeUnit unit);  // "ticks", "ns", "us", "ms", "s"

// How raw ticks become printed numbers. With an unknown source unit (the file never says)
// the only honest target is ticks; converting needs both ends.
struct TimeScale {
  TimeUnit source = TimeUnit::kTicks;
  TimeUnit target = TimeUnit::kTicks;
  double factor() const;  // multiply raw ticks by this
  double apply(double ticks) const { return ticks * factor(); }
  const char* label() const { return to_string(target); }
};

// Builds the scale from user choices, or explains why the request cannot be met.
Result<TimeScale> make_time_scale(std::optional<TimeUnit> source, std::optional<TimeUnit> target);

// Summary of a sample, with percentiles interpolated linearly between closest ranks (the
// definition numpy.percentile uses by default, so figures match the Inspector's).
struct DurationStats {
  size_t count = 0;
  double total = 0, p10 = 0, p50 = 0, p90 = 0, avg = 0, min = 0, max = 0;
};
DurationStats compute_stats(std::vector<double> samples);
// The q-th percentile (0..100) of sorted samples, linear interpolation; 0 for an empty sample.
double percentile_sorted(const std::vector<double>& sorted, double q);

// What a join with the program (and ETRecord) says about an event.
struct EventJoin {
  std::string method;                 // method the instruction belongs to
  NodeId node = kNoId;                // graph node of the instruction in that method
  std::vector<std::string> op_types;  // ops the event covers
  std::optional<bool> delegated;      // unknown without a program
  std::string backend;                // delegate backend id
  // Events inside a delegate: the decoded payload graph (Document::graphs index) and the ops
  // in it the event names; -1 / empty when the payload is opaque or no op matches.
  int32_t payload_graph = -1;
  std::vector<NodeId> payload_nodes;
  std::vector<int64_t> debug_handles;
  std::vector<std::string> module_paths;  // from the ETRecord, deduplicated
  std::string stack;                      // innermost user frame, "file:line in fn"
};

struct EventRow {
  std::string block;
  std::string name;
  int32_t chain = -1;
  int32_t instruction = -1;
  int32_t delegate_debug_id_int = -1;
  std::string delegate_debug_id_str;
  DurationStats stats;          // raw ticks
  std::vector<double> samples;  // raw ticks, in the order logged
  EventJoin join;

  bool is_framework() const { return chain < 0; }
  bool has_delegate_debug_id() const {
    return delegate_debug_id_int != -1 || !delegate_debug_id_str.empty();
  }
  // "17" or "conv_0" or "" when unset.
  std::string delegate_debug_id() const;
};

struct AllocatorRow {
  std::string block;
  std::string allocator;
  size_t allocations = 0;
  uint64_t total_bytes = 0;
  uint64_t max_bytes = 0;
};

struct DebugRow {
  std::string block;
  std::string name;
  int64_t chain = 0;
  int32_t instruction = -1;
  std::string delegate_debug_id;
  std::string kind;         // "Tensor", "Int", ...
  std::string description;  // "float32[1, 16, 30, 30]" or "3"
  bool is_output = false;
  // Statistics of the tensor data, when a debug buffer holds it and the dtype is numeric.
  std::optional<double> min, max, mean;
  size_t nan_count = 0;
  std::string preview;  // first few elements
};

struct ProfileStats {
  size_t runs = 0;
  std::vector<std::string> blocks;      // in first-seen order
  std::vector<EventRow> method_events;  // framework events (chain -1)
  std::vector<EventRow> events;         // operator and delegate events, sorted by total time
  std::vector<AllocatorRow> allocators;
  std::vector<DebugRow> debug_events;
  // Raw-tick total of Method::execute per block (0 when the block has none): the denominator
  // for "share of run time".
  std::vector<std::pair<std::string, double>> execute_totals;
  double execute_total(std::string_view block) const;
};

// One run (RunData block) at a glance, what `etviz info RUN.etdp` shows: counts, and the span of
// its events in raw ticks (first start to last end; 0 without timed events).
struct RunSummary {
  std::string name;
  int32_t bundled_input = -1;  // the bundled-program test case the run used, -1 if none
  size_t profile_events = 0;
  size_t instruction_events = 0;  // events of an instruction (a kernel or a delegate call)
  size_t delegate_events = 0;     // events a delegate logged inside a call (a debug id)
  size_t framework_events = 0;    // Method::init, Method::execute, ...
  size_t debug_events = 0;
  size_t logged_outputs = 0;  // debug events that logged a program output
  size_t allocators = 0;
  size_t allocations = 0;
  uint64_t allocated_bytes = 0;
  uint64_t first_start = 0, last_end = 0;
  uint64_t span() const { return last_end >= first_start ? last_end - first_start : 0; }
};
std::vector<RunSummary> summarize_runs(const Profile& profile);

// Pools the profile's events into Inspector-style rows. Rows are sorted by total time,
// largest first (ties: block order, then instruction); method events keep file order.
ProfileStats summarize_profile(const Profile& profile);

// Rows merged across instructions: one row per (block, event name), e.g. all
// native_call_convolution.out together. Join fields are merged (union of ops, modules); a
// merged row of events inside delegates has delegate id "*".
std::vector<EventRow> group_by_name(const std::vector<EventRow>& rows);

// Which row encloses which: the runtime logs nested events for one instruction (OPERATOR_CALL
// around native_call_<op>, DELEGATE_CALL around the backend's own events), so adding every
// row's time counts the same time twice. For each row, the index of the row it is nested in,
// or -1 for an outermost row. Per (block, chain, instruction) the row without a delegate debug
// id and with the largest total is the outermost; the other rows of that instruction nest in
// it. Rows merged by name (group_by_name) nest by name instead: native_call_* in
// OPERATOR_CALL, delegate-internal rows in DELEGATE_CALL. Summing outermost rows counts every
// tick once.
std::vector<int32_t> enclosing_rows(const std::vector<EventRow>& rows);

}  // namespace etviz::analysis
