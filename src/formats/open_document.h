#pragma once
// One entry point for every input: sniffs the format from the bytes (never the extension,
// which is unreliable: real programs ship as .pte, .bin, .ff) and runs the matching reader.
#include <string>
#include <vector>

#include "core/document.h"

namespace etviz {

struct OpenOptions {
  std::vector<std::string> data_files;  // .ptd files holding a program's external tensors
  // TOSA graphs the Arm compiler wrote beside the program, or directories of them (their
  // *.tosa files), each attached to the delegate whose inputs and outputs it matches
  // (formats/tosa/tosa_side_files.h).
  std::vector<std::string> tosa_files;
  bool decode_delegates = true;  // decode backend payloads into subgraphs
};

// What a file looks like, from its first bytes.
enum class FileKind {
  kProgram,
  kBundledProgram,
  kFlatTensor,
  kETDump,
  kZip,
  kTrace,
  kModelExplorerJson,
  kTosa,
  kUnknown
};
FileKind sniff_file_kind(std::span<const uint8_t> head);

Result<Document> open_document(const std::string& path, const OpenOptions& options = {});
// The same for a file already in memory (tests, fuzzers, embedded files).
Result<Document> read_document(std::shared_ptr<const MappedFile> file,
                               const OpenOptions& options = {});

}  // namespace etviz
