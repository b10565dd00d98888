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
#include "session/page_session.h"

namespace etviz::cli {
namespace {

struct ViewOptions {
  std::string file;
  std::vector<std::string> more_files;  // further files in the same page
  std::vector<std::string> data;
  std::vector<std::string> tosa;
  std::string output;
  bool no_compress = false;
  bool quiet = false;
  bool app = false;  // carry the WebAssembly readers: the page opens more files (docs/app.md)
  // The page options (session/page_options.h: categories, groups, the profile overlay,
  // stages, node data), parsed straight into the request.
  session::PageRequest request;
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
  open.data_files = opt.data;
  open.tosa_files = opt.tosa;
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
  std::vector<session::PageInput> files{
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
  session::PageRequest request = opt.request;
  request.compress = !opt.no_compress;
  request.app = opt.app;
  request.progress = &progress;
  render::html::PageStats stats;
  auto html = session::render_page(files, request, &stats);
  if (!opt.quiet)
    for (const auto& w : request.warnings) warn(w);
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
  cmd->add_option(
      "--tosa", opt->tosa,
      "A TOSA graph the Arm compiler wrote beside the program (.tosa), or a directory of them: "
      "each attaches to the delegate whose inputs and outputs it matches (repeatable)");
  cmd->add_flag("--no-compress", opt->no_compress, "Embed the graph data as plain JSON");
  for (const session::PageOption& o : session::page_options()) {
    if (o.text)
      cmd->add_option(o.flag, opt->request.*o.text, o.help);
    else
      cmd->add_flag(o.flag, opt->request.*o.set, o.help);
  }
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
