#pragma once
// What of a large file the app reads (docs/app.md, "large files"): the bytes the readers touch
// to show it, never its weights. The worker (web/src/app_worker.js, through app_api.js) puts
// the file's bytes into memory the size of the file as it reads them with File.slice; the plan
// looks at what is there and says what to read next, until the readers have all they need:
//   - a program (.pte): its header, its flatbuffer, then the segments a view reads (delegate
//     payloads), never the constant segment, named or mutable data;
//   - weights (.ptd): the header and flatbuffer, never the segment data;
//   - a bundled program (.bpte): the bundle's tables (walked from its root as the verifier
//     walks them: test suites, cases, values, tensors' sizes and dim orders), never the test
//     tensors' data nor the embedded program's bytes, then the embedded program as a program,
//     at its offset;
//   - a zip (.pt2, ETRecord): the end records, the central directory, each member's local
//     header, then the stored members the readers read (torch_export::is_payload_member says
//     which they never read: weights, constants, pickles). Deflated members are inflated
//     from the file by the page (etviz_app_zip_plan), so they are not read into memory.
// Bytes never read stay zero. The same header, flatbuffer and zip-directory code the readers
// run decides every step, so the plan and the readers agree on where things are.
#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace etviz::wasm {

struct ByteRange {
  uint64_t offset = 0, size = 0;
};

struct PartialStep {
  std::vector<ByteRange> need;  // read these, then ask again
  bool done = false;            // the readers have all they need
  std::string error;            // not a kind read in part, or malformed: read the file whole
};

class PartialPlan {
 public:
  // `file`: memory the size of the file, holding the bytes read so far (loaded()).
  explicit PartialPlan(std::span<const uint8_t> file) : file_(file) {}
  // Whether a file with this head (its first kHeadBytes) and tail (its last kTailBytes) is a
  // kind read in part, before memory is set aside for it.
  static bool reads_in_part(std::span<const uint8_t> head, std::span<const uint8_t> tail);
  static constexpr uint64_t kHeadBytes = 4096;
  static const uint64_t kTailBytes;
  void loaded(uint64_t offset, uint64_t size);
  PartialStep next() const;

 private:
  bool has(uint64_t offset, uint64_t size) const;
  // Adds [offset, offset + size) (clamped to the file) to `step` unless it is all loaded.
  void want(PartialStep& step, uint64_t offset, uint64_t size) const;
  void plan_program(PartialStep& step, uint64_t base, uint64_t size) const;
  void plan_bundle(PartialStep& step) const;
  // Flatbuffer walking for plan_bundle: each wants what it reads and returns nullopt until it
  // is loaded (or when it lies outside the file: the reader then reports it).
  struct Table {
    uint64_t pos = 0, vtable = 0;
    uint16_t vtable_size = 0, inline_size = 0;
  };
  std::optional<Table> table(PartialStep& step, uint64_t pos) const;
  // Where the object a table's offset field points to starts; nullopt when absent.
  std::optional<uint64_t> ref(PartialStep& step, const Table& t, uint16_t field) const;
  // A vector's element count at `pos`, wanting its elements when `contents`.
  std::optional<uint32_t> vector(PartialStep& step, uint64_t pos, uint32_t element_size,
                                 bool contents) const;
  void plan_zip(PartialStep& step) const;

  std::span<const uint8_t> file_;
  std::map<uint64_t, uint64_t> loaded_;  // start -> end, disjoint and not touching
};

}  // namespace etviz::wasm
