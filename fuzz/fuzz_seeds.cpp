// Writes seed inputs for the fuzzers into two folders: exported-program JSON in several schema
// forms and sizes, and .pt2 / .etrecord archives.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "export_model.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    fmt::print(stderr, "usage: fuzz_seeds JSON_DIR ARCHIVE_DIR\n");
    return 2;
  }
  const std::filesystem::path json_dir = argv[1], archive_dir = argv[2];
  std::filesystem::create_directories(json_dir);
  std::filesystem::create_directories(archive_dir);
  int n = 0;
  for (bool schema1 : {false, true})
    for (bool cond : {false, true})
      for (bool symbolic : {false, true}) {
        etviz::gen::ExportModelSpec spec;
        spec.blocks = 1;
        spec.dim = 8;
        spec.hidden = 8;
        spec.schema1_style = schema1;
        spec.with_cond = cond && !schema1;
        spec.symbolic_seq = symbolic;
        spec.debug_handles = symbolic;
        const auto program = etviz::gen::build_export_transformer(spec);
        std::ofstream(json_dir / fmt::format("program_{}.json", n))
            << etviz::gen::write_exported_program_json(program);
        ++n;
      }
  const auto program = etviz::gen::build_export_transformer({.blocks = 1, .dim = 4, .hidden = 4});
  std::string err =
      etviz::gen::write_pt2((archive_dir / "new.pt2").string(), {{"model", program}}, true);
  if (err.empty())
    err = etviz::gen::write_pt2((archive_dir / "old.pt2").string(), {{"model", program}}, false);
  etviz::gen::ExportETRecord rec;
  rec.programs.push_back({"edge_dialect_exported_program", program});
  rec.debug_handle_map_json = R"({"forward": {"0": [1, 2]}})";
  rec.delegate_map_json =
      R"({"forward": {"1": {"name": "XnnpackBackend", "delegate_map": {"0": [3]}}}})";
  if (err.empty())
    err = etviz::gen::write_etrecord((archive_dir / "record.etrecord").string(), rec);
  if (!err.empty()) {
    fmt::print(stderr, "fuzz_seeds: {}\n", err);
    return 1;
  }
  fmt::print(stderr, "fuzz_seeds: {} JSON seeds, 3 archive seeds\n", n);
  return 0;
}
