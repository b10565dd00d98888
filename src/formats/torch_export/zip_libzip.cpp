// The native zip backend: libzip lists and inflates (zip_backend.h).
#include <fmt/format.h>
#include <zip.h>

#include "formats/torch_export/zip_backend.h"

namespace etviz::torch_export {

// libzip is the native build's inflater; members handed in by a page are for the WebAssembly
// build only.
void provide_inflated_member(const std::string&, const std::string&, std::string, std::string) {}
void clear_inflated_members() {}

namespace detail {
namespace {

class LibzipBackend final : public ZipBackend {
 public:
  explicit LibzipBackend(zip_t* archive) : archive_(archive) {}
  ~LibzipBackend() override { zip_discard(archive_); }
  LibzipBackend(const LibzipBackend&) = delete;
  LibzipBackend& operator=(const LibzipBackend&) = delete;

  ZipBackendRead read(const ZipEntry& entry) override {
    ZipBackendRead r;
    zip_file_t* f = zip_fopen_index(archive_, static_cast<zip_uint64_t>(entry.index), 0);
    if (!f) {
      r.failure = ZipReadFailure::kOpen;
      r.why = zip_strerror(archive_);
      return r;
    }
    r.bytes.resize(entry.size);
    uint64_t got = 0;
    while (got < entry.size) {
      const zip_int64_t n = zip_fread(f, r.bytes.data() + got, entry.size - got);
      if (n < 0) {
        r.failure = ZipReadFailure::kCorrupt;
        r.why = zip_file_strerror(f);
        zip_fclose(f);
        return r;
      }
      if (n == 0) break;
      got += static_cast<uint64_t>(n);
    }
    char extra = 0;
    r.past_declared = got == entry.size && zip_fread(f, &extra, 1) > 0;
    zip_fclose(f);
    r.bytes.resize(got);
    return r;
  }

 private:
  zip_t* archive_;
};

}  // namespace

Result<std::unique_ptr<ZipBackend>> open_zip_backend(std::span<const uint8_t> body,
                                                     const std::string& path, ZipDirectoryExtent,
                                                     std::vector<ZipEntry>& entries) {
  zip_error_t err;
  zip_error_init(&err);
  zip_source_t* src = zip_source_buffer_create(body.data(), body.size(), 0, &err);
  if (!src) {
    std::string msg = zip_error_strerror(&err);
    zip_error_fini(&err);
    return Error(fmt::format("{}: cannot read as zip: {}", path, msg));
  }
  zip_t* archive = zip_open_from_source(src, ZIP_RDONLY, &err);
  if (!archive) {
    zip_source_free(src);
    std::string msg = zip_error_strerror(&err);
    zip_error_fini(&err);
    return Error(fmt::format("{}: corrupt zip archive: {}", path, msg));
  }
  zip_error_fini(&err);
  auto backend = std::make_unique<LibzipBackend>(archive);

  const zip_int64_t n = zip_get_num_entries(archive, 0);
  if (n < 0 || static_cast<uint64_t>(n) > body.size() / 22 + 1)
    return Error(
        fmt::format("{}: corrupt zip archive: {} entries in {} bytes", path, n, body.size()));
  entries.reserve(static_cast<size_t>(n));
  for (zip_int64_t i = 0; i < n; ++i) {
    zip_stat_t st;
    zip_stat_init(&st);
    if (zip_stat_index(archive, static_cast<zip_uint64_t>(i), 0, &st) != 0) continue;
    ZipEntry e;
    e.name = (st.valid & ZIP_STAT_NAME) && st.name ? st.name : fmt::format("<entry {}>", i);
    e.size = (st.valid & ZIP_STAT_SIZE) ? st.size : 0;
    e.compressed_size = (st.valid & ZIP_STAT_COMP_SIZE) ? st.comp_size : 0;
    e.method = (st.valid & ZIP_STAT_COMP_METHOD) ? static_cast<uint16_t>(st.comp_method) : 0;
    e.index = i;
    entries.push_back(std::move(e));
  }
  return std::unique_ptr<ZipBackend>(std::move(backend));
}

}  // namespace detail
}  // namespace etviz::torch_export
