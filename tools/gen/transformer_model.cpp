#include "transformer_model.h"

#include <string>

#include "xnnpack_payload.h"

namespace etviz::gen {
namespace {

constexpr ScalarType F32 = ScalarType::kFloat32;
constexpr ScalarType I8 = ScalarType::kInt8;
constexpr ScalarType I64 = ScalarType::kInt64;

class BlockWriter {
 public:
  BlockWriter(MethodBuilder& m, const TransformerSpec& spec, int seq)
      : m_(m), spec_(spec), seq_(seq), head_dim_(spec.dim / spec.heads) {
    if (spec.hostile_names) suffix_ = "</script><img src=x onerror=alert(1)>";
  }

  int64_t calls() const { return calls_; }

  ValueIndex kernel(const std::string& op, std::vector<ValueIndex> args, ValueIndex out) {
    args.push_back(out);
    m_.kernel(op, std::move(args));
    ++calls_;
    return out;
  }
  ValueIndex act(std::vector<int32_t> shape, ScalarType t = F32) {
    return m_.tensor(t, std::move(shape));
  }
  ValueIndex weight(const std::string& name, std::vector<int32_t> shape) {
    return m_.constant(F32, std::move(shape), name + suffix_);
  }

  ValueIndex rms_norm(ValueIndex x, const std::string& prefix) {
    auto w = weight(prefix + ".weight", {spec_.dim});
    return kernel("aten::rms_norm.out", {x, m_.int_list({spec_.dim}), w, m_.real(1e-6)},
                  act({1, seq_, spec_.dim}));
  }
  ValueIndex linear(ValueIndex x, const std::string& name, int in, int out) {
    auto w = weight(name + ".weight", {out, in});
    return kernel("aten::linear.out", {x, w, m_.none()}, act({1, seq_, out}));
  }
  ValueIndex qdq(ValueIndex x, std::vector<int32_t> shape) {
    auto scale = m_.real(0.0125), zp = m_.integer(0), lo = m_.integer(-128), hi = m_.integer(127);
    auto q = kernel("quantized_decomposed::quantize_per_tensor.out",
                    {x, scale, zp, lo, hi, m_.integer(1)}, act(shape, I8));
    return kernel("quantized_decomposed::dequantize_per_tensor.out",
                  {q, scale, zp, lo, hi, m_.integer(1), m_.none()}, act(shape));
  }
  // A reshape: a view_copy kernel, or with spec.views what ExecuTorch's emitter makes of a
  // static, memory-planned view: no instruction, a tensor sharing its input's bytes.
  ValueIndex reshape(ValueIndex x, std::vector<int32_t> shape) {
    if (spec_.views) return m_.view(x, shape);
    std::vector<int64_t> sizes(shape.begin(), shape.end());
    return kernel("aten::view_copy.out", {x, m_.int_list(sizes)}, act(shape));
  }

