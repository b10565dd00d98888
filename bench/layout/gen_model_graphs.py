#!/usr/bin/env python3
"""Model-shaped graphs for the layout benchmark, in the ../shared/bench-graphs JSON format.

    bench/layout/gen_model_graphs.py SHAPE NODES OUT_PREFIX [--shared-rope]

Writes OUT_PREFIX.json ({"meta", "nodes": [{id, label, w, h, group}], "edges": [{source,
target}]}) and OUT_PREFIX.dot (the same graph for Graphviz: fixed-size boxes, 20 px node
and rank separation). Deterministic: no randomness at all.

Shapes:
  transformer  Llama-style decoder layers of 44 ops (norm, q/k/v projections, rotary
               embedding on q and k, attention, output projection, residual add, gated
               MLP, residual add); residual edges span each block. --shared-rope computes
               cos/sin once and feeds every layer (very long edges from one source).
  resnet       bottleneck blocks (three conv/bn/relu stages, skip add, downsample at each
               stage start), stages split 3:4:6:3.
  unet         diffusion sampler, the denoising loop unrolled (one step per ~2,000 nodes):
               each step embeds its timestep (sinusoidal, Linear, SiLU, Linear) and the
               embedding feeds every residual block (SiLU, Linear, Unsqueeze x2, Add);
               4 resolution levels of residual blocks with attention at the two lowest,
               and long encoder->decoder skips (one per down block, concatenated in the
               mirrored up block).
  moe          Mixtral-style decoder layers: attention, then a router (Linear, Softmax,
               TopK) fanning out to 8 experts (select, gated MLP, routing-weight mul) and
               a top-2 gather (Stack, Gather, Mul, ReduceSum).
  llm_heads    decoder with attention unrolled per head (16 heads): per head q/k/v slices,
               rotary embedding from cos/sin tables computed once and shared by every
               head of every layer, KV cache inputs per layer (sliced per head,
               concatenated with the new key/value, written back as present outputs), a
               shared attention mask.
  inception    Inception-style modules: 4-6 parallel branches of different depths
               (1x1; 1x1-3x3; 1x1-3x3-3x3; factorised 1x7/7x1 chains; pool-1x1),
               concatenated; grid reductions between stages.
Groups are module paths ("model.layers.7.self_attn"), so --groups runs nest three deep.
Node size: w = 7 px * len(label) + 20, h = 30 (as in ../shared/bench-graphs/gen.py).
"""
import argparse
import json


class Graph:
    def __init__(self):
        self.nodes, self.edges = [], []
        self.ids = set()

    def op(self, nid, label, group, *inputs):
        # Ids must be unique: a repeated id merges two operators into one node (and
        # can close a cycle), which silently changes the graph every engine lays out.
        assert nid not in self.ids, f"duplicate node id {nid}"
        self.ids.add(nid)
        self.nodes.append({"id": nid, "label": label, "w": 7 * len(label) + 20, "h": 30,
                           "group": group})
        self.edges.extend({"source": i, "target": nid} for i in inputs)
        return nid


