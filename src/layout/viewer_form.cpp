#include "viewer_form.h"

namespace etviz::layout {

ViewerForm viewer_form(const Layout& layout, const std::vector<bool>& laid,
                       const std::vector<uint32_t>& laid_sources) {
  ViewerForm f;
  for (auto* v : {&f.node_x, &f.node_y, &f.node_w, &f.node_h}) v->reserve(layout.nodes.size());
  for (auto* v : {&f.group_x, &f.group_y, &f.group_w, &f.group_h}) v->reserve(layout.groups.size());
  for (const Rect& r : layout.nodes) {
    f.node_x.push_back(round_tenth(r.x));
    f.node_y.push_back(round_tenth(r.y));
    f.node_w.push_back(round_tenth(r.width));
    f.node_h.push_back(round_tenth(r.height));
  }
  for (const Rect& r : layout.groups) {
    f.group_x.push_back(round_tenth(r.x));
    f.group_y.push_back(round_tenth(r.y));
    f.group_w.push_back(round_tenth(r.width));
    f.group_h.push_back(round_tenth(r.height));
  }
  f.routes = spread_routes(share_routes(layout, laid_sources), laid);
  f.label_x.assign(laid.size(), 0);
  f.label_y.assign(laid.size(), 0);
  for (size_t e = 0, k = 0; e < laid.size(); ++e) {
    if (!laid[e] || k >= layout.edges.size()) continue;
    f.label_x[e] = round_tenth(layout.edges[k].label.x);
    f.label_y[e] = round_tenth(layout.edges[k].label.y);
    ++k;
  }
  f.bounds = layout.bounds;
  return f;
}

}  // namespace etviz::layout
