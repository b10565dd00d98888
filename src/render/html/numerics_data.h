#pragma once
// The numerics overlay's page data (`etviz view RUN_PROGRAM --etdump RUN.etdp --debug-buffer B
// --reference REF.etdp --reference-debug-buffer B`): the report's rows (figures, both tensors'
// statistics, the differences' histogram), the first divergent row, and per node of each page
// graph its row and heat step (MSE on the profile's heat scale, logarithmic). Written as its
// own element (`<script type="application/json" id="etviz-numerics">`);
// web/src/numerics_overlay.js reads it. docs/numerics.md ("Page") describes the fields.
#include <span>
#include <string>

#include "analysis/numerics.h"
#include "core/document.h"
#include "view/view_model.h"

namespace etviz::render::html {

struct NumericsPage {
  const analysis::NumericsReport* report = nullptr;
  std::string run_label, reference_label;
};

// The JSON for the etviz-numerics element, safe inside <script>.
std::string numerics_data_json(const NumericsPage& page, const Document& doc,
                               std::span<const view::ViewModel> views);

}  // namespace etviz::render::html
