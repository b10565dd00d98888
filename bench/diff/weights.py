"""Value diff speed: two generated programs with ~1 GiB of float32 weights each, a few tensors
changed (etviz-gen program --fill-constants --edit-weights N), diffed by `etviz diff --format
json` and by numpy computing the same figures per constant the way a user would: mapped files,
an equality check first, then max/mean |diff|, max relative difference, cosine, SNR and the
differing count for the tensors that differ. One core each; the files are read once before
timing so both read from the page cache. docs/diff.md, "Speed".

    /usr/bin/python3 bench/diff/weights.py --etviz build/src/cli/etviz \
        --gen build/tools/gen/etviz-gen [--blocks 5 --dim 2048 --hidden 5632] [--dir /tmp/w]
"""

import argparse
import json
import os
import pathlib
import resource
import struct
import subprocess
import time

import numpy as np


def flatc_program(path, schema, out):
    """The program flatbuffer alone (the header says how long it is), decoded by flatc."""
    raw = open(path, "rb").read(64)
    size = struct.unpack_from("<Q", raw, 16)[0] if raw[8:12] == b"eh00" else None
    head = out / (path.stem + ".head.pte")
    with open(path, "rb") as f:
        head.write_bytes(f.read(size))
    subprocess.run(["flatc", "--json", "--strict-json", "--raw-binary", "--defaults-json", "-o",
                    str(out), str(schema), "--", str(head)], check=True, capture_output=True)
    base = struct.unpack_from("<Q", raw, 24)[0]
    return json.loads((out / (head.stem + ".json")).read_text()), base


def constants(program, base):
    seg = program["segments"][program["constant_segment"]["segment_index"]]
    offsets = program["constant_segment"]["offsets"]
    seen = {}
    for plan in program["execution_plan"]:
        for ev in plan["values"]:
            if ev["val_type"] != "Tensor":
                continue
            t = ev["val"]
            if t.get("allocation_info") or t.get("data_buffer_idx", 0) <= 0 or t["scalar_type"] != 6:
                continue
            count = int(np.prod(t["sizes"])) if t["sizes"] else 1
            seen[t["data_buffer_idx"]] = (base + seg["offset"] + offsets[t["data_buffer_idx"]], count)
    return list(seen.values())


def numpy_diff(a_path, b_path, tensors):
    a = np.memmap(a_path, np.uint8, "r")
    b = np.memmap(b_path, np.uint8, "r")
    out = []
    for at, count in tensors:
        x = a[at:at + 4 * count]
        y = b[at:at + 4 * count]
        if np.array_equal(x, y):
            continue
        x = x.view(np.float32).astype(np.float64)
        y = y.view(np.float32).astype(np.float64)
        finite = np.isfinite(x) & np.isfinite(y)
        x, y = x[finite], y[finite]
        d = np.abs(y - x)
        nz = x != 0
        out.append({
            "differing": int(np.count_nonzero(x != y)),
            "max_abs": float(d.max()), "mean_abs": float(d.mean()),
            "max_rel": float((d[nz] / np.abs(x[nz])).max()),
            "cosine": float(np.dot(x, y) / (np.linalg.norm(x) * np.linalg.norm(y))),
            "snr_db": float(10 * np.log10(np.dot(x, x) / np.dot(d, d))),
        })
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--etviz", required=True)
    ap.add_argument("--gen", required=True)
    ap.add_argument("--dir", default="/tmp/etviz-weights-bench")
    ap.add_argument("--blocks", default="5")
    ap.add_argument("--dim", default="2048")
    ap.add_argument("--hidden", default="5632")
    ap.add_argument("--edits", default="4")
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    os.environ["OMP_NUM_THREADS"] = "1"
    out = pathlib.Path(args.dir)
    out.mkdir(parents=True, exist_ok=True)
    shape = ["--blocks", args.blocks, "--dim", args.dim, "--hidden", args.hidden,
             "--heads", "16", "--seq", "8", "--vocab", "4096"]
    a, b = out / "a.pte", out / "b.pte"
    if not a.exists():
        subprocess.run([args.gen, "program", *shape, "--fill-constants", "-o", str(a)], check=True)
    if not b.exists():
        subprocess.run([args.gen, "program", *shape, "--fill-constants", "--edit-weights",
                        args.edits, "-o", str(b)], check=True)
    schema = pathlib.Path(__file__).resolve().parents[2] / "src/formats/executorch/schemas/program.fbs"
    program, base = flatc_program(a, schema, out)
    tensors = constants(program, base)
    weight_bytes = sum(4 * c for _, c in tensors)
    for p in (a, b):  # into the page cache
        with open(p, "rb") as f:
            while f.read(1 << 24):
                pass

    def best(fn):
        times = []
        for _ in range(args.runs):
            t = time.perf_counter()
            r = fn()
            times.append(time.perf_counter() - t)
        return min(times), r

    t_np, figures = best(lambda: numpy_diff(a, b, tensors))

    def etviz():
        return subprocess.run(["taskset", "-c", "0", args.etviz, "diff", str(a), str(b), "--format",
                               "json"], check=True, capture_output=True, text=True).stdout

    t_et, report = best(etviz)
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    j = json.loads(report)
    differ = [t for d in j["diffs"] for t in d["values"]["tensors"] if t["data"] == "differ"]
    print(f"weights: {weight_bytes / 2**30:.2f} GiB per file, {len(tensors)} constants, "
          f"{len(figures)} differ (etviz: {len(differ)})")
    print(f"numpy (mapped, equality first, figures of those that differ): {t_np:.2f} s")
    print(f"etviz diff --format json (one core): {t_et:.2f} s = {t_et / t_np:.2f}x numpy; "
          f"peak RSS of the children {usage.ru_maxrss / 1024:.0f} MiB")
    print(f"bandwidth: {2 * weight_bytes / t_et / 2**30:.1f} GiB/s read by etviz, "
          f"{2 * weight_bytes / t_np / 2**30:.1f} GiB/s by numpy")


if __name__ == "__main__":
    main()
