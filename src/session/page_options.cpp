#include "session/page_options.h"

#include <fmt/format.h>

namespace etviz::session {

const std::vector<PageOption>& page_options() {
  static const std::vector<PageOption> options = {
      {"--categories", "JSON file overriding op categories and colours (see docs/viewer.md)",
       &PageRequest::categories, nullptr, true},
      {"--etdump", "Runtime profile (.etdp) of FILE: heat-colour nodes by time, profile table",
       &PageRequest::etdump, nullptr, true},
      {"--etrecord", "ETRecord of the program (with --etdump): module paths, delegate maps",
       &PageRequest::etrecord, nullptr, true},
      {"--method", "Method the profile ran (default: forward, or the only method)",
       &PageRequest::method},
      {"--source-unit", "What one tick of the ETDump is: ns, us, ms or s (default: show raw ticks)",
       &PageRequest::source_unit},
      {"--unit", "Show profile times in ns, us, ms or s (needs --source-unit; default us)",
       &PageRequest::unit},
      {"--block", "ETDump event block (run name) to show (default: Execute)", &PageRequest::block},
      {"--groups",
       "JSON {node name: group name}: nodes of one group become one box (as Model Explorer's "
       "visualize_with_clusters groups partitions)",
       &PageRequest::groups, nullptr, true},
      {"--node-data",
       "Model Explorer node data JSON ({results, thresholds|gradient} or {graph id: ...}): "
       "nodes coloured by their values, a legend, the value in the panel and a table",
       &PageRequest::node_data, nullptr, true},
      {"--stages",
       "Step through every stage of an ETRecord (exported program -> ATen -> edge -> ...) over "
       "one layout, as a pass trace is shown",
       nullptr, &PageRequest::stages},
  };
  return options;
}

Status apply_page_option(PageRequest& request, std::string_view flag, const std::string& value) {
  for (const PageOption& o : page_options()) {
    if (flag != o.flag) continue;
    if (o.text)
      request.*o.text = value;
    else
      request.*o.set = !value.empty() && value != "false";
    return Status::Ok();
  }
  return Error(fmt::format("unknown page option {}", flag));
}

}  // namespace etviz::session
