#pragma once
// FlatBuffers may share one table among many references, so a small hostile file can name
// the same 100k-element vector a million times. Readers charge every element they copy to
// this budget, which is proportional to the input size, and stop with an error when it runs out.
#include <cstdint>
#include <string>

#include "core/status.h"

namespace etviz {

class ExpansionBudget {
 public:
  explicit ExpansionBudget(uint64_t input_bytes) : remaining_(input_bytes * 8 + (1u << 20)) {}

  // Returns false once the budget is exhausted; the caller turns that into an Error.
  bool charge(uint64_t elements) {
    if (elements > remaining_) {
      remaining_ = 0;
      return false;
    }
    remaining_ -= elements;
    return true;
  }
  static Error exhausted_error() {
    return Error(
        "the file references far more data than its size can hold (shared or cyclic tables?)");
  }

 private:
  uint64_t remaining_;
};

}  // namespace etviz
