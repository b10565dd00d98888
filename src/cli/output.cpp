#include "cli/output.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "cli/commands.h"
#include "core/mapped_file.h"
#include "core/text.h"

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
  fmt::print(stderr, "etviz: error: {}\n", terminal_safe(error.message()));
  return 1;
}

Progress::Progress(bool quiet) : start_(std::chrono::steady_clock::now()), quiet_(quiet) {}

void Progress::operator()(const std::string& what, bool always) const {
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  if (!quiet_ && (always || s > 1.0))
    fmt::print(stderr, "etviz: [{:.1f}s] {}\n", s, terminal_safe(what));
}

void warn(const std::string& message) {
  fmt::print(stderr, "etviz: warning: {}\n", terminal_safe(message));
}

namespace {

// Writes all of `text` to fd; false (errno set) on any failure.
bool write_all(int fd, const std::string& text) {
  size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      return false;
    }
    done += static_cast<size_t>(n);
  }
  return true;
}

}  // namespace

int write_output(const std::string& path, const std::string& raw, OutputKind kind) {
  const std::string safe = kind == OutputKind::kText   ? terminal_safe(raw)
                           : kind == OutputKind::kJson ? json_terminal_safe(raw)
                                                       : std::string();
  const bool as_is = kind == OutputKind::kPage || kind == OutputKind::kBinary;
  const std::string& text = as_is ? raw : safe;
  if (path.empty() || path == "-") {
    if (kind == OutputKind::kBinary && isatty(STDOUT_FILENO))
      return report_error(
          Error("refusing to write a binary file to the terminal; name it with -o FILE or "
                "redirect standard output"));
    std::fflush(stdout);
    if (!write_all(STDOUT_FILENO, text))
      return report_error(
          Error(fmt::format("cannot write to standard output: {}", std::strerror(errno))));
    return 0;
  }
  namespace fs = std::filesystem;
  // Never replace a file this run read, whatever name, symlink or hard link reaches it.
  if (is_input_file(path))
    return report_error(Error(fmt::format(
        "{}: refusing to overwrite an input of this command; choose another output name", path)));
  // Through a symlink, the file it names is the one written (the link stays a link).
  std::error_code ec;
  fs::path target = fs::is_symlink(fs::symlink_status(path, ec)) ? fs::weakly_canonical(path, ec)
                                                                 : fs::path(path);
  if (ec) target = path;
  if (fs::is_directory(target, ec))
    return report_error(Error(fmt::format("{}: is a directory; name a file to write", path)));
  // Atomic: a temporary file beside the target, renamed over it only once complete; a failure
  // (full disk, no permission) leaves the target as it was and no partial file behind.
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string temp = (dir / ("." + target.filename().string() + ".etviz-XXXXXX")).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0)
    return report_error(Error(fmt::format("{}: cannot write: {}", path, std::strerror(errno))));
  const mode_t mask = ::umask(0);
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  const bool written = write_all(fd, text);
  int err = errno;
  const bool synced = written && ::fsync(fd) == 0;
  if (written && !synced) err = errno;
  const bool closed = ::close(fd) == 0;
  if (written && synced && !closed) err = errno;
  if (!written || !synced || !closed || ::rename(temp.c_str(), target.c_str()) != 0) {
    if (written && synced && closed) err = errno;
    ::unlink(temp.c_str());
    return report_error(
        Error(fmt::format("{}: write failed: {} (nothing was written)", path, std::strerror(err))));
  }
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
