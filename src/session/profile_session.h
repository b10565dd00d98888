#pragma once
// Everything a profile report or overlay needs, loaded once: the ETDump, its statistics, the
// program and ETRecord it is joined with, and the time scale. `etviz profile`, `etviz view
// --etdump` and the Python Inspector all load through here, so they agree on defaults (units,
// block, method) and on every message.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/profile_join.h"
#include "analysis/profile_stats.h"
#include "core/document.h"
#include "core/profile.h"
#include "render/profile_report.h"
#include "view/request.h"

namespace etviz::session {

// The profile a request names (view::ProfileRequest: etdump, required here; etrecord; method,
// empty: the program's Document::default_graph(); units; block) and what only a report reads.
struct ProfileSessionOptions : view::ProfileRequest {
  std::string debug_buffer;  // intermediate outputs, optional
  std::string program;       // .pte / .bpte path; unused when a program Document is passed
  // TOSA graphs of the program's Arm delegates (OpenOptions::tosa_files).
  std::vector<std::string> tosa_files;
};

struct ProfileSession {
  Profile profile;
  analysis::ProfileStats stats;
  analysis::TimeScale scale;
  // Set when the session opened the program itself (a pointer, so `program` survives moves).
  std::unique_ptr<Document> own_program;
  const Document* program = nullptr;  // the program joined with, if any
  std::optional<Document> etrecord;
  std::optional<analysis::JoinReport> join;  // set when anything was joined
  std::vector<std::string> warnings;         // reader, ETRecord and join warnings, in order

  // The event block one view shows: `requested` when given (an error if the profile has no
  // such block), else "Execute", else the block with the most event time.
  Result<std::string> choose_block(const std::string& requested) const;
};

// Fails with a one-line message naming the file or option that is wrong. `program` (may be
// null) is a document the caller already opened (the viewer's); otherwise options.program is
// opened when set.
Result<ProfileSession> load_profile_session(const ProfileSessionOptions& options,
                                            const Document* program = nullptr);

// The report `etviz profile` prints and Python's Inspector shows, from a loaded session: one
// wiring of session, rows and module totals for both. The report points into `s`.
struct ProfileReportOptions {
  bool by_name = false;        // rows per event name, not per event (name + instruction)
  bool module_totals = false;  // time per nn.Module (needs the ETRecord's module paths)
  bool wide = false;           // every statistic, no fitting to `max_width`
  size_t max_width = 0;        // the terminal's columns, 0: no limit
  bool raw_samples = false;    // each event's samples (Python's Inspector keeps them)
  std::string program_path, etrecord_path;  // as the report names them
};
render::ProfileReport profile_report(const ProfileSession& s, const ProfileReportOptions& options);

// "--unit ms" and friends: parses a unit option; empty text is "not given".
Result<std::optional<analysis::TimeUnit>> parse_unit_option(const std::string& text,
                                                            const char* flag);

// `etviz info RUN.etdp` (CLI and the app module alike): the profile at a glance
// (render/profile_report.h), as text or JSON; nullopt when `path` is not an ETDump (the caller
// opens it as a document).
Result<std::optional<std::string>> profile_info(const std::string& path, bool json);

}  // namespace etviz::session
