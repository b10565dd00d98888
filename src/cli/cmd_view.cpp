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
#include "session/page_options.h"
#include "session/view_session.h"

namespace etviz::cli {
namespace {

struct ViewOptions {
  std::string file;
  std::vector<std::string> more_files;  // further files in the same page
  std::string output;
  bool no_compress = false;
  bool quiet = false;
  bool app = false;  // carry the WebAssembly readers: the page opens more files (docs/app.md)
  // The page options (session/page_options.h: --data, categories, groups, the profile
  // overlay, stages, node data), parsed straight into the request.
  view::Request request;
};

// The page session reports through a plain function; layout of a large graph announces itself,
// being the slow step.
Progress g_progress;
void progress(const std::string& what) {
  g_progress(what, what.rfind("laying out", 0) == 0);
}

std::string default_output(const std::string& input) {
  std::filesystem::path p(input);
  return p.stem().string() + ".html";
}

int run_view(const ViewOptions& opt) {
  g_progress = Progress(opt.quiet);
  progress("reading " + opt.file);
  OpenOptions open;
  open.data_files = opt.request.data;
  open.tosa_files = opt.request.tosa;
  auto doc = open_input(opt.file, open);
  if (!doc) return report_error(doc.error());
  auto size_of = [](const std::string& f) {
    std::error_code ec;
    const auto n = std::filesystem::file_size(f, ec);
    return ec ? uint64_t{0} : static_cast<uint64_t>(n);
  };
  // Further files join the page behind a file selector (the profile and --data apply to the
  // first).
  std::vector<Document> more;
  more.reserve(opt.more_files.size());
  std::vector<session::ViewFile> files{
      {&*doc, std::filesystem::path(opt.file).filename().string(), size_of(opt.file)}};
  for (const std::string& f : opt.more_files) {
    progress("reading " + f);
    auto d = open_input(f);
    if (!d) return report_error(d.error());
    more.push_back(std::move(*d));
    files.push_back({&more.back(), std::filesystem::path(f).filename().string(), size_of(f)});
  }
  if (!more.empty() && opt.output.empty())
    return report_error(Error("several files make one page: name it with -o PAGE.html"));
  session::PageSettings settings;
  settings.compress = !opt.no_compress;
  settings.app = opt.app;
  settings.progress = &progress;
  render::html::PageStats stats;
  std::vector<std::string> warnings;
  auto html = session::render_page(files, opt.request, settings, &warnings, &stats);
  if (!opt.quiet)
    for (const auto& w : warnings) warn(w);
  if (!html) return report_error(html.error());
  const std::string out = opt.output.empty() ? default_output(opt.file) : opt.output;
  // The page is HTML; a picture or data extension means the user wanted an export.
  for (const char* ext : {".svg", ".png", ".pdf", ".dot", ".json"})
    if (std::filesystem::path(out).extension() == ext)
      return report_error(Error(fmt::format(
          "-o {}: `etviz view` writes an HTML page; for {} use `etviz export FILE -o {}`", out,
          ext + 1, out)));
  progress("writing " + out);
  if (int rc = write_output(out, *html, OutputKind::kPage); rc != 0) return rc;
  report_written(
      out, html->size(),
      fmt::format("{}{} graph{}{}", more.empty() ? "" : fmt::format("{} files, ", more.size() + 1),
                  stats.graphs, stats.graphs == 1 ? "" : "s",
                  stats.has_wasm ? "" : "; expand/collapse re-layout unavailable in this build"),
      opt.quiet);
  return 0;
}

void add_view_options(CLI::App* cmd, const std::shared_ptr<ViewOptions>& opt) {
  cmd->add_option("file", opt->file, "Program (.pte), bundled program (.bpte), ...")->required();
  cmd->add_option("more", opt->more_files,
                  "Further files to show in the same page, behind a file selector (needs -o)");
  cmd->add_option("-o,--output", opt->output,
                  "HTML file to write (default: FILE's name + .html; - for stdout)");
  cmd->add_flag("--no-compress", opt->no_compress, "Embed the graph data as plain JSON");
  add_page_options(cmd, opt->request, session::kViewCommand);
  cmd->add_flag("--app", opt->app,
                "Carry the WebAssembly readers: the page opens more files dropped on it (larger "
                "page; docs/app.md)");
  cmd->add_flag("-q,--quiet", opt->quiet, "No progress or summary on stderr");
}

}  // namespace

void register_view(CLI::App& app) {
  auto opt = std::make_shared<ViewOptions>();
  CLI::App* cmd = app.add_subcommand(
      "view", "Write the interactive HTML graph viewer (the default: `etviz FILE -o model.html`)");
  add_view_options(cmd, opt);
  add_budget_options(cmd);
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
