#!/usr/bin/python3
"""etviz.trace_model overhead (issue "Live forward-pass tracing"): a model of ~2,000 tensor ops
(500 residual MLP blocks of 4 ops), its plain forward pass vs the traced one, and the page
write apart. Target: tracing under 2x the plain forward time plus the page write.

usage: PYTHONPATH=build/python /usr/bin/python3 bench/python/trace_model.py [--blocks 500]"""
import argparse
import statistics
import time

import torch

import etviz
from etviz import _etviz

ap = argparse.ArgumentParser()
ap.add_argument("--blocks", type=int, default=500)
ap.add_argument("--repeat", type=int, default=5)
args = ap.parse_args()


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Linear(32, 32)
        self.b = torch.nn.Linear(32, 32)

    def forward(self, x):
        return x + self.b(torch.relu(self.a(x))) * 0.5


model = torch.nn.Sequential(*[Block() for _ in range(args.blocks)]).eval()
x = torch.randn(4, 32)


def timed(fn):
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times), result


with torch.no_grad():
    plain, _ = timed(lambda: model(x))
    traced_total, traced = timed(lambda: etviz.trace_model(model, x))
    page, _ = timed(lambda: _etviz.page_html([_etviz.open_bytes("t.json", traced.trace_bytes())], {}))
ops = sum(1 for n in traced.nodes if n["details"]["op"] == "call_function")
record = traced_total - page
print(f"model: {ops} tensor ops, {len(traced.nodes)} nodes")
print(f"  plain forward   {plain * 1000:8.1f} ms")
print(f"  trace_model     {traced_total * 1000:8.1f} ms  (recording {record * 1000:.1f} ms + page {page * 1000:.1f} ms)")
print(f"  recording / plain forward: {record / plain:.1f}x; trace_model / (2 x forward + page): "
      f"{traced_total / (2 * plain + page):.2f}")
