#pragma once
// A runtime profile over a view: which view nodes each event lands on, and the figures each
// timed node shows (its heat colour, its panel). One computation for the page's profile data
// (render/html/profile_data.h) and for pictures (`etviz export --etdump`, render/export), so
// both colour the same nodes with the same figures.
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "analysis/profile_stats.h"
#include "core/document.h"
#include "view/view_model.h"

namespace etviz::view {

// A profile joined with the document on show, and how a view shows it.
struct ProfileOverlay {
  std::string file_name;                          // the ETDump, shown in the table's title
  const analysis::ProfileStats* stats = nullptr;  // joined with the document (join_profile)
  std::string method;                             // the method the events ran in
  std::string block = "Execute";                  // event block to show
  analysis::TimeScale scale;                      // raw ticks -> displayed unit
  std::vector<std::string> warnings;              // shown in the table's header
};

// Where one event's time lands in a view: node indices of ViewModel::nodes.
struct OverlayTarget {
  size_t view = 0;               // index into the views vector (= page graph index)
  std::vector<int32_t> nodes;    // view node indices; empty when the event joins no node
  bool inside_delegate = false;  // an op of a decoded delegate payload
};

// Which view nodes an event row lands on. Kernel and delegate-call events: the node of their
// instruction. Events with a delegate debug id: the ops of the delegate's decoded payload
// whose debug handles hold the id (XNNPACK XNode.debug_handle, Vulkan node_id: the id the
// backend logs), or, for a string id, whose name is the id; when none match, the ops whose
// debug handles meet the handles the ETRecord's delegate_map gives the id; else nothing (the
// delegate node already carries the enclosing DELEGATE_CALL).
OverlayTarget overlay_target(const analysis::EventRow& row, const Document& doc,
                             std::span<const ViewModel> views, const std::string& method);

// The figures a node of a view shows (its heat colour and panel): the event chosen for it.
struct NodeFigures {
  std::string event;
  analysis::DurationStats s;  // raw ticks
  double share = 0;           // of Method::execute (or of the nodes' sum)
  bool inside = false;        // an op inside a decoded delegate payload
  int32_t row = -1;           // the page's event row (profile_data_json sets it)
};
// The timed nodes of the profiled method's view: view node index -> figures. Kernel and
// delegate-call nodes from their instruction's outermost event; payload ops from the
// backend's events (the longest when several land on one op).
std::map<int32_t, NodeFigures> profile_node_figures(const ProfileOverlay& overlay,
                                                    const Document& doc,
                                                    std::span<const ViewModel> views);
// Index of the view showing the profiled method, or views.size().
size_t profile_view(const Document& doc, std::span<const ViewModel> views,
                    const std::string& method);

// What the heat colours measure, as the page's legend buttons.
enum class HeatMode : uint8_t { kAvg, kP90, kShare };
// "avg" -> kAvg, "p90", "share"; false when the name is none of them.
bool parse_heat_mode(std::string_view name, HeatMode& out);
// A node's figure in `mode`: avg and p90 in the displayed unit, share as a fraction.
double heat_figure(const NodeFigures& figures, HeatMode mode, const analysis::TimeScale& scale);

}  // namespace etviz::view
