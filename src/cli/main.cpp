// etviz: explore ExecuTorch and torch.export artifacts.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <exception>

#include "cli/commands.h"
#include "etviz/version.h"

int main(int argc, char** argv) {
  CLI::App app{"etviz: explore PyTorch -> ExecuTorch artifacts (.pte, .bpte, .ptd, ...)"};
  app.set_version_flag("--version", std::string("etviz ") + ETVIZ_VERSION);
  app.require_subcommand(1);
  etviz::cli::register_info(app);
  etviz::cli::register_delegation(app);
  etviz::cli::register_profile(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return etviz::cli::exit_code();
}
