#include <fmt/format.h>

#include <algorithm>

#include "render/summary_report.h"
#include "render/table.h"

namespace etviz::render {
namespace {

using analysis::Summary;
using analysis::TensorSummary;

std::string percent(uint64_t part, uint64_t whole) {
  return whole ? fmt::format("{:.1f}%", 100.0 * static_cast<double>(part) / static_cast<double>(whole)) : "-";
}

std::string tensor_table(const std::vector<TensorSummary>& tensors, const std::string& indent) {
  Table t({"#", "name", "kind", "dtype", "shape / value"}, {Align::kRight});
  for (size_t i = 0; i < tensors.size(); ++i) {
    const auto& x = tensors[i];
    t.add_row({std::to_string(i), x.name, x.kind, x.dtype, x.kind == "tensor" ? x.shape : x.literal});
  }
  return t.to_text(indent);
}

void section(std::string& out, const std::string& title) { out += "\n" + title + "\n"; }

}  // namespace

std::string summary_text(const Summary& s) {
  std::string out;
  out += fmt::format("{}\n", s.path);
  size_t width = 9;
  for (const auto& p : s.properties) width = std::max(width, p.name.size());
  out += fmt::format("  {:<{}}  {} ({})\n", "format", width, s.format, s.format_version);
  out += fmt::format("  {:<{}}  {} ({} bytes)\n", "file size", width, human_bytes(s.file_size),
                     with_thousands(static_cast<int64_t>(s.file_size)));
  for (const auto& p : s.properties) out += fmt::format("  {:<{}}  {}\n", p.name, width, p.value);

  if (!s.sections.empty()) {
    section(out, "Size");
    Table t({"section", "offset", "bytes", "share"}, {Align::kLeft, Align::kRight, Align::kRight, Align::kRight});
    for (const auto& sec : s.sections)
      t.add_row({sec.name, with_thousands(static_cast<int64_t>(sec.offset)),
                 with_thousands(static_cast<int64_t>(sec.size)), percent(sec.size, s.file_size)});
    out += t.to_text("  ");
  }

  if (!s.methods.empty()) {
    section(out, "Methods");
    Table t({"method", "instructions", "kernel", "delegate", "move", "jump_false", "free", "values", "inputs", "outputs"},
            {Align::kLeft, Align::kRight, Align::kRight, Align::kRight, Align::kRight, Align::kRight,
             Align::kRight, Align::kRight, Align::kRight, Align::kRight});
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
          out += fmt::format("    memory id {}: {} bytes{}\n", id, with_thousands(m.memory_buffer_sizes[id]),
                             id == 0 ? " (reserved)" : "");
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
      out += fmt::format("  {} #{} in '{}': {} payload {} ({} bytes)\n", d.backend_id, d.index_in_method,
                         d.method, d.payload_location, d.payload_index,
                         with_thousands(static_cast<int64_t>(d.payload.size)));
      for (const auto& cs : d.compile_specs) out += fmt::format("    {} = {}\n", cs.key, cs.display());
    }
  }

  if (s.constant_count > 0) {
    section(out, "Constants");
    std::string by;
    for (const auto& [loc, n] : s.constants_by_location) by += fmt::format("{}{} {}", by.empty() ? "" : ", ", n, loc);
    out += fmt::format("  {} tensors, {} ({})\n", s.constant_count, human_bytes(static_cast<uint64_t>(s.constant_bytes)), by);
    Table t({"largest", "dtype", "shape", "bytes", "location"}, {Align::kLeft, Align::kLeft, Align::kLeft, Align::kRight});
    for (const auto& c : s.largest_constants)
      t.add_row({c.name, c.dtype, c.shape, c.bytes >= 0 ? with_thousands(c.bytes) : "?", c.location});
    out += t.to_text("  ");
  }

  if (s.named_data_count > 0) {
    section(out, "Named data");
    out += fmt::format("  {} blobs, {}\n", s.named_data_count, human_bytes(s.named_data_bytes));
    Table t({"key", "dtype", "shape", "bytes"}, {Align::kLeft, Align::kLeft, Align::kLeft, Align::kRight});
    for (const auto& c : s.named_data) t.add_row({c.name, c.dtype, c.shape, with_thousands(c.bytes)});
    out += t.to_text("  ");
    if (s.named_data_count > static_cast<int64_t>(s.named_data.size()))
      out += fmt::format("  ... and {} more\n", s.named_data_count - static_cast<int64_t>(s.named_data.size()));
  }

  if (!s.test_suites.empty()) {
    section(out, "Bundled test suites");
    for (const auto& suite : s.test_suites) {
      out += fmt::format("  method '{}': {} test cases\n", suite.method, suite.cases);
      if (!suite.inputs.empty()) out += "    inputs (first case)\n" + tensor_table(suite.inputs, "      ");
      if (!suite.expected_outputs.empty())
        out += "    expected outputs (first case)\n" + tensor_table(suite.expected_outputs, "      ");
    }
  }

  if (!s.diagnostics.empty()) {
    section(out, "Notes");
    for (const auto& d : s.diagnostics)
      out += fmt::format("  {}: {}\n", d.severity == Severity::kWarning ? "warning" : "note", d.message);
  }
  return out;
}

}  // namespace etviz::render
