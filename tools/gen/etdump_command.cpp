#include "etdump_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <memory>

#include "etdump_writer.h"
#include "formats/open_document.h"

namespace etviz::gen {
namespace {

struct EtdumpOptions {
  std::string program;
  SyntheticProfileSpec spec;
  bool plain = false;
  std::string debug_buffer;
  std::string output;
};

bool write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

void fail(const std::string& message) {
  fmt::print(stderr, "etviz-gen: error: {}\n", message);
  std::exit(1);
}

}  // namespace

void register_etdump_command(CLI::App& app) {
  auto opt = std::make_shared<EtdumpOptions>();
  CLI::App* cmd =
      app.add_subcommand("etdump", "An ETDump profile (.etdp) matching a program's method");
  cmd->add_option("--program", opt->program,
                  "Program (.pte/.bpte) whose instructions the events name")
      ->required();
  cmd->add_option("--method", opt->spec.method, "Method that 'ran'");
  cmd->add_option("--runs", opt->spec.runs, "Execute runs")->check(CLI::Range(0, 100000));
  cmd->add_option("--delegate-events", opt->spec.delegate_events,
                  "Events with debug ids inside each delegate call")
      ->check(CLI::Range(0, 10000));
  cmd->add_flag("--string-ids", opt->spec.delegate_ids_as_strings, "Delegate debug ids as strings");
  cmd->add_flag("--allocations", opt->spec.allocations, "Add allocation events");
  cmd->add_option("--debug-buffer", opt->debug_buffer,
                  "Also log intermediate outputs, their bytes in this file");
  cmd->add_option("--drift-from", opt->spec.drift_from,
                  "With --debug-buffer: outputs of this instruction and later ones drift (the "
                  "n-th by n x --drift), as a run that diverges there; without: none")
      ->check(CLI::Range(0, 1 << 30));
  cmd->add_option("--drift", opt->spec.drift,
                  "Drift per drifting output (default 0.0625: figures stay exact in float32)");
  cmd->add_option("--nan-at", opt->spec.nan_at,
                  "With --debug-buffer: this instruction's output holds a NaN and an Inf")
      ->check(CLI::Range(0, 1 << 30));
  cmd->add_flag("--outputs", opt->spec.outputs,
                "With --debug-buffer: log the method's outputs too (debug events marked output)");
  cmd->add_option("--bundled-input-index", opt->spec.bundled_input_index,
                  "The bundled test case the Execute runs say they ran (default -1: none)");
  cmd->add_option("--seed", opt->spec.seed, "Seed of the durations");
  cmd->add_flag("--plain", opt->plain, "No u32 size prefix (as Python tools write)");
  cmd->add_option("-o,--output", opt->output, "Output .etdp")->required();
  cmd->callback([opt] {
    auto doc = open_document(opt->program);
    if (!doc) fail(doc.error().message());
    opt->spec.debug_events = !opt->debug_buffer.empty();
    std::vector<uint8_t> buffer;
    auto profile = synthesize_profile(*doc, opt->spec, &buffer);
    if (!profile) fail(profile.error().within(opt->program).message());
    if (!write_file(opt->output, write_etdump(*profile, !opt->plain)))
      fail(opt->output + ": cannot write");
    if (!opt->debug_buffer.empty() && !write_file(opt->debug_buffer, buffer))
      fail(opt->debug_buffer + ": cannot write");
    fmt::print(stderr, "etviz-gen: wrote {} ({} runs, {} events)\n", opt->output,
               profile->runs.size(), profile->event_count());
  });
}

}  // namespace etviz::gen
