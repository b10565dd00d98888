// etviz: explore ExecuTorch and torch.export artifacts.
#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <exception>
#include <vector>

#include "cli/commands.h"
#include "etviz/version.h"

int main(int argc, char** argv) {
  CLI::App app{"etviz: explore PyTorch -> ExecuTorch artifacts (.pte, .bpte, .ptd, ...)"};
  app.set_version_flag("--version", std::string("etviz ") + ETVIZ_VERSION);
  app.require_subcommand(1);
  etviz::cli::register_info(app);
  etviz::cli::register_view(app);
  etviz::cli::register_delegation(app);
  etviz::cli::register_profile(app);
  // A bare file argument runs the viewer: insert the `view` subcommand name.
  std::vector<char*> args(argv, argv + argc);
  static char view_name[] = "view";
  if (etviz::cli::is_default_view_invocation(app, argc, argv)) args.insert(args.begin() + 1, view_name);
  try {
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  }
  return etviz::cli::exit_code();
}
