#!/usr/bin/python3
"""Python vs CLI on the same work (issue "import etviz"): get_delegation_info and visualize on
a generated ~100k-node program, against `etviz delegation --format json` and `etviz FILE -o`
run in the same script. Target: the Python calls within 1.2x of the CLI.

usage: /usr/bin/python3 bench/python/run.py --etviz build/src/cli/etviz \
           --gen build/tools/gen/etviz-gen [--blocks 2400] [--repeat 3]
(run with PYTHONPATH=build/python)"""
import argparse
import os
import statistics
import subprocess
import tempfile
import time

import etviz

ap = argparse.ArgumentParser()
ap.add_argument("--etviz", required=True)
ap.add_argument("--gen", required=True)
ap.add_argument("--blocks", type=int, default=2400)
ap.add_argument("--repeat", type=int, default=3)
args = ap.parse_args()

out = tempfile.mkdtemp(prefix="etviz-bench-python-")
pte = os.path.join(out, "model.pte")
subprocess.run([args.gen, "program", "--blocks", str(args.blocks), "--dim", "16", "--hidden", "32",
                "--vocab", "64", "-o", pte], check=True, capture_output=True)


def best(fn):
    times = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return min(times), statistics.median(times)


def cli(*a):
    subprocess.run([args.etviz, *a], check=True, capture_output=True)


nodes = etviz.open(pte).info()["methods"][0]["node_count"]
rows = [
    ("delegation", best(lambda: cli("delegation", pte, "--format", "json", "-o", os.path.join(out, "d.json")))),
    ("get_delegation_info", best(lambda: etviz.get_delegation_info(pte))),
    ("page (CLI)", best(lambda: cli(pte, "-o", os.path.join(out, "cli.html"), "-q"))),
    ("visualize", best(lambda: etviz.visualize(pte, os.path.join(out, "py.html")))),
]
print(f"program: {nodes} nodes ({args.blocks} blocks), best of {args.repeat}")
for name, (b, m) in rows:
    print(f"  {name:<22} best {b:6.2f} s  median {m:6.2f} s")
print(f"  get_delegation_info / CLI delegation: {rows[1][1][0] / rows[0][1][0]:.2f}x")
print(f"  visualize / CLI page:                 {rows[3][1][0] / rows[2][1][0]:.2f}x")
