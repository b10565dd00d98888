#pragma once
// `etviz profile` output: Inspector-style tables as text or CSV, or one JSON object
// (layout in docs/profile.md).
#include <string>
#include <vector>

#include "analysis/profile_join.h"
#include "analysis/profile_stats.h"
#include "core/profile.h"

namespace etviz::render {

struct ProfileReport {
  const Profile* profile = nullptr;
  const analysis::ProfileStats* stats = nullptr;
  std::vector<analysis::EventRow> rows;  // what the main table shows (per event or per name)
  analysis::TimeScale scale;
  std::string program_path;   // empty without --pte
  std::string etrecord_path;  // empty without --etrecord
  const analysis::JoinReport* join = nullptr;
  bool module_totals = false;
  bool wide = false;     // text: every statistic (p10, min, max too)
  size_t max_width = 0;  // text: fit tables into this many columns (0: no limit)
  std::vector<analysis::ModuleTotal> modules;
  std::vector<std::string> warnings;
  bool raw_samples = false;  // json: each event's samples ("raw", in the shown unit)
};

// `etviz info RUN.etdp`: the profile at a glance (schema, runs, event counts, time spans in
// raw ticks), as text or one JSON object (docs/cli.md).
std::string profile_overview_text(const Profile& p, const std::vector<analysis::RunSummary>& runs);
std::string profile_overview_json(const Profile& p, const std::vector<analysis::RunSummary>& runs);

std::string profile_text(const ProfileReport& r);
std::string profile_csv(const ProfileReport& r);
std::string profile_json(const ProfileReport& r);

}  // namespace etviz::render
