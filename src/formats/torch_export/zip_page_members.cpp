// The WebAssembly zip backend (zip_backend.h): no zlib in the browser build, so the central
// directory is read here and deflated members come from the page, which inflated them with
// the browser's DecompressionStream('deflate-raw') before asking for the document
// (web/src/app_worker.js). Stored members (all of PyTorch's) are read in place.
#include <fmt/format.h>

#include <map>
#include <utility>

#include "core/bytes.h"
#include "formats/torch_export/zip_backend.h"

namespace etviz::torch_export {
namespace {

struct InflatedMember {
  std::string bytes;
  std::string error;  // the stream's complaint, when the page could not inflate it
};

std::map<std::pair<std::string, std::string>, InflatedMember>& inflated_members() {
  static std::map<std::pair<std::string, std::string>, InflatedMember> members;
  return members;
}

constexpr uint32_t kCentralHeader = 0x02014b50;
constexpr uint32_t kLocalHeader = 0x04034b50;

}  // namespace

void provide_inflated_member(const std::string& archive_path, const std::string& entry,
                             std::string bytes, std::string error) {
  inflated_members()[{archive_path, entry}] = {std::move(bytes), std::move(error)};
}

void clear_inflated_members() {
  inflated_members().clear();
}

namespace detail {
namespace {

class PageMembersBackend final : public ZipBackend {
 public:
  PageMembersBackend(std::span<const uint8_t> body, std::string path,
                     std::vector<uint64_t> local_headers)
      : body_(body), path_(std::move(path)), local_headers_(std::move(local_headers)) {}

  ZipBackendRead read(const ZipEntry& entry) override {
    ZipBackendRead r;
    if (entry.method != 0) {
      if (entry.method != 8) {
        r.failure = ZipReadFailure::kOpen;
        r.why =
            fmt::format("compression method {} (only stored and deflate are read)", entry.method);
        return r;
      }
      auto it = inflated_members().find({path_, entry.name});
      if (it == inflated_members().end()) {
        r.failure = ZipReadFailure::kOpen;
        r.why = "the member is deflated and the page did not inflate it";
        return r;
      }
      if (!it->second.error.empty()) {
        r.failure = ZipReadFailure::kCorrupt;
        r.why = it->second.error;
        return r;
      }
      r.bytes = it->second.bytes;
      if (r.bytes.size() > entry.size) {
        r.past_declared = true;
        r.bytes.resize(entry.size);
      }
      return r;
    }
    const size_t k = static_cast<size_t>(entry.index);
    const uint64_t local = k < local_headers_.size() ? local_headers_[k] : UINT64_MAX;
    if (local > body_.size() || body_.size() - local < 30 ||
        load_le<uint32_t>(body_.data() + local) != kLocalHeader) {
      r.failure = ZipReadFailure::kOpen;
      r.why = "no local header where the central directory says";
      return r;
    }
    const uint64_t data = local + 30ull + load_le<uint16_t>(body_.data() + local + 26) +
                          load_le<uint16_t>(body_.data() + local + 28);
    if (data > body_.size() || body_.size() - data < entry.size) {
      r.failure = ZipReadFailure::kCorrupt;
      r.why = "its data runs past the end of the file";
      return r;
    }
    r.bytes.assign(reinterpret_cast<const char*>(body_.data() + data), entry.size);
    return r;
  }

 private:
  std::span<const uint8_t> body_;
  std::string path_;
  std::vector<uint64_t> local_headers_;  // by entry index
};

}  // namespace

Result<std::unique_ptr<ZipBackend>> open_zip_backend(std::span<const uint8_t> body,
                                                     const std::string& path,
                                                     ZipDirectoryExtent directory,
                                                     std::vector<ZipEntry>& entries) {
  std::vector<uint64_t> local_headers;
  const uint64_t end = std::min<uint64_t>(directory.end, body.size());
  uint64_t pos = directory.begin;
  while (pos + 46 <= end) {
    const uint8_t* c = body.data() + pos;
    if (load_le<uint32_t>(c) != kCentralHeader)
      return Error(fmt::format(
          "{}: corrupt zip archive: central directory record {} at byte {} has no signature", path,
          entries.size(), pos));
    const uint16_t name_len = load_le<uint16_t>(c + 28);
    const uint16_t extra_len = load_le<uint16_t>(c + 30);
    const uint16_t comment_len = load_le<uint16_t>(c + 32);
    const uint64_t next = pos + 46ull + name_len + extra_len + comment_len;
    if (next > end)
      return Error(fmt::format(
          "{}: corrupt zip archive: central directory record {} runs past the directory's end",
          path, entries.size()));
    ZipEntry e;
    e.name.assign(reinterpret_cast<const char*>(c + 46), name_len);
    e.method = load_le<uint16_t>(c + 10);
    e.compressed_size = load_le<uint32_t>(c + 20);
    e.size = load_le<uint32_t>(c + 24);
    uint64_t local = load_le<uint32_t>(c + 42);
    // Zip64: the fields stated as 0xffffffff follow in the extra field 0x0001, in this order.
    for (uint64_t x = pos + 46ull + name_len; x + 4 <= pos + 46ull + name_len + extra_len;) {
      const uint16_t id = load_le<uint16_t>(body.data() + x);
      const uint16_t len = load_le<uint16_t>(body.data() + x + 2);
      const uint64_t field_end = x + 4 + len;
      if (field_end > pos + 46ull + name_len + extra_len) break;
      if (id == 1) {
        uint64_t at = x + 4;
        auto take = [&](uint64_t& v) {
          if (v != 0xffffffffu || at + 8 > field_end) return;
          v = load_le<uint64_t>(body.data() + at);
          at += 8;
        };
        take(e.size);
        take(e.compressed_size);
        take(local);
      }
      x = field_end;
    }
    e.index = static_cast<int64_t>(entries.size());
    entries.push_back(std::move(e));
    local_headers.push_back(local);
    pos = next;
  }
  return std::unique_ptr<ZipBackend>(
      std::make_unique<PageMembersBackend>(body, path, std::move(local_headers)));
}

}  // namespace detail
}  // namespace etviz::torch_export
