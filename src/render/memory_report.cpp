#include "render/memory_report.h"

#include <fmt/format.h>

#include <nlohmann/json.hpp>

#include "render/json_text.h"
#include "render/table.h"

namespace etviz::render {
namespace {

std::string node_text(const Graph& g, NodeId n) {
  if (n < 0 || static_cast<size_t>(n) >= g.nodes.size()) return "(input)";
  const Node& node = g.nodes[static_cast<size_t>(n)];
  return fmt::format("#{} {}", node.provenance.instruction, node.op);
}

std::string at_text(const Graph& g, const analysis::MemoryPlan& p, int64_t pos) {
  if (pos < 0 || pos >= static_cast<int64_t>(p.instruction_nodes.size())) return "-";
  return fmt::format(
      "{} ({})", pos,
      g.nodes[static_cast<size_t>(p.instruction_nodes[static_cast<size_t>(pos)])].op);
}

std::string share(int64_t part, int64_t whole) {
  return whole > 0 ? fmt::format("{:.0f}%",
                                 100.0 * static_cast<double>(part) / static_cast<double>(whole))
                   : "-";
}

std::string text(const std::string& file, const Graph& g, const analysis::MemoryPlan& p,
                 size_t live_rows) {
  std::string out = fmt::format("{} · method {} · {} instructions · {} planned tensors\n\n", file,
                                p.method, with_thousands(p.instructions),
                                with_thousands(static_cast<int64_t>(p.tensors.size())));
  Table arenas(
      {"arena", "planned", "peak live", "at instruction", "unused at peak", "reached", "tensors"},
      {Align::kRight, Align::kRight, Align::kRight, Align::kLeft, Align::kRight, Align::kRight,
       Align::kRight});
  arenas.set_shrinkable({3});
  for (const auto& a : p.arenas)
    arenas.add_row(
        {std::to_string(a.id), human_bytes(static_cast<uint64_t>(a.planned_bytes)),
         human_bytes(static_cast<uint64_t>(a.peak_bytes)), at_text(g, p, a.peak_at),
         a.planned_bytes > 0 ? share(a.planned_bytes - a.peak_bytes, a.planned_bytes) : "-",
         human_bytes(static_cast<uint64_t>(a.highest_end)), with_thousands(a.tensors)});
  out += arenas.to_text("  ");
  std::string sizes;
  for (size_t k = 0; k < p.non_const_buffer_sizes.size(); ++k)
    sizes += (k ? ", " : "") + with_thousands(p.non_const_buffer_sizes[k]);
  out += fmt::format("  non_const_buffer_sizes: [{}] (index 0 is reserved)\n", sizes);
  out += "  \"unused at peak\": planned bytes no tensor uses at the arena's peak (fragmentation)\n";
  for (const auto& a : p.arenas) {
    if (a.live_at_peak.empty()) continue;
    out +=
        fmt::format("\nLive in arena {} at its peak, instruction {} ({} tensors, largest first)\n",
                    a.id, at_text(g, p, a.peak_at), a.live_at_peak.size());
    Table t({"tensor", "bytes", "offset", "lives", "written by"},
            {Align::kLeft, Align::kRight, Align::kRight, Align::kLeft, Align::kLeft});
    t.set_shrinkable({0, 4});
    for (size_t k = 0; k < a.live_at_peak.size() && k < live_rows; ++k) {
      const auto& x = p.tensors[static_cast<size_t>(a.live_at_peak[k])];
      t.add_row(
          {x.name, with_thousands(x.bytes), with_thousands(static_cast<int64_t>(x.offset)),
           x.never_freed ? fmt::format("{}-end", x.first) : fmt::format("{}-{}", x.first, x.last),
           node_text(g, x.producer)});
    }
    out += t.to_text("  ");
    if (a.live_at_peak.size() > live_rows)
      out += fmt::format("  ... {} more (--format json lists all)\n",
                         a.live_at_peak.size() - live_rows);
  }
  int64_t forever = 0, forever_bytes = 0;
  for (const auto& t : p.tensors)
    if (t.never_freed) {
      ++forever;
      forever_bytes += t.bytes;
    }
  out += fmt::format("\nNever freed (method outputs, mutable buffers): {} tensors, {}\n", forever,
                     human_bytes(static_cast<uint64_t>(forever_bytes)));
  if (p.aliases)
    out += fmt::format("Views sharing their source's memory (by design, not defects): {}\n",
                       p.aliases);
  if (p.unsized)
    out += fmt::format("Planned tensors of unknown size (dynamic shapes, not counted): {}\n",
                       p.unsized);
  if (p.overlap_count == 0) {
    out += "Plan check: no two live tensors share bytes of an arena\n";
  } else {
    out +=
        fmt::format("\nPLAN DEFECT: {} {} of distinct tensors live at the same time share bytes\n",
                    p.overlap_count, p.overlap_count == 1 ? "pair" : "pairs");
    Table t({"arena", "tensor", "bytes", "tensor", "bytes", "both live"},
            {Align::kRight, Align::kLeft, Align::kLeft, Align::kLeft, Align::kLeft, Align::kLeft});
    t.set_shrinkable({1, 3});
    for (const auto& o : p.overlaps) {
      const auto &x = p.tensors[static_cast<size_t>(o.a)], &y = p.tensors[static_cast<size_t>(o.b)];
      t.add_row({std::to_string(x.arena), x.name,
                 fmt::format("{}-{}", x.offset, x.offset + static_cast<uint64_t>(x.bytes)), y.name,
                 fmt::format("{}-{}", y.offset, y.offset + static_cast<uint64_t>(y.bytes)),
                 fmt::format("{}-{}", o.from, o.to)});
    }
    out += t.to_text("  ");
  }
  return out;
}

std::string csv(const Graph& g, const analysis::MemoryPlan& p) {
  Table t(
      {"tensor", "value", "arena", "offset", "bytes", "first", "last", "never_freed", "writer"});
  for (const auto& x : p.tensors)
    t.add_row({x.name, std::to_string(x.value), std::to_string(x.arena), std::to_string(x.offset),
               std::to_string(x.bytes), std::to_string(x.first), std::to_string(x.last),
               x.never_freed ? "true" : "false", node_text(g, x.producer)});
  return t.to_csv();
}

std::string json(const std::string& file, const Graph& g, const analysis::MemoryPlan& p) {
  using nlohmann::ordered_json;
  ordered_json j;
  j["format"] = "etviz.memory/1";
  j["file"] = file;
  j["method"] = p.method;
  j["instructions"] = p.instructions;
  j["non_const_buffer_sizes"] = p.non_const_buffer_sizes;
  ordered_json arenas = ordered_json::array();
  for (const auto& a : p.arenas)
    arenas.push_back({{"id", a.id},
                      {"planned_bytes", a.planned_bytes},
                      {"peak_bytes", a.peak_bytes},
                      {"peak_instruction", a.peak_at},
                      {"unused_at_peak_bytes", a.planned_bytes - a.peak_bytes},
                      {"highest_end", a.highest_end},
                      {"tensors", a.tensors},
                      {"live_at_peak", a.live_at_peak}});
  j["arenas"] = std::move(arenas);
  ordered_json tensors = ordered_json::array();
  for (const auto& x : p.tensors) {
    ordered_json t = {
        {"name", x.name},   {"value", x.value}, {"arena", x.arena}, {"offset", x.offset},
        {"bytes", x.bytes}, {"first", x.first}, {"last", x.last},   {"never_freed", x.never_freed},
        {"input", x.input}};
    t["writer"] = x.producer >= 0 ? ordered_json(g.nodes[static_cast<size_t>(x.producer)].name)
                                  : ordered_json(nullptr);
    tensors.push_back(std::move(t));
  }
  j["tensors"] = std::move(tensors);
  ordered_json overlaps = ordered_json::array();
  for (const auto& o : p.overlaps)
    overlaps.push_back({{"a", o.a}, {"b", o.b}, {"from", o.from}, {"to", o.to}});
  j["overlap_count"] = p.overlap_count;
  j["overlaps"] = std::move(overlaps);
  j["aliases"] = p.aliases;
  j["unsized"] = p.unsized;
  return json_report(j);
}

}  // namespace

std::string memory_report(const std::string& file, const Graph& graph,
                          const analysis::MemoryPlan& plan, MemoryFormat format, size_t live_rows) {
  switch (format) {
    case MemoryFormat::kCsv:
      return csv(graph, plan);
    case MemoryFormat::kJson:
      return json(file, graph, plan);
    case MemoryFormat::kTable:
      break;
  }
  return text(file, graph, plan, live_rows);
}

}  // namespace etviz::render
