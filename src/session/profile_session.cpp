#include "session/profile_session.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "core/mapped_file.h"
#include "formats/executorch/etdump_reader.h"
#include "formats/open_document.h"

namespace etviz::session {

Result<std::optional<analysis::TimeUnit>> parse_unit_option(const std::string& text,
                                                            const char* flag) {
  if (text.empty()) return std::optional<analysis::TimeUnit>();
  auto unit = analysis::parse_time_unit(text);
  if (!unit) return Error(fmt::format("{} '{}': expected one of ns, us, ms, s, ticks", flag, text));
  return std::optional<analysis::TimeUnit>(*unit);
}

Result<std::string> ProfileSession::choose_block(const std::string& requested) const {
  if (!requested.empty()) {
    if (std::find(stats.blocks.begin(), stats.blocks.end(), requested) == stats.blocks.end())
      return Error(fmt::format("--block '{}': the profile has no such block (blocks: {})",
                               requested, fmt::join(stats.blocks, ", ")));
    return requested;
  }
  std::map<std::string, double> totals;
  for (const auto& row : stats.events) totals[row.block] += row.stats.total;
  if (totals.empty() || totals.count("Execute")) return std::string("Execute");
  return std::max_element(totals.begin(), totals.end(),
                          [](const auto& a, const auto& b) { return a.second < b.second; })
      ->first;
}

render::ProfileReport profile_report(const ProfileSession& s, const ProfileReportOptions& options) {
  render::ProfileReport report;
  report.profile = &s.profile;
  report.stats = &s.stats;
  report.scale = s.scale;
  report.warnings = s.warnings;
  report.program_path = options.program_path;
  report.etrecord_path = options.etrecord_path;
  if (s.join) report.join = &*s.join;
  report.rows = options.by_name ? analysis::group_by_name(s.stats.events) : s.stats.events;
  report.module_totals = options.module_totals;
  report.wide = options.wide;
  if (!options.wide) report.max_width = options.max_width;
  if (options.module_totals) report.modules = analysis::module_totals(report.rows);
  report.raw_samples = options.raw_samples;
  return report;
}

Result<ProfileSession> load_profile_session(const ProfileSessionOptions& options,
                                            const Document* program) {
  auto source = parse_unit_option(options.source_unit, "--source-unit");
  if (!source) return source.error();
  auto target = parse_unit_option(options.unit, "--unit");
  if (!target) return target.error();
  auto scale = analysis::make_time_scale(*source, *target);
  if (!scale) return scale.error();

  ProfileSession s;
  s.scale = *scale;
  auto profile = executorch::read_etdump_file(options.etdump, options.debug_buffer);
  if (!profile) return profile.error();
  s.profile = std::move(*profile);
  s.stats = analysis::summarize_profile(s.profile);
  s.warnings = s.profile.warnings;

  if (program) {
    s.program = program;
  } else if (!options.program.empty()) {
    OpenOptions open;
    open.tosa_files = options.tosa_files;
    auto doc = open_document(options.program, open);
    if (!doc) return doc.error();
    // Side files the program could not use are the session's warnings.
    for (const SideFile& f : doc->side_files)
      if (f.delegate < 0 || f.ambiguous) s.warnings.push_back(f.path + ": " + f.note);
    if (doc->graphs.empty())
      return Error(options.program +
                   ": expected a program (.pte) or bundled program (.bpte) to join the profile "
                   "with; this file has no graphs");
    s.own_program = std::make_unique<Document>(std::move(*doc));
    s.program = s.own_program.get();
  }
  if (!options.etrecord.empty()) {
    auto doc = open_document(options.etrecord);
    if (!doc) return doc.error();
    if (!doc->etrecord)
      return Error(
          fmt::format("{}: --etrecord expects an ETRecord (a zip with ETRECORD_V0); this is {}",
                      options.etrecord, to_string(doc->format)));
    if (doc->etrecord->debug_handles.empty() && doc->etrecord->delegates.empty())
      s.warnings.push_back(options.etrecord +
                           ": the ETRecord has no debug_handle_map or delegate_map entries, so "
                           "events cannot be tied to module paths or stack traces");
    s.etrecord = std::move(*doc);
  }
  if (s.program || s.etrecord || !options.method.empty()) {
    analysis::JoinSources sources;
    sources.program = s.program;
    sources.method = options.method;
    sources.etrecord = s.etrecord ? &*s.etrecord : nullptr;
    auto join = analysis::join_profile(s.stats, sources);
    if (!join) {
      const std::string& where =
          s.program ? s.program->path() : (s.etrecord ? options.etrecord : options.etdump);
      return join.error().within(where);
    }
    s.warnings.insert(s.warnings.end(), join->warnings.begin(), join->warnings.end());
    s.join = std::move(*join);
  }
  return s;
}

Result<std::optional<std::string>> profile_info(const std::string& path, bool json) {
  auto file = MappedFile::open(path);
  if (!file || sniff_file_kind((*file)->bytes()) != FileKind::kETDump)
    return std::optional<std::string>();  // not a profile (or unreadable: the opener says why)
  auto profile = executorch::read_etdump((*file)->bytes());  // the mapping sniffed above
  if (!profile) return profile.error().within(path);
  profile->path = path;
  const auto runs = analysis::summarize_runs(*profile);
  return std::optional<std::string>(json ? render::profile_overview_json(*profile, runs)
                                         : render::profile_overview_text(*profile, runs));
}

}  // namespace etviz::session
