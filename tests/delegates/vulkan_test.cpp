// Vulkan payloads: no corpus sample exists, so these build VH00 + VK00 payloads with the
// FlatBuffers builder (the layout ExecuTorch's vulkan_graph_builder writes) and decode them.
#include <gtest/gtest.h>

#include <cstring>

#include "formats/delegates/delegate_decoder.h"
#include "test_util.h"
#include "vulkan_generated.h"

namespace etviz::test {
namespace {

namespace vk = etviz::vk;

// conv-like graph: out = aten.add.Tensor(x, weight, alpha=1); weight is constant 0.
std::vector<uint8_t> make_payload(bool named_weight, uint64_t constant_length = 16) {
  flatbuffers::FlatBufferBuilder fbb;
  auto dims = fbb.CreateVector<uint32_t>({1, 4});
  auto x = vk::CreateTensor(fbb, 5, dims, -1, 0);
  auto w = vk::CreateTensor(fbb, 5, fbb.CreateVector<uint32_t>({1, 4}), 0, -1);
  auto alpha = vk::CreateInt(fbb, 1);
  auto out = vk::CreateTensor(fbb, 5, fbb.CreateVector<uint32_t>({1, 4}), -1, 1);
  std::vector<flatbuffers::Offset<vk::Value>> values = {
      vk::CreateValue(fbb, vk::GraphTypes::Tensor, x.Union()),
      vk::CreateValue(fbb, vk::GraphTypes::Tensor, w.Union()),
      vk::CreateValue(fbb, vk::GraphTypes::Int, alpha.Union()),
      vk::CreateValue(fbb, vk::GraphTypes::Tensor, out.Union()),
  };
  auto call = vk::CreateOperatorCall(fbb, 7, fbb.CreateString("aten.add.Tensor"),
                                     fbb.CreateVector<int32_t>({0, 1, 2, 3}));
  auto constant = named_weight
                      ? vk::CreateBytes(fbb, UINT64_MAX, 16, fbb.CreateString("weight_key"))
                      : vk::CreateBytes(fbb, 0, constant_length);
  auto graph =
      vk::CreateGraph(fbb, fbb.CreateString("0"), fbb.CreateVector(std::vector{call}),
                      fbb.CreateVector(values), fbb.CreateVector<uint32_t>({0}),
                      fbb.CreateVector<uint32_t>({3}), fbb.CreateVector(std::vector{constant}));
  fbb.Finish(graph, "VK00");
  const uint32_t fb_size = fbb.GetSize();
  const uint32_t fb_offset = 32;
  const uint32_t bytes_offset = fb_offset + ((fb_size + 15) / 16) * 16;
  const uint64_t bytes_size = 16;
  std::vector<uint8_t> p(bytes_offset + bytes_size, 0);
  std::memcpy(p.data() + 4, "VH00", 4);
  const uint16_t header_length = 30;
  std::memcpy(p.data() + 8, &header_length, 2);
  std::memcpy(p.data() + 10, &fb_offset, 4);
  std::memcpy(p.data() + 14, &fb_size, 4);
  std::memcpy(p.data() + 18, &bytes_offset, 4);
  std::memcpy(p.data() + 22, &bytes_size, 8);
  std::memcpy(p.data() + fb_offset, fbb.GetBufferPointer(), fb_size);
  return p;
}

TEST(Vulkan, GeneratedPayloadDecodes) {
  Document doc;
  Delegate del;
  del.backend_id = "VulkanBackend";
  const auto p = make_payload(false);
  auto g =
      delegates::find_decoder("VulkanBackend").decode({doc, del, p, "forward/VulkanBackend#0"});
  ASSERT_TRUE(g) << g.error().message();
  EXPECT_EQ(op_histogram(*g), (std::map<std::string, int>{{"aten.add.Tensor", 1}}));
  ASSERT_EQ(g->inputs.size(), 1u);
  ASSERT_EQ(g->outputs.size(), 1u);
  EXPECT_EQ(g->values[g->inputs[0]].tensor.shape_string(), "[1, 4]");
  EXPECT_EQ(g->values[g->inputs[0]].tensor.dtype, "float32");
  EXPECT_EQ(g->values[1].tensor.data_location, DataLocation::kInline);
  EXPECT_EQ(g->values[1].tensor.nbytes, 16);
  EXPECT_EQ(g->values[2].kind, ValueKind::kInt);
  EXPECT_EQ(g->values[2].literal, "1");
  for (const Node& n : g->nodes)
    if (n.op == "aten.add.Tensor") {
      EXPECT_EQ(n.inputs.size(), 3u);
      EXPECT_EQ(n.outputs.size(), 1u);
      EXPECT_EQ(n.provenance.debug_handles, std::vector<int64_t>{7});
    }
}

TEST(Vulkan, NamedConstantAndBadOffsets) {
  Document doc;
  Delegate del;
  del.backend_id = "VulkanBackend";
  const auto named = make_payload(true);
  auto g = delegates::find_decoder("VulkanBackend").decode({doc, del, named, "m/VulkanBackend#0"});
  ASSERT_TRUE(g) << g.error().message();
  EXPECT_EQ(g->values[1].tensor.data_location, DataLocation::kNamedData);
  EXPECT_EQ(g->values[1].tensor.data_key, "weight_key");

  const auto too_long = make_payload(false, 1000);
  auto bad =
      delegates::find_decoder("VulkanBackend").decode({doc, del, too_long, "m/VulkanBackend#0"});
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().message().find("outside the 16 constant bytes"), std::string::npos)
      << bad.error().message();

  auto truncated = make_payload(false);
  truncated.resize(40);
  EXPECT_FALSE(delegates::find_decoder("VulkanBackend").decode({doc, del, truncated, "m/V#0"}));
  auto flipped = make_payload(false);
  for (size_t i = 32; i < 40; ++i) flipped[i] ^= 0xA5;
  EXPECT_FALSE(delegates::find_decoder("VulkanBackend").decode({doc, del, flipped, "m/V#0"}));
}

}  // namespace
}  // namespace etviz::test
