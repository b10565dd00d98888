#pragma once
// Model Explorer node data (`--node-data`, analysis/node_data.h) over a view: which of the
// join's values each view node shows. The page's node data (render/html/node_data.h) and
// pictures (`etviz export --node-data`, render/export/overlays.h) both place values through
// here, so they colour the same boxes.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "analysis/node_data.h"
#include "view/view_model.h"

namespace etviz::view {

struct ViewDatum {
  int32_t node = 0;  // ViewModel::nodes index
  size_t datum = 0;  // NodeDataJoin::nodes index
};

// The join's values that name a node of `view`, in the join's order.
std::vector<ViewDatum> node_data_in_view(const analysis::NodeDataJoin& join, const ViewModel& view);

}  // namespace etviz::view
