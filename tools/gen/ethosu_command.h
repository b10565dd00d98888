#pragma once
// `etviz-gen ethosu`: a program fragmented into Arm Ethos-U delegates (Vela bin streams) with
// the TOSA file of each partition beside it, as the Arm compile writes them with its
// intermediates: for the TOSA side-file tests and benchmarks (docs/delegates.md).
#include <CLI/CLI.hpp>
#include <string>
#include <vector>

namespace etviz::gen {

struct EthosuSpec {
  int delegates = 11;
  int layers = 6;  // Conv2D/Rescale/Clamp layers per partition (11 TOSA operators each)
  int height = 56, width = 56;
  bool decoy = false;  // also write a TOSA file that matches no delegate
};

// Writes DIR/program.pte and DIR/output_tag<k>_TOSA-1.0+INT+u55.tosa, one per delegate; tags
// count down from the last delegate, so name order is not delegate order. Returns the paths
// written (program first); `error` set on failure.
std::vector<std::string> write_ethosu_program(const std::string& dir, const EthosuSpec& spec,
                                              std::string& error);

void register_ethosu_command(CLI::App& app);

}  // namespace etviz::gen
