#include "core/boxed.h"

#include <mutex>
#include <ostream>
#include <unordered_map>

namespace etviz {
namespace {

// The interned texts. Each entry holds one reference of its own, so interned texts live as long
// as the process; the table is bounded by SharedString::kMaxInterned entries of at most
// kMaxInternedLength bytes (~20 MiB at worst).
struct InternTable {
  std::mutex mutex;
  std::unordered_map<std::string_view, void*> entries;  // text (owned by the rep) -> rep
};
InternTable& intern_table() {
  static InternTable* table = new InternTable;  // never destroyed: holders may outlive statics
  return *table;
}

}  // namespace

SharedString::Rep* SharedString::make(std::string_view text) {
  if (text.empty()) return nullptr;
  if (text.size() <= kMaxInternedLength) {
    InternTable& table = intern_table();
    std::lock_guard lock(table.mutex);
    if (auto it = table.entries.find(text); it != table.entries.end()) {
      auto* rep = static_cast<Rep*>(it->second);
      retain(rep);
      return rep;
    }
    if (table.entries.size() < kMaxInterned) {
      auto* rep = new Rep{{2}, std::string(text)};  // one reference for the table, one for us
      table.entries.emplace(rep->text, rep);
      return rep;
    }
  }
  return new Rep{{1}, std::string(text)};
}

size_t SharedString::interned_count() {
  InternTable& table = intern_table();
  std::lock_guard lock(table.mutex);
  return table.entries.size();
}

}  // namespace etviz
