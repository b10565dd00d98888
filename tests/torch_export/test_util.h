#pragma once
#include <filesystem>
#include <fstream>
#include <string>

#include "core/document.h"
#include "core/mapped_file.h"
#include "formats/torch_export/archive_reader.h"

namespace etviz::torch_export::testing {

inline std::string corpus(const std::string& rel) {
  return std::string(ETVIZ_CORPUS_DIR) + "/" + rel;
}

inline const char* kPt2Linear =
    "pt2/pytorch__executorch__extension__pt2_archive__test__linear.6f89131a.pt2";
inline const char* kETRecord =
    "etrecord/pytorch__executorch__examples__devtools__scripts__etrecord.bin";
inline const char* kETRecordJunk =
    "etrecord/pytorch__executorch__examples__dev_tools__scripts__etrecord.747f30de.bin";
inline const char* kETRecordEmpty = "etrecord/NorbertKlockiewicz__kokoro-export__etrecord.bin";

// A scratch directory under the build tree (never next to the corpus).
inline std::string scratch(const std::string& name) {
  auto dir = std::filesystem::path(ETVIZ_BINARY_DIR) / "tests" / "torch_export_scratch";
  std::filesystem::create_directories(dir);
  return (dir / name).string();
}

inline std::string read_all(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
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

inline const Attribute* find_attr(const std::vector<Attribute>& attrs, const std::string& name) {
  for (const auto& a : attrs)
    if (a.name == name) return &a;
  return nullptr;
}

inline const Node* find_op(const Graph& g, const std::string& op) {
  for (const auto& n : g.nodes)
    if (n.op == op) return &n;
  return nullptr;
}

}  // namespace etviz::torch_export::testing
