// libFuzzer entry: any bytes into the ETDump reader (size-prefixed or not) and the profile
// statistics: a Profile or an Error, never a crash.
#include <cstddef>
#include <cstdint>
#include <span>

#include "analysis/profile_stats.h"
#include "formats/executorch/etdump_reader.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto profile = etviz::executorch::read_etdump(std::span<const uint8_t>(data, size));
  if (profile) (void)etviz::analysis::summarize_profile(*profile);
  return 0;
}
