#pragma once
// Shared CLI plumbing: results to stdout or -o, errors as one line on stderr.
#include <CLI/CLI.hpp>
#include <cstddef>
#include <memory>
#include <string>

#include "core/status.h"
#include "formats/open_document.h"
#include "session/page_options.h"

namespace etviz::cli {

// Prints "etviz: error: <message>" to stderr and returns the exit code for errors (1).
// Messages quote model strings: they go through terminal_safe (core/text.h).
int report_error(const Error& error);
// Prints "etviz: warning: <message>" to stderr, terminal-safe.
void warn(const std::string& message);

// Opens a file a command reads (formats/open_document.h). Damage the reader found (a part cut
// off or out of range, Severity::kError: the rest is shown) is printed at once as
// "etviz: error: FILE: ..." and makes the run exit 1 once its output is written.
// Side files that did not attach, or attached by the order given (--tosa), are printed as
// warnings.
Result<Document> open_input(const std::string& path, const OpenOptions& options = {});
// True for the diagnostics open_input printed already (side files), so a command that prints
// the document's warnings does not repeat them.
bool printed_on_open(const Document& doc, const Diagnostic& d);
// The same report for a document opened elsewhere (a session's program): prints each damage
// line and makes the run exit 1 once its output is written.
void report_damage(const Document& doc, const std::string& path);

// What an output holds: text reports (tables, Markdown, CSV) have control and bidi characters
// escaped (core/text.h), JSON has raw bidi characters \u-escaped, pages are written as is
// (the page escapes for itself), binary files (PNG, PDF) as is but never to a terminal.
enum class OutputKind { kText, kJson, kPage, kBinary };

// Writes `text` to `path` by the rules of core/output_file.h (inputs never written, devices,
// FIFOs and the process's own descriptors written in place, files replaced atomically with
// their mode kept), or to stdout when path is empty or "-". Returns an exit code; every
// failure is reported (a full disk, a closed pipe, no permission).
int write_output(const std::string& path, const std::string& text,
                 OutputKind kind = OutputKind::kText);

// The summary a command that writes a page, picture or export prints when done: "etviz: wrote
// PATH (12.5 KiB, DETAILS)AFTER" on stderr; nothing when quiet or written to stdout.
void report_written(const std::string& path, size_t bytes, const std::string& details, bool quiet,
                    const std::string& after = {});

// Progress on stderr for runs that take a while: "etviz: [2.3s] laying out ...". A step is
// printed when it starts once the run (from construction) has taken over a second, or always
// when `always`; a step still running when the run reaches one second is printed then (a
// watcher thread), so a long first step (reading a million-node program) is announced too.
// Nothing when quiet.
class Progress {
 public:
  explicit Progress(bool quiet = false);
  void operator()(const std::string& what, bool always = false) const;

 private:
  struct State;
  std::shared_ptr<State> state_;
};

// The --max-* options of the run's budget (core/budget.h) on a command that reads files.
void add_budget_options(CLI::App* cmd);

// The request options `command` takes (session/page_options.h), parsed into `request`.
void add_page_options(CLI::App* cmd, view::Request& request, session::Command command);
// The profile options `etviz profile` shares with the page (--etrecord, --method, units),
// parsed into `profile`.
void add_profile_options(CLI::App* cmd, view::ProfileRequest& profile);

// A program's side files on a command that opens one without a view request (info,
// delegation, size, profile): --data and --tosa, each when given, worded as the page's.
void add_program_files(CLI::App* cmd, std::vector<std::string>* data,
                       std::vector<std::string>* tosa);

// Columns of the terminal stdout writes to: its window size when stdout is a terminal, else
// $COLUMNS when set, else 0 (no limit: a pipe or file gets whole lines).
size_t terminal_width();

}  // namespace etviz::cli
