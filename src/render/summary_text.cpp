#include <fmt/format.h>

#include <algorithm>

#include "render/summary_report.h"
#include "render/table.h"

namespace etviz::render {
namespace {

using analysis::Summary;
using analysis::TensorSummary;

std::string percent(uint64_t part, uint64_t whole) {
  return whole ? fmt::format("{:.1f}%",
                             100.0 * static_cast<double>(part) / static_cast<double>(whole))
               : "-";
}

std::string tensor_table(const std::vector<TensorSummary>& tensors, const std::string& indent) {
  Table t({"#", "name", "kind", "dtype", "shape / value"}, {Align::kRight});
  for (size_t i = 0; i < tensors.size(); ++i) {
    const auto& x = tensors[i];
    t.add_row({std::to_string(i), x.name, to_string(x.kind), x.dtype,
               x.kind == ValueKind::kTensor ? x.shape : x.literal});
  }
  return t.to_text(indent);
}

void section(std::string& out, const std::string& title) {
  out += "\n" + title + "\n";
}

}  // namespace

std::string summary_text(const Summary& s) {
  std::string out;
  out += fmt::format("{}\n", s.path);
  size_t width = 9;
  for (const auto& p : s.properties) width = std::max(width, p.name.size());
  out += fmt::format("  {:<{}}  {} ({})\n", "format", width, to_string(s.format), s.format_version);
  out += fmt::format("  {:<{}}  {} ({} bytes)\n", "file size", width, human_bytes(s.file_size),
                     with_thousands(static_cast<int64_t>(s.file_size)));
  for (const auto& p : s.properties) out += fmt::format("  {:<{}}  {}\n", p.name, width, p.value);

  if (!s.sections.empty()) {
    section(out, "Size");
    Table t({"section", "offset", "bytes", "share"},
            {Align::kLeft, Align::kRight, Align::kRight, Align::kRight});
    for (const auto& sec : s.sections)
      t.add_row({sec.name, with_thousands(static_cast<int64_t>(sec.offset)),
                 with_thousands(static_cast<int64_t>(sec.size)), percent(sec.size, s.file_size)});
    out += t.to_text("  ");
  }

  if (!s.methods.empty()) {
    section(out, "Methods");
    Table t({"method", "instructions", "kernel", "delegate", "move", "jump_false", "free", "values",
             "inputs", "outputs"},
            {Align::kLeft, Align::kRight, Align::kRight, Align::kRight, Align::kRight,
             Align::kRight, Align::kRight, Align::kRight, Align::kRight, Align::kRight});
    for (const auto& m : s.methods) {
      auto count = [&](const char* k) {
        auto it = m.instructions.find(k);
        return std::to_string(it == m.instructions.end() ? 0 : it->second);
      };
      t.add_row({m.name, std::to_string(m.instruction_count), count("kernel"), count("delegate"),
                 count("move"), count("jump_false"), count("free"), std::to_string(m.value_count),
                 std::to_string(m.inputs.size()), std::to_string(m.outputs.size())});
    }
    out += t.to_text("  ");
    for (const auto& m : s.methods) {
      section(out, fmt::format("Method '{}'", m.name));
      if (!m.inputs.empty()) out += "  inputs\n" + tensor_table(m.inputs, "    ");
      if (!m.outputs.empty()) out += "  outputs\n" + tensor_table(m.outputs, "    ");
      if (!m.ops.empty()) {
        Table ops({"operator", "count"}, {Align::kLeft, Align::kRight});
        for (const auto& op : m.ops) ops.add_row({op.op, std::to_string(op.count)});
        out += "  operators\n" + ops.to_text("    ");
      }
      if (!m.memory_buffer_sizes.empty()) {
        out += "  memory plan (non_const_buffer_sizes)\n";
        for (size_t id = 0; id < m.memory_buffer_sizes.size(); ++id)
          out +=
              fmt::format("    memory id {}: {} bytes{}\n", id,
                          with_thousands(m.memory_buffer_sizes[id]), id == 0 ? " (reserved)" : "");
      }
    }
  }

  if (s.methods.size() > 1 && !s.ops.empty()) {
    section(out, "Operators (all methods)");
    Table t({"operator", "count"}, {Align::kLeft, Align::kRight});
    for (const auto& op : s.ops) t.add_row({op.op, std::to_string(op.count)});
    out += t.to_text("  ");
  }

  if (!s.backends.empty()) {
    section(out, "Delegates");
    Table t({"backend", "delegates", "calls", "payload bytes", "location", "compile spec keys"},
            {Align::kLeft, Align::kRight, Align::kRight, Align::kRight});
    for (const auto& b : s.backends) {
      std::string keys, locs;
      for (const auto& k : b.compile_spec_keys) keys += (keys.empty() ? "" : ", ") + k;
      for (const auto& l : b.locations) locs += (locs.empty() ? "" : ", ") + l;
      t.add_row({b.backend, std::to_string(b.delegates), std::to_string(b.calls),
                 with_thousands(static_cast<int64_t>(b.payload_bytes)), locs, keys});
    }
    out += t.to_text("  ");
    for (const auto& d : s.delegates) {
      out += fmt::format("  {} #{} in '{}': {} payload {} ({} bytes)\n", d.backend_id,
                         d.index_in_method, d.method, d.payload_location, d.payload_index,
                         with_thousands(static_cast<int64_t>(d.payload.size)));
      for (const auto& cs : d.compile_specs)
        out += fmt::format("    {} = {}\n", cs.key, cs.display());
    }
  }

  if (s.constant_count > 0) {
    section(out, "Constants");
    std::string by;
    for (const auto& [loc, n] : s.constants_by_location)
      by += fmt::format("{}{} {}", by.empty() ? "" : ", ", n, loc);
    out += fmt::format("  {} tensors, {} ({})\n", s.constant_count,
                       human_bytes(static_cast<uint64_t>(s.constant_bytes)), by);
    Table t({"largest", "dtype", "shape", "bytes", "location"},
            {Align::kLeft, Align::kLeft, Align::kLeft, Align::kRight});
    for (const auto& c : s.largest_constants)
      t.add_row(
          {c.name, c.dtype, c.shape, c.bytes >= 0 ? with_thousands(c.bytes) : "?", c.location});
    out += t.to_text("  ");
  }

  if (s.named_data_count > 0) {
    section(out, "Named data");
    out += fmt::format("  {} blobs, {}\n", s.named_data_count, human_bytes(s.named_data_bytes));
    Table t({"key", "dtype", "shape", "bytes"},
            {Align::kLeft, Align::kLeft, Align::kLeft, Align::kRight});
    for (const auto& c : s.named_data)
      t.add_row({c.name, c.dtype, c.shape, with_thousands(c.bytes)});
    out += t.to_text("  ");
    if (s.named_data_count > static_cast<int64_t>(s.named_data.size()))
      out += fmt::format("  ... and {} more\n",
                         s.named_data_count - static_cast<int64_t>(s.named_data.size()));
  }

  if (!s.test_suites.empty()) {
    section(out, "Bundled test suites");
    for (const auto& suite : s.test_suites) {
      out += fmt::format("  method '{}': {} test cases\n", suite.method, suite.cases);
      if (!suite.inputs.empty())
        out += "    inputs (first case)\n" + tensor_table(suite.inputs, "      ");
      if (!suite.expected_outputs.empty())
        out +=
            "    expected outputs (first case)\n" + tensor_table(suite.expected_outputs, "      ");
    }
  }

  for (const auto& p : s.programs) {
    section(out, fmt::format("Exported program '{}'", p.name));
    std::string about = p.role == StageRole::kNone ? "" : std::string(to_string(p.role)) + ", ";
    about += "schema " + (p.schema_version.empty() ? std::string("?") : p.schema_version);
    if (!p.dialect.empty()) about += ", " + p.dialect;
    out += fmt::format("  {}; {} operator calls, {} with stack traces, {} with debug handles\n",
                       about, p.node_count, p.nodes_with_stack_trace, p.nodes_with_debug_handle);
    out += fmt::format("  parameters: {} tensors, {} elements, {}", p.parameters,
                       with_thousands(p.parameter_elements),
                       human_bytes(static_cast<uint64_t>(p.parameter_bytes)));
    if (p.buffers)
      out += fmt::format("; buffers: {}, {}", p.buffers,
                         human_bytes(static_cast<uint64_t>(p.buffer_bytes)));
    if (p.constants) out += fmt::format("; other constants: {}", p.constants);
    out += "\n";
    if (!p.symbolic_dims.empty()) {
      std::string dims;
      for (const auto& d : p.symbolic_dims) dims += (dims.empty() ? "" : ", ") + d;
      out += "  symbolic dims: " + dims + "\n";
    }
    if (p.subgraphs) out += fmt::format("  higher-order-op subgraphs: {}\n", p.subgraphs);
    if (!p.inputs.empty()) out += "  inputs\n" + tensor_table(p.inputs, "    ");
    if (!p.outputs.empty()) out += "  outputs\n" + tensor_table(p.outputs, "    ");
    if (!p.ops.empty()) {
      Table ops({"operator", "count"}, {Align::kLeft, Align::kRight});
      for (const auto& op : p.ops) ops.add_row({op.op, std::to_string(op.count)});
      out += "  operators\n" + ops.to_text("    ");
    }
    if (p.module_count) {
      out += fmt::format("  module tree: {} modules, depth {}, {} top-level\n", p.module_count,
                         p.module_depth, p.top_modules.size());
      Table mods({"module", "calls"}, {Align::kLeft, Align::kRight});
      for (const auto& m : p.modules)
        mods.add_row({std::string(static_cast<size_t>(2 * (m.depth - 1)), ' ') + m.label,
                      std::to_string(m.nodes)});
      out += mods.to_text("    ");
      if (p.module_count > static_cast<int64_t>(p.modules.size()))
        out += fmt::format("    ... and {} more modules\n",
                           p.module_count - static_cast<int64_t>(p.modules.size()));
    }
  }

  if (!s.imported_graphs.empty()) {
    int64_t nested = 0;
    for (const auto& g : s.imported_graphs) nested += g.nested;
    section(out, fmt::format("Graphs ({}, {} linked as subgraphs; {} operator nodes)",
                             s.imported_graphs.size(), nested, with_thousands(s.imported_ops)));
    Table t({"graph", "nodes", "edges", "inputs", "outputs", "namespaces", "depth", "subgraphs",
             "shown"},
            {Align::kLeft, Align::kRight, Align::kRight, Align::kRight, Align::kRight,
             Align::kRight, Align::kRight, Align::kRight, Align::kLeft});
    for (const auto& g : s.imported_graphs)
      t.add_row({g.name, with_thousands(g.nodes), with_thousands(g.edges), std::to_string(g.inputs),
                 std::to_string(g.outputs), with_thousands(g.namespaces),
                 std::to_string(g.namespace_depth), std::to_string(g.links.size()),
                 g.nested ? "inside its caller" : "top level"});
    out += t.to_text("  ");
    bool any_link = false;
    for (const auto& g : s.imported_graphs) any_link = any_link || !g.links.empty();
    if (any_link) {
      out += "  subgraph links (node -> graph)\n";
      Table links({"graph", "node", "links to"}, {Align::kLeft, Align::kLeft, Align::kLeft});
      size_t shown = 0, total = 0;
      for (const auto& g : s.imported_graphs)
        for (const auto& l : g.links) {
          ++total;
          if (shown++ < 40)
            links.add_row({g.name, l.node, l.missing ? l.graph + " (not in this file)" : l.graph});
        }
      out += links.to_text("    ");
      if (total > 40) out += fmt::format("    ... and {} more links\n", total - 40);
    }
    for (const auto& g : s.imported_graphs) {
      if (g.ops.empty()) continue;
      std::string ops;
      for (const auto& op : g.ops)
        ops += fmt::format("{}{} {}", ops.empty() ? "" : ", ", op.count, op.op);
      out += fmt::format("  '{}' most used: {}\n", g.name, ops);
    }
  }

  if (s.etrecord) {
    const auto& e = *s.etrecord;
    section(out, "ETRecord maps");
    out += fmt::format("  debug_handle_map: {} methods, {} instructions, {} debug handles\n",
                       e.debug_handle_methods, e.instructions, e.debug_handles);
    std::string backends;
    for (const auto& [b, n] : e.delegate_calls_by_backend)
      backends += fmt::format("{}{} {}", backends.empty() ? "" : ", ", n, b);
    out += fmt::format("  delegate_map: {} delegate calls{}, {} delegate debug ids\n",
                       e.delegate_calls, backends.empty() ? "" : " (" + backends + ")",
                       e.delegate_debug_ids);
    out += fmt::format("  instruction_id_to_num_outs_map: {} entries\n", e.num_outs_entries);
    out += fmt::format("  representative inputs: {}; reference outputs: {}\n",
                       e.representative_inputs ? "present" : "absent",
                       e.reference_outputs ? "present" : "absent");
  }

  if (!s.diagnostics.empty()) {
    section(out, "Notes");
    for (const auto& d : s.diagnostics)
      out += fmt::format("  {}: {}\n", to_string(d.severity), d.message);
  }
  return out;
}

}  // namespace etviz::render
