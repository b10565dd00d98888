#include "formats/torch_export/zip_archive.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <optional>
#include <utility>

#include "core/budget.h"
#include "core/bytes.h"
#include "formats/torch_export/zip_backend.h"

namespace etviz::torch_export {
namespace {

constexpr uint32_t kEndOfCentralDirectory = 0x06054b50;
constexpr uint32_t kCentralHeader = 0x02014b50;
constexpr uint32_t kLocalHeader = 0x04034b50;
constexpr uint32_t kZip64Locator = 0x07064b50;
constexpr uint32_t kZip64Record = 0x06064b50;

// Where an end-of-central-directory record must end: anywhere in the bytes (junk may follow an
// archive), or exactly at their end.
enum class RecordEnd { kWithin, kAtEnd };

// Position of the end-of-central-directory record, or -1. It sits in the last 64 KiB + 22 bytes.
int64_t find_eocd(std::span<const uint8_t> b, RecordEnd end = RecordEnd::kWithin) {
  if (b.size() < 22) return -1;
  const size_t lowest = b.size() > 65557 ? b.size() - 65557 : 0;
  for (size_t i = b.size() - 22 + 1; i-- > lowest;) {
    if (load_le<uint32_t>(b.data() + i) != kEndOfCentralDirectory) continue;
    const size_t record_end = i + 22 + load_le<uint16_t>(b.data() + i + 20);
    if (end == RecordEnd::kAtEnd ? record_end == b.size() : record_end <= b.size())
      return static_cast<int64_t>(i);
  }
  return -1;
}

constexpr uint32_t kDataDescriptor = 0x08074b50;

// A stored member's end when its local header leaves the sizes to a data descriptor after the
// data (PyTorch's writer does): the first signed descriptor after `data` whose compressed size
// is the distance to it, 32-bit or zip64. Returns {data end, descriptor bytes}, or nullopt when
// the file ends first. Linear: the search stops at the first match.
std::optional<std::pair<uint64_t, uint64_t>> find_descriptor(std::span<const uint8_t> b,
                                                             uint64_t data) {
  for (uint64_t p = data; p + 16 <= b.size(); ++p) {
    if (b[p] != 'P' || load_le<uint32_t>(b.data() + p) != kDataDescriptor) continue;
    if (load_le<uint32_t>(b.data() + p + 8) == p - data) return std::pair{p, uint64_t{16}};
    if (p + 24 <= b.size() && load_le<uint64_t>(b.data() + p + 8) == p - data)
      return std::pair{p, uint64_t{24}};
  }
  return std::nullopt;
}

// The members of an archive whose central directory is gone (the file was cut off before its
// end), read from their local headers in file order: every complete stored member (PyTorch
// writes its members stored), up to the first that the end of the file cuts or that cannot be
// delimited. `damage` says what was lost.
std::vector<ZipEntry> recover_members(std::span<const uint8_t> b, std::string& damage) {
  std::vector<ZipEntry> entries;
  // The first local header, past junk such as the ETRecord's 12-byte prefix.
  uint64_t pos = 0;
  const uint64_t search = std::min<uint64_t>(b.size(), 1u << 20);
  while (pos + 4 <= search && load_le<uint32_t>(b.data() + pos) != kLocalHeader) ++pos;
  std::string lost;                // why the walk stopped before the central directory
  uint64_t skipped = 0;            // bytes between members that belong to none
  std::vector<std::string> grown;  // members holding more bytes than their headers say
  size_t open_ended = SIZE_MAX;    // the last member, when its header's size delimited it
  std::vector<std::string> compressed;
  while (pos + 4 <= b.size()) {
    uint32_t sig = load_le<uint32_t>(b.data() + pos);
    if (sig != kLocalHeader && sig != kCentralHeader) {
      // Bytes inserted between members (an edited archive): the next header within 64 KiB.
      const uint64_t from = pos, limit = std::min<uint64_t>(b.size() - 4, pos + (64u << 10));
      while (pos < limit && (sig = load_le<uint32_t>(b.data() + pos)) != kLocalHeader &&
             sig != kCentralHeader)
        ++pos;
      if (sig != kLocalHeader && sig != kCentralHeader) {
        lost = fmt::format("no member header at byte {}", from);
        break;
      }
      // Right after a stored member delimited by its header's size, the bytes are that
      // member's: it was edited after it was zipped (as ZipArchive::salvage_stored reads it).
      if (!entries.empty() && open_ended == entries.size() - 1) {
        ZipEntry& last = entries.back();
        last.size = last.compressed_size = last.size + (pos - from);
        grown.push_back(last.name);
      } else {
        skipped += pos - from;
      }
    }
    open_ended = SIZE_MAX;
    if (sig == kCentralHeader) break;  // every member is here; the directory is what was cut
    if (b.size() - pos < 30) {
      lost = fmt::format("a member header at byte {} is cut off", pos);
      break;
    }
    const uint8_t* h = b.data() + pos;
    const uint16_t flags = load_le<uint16_t>(h + 6);
    ZipEntry e;
    e.method = load_le<uint16_t>(h + 8);
    e.compressed_size = load_le<uint32_t>(h + 18);
    e.size = load_le<uint32_t>(h + 22);
    const uint16_t name_len = load_le<uint16_t>(h + 26);
    const uint16_t extra_len = load_le<uint16_t>(h + 28);
    const uint64_t data = pos + 30ull + name_len + extra_len;
    if (data > b.size()) {
      lost = fmt::format("the member header at byte {} is cut off", pos);
      break;
    }
    e.name.assign(reinterpret_cast<const char*>(h + 30), name_len);
    for (uint64_t x = pos + 30ull + name_len; x + 4 <= data;) {  // zip64 sizes
      const uint16_t id = load_le<uint16_t>(b.data() + x);
      const uint16_t len = load_le<uint16_t>(b.data() + x + 2);
      if (x + 4 + len > data) break;
      if (id == 1 && len >= 16 && e.size == 0xffffffffu) {
        e.size = load_le<uint64_t>(b.data() + x + 4);
        e.compressed_size = load_le<uint64_t>(b.data() + x + 12);
      }
      x += 4ull + len;
    }
    uint64_t end = 0, next = 0;
    if ((flags & 8) && e.compressed_size == 0) {
      const auto d = e.method == 0 ? find_descriptor(b, data) : std::nullopt;
      if (!d) {
        lost = e.method == 0
                   ? fmt::format("member '{}' is cut off (its data runs past the end of the file)",
                                 e.name)
                   : fmt::format(
                         "member '{}' is compressed with its size after its data, which "
                         "cannot be delimited without the directory",
                         e.name);
        break;
      }
      end = d->first;
      next = d->first + d->second;
      e.compressed_size = e.size = end - data;
    } else {
      if (e.compressed_size > b.size() - data) {
        lost = fmt::format("member '{}' is cut off ({} of its {} bytes are there)", e.name,
                           b.size() - data, e.compressed_size);
        break;
      }
      end = data + e.compressed_size;
      next = end;
      if ((flags & 8) && next + 4 <= b.size()) {
        const bool signed_descriptor = load_le<uint32_t>(b.data() + next) == kDataDescriptor;
        next += signed_descriptor ? 16 : 12;
      }
    }
    e.local_header_offset = pos;
    e.index = static_cast<int64_t>(entries.size());
    if (e.method == 0 && e.size == e.compressed_size) {
      e.data_offset = e.stored_data_offset = static_cast<int64_t>(data);
      if (next == end) open_ended = entries.size();
      entries.push_back(std::move(e));
    } else {
      compressed.push_back(e.name);
    }
    pos = next;
  }
  damage = fmt::format(
      "the zip central directory is missing (the file is cut off or damaged at the end): {} "
      "member{} read from their local headers",
      entries.size(), entries.size() == 1 ? "" : "s");
  if (skipped > 0) damage += fmt::format("; {} bytes between members skipped", skipped);
  // A few names, then a count: a hostile file may have thousands.
  for (size_t k = 0; k < grown.size() && k < 3; ++k)
    damage += fmt::format(
        "; member '{}' runs past the size its header states (edited after it was zipped)",
        grown[k]);
  if (grown.size() > 3)
    damage += fmt::format("; {} more members run past their stated sizes", grown.size() - 3);
  if (!lost.empty()) damage += "; " + lost + ", and anything after it is lost";
  if (!compressed.empty())
    damage += fmt::format("; {} compressed members cannot be read without the directory",
                          compressed.size());
  return entries;
}

// Whether the directory found at `at` is the file's own when the file starts with a member:
// it lists that member (bytes inserted into an archive shift its directory, `prefix`, but
// keep its names; the directory of a zip stored inside a member lists other names).
bool directory_lists_first_member(std::span<const uint8_t> bytes,
                                  const detail::ZipDirectoryLocation& at) {
  if (bytes.size() < 30 || load_le<uint32_t>(bytes.data()) != kLocalHeader) return true;
  const uint16_t name_len = load_le<uint16_t>(bytes.data() + 26);
  if (30ull + name_len > bytes.size()) return true;
  const std::string_view first(reinterpret_cast<const char*>(bytes.data() + 30), name_len);
  if (at.prefix > bytes.size() || at.cd_start < at.prefix || at.cd_end < at.cd_start) return true;
  const auto body = bytes.subspan(at.prefix);
  const uint64_t begin = at.cd_start - at.prefix, end = at.cd_end - at.prefix;
  ZipEntry record;
  for (uint64_t pos = begin, next = 0;
       detail::read_central_record(body, pos, end, record, next) == detail::CentralRecord::kOk;
       pos = next)
    if (record.name == first) return true;
  return false;
}

// Reads the members recover_members found: stored bytes, in place.
class RecoveredMembers : public detail::ZipBackend {
 public:
  explicit RecoveredMembers(std::span<const uint8_t> bytes) : bytes_(bytes) {}
  detail::ZipBackendRead read(const ZipEntry& e) override {
    detail::ZipBackendRead r;
    const auto at = static_cast<uint64_t>(e.stored_data_offset);
    if (e.stored_data_offset < 0 || at > bytes_.size() || e.size > bytes_.size() - at) {
      r.failure = detail::ZipReadFailure::kOpen;
      r.why = "its data is not in the file";
      return r;
    }
    r.bytes.assign(reinterpret_cast<const char*>(bytes_.data() + at), e.size);
    return r;
  }

