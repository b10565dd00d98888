#pragma once
// The `etviz` command as a function: the binary's main and the Python module's
// `python -m etviz` / `etviz` console script (src/python) both call it, so commands, flags,
// output and exit codes are one implementation.
namespace etviz::cli {

// Parses `argv` (argv[0] is the program's name, shown as "etviz" in help and errors), runs
// the command and returns its exit code: 0 on success, 1 on a reported error, 2 on a usage
// error. Output goes to the process's stdout and stderr. Each call starts from a clean state
// (exit code, the run's budget), so a process may call it more than once.
int run(int argc, char** argv);

}  // namespace etviz::cli
