#include "render/profile_report.h"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "render/table.h"

namespace etviz::render {
namespace {

using analysis::EventRow;

// Ticks are integers as logged, but percentiles interpolate; real units get 3 decimals.
std::string number(double v, const analysis::TimeScale& scale, bool plain = false) {
  const double x = scale.apply(v);
  // CSV is for machines: no thousands separators, full precision.
  if (plain) return fmt::format("{}", x);
  if (scale.target == analysis::TimeUnit::kTicks) {
    if (std::fabs(x) >= 1e15) return fmt::format("{:.6g}", x);
    const double tenths = std::round(x * 10);
    const auto whole = static_cast<int64_t>(tenths / 10);
    const auto fraction = static_cast<int>(std::fabs(tenths - static_cast<double>(whole) * 10));
    return fraction == 0 ? with_thousands(whole)
                         : fmt::format("{}.{}", with_thousands(whole), fraction);
  }
  return fmt::format("{:.3f}", x);
}

std::string instruction_text(const EventRow& row) {
  if (row.is_framework()) return "";
  if (row.instruction < 0) return row.chain == -2 || row.chain >= 0 ? "*" : "";
  return row.chain == 0 ? std::to_string(row.instruction)
                        : fmt::format("{}:{}", row.chain, row.instruction);
}

std::string delegated_text(const EventRow& row) {
  if (!row.join.delegated) return "";
  return *row.join.delegated ? "yes" : "no";
}

std::string share_text(const EventRow& row, const analysis::ProfileStats& stats) {
  const double execute = stats.execute_total(row.block);
  if (execute <= 0) return "";
  return fmt::format("{:.1f}%", 100.0 * row.stats.total / execute);
}

bool any_delegate_id(const std::vector<EventRow>& rows) {
  for (const auto& r : rows)
    if (r.has_delegate_debug_id()) return true;
  return false;
}

struct Columns {
  bool delegate_id = false, join = false, modules = false, stack = false;
};

Columns columns_for(const ProfileReport& r) {
  Columns c;
  c.delegate_id = any_delegate_id(r.rows);
  c.join = !r.program_path.empty() || !r.etrecord_path.empty();
  for (const auto& row : r.rows) {
    if (!row.join.module_paths.empty()) c.modules = true;
    if (!row.join.stack.empty()) c.stack = true;
  }
  return c;
}

// Method-level rows (framework events) have no instruction and nothing to join.
Table event_table(const ProfileReport& r, const std::vector<EventRow>& rows, bool with_share,
                  bool method_level = false, bool plain_numbers = false) {
  Columns c = columns_for(r);
  if (method_level) c = Columns{};
  const std::string u = r.scale.label();
  std::vector<std::string> header = {"block", "event"};
  std::vector<Align> align = {Align::kLeft, Align::kLeft};
  if (!method_level) {
    header.push_back("instr");
    align.push_back(Align::kRight);
  }
  if (c.delegate_id) {
    header.push_back("delegate id");
    align.push_back(Align::kLeft);
  }
  for (const char* h : {"occurrences", "p10", "p50", "p90", "avg", "min", "max", "total"}) {
    header.push_back(std::string(h) == "occurrences" ? h : fmt::format("{} ({})", h, u));
    align.push_back(Align::kRight);
  }
  if (with_share) {
    header.push_back("share");
    align.push_back(Align::kRight);
  }
  if (c.join) {
    for (const char* h : {"op types", "delegated", "backend"}) {
      header.push_back(h);
      align.push_back(Align::kLeft);
    }
  }
  if (c.modules) {
    header.push_back("module");
    align.push_back(Align::kLeft);
  }
  if (c.stack) {
    header.push_back("stack");
    align.push_back(Align::kLeft);
  }
  Table t(header, align);
  for (const EventRow& row : rows) {
    std::vector<std::string> cells = {row.block, row.name};
    if (!method_level) cells.push_back(instruction_text(row));
    if (c.delegate_id) cells.push_back(row.delegate_debug_id());
    const auto& s = row.stats;
    cells.push_back(std::to_string(s.count));
    for (double v : {s.p10, s.p50, s.p90, s.avg, s.min, s.max, s.total})
      cells.push_back(number(v, r.scale, plain_numbers));
    if (with_share) cells.push_back(share_text(row, *r.stats));
    if (c.join) {
      std::string ops = fmt::format("{}", fmt::join(row.join.op_types, ", "));
      if (row.join.op_types.size() > 4)
        ops = fmt::format("{}, {} ... {} ({} total)", row.join.op_types[0], row.join.op_types[1],
                          row.join.op_types.back(), row.join.op_types.size());
      cells.push_back(ops);
      cells.push_back(delegated_text(row));
      cells.push_back(row.join.backend);
    }
    if (c.modules) cells.push_back(fmt::format("{}", fmt::join(row.join.module_paths, ", ")));
    if (c.stack) cells.push_back(row.join.stack);
    t.add_row(std::move(cells));
  }
  return t;
}

Table module_table(const ProfileReport& r, bool plain_numbers = false) {
  Table t({"block", "module", "events", fmt::format("total of averages ({})", r.scale.label()),
           "share"},
          {Align::kLeft, Align::kLeft, Align::kRight, Align::kRight, Align::kRight});
  for (const auto& m : r.modules) {
    const double execute = r.stats->execute_total(m.block);
    t.add_row({m.block, m.module, std::to_string(m.events),
               number(m.total_avg, r.scale, plain_numbers),
               execute > 0 ? fmt::format("{:.1f}%", 100.0 * m.total_avg / execute) : ""});
  }
  return t;
}

std::string time_note(const analysis::TimeScale& scale) {
  if (scale.target == analysis::TimeUnit::kTicks)
    return "Times are raw ticks of the device clock (an ETDump does not say what a tick is; "
           "--source-unit sets it, --unit converts).";
  return fmt::format("Times in {} (ticks read as {}).", to_string(scale.target),
                     to_string(scale.source));
}

}  // namespace

std::string profile_text(const ProfileReport& r) {
  const Profile& p = *r.profile;
  const auto& stats = *r.stats;
  size_t profile_events = 0, allocations = 0, debug = 0;
  for (const auto& run : p.runs) {
    profile_events += run.profile_events.size();
    allocations += run.allocations.size();
    debug += run.debug_events.size();
  }
  std::string out = fmt::format(
      "ETDump {}: schema version {}, {}, {} run{} ({}): {} profile, {} allocation, {} debug "
      "events\n",
      p.path, p.version, p.size_prefixed ? "size-prefixed" : "no size prefix", p.runs.size(),
      p.runs.size() == 1 ? "" : "s", fmt::join(stats.blocks, ", "), profile_events, allocations,
      debug);
  if (!r.program_path.empty() && r.join)
    out += fmt::format("Program {}: method '{}', {} event rows joined to instructions\n",
                       r.program_path, r.join->method, r.join->joined);
  if (!r.etrecord_path.empty()) out += fmt::format("ETRecord {}\n", r.etrecord_path);
  out += time_note(r.scale) + "\n";

  if (!stats.method_events.empty()) {
    out += "\nMethod-level\n";
    out += event_table(r, stats.method_events, false, true).to_text("  ");
  }
  if (!r.rows.empty()) {
    out += "\nEvents, by total time (share = of Method::execute in the same block)\n";
    out += event_table(r, r.rows, true).to_text("  ");
  }
  if (!stats.allocators.empty()) {
    out += "\nAllocations\n";
    Table t({"block", "allocator", "allocations", "total", "largest"},
            {Align::kLeft, Align::kLeft, Align::kRight, Align::kRight, Align::kRight});
    for (const auto& a : stats.allocators)
      t.add_row({a.block, a.allocator, std::to_string(a.allocations), human_bytes(a.total_bytes),
                 human_bytes(a.max_bytes)});
    out += t.to_text("  ");
  }
  if (!stats.debug_events.empty()) {
    out += "\nDebug events (intermediate outputs)\n";
    Table t({"block", "event", "instr", "delegate id", "value", "output", "min", "max", "mean",
             "NaN", "data"},
            {Align::kLeft, Align::kLeft, Align::kRight, Align::kLeft, Align::kLeft, Align::kLeft,
             Align::kRight, Align::kRight, Align::kRight, Align::kRight, Align::kLeft});
    // Long runs log thousands of tensors; the text view shows the first ones, JSON has all.
    constexpr size_t kMaxDebugRows = 50;
    size_t shown = 0;
    for (const auto& d : stats.debug_events) {
      if (shown++ == kMaxDebugRows) break;
      auto opt = [](const std::optional<double>& v) {
        return v ? fmt::format("{:.6g}", *v) : std::string();
      };
      t.add_row({d.block, d.name, d.instruction >= 0 ? std::to_string(d.instruction) : "",
                 d.delegate_debug_id, d.description.empty() ? d.kind : d.description,
                 d.is_output ? "yes" : "", opt(d.min), opt(d.max), opt(d.mean),
                 d.nan_count ? std::to_string(d.nan_count) : "", d.preview});
    }
    out += t.to_text("  ");
    if (stats.debug_events.size() > kMaxDebugRows)
      out += fmt::format("  ... {} more debug events (--format json lists all)\n",
                         stats.debug_events.size() - kMaxDebugRows);
    if (!p.debug_buffer)
      out +=
          "  (tensor data lives in a separate debug buffer; pass --debug-buffer to see values)\n";
  }
  if (r.module_totals) {
    out += "\nTime per module (each event counted once per module on its path)\n";
    if (r.modules.empty())
      out +=
          "  no module paths: they come from an ETRecord (--etrecord) whose graph carries "
          "nn_module_stack\n";
    else
      out += module_table(r).to_text("  ");
  }
  for (const auto& w : r.warnings) out += "warning: " + w + "\n";
  return out;
}

std::string profile_csv(const ProfileReport& r) {
  if (r.module_totals) return module_table(r, true).to_csv();
  std::vector<EventRow> all = r.stats->method_events;
  all.insert(all.end(), r.rows.begin(), r.rows.end());
  return event_table(r, all, true, false, true).to_csv();
}

std::string profile_json(const ProfileReport& r) {
  using nlohmann::json;
  const Profile& p = *r.profile;
  auto row_json = [&](const EventRow& row) {
    const auto& s = row.stats;
    json o = {
        {"block", row.block}, {"name", row.name}, {"chain", row.chain}, {"occurrences", s.count}};
    if (!row.is_framework()) o["instruction"] = row.instruction;
    if (row.has_delegate_debug_id()) o["delegate_debug_id"] = row.delegate_debug_id();
    o["p10"] = r.scale.apply(s.p10);
    o["p50"] = r.scale.apply(s.p50);
    o["p90"] = r.scale.apply(s.p90);
    o["avg"] = r.scale.apply(s.avg);
    o["min"] = r.scale.apply(s.min);
    o["max"] = r.scale.apply(s.max);
    o["total"] = r.scale.apply(s.total);
    const double execute = r.stats->execute_total(row.block);
    if (execute > 0 && !row.is_framework()) o["share"] = s.total / execute;
    if (!row.join.method.empty()) o["method"] = row.join.method;
    if (row.join.node != kNoId) o["node"] = row.join.node;
    if (!row.join.op_types.empty()) o["op_types"] = row.join.op_types;
    if (row.join.delegated) o["delegated"] = *row.join.delegated;
    if (!row.join.backend.empty()) o["backend"] = row.join.backend;
    if (!row.join.debug_handles.empty()) o["debug_handles"] = row.join.debug_handles;
    if (!row.join.module_paths.empty()) o["module_hierarchy"] = row.join.module_paths;
    if (!row.join.stack.empty()) o["stack"] = row.join.stack;
    return o;
  };
  json doc = {
      {"file", p.path},          {"schema_version", p.version}, {"size_prefixed", p.size_prefixed},
      {"unit", r.scale.label()}, {"runs", p.runs.size()},       {"blocks", r.stats->blocks}};
  if (!r.program_path.empty()) doc["program"] = r.program_path;
  if (!r.etrecord_path.empty()) doc["etrecord"] = r.etrecord_path;
  if (r.join && !r.join->method.empty()) doc["method"] = r.join->method;
  json methods = json::array(), events = json::array();
  for (const auto& row : r.stats->method_events) methods.push_back(row_json(row));
  for (const auto& row : r.rows) events.push_back(row_json(row));
  doc["method_events"] = std::move(methods);
  doc["events"] = std::move(events);
  json allocators = json::array();
  for (const auto& a : r.stats->allocators)
    allocators.push_back({{"block", a.block},
                          {"allocator", a.allocator},
                          {"allocations", a.allocations},
                          {"total_bytes", a.total_bytes},
                          {"max_bytes", a.max_bytes}});
  doc["allocators"] = std::move(allocators);
  json debug = json::array();
  for (const auto& d : r.stats->debug_events) {
    json o = {{"block", d.block},     {"name", d.name},
              {"chain", d.chain},     {"instruction", d.instruction},
              {"kind", d.kind},       {"value", d.description},
              {"output", d.is_output}};
    if (!d.delegate_debug_id.empty()) o["delegate_debug_id"] = d.delegate_debug_id;
    if (d.min) o["min"] = *d.min;
    if (d.max) o["max"] = *d.max;
    if (d.mean) o["mean"] = *d.mean;
    if (d.nan_count) o["nan_count"] = d.nan_count;
    debug.push_back(std::move(o));
  }
  doc["debug_events"] = std::move(debug);
  if (r.module_totals) {
    json modules = json::array();
    for (const auto& m : r.modules)
      modules.push_back({{"block", m.block},
                         {"module", m.module},
                         {"events", m.events},
                         {"total_of_averages", r.scale.apply(m.total_avg)}});
    doc["module_totals"] = std::move(modules);
  }
  doc["warnings"] = r.warnings;
  // Names come from the file: replace invalid UTF-8 rather than fail.
  return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace etviz::render