def decoder_layer(g, i, h, shared):
    p = f"model.layers.{i}"
    a, m = p + ".self_attn", p + ".mlp"
    ln = g.op(p + ".input_layernorm", "RMSNorm", p, h)
    q, k, v = (g.op(f"{a}.{t}_proj", "Linear", a, ln) for t in "qkv")
    q, k, v = (g.op(f"{a}.{t}_reshape", "Reshape", a, x) for t, x in zip("qkv", (q, k, v)))
    q, k, v = (g.op(f"{a}.{t}_transpose", "Transpose", a, x) for t, x in zip("qkv", (q, k, v)))
    if shared:
        cos = g.op(a + ".cos_unsqueeze", "Unsqueeze", a, shared[0])
        sin = g.op(a + ".sin_unsqueeze", "Unsqueeze", a, shared[1])
    else:
        rot = g.op(a + ".rotary_emb", "RotaryEmbedding", a, v)
        cos = g.op(a + ".rotary_emb.cos", "Cos", a, rot)
        sin = g.op(a + ".rotary_emb.sin", "Sin", a, rot)
    rotated = []
    for t, x in (("q", q), ("k", k)):
        mc = g.op(f"{a}.{t}_mul_cos", "Mul", a, x, cos)
        s1 = g.op(f"{a}.{t}_slice1", "Slice", a, x)
        s2 = g.op(f"{a}.{t}_slice2", "Slice", a, x)
        ng = g.op(f"{a}.{t}_neg", "Neg", a, s2)
        ct = g.op(f"{a}.{t}_cat", "Concat", a, ng, s1)
        ms = g.op(f"{a}.{t}_mul_sin", "Mul", a, ct, sin)
        rotated.append(g.op(f"{a}.{t}_rope_add", "Add", a, mc, ms))
    q, k = rotated
    kt = g.op(a + ".k_transpose2", "Transpose", a, k)
    s = g.op(a + ".qk_matmul", "MatMul", a, q, kt)
    for name, label in (("scale", "Div"), ("mask_add", "Add"), ("softmax", "Softmax")):
        s = g.op(f"{a}.{name}", label, a, s)
    o = g.op(a + ".av_matmul", "MatMul", a, s, v)
    o = g.op(a + ".out_transpose", "Transpose", a, o)
    o = g.op(a + ".out_reshape", "Reshape", a, o)
    o = g.op(a + ".o_proj", "Linear", a, o)
    r1 = g.op(p + ".attn_residual", "Add", p, o, h)
    ln2 = g.op(p + ".post_attention_layernorm", "RMSNorm", p, r1)
    gate = g.op(m + ".gate_proj", "Linear", m, ln2)
    up = g.op(m + ".up_proj", "Linear", m, ln2)
    act = g.op(m + ".act_fn", "SiLU", m, gate)
    mul = g.op(m + ".gate_mul", "Mul", m, act, up)
    down = g.op(m + ".down_proj", "Linear", m, mul)
    return g.op(p + ".mlp_residual", "Add", p, down, r1)


def transformer(n, shared_rope):
    g = Graph()
    layers = max(1, round((n - 5) / 44))
    h = g.op("model.embed_tokens", "Embedding", "model", g.op("input_ids", "Input", "model"))
    shared = None
    if shared_rope:
        pos = g.op("position_ids", "Input", "model")
        rot = g.op("model.rotary_emb", "RotaryEmbedding", "model", pos, h)
        shared = (g.op("model.rotary_emb.cos", "Cos", "model", rot),
                  g.op("model.rotary_emb.sin", "Sin", "model", rot))
    for i in range(layers):
        h = decoder_layer(g, i, h, shared)
    h = g.op("model.norm", "RMSNorm", "model", h)
    g.op("logits", "Output", "model", g.op("lm_head", "Linear", "model", h))
    return g


def resnet(n):
    g = Graph()
    blocks = max(4, round((n - 18) / 10))
    per = [max(1, round(blocks * r / 16)) for r in (3, 4, 6, 3)]
    per[2] += blocks - sum(per)
    x = g.op("input", "Input", "stem")
    for name, label in (("conv1", "Conv2d"), ("bn1", "BatchNorm2d"), ("relu", "ReLU"),
                        ("maxpool", "MaxPool2d")):
        x = g.op(name, label, "stem", x)
    for s, count in enumerate(per, 1):
        for b in range(count):
            p = f"layer{s}.{b}"
            skip, y = x, x
            for stage in (1, 2, 3):
                y = g.op(f"{p}.conv{stage}", "Conv2d", p, y)
                y = g.op(f"{p}.bn{stage}", "BatchNorm2d", p, y)
                if stage < 3:
                    y = g.op(f"{p}.relu{stage}", "ReLU", p, y)
            if b == 0:
                skip = g.op(p + ".downsample.0", "Conv2d", p + ".downsample", skip)
                skip = g.op(p + ".downsample.1", "BatchNorm2d", p + ".downsample", skip)
            x = g.op(p + ".relu3", "ReLU", p, g.op(p + ".add", "Add", p, y, skip))
    for name, label in (("avgpool", "AdaptiveAvgPool2d"), ("flatten", "Flatten"),
                        ("fc", "Linear"), ("output", "Output")):
        x = g.op(name, label, "head", x)
    return g


