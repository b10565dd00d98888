#include "formats/torch_export/archive_reader.h"

#include <fmt/format.h>

namespace etviz::torch_export {

bool is_etrecord(const ZipArchive& zip) {
  return zip.find("ETRECORD_V0") != nullptr;
}

bool is_payload_member(const ZipArchive& zip, std::string_view name) {
  return is_etrecord(zip) ? is_etrecord_payload(name) : is_pt2_payload(name);
}

namespace {

Result<Document> read_archive(std::shared_ptr<const MappedFile> file, ZipArchive& zip) {
  if (is_etrecord(zip)) return read_etrecord(file, zip);
  for (const ZipEntry& e : zip.entries()) {
    const std::string& n = e.name;
    if (n.ends_with("serialized_exported_program.json") || n.ends_with("archive_format") ||
        (n.find("models/") != std::string::npos && n.ends_with(".json")))
      return read_pt2(file, zip);
  }
  std::string names;
  for (size_t i = 0; i < zip.entries().size() && i < 5; ++i)
    names += (i ? ", " : "") + zip.entries()[i].name;
  return Error(fmt::format(
      "{}: a zip archive, but neither a .pt2 archive (no archive_format, models/*.json or "
      "serialized_exported_program.json) nor an ETRecord (no ETRECORD_V0 entry); it holds {} "
      "entries ({}{})",
      file->path(), zip.entries().size(), names, zip.entries().size() > 5 ? ", ..." : ""));
}

}  // namespace

Result<Document> read_torch_archive(std::shared_ptr<const MappedFile> file) {
  auto zip = ZipArchive::open(file->bytes(), file->path());
  if (!zip) return zip.error();
  auto doc = read_archive(file, **zip);
  // A cut-off archive whose surviving members are not enough: say what was lost, not only
  // what the reader missed.
  if (!doc && !(*zip)->damage().empty())
    return Error(doc.error().message() + " (" + (*zip)->damage().front() + ")");
  return doc;
}

}  // namespace etviz::torch_export
