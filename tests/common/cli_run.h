#pragma once
// Runs the etviz binary as a user does and captures what it printed: for CLI tests (exit
// codes, stdout vs stderr). Header-only, needs no etviz library.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <string>

namespace etviz::test {

struct CliRun {
  int exit_code = -1;  // -1 when the process did not exit normally (a crash)
  std::string out;
  std::string err;
};

inline std::string etviz_binary() {
  return std::string(ETVIZ_BINARY_DIR) + "/src/cli/etviz";
}

// Runs a shell command line (for redirections, ulimit, timeout), capturing stdout and stderr.
inline CliRun run_shell(const std::string& command) {
  // CTest runs tests in parallel, each in its own process: one stderr file per test.
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string err_file = std::string(ETVIZ_BINARY_DIR) + "/cli_stderr_" +
                               info->test_suite_name() + "_" + info->name() + ".txt";
  const std::string cmd = "{ " + command + " ; } 2>" + err_file;
  CliRun r;
  FILE* p = popen(cmd.c_str(), "r");
  if (!p) return r;
  std::array<char, 4096> buf;
  size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), p)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(p);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  if (FILE* f = fopen(err_file.c_str(), "r")) {
    while ((n = fread(buf.data(), 1, buf.size(), f)) > 0) r.err.append(buf.data(), n);
    fclose(f);
  }
  std::remove(err_file.c_str());
  return r;
}

// `args` is appended to the binary's path as shell words (quote paths with spaces).
inline CliRun run_etviz(const std::string& args) {
  return run_shell(etviz_binary() + " " + args);
}

}  // namespace etviz::test
