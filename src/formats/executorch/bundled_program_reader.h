#pragma once
// Reads bundled programs (".bpte", identifier "BP08"): the embedded program plus its test
// suites (inputs and expected outputs per method).
#include <memory>

#include "core/document.h"

namespace etviz::executorch {

Result<Document> read_bundled_program_file(std::shared_ptr<const MappedFile> file);

}  // namespace etviz::executorch
