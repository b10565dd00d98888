// `etviz delegation FILE`: what each backend took and what stayed on the CPU, in the shape
// of ExecuTorch's get_delegation_info; `--graph` prints the program with every delegate's
// subgraph inlined under its call.
#include <fmt/format.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "analysis/delegation.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "formats/open_document.h"
#include "render/table.h"

namespace etviz::cli {
namespace {

struct DelegationOptions {
  std::string file;
  std::vector<std::string> data;
  std::string method;
  std::string format = "table";
  bool graph = false;
  std::string output;
};

using render::Align;
using render::Table;

Table operator_table(const analysis::DelegationInfo& info, bool per_backend) {
  std::vector<std::string> header = {"op_type", "occurrences_in_delegated_graphs",
                                     "occurrences_in_non_delegated_graphs"};
  std::vector<Align> align = {Align::kLeft, Align::kRight, Align::kRight};
  if (per_backend)
    for (const auto& b : info.backends) {
      header.push_back("delegated_to_" + b.backend);
      align.push_back(Align::kRight);
    }
  Table t(header, align);
  for (const auto& op : info.operators) {
    std::vector<std::string> row = {op.op_type, std::to_string(op.delegated),
                                    std::to_string(op.non_delegated)};
    if (per_backend)
      for (const auto& b : info.backends) {
        auto it = op.delegated_by_backend.find(b.backend);
        row.push_back(std::to_string(it == op.delegated_by_backend.end() ? 0 : it->second));
      }
    t.add_row(std::move(row));
  }
  std::vector<std::string> total = {"Total", std::to_string(info.num_delegated_nodes),
                                    std::to_string(info.num_non_delegated_nodes)};
  if (per_backend)
    for (const auto& b : info.backends) total.push_back(std::to_string(b.delegated_nodes));
  t.add_row(std::move(total));
  return t;
}

Table delegate_table(const analysis::DelegationInfo& info) {
  Table t({"method", "#", "backend", "payload", "bytes", "status", "nodes", "note"},
          {Align::kLeft, Align::kRight, Align::kLeft, Align::kLeft, Align::kRight, Align::kLeft,
           Align::kRight, Align::kLeft});
  for (const auto& d : info.delegates)
    t.add_row({d.method, std::to_string(d.index_in_method), d.backend, d.location,
               render::with_thousands(static_cast<int64_t>(d.payload_bytes)), d.status,
               d.nodes < 0 ? "-" : std::to_string(d.nodes), d.note});
  return t;
}

Table backend_table(const analysis::DelegationInfo& info) {
  Table t({"backend", "subgraphs", "decoded", "opaque", "delegated_nodes"},
          {Align::kLeft, Align::kRight, Align::kRight, Align::kRight, Align::kRight});
  for (const auto& b : info.backends)
    t.add_row({b.backend, std::to_string(b.subgraphs), std::to_string(b.decoded),
               std::to_string(b.opaque), std::to_string(b.delegated_nodes)});
  return t;
}

std::string summary_lines(const analysis::DelegationInfo& info) {
  std::string s;
  if (info.graphs.size() == 1) s += fmt::format("Graph: {}\n", info.graphs[0]);
  s += fmt::format("Total delegated subgraphs: {}\n", info.num_delegated_subgraphs);
  s += fmt::format("Number of delegated nodes: {}\n", info.num_delegated_nodes);
  s += fmt::format("Number of non-delegated nodes: {}\n", info.num_non_delegated_nodes);
  if (info.num_opaque_subgraphs > 0)
    s += fmt::format(
        "Opaque delegated subgraphs: {} (payload not decodable to ops; their nodes are not "
        "counted above)\n",
        info.num_opaque_subgraphs);
  return s;
}

std::string to_json(const std::string& file, const analysis::DelegationInfo& info) {
  nlohmann::ordered_json j;
  j["file"] = file;
  j["graphs"] = info.graphs;
  j["num_delegated_subgraphs"] = info.num_delegated_subgraphs;
  j["num_delegated_nodes"] = info.num_delegated_nodes;
  j["num_non_delegated_nodes"] = info.num_non_delegated_nodes;
  j["num_opaque_subgraphs"] = info.num_opaque_subgraphs;
  auto& backends = j["backends"] = nlohmann::ordered_json::array();
  for (const auto& b : info.backends)
    backends.push_back({{"backend", b.backend},
                        {"subgraphs", b.subgraphs},
                        {"decoded", b.decoded},
                        {"opaque", b.opaque},
                        {"delegated_nodes", b.delegated_nodes}});
  auto& delegates = j["delegates"] = nlohmann::ordered_json::array();
  for (const auto& d : info.delegates) {
    nlohmann::ordered_json e = {
        {"method", d.method},    {"index", d.index_in_method},       {"backend", d.backend},
        {"payload", d.location}, {"payload_bytes", d.payload_bytes}, {"status", d.status}};
    if (d.nodes >= 0) e["nodes"] = d.nodes;
    if (!d.note.empty()) e["note"] = d.note;
    delegates.push_back(std::move(e));
  }
  auto& ops = j["operators"] = nlohmann::ordered_json::array();
  for (const auto& op : info.operators) {
    nlohmann::ordered_json o = {{"op_type", op.op_type},
                                {"occurrences_in_delegated_graphs", op.delegated},
                                {"occurrences_in_non_delegated_graphs", op.non_delegated}};
    if (!op.delegated_by_backend.empty()) o["delegated_by_backend"] = op.delegated_by_backend;
    ops.push_back(std::move(o));
  }
  return j.dump(2) + "\n";
}

int run_delegation(const DelegationOptions& opt) {
  OpenOptions open;
  open.data_files = opt.data;
  auto doc = open_document(opt.file, open);
  if (!doc) return report_error(doc.error());
  for (const Diagnostic& d : doc->diagnostics)
    if (d.severity == Severity::kWarning) fmt::print(stderr, "etviz: warning: {}\n", d.message);
  if (opt.graph) {
    if (!opt.method.empty() && !doc->find_graph(opt.method))
      return report_error(Error(fmt::format("{}: no method '{}'", opt.file, opt.method)));
    return write_output(opt.output, analysis::format_delegated_graph(*doc, opt.method));
  }
  auto info = analysis::delegation_info(*doc, opt.method);
  if (!info) return report_error(info.error().within(opt.file));
  const bool per_backend = info->backends.size() > 1;
  std::string text;
  if (opt.format == "json") {
    text = to_json(opt.file, *info);
  } else if (opt.format == "csv") {
    text = operator_table(*info, per_backend).to_csv();
  } else if (opt.format == "markdown") {
    text = fmt::format("# Delegation: {}\n\n", opt.file);
    for (const std::string& line : {summary_lines(*info)}) text += line;
    if (!info->delegates.empty())
      text += "\n## Delegates\n\n" + delegate_table(*info).to_markdown();
    if (per_backend) text += "\n## Backends\n\n" + backend_table(*info).to_markdown();
    text += "\n## Operators\n\n" + operator_table(*info, per_backend).to_markdown();
  } else {
    text = opt.file + "\n" + summary_lines(*info);
    if (!info->delegates.empty()) text += "\nDelegates\n" + delegate_table(*info).to_text("  ");
    if (per_backend) text += "\nBackends\n" + backend_table(*info).to_text("  ");
    text += "\nOperators\n" + operator_table(*info, per_backend).to_text("  ");
  }
  return write_output(opt.output, text);
}

}  // namespace

void register_delegation(CLI::App& app) {
  auto opt = std::make_shared<DelegationOptions>();
  CLI::App* cmd = app.add_subcommand(
      "delegation",
      "What each backend took and what stayed on the CPU (ExecuTorch's get_delegation_info)");
  cmd->add_option("file", opt->file, "Program (.pte) or bundled program (.bpte)")->required();
  cmd->add_option("--data", opt->data, "FlatTensor data file (.ptd) with external tensors");
  cmd->add_option("--method", opt->method, "Only this method");
  cmd->add_option("--format", opt->format, "table, csv (operator table), json or markdown")
      ->check(CLI::IsMember({"table", "csv", "json", "markdown"}));
  cmd->add_flag("--graph", opt->graph,
                "Print the program as indented text with each delegate's subgraph inlined");
  cmd->add_option("-o,--output", opt->output, "Write to this file instead of stdout");
  cmd->callback([opt] { set_exit_code(run_delegation(*opt)); });
}

}  // namespace etviz::cli
