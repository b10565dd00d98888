#pragma once
#include <filesystem>
#include <fstream>
#include <string>

#include "core/document.h"
#include "core/mapped_file.h"
#include "formats/torch_export/archive_reader.h"
#include "test_support.h"

namespace etviz::torch_export::testing {

using etviz::test::corpus;
using etviz::test::find_attr;

inline const char* kPt2Linear =
    "pt2/pytorch__executorch__extension__pt2_archive__test__linear.6f89131a.pt2";
inline const char* kETRecord =
    "etrecord/pytorch__executorch__examples__devtools__scripts__etrecord.bin";
inline const char* kETRecordJunk =
    "etrecord/pytorch__executorch__examples__dev_tools__scripts__etrecord.747f30de.bin";
inline const char* kETRecordEmpty = "etrecord/NorbertKlockiewicz__kokoro-export__etrecord.bin";

// A scratch file under the build tree (never next to the corpus).
inline std::string scratch(const std::string& name) {
  return etviz::test::scratch_dir("torch_export") + "/" + name;
}

inline std::string read_all(const std::string& path) {
  return etviz::test::read_text(path);
}

inline Result<Document> open_archive(const std::string& path) {
  auto f = MappedFile::open(path);
  if (!f) return f.error();
  return read_torch_archive(*f);
}

inline Result<Document> open_bytes(const std::string& bytes, const std::string& name = "mem.zip") {
  auto f =
      MappedFile::from_bytes(name, {reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
  return read_torch_archive(f);
}

inline const Node* find_op(const Graph& g, const std::string& op) {
  for (const auto& n : g.nodes)
    if (n.op == op) return &n;
  return nullptr;
}

}  // namespace etviz::torch_export::testing
