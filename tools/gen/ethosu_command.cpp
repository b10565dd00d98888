#include "ethosu_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>

#include "program_builder.h"
#include "tosa_writer.h"

namespace etviz::gen {
namespace {

bool write_file(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return false;
  const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
  return std::fclose(f) == 0 && ok;
}

}  // namespace

std::vector<std::string> write_ethosu_program(const std::string& dir, const EthosuSpec& spec,
                                              std::string& error) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::vector<std::string> written{(std::filesystem::path(dir) / "program.pte").string()};
  ProgramBuilder builder;
  MethodBuilder& m = builder.method("forward");
  // Channels per partition boundary: all different, so every file matches one delegate.
  auto channels = [](int k) { return k == 0 ? 3 : 8 + 4 * k; };
  ValueIndex x = m.tensor(ScalarType::kInt8, {1, channels(0), spec.height, spec.width});
  m.input(x);
  for (int k = 0; k < spec.delegates; ++k) {
    const std::vector<int32_t> in{1, channels(k), spec.height, spec.width};
    const std::vector<int32_t> out{1, channels(k + 1), spec.height, spec.width};
    const int32_t d = m.add_delegate(
        "EthosUBackend",
        {{"compile_flags", "--accelerator-config=ethos-u55-128"}, {"output_format", "vela"}},
        vela_stream({in}, {out}, 4 * spec.layers));
    const ValueIndex y = m.tensor(ScalarType::kInt8, out);
    m.delegate_call(d, {x, y});
    // Between partitions, an operator the NPU does not take runs on the CPU.
    const ValueIndex z = m.tensor(ScalarType::kInt8, out);
    m.kernel("aten::clone.out", {y, m.none(), z});
    x = z;
    const std::string tosa = (std::filesystem::path(dir) /
                              fmt::format("output_tag{}_TOSA-1.0+INT+u55.tosa", spec.delegates - k))
                                 .string();
    if (!write_file(tosa, write_tosa(conv_partition(in, channels(k + 1), spec.layers,
                                                    static_cast<uint32_t>(k))))) {
      error = "cannot write " + tosa;
      return {};
    }
    written.push_back(tosa);
  }
  m.output(x);
  if (spec.decoy) {
    // Same structure, an input shape no delegate has.
    const std::string decoy = (std::filesystem::path(dir) / "decoy_TOSA-1.0+INT.tosa").string();
    if (!write_file(decoy, write_tosa(conv_partition({1, 5, 7, 7}, 6, 2, 99)))) {
      error = "cannot write " + decoy;
      return {};
    }
    written.push_back(decoy);
  }
  if (!builder.write(written[0], WriteOptions{}, error)) return {};
  return written;
}

void register_ethosu_command(CLI::App& app) {
  auto spec = std::make_shared<EthosuSpec>();
  auto dir = std::make_shared<std::string>();
  CLI::App* cmd = app.add_subcommand(
      "ethosu",
      "A program fragmented into Ethos-U delegates, with each partition's TOSA file beside it");
  cmd->add_option("--delegates", spec->delegates, "Ethos-U delegates (partitions)")
      ->check(CLI::Range(1, 10000));
  cmd->add_option("--layers", spec->layers, "Conv layers per partition (11 TOSA operators each)")
      ->check(CLI::Range(1, 100000));
  cmd->add_option("--height", spec->height, "Activation height")->check(CLI::Range(1, 4096));
  cmd->add_option("--width", spec->width, "Activation width")->check(CLI::Range(1, 4096));
  cmd->add_flag("--decoy", spec->decoy, "Also write a TOSA file that matches no delegate");
  cmd->add_option("-o,--output", *dir, "Directory to write program.pte and the .tosa files")
      ->required();
  cmd->callback([spec, dir] {
    std::string error;
    const auto written = write_ethosu_program(*dir, *spec, error);
    if (written.empty()) {
      fmt::print(stderr, "etviz-gen: error: {}\n", error);
      std::exit(1);
    }
    fmt::print(stderr, "etviz-gen: wrote {} and {} TOSA files\n", written[0], written.size() - 1);
  });
}

}  // namespace etviz::gen
