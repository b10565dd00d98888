#pragma once
// `etviz info` output: the Summary as readable text, or as one JSON object (docs/cli.md).
#include <string>

#include "analysis/summary.h"

namespace etviz::render {

std::string summary_text(const analysis::Summary& s);
std::string summary_json(const analysis::Summary& s);

}  // namespace etviz::render
