#pragma once
// `etviz-gen export`: a transformer-shaped exported program as .pt2 (either layout), .etrecord
// or bare exported-program JSON.
#include <CLI/CLI.hpp>

namespace etviz::gen {
void register_export_command(CLI::App& app);
// `etviz-gen trace`: a pass trace of the transformer (trace_model.h).
void register_trace_command(CLI::App& app);
}  // namespace etviz::gen
