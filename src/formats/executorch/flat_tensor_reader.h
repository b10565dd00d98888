#pragma once
// Reads FlatTensor named-data files (".ptd", identifier "FT01"), both the early-2025 layout
// and the current one, into Document::named_data.
#include <memory>

#include "core/document.h"

namespace etviz::executorch {

Result<Document> read_flat_tensor_file(std::shared_ptr<const MappedFile> file);

// Adds a .ptd to a program's document: its blobs join doc.named_data, and every external
// tensor of the program is checked against them. Missing ones become warnings.
Status attach_flat_tensor(Document& program, std::shared_ptr<const MappedFile> ptd);

}  // namespace etviz::executorch
