// etviz: explore ExecuTorch and torch.export artifacts.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>
#include <vector>

#include "cli/commands.h"
#include "core/text.h"
#include "etviz/version.h"

int main(int argc, char** argv) {
  CLI::App app{"etviz: explore PyTorch -> ExecuTorch artifacts (.pte, .bpte, .ptd, ...)"};
  app.set_version_flag("--version", std::string("etviz ") + ETVIZ_VERSION);
  app.require_subcommand(1);
  etviz::cli::register_info(app);
  etviz::cli::register_view(app);
  etviz::cli::register_app(app);
  etviz::cli::register_delegation(app);
  etviz::cli::register_profile(app);
  etviz::cli::register_diff(app);
  etviz::cli::register_trace(app);
  etviz::cli::register_memory(app);
  etviz::cli::register_size(app);
  etviz::cli::register_export(app);
  etviz::cli::register_numerics(app);
  // A bare file argument runs the viewer: insert the `view` subcommand name.
  std::vector<char*> args(argv, argv + argc);
  static char view_name[] = "view";
  switch (etviz::cli::classify_invocation(app, argc, argv)) {
    case etviz::cli::DefaultInvocation::kViewFile:
      args.insert(args.begin() + 1, view_name);
      break;
    case etviz::cli::DefaultInvocation::kUnknownCommand: {
      std::string names;
      for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
        names += (names.empty() ? "" : ", ") + sub->get_name();
      fmt::print(stderr,
                 "etviz: error: unknown command '{}' (commands: {}; or give a file to view: "
                 "etviz FILE -o page.html)\n",
                 etviz::terminal_safe(argv[1]), names);
      return 2;
    }
    case etviz::cli::DefaultInvocation::kSubcommand:
      break;
  }
  try {
    app.parse(static_cast<int>(args.size()), args.data());
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const std::bad_alloc&) {
    // Out of memory: one error line, as for any other failure, naming what bounds a run.
    std::fputs(
        "etviz: error: out of memory; bound the run with --max-nodes, --max-inflated, "
        "--max-json-string or --max-json-depth (docs/limits.md)\n",
        stderr);
    return 1;
  }
  return etviz::cli::exit_code();
}
