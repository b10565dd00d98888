#pragma once
// `etviz-gen etdump`: an ETDump (and optional debug buffer) matching a program's method.
#include <CLI/CLI.hpp>

namespace etviz::gen {
void register_etdump_command(CLI::App& app);
}
