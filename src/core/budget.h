#pragma once
// The resource budget of one run: how much work a file may make etviz do. A small hostile file
// can cost gigabytes and minutes before anything is shown (a 2 MB .pt2 whose members inflate to
// 1.5 GiB of JSON, a 100 MB node name, a million-node graph); these bounds stop such a file
// early with an error that names the limit and the flag raising it. The defaults fit real
// models with room to spare; docs/limits.md has the table. The CLI sets the run's budget from
// the --max-* options of the command (cli/output.h, add_budget_options); readers consult it.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/status.h"

namespace etviz {

struct Budget {
  // Bytes inflated from archive members (.pt2, .etrecord), over the whole run. Checked against
  // each member's declared size before it is inflated.
  uint64_t inflated_bytes = uint64_t{256} << 20;
  // Nesting depth of a JSON document (exported programs, traces, Model Explorer graphs).
  uint32_t json_depth = 256;
  // Longest JSON string (a node name, a stack trace) in bytes as written in the file.
  uint64_t json_string = uint64_t{16} << 20;
  // Graph nodes of one file, all graphs together (a .pte method's instructions, checked
  // before its graph is built).
  uint64_t nodes = 5'000'000;
};

// The budget of this run: defaults until the CLI (or the Python module) sets it.
Budget& run_budget();

// "<what>: <amount>, over this run's limit of <limit> (raise it with <flag>)": the error every
// budget check returns.
Error over_budget(std::string_view what, uint64_t amount, uint64_t limit, std::string_view flag,
                  bool bytes);

}  // namespace etviz
