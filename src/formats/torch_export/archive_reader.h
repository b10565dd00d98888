#pragma once
// Zip-based inputs of the torch.export tool chain: .pt2 archives (the 2024 layout with
// serialized_exported_program.json and the newer models/<name>.json layout) and ETRecords
// (a zip holding an ETRECORD_V0 marker). Which one a zip is comes from its entries, never from
// the file name.
#include <memory>
#include <string_view>

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

// Members the readers never read, only list (their sizes and places show in the size view):
// weights, constants, sample inputs and pickles. In a .pt2 the payloads under data/ (weights,
// constants, sample inputs, compiled code) and the 2024 layout's serialized_state_dict,
// _constants and _example_inputs; in an ETRecord each program's _state_dict, _constants and
// _example_inputs siblings and the pickled representative_inputs, reference_outputs and
// et_dialect_graph_module. The app (docs/app.md) reads a large archive's other members only.
bool is_payload_member(const ZipArchive& zip, std::string_view name);
bool is_pt2_payload(std::string_view name);
bool is_etrecord_payload(std::string_view name);

}  // namespace etviz::torch_export
