#include "core/output_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <thread>

#include "core/mapped_file.h"

namespace etviz {

namespace {

// The descriptor a path names when it is one of this process's open descriptors: /dev/stdin,
// /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N, /proc/thread-self/fd/N. Such a path is
// written through the descriptor itself, so a redirection's append mode (`-o /dev/stdout >>
// log`) and a pipe stay what the shell made them. -1 for any other path.
int own_descriptor(const std::string& path) {
  if (path == "/dev/stdin") return STDIN_FILENO;
  if (path == "/dev/stdout") return STDOUT_FILENO;
  if (path == "/dev/stderr") return STDERR_FILENO;
  for (const std::string_view prefix : {"/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/"}) {
    if (!path.starts_with(prefix)) continue;
    const std::string_view digits = std::string_view(path).substr(prefix.size());
    if (digits.empty() || digits.size() > 9) return -1;
    int fd = 0;
    for (const char c : digits) {
      if (c < '0' || c > '9') return -1;
      fd = fd * 10 + (c - '0');
    }
    return fd;
  }
  return -1;
}

// The temporary file in flight, removed by the signal handler when SIGINT, SIGTERM or SIGHUP
// ends the run during a write.
volatile sig_atomic_t g_temp_live = 0;
char g_temp_path[4096];
constexpr int kCleanupSignals[] = {SIGINT, SIGTERM, SIGHUP};
struct sigaction g_previous[3];

void remove_temp_on_signal(int sig) {
  if (g_temp_live) {
    ::unlink(g_temp_path);
    g_temp_live = 0;
  }
  for (size_t i = 0; i < 3; ++i) {
    if (kCleanupSignals[i] != sig) continue;
    const struct sigaction& old = g_previous[i];
    if ((old.sa_flags & SA_SIGINFO) == 0 && old.sa_handler == SIG_DFL) {
      // The run ends as the signal would have ended it.
      ::sigaction(sig, &old, nullptr);
      ::raise(sig);
    } else if ((old.sa_flags & SA_SIGINFO) == 0 && old.sa_handler != SIG_IGN) {
      old.sa_handler(sig);  // an embedding process's own handler (Python's KeyboardInterrupt)
    }
  }
}

// Installs remove_temp_on_signal for the life of one temporary file; a signal the process
// ignores stays ignored.
class TempGuard {
 public:
  explicit TempGuard(const std::string& temp) {
    std::snprintf(g_temp_path, sizeof g_temp_path, "%s", temp.c_str());
    g_temp_live = 1;
    struct sigaction action {};
    action.sa_handler = remove_temp_on_signal;
    sigemptyset(&action.sa_mask);
    for (size_t i = 0; i < 3; ++i) {
      ::sigaction(kCleanupSignals[i], nullptr, &g_previous[i]);
      installed_[i] =
          (g_previous[i].sa_flags & SA_SIGINFO) != 0 || g_previous[i].sa_handler != SIG_IGN;
      if (installed_[i]) ::sigaction(kCleanupSignals[i], &action, nullptr);
    }
  }
  // False once a signal removed the temporary.
  bool live() const { return g_temp_live != 0; }
  ~TempGuard() {
    for (size_t i = 0; i < 3; ++i)
      if (installed_[i]) ::sigaction(kCleanupSignals[i], &g_previous[i], nullptr);
    g_temp_live = 0;
  }
  TempGuard(const TempGuard&) = delete;
  TempGuard& operator=(const TempGuard&) = delete;