def conv_bn_relu(g, p, x, kind="Conv2d"):
    x = g.op(p + ".conv", kind, p, x)
    x = g.op(p + ".bn", "BatchNorm2d", p, x)
    return g.op(p + ".relu", "ReLU", p, x)


def unet_resblock(g, p, x, temb, skip_conv):
    h = g.op(p + ".norm1", "GroupNorm", p, x)
    h = g.op(p + ".act1", "SiLU", p, h)
    h = g.op(p + ".conv1", "Conv2d", p, h)
    # The time embedding enters every residual block through its own projection.
    t = g.op(p + ".time_act", "SiLU", p, temb)
    t = g.op(p + ".time_emb_proj", "Linear", p, t)
    t = g.op(p + ".time_unsqueeze1", "Unsqueeze", p, t)
    t = g.op(p + ".time_unsqueeze2", "Unsqueeze", p, t)
    h = g.op(p + ".add_time", "Add", p, h, t)
    h = g.op(p + ".norm2", "GroupNorm", p, h)
    h = g.op(p + ".act2", "SiLU", p, h)
    h = g.op(p + ".conv2", "Conv2d", p, h)
    if skip_conv:
        x = g.op(p + ".conv_shortcut", "Conv2d", p, x)
    return g.op(p + ".add_residual", "Add", p, h, x)


def unet_attention(g, p, x):
    h = g.op(p + ".group_norm", "GroupNorm", p, x)
    q, k, v = (g.op(f"{p}.to_{t}", "Linear", p, h) for t in "qkv")
    s = g.op(p + ".qk_matmul", "MatMul", p, q, g.op(p + ".k_transpose", "Transpose", p, k))
    s = g.op(p + ".softmax", "Softmax", p, g.op(p + ".scale", "Mul", p, s))
    o = g.op(p + ".to_out", "Linear", p, g.op(p + ".av_matmul", "MatMul", p, s, v))
    return g.op(p + ".add_residual", "Add", p, o, x)


def unet_step(g, s, x, timesteps, blocks):
    """One U-Net evaluation of the sampling loop; returns the updated latent."""
    p = f"step{s}"
    t = g.op(p + ".timestep", "Select", p, timesteps)
    sin = g.op(p + ".time_proj.sin", "Sin", p + ".time_proj", t)
    cos = g.op(p + ".time_proj.cos", "Cos", p + ".time_proj", t)
    e = g.op(p + ".time_proj.cat", "Concat", p + ".time_proj", sin, cos)
    e = g.op(p + ".time_embedding.linear_1", "Linear", p + ".time_embedding", e)
    e = g.op(p + ".time_embedding.act", "SiLU", p + ".time_embedding", e)
    temb = g.op(p + ".time_embedding.linear_2", "Linear", p + ".time_embedding", e)
    h = g.op(p + ".conv_in", "Conv2d", p, x)
    skips = [h]
    levels = 4
    for lv in range(levels):
        for b in range(blocks):
            q = f"{p}.down_blocks.{lv}"
            h = unet_resblock(g, f"{q}.resnets.{b}", h, temb, b == 0 and lv > 0)
            if lv >= 2:
                h = unet_attention(g, f"{q}.attentions.{b}", h)
            skips.append(h)
        if lv < levels - 1:
            h = g.op(f"{p}.down_blocks.{lv}.downsample", "Conv2d", f"{p}.down_blocks.{lv}", h)
            skips.append(h)
    h = unet_resblock(g, p + ".mid_block.resnets.0", h, temb, False)
    h = unet_attention(g, p + ".mid_block.attentions.0", h)
    h = unet_resblock(g, p + ".mid_block.resnets.1", h, temb, False)
    for lv in reversed(range(levels)):
        q = f"{p}.up_blocks.{levels - 1 - lv}"
        for b in range(blocks + 1):
            # Long encoder -> decoder skip: the mirrored down block's output.
            h = g.op(f"{q}.cat{b}", "Concat", q, h, skips.pop())
            h = unet_resblock(g, f"{q}.resnets.{b}", h, temb, True)
            if lv >= 2:
                h = unet_attention(g, f"{q}.attentions.{b}", h)
        if lv > 0:
            h = g.op(q + ".upsample_interp", "Upsample", q, h)
            h = g.op(q + ".upsample_conv", "Conv2d", q, h)
    h = g.op(p + ".conv_norm_out", "GroupNorm", p, h)
    h = g.op(p + ".conv_act", "SiLU", p, h)
    eps = g.op(p + ".conv_out", "Conv2d", p, h)
    # Scheduler update x <- a_t * x + b_t * eps.
    a = g.op(p + ".scheduler.scale_x", "Mul", p + ".scheduler", x)
    b = g.op(p + ".scheduler.scale_eps", "Mul", p + ".scheduler", eps)
    return g.op(p + ".scheduler.update", "Add", p + ".scheduler", a, b)


