// etviz-gen: writes valid, large, model-shaped inputs for demos, tests and benchmarks.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>

#include "byte_size.h"
#include "etdump_command.h"
#include "ethosu_command.h"
#include "export_command.h"
#include "transformer_model.h"

int main(int argc, char** argv) {
  CLI::App app{"etviz-gen: write model-shaped ExecuTorch programs for demos, tests and benchmarks"};
  app.require_subcommand(1);
  etviz::gen::TransformerSpec spec;
  std::string output, pad = "0";
  CLI::App* program = app.add_subcommand("program", "A decoder-only transformer program (.pte)");
  program->add_option("--blocks", spec.blocks, "Transformer blocks (~40 kernel calls each)")
      ->check(CLI::Range(1, 100000));
  program->add_option("--dim", spec.dim, "Model width")->check(CLI::Range(8, 65536));
  program->add_option("--hidden", spec.hidden, "MLP width")->check(CLI::Range(8, 262144));
  program->add_option("--heads", spec.heads, "Attention heads")->check(CLI::Range(1, 1024));
  program->add_option("--seq", spec.seq, "Sequence length of the prefill methods")
      ->check(CLI::Range(1, 1 << 20));
  program->add_option("--vocab", spec.vocab, "Vocabulary size")->check(CLI::Range(2, 1 << 22));
  program->add_option("--methods", spec.methods, "Methods: forward plus prefill_N")
      ->check(CLI::Range(1, 64));
  program->add_flag("--delegates", spec.delegates, "Lower each block's MLP to a delegate call");
  program
      ->add_option(
          "--delegate-backend", spec.delegate_backend,
          "Backend of the delegate calls: xnnpack (real, decodable payloads) or example (opaque)")
      ->check(CLI::IsMember({"xnnpack", "example"}));
  program->add_flag("--hostile-names", spec.hostile_names,
                    "Op and tensor names with HTML/script injection");
  program->add_flag("--views", spec.views,
                    "Reshapes as views sharing their input's memory (folded into the plan, and "
                    "one executorch_prim::et_view call per block), not view_copy kernels");
  bool reuse_memory = false;
  program->add_flag("--reuse-memory", reuse_memory,
                    "Plan activations as a memory planner does: bytes reused once a tensor is "
                    "dead (default: every activation has bytes of its own)");
  program->add_option("--pad-constants", pad,
                      "Grow the constant segment to this size (e.g. 1G); sparse on disk");
  bool bundled = false;
  program->add_flag("--bundle", bundled,
                    "Write a bundled program (.bpte): the program with one test case per method");
  std::string test_bytes = "16";
  program->add_option("--test-data", test_bytes,
                      "With --bundle: bytes of each test input and expected output (e.g. 8M)");
  etviz::gen::WriteOptions edits;
  program->add_flag("--fill-constants", edits.fill_constants,
                    "Write constants' bytes (numbers from each fqn), not zeros: pairs of programs "
                    "then differ only where an --edit-* option says");
  program->add_option("--edit-weights", edits.edit_weights,
                      "With --fill-constants: the first N float constants get every 61st "
                      "element + 0.25");
  program->add_flag("--edit-nan", edits.edit_nan,
                    "With --fill-constants: element 1 of the first float constant is NaN");
  program->add_flag("--edit-scalar", edits.edit_scalar,
                    "The first Int argument of the first method's instructions + 42");
  program->add_flag("--edit-sizes", edits.edit_sizes, "The first 2-D constant's sizes swapped");
  program->add_flag("--edit-dim-order", edits.edit_dim_order,
                    "The first 2-D constant's dim order [1, 0]");
  program->add_flag("--edit-storage-offset", edits.edit_storage_offset,
                    "The first constant's storage offset 4");
  program->add_option("--swap-op", edits.swap_op,
                      "FROM=TO: the first method's operator FROM is named TO");
  program->add_option("--version", edits.version, "The program's version field");
  program->add_option("-o,--output", output, "Output .pte (.bpte with --bundle)")->required();
  program->callback([&] {
    etviz::gen::ProgramBuilder builder;
    const int64_t calls = etviz::gen::build_transformer(builder, spec);
    etviz::gen::WriteOptions options = edits;
    options.min_constant_segment_bytes = etviz::gen::parse_bytes(pad, "--pad-constants");
    options.bundled = bundled;
    options.reuse_memory = reuse_memory;
    options.bundle_test_bytes = etviz::gen::parse_bytes(test_bytes, "--test-data");
    std::string error;
    if (!builder.write(output, options, error)) {
      fmt::print(stderr, "etviz-gen: error: {}\n", error);
      std::exit(1);
    }
    fmt::print(stderr, "etviz-gen: wrote {} ({} method{}, {} calls per method)\n", output,
               spec.methods, spec.methods == 1 ? "" : "s", calls);
  });
  etviz::gen::register_etdump_command(app);
  etviz::gen::register_ethosu_command(app);
  etviz::gen::register_export_command(app);
  etviz::gen::register_trace_command(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::exception& e) {
    fmt::print(stderr, "etviz-gen: error: {}\n", e.what());
    return 1;
  }
  return 0;
}
