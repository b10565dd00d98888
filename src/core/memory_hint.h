#pragma once
// A hint for the kernel about large arrays a reader is about to fill: back them with
// transparent huge pages where the system allows it (THP "madvise" mode, Debian's default), so
// a million-node graph's value and node arrays (~650 MiB) fault in 2 MiB at a time instead of
// 4 KiB: ~160,000 page faults fewer. Only the whole huge pages inside the array are marked; a
// system without THP ignores the hint. Measured in docs/limits.md, "Huge programs".
#include <sys/mman.h>

#include <cstddef>
#include <cstdint>

namespace etviz {

inline void prefer_huge_pages(const void* data, size_t bytes) {
#ifdef MADV_HUGEPAGE
  constexpr uintptr_t kHuge = uintptr_t{2} << 20;
  if (bytes < 4 * kHuge) return;  // small arrays: not worth a system call
  const uintptr_t begin = (reinterpret_cast<uintptr_t>(data) + kHuge - 1) & ~(kHuge - 1);
  const uintptr_t end = (reinterpret_cast<uintptr_t>(data) + bytes) & ~(kHuge - 1);
  if (end > begin) ::madvise(reinterpret_cast<void*>(begin), end - begin, MADV_HUGEPAGE);
#else
  (void)data;
  (void)bytes;
#endif
}

// The same for a vector just reserved: its whole capacity.
template <typename Vector>
void prefer_huge_pages(const Vector& v) {
  prefer_huge_pages(v.data(), v.capacity() * sizeof(typename Vector::value_type));
}

}  // namespace etviz
