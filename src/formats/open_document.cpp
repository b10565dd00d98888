#include "formats/open_document.h"

#include <fmt/format.h>

#include <cstring>

#include "core/budget.h"
#include "core/bytes.h"
#include "formats/delegates/delegate_decoder.h"
#include "formats/executorch/bundled_program_reader.h"
#include "formats/executorch/flat_tensor_reader.h"
#include "formats/executorch/program_reader.h"
#include "formats/model_explorer/model_explorer_reader.h"
#include "formats/torch_export/archive_reader.h"
#include "formats/tosa/tosa_reader.h"
#include "formats/tosa/tosa_side_files.h"
#include "formats/trace/trace_reader.h"

namespace etviz {

namespace {
bool tag_at(std::span<const uint8_t> b, size_t at, const char* tag) {
  return b.size() >= at + 4 && std::memcmp(b.data() + at, tag, 4) == 0;
}
}  // namespace

FileKind sniff_file_kind(std::span<const uint8_t> head) {
  if (tag_at(head, 4, "BP08") || (head.size() >= 8 && std::memcmp(head.data() + 4, "BP", 2) == 0))
    return FileKind::kBundledProgram;
  if (tag_at(head, 4, "FT01")) return FileKind::kFlatTensor;
  if (tag_at(head, 4, "TOSA")) return FileKind::kTosa;
  if (tag_at(head, 4, "ED00") || tag_at(head, 8, "ED00")) return FileKind::kETDump;
  if (head.size() >= 4 && std::memcmp(head.data(), "PK", 2) == 0) return FileKind::kZip;
  // "ET" plus two characters: ET12 today, ET02 in 2023 pre-releases; the program reader
  // explains which ones it reads.
  if (head.size() >= 8 && head[4] == 'E' && head[5] == 'T') return FileKind::kProgram;
  // A zip with junk before its first local header still ends with its central directory.
  if (torch_export::looks_like_zip(head)) return FileKind::kZip;
  if (trace::looks_like_trace(
          std::string_view(reinterpret_cast<const char*>(head.data()), head.size())))
    return FileKind::kTrace;
  if (model_explorer::looks_like_model_explorer_json(
          std::string_view(reinterpret_cast<const char*>(head.data()), head.size())))
    return FileKind::kModelExplorerJson;
  return FileKind::kUnknown;
}

Result<Document> open_document(const std::string& path, const OpenOptions& options) {
  auto file = MappedFile::open(path);
  if (!file) return file.error();
  return read_document(*file, options);
}

Result<Document> read_document(std::shared_ptr<const MappedFile> file, const OpenOptions& options) {
  const std::string& path = file->path();
  auto bytes = file->bytes();
  Result<Document> doc = Error("unreachable");
  switch (sniff_file_kind(bytes)) {
    case FileKind::kProgram:
      doc = executorch::read_program_file(file);
      break;
    case FileKind::kBundledProgram:
      doc = executorch::read_bundled_program_file(file);
      break;
    case FileKind::kFlatTensor:
      doc = executorch::read_flat_tensor_file(file);
      break;
    case FileKind::kETDump:
      return Error(path + ": this is an ETDump runtime profile; use 'etviz profile " + path + "'");
    case FileKind::kZip:
      doc = torch_export::read_torch_archive(file);
      break;
    case FileKind::kTrace:
      doc = trace::read_trace(file);
      break;
    case FileKind::kModelExplorerJson:
      doc = model_explorer::read_model_explorer_json(file);
      break;
    case FileKind::kTosa:
      doc = tosa::read_tosa_file(file);
      break;
    case FileKind::kUnknown: {
      // The file's own bytes are never quoted: a file etviz did not recognise may be anything
      // (a pass trace can name one), and its bytes would reach a page or a log.
      return Error(fmt::format(
          "{}: not a file etviz recognises ({} bytes); expected an ExecuTorch "
          "program (ET12), bundled program (BP08), FlatTensor data (FT01), ETDump (ED00), a "
          "TOSA graph (TOSA), a zip archive (.pt2, .etrecord), a pass trace (JSON with "
          "\"passes\") or Model Explorer graph JSON (\"graphs\" of \"nodes\")",
          path, bytes.size()));
    }
  }
  if (!doc) return doc;
  // The run's node budget (core/budget.h) for every format; the .pte reader checks before
  // building its graphs, the others once read, and again once side files added theirs.
  auto check_nodes = [&]() -> Status {
    uint64_t nodes = 0;
    for (const Graph& g : doc->graphs) nodes += g.nodes.size();
    if (nodes > run_budget().nodes)
      return over_budget(path + ": graph nodes (all graphs)", nodes, run_budget().nodes,
                         "--max-nodes", false);
    return Status::Ok();
  };
  if (auto s = check_nodes(); !s) return s.error();
  for (const std::string& data : options.data_files) {
    auto ptd = MappedFile::open(data);
    if (!ptd) return ptd.error();
    if (sniff_file_kind((*ptd)->bytes()) != FileKind::kFlatTensor)
      return Error(data + ": --data expects a FlatTensor (.ptd, identifier FT01) file");
    if (auto s = executorch::attach_flat_tensor(*doc, *ptd); !s) return s.error();
  }
  // After --data files are attached: XNNPACK constants may live in a .ptd's named data.
  if (options.decode_delegates) delegates::decode_delegates(*doc);
  // After decoding: a TOSA file describes a delegate whose payload shows no operators.
  if (!options.tosa_files.empty()) {
    if (auto s = tosa::attach_tosa_files(*doc, options.tosa_files); !s) return s.error();
    if (auto s = check_nodes(); !s) return s.error();
  }
  doc->resolve_named_constants();
  return doc;
}

}  // namespace etviz
