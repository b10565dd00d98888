#pragma once
// Everything a numerics comparison needs, loaded once: the run's ETDump and debug buffer, the
// reference (another run with its buffer, or a bundled program's expected outputs), the
// program both ran, and the report. `etviz numerics`, `etviz view --reference` and the Python
// Inspector all load through here, so they pick the same runs and say the same things.
// docs/numerics.md.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/numerics.h"
#include "core/document.h"
#include "core/profile.h"

namespace etviz::session {

struct NumericsSessionOptions {
  std::string run;           // the run's .etdp (required)
  std::string debug_buffer;  // its debug buffer
  // The reference: another run's .etdp (with reference_debug_buffer), or a bundled program
  // (.bpte) whose expected outputs the run's method outputs are compared with.
  std::string reference;
  std::string reference_debug_buffer;
  std::string program;  // .pte / .bpte that ran; unused when a program Document is passed
  std::string method;   // empty: forward, or the only method
  // Which run of each ETDump (the index among runs that logged debug events); -1: the first.
  int run_index = -1;
  // A bundled reference's test case; -1: the run's bundled_input_index.
  int test_case = -1;
  analysis::NumericsOptions analysis;
};

struct NumericsSession {
  Profile run;
  std::optional<Profile> reference_run;     // when the reference is an ETDump
  std::unique_ptr<Document> own_program;    // opened here (a pointer: survives moves)
  const Document* program = nullptr;        // joined with, if any
  std::string reference_kind;               // "etdump" or "bundled_program"
  std::string reference_label;              // "REF.etdp run 1", "P.bpte forward case 2"
  size_t run_used = 0, reference_used = 0;  // ProfileRun indices compared
  analysis::NumericsReport report;
  std::vector<std::string> warnings;  // readers', matching and join warnings, in order
};

// Fails with one line naming the file or option that is wrong. `program` (may be null) is a
// document the caller already opened (the viewer's).
Result<NumericsSession> load_numerics_session(const NumericsSessionOptions& options,
                                              const Document* program = nullptr);

}  // namespace etviz::session
