#pragma once
// Each subcommand registers itself on the app and records its exit code when it runs.
#include <CLI/CLI.hpp>

namespace etviz::cli {

void register_info(CLI::App& app);
void register_view(CLI::App& app);
void register_app(CLI::App& app);
// What the first word of argv is: a subcommand (or an option), a file to view (`etviz
// model.pte -o model.html`), or a word that is neither (a mistyped or unknown command).
enum class DefaultInvocation { kSubcommand, kViewFile, kUnknownCommand };
DefaultInvocation classify_invocation(CLI::App& app, int argc, char** argv);
void register_delegation(CLI::App& app);
void register_profile(CLI::App& app);
void register_diff(CLI::App& app);
void register_trace(CLI::App& app);
void register_memory(CLI::App& app);
void register_size(CLI::App& app);
void register_export(CLI::App& app);
void register_numerics(CLI::App& app);  // and `tensors`

// Set by the subcommand that ran: 0 on success, 1 on a reported error.
int exit_code();
void set_exit_code(int code);
// Back to 0, damaged inputs forgotten: the start of a run (cli::run).
void reset_exit_code();

}  // namespace etviz::cli
