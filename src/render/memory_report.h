#pragma once
// `etviz memory`: a method's memory plan as text, CSV (one row per planned tensor) or JSON
// ("etviz.memory/1", docs/cli.md).
#include <string>

#include "analysis/memory_plan.h"
#include "core/document.h"

namespace etviz::render {

enum class MemoryFormat { kTable, kCsv, kJson };

// `live_rows`: tensors listed per arena at its peak in the table (JSON lists all).
std::string memory_report(const std::string& file, const Graph& graph,
                          const analysis::MemoryPlan& plan, MemoryFormat format,
                          size_t live_rows = 12);

}  // namespace etviz::render