  // One block; `cos`, `sin` and `mask` are shared by every block.
  ValueIndex block(ValueIndex x, int b, ValueIndex cos, ValueIndex sin, ValueIndex mask) {
    const std::string p = "layers." + std::to_string(b);
    const int d = spec_.dim, h = spec_.heads, hd = head_dim_;
    auto n1 = rms_norm(x, p + ".attention_norm");
    auto q = linear(n1, p + ".attention.wq", d, d);
    auto k = linear(n1, p + ".attention.wk", d, d);
    auto v = linear(n1, p + ".attention.wv", d, d);
    if (spec_.views) {
      // A view the runtime makes (executorch_prim::et_view.default): its out shares q's bytes.
      q = kernel("executorch_prim::et_view.default", {q, m_.int_list({1, seq_, h, hd})},
                 m_.view(q, {1, seq_, h, hd}));
    } else {
      q = reshape(q, {1, seq_, h, hd});
    }
    k = reshape(k, {1, seq_, h, hd});
    v = reshape(v, {1, seq_, h, hd});
    auto perm = m_.int_list({0, 2, 1, 3});
    q = kernel("aten::permute_copy.out", {q, perm}, act({1, h, seq_, hd}));
    k = kernel("aten::permute_copy.out", {k, perm}, act({1, h, seq_, hd}));
    v = kernel("aten::permute_copy.out", {v, perm}, act({1, h, seq_, hd}));
    auto rotate = [&](ValueIndex t) {
      auto a = kernel("aten::mul.out", {t, cos}, act({1, h, seq_, hd}));
      auto r = kernel("aten::mul.out", {t, sin}, act({1, h, seq_, hd}));
      return kernel("aten::add.out", {a, r, m_.real(1.0)}, act({1, h, seq_, hd}));
    };
    q = rotate(q);
    k = rotate(k);
    auto kt =
        kernel("aten::permute_copy.out", {k, m_.int_list({0, 1, 3, 2})}, act({1, h, hd, seq_}));
    auto q3 = reshape(q, {h, seq_, hd});
    auto k3 = reshape(kt, {h, hd, seq_});
    auto scores = kernel("aten::bmm.out", {q3, k3}, act({h, seq_, seq_}));
    scores = kernel("aten::mul.out", {scores, m_.real(1.0 / 8.0)}, act({h, seq_, seq_}));
    scores = kernel("aten::add.out", {scores, mask, m_.real(1.0)}, act({h, seq_, seq_}));
    auto probs = kernel("aten::_softmax.out", {scores, m_.integer(-1), m_.boolean(false)},
                        act({h, seq_, seq_}));
    auto v3 = reshape(v, {h, seq_, hd});
    auto attn = kernel("aten::bmm.out", {probs, v3}, act({h, seq_, hd}));
    attn = reshape(attn, {1, h, seq_, hd});
    attn = kernel("aten::permute_copy.out", {attn, perm}, act({1, seq_, h, hd}));
    attn = reshape(attn, {1, seq_, d});
    attn = qdq(attn, {1, seq_, d});
    auto o = linear(attn, p + ".attention.wo", d, d);
    auto h1 = kernel("aten::add.out", {x, o, m_.real(1.0)}, act({1, seq_, d}));
    auto n2 = rms_norm(h1, p + ".ffn_norm");
    ValueIndex ff;
    if (spec_.delegates) {
      // The MLP as one delegate call, as a backend partitioner would lower it.
      int32_t del;
      if (spec_.delegate_backend == "xnnpack") {
        del = m_.add_delegate(
            "XnnpackBackend", {},
            xnnpack_mlp_payload(seq_, d, spec_.hidden, static_cast<uint32_t>(b) * 6));
      } else {
        std::vector<uint8_t> payload(4096 + 64 * static_cast<size_t>(b % 7),
                                     static_cast<uint8_t>(b));
        del =
            m_.add_delegate("ExampleNpuBackend",
                            {{"target", "example-npu-v2"}, {"block", std::to_string(b)}}, payload);
      }
      ff = act({1, seq_, d});
      m_.delegate_call(del, {n2, ff});
      ++calls_;
    } else {
      auto g = linear(n2, p + ".feed_forward.w1", d, spec_.hidden);
      auto u = linear(n2, p + ".feed_forward.w3", d, spec_.hidden);
      g = kernel("aten::silu.out", {g}, act({1, seq_, spec_.hidden}));
      auto gu = kernel("aten::mul.out", {g, u}, act({1, seq_, spec_.hidden}));
      gu = qdq(gu, {1, seq_, spec_.hidden});
      ff = linear(gu, p + ".feed_forward.w2", spec_.hidden, d);
    }
    return kernel("aten::add.out", {h1, ff, m_.real(1.0)}, act({1, seq_, d}));
  }

 private:
  MethodBuilder& m_;
  const TransformerSpec& spec_;
  int seq_;
  int head_dim_;
  std::string suffix_;
  int64_t calls_ = 0;
};

}  // namespace

int64_t build_transformer(ProgramBuilder& program, const TransformerSpec& spec) {
  int64_t calls = 0;
  for (int mi = 0; mi < spec.methods; ++mi) {
    const std::string name = mi == 0 ? "forward" : "prefill_" + std::to_string(mi);
    const int seq = mi == 0 ? 1 : spec.seq;
    MethodBuilder& m = program.method(name);
    BlockWriter w(m, spec, seq);
    auto tokens = m.tensor(I64, {1, seq});
    m.input(tokens);
    auto cos = m.tensor(F32, {1, 1, seq, spec.dim / spec.heads});
    auto sin = m.tensor(F32, {1, 1, seq, spec.dim / spec.heads});
    auto mask = m.tensor(F32, {1, seq, seq});
    m.input(cos);
    m.input(sin);
    m.input(mask);
    auto table = w.weight("tok_embeddings.weight", {spec.vocab, spec.dim});
    auto x =
        w.kernel(spec.hostile_names ? "aten::embedding</script><img src=x onerror=alert(1)>.out"
                                    : "aten::embedding.out",
                 {table, tokens, m.integer(-1), m.boolean(false), m.boolean(false)},
                 w.act({1, seq, spec.dim}));
    for (int b = 0; b < spec.blocks; ++b) x = w.block(x, b, cos, sin, mask);
    x = w.rms_norm(x, "norm");
    auto logits = w.linear(x, "output", spec.dim, spec.vocab);
    m.output(logits);
    calls = w.calls();
  }
  return calls;
}

}  // namespace etviz::gen
