#include "cli/output.h"

#include <fmt/format.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <thread>

#include "cli/commands.h"
#include "core/budget.h"
#include "core/mapped_file.h"
#include "core/output_file.h"
#include "core/text.h"

namespace etviz::cli {

namespace {
int g_exit_code = 0;
bool g_damaged_input = false;  // a file was shown in part (open_input)
}  // namespace

int exit_code() {
  return g_exit_code != 0 ? g_exit_code : (g_damaged_input ? 1 : 0);
}
void set_exit_code(int code) {
  g_exit_code = code;
}
void reset_exit_code() {
  g_exit_code = 0;
  g_damaged_input = false;
}

int report_error(const Error& error) {
  fmt::print(stderr, "etviz: error: {}\n", one_line(shown_text(error.message())));
  return 1;
}

struct Progress::State {
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  bool quiet = false;
  std::mutex mutex;
  std::condition_variable wake;
  std::string pending;  // the step in flight, not printed yet
  bool stop = false;
  std::thread watcher;

  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  void print(const std::string& what) {
    fmt::print(stderr, "etviz: [{:.1f}s] {}\n", seconds(), terminal_safe(what));
  }
  ~State() {
    if (!watcher.joinable()) return;
    {
      std::lock_guard lock(mutex);
      stop = true;
    }
    wake.notify_all();
    watcher.join();
  }
};

Progress::Progress(bool quiet) : state_(std::make_shared<State>()) {
  state_->quiet = quiet;
}

void Progress::operator()(const std::string& what, bool always) const {
  State& st = *state_;
  if (st.quiet) return;
  std::lock_guard lock(st.mutex);
  if (always || st.seconds() > 1.0) {
    st.pending.clear();
    st.print(what);
    return;
  }
  st.pending = what;
  if (st.watcher.joinable()) return;
  // Prints the step in flight at one second, unless it ended (or the run did) before.
  st.watcher = std::thread([&st] {
    std::unique_lock lk(st.mutex);
    if (st.wake.wait_until(lk, st.start + std::chrono::seconds(1), [&] { return st.stop; })) return;
    if (!st.pending.empty()) st.print(st.pending + " ...");
    st.pending.clear();
  });
}

void report_written(const std::string& path, size_t bytes, const std::string& details, bool quiet,
                    const std::string& after) {
  if (quiet || path.empty() || path == "-") return;
  fmt::print(stderr, "etviz: wrote {} ({:.1f} KiB{}{}){}\n", terminal_safe(path), bytes / 1024.0,
             details.empty() ? "" : ", ", details, after);
}

void add_page_options(CLI::App* cmd, view::Request& request, session::Command command) {
  for (const session::PageOption& o : session::page_options()) {
    if (!o.takes(command)) continue;
    if (std::string* text = o.target(request))
      cmd->add_option(o.flag, *text, o.help);
    else if (o.list)
      cmd->add_option(o.flag, request.*o.list, o.help);
    else
      cmd->add_flag(o.flag, request.*o.set, o.help);
  }
}

void add_profile_options(CLI::App* cmd, view::ProfileRequest& profile) {
  for (const session::PageOption& o : session::page_options())
    if (o.takes(session::kProfileCommand))
      if (std::string* text = o.target(profile)) cmd->add_option(o.flag, *text, o.help);
}

void add_program_files(CLI::App* cmd, std::vector<std::string>* data,
                       std::vector<std::string>* tosa) {
  if (data) cmd->add_option("--data", *data, session::page_option("--data").help);
  if (tosa) cmd->add_option("--tosa", *tosa, session::page_option("--tosa").help);
}

void add_budget_options(CLI::App* cmd) {
  Budget& b = run_budget();
  auto* group = cmd->add_option_group("Budget", "What one run may spend (docs/limits.md)");
  group
      ->add_option("--max-inflated", b.inflated_bytes,
                   "Bytes inflated from archive members (.pt2, .etrecord) in total (256M)")
      ->transform(CLI::AsSizeValue(false));
  group->add_option("--max-json-string", b.json_string, "Longest string in a JSON document (16M)")
      ->transform(CLI::AsSizeValue(false));
  group->add_option("--max-json-depth", b.json_depth, "Nesting depth of a JSON document (256)");
  group->add_option("--max-nodes", b.nodes, "Graph nodes of one file, all graphs (5000000)");
}

void warn(const std::string& message) {
  fmt::print(stderr, "etviz: warning: {}\n", one_line(shown_text(message)));
}

void report_damage(const Document& doc, const std::string& path) {
  for (const Diagnostic& d : doc.diagnostics)
    if (d.severity == Severity::kError) {
      report_error(Error(d.message).within(path));
      g_damaged_input = true;
    }
}

Result<Document> open_input(const std::string& path, const OpenOptions& options) {
  auto doc = open_document(path, options);
  if (doc) report_damage(*doc, path);
  if (doc)
    for (const Diagnostic& d : doc->diagnostics)
      if (printed_on_open(*doc, d)) warn(d.message);
  return doc;
}

bool printed_on_open(const Document& doc, const Diagnostic& d) {
  if (d.severity != Severity::kWarning) return false;
  for (const SideFile& f : doc.side_files)
    if ((f.delegate < 0 || f.ambiguous) && d.message.ends_with(f.note)) return true;
  return false;
}

namespace {

// Text reports with every line cut to kMaxShownText (core/text.h): a line that long holds a
// model string of that size, which no report shows whole.
std::string shown_lines(const std::string& text) {
  std::string out;
  for (size_t at = 0; at < text.size();) {
    size_t end = text.find('\n', at);
    end = end == std::string::npos ? text.size() : end + 1;
    const std::string_view line = std::string_view(text).substr(at, end - at);
    out += line.size() > kMaxShownText ? shown_text(line) + (line.back() == '\n' ? "\n" : "")
                                       : std::string(line);
    at = end;
  }
  return out;
}

}  // namespace

int write_output(const std::string& path, const std::string& raw, OutputKind kind) {
  const std::string safe = kind == OutputKind::kText   ? terminal_safe(shown_lines(raw))
                           : kind == OutputKind::kJson ? json_terminal_safe(raw)
                                                       : std::string();
  const bool as_is = kind == OutputKind::kPage || kind == OutputKind::kBinary;
  const std::string& text = as_is ? raw : safe;
  if (path.empty() || path == "-") {
    if (kind == OutputKind::kBinary && isatty(STDOUT_FILENO))
      return report_error(Error(std::string(kBinaryTerminalMessage)));
    std::fflush(stdout);
    if (!write_all(STDOUT_FILENO, text))
      return report_error(
          Error(fmt::format("cannot write to standard output: {}", std::strerror(errno))));
    return 0;
  }
  // core/output_file.h: inputs refused, descriptors and special files written in place,
  // regular files replaced atomically.
  OutputFileOptions options;
  options.refuse_terminal = kind == OutputKind::kBinary;
  if (auto s = write_output_file(path, text, options); !s) return report_error(s.error());
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
