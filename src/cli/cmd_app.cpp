// `etviz app -o etviz.html`: the blank app page (docs/app.md). The viewer and the readers in
// WebAssembly, no file: it opens what is dropped on it or picked, offline.
#include <fmt/format.h>

#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/output.h"
#include "core/text.h"
#include "render/html/html_page.h"

namespace etviz::cli {
namespace {

struct AppOptions {
  std::string output;
  bool quiet = false;
};

int run_app(const AppOptions& opt) {
  auto html = render::html::write_app_page("Open a file");
  if (!html) return report_error(html.error());
  if (int rc = write_output(opt.output, *html, OutputKind::kPage); rc != 0) return rc;
  report_written(opt.output, html->size(), "", opt.quiet,
                 ": open it in a browser and drop files on it");
  return 0;
}

}  // namespace

void register_app(CLI::App& app) {
  auto opt = std::make_shared<AppOptions>();
  CLI::App* cmd = app.add_subcommand(
      "app",
      "Write the blank app page: opens files dropped on it (or picked) in the browser, offline, "
      "as `etviz FILE -o page.html` would show them");
  cmd->add_option("-o,--output", opt->output, "HTML file to write (- for stdout)")->required();
  cmd->add_flag("-q,--quiet", opt->quiet, "No summary on stderr");
  cmd->callback([opt] { set_exit_code(run_app(*opt)); });
}

}  // namespace etviz::cli
