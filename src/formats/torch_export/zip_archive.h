#pragma once
// Read-only zip access over a memory-mapped file, hardened for hostile input:
// junk before the first local header (self-extracting stubs, the 12-byte-prefixed ETRecord in
// the corpus) is found from the end-of-central-directory record and skipped; entries whose
// declared size is out of proportion to the file (zip bombs) are refused before inflating, and
// an entry that inflates past its declared size is refused too.
// Listing and inflating go through a backend (zip_backend.h): libzip in the native build; in
// the WebAssembly app (docs/app.md) the central directory is read here and deflated members
// are handed in already inflated by the page (the browser's DecompressionStream), through
// provide_inflated_member().
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/document.h"
#include "core/status.h"

namespace etviz::torch_export {

struct ZipEntry {
  std::string name;
  uint64_t size = 0;  // declared uncompressed size
  uint64_t compressed_size = 0;
  uint16_t method = 0;  // 0 stored, 8 deflate
  int64_t index = -1;   // position in the central directory
  // Offset of the entry's bytes in the file when stored uncompressed, else -1.
  int64_t stored_data_offset = -1;
  // Offset of the entry's (compressed) bytes in the file whatever the method, else -1.
  int64_t data_offset = -1;
  uint64_t local_header_offset = 0;  // as the central directory states it
};

// True when the bytes end with a zip end-of-central-directory record (or start with a local
// header), whatever precedes the archive.
bool looks_like_zip(std::span<const uint8_t> bytes);
// True when the bytes end exactly where a zip end-of-central-directory record (and its comment)
// ends: the archive's own directory can be found from its end. A cut-off archive has none (its
// members are then found from their local headers, ZipArchive::open's recovery), though an
// archive stored inside one of its members may leave its record shortly before the cut.
bool ends_with_end_of_central_directory(std::span<const uint8_t> bytes);

namespace detail {
class ZipBackend;  // zip_backend.h
}  // namespace detail

class ZipArchive {
 public:
  // `bytes` must outlive the archive. `path` prefixes error messages.
  static Result<std::unique_ptr<ZipArchive>> open(std::span<const uint8_t> bytes, std::string path);
  ~ZipArchive();
  ZipArchive(const ZipArchive&) = delete;
  ZipArchive& operator=(const ZipArchive&) = delete;

  const std::vector<ZipEntry>& entries() const { return entries_; }
  const ZipEntry* find(std::string_view name) const;
  // Bytes of junk before the archive proper (0 for a normal file).
  uint64_t prefix_bytes() const { return prefix_; }
  // What the reader had to work around (salvaged entries); for the document's diagnostics.
  const std::vector<std::string>& notes() const { return notes_; }
  // What is lost: without a central directory (a file cut off before its end) the archive
  // holds the stored members read from their local headers up to the cut, and says so here
  // (Severity::kError in the document: the rest is shown).
  const std::vector<std::string>& damage() const { return damage_; }

  // Inflates one entry. Fails when its declared size exceeds `max_bytes` or the bound relative
  // to the file size, when the data is corrupt, or when it inflates to more than declared.
  Result<std::string> read(const ZipEntry& entry, uint64_t max_bytes = kDefaultMaxEntryBytes);

  static constexpr uint64_t kDefaultMaxEntryBytes = 2ull << 30;
  // Deflate cannot beat about 1032:1; anything claiming more is not an honest archive.
  static constexpr uint64_t kMaxCompressionRatio = 1100;

 private:
  ZipArchive() = default;
  std::unique_ptr<detail::ZipBackend> backend_;
  std::string path_;
  std::vector<ZipEntry> entries_;
  uint64_t prefix_ = 0;
  uint64_t file_size_ = 0;
  uint64_t inflated_total_ = 0;  // across reads, bounded relative to the file size
  std::span<const uint8_t> bytes_;
  uint64_t cd_start_ = 0;  // actual file position of the central directory
  std::vector<std::string> notes_;
  std::vector<std::string> damage_;

  // A stored entry whose headers no longer match its data (the file was edited after zipping,
  // e.g. a text replacement that changed lengths): its bytes are what lies between its local
  // header and the next entry's. Returns an error when that cannot be established.
  Result<std::string> salvage_stored(const ZipEntry& entry, const std::string& why);
};

// What the page inflated for the WebAssembly build's backend: the bytes of member `entry` of
// the archive read as `archive_path`, or why it could not (the stream's error). Ignored by the
// native build, which inflates with libzip. Members stay until clear_inflated_members().
void provide_inflated_member(const std::string& archive_path, const std::string& entry,
                             std::string bytes, std::string error = {});
void clear_inflated_members();

// Adds what reading the archive noticed to `doc` as warnings, and every entry as a size
// section (offset 0 when the entry's data position could not be worked out).
void describe_archive(const ZipArchive& zip, Document& doc);

}  // namespace etviz::torch_export
