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
Groups are module paths ("model.layers.7.self_attn"), so --groups runs nest three deep.
Node size: w = 7 px * len(label) + 20, h = 30 (as in ../shared/bench-graphs/gen.py).
"""
import argparse
import json


class Graph:
    def __init__(self):
        self.nodes, self.edges = [], []

    def op(self, nid, label, group, *inputs):
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
    ap.add_argument("shape", choices=["transformer", "resnet"])
    ap.add_argument("n", type=int, help="approximate node count")
    ap.add_argument("out", help="output prefix (writes .json and .dot)")
    ap.add_argument("--shared-rope", action="store_true")
    a = ap.parse_args()
    g = transformer(a.n, a.shared_rope) if a.shape == "transformer" else resnet(a.n)
    meta = {"shape": a.shape + ("_shared" if a.shared_rope else ""), "target_n": a.n,
            "n_nodes": len(g.nodes), "n_edges": len(g.edges)}
    write(g, meta, a.out)
    print(json.dumps(meta))


if __name__ == "__main__":
    main()
