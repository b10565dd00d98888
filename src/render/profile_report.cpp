#include "render/profile_report.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>

#include "render/json_text.h"
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
  return with_thousands(x, 3);
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

// What an event table is for: the terminal (compact: avg/p50/p90/total; or every statistic
// with --wide), CSV (every statistic, plain numbers, a `nested` column), or the method-level
// framework events (no instruction, nothing to join).
enum class TableMode { kText, kTextWide, kCsv };

// Rows in reading order: each outermost row followed by the rows nested in it (the runtime's
// OPERATOR_CALL around native_call_<op>, DELEGATE_CALL around the backend's events).
std::vector<std::pair<const EventRow*, bool>> nested_order(const std::vector<EventRow>& rows) {
  const std::vector<int32_t> parent = analysis::enclosing_rows(rows);
  std::vector<std::vector<size_t>> children(rows.size());
  for (size_t i = 0; i < rows.size(); ++i)
    if (parent[i] >= 0) children[static_cast<size_t>(parent[i])].push_back(i);
  std::vector<std::pair<const EventRow*, bool>> out;
  for (size_t i = 0; i < rows.size(); ++i) {
    if (parent[i] >= 0) continue;
    out.push_back({&rows[i], false});
    for (size_t c : children[i]) out.push_back({&rows[c], true});
  }
  return out;
}

