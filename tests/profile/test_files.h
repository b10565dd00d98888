#pragma once
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "test_support.h"

namespace etviz::testing {

inline std::string corpus_etdump() {
  return std::string(ETVIZ_CORPUS_DIR) +
         "/etdp/pytorch__executorch__docs__source__tutorials_source__etdump.etdp";
}
inline std::string corpus_cnn_bundle() {
  return std::string(ETVIZ_CORPUS_DIR) +
         "/bpte/pytorch__executorch__docs__source__tutorials_source__bundled_program.a59a06e0.bp";
}
inline std::vector<uint8_t> read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}
inline void write_bytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}
// A scratch directory in the build tree (tests never write next to the corpus).
inline std::string scratch_dir() {
  const std::string dir = std::string(ETVIZ_BINARY_DIR) + "/tests/profile/scratch";
  std::filesystem::create_directories(dir);
  return dir;
}

}  // namespace etviz::testing
