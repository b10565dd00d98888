#pragma once
// The viewer's data: one JSON object with a string table and columnar arrays per graph,
// including the precomputed layout of each graph's initial expand state. docs/viewer.md
// describes the fields; web/src/data.js reads them.
#include <string>
#include <vector>

#include "analysis/categories.h"
#include "core/document.h"
#include "render/html/view_model.h"

namespace etviz::render::html {

struct PageSource {
  std::string file_name;  // shown in the header and the title
  uint64_t file_size = 0;
};

std::string page_data_json(const Document& doc, const PageSource& source,
                           const analysis::CategoryConfig& categories,
                           const std::vector<ViewModel>& views);

// Appends `text` as a JSON string literal that is also safe inside an HTML <script> element:
// '<', '>', '&', U+2028 and U+2029 become \u escapes and invalid UTF-8 becomes U+FFFD.
void append_json_string(std::string& out, std::string_view text);

// JSON text made safe inside an HTML <script> element: '<', '>', '&', U+2028 and U+2029 (which
// occur only inside strings in JSON) become their \u escapes, which mean the same.
std::string script_safe_json(const std::string& json);

}  // namespace etviz::render::html