 private:
  bool installed_[3] = {};
};

// Tests hold a write half way (after the temporary has its first bytes) to interrupt it.
void hold_for_tests() {
  if (const char* hold = std::getenv("ETVIZ_TEST_HOLD_WRITE_MS")) {
    const long ms = std::strtol(hold, nullptr, 10);
    if (ms > 0 && ms <= 60000) std::this_thread::sleep_for(std::chrono::milliseconds(ms));
  }
}

}  // namespace

bool write_all(int fd, std::string_view text) {
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

Status write_output_file(const std::string& path, std::string_view text,
                         const OutputFileOptions& options) {
  namespace fs = std::filesystem;
  // Never replace a file this run read, whatever name, symlink or hard link reaches it.
  if (is_input_file(path))
    return Status(Error(
        path + ": refusing to overwrite an input of this command; choose another output name"));
  // One of this process's descriptors by name: written through the descriptor (append mode,
  // pipe and terminal kept).
  if (const int own = own_descriptor(path); own >= 0) {
    const int flags = ::fcntl(own, F_GETFL);
    if (flags < 0 || (flags & O_ACCMODE) == O_RDONLY)
      return Status(Error(path + ": not open for writing"));
    if (options.refuse_terminal && isatty(own))
      return Status(Error(std::string(kBinaryTerminalMessage)));
    if (own == STDOUT_FILENO) std::fflush(stdout);
    if (own == STDERR_FILENO) std::fflush(stderr);
    if (!write_all(own, text))
      return Status(Error(path + ": cannot write: " + std::strerror(errno)));
    return Status::Ok();
  }
  struct stat existing {};
  const bool exists = ::stat(path.c_str(), &existing) == 0;
  if (exists && S_ISDIR(existing.st_mode))
    return Status(Error(path + ": is a directory; name a file to write"));
  // A device, FIFO or socket is written in place: replacing it would put a regular file where
  // the system (or a reader waiting on the FIFO) expects the special file.
  if (exists && !S_ISREG(existing.st_mode)) {
    const int fd = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) return Status(Error(path + ": cannot write: " + std::strerror(errno)));
    if (options.refuse_terminal && isatty(fd)) {
      ::close(fd);
      return Status(Error(std::string(kBinaryTerminalMessage)));
    }
    const bool written = write_all(fd, text);
    const int err = errno;
    const bool closed = ::close(fd) == 0;
    if (!written || !closed)
      return Status(Error(path + ": write failed: " + std::strerror(written ? errno : err)));
    return Status::Ok();
  }
  // Through a symlink, the file it names is the one written (the link stays a link).
  std::error_code ec;
  fs::path target = fs::is_symlink(fs::symlink_status(path, ec)) ? fs::weakly_canonical(path, ec)
                                                                 : fs::path(path);
  if (ec) target = path;
  // Atomic: a temporary file beside the target, renamed over it only once complete; a failure
  // (full disk, no permission, a signal) leaves the target as it was and no partial file.
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  std::string temp = (dir / ("." + target.filename().string() + ".etviz-XXXXXX")).string();
  const int fd = ::mkstemp(temp.data());
  if (fd < 0) return Status(Error(path + ": cannot write: " + std::strerror(errno)));
  const TempGuard guard(temp);
  // A replaced file keeps its mode (and owner and group where this user may set them); a new
  // file gets the usual 0666 less the umask.
  if (exists) {
    ::fchmod(fd, existing.st_mode & 07777);
    if (existing.st_uid != ::geteuid() || existing.st_gid != ::getegid())
      if (::fchown(fd, existing.st_uid, existing.st_gid) == 0)
        ::fchmod(fd, existing.st_mode & 07777);  // chown clears set-id bits
  } else {
    const mode_t mask = ::umask(0);
    ::umask(mask);
    ::fchmod(fd, 0666 & ~mask);
  }
  const size_t first = std::min<size_t>(text.size(), 4096);
  bool written = write_all(fd, std::string_view(text).substr(0, first));
  if (written) {
    hold_for_tests();
    written = write_all(fd, std::string_view(text).substr(first));
  }
  int err = errno;
  const bool synced = written && ::fsync(fd) == 0;
  if (written && !synced) err = errno;
  const bool closed = ::close(fd) == 0;
  if (written && synced && !closed) err = errno;
  if (!guard.live()) {
    return Status(Error(path + ": write interrupted (nothing was written)"));
  }
  if (!written || !synced || !closed || ::rename(temp.c_str(), target.c_str()) != 0) {
    if (written && synced && closed) err = errno;
    ::unlink(temp.c_str());
    return Status(Error(path + ": write failed: " + std::strerror(err) + " (nothing was written)"));
  }
  return Status::Ok();
}

}  // namespace etviz
