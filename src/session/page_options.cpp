#include "session/page_options.h"

#include <fmt/format.h>

#include <stdexcept>

namespace etviz::session {

using view::NumericsRequest;
using view::ProfileRequest;
using view::Request;

const std::vector<PageOption>& page_options() {
  constexpr unsigned kShown = kViewCommand | kExportCommand;
  constexpr unsigned kProfiled = kViewCommand | kExportCommand | kProfileCommand;
  // In the order `etviz view --help` and the app's options panel list them.
  static const std::vector<PageOption> options = {
      {"--data", "FlatTensor data file (.ptd) with the program's external tensors", kShown, nullptr,
       nullptr, &Request::data, nullptr, true},
      {"--tosa",
       "A TOSA graph the Arm compiler wrote beside the program (.tosa), or a directory of them: "
       "each attaches to the delegate whose inputs and outputs it matches (repeatable)",
       kShown, nullptr, nullptr, &Request::tosa, nullptr, true},
      {"--categories", "JSON file overriding op categories and colours (see docs/viewer.md)",
       kShown, &Request::categories, nullptr, nullptr, nullptr, true},
      {"--etdump",
       "Runtime profile (.etdp) of FILE: nodes heat-coloured by time (the page adds the profile "
       "table)",
       kShown, nullptr, &ProfileRequest::etdump, nullptr, nullptr, true},
      {"--etrecord",
       "ETRecord of the program (with --etdump): module paths, delegate maps, stack traces",
       kProfiled, nullptr, &ProfileRequest::etrecord, nullptr, nullptr, true},
      // `etviz export --method` names the graph to draw; the profile follows it.
      {"--method",
       "Method the profile ran (an ETDump does not say; default: forward, else the program's "
       "largest method)",
       kViewCommand | kProfileCommand, nullptr, &ProfileRequest::method},
      {"--source-unit",
       "What one tick of the ETDump is: ns, us, ms or s (the file does not say; default: raw "
       "ticks)",
       kProfiled, nullptr, &ProfileRequest::source_unit},
      {"--unit", "Show profile times in ns, us, ms or s (needs --source-unit; default us)",
       kProfiled, nullptr, &ProfileRequest::unit},
      {"--block", "ETDump event block (run name) to show (default: Execute)", kShown, nullptr,
       &ProfileRequest::block},
      {"--groups",
       "JSON {node name: group name}: nodes of one group become one box (as Model Explorer's "
       "visualize_with_clusters groups partitions)",
       kShown, &Request::groups, nullptr, nullptr, nullptr, true},
      {"--node-data",
       "Model Explorer node data JSON ({results, thresholds|gradient} or {graph id: ...}): "
       "nodes coloured by their values, a legend (the page adds the value in the panel and a "
       "table)",
       kShown, &Request::node_data, nullptr, nullptr, nullptr, true},
      {"--debug-buffer",
       "The profile run's debug buffer (with --etdump and --reference): its intermediate "
       "outputs' bytes",
       kViewCommand, nullptr, nullptr, nullptr, nullptr, true, &NumericsRequest::debug_buffer},
      {"--reference",
       "Numerics: the profile run's intermediate outputs against this reference run (.etdp) or "
       "bundled program (.bpte): nodes coloured by their gap, the first divergent marked, a "
       "table (docs/numerics.md)",
       kViewCommand, nullptr, nullptr, nullptr, nullptr, true, &NumericsRequest::reference},
      {"--reference-debug-buffer", "The reference run's debug buffer (with --reference)",
       kViewCommand, nullptr, nullptr, nullptr, nullptr, true,
       &NumericsRequest::reference_debug_buffer},
      {"--threshold",
       "Numerics: divergent when METRIC crosses VALUE (snr=20 the default; mse, l1, max_abs, "
       "cosine; several separated by commas)",
       kViewCommand, nullptr, nullptr, nullptr, nullptr, false, &NumericsRequest::threshold},
      {"--stages",
       "Step through every stage of an ETRecord (exported program -> ATen -> edge -> ...) over "
       "one layout, as a pass trace is shown",
       kViewCommand, nullptr, nullptr, nullptr, &Request::stages},
  };
  return options;
}

std::string* PageOption::target(Request& r) const {
  if (text) return &(r.*text);
  if (profile) return &(r.profile.*profile);
  if (numerics) return &(r.numerics.*numerics);
  return nullptr;
}

const PageOption& page_option(std::string_view flag) {
  for (const PageOption& o : page_options())
    if (flag == o.flag) return o;
  throw std::logic_error(fmt::format("page_option: no option {}", flag));
}

Status apply_page_option(Request& request, std::string_view flag, const std::string& value) {
  for (const PageOption& o : page_options()) {
    if (flag != o.flag) continue;
    if (std::string* target = o.target(request))
      *target = value;
    else if (o.list)
      (request.*o.list).push_back(value);
    else
      request.*o.set = !value.empty() && value != "false";
    return Status::Ok();
  }
  return Error(fmt::format("unknown page option {}", flag));
}

Status check_profile_flags(const Request& request, Command command) {
  if (!request.profile.etdump.empty()) return Status::Ok();
  std::vector<std::string> flags;
  bool given = false;
  for (const PageOption& o : page_options()) {
    if (!o.profile || o.profile == &ProfileRequest::etdump || !o.takes(command)) continue;
    flags.push_back(o.flag);
    given |= !(request.profile.*o.profile).empty();
  }
  if (!given) return Status::Ok();
  std::string list;
  for (size_t k = 0; k < flags.size(); ++k)
    list += (k == 0 ? "" : k + 1 == flags.size() ? " and " : ", ") + flags[k];
  return Error(list + " describe a profile: they need --etdump RUN.etdp");
}

Status check_numerics_flags(const Request& request) {
  const NumericsRequest& n = request.numerics;
  if (n.reference.empty()) {
    if (!n.debug_buffer.empty() || !n.reference_debug_buffer.empty() || !n.threshold.empty())
      return Error(
          "--debug-buffer, --reference-debug-buffer and --threshold describe numerics: they need "
          "--reference REF.etdp|BUNDLE.bpte");
    return Status::Ok();
  }
  if (request.profile.etdump.empty())
    return Error("--reference compares a run's intermediate outputs: it needs --etdump RUN.etdp");
  return Status::Ok();
}

}  // namespace etviz::session
