#pragma once
// The viewer's data: one JSON object with a string table and columnar arrays per graph,
// including the precomputed layout of each graph's initial expand state. Its keys are declared
// in web/src/page_data.js, the page-data contract (a new key is declared there first:
// tests/web/page_contract.test.mjs holds the pages written here to it); docs/viewer.md
// describes the encoding; web/src/data.js reads the data.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "analysis/categories.h"
#include "core/document.h"
#include "core/status.h"
#include "view/view_model.h"

namespace etviz::render::html {

// The page serialises views (view/view_model.h).
using view::ViewEdge;
using view::ViewGroup;
using view::ViewModel;
using view::ViewNode;

struct PageSource {
  std::string file_name;  // shown in the header and the title
  uint64_t file_size = 0;
};

// What one browser string or buffer holds safely. Chromium (V8, 64-bit) holds a string of at
// most 2^29 - 24 characters (~512 MiB); JSON.parse and an element's textContent need the whole
// text as one string, so no text the page parses at once comes near that.
inline constexpr size_t kMaxPageJsonText = size_t{256} << 20;
// Compressed column bytes per base64 element (5.3 MiB of text each, decoded one at a time).
inline constexpr size_t kPagePartBytes = size_t{4} << 20;
// JSON text per chunk of the string table (each chunk is parsed on its own).
inline constexpr size_t kPageStringChunk = size_t{8} << 20;
// One column becomes one typed array.
inline constexpr uint64_t kMaxPageColumnBytes = uint64_t{1} << 30;

// The page data of one file. With columns, `head` is the JSON object with every numeric
// column and the string table replaced by references ({"$col": k}, {"$strings": [k, ...]})
// into the directory head.columns ([type, count, bytes] per column), whose bytes follow one
// another in one gzip stream, `compressed`. Without, `head` is the whole data as JSON.
struct EncodedPageData {
  std::string head;        // safe inside an HTML <script> element
  std::string compressed;  // gzip (RFC 1952); empty without columns
  // The app's WebAssembly build has no zlib: `compressed` holds the column bytes as they are,
  // which its page takes from the worker as bytes, never as text (docs/app.md).
  bool raw_columns = false;
  uint64_t raw_bytes = 0;  // head and column bytes before compression
  size_t columns = 0;
};

// What becomes of each view's layout once its page data is written: kRelease gives it back
// (ViewModel::layout is then empty), so a million-node layout (~90 MiB) is not alive while the
// rest of the page is written; kKeep leaves the views as they were (tests, a second encoding).
enum class ViewLayouts { kKeep, kRelease };

// Fails, naming the limit, when a part would not open in a browser (kMaxPage*).
Result<EncodedPageData> encode_page_data(const Document& doc, const PageSource& source,
                                         const analysis::CategoryConfig& categories,
                                         std::vector<ViewModel>& views, bool columns,
                                         ViewLayouts layouts = ViewLayouts::kKeep);

// The page's texts of IR fields, as its columns hold them (the timeline's per-step facts are
// compared and written in the same words, timeline_data.h).
std::string stack_text(const std::vector<StackFrame>& stack);  // "file:line in function\n"...
std::string join_ints(const std::vector<int64_t>& v);          // debug handles: "3, 4"
std::string dim_order_text(const std::vector<uint8_t>& v);     // "[0, 2, 3, 1]", "" for none
std::string quant_text(const Boxed<Quantization>& q);          // "per_tensor scale=0.5 zp=3"

}  // namespace etviz::render::html
