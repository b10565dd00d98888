#include "cli/run.h"

#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "core/budget.h"
#include "core/text.h"
#include "etviz/version.h"

namespace etviz::cli {
namespace {

int run_app(int argc, char** argv) {
  CLI::App app{"etviz: explore PyTorch -> ExecuTorch artifacts (.pte, .bpte, .ptd, ...)", "etviz"};
  app.set_version_flag("--version", std::string("etviz ") + ETVIZ_VERSION);
  app.require_subcommand(1);
  register_info(app);
  register_view(app);
  register_app(app);
  register_delegation(app);
  register_profile(app);
  register_diff(app);
  register_trace(app);
  register_memory(app);
  register_size(app);
  register_export(app);
  register_numerics(app);
  // A bare file argument runs the viewer: insert the `view` subcommand name.
  std::vector<char*> args(argv, argv + argc);
  static char view_name[] = "view";
  switch (classify_invocation(app, argc, argv)) {
    case DefaultInvocation::kViewFile:
      args.insert(args.begin() + 1, view_name);
      break;
    case DefaultInvocation::kUnknownCommand: {
      std::string names;
      for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
        names += (names.empty() ? "" : ", ") + sub->get_name();
      fmt::print(stderr,
                 "etviz: error: unknown command '{}' (commands: {}; or give a file to view: "
                 "etviz FILE -o page.html)\n",
                 terminal_safe(argv[1]), names);
      return 2;
    }
    case DefaultInvocation::kSubcommand:
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
  return exit_code();
}

}  // namespace

int run(int argc, char** argv) {
  // A clean start: the exit code of an earlier call, and the budget its --max-* options set.
  reset_exit_code();
  const Budget budget = run_budget();
  const int rc = run_app(argc, argv);
  run_budget() = budget;
  std::fflush(stdout);
  std::fflush(stderr);
  return rc;
}

}  // namespace etviz::cli
