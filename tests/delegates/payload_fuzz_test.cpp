// Every backend's decoder on damaged copies of a real payload: random bit flips and
// truncations must give either a graph or an error, never a crash, hang or sanitizer report
// (this suite runs under ASan+UBSan). Deterministic seeds keep failures reproducible.
#include <gtest/gtest.h>

#include <random>

#include "formats/delegates/delegate_decoder.h"
#include "test_util.h"

namespace etviz::test {
namespace {

struct Sample {
  const char* file;
  const char* backend;
};

const Sample kSamples[] = {
    {"pte/corey-cole__simple-torch-model__model.pte", "XnnpackBackend"},
    {"pte/pytorch__executorch__xnnpack_add.c6a44d59.ff", "XnnpackBackend"},
    {"pte/corey-cole__executorch-numpy-runtime__tests__models__quantized.pte", "XnnpackBackend"},
    {"pte/Arm-Examples__CMSIS-Executorch__ai_layer__engine__model__ethos_u_minimal_example."
     "0ff7865c.pte",
     "EthosUBackend"},
    {"pte/corey-cole__djl-executorch-engine__src__test__resources__models__openvino__openvino_"
     "tiny.pte",
     "OpenvinoBackend"},
    {"pte/kadu-v__yolox-executorch-ios__engine__models__yolox_nano_coreml.pte", "CoreMLBackend"},
    {"pte/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__"
     "mobilenet_v2_vgf__input.pte",
     "VgfBackend"},
    {"pte/pytorch__executorch__examples__qualcomm__oss_scripts__llama__artifacts__stories260k_"
     "hybrid_llama_qnn.pte",
     "QnnBackend"},
};

TEST(PayloadFuzz, FlipsAndTruncationsNeverCrash) {
  for (const Sample& s : kSamples) {
    Document doc = open_or_die(corpus(s.file));
    const Delegate* del = nullptr;
    for (const Delegate& d : doc.delegates)
      if (d.backend_id == s.backend) del = &d;
    ASSERT_NE(del, nullptr) << s.file;
    const auto original = doc.bytes(del->payload);
    ASSERT_FALSE(original.empty());
    const auto& decoder = delegates::find_decoder(s.backend);
    std::mt19937 rng(42);
    int failures = 0;
    for (int round = 0; round < 24; ++round) {
      std::vector<uint8_t> p(original.begin(), original.end());
      if (round % 4 == 3) {
        p.resize(rng() % p.size());  // truncation
      } else {
        // Flips concentrated in the first 4 KiB (headers, tables) plus a few anywhere.
        for (int k = 0; k < 8; ++k) {
          const size_t span = k < 6 ? std::min<size_t>(p.size(), 4096) : p.size();
          p[rng() % span] ^= static_cast<uint8_t>(1u << (rng() % 8));
        }
      }
      auto g = decoder.decode({doc, *del, p, "fuzz"});
      if (!g) {
        ++failures;
        EXPECT_FALSE(g.error().message().empty());
      } else {
        for (const Node& n : g->nodes) {
          for (const Argument& a : n.inputs) {
            ASSERT_TRUE(a.value >= 0 && static_cast<size_t>(a.value) < g->values.size());
          }
        }
      }
    }
    // Opaque decoders (QNN, OpenVINO summaries) may accept damage; the others must notice some.
    if (std::string(s.backend) == "XnnpackBackend" || std::string(s.backend) == "VgfBackend") {
      EXPECT_GT(failures, 0) << s.file;
    }
  }
}

}  // namespace
}  // namespace etviz::test
