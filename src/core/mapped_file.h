#pragma once
// Read-only memory map of an input file. Large weights and payloads stay on disk until a
// reader or decoder touches their pages, so opening a 1 GiB program costs what its
// flatbuffer costs.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "core/status.h"

namespace etviz {

class MappedFile {
 public:
  // Opens a regular file read-only and maps it. Never blocks on a FIFO or device (it is
  // refused as "not a regular file"). Every file opened is remembered as an input of the run
  // (is_input_file), so no output overwrites it.
  static Result<std::shared_ptr<const MappedFile>> open(const std::string& path);
  // Wraps bytes already in memory (embedded programs, tests); the view owns a copy.
  static std::shared_ptr<const MappedFile> from_bytes(std::string name,
                                                      std::span<const uint8_t> bytes);
  // Wraps memory someone else filled and keeps alive through `owner` (no copy): the app's
  // large programs, of which only the parts a view needs were read (docs/app.md).
  static std::shared_ptr<const MappedFile> over_memory(std::string name,
                                                       std::span<const uint8_t> bytes,
                                                       std::shared_ptr<const void> owner);

  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  const std::string& path() const { return path_; }
  std::span<const uint8_t> bytes() const { return {data_, size_}; }
  size_t size() const { return size_; }
  // Gives the resident pages of a mapped file back to the system; a page touched later is
  // read again (from the page cache). A reader calls it between passes over a large
  // flatbuffer, so a 1M-op program's ~180 MiB of plan pages do not stay in the process next to
  // the IR built from them (docs/limits.md). Nothing for files not mapped.
  void release_pages() const;

 private:
  MappedFile() = default;
  std::string path_;
  const uint8_t* data_ = nullptr;
  size_t size_ = 0;
  bool mapped_ = false;
  std::vector<uint64_t> owned_;        // 8-byte aligned storage for from_bytes()
  std::shared_ptr<const void> owner_;  // what keeps over_memory()'s bytes alive
};

// Files in memory that open() returns by path before looking at the file system: the app page
// registers the programs it read in part (File.slice) under their names (docs/app.md).
void register_memory_file(const std::string& path, std::shared_ptr<const MappedFile> file);
void unregister_memory_file(const std::string& path);

// Files this process has read (device and inode of each MappedFile::open, and of any path
// passed to note_input_file). Outputs refuse to replace them (cli/output.h), whatever name,
// symlink or hard link reaches them.
void note_input_file(const std::string& path);
// True when `path` (following symlinks) is a file this run has read.
bool is_input_file(const std::string& path);

}  // namespace etviz
