#pragma once
// `etviz delegation` output: ExecuTorch's get_delegation_info summary and operator table as
// text, CSV, Markdown or JSON, and format_delegated_graph's indented program text. The same
// functions serve the CLI and the Python module.
#include <string>

#include "analysis/delegation.h"
#include "core/document.h"

namespace etviz::render {

enum class DelegationFormat { kTable, kCsv, kJson, kMarkdown };

// The report for `file` (the path shown in the title and the JSON "file" field).
std::string delegation_report(const std::string& file, const analysis::DelegationInfo& info,
                              DelegationFormat format);

// The whole program as indented text: each method's nodes in order, and under every delegate
// call its decoded subgraph's nodes (or why it is opaque). Stable for diff and grep.
std::string format_delegated_graph(const Document& doc, const std::string& method = "");

}  // namespace etviz::render