def unet(n):
    g = Graph()
    steps = max(1, round(n / 2000))
    per_step = n / steps
    # A step is 141 + 148 * blocks nodes (4 down levels of `blocks` residual blocks, 4 up
    # levels of blocks + 1, attention at the two lowest levels).
    blocks = max(1, round((per_step - 141) / 148))
    x = g.op("latents", "Input", "model")
    timesteps = g.op("timesteps", "Input", "model")
    for s in range(steps):
        x = unet_step(g, s, x, timesteps, blocks)
    g.op("output", "Output", "model", g.op("vae_scale", "Div", "model", x))
    return g


def attention_block(g, p, h, shared=None):
    """Norm + attention + residual, the first half of a decoder layer; returns its output."""
    a = p + ".self_attn"
    ln = g.op(p + ".input_layernorm", "RMSNorm", p, h)
    q, k, v = (g.op(f"{a}.{t}_proj", "Linear", a, ln) for t in "qkv")
    q, k, v = (g.op(f"{a}.{t}_reshape", "Reshape", a, x) for t, x in zip("qkv", (q, k, v)))
    if shared:
        cos, sin = shared
    else:
        rot = g.op(a + ".rotary_emb", "RotaryEmbedding", a, v)
        cos = g.op(a + ".rotary_emb.cos", "Cos", a, rot)
        sin = g.op(a + ".rotary_emb.sin", "Sin", a, rot)
    q, k = (rope(g, a, t, x, cos, sin) for t, x in (("q", q), ("k", k)))
    s = g.op(a + ".qk_matmul", "MatMul", a, q, g.op(a + ".k_transpose", "Transpose", a, k))
    s = g.op(a + ".softmax", "Softmax", a, g.op(a + ".scale", "Div", a, s))
    o = g.op(a + ".av_matmul", "MatMul", a, s, v)
    o = g.op(a + ".o_proj", "Linear", a, g.op(a + ".out_reshape", "Reshape", a, o))
    return g.op(p + ".attn_residual", "Add", p, o, h)


def rope(g, a, t, x, cos, sin):
    mc = g.op(f"{a}.{t}_mul_cos", "Mul", a, x, cos)
    s1 = g.op(f"{a}.{t}_slice1", "Slice", a, x)
    ng = g.op(f"{a}.{t}_neg", "Neg", a, g.op(f"{a}.{t}_slice2", "Slice", a, x))
    ms = g.op(f"{a}.{t}_mul_sin", "Mul", a, g.op(f"{a}.{t}_cat", "Concat", a, ng, s1), sin)
    return g.op(f"{a}.{t}_rope_add", "Add", a, mc, ms)


def moe_layer(g, i, h, experts=8):
    p = f"model.layers.{i}"
    r1 = attention_block(g, p, h)
    m = p + ".block_sparse_moe"
    ln2 = g.op(p + ".post_attention_layernorm", "RMSNorm", p, r1)
    logits = g.op(m + ".gate", "Linear", m, ln2)
    probs = g.op(m + ".softmax", "Softmax", m, logits)
    topk = g.op(m + ".topk", "TopK", m, probs)
    weights = g.op(m + ".topk_weights", "GetItem", m, topk)
    weights = g.op(m + ".renormalize", "Div", m, weights)
    indices = g.op(m + ".topk_indices", "GetItem", m, topk)
    outs = []
    for e in range(experts):
        x = f"{m}.experts.{e}"
        sel = g.op(x + ".select", "Equal", x, indices)
        tok = g.op(x + ".index_select", "IndexSelect", x, ln2, sel)
        gate = g.op(x + ".w1", "Linear", x, tok)
        up = g.op(x + ".w3", "Linear", x, tok)
        act = g.op(x + ".act_fn", "SiLU", x, gate)
        down = g.op(x + ".w2", "Linear", x, g.op(x + ".mul", "Mul", x, act, up))
        outs.append(down)
    stack = g.op(m + ".stack", "Stack", m, *outs)
    top2 = g.op(m + ".gather_top2", "Gather", m, stack, indices)
    y = g.op(m + ".weighted_sum", "ReduceSum", m, g.op(m + ".weight_mul", "Mul", m, top2, weights))
    return g.op(p + ".moe_residual", "Add", p, y, r1)


