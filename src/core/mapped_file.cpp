#include "core/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <mutex>
#include <set>
#include <utility>

namespace etviz {

namespace {

std::mutex g_inputs_mutex;
std::set<std::pair<dev_t, ino_t>> g_inputs;
std::map<std::string, std::shared_ptr<const MappedFile>> g_memory_files;  // g_inputs_mutex

void note(const struct stat& st) {
  std::lock_guard<std::mutex> lock(g_inputs_mutex);
  g_inputs.insert({st.st_dev, st.st_ino});
}

}  // namespace

void note_input_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) == 0) note(st);
}

bool is_input_file(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return false;
  std::lock_guard<std::mutex> lock(g_inputs_mutex);
  return g_inputs.count({st.st_dev, st.st_ino}) > 0;
}

void register_memory_file(const std::string& path, std::shared_ptr<const MappedFile> file) {
  std::lock_guard<std::mutex> lock(g_inputs_mutex);
  g_memory_files[path] = std::move(file);
}

void unregister_memory_file(const std::string& path) {
  std::lock_guard<std::mutex> lock(g_inputs_mutex);
  g_memory_files.erase(path);
}

Result<std::shared_ptr<const MappedFile>> MappedFile::open(const std::string& path) {
  {
    std::lock_guard<std::mutex> lock(g_inputs_mutex);
    if (auto it = g_memory_files.find(path); it != g_memory_files.end()) return it->second;
  }
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is refused below.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return Error(path + ": cannot open: " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    int err = errno;
    ::close(fd);
    return Error(path + ": cannot stat: " + std::strerror(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return Error(path + (S_ISDIR(st.st_mode)    ? ": is a directory, not a file"
                         : S_ISFIFO(st.st_mode) ? ": is a pipe (FIFO), not a regular file"
                                                : ": not a regular file"));
  }
  note(st);
  std::shared_ptr<MappedFile> file(new MappedFile());
  file->path_ = path;
  file->size_ = static_cast<size_t>(st.st_size);
  if (file->size_ > 0) {
    void* p = ::mmap(nullptr, file->size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int err = errno;
      ::close(fd);
      return Error(path + ": cannot map: " + std::strerror(err));
    }
    file->data_ = static_cast<const uint8_t*>(p);
    file->mapped_ = true;
  }
  ::close(fd);
  return std::shared_ptr<const MappedFile>(std::move(file));
}

void MappedFile::release_pages() const {
#ifdef MADV_DONTNEED
  // The mapping is private and read-only, so no page holds anything the file does not.
  if (mapped_ && size_ > 0) ::madvise(const_cast<uint8_t*>(data_), size_, MADV_DONTNEED);
#endif
}

std::shared_ptr<const MappedFile> MappedFile::from_bytes(std::string name,
                                                         std::span<const uint8_t> bytes) {
  std::shared_ptr<MappedFile> file(new MappedFile());
  file->path_ = std::move(name);
  file->size_ = bytes.size();
  // Word storage keeps scalars inside an embedded flatbuffer naturally aligned.
  file->owned_.assign(bytes.size() / sizeof(uint64_t) + 1, 0);
  auto* storage = reinterpret_cast<uint8_t*>(file->owned_.data());
  if (!bytes.empty()) std::memcpy(storage, bytes.data(), bytes.size());
  file->data_ = storage;
  return file;
}

std::shared_ptr<const MappedFile> MappedFile::over_memory(std::string name,
                                                          std::span<const uint8_t> bytes,
                                                          std::shared_ptr<const void> owner) {
  std::shared_ptr<MappedFile> file(new MappedFile());
  file->path_ = std::move(name);
  file->size_ = bytes.size();
  file->data_ = bytes.data();
  file->owner_ = std::move(owner);
  return file;
}

MappedFile::~MappedFile() {
  if (mapped_) ::munmap(const_cast<uint8_t*>(data_), size_);
}

}  // namespace etviz
