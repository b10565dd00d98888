#pragma once
// Writes ETDump (".etdp", identifier "ED00") files from a Profile: the inverse of
// src/formats/executorch/etdump_reader. Tests use it for round trips and hostile inputs; the
// `etviz-gen etdump` command uses it to make profiles that match generated programs.
#include <cstdint>
#include <string>
#include <vector>

#include "core/document.h"
#include "core/profile.h"

namespace etviz::gen {

// Serialises every run, allocator and event of `profile` (its order: per run, profile events,
// then allocations, then debug events). `size_prefixed` writes the u32 prefix the runtime writes.
std::vector<uint8_t> write_etdump(const Profile& profile, bool size_prefixed = true);

struct SyntheticProfileSpec {
  std::string method = "forward";
  int runs = 3;             // "Execute" runs
  int delegate_events = 2;  // events logged inside each delegate call, with debug ids
  bool delegate_ids_as_strings = false;
  bool debug_events = false;  // log each kernel's first output tensor (needs a debug buffer)
  bool allocations = false;   // allocation events on two allocators
  uint64_t seed = 1;
  // Intermediate outputs for numerics tests (docs/numerics.md, "Test runs"). Element k of a
  // logged output of instruction i is i + (k mod 16) / 16: exact in float32, so a planted drift
  // gives exact figures. From instruction `drift_from` on (-1: never), every element of the
  // n-th drifting output (n = 0, 1, ...) is `drift` x (n + 1) larger, as an error that grows
  // downstream.
  int32_t drift_from = -1;
  double drift = 0.0625;
  int32_t nan_at = -1;   // this instruction's output holds a NaN (element 0) and +Inf (element 1)
  bool outputs = false;  // log the method's outputs too (debug events marked output)
  int32_t bundled_input_index = -1;  // what the Execute runs say they ran
};

// A profile that looks like what the runtime records for `method` of `program`: a "Default"
// run (Program::load_method, Method::init) and `runs` "Execute" runs with OPERATOR_CALL +
// native_call_<op> per kernel, DELEGATE_CALL plus inner events per delegate call, and
// Method::execute around them. Durations are deterministic for a seed. When debug events are
// asked for, `debug_buffer` receives the tensor bytes (64-byte aligned, as the runtime's buffer
// sink writes them). Delegate calls log one output per inner event, under its delegate debug
// id. Fails when the method does not exist.
Result<Profile> synthesize_profile(const Document& program, const SyntheticProfileSpec& spec,
                                   std::vector<uint8_t>* debug_buffer);

}  // namespace etviz::gen
