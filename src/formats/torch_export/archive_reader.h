#pragma once
// Zip-based inputs of the torch.export tool chain: .pt2 archives (the 2024 layout with
// serialized_exported_program.json and the newer models/<name>.json layout) and ETRecords
// (a zip holding an ETRECORD_V0 marker). Which one a zip is comes from its entries, never from
// the file name.
#include <memory>

#include "core/document.h"
#include "core/mapped_file.h"
#include "formats/torch_export/zip_archive.h"

namespace etviz::torch_export {

// Opens any zip the tool chain writes; fails with a clear message for other zips.
Result<Document> read_torch_archive(std::shared_ptr<const MappedFile> file);

Result<Document> read_pt2(std::shared_ptr<const MappedFile> file, ZipArchive& zip);
Result<Document> read_etrecord(std::shared_ptr<const MappedFile> file, ZipArchive& zip);

// Whether the archive is an ETRecord (has an ETRECORD_V0 entry at its root).
bool is_etrecord(const ZipArchive& zip);

}  // namespace etviz::torch_export
