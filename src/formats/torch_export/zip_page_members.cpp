// The WebAssembly zip backend (zip_backend.h): no zlib in the browser build, so the central
// directory is read here and deflated members come from the page, which inflated them with
// the browser's DecompressionStream('deflate-raw') before asking for the document
// (web/src/app_worker.js). Stored members (all of PyTorch's) are read in place.
#include <fmt/format.h>

#include <map>
#include <utility>

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
  PageMembersBackend(std::span<const uint8_t> body, std::string path)
      : body_(body), path_(std::move(path)) {}

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
    const auto data = local_data_start(body_, entry.local_header_offset);
    if (!data) {
      r.failure = ZipReadFailure::kOpen;
      r.why = "no local header where the central directory says";
      return r;
    }
    if (*data > body_.size() || body_.size() - *data < entry.size) {
      r.failure = ZipReadFailure::kCorrupt;
      r.why = "its data runs past the end of the file";
      return r;
    }
    r.bytes.assign(reinterpret_cast<const char*>(body_.data() + *data), entry.size);
    return r;
  }

 private:
  std::span<const uint8_t> body_;
  std::string path_;
};

}  // namespace

Result<std::unique_ptr<ZipBackend>> open_zip_backend(std::span<const uint8_t> body,
                                                     const std::string& path,
                                                     ZipDirectoryExtent directory,
                                                     std::vector<ZipEntry>& entries) {
  const uint64_t end = std::min<uint64_t>(directory.end, body.size());
  uint64_t pos = directory.begin;
  while (pos + 46 <= end) {
    ZipEntry e;
    uint64_t next = 0;
    switch (read_central_record(body, pos, end, e, next)) {
      case CentralRecord::kOk:
        break;
      case CentralRecord::kNoSignature:
        return Error(fmt::format(
            "{}: corrupt zip archive: central directory record {} at byte {} has no signature",
            path, entries.size(), pos));
      case CentralRecord::kPastEnd:
        return Error(fmt::format(
            "{}: corrupt zip archive: central directory record {} runs past the directory's end",
            path, entries.size()));
    }
    e.index = static_cast<int64_t>(entries.size());
    entries.push_back(std::move(e));
    pos = next;
  }
  return std::unique_ptr<ZipBackend>(std::make_unique<PageMembersBackend>(body, path));
}

}  // namespace detail
}  // namespace etviz::torch_export
