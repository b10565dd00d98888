#pragma once
// What ZipArchive needs from a zip implementation: the entry list and one entry's bytes. The
// archive's own code (zip_archive.cpp) does everything else: finding the archive behind junk,
// data offsets, size limits against zip bombs, salvaging edited stored entries, messages.
// Two definitions, one per build: zip_libzip.cpp (native, libzip) and zip_page_members.cpp
// (WebAssembly: the central directory read by us, deflated members inflated by the page).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"
#include "formats/torch_export/zip_archive.h"

namespace etviz::torch_export::detail {

// Why an entry could not be read; the archive decides whether a stored entry is salvaged.
enum class ZipReadFailure { kNone, kOpen, kCorrupt };

struct ZipBackendRead {
  std::string bytes;  // at most the declared size
  ZipReadFailure failure = ZipReadFailure::kNone;
  std::string why;             // the implementation's words, when failure != kNone
  bool past_declared = false;  // there were more bytes than declared
};

class ZipBackend {
 public:
  virtual ~ZipBackend() = default;
  virtual ZipBackendRead read(const ZipEntry& entry) = 0;
};

// One central directory record at `pos` of `body`, which must end by `end`: name, method,
// sizes and local header offset (zip64 values from the extra field 0x0001) into `e`. Both
// backends' listings and the archive's data offsets read records through this.
enum class CentralRecord { kOk, kNoSignature, kPastEnd };
CentralRecord read_central_record(std::span<const uint8_t> body, uint64_t pos, uint64_t end,
                                  ZipEntry& e, uint64_t& next);
// Where an entry's data starts in `body`: after the local header at `local` (its name and
// extra field); nullopt when no local header is there.
std::optional<uint64_t> local_data_start(std::span<const uint8_t> body, uint64_t local);

// Where the central directory of the archive `bytes` (the whole file) lies, from the
// end-of-central-directory record and the zip64 records before it, all within the file's last
// kZipTailBytes: [cd_start, cd_end) in the file, the offset the archive states for it and the
// junk prepended to the archive (`prefix`). The app's partial reads (src/wasm) read that tail
// first, then the directory, through this.
struct ZipDirectoryLocation {
  uint64_t prefix = 0, cd_start = 0, cd_end = 0;
  uint32_t cd_offset = 0;
};
inline constexpr uint64_t kZipTailBytes = 65557 + 20 + 56 + 1024 + 4;
Result<ZipDirectoryLocation> locate_central_directory(std::span<const uint8_t> bytes,
                                                      const std::string& path);

// Opens the archive `body` (from its first local header to the end of the file). Fills
// `entries` (name, sizes, method, index) in central-directory order. `path` names the archive
// in messages (and, in the WebAssembly build, keys the members the page inflated);
// `directory` is where the central directory lies in `body` ([begin, end)), as the archive
// found it from the end records.
struct ZipDirectoryExtent {
  uint64_t begin = 0, end = 0;
};
Result<std::unique_ptr<ZipBackend>> open_zip_backend(std::span<const uint8_t> body,
                                                     const std::string& path,
                                                     ZipDirectoryExtent directory,
                                                     std::vector<ZipEntry>& entries);

}  // namespace etviz::torch_export::detail