def moe(n):
    g = Graph()
    layers = max(1, round((n - 5) / 101))
    h = g.op("model.embed_tokens", "Embedding", "model", g.op("input_ids", "Input", "model"))
    for i in range(layers):
        h = moe_layer(g, i, h)
    h = g.op("model.norm", "RMSNorm", "model", h)
    g.op("logits", "Output", "model", g.op("lm_head", "Linear", "model", h))
    return g


def llm_heads_layer(g, i, h, cos, sin, mask, heads):
    p = f"model.layers.{i}"
    a = p + ".self_attn"
    k_cache = g.op(f"past_key_values.{i}.key", "Input", "model")
    v_cache = g.op(f"past_key_values.{i}.value", "Input", "model")
    ln = g.op(p + ".input_layernorm", "RMSNorm", p, h)
    q, k, v = (g.op(f"{a}.{t}_proj", "Linear", a, ln) for t in "qkv")
    outs, keys, values = [], [], []
    for hd in range(heads):
        x = f"{a}.heads.{hd}"
        qh, kh, vh = (g.op(f"{x}.{t}_slice", "Slice", x, src) for t, src in zip("qkv", (q, k, v)))
        qh, kh = (rope(g, x, t, src, cos, sin) for t, src in (("q", qh), ("k", kh)))
        kc = g.op(x + ".k_cache_slice", "Slice", x, k_cache)
        vc = g.op(x + ".v_cache_slice", "Slice", x, v_cache)
        kh = g.op(x + ".k_cache_cat", "Concat", x, kc, kh)
        vh = g.op(x + ".v_cache_cat", "Concat", x, vc, vh)
        keys.append(kh)
        values.append(vh)
        s = g.op(x + ".qk_matmul", "MatMul", x, qh, g.op(x + ".k_transpose", "Transpose", x, kh))
        s = g.op(x + ".mask_add", "Add", x, g.op(x + ".scale", "Div", x, s), mask)
        s = g.op(x + ".softmax", "Softmax", x, s)
        outs.append(g.op(x + ".av_matmul", "MatMul", x, s, vh))
    g.op(f"present.{i}.key", "Output", "model", g.op(a + ".present_key", "Stack", a, *keys))
    g.op(f"present.{i}.value", "Output", "model", g.op(a + ".present_value", "Stack", a, *values))
    o = g.op(a + ".o_proj", "Linear", a, g.op(a + ".heads_cat", "Concat", a, *outs))
    r1 = g.op(p + ".attn_residual", "Add", p, o, h)
    m = p + ".mlp"
    ln2 = g.op(p + ".post_attention_layernorm", "RMSNorm", p, r1)
    gate = g.op(m + ".gate_proj", "Linear", m, ln2)
    up = g.op(m + ".up_proj", "Linear", m, ln2)
    mul = g.op(m + ".gate_mul", "Mul", m, g.op(m + ".act_fn", "SiLU", m, gate), up)
    return g.op(p + ".mlp_residual", "Add", p, g.op(m + ".down_proj", "Linear", m, mul), r1)


def llm_heads(n, heads=16):
    g = Graph()
    per_layer = 28 * heads + 5
    layers = max(1, round((n - 10) / per_layer))
    h = g.op("model.embed_tokens", "Embedding", "model", g.op("input_ids", "Input", "model"))
    pos = g.op("position_ids", "Input", "model")
    rot = g.op("model.rotary_emb", "RotaryEmbedding", "model", pos)
    cos = g.op("model.rotary_emb.cos", "Cos", "model", rot)
    sin = g.op("model.rotary_emb.sin", "Sin", "model", rot)
    mask = g.op("model.causal_mask", "Where", "model", g.op("attention_mask", "Input", "model"))
    for i in range(layers):
        h = llm_heads_layer(g, i, h, cos, sin, mask, heads)
    h = g.op("model.norm", "RMSNorm", "model", h)
    g.op("logits", "Output", "model", g.op("lm_head", "Linear", "model", h))
    return g


