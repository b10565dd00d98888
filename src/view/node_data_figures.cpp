#include "view/node_data_figures.h"

#include <map>
#include <utility>

namespace etviz::view {

std::vector<ViewDatum> node_data_in_view(const analysis::NodeDataJoin& join,
                                         const ViewModel& view) {
  std::map<std::pair<int32_t, NodeId>, int32_t> view_of;
  for (size_t k = 0; k < view.nodes.size(); ++k)
    view_of[{view.nodes[k].graph, view.nodes[k].node}] = static_cast<int32_t>(k);
  std::vector<ViewDatum> out;
  for (size_t d = 0; d < join.nodes.size(); ++d) {
    auto it = view_of.find({join.nodes[d].graph, join.nodes[d].node});
    if (it != view_of.end()) out.push_back({it->second, d});
  }
  return out;
}

}  // namespace etviz::view
