#pragma once
// etviz's own graph JSON (`etviz export --format graph-json`, schema "etviz.graph/1"): every
// graph of a file as etviz read it, with every value resolved as the runtime sees it (list
// items, symbolic sizes), argument names from operator schemas, and each tensor's dtype, shape,
// dim order, memory placement and data location. What scripts read, what Python's
// `Program.graph_data()` returns, and what the oracle tests (tests/oracle) compare with an
// independent decode of the file. docs/cli.md, "Graph JSON".
#include <string>
#include <vector>

#include "core/document.h"

namespace etviz::render {

struct GraphJsonOptions {
  std::string path;             // the input, as the user named it
  std::vector<int32_t> graphs;  // Document::graphs to write; empty: every graph
};

std::string graph_json(const Document& doc, const GraphJsonOptions& options);

}  // namespace etviz::render
