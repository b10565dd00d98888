// `etviz FILE [-o out.html]` (also `etviz view FILE`): writes the self-contained HTML viewer.
#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "analysis/categories.h"
#include "cli/commands.h"
#include "cli/output.h"
#include "formats/open_document.h"
#include "render/html/html_page.h"

namespace etviz::cli {
namespace {

struct ViewOptions {
  std::string file;
  std::vector<std::string> data;
  std::string categories;
  std::string output;
  bool no_compress = false;
  bool quiet = false;
};

using Clock = std::chrono::steady_clock;
Clock::time_point g_start;
bool g_quiet = false;

// Progress goes to stderr for runs that take a while: steps are reported once the run has
// taken over a second (layout of a large graph announces itself, being the slow step).
void progress(const std::string& what) {
  const double s = std::chrono::duration<double>(Clock::now() - g_start).count();
  if (!g_quiet && (s > 1.0 || what.rfind("laying out", 0) == 0))
    std::fprintf(stderr, "etviz: [%.1fs] %s\n", s, what.c_str());
}

std::string default_output(const std::string& input) {
  std::filesystem::path p(input);
  return p.stem().string() + ".html";
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
  render::html::PageStats stats;
  auto html = render::html::write_html_page(*doc, page, &stats);
  if (!html) return report_error(html.error().within(opt.file));
  const std::string out = opt.output.empty() ? default_output(opt.file) : opt.output;
  progress("writing " + out);
  if (int rc = write_output(out, *html); rc != 0) return rc;
  if (!opt.quiet && out != "-")
    std::fprintf(stderr, "etviz: wrote %s (%s, %zu graph%s%s)\n", out.c_str(),
                 fmt::format("{:.1f} KiB", html->size() / 1024.0).c_str(), stats.graphs,
                 stats.graphs == 1 ? "" : "s",
                 stats.has_wasm ? "" : "; expand/collapse re-layout unavailable in this build");
  return 0;
}

void add_view_options(CLI::App* cmd, const std::shared_ptr<ViewOptions>& opt) {
  cmd->add_option("file", opt->file, "Program (.pte), bundled program (.bpte), ...")->required();
  cmd->add_option("-o,--output", opt->output,
                  "HTML file to write (default: FILE's name + .html; - for stdout)");
  cmd->add_option("--data", opt->data,
                  "FlatTensor data file (.ptd) with the program's external tensors");
  cmd->add_option("--categories", opt->categories,
                  "JSON file overriding op categories and colours (see docs/viewer.md)");
  cmd->add_flag("--no-compress", opt->no_compress, "Embed the graph data as plain JSON");
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

bool is_default_view_invocation(CLI::App& app, int argc, char** argv) {
  if (argc < 2) return false;
  const std::string first = argv[1];
  if (first.empty() || first[0] == '-') return false;
  for (const CLI::App* sub : app.get_subcommands([](CLI::App*) { return true; }))
    if (sub->check_name(first)) return false;
  return true;
}

}  // namespace etviz::cli
