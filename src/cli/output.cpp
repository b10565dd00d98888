#include "cli/output.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cli/commands.h"

namespace etviz::cli {

namespace {
int g_exit_code = 0;
}

int exit_code() {
  return g_exit_code;
}
void set_exit_code(int code) {
  g_exit_code = code;
}

int report_error(const Error& error) {
  fmt::print(stderr, "etviz: error: {}\n", error.message());
  return 1;
}

int write_output(const std::string& path, const std::string& text) {
  if (path.empty() || path == "-") {
    std::fwrite(text.data(), 1, text.size(), stdout);
    return std::fflush(stdout) == 0 ? 0 : report_error(Error("cannot write to stdout"));
  }
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f)
    return report_error(Error(fmt::format("{}: cannot write: {}", path, std::strerror(errno))));
  const bool ok = std::fwrite(text.data(), 1, text.size(), f) == text.size();
  const bool closed = std::fclose(f) == 0;
  if (!ok || !closed) return report_error(Error(fmt::format("{}: write failed", path)));
  return 0;
}

size_t terminal_width() {
  winsize w{};
  if (isatty(STDOUT_FILENO) && ioctl(STDOUT_FILENO, TIOCGWINSZ, &w) == 0 && w.ws_col > 0)
    return w.ws_col;
  if (const char* columns = std::getenv("COLUMNS")) {
    char* end = nullptr;
    const long n = std::strtol(columns, &end, 10);
    if (end != columns && *end == 0 && n > 0 && n < 100000) return static_cast<size_t>(n);
  }
  return 0;
}

}  // namespace etviz::cli