Table event_table(const ProfileReport& r, const std::vector<EventRow>& rows, TableMode mode,
                  bool method_level = false) {
  const bool text = mode == TableMode::kText || mode == TableMode::kTextWide;
  const bool plain_numbers = mode == TableMode::kCsv;
  Columns c = method_level ? Columns{} : columns_for(r);
  // One block needs no block column in the terminal (the title names it).
  std::vector<std::string> blocks;
  for (const auto& row : rows)
    if (std::find(blocks.begin(), blocks.end(), row.block) == blocks.end())
      blocks.push_back(row.block);
  const bool block_column = !text || blocks.size() > 1;
  const std::vector<const char*> statistics =
      mode == TableMode::kText
          ? std::vector<const char*>{"avg", "p90", "total"}
          : std::vector<const char*>{"p10", "p50", "p90", "avg", "min", "max", "total"};
  const std::string u = r.scale.label();
  std::vector<std::string> header;
  std::vector<Align> align;
  auto column = [&](std::string h, Align a) {
    header.push_back(std::move(h));
    align.push_back(a);
  };
  if (block_column) column("block", Align::kLeft);
  column("event", Align::kLeft);
  const size_t event_column = header.size() - 1;
  if (!method_level) column("instr", Align::kRight);
  if (c.delegate_id) column("delegate id", Align::kLeft);
  column(text ? "count" : "occurrences", Align::kRight);
  for (const char* h : statistics) column(fmt::format("{} ({})", h, u), Align::kRight);
  if (!method_level) column("share", Align::kRight);
  if (plain_numbers) column("nested", Align::kLeft);
  size_t ops_column = 0, module_column = 0, stack_column = 0;
  // The terminal's compact table says where an op ran in one column: its backend, or "cpu".
  const bool runs_on = mode == TableMode::kText;
  if (c.join) {
    ops_column = header.size();
    column("op types", Align::kLeft);
    if (runs_on) {
      column("runs on", Align::kLeft);
    } else {
      column("delegated", Align::kLeft);
      column("backend", Align::kLeft);
    }
  }
  if (c.modules) {
    module_column = header.size();
    column("module", Align::kLeft);
  }
  if (c.stack) {
    stack_column = header.size();
    column("stack", Align::kLeft);
  }
  Table t(header, align);
  std::vector<size_t> shrinkable = {event_column};
  for (size_t k : {ops_column, module_column, stack_column})
    if (k) shrinkable.push_back(k);
  t.set_shrinkable(shrinkable);

  std::vector<std::pair<const EventRow*, bool>> order;
  if (method_level) {
    for (const EventRow& row : rows) order.push_back({&row, false});
  } else {
    order = nested_order(rows);
  }
  for (const auto& [row_ptr, nested] : order) {
    const EventRow& row = *row_ptr;
    std::vector<std::string> cells;
    if (block_column) cells.push_back(row.block);
    cells.push_back(text && nested ? "\u2514 " + row.name : row.name);
    if (!method_level) cells.push_back(instruction_text(row));
    if (c.delegate_id) cells.push_back(row.delegate_debug_id());
    const auto& s = row.stats;
    cells.push_back(std::to_string(s.count));
    for (const char* h : statistics) {
      const std::string_view name = h;
      const double v = name == "p10"   ? s.p10
                       : name == "p50" ? s.p50
                       : name == "p90" ? s.p90
                       : name == "avg" ? s.avg
                       : name == "min" ? s.min
                       : name == "max" ? s.max
                                       : s.total;
      cells.push_back(number(v, r.scale, plain_numbers));
    }
    // A nested row's time is inside the row above; its share would count it twice.
    if (!method_level) cells.push_back(nested && text ? "" : share_text(row, *r.stats));
    if (plain_numbers) cells.push_back(nested ? "yes" : "");
    if (c.join) {
      std::string ops = fmt::format("{}", fmt::join(row.join.op_types, ", "));
      if (row.join.op_types.size() > 4)
        ops = fmt::format("{}, {} ... {} ({} total)", row.join.op_types[0], row.join.op_types[1],
                          row.join.op_types.back(), row.join.op_types.size());
      cells.push_back(ops);
      if (runs_on) {
        cells.push_back(!row.join.backend.empty()                    ? row.join.backend
                        : row.join.delegated && !*row.join.delegated ? "cpu"
                                                                     : "");
      } else {
        cells.push_back(delegated_text(row));
        cells.push_back(row.join.backend);
      }
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
    out += event_table(r, stats.method_events, r.wide ? TableMode::kTextWide : TableMode::kText,
                       /*method_level=*/true)
               .to_text("  ", r.max_width);
  }
  if (!r.rows.empty()) {
    std::vector<std::string> blocks;
    for (const auto& row : r.rows)
      if (std::find(blocks.begin(), blocks.end(), row.block) == blocks.end())
        blocks.push_back(row.block);
    out += fmt::format(
        "\nEvents{}, by total time (share = of Method::execute; \u2514 = inside the row above, "
        "counted once){}\n",
        blocks.size() == 1 ? " in block " + blocks[0] : "",
        r.wide ? "" : "; --wide adds p10, p50, min and max");
    out += event_table(r, r.rows, r.wide ? TableMode::kTextWide : TableMode::kText)
               .to_text("  ", r.max_width);
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
  return event_table(r, all, TableMode::kCsv).to_csv();
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
    if (r.raw_samples) {
      json raw = json::array();
      for (double x : row.samples) raw.push_back(r.scale.apply(x));
      o["raw"] = std::move(raw);
    }
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
  const std::vector<int32_t> parent = analysis::enclosing_rows(r.rows);
  for (size_t i = 0; i < r.rows.size(); ++i) {
    json o = row_json(r.rows[i]);
    // Index in "events" of the row this one is nested in (its time is inside that row's).
    if (parent[i] >= 0) o["nested_in"] = parent[i];
    events.push_back(std::move(o));
  }
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
  return json_report(doc);
}

std::string profile_overview_text(const Profile& p, const std::vector<analysis::RunSummary>& runs) {
  std::string out = fmt::format("File       {}\n", p.path);
  out += fmt::format("Format     ETDump runtime profile, schema version {}{}\n", p.version,
                     p.size_prefixed ? ", size-prefixed (as the runtime writes it)" : "");
  size_t events = 0, debug = 0;
  for (const auto& r : runs) {
    events += r.profile_events;
    debug += r.debug_events;
  }
  out += fmt::format("Runs       {} ({} profile events, {} debug events)\n",
                     grouped_digits(runs.size()), grouped_digits(events), grouped_digits(debug));
  out += "Times      raw ticks: the file does not store their unit (etviz profile --source-unit)\n";
  if (!runs.empty()) {
    Table t({"run", "events", "instructions", "in delegates", "framework", "debug", "outputs",
             "allocations", "span (ticks)"},
            {Align::kLeft, Align::kRight, Align::kRight, Align::kRight, Align::kRight,
             Align::kRight, Align::kRight, Align::kRight, Align::kRight});
    t.set_shrinkable({0});
    for (const auto& r : runs)
      t.add_row({r.name + (r.bundled_input >= 0 ? fmt::format(" (input {})", r.bundled_input) : ""),
                 grouped_digits(r.profile_events), grouped_digits(r.instruction_events),
                 grouped_digits(r.delegate_events), grouped_digits(r.framework_events),
                 grouped_digits(r.debug_events), grouped_digits(r.logged_outputs),
                 r.allocations ? fmt::format("{} ({})", grouped_digits(r.allocations),
                                             human_bytes(r.allocated_bytes))
                               : "0",
                 grouped_digits(r.span())});
    out += "\n" + t.to_text("  ");
  }
  if (!p.warnings.empty()) {
    out += "\nNotes\n";
    for (const auto& w : p.warnings) out += "  warning: " + w + "\n";
  }
  out += fmt::format("\nTime per operator: etviz profile {} --pte PROGRAM (the program it ran)\n",
                     p.path);
  return out;
}

std::string profile_overview_json(const Profile& p, const std::vector<analysis::RunSummary>& runs) {
  using nlohmann::json;
  json list = json::array();
  for (const auto& r : runs) {
    json o = {{"name", r.name},
              {"profile_events", r.profile_events},
              {"instruction_events", r.instruction_events},
              {"delegate_events", r.delegate_events},
              {"framework_events", r.framework_events},
              {"debug_events", r.debug_events},
              {"logged_outputs", r.logged_outputs},
              {"allocators", r.allocators},
              {"allocations", r.allocations},
              {"allocated_bytes", r.allocated_bytes},
              {"first_start", r.first_start},
              {"last_end", r.last_end},
              {"span", r.span()}};
    if (r.bundled_input >= 0) o["bundled_input"] = r.bundled_input;
    list.push_back(std::move(o));
  }
  const json doc = {{"file", p.path},
                    {"format", "etdump"},
                    {"schema_version", p.version},
                    {"size_prefixed", p.size_prefixed},
                    {"unit", "ticks"},
                    {"runs", std::move(list)},
                    {"warnings", p.warnings}};
  return json_report(doc);
}

}  // namespace etviz::render
