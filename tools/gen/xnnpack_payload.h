#pragma once
// A real XNNPACK delegate payload ("XH00" header + "XN01" graph + constant data) for the
// generator's lowered MLP blocks, so generated programs exercise the XNNPACK decoder and show
// decoded delegate subgraphs, as programs lowered by ExecuTorch's XnnpackPartitioner do.
#include <cstdint>
#include <vector>

namespace etviz::gen {

// SiLU-gated MLP: out = FC(FC(x, w1) * sigmoid(FC(x, w1)) * FC(x, w3), w2), all fp32.
// x and out are [1, seq, dim]; weights are zeros (the generator needs shapes, not values).
// Node debug handles start at `first_debug_handle`.
std::vector<uint8_t> xnnpack_mlp_payload(int seq, int dim, int hidden, uint32_t first_debug_handle);

}  // namespace etviz::gen
