// Writes seed inputs for the fuzzers into folders: exported-program JSON in several schema
// forms and sizes, .pt2 / .etrecord archives, and (given a third folder) TOSA flatbuffers:
// partitions of a few layers and a graph with control flow.
#include <fmt/format.h>

#include <filesystem>
#include <fstream>

#include "export_model.h"
#include "tosa_writer.h"

int main(int argc, char** argv) {
  if (argc != 3 && argc != 4) {
    fmt::print(stderr, "usage: fuzz_seeds JSON_DIR ARCHIVE_DIR [TOSA_DIR]\n");
    return 2;
  }
  if (argc == 4) {
    namespace gen = etviz::gen;
    const std::filesystem::path tosa_dir = argv[3];
    std::filesystem::create_directories(tosa_dir);
    auto save = [&](const std::string& name, const std::vector<uint8_t>& bytes) {
      std::ofstream(tosa_dir / name, std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()),
                 static_cast<std::streamsize>(bytes.size()));
    };
    for (int layers : {1, 3})
      save(fmt::format("partition_{}.tosa", layers),
           gen::write_tosa(gen::conv_partition({1, 3, 4, 4}, 8, layers, 1)));
    // COND_IF over two bodies.
    gen::TosaBlockSpec main;
    main.tensors = {{"p", gen::tosa_type::kBool, {1}},
                    {"x", gen::tosa_type::kInt8, {4}},
                    {"y", gen::tosa_type::kInt8, {4}}};
    gen::TosaOpSpec cond(gen::tosa_op::kCondIf, {"p", "x"}, {"y"});
    cond.then_graph = "then";
    cond.else_graph = "else";
    main.ops = {cond};
    main.inputs = {"p", "x"};
    main.outputs = {"y"};
    gen::TosaFileSpec f;
    f.regions.push_back({"main", {main}});
    for (const char* name : {"then", "else"}) {
      gen::TosaBlockSpec b;
      b.name = name;
      b.tensors = {{"a", gen::tosa_type::kInt8, {4}}, {"b", gen::tosa_type::kInt8, {4}}};
      b.ops = {{gen::tosa_op::kIdentity, {"a"}, {"b"}}};
      b.inputs = {"a"};
      b.outputs = {"b"};
      f.regions.push_back({name, {b}});
    }
    save("cond_if.tosa", gen::write_tosa(f));
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
