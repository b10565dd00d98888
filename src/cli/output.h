#pragma once
// Shared CLI plumbing: results to stdout or -o, errors as one line on stderr.
#include <string>

#include "core/status.h"

namespace etviz::cli {

// Prints "etviz: error: <message>" to stderr and returns the exit code for errors (1).
int report_error(const Error& error);

// Writes `text` to `path`, or to stdout when path is empty or "-". Returns an exit code.
int write_output(const std::string& path, const std::string& text);

}  // namespace etviz::cli