def inception_module(g, p, x, branches):
    outs = []
    for b, depth in enumerate(branches):
        q = f"{p}.branch{b}"
        y = x
        if depth == 0:  # pooling branch
            y = g.op(q + ".pool", "AvgPool2d", q, y)
            depth = 1
        for c in range(depth):
            y = conv_bn_relu(g, f"{q}.{c}", y)
        outs.append(y)
    return g.op(p + ".concat", "Concat", p, *outs)


def inception(n):
    g = Graph()
    # Module kinds as in Inception v3: A (4 branches), B (factorised 7x7: 5 branches),
    # C (expanded 3x3 outputs: 6 branches), reductions (3 branches).
    kinds = [("A", (1, 2, 3, 0)), ("A", (1, 2, 3, 0)), ("A", (1, 2, 3, 0)),
             ("RA", (1, 3, 0)), ("B", (1, 3, 5, 0, 2)), ("B", (1, 3, 5, 0, 2)),
             ("B", (1, 3, 5, 0, 2)), ("B", (1, 3, 5, 0, 2)), ("RB", (2, 4, 0)),
             ("C", (1, 2, 2, 3, 3, 0)), ("C", (1, 2, 2, 3, 3, 0))]
    per_pass = sum(3 * sum(max(d, 1) for d in br) + br.count(0) + 1 for _, br in kinds)
    passes = max(1, round((n - 20) / per_pass))
    x = g.op("input", "Input", "stem")
    for c in range(5):
        x = conv_bn_relu(g, f"stem.{c}", x)
    x = g.op("stem.maxpool", "MaxPool2d", "stem", x)
    for r in range(passes):  # deeper variants repeat the module sequence
        for m, (kind, br) in enumerate(kinds):
            x = inception_module(g, f"mixed_{r}_{m}{kind}", x, br)
    for name, label in (("avgpool", "AdaptiveAvgPool2d"), ("dropout", "Dropout"),
                        ("flatten", "Flatten"), ("fc", "Linear"), ("output", "Output")):
        x = g.op(name, label, "head", x)
    return g


def write(g, meta, prefix):
    with open(prefix + ".json", "w") as f:
        json.dump({"meta": meta, "nodes": g.nodes, "edges": g.edges}, f, separators=(",", ":"))
    quote = lambda s: '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'
    sep = 20 / 72
    with open(prefix + ".dot", "w") as f:
        f.write(f"digraph G {{\n  graph [rankdir=TB, nodesep={sep:.4f}, ranksep={sep:.4f}];\n"
                "  node [shape=box, fixedsize=true, fontsize=10];\n")
        for v in g.nodes:
            f.write(f"  {quote(v['id'])} [label={quote(v['label'])}, width={v['w'] / 72:.4f}, "
                    f"height={v['h'] / 72:.4f}];\n")
        for e in g.edges:
            f.write(f"  {quote(e['source'])} -> {quote(e['target'])};\n")
        f.write("}\n")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("shape", choices=["transformer", "resnet", "unet", "moe", "llm_heads",
                                      "inception"])
    ap.add_argument("n", type=int, help="approximate node count")
    ap.add_argument("out", help="output prefix (writes .json and .dot)")
    ap.add_argument("--shared-rope", action="store_true")
    a = ap.parse_args()
    makers = {"transformer": lambda: transformer(a.n, a.shared_rope), "resnet": lambda: resnet(a.n),
              "unet": lambda: unet(a.n), "moe": lambda: moe(a.n),
              "llm_heads": lambda: llm_heads(a.n), "inception": lambda: inception(a.n)}
    g = makers[a.shape]()
    meta = {"shape": a.shape + ("_shared" if a.shared_rope else ""), "target_n": a.n,
            "n_nodes": len(g.nodes), "n_edges": len(g.edges)}
    write(g, meta, a.out)
    print(json.dumps(meta))


if __name__ == "__main__":
    main()
