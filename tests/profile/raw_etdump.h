#pragma once
// The test's own minimal reading of an ETDump: walks the flatbuffer tables by hand (vtable
// slots from the published schema), independent of etviz's schema and reader, so the tests
// compare the reader against something it does not share code with.
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace etviz::testing {

struct RawProfileEvent {
  std::string name;
  int32_t chain = 0;
  int32_t instruction = -1;
  uint64_t start = 0, end = 0;
};
struct RawRun {
  std::string name;
  std::vector<RawProfileEvent> events;
};

// Assumes a well-formed, size-prefixed buffer (the corpus file); no bounds checks.
inline std::vector<RawRun> raw_read_prefixed_etdump(const std::vector<uint8_t>& file) {
  const uint8_t* b = file.data() + 4;  // offsets are relative to the bytes after the prefix
  auto u16 = [&](size_t o) {
    uint16_t v;
    std::memcpy(&v, b + o, 2);
    return v;
  };
  auto u32 = [&](size_t o) {
    uint32_t v;
    std::memcpy(&v, b + o, 4);
    return v;
  };
  auto i32 = [&](size_t o) {
    int32_t v;
    std::memcpy(&v, b + o, 4);
    return v;
  };
  auto u64 = [&](size_t o) {
    uint64_t v;
    std::memcpy(&v, b + o, 8);
    return v;
  };
  auto field = [&](size_t table, int slot) -> size_t {
    const size_t vtable = table - static_cast<size_t>(i32(table));
    const size_t entry = 4 + 2 * static_cast<size_t>(slot);
    if (entry >= u16(vtable)) return 0;
    const uint16_t off = u16(vtable + entry);
    return off ? table + off : 0;
  };
  auto deref = [&](size_t at) { return at + u32(at); };
  auto str = [&](size_t at) {
    if (!at) return std::string();
    const size_t s = deref(at);
    return std::string(reinterpret_cast<const char*>(b + s + 4), u32(s));
  };
  std::vector<RawRun> runs;
  const size_t root = u32(0);
  const size_t run_vec = deref(field(root, 1));
  for (uint32_t r = 0; r < u32(run_vec); ++r) {
    const size_t run = deref(run_vec + 4 + 4 * r);
    RawRun out;
    out.name = str(field(run, 0));
    const size_t events = deref(field(run, 3));
    for (uint32_t e = 0; e < u32(events); ++e) {
      const size_t event = deref(events + 4 + 4 * e);
      const size_t pf = field(event, 0);
      if (!pf) continue;
      const size_t p = deref(pf);
      RawProfileEvent pe;
      pe.name = str(field(p, 0));
      if (size_t f = field(p, 1)) pe.chain = i32(f);
      if (size_t f = field(p, 2)) pe.instruction = i32(f);
      if (size_t f = field(p, 6)) pe.start = u64(f);
      if (size_t f = field(p, 7)) pe.end = u64(f);
      out.events.push_back(pe);
    }
    runs.push_back(std::move(out));
  }
  return runs;
}

}  // namespace etviz::testing
