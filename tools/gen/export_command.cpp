#include "export_command.h"

#include <fmt/format.h>

#include <fstream>
#include <memory>

#include "byte_size.h"
#include "export_model.h"
#include "trace_model.h"

namespace etviz::gen {

void register_export_command(CLI::App& app) {
  struct Options {
    ExportModelSpec spec;
    std::string format = "pt2";
    std::string output;
    std::string pad = "0";
  };
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "export", "A transformer-shaped torch.export program (.pt2, .etrecord or JSON)");
  cmd->add_option("--blocks", opt->spec.blocks, "Transformer blocks (~41 nodes each)")
      ->check(CLI::Range(1, 1000000));
  cmd->add_option("--dim", opt->spec.dim, "Model width (multiple of 4)")
      ->check(CLI::Range(4, 65536));
  cmd->add_option("--hidden", opt->spec.hidden, "MLP width")->check(CLI::Range(4, 262144));
  cmd->add_flag("--cond", opt->spec.with_cond, "Append a cond higher-order op with two subgraphs");
  cmd->add_flag("--debug-handles", opt->spec.debug_handles, "Give every node a debug_handle");
  cmd->add_flag("--schema1", opt->spec.schema1_style, "Write the 2023 schema_version 1 form");
  cmd->add_option("--format", opt->format, "pt2 (new layout), pt2-2024, etrecord or json")
      ->check(CLI::IsMember({"pt2", "pt2-2024", "etrecord", "json"}));
  cmd->add_option("--pad-weights", opt->pad,
                  "Add this many bytes of weights (e.g. 2G), sparse on disk: a .pt2's 'padding' "
                  "weight or state dict, an ETRecord's state dict");
  cmd->add_option("-o,--output", opt->output, "Output file")->required();
  cmd->callback([opt] {
    const ExportProgram program = build_export_transformer(opt->spec);
    const uint64_t pad = parse_bytes(opt->pad, "--pad-weights");
    std::string error;
    if (opt->format == "json") {
      std::ofstream out(opt->output, std::ios::binary);
      out << write_exported_program_json(program);
      if (!out) error = "cannot write " + opt->output;
    } else if (opt->format == "etrecord") {
      ExportETRecord record;
      record.programs.push_back({"edge_dialect_exported_program", program});
      record.pad_weights = pad;
      error = write_etrecord(opt->output, record);
    } else {
      error = write_pt2(opt->output, {{"model", program}}, opt->format == "pt2", "archive", pad);
    }
    if (!error.empty()) {
      fmt::print(stderr, "etviz-gen: error: {}\n", error);
      std::exit(1);
    }
    fmt::print(stderr, "etviz-gen: wrote {} ({} nodes)\n", opt->output, program.graph.nodes.size());
  });
}

void register_trace_command(CLI::App& app) {
  struct Options {
    ExportModelSpec spec;
    std::string output;
  };
  auto opt = std::make_shared<Options>();
  CLI::App* cmd = app.add_subcommand(
      "trace",
      "A compiler-pass trace of the transformer (trace_passes.py JSON): six passes with known "
      "edits, one of them failed (tools/gen/trace_model.h)");
  cmd->add_option("--blocks", opt->spec.blocks, "Transformer blocks (~41 nodes each)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--dim", opt->spec.dim, "Model width (multiple of 4)")
      ->check(CLI::Range(4, 65536));
  cmd->add_option("--hidden", opt->spec.hidden, "MLP width")->check(CLI::Range(4, 262144));
  cmd->add_option("-o,--output", opt->output, "Output .json")->required();
  cmd->callback([opt] {
    opt->spec.symbolic_seq = false;
    const PassTrace trace = build_pass_trace(opt->spec);
    std::ofstream out(opt->output, std::ios::binary);
    out << write_pass_trace_json(trace);
    out.close();
    if (!out) {
      fmt::print(stderr, "etviz-gen: error: cannot write {}\n", opt->output);
      std::exit(1);
    }
    fmt::print(stderr, "etviz-gen: wrote {} ({} passes, {} nodes in the first)\n", opt->output,
               trace.passes.size(), trace.passes.front().nodes.size());
  });
}

}  // namespace etviz::gen
