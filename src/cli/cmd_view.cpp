// `etviz FILE [-o out.html]` (also `etviz view FILE`): writes the self-contained HTML viewer.
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "analysis/categories.h"
#include "analysis/diff.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "core/text.h"
#include "formats/open_document.h"
#include "render/html/html_page.h"
#include "render/html/profile_data.h"
#include "session/profile_session.h"

namespace etviz::cli {
namespace {

struct ViewOptions {
  std::string file;
  std::vector<std::string> more_files;  // further files in the same page
  std::vector<std::string> data;
  std::string categories;
  std::string output;
  bool no_compress = false;
  bool quiet = false;
  // Profile overlay (docs/viewer.md, "Profile overlay").
  std::string etdump;
  std::string etrecord;
  std::string method;
  std::string source_unit;
  std::string unit;
  std::string block;
  bool stages = false;  // step through every stage / pass of the file
};

using Clock = std::chrono::steady_clock;
Clock::time_point g_start;
bool g_quiet = false;

// Progress goes to stderr for runs that take a while: steps are reported once the run has
// taken over a second (layout of a large graph announces itself, being the slow step).
void progress(const std::string& what) {
  const double s = std::chrono::duration<double>(Clock::now() - g_start).count();
  if (!g_quiet && (s > 1.0 || what.rfind("laying out", 0) == 0))
    std::fprintf(stderr, "etviz: [%.1fs] %s\n", s, terminal_safe(what).c_str());
}

std::string default_output(const std::string& input) {
  std::filesystem::path p(input);
  return p.stem().string() + ".html";
}

// Loads the profile (and ETRecord), joins it with the document on show and fills `overlay`,
// which points into `session`.
int load_profile(const ViewOptions& opt, const Document& doc, session::ProfileSession& profile,
                 render::html::ProfileOverlay& overlay) {
  session::ProfileSessionOptions load;
  load.etdump = opt.etdump;
  load.etrecord = opt.etrecord;
  load.method = opt.method;
  load.source_unit = opt.source_unit;
  load.unit = opt.unit;
  auto s = session::load_profile_session(load, &doc);
  if (!s) return report_error(s.error());
  profile = std::move(*s);
  auto block = profile.choose_block(opt.block);
  if (!block) return report_error(block.error().within(opt.etdump));
  overlay.warnings = profile.warnings;
  overlay.method = profile.join ? profile.join->method : "";
  overlay.file_name = std::filesystem::path(opt.etdump).filename().string();
  overlay.scale = profile.scale;
  overlay.block = *block;
  overlay.stats = &profile.stats;
  for (const auto& w : overlay.warnings)
    if (!opt.quiet) warn(w);
  progress(fmt::format("joined {} ({} event rows) with method '{}'", opt.etdump,
                       profile.stats.events.size(), overlay.method));
  return 0;
}

int run_view(const ViewOptions& opt) {
  g_start = Clock::now();
  g_quiet = opt.quiet;
  render::html::PageOptions page;
  if (!opt.categories.empty()) {
    auto cats = analysis::load_category_config(opt.categories);
    if (!cats) return report_error(cats.error());
    page.categories = std::move(*cats);
  }
  OpenOptions open;
  open.data_files = opt.data;
  auto doc = open_document(opt.file, open);
  if (!doc) return report_error(doc.error());
  progress("read " + opt.file);
  page.file_name = std::filesystem::path(opt.file).filename().string();
  std::error_code ec;
  page.file_size = std::filesystem::file_size(opt.file, ec);
  page.allow_compression = !opt.no_compress;
  page.progress = &progress;
  session::ProfileSession profile;
  render::html::ProfileOverlay overlay;
  if (opt.etdump.empty() && (!opt.etrecord.empty() || !opt.source_unit.empty() ||
                             !opt.unit.empty() || !opt.block.empty() || !opt.method.empty()))
    return report_error(
        Error("--etrecord, --method, --source-unit, --unit and --block describe a profile: "
              "they need --etdump RUN.etdp"));
  if (!opt.etdump.empty()) {
    if (int rc = load_profile(opt, *doc, profile, overlay); rc != 0) return rc;
    page.profile = &overlay;
  }
  // Further files join the page behind a file selector (the profile and --data apply to the
  // first).
  std::vector<Document> more;
  more.reserve(opt.more_files.size());
  std::vector<render::html::PageFile> more_pages;
  for (const std::string& f : opt.more_files) {
    auto d = open_document(f);
    if (!d) return report_error(d.error());
    progress("read " + f);
    more.push_back(std::move(*d));
    std::error_code size_ec;
    more_pages.push_back({&more.back(), std::filesystem::path(f).filename().string(),
                          static_cast<uint64_t>(std::filesystem::file_size(f, size_ec))});
  }
  if (!more.empty() && opt.output.empty())
    return report_error(Error("several files make one page: name it with -o PAGE.html"));
  render::html::PageStats stats;
  // A pass trace (or an ETRecord with --stages) is shown as steps over one layout.
  const bool steps = opt.stages || doc->format == DocumentFormat::kTrace;
  if (steps && (!more.empty() || page.profile))
    return report_error(Error(
        "stepping through stages or passes shows one file without a profile; to compare files "
        "use `etviz diff A B -o page.html`"));
  const std::vector<int32_t> stage_graphs =
      steps ? analysis::pipeline_graphs(*doc) : std::vector<int32_t>{};
  if (opt.stages && stage_graphs.size() < 2)
    return report_error(Error(fmt::format("{}: --stages found {} stage{} (graphs: {})", opt.file,
                                          stage_graphs.size(), stage_graphs.size() == 1 ? "" : "s",
                                          doc->top_level_names())));
  auto html = steps && stage_graphs.size() >= 2
                  ? render::html::write_timeline_page(*doc, stage_graphs, page, &stats)
                  : render::html::write_html_page(*doc, page, more_pages, &stats);
  if (!html) return report_error(html.error().within(opt.file));
  const std::string out = opt.output.empty() ? default_output(opt.file) : opt.output;
  // The page is HTML; a picture or data extension means the user wanted an export.
  for (const char* ext : {".svg", ".png", ".pdf", ".dot", ".json"})
    if (std::filesystem::path(out).extension() == ext)
      return report_error(Error(fmt::format(
          "-o {}: `etviz view` writes an HTML page; for {} use `etviz export FILE -o {}`", out,
          ext + 1, out)));
  progress("writing " + out);
  if (int rc = write_output(out, *html, OutputKind::kPage); rc != 0) return rc;
  if (!opt.quiet && out != "-")
    std::fprintf(stderr, "etviz: wrote %s (%s, %s%zu graph%s%s)\n", terminal_safe(out).c_str(),
                 fmt::format("{:.1f} KiB", html->size() / 1024.0).c_str(),
                 more.empty() ? "" : fmt::format("{} files, ", more.size() + 1).c_str(),
                 stats.graphs, stats.graphs == 1 ? "" : "s",
                 stats.has_wasm ? "" : "; expand/collapse re-layout unavailable in this build");
  return 0;
}

void add_view_options(CLI::App* cmd, const std::shared_ptr<ViewOptions>& opt) {
  cmd->add_option("file", opt->file, "Program (.pte), bundled program (.bpte), ...")->required();
  cmd->add_option("more", opt->more_files,
                  "Further files to show in the same page, behind a file selector (needs -o)");
  cmd->add_option("-o,--output", opt->output,
                  "HTML file to write (default: FILE's name + .html; - for stdout)");
  cmd->add_option("--data", opt->data,
                  "FlatTensor data file (.ptd) with the program's external tensors");
  cmd->add_option("--categories", opt->categories,
                  "JSON file overriding op categories and colours (see docs/viewer.md)");
  cmd->add_flag("--no-compress", opt->no_compress, "Embed the graph data as plain JSON");
  cmd->add_option("--etdump", opt->etdump,
                  "Runtime profile (.etdp) of FILE: heat-colour nodes by time, profile table");
  cmd->add_option("--etrecord", opt->etrecord,
                  "ETRecord of the program (with --etdump): module paths, delegate maps");
  cmd->add_option("--method", opt->method,
                  "Method the profile ran (default: forward, or the only method)");
  cmd->add_option("--source-unit", opt->source_unit,
                  "What one tick of the ETDump is: ns, us, ms or s (default: show raw ticks)");
  cmd->add_option("--unit", opt->unit,
                  "Show profile times in ns, us, ms or s (needs --source-unit; default us)");
  cmd->add_option("--block", opt->block,
                  "ETDump event block (run name) to show (default: Execute)");
  cmd->add_flag("--stages", opt->stages,
                "Step through every stage of an ETRecord (exported program -> ATen -> edge -> "
                "...) over one layout, as a pass trace is shown");
  cmd->add_flag("-q,--quiet", opt->quiet, "No progress or summary on stderr");
}

}  // namespace

void register_view(CLI::App& app) {
  auto opt = std::make_shared<ViewOptions>();
  CLI::App* cmd = app.add_subcommand(
      "view", "Write the interactive HTML graph viewer (the default: `etviz FILE -o model.html`)");
  add_view_options(cmd, opt);
  cmd->callback([opt] { set_exit_code(run_view(*opt)); });
}

DefaultInvocation classify_invocation(CLI::App& app, int argc, char** argv) {
  if (argc < 2) return DefaultInvocation::kSubcommand;
  const std::string first = argv[1];
  if (first.empty() || first[0] == '-') return DefaultInvocation::kSubcommand;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    if (sub->check_name(first)) return DefaultInvocation::kSubcommand;
  // A file to view: it exists, or it is spelt like a path (the viewer then says it is missing).
  std::error_code ec;
  if (std::filesystem::exists(first, ec) || first.find('/') != std::string::npos ||
      first.find('.') != std::string::npos)
    return DefaultInvocation::kViewFile;
  return DefaultInvocation::kUnknownCommand;
}

}  // namespace etviz::cli