 private:
  std::span<const uint8_t> bytes_;
};

}  // namespace

namespace detail {

CentralRecord read_central_record(std::span<const uint8_t> body, uint64_t pos, uint64_t end,
                                  ZipEntry& e, uint64_t& next) {
  end = std::min<uint64_t>(end, body.size());
  if (pos > end || end - pos < 46) return CentralRecord::kPastEnd;
  const uint8_t* c = body.data() + pos;
  if (load_le<uint32_t>(c) != kCentralHeader) return CentralRecord::kNoSignature;
  const uint16_t name_len = load_le<uint16_t>(c + 28);
  const uint16_t extra_len = load_le<uint16_t>(c + 30);
  const uint16_t comment_len = load_le<uint16_t>(c + 32);
  next = pos + 46ull + name_len + extra_len + comment_len;
  if (next > end) return CentralRecord::kPastEnd;
  e.name.assign(reinterpret_cast<const char*>(c + 46), name_len);
  e.method = load_le<uint16_t>(c + 10);
  e.compressed_size = load_le<uint32_t>(c + 20);
  e.size = load_le<uint32_t>(c + 24);
  e.local_header_offset = load_le<uint32_t>(c + 42);
  // Zip64: the fields stated as 0xffffffff follow in the extra field 0x0001, in this order.
  const uint64_t extra_end = pos + 46ull + name_len + extra_len;
  for (uint64_t x = pos + 46ull + name_len; x + 4 <= extra_end;) {
    const uint16_t id = load_le<uint16_t>(body.data() + x);
    const uint16_t len = load_le<uint16_t>(body.data() + x + 2);
    const uint64_t field_end = x + 4 + len;
    if (field_end > extra_end) break;
    if (id == 1) {
      uint64_t at = x + 4;
      auto take = [&](uint64_t& v) {
        if (v != 0xffffffffu || at + 8 > field_end) return;
        v = load_le<uint64_t>(body.data() + at);
        at += 8;
      };
      take(e.size);
      take(e.compressed_size);
      take(e.local_header_offset);
    }
    x = field_end;
  }
  return CentralRecord::kOk;
}

std::optional<uint64_t> local_data_start(std::span<const uint8_t> body, uint64_t local) {
  if (local > body.size() || body.size() - local < 30 ||
      load_le<uint32_t>(body.data() + local) != kLocalHeader)
    return std::nullopt;
  return local + 30ull + load_le<uint16_t>(body.data() + local + 26) +
         load_le<uint16_t>(body.data() + local + 28);
}

}  // namespace detail

bool looks_like_zip(std::span<const uint8_t> bytes) {
  if (bytes.size() >= 4 && load_le<uint32_t>(bytes.data()) == kLocalHeader) return true;
  return find_eocd(bytes) >= 0;
}

bool ends_with_end_of_central_directory(std::span<const uint8_t> bytes) {
  return find_eocd(bytes, RecordEnd::kAtEnd) >= 0;
}

ZipArchive::~ZipArchive() = default;

namespace detail {

Result<ZipDirectoryLocation> locate_central_directory(std::span<const uint8_t> bytes,
                                                      const std::string& path) {
  const int64_t eocd = find_eocd(bytes);
  if (eocd < 0)
    return Error(
        fmt::format("{}: not a readable zip archive: no end-of-central-directory record "
                    "in the last 64 KiB (truncated?)",
                    path));
  ZipDirectoryLocation at;
  // The central directory ends where the EOCD record starts; its stated offset is relative to the
  // archive's start, so any difference is junk prepended to the archive.
  // A zip64 end record and its 20-byte locator may sit between the directory and the EOCD
  // (PyTorch writes them even for small archives).
  const uint32_t cd_size = load_le<uint32_t>(bytes.data() + eocd + 12);
  at.cd_offset = load_le<uint32_t>(bytes.data() + eocd + 16);
  at.cd_end = static_cast<uint64_t>(eocd);
  if (eocd >= 20 && load_le<uint32_t>(bytes.data() + eocd - 20) == kZip64Locator) {
    const uint64_t stated_record = load_le<uint64_t>(bytes.data() + eocd - 20 + 8);
    // The record is usually 56 bytes; find it just before the locator.
    for (uint64_t back = 56; back <= 56 + 1024 && back + 20 <= static_cast<uint64_t>(eocd);
         ++back) {
      const uint64_t rec = static_cast<uint64_t>(eocd) - 20 - back;
      if (load_le<uint32_t>(bytes.data() + rec) == kZip64Record &&
          load_le<uint64_t>(bytes.data() + rec + 4) + 12 == back) {
        at.cd_end = rec;
        if (rec > stated_record && at.cd_offset == 0xffffffffu) at.prefix = rec - stated_record;
        break;
      }
    }
  }
  if (at.cd_offset != 0xffffffffu && cd_size <= at.cd_end) {
    const uint64_t actual = at.cd_end - cd_size;
    if (actual > at.cd_offset) at.prefix = actual - at.cd_offset;
  }
  at.cd_start = at.cd_end - std::min<uint64_t>(cd_size, at.cd_end);
  return at;
}

}  // namespace detail

Result<std::unique_ptr<ZipArchive>> ZipArchive::open(std::span<const uint8_t> bytes,
                                                     std::string path) {
  std::unique_ptr<ZipArchive> za(new ZipArchive());
  za->path_ = std::move(path);
  za->file_size_ = bytes.size();
  auto at = detail::locate_central_directory(bytes, za->path_);
  // A file that starts with a member but whose last directory describes an archive starting
  // further in has lost its own directory: the one found belongs to a zip stored inside a
  // member (PyTorch stores sample inputs as a torch.save zip), exposed by the cut.
  if (at && at->prefix > 0 && !directory_lists_first_member(bytes, *at))
    at =
        Error(fmt::format("{}: the zip's own central directory is missing (the last one in the "
                          "file belongs to a zip stored inside a member at byte {})",
                          za->path_, at->prefix));
  if (!at) {
    // No directory: the members before the cut are still whole (a download that stopped).
    std::string damage;
    za->entries_ = recover_members(bytes, damage);
    if (za->entries_.empty()) return at.error();
    za->bytes_ = bytes;
    za->cd_start_ = bytes.size();
    za->damage_.push_back(std::move(damage));
    za->backend_ = std::make_unique<RecoveredMembers>(bytes);
    return za;
  }
  za->prefix_ = at->prefix;
  const uint64_t cd_end = at->cd_end;
  const uint32_t cd_offset = at->cd_offset;
  za->bytes_ = bytes;
  za->cd_start_ = at->cd_start;
  const auto body = bytes.subspan(za->prefix_);

  // The directory's extent within `body`, for a backend that reads it itself.
  const uint64_t dir_begin = za->cd_start_ > za->prefix_ ? za->cd_start_ - za->prefix_ : 0;
  const uint64_t dir_end = std::max(dir_begin, cd_end > za->prefix_ ? cd_end - za->prefix_ : 0);
  auto backend = detail::open_zip_backend(body, za->path_, {dir_begin, dir_end}, za->entries_);
  if (!backend) return backend.error();
  za->backend_ = std::move(*backend);

  // Data offsets of entries, from the central directory, so stored weights can be referenced
  // in place without reading them (and the page knows what to inflate). Best effort: a
  // failure only leaves the offset unknown.
  uint64_t pos = cd_offset;
  for (size_t k = 0; k < za->entries_.size(); ++k) {
    ZipEntry record;
    uint64_t next = 0;
    if (detail::read_central_record(body, pos, body.size(), record, next) !=
        detail::CentralRecord::kOk)
      break;
    ZipEntry& e = za->entries_[k];
    if (e.name == record.name) {
      e.local_header_offset = record.local_header_offset;
      const auto data = detail::local_data_start(body, record.local_header_offset);
      const uint64_t stored_bytes = e.method == 0 ? e.size : e.compressed_size;
      if (data && *data <= body.size() && body.size() - *data >= stored_bytes) {
        e.data_offset = static_cast<int64_t>(*data + za->prefix_);
        if (e.method == 0) e.stored_data_offset = e.data_offset;
      }
    }
    pos = next;
  }
  return za;
}

const ZipEntry* ZipArchive::find(std::string_view name) const {
  for (const ZipEntry& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

Result<std::string> ZipArchive::read(const ZipEntry& entry, uint64_t max_bytes) {
  const uint64_t ratio_bound =
      std::max<uint64_t>(entry.compressed_size, 1) * kMaxCompressionRatio + (1u << 16);
  if (entry.size > max_bytes || entry.size > ratio_bound)
    return Error(fmt::format(
        "{}: zip entry '{}' declares {} bytes uncompressed from {} compressed; "
        "refusing (limit {} bytes; a zip bomb?)",
        path_, entry.name, entry.size, entry.compressed_size, std::min(max_bytes, ratio_bound)));
  // The run's budget (core/budget.h), before anything is inflated: the members' declared sizes.
  if (const uint64_t limit = run_budget().inflated_bytes; inflated_total_ + entry.size > limit)
    return over_budget(fmt::format("{}: bytes inflated with zip entry '{}' and the entries "
                                   "before it",
                                   path_, entry.name),
                       inflated_total_ + entry.size, limit, "--max-inflated", true);
  const uint64_t total_bound = file_size_ * kMaxCompressionRatio + (64u << 20);
  if (inflated_total_ + entry.size > total_bound)
    return Error(
        fmt::format("{}: entries inflate to more than {} bytes in total; refusing (a zip bomb?)",
                    path_, total_bound));
  detail::ZipBackendRead r = backend_->read(entry);
  // A stored entry whose local header is not where the directory says is described in the
  // archive's words, not the backend's ("Invalid argument" from libzip), so both builds say
  // the same.
  if (r.failure != detail::ZipReadFailure::kNone && entry.method == 0 &&
      entry.stored_data_offset < 0)
    r.why = "its local header is not where the central directory says";
  if (r.failure == detail::ZipReadFailure::kOpen) {
    if (entry.method == 0) return salvage_stored(entry, r.why);
    return Error(fmt::format("{}: cannot open zip entry '{}': {}", path_, entry.name, r.why));
  }
  if (r.failure == detail::ZipReadFailure::kCorrupt) {
    if (entry.method == 0) return salvage_stored(entry, r.why);
    return Error(fmt::format("{}: zip entry '{}' is corrupt: {}", path_, entry.name, r.why));
  }
  if (r.bytes.size() != entry.size)
    return Error(fmt::format("{}: zip entry '{}' holds {} bytes, its header says {}", path_,
                             entry.name, r.bytes.size(), entry.size));
  if (r.past_declared)
    return Error(fmt::format("{}: zip entry '{}' inflates past its declared {} bytes; refusing",
                             path_, entry.name, entry.size));
  inflated_total_ += entry.size;
  return std::move(r.bytes);
}

Result<std::string> ZipArchive::salvage_stored(const ZipEntry& entry, const std::string& why) {
  // Where each entry's local header really is: the first local header carrying its name.
  auto find_header = [&](const std::string& name, uint64_t from) -> int64_t {
    for (uint64_t i = from; i + 30 <= cd_start_; ++i) {
      if (bytes_[i] != 'P' || load_le<uint32_t>(bytes_.data() + i) != kLocalHeader) continue;
      const uint16_t name_len = load_le<uint16_t>(bytes_.data() + i + 26);
      if (name_len == name.size() && i + 30 + name_len <= bytes_.size() &&
          std::memcmp(bytes_.data() + i + 30, name.data(), name_len) == 0)
        return static_cast<int64_t>(i);
    }
    return -1;
  };
  auto fail = [&](const std::string& detail) {
    return Error(
        fmt::format("{}: zip entry '{}' is corrupt ({}) and {}", path_, entry.name, why, detail));
  };
  const int64_t header = find_header(entry.name, 0);
  if (header < 0) return fail("no local header carries its name");
  const uint64_t h = static_cast<uint64_t>(header);
  const uint64_t data = h + 30 + load_le<uint16_t>(bytes_.data() + h + 26) +
                        load_le<uint16_t>(bytes_.data() + h + 28);
  // The entry that follows it in the file (by stated order) bounds its data.
  uint64_t end = cd_start_;
  const ZipEntry* next = nullptr;
  for (const ZipEntry& e : entries_)
    if (e.local_header_offset > entry.local_header_offset &&
        (!next || e.local_header_offset < next->local_header_offset))
      next = &e;
  if (next) {
    const int64_t n = find_header(next->name, data);
    if (n < 0) return fail("the entry after it cannot be found");
    end = static_cast<uint64_t>(n);
  }
  // Data descriptors (flag bit 3) sit after the data: 12 or 16 bytes, optionally signed.
  if (load_le<uint16_t>(bytes_.data() + h + 6) & 8) {
    if (end >= data + 16 && load_le<uint32_t>(bytes_.data() + end - 16) == 0x08074b50)
      end -= 16;
    else if (end >= data + 12)
      end -= 12;
  }
  if (end < data) return fail("its data cannot be delimited");
  const uint64_t size = end - data;
  if (size > entry.size + (1u << 20) + entry.size / 4)
    return fail(
        fmt::format("the bytes before the next entry ({}) are far more than its declared {}", size,
                    entry.size));
  notes_.push_back(
      fmt::format("zip entry '{}' does not match its headers ({}); read the {} bytes stored "
                  "between its local header "
                  "and the next entry (declared {}): the file was edited after it was zipped",
                  entry.name, why, size, entry.size));
  inflated_total_ += size;
  return std::string(reinterpret_cast<const char*>(bytes_.data() + data), size);
}

void describe_archive(const ZipArchive& zip, Document& doc) {
  for (const std::string& n : zip.notes()) doc.warn(n);
  for (const std::string& d : zip.damage()) doc.damaged(d);
  for (const ZipEntry& e : zip.entries())
    doc.sections.push_back(
        {e.name, e.method == 0 ? "zip entry (stored)" : "zip entry (deflated)",
         e.stored_data_offset >= 0 ? static_cast<uint64_t>(e.stored_data_offset) : 0,
         e.compressed_size});
}

}  // namespace etviz::torch_export
