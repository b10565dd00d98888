#include "core/budget.h"

#include <cstdio>

#include "core/text.h"

namespace etviz {

Budget& run_budget() {
  static Budget budget;
  return budget;
}

namespace {
std::string amount_text(uint64_t n, bool bytes) {
  char buf[64];
  const double v = static_cast<double>(n);
  if (!bytes) return grouped_digits(n);
  if (n >= (uint64_t{1} << 30))
    std::snprintf(buf, sizeof buf, "%.1f GiB", v / double(uint64_t{1} << 30));
  else if (n >= (uint64_t{1} << 20))
    std::snprintf(buf, sizeof buf, "%.1f MiB", v / double(uint64_t{1} << 20));
  else if (n >= 1024)
    std::snprintf(buf, sizeof buf, "%.1f KiB", v / 1024.0);
  else
    std::snprintf(buf, sizeof buf, "%llu bytes", static_cast<unsigned long long>(n));
  return buf;
}
}  // namespace

Error over_budget(std::string_view what, uint64_t amount, uint64_t limit, std::string_view flag,
                  bool bytes) {
  return Error(std::string(what) + ": " + amount_text(amount, bytes) +
               ", over this run's limit of " + amount_text(limit, bytes) + " (raise it with " +
               std::string(flag) + ")");
}

}  // namespace etviz
