#pragma once
// Reads ExecuTorch programs (".pte", identifier "ET12") into the graph IR.
#include <cstdint>
#include <memory>
#include <span>

#include "core/document.h"

namespace etviz::executorch {

// Reads the program that occupies `bytes`, found at `base` within doc.sources[source], and
// appends its methods, delegates, named data and size sections to `doc`. Bundled programs
// use this for the program they embed. Errors name no file; callers add it.
Status read_program_into(Document& doc, int32_t source, uint64_t base,
                         std::span<const uint8_t> bytes);

// Opens a whole .pte file.
Result<Document> read_program_file(std::shared_ptr<const MappedFile> file);

}  // namespace etviz::executorch
