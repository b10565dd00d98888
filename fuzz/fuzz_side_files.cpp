// libFuzzer entry: any bytes into the side files' parsers, Model Explorer node data
// (--node-data), categories (--categories) and groups (--groups): a value or an Error naming the
// field, never a crash (formats/side_files/).
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "formats/side_files/categories_file.h"
#include "formats/side_files/groups_file.h"
#include "formats/side_files/node_data_file.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  (void)etviz::side_files::parse_node_data(text, "fuzz.json");
  (void)etviz::side_files::parse_categories(text);
  (void)etviz::side_files::parse_groups(std::span<const uint8_t>(data, size), "fuzz.json");
  return 0;
}
