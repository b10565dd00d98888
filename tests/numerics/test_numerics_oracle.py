"""`etviz numerics` on generated runs, checked against an independent reading: Debian's flatc
decodes the ETDumps and the program (published schemas), numpy reads each logged tensor from
the debug buffers at the offsets flatc gives and computes ExecuTorch's comparator figures
(MSE mean((a-b)^2), L1 sum|a-b|, SNR 10 log10(mean(a^2)/mean((a-b)^2))) and ours; the first
divergent operator is the first row in execution order whose SNR is under the threshold or
whose NaN/Inf disagree. etviz-gen plants the drift (from an instruction on) and a NaN/Inf.
"""
import json
import math
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest

ETVIZ = os.environ.get("ETVIZ_BIN", "etviz")
GEN = os.environ.get("ETVIZ_GEN", "etviz-gen")
FLATC = os.environ.get("ETVIZ_FLATC", "flatc")
SCHEMAS = Path(os.environ["ETVIZ_SCHEMA_DIR"])

# ExecuTorch ScalarType codes -> numpy dtypes.
SCALAR = {0: np.uint8, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.int64, 5: np.float16,
          6: np.float32, 7: np.float64, 11: np.bool_}


def flatc_json(schema, path, out_dir, size_prefixed=False):
    args = [FLATC, "--json", "--strict-json", "--raw-binary", "--defaults-json"]
    if size_prefixed:
        args.append("--size-prefixed")
    subprocess.run(args + ["-o", str(out_dir), str(schema), "--", str(path)], check=True,
                   capture_output=True)
    return json.loads((out_dir / (path.stem + ".json")).read_text())


def gen(*args):
    subprocess.run([GEN, *map(str, args)], check=True, capture_output=True)


def debug_tensors(etdp, buffer, out_dir):
    """(key, array) per logged tensor of the first Execute run, in the order logged."""
    dump = flatc_json(SCHEMAS / "etdump.fbs", etdp, out_dir, size_prefixed=True)
    raw = np.fromfile(buffer, dtype=np.uint8)
    run = next(r for r in dump["run_data"] if any("debug_event" in e for e in r["events"]))
    out, seen = [], {}
    for e in run["events"]:
        ev = e.get("debug_event")
        if not ev:
            continue
        t = ev["debug_entry"]["tensor"]
        is_out = ev["debug_entry"].get("output", {}).get("bool_val", False)
        key = ("out",) if is_out else (ev["chain_index"], ev["instruction_id"])
        n = seen.get(key, 0)
        seen[key] = n + 1
        dtype = np.dtype(SCALAR[t["scalar_type"]])
        count = int(np.prod(t["sizes"]))
        start = t["offset"]
        data = raw[start:start + count * dtype.itemsize].view(dtype).reshape(t["sizes"])
        out.append(((key, n), ev["instruction_id"], data))
    return out


def quant_params(program):
    """instruction -> (scale, zero point) of quantize/dequantize_per_tensor calls."""
    plan = program["execution_plan"][0]
    values = plan["values"]
    out = {}
    for i, ins in enumerate(plan["chains"][0]["instructions"]):
        if ins.get("instr_args_type") != "KernelCall":
            continue
        op = plan["operators"][ins["instr_args"]["op_index"]]["name"]
        if op.endswith("quantize_per_tensor"):
            args = ins["instr_args"]["args"]
            scale = values[args[1]]["val"]["double_val"]
            zp = values[args[2]]["val"]["int_val"]
            out[i] = (op, scale, zp)
    return out


def figures(a, b):
    a = a.astype(np.float64).reshape(-1)
    b = b.astype(np.float64).reshape(-1)
    fin = np.isfinite(a) & np.isfinite(b)
    mismatch = int(np.count_nonzero(~fin & ~((a == b) | (np.isnan(a) & np.isnan(b)))))
    x, y = a[fin], b[fin]
    d = x - y
    with np.errstate(all="ignore"):
        snr = float(10 * np.log10(np.mean(x**2) / np.mean(d**2))) if np.any(d) else math.inf
    nz = x != 0
    return {
        "mse": float(np.mean(d**2)), "l1": float(np.sum(np.abs(d))), "snr": snr,
        "max_abs": float(np.max(np.abs(d))), "mean_abs": float(np.mean(np.abs(d))),
        "max_rel": float(np.max(np.abs(d[nz]) / np.abs(x[nz]))) if nz.any() else 0.0,
        "cosine": float(np.dot(x, y) / (np.linalg.norm(x) * np.linalg.norm(y))),
        "differing": int(np.count_nonzero(~((a == b) | (np.isnan(a) & np.isnan(b))))),
        "mismatch": mismatch,
    }


def close(ours, theirs):
    if theirs is None or (isinstance(theirs, float) and math.isinf(theirs)):
        return ours in ("inf", "Infinity", None) or (isinstance(ours, float) and math.isinf(ours))
    return math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-12)


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("numerics")
    gen("program", "--blocks", 1, "--dim", 16, "--hidden", 32, "--vocab", 32, "--heads", 2,
        "-o", d / "p.pte")
    gen("etdump", "--program", d / "p.pte", "--runs", 1, "--outputs", "--debug-buffer",
        d / "ref.bin", "-o", d / "ref.etdp")
    gen("etdump", "--program", d / "p.pte", "--runs", 1, "--outputs", "--drift-from", 9,
        "--drift", 0.5, "--nan-at", 30, "--debug-buffer", d / "run.bin", "-o", d / "run.etdp")
    return d


def numerics(d, *extra):
    p = subprocess.run([ETVIZ, "numerics", d / "run.etdp", "--debug-buffer", d / "run.bin",
                        "--reference", d / "ref.etdp", "--reference-debug-buffer",
                        d / "ref.bin", "--format", "json", *map(str, extra)],
                       capture_output=True, text=True, check=True)
    return json.loads(p.stdout)


def expected_rows(d, quant=None):
    ref = debug_tensors(d / "ref.etdp", d / "ref.bin", d)
    run = debug_tensors(d / "run.etdp", d / "run.bin", d)
    ref_by_key = {k: a for k, _, a in ref}
    rows = []
    for key, instr, b in run:
        a = ref_by_key[key]
        if quant and b.dtype.kind in "iu":
            q = quant.get(instr)
            if q is None or not q[0].endswith("::quantize_per_tensor"):
                q = None
            if q:
                a = (a.astype(np.float64) - q[2]) * q[1]
                b = (b.astype(np.float64) - q[2]) * q[1]
        rows.append((instr, figures(a, b)))
    return rows


def check_rows(ours, expected):
    assert len(ours["rows"]) == len(expected)
    for row, (instr, want) in zip(ours["rows"], expected):
        assert row["instruction"] == instr
        assert row["status"] == "compared", row
        for k in ("mse", "l1", "snr", "max_abs", "mean_abs", "max_rel", "cosine"):
            assert close(row[k], want[k]), (instr, k, row[k], want[k])
        assert row["differing"] == want["differing"], instr
        assert row["nonfinite_mismatch"] == want["mismatch"], instr


def first_divergent(expected, snr=20.0):
    for i, (instr, f) in enumerate(expected):
        if f["mismatch"] > 0 or f["snr"] < snr:
            return i, instr
    return None


def test_figures_match_numpy_integer_domain(runs):
    # Without the program, int8 outputs compare as integers.
    ours = numerics(runs)
    expected = expected_rows(runs)
    check_rows(ours, expected)
    i, instr = first_divergent(expected)
    assert ours["first_divergent"]["row"] == i
    assert ours["first_divergent"]["instruction"] == instr


def test_figures_match_numpy_dequantized(runs):
    # With the program, the quantize_per_tensor output is dequantized with its scale and zero
    # point (flatc reads them from the call's arguments) before comparing.
    ours = numerics(runs, "--pte", runs / "p.pte")
    program = flatc_json(SCHEMAS / "program.fbs", runs / "p.pte", runs)
    expected = expected_rows(runs, quant_params(program))
    check_rows(ours, expected)
    assert any(r.get("domain") == "dequantized" for r in ours["rows"])
    i, instr = first_divergent(expected)
    fd = ours["first_divergent"]
    assert (fd["row"], fd["instruction"]) == (i, instr)
    assert fd["op"]  # named from the program


def test_threshold_moves_first_divergent(runs):
    ours = numerics(runs, "--threshold", "max_abs=0.4")
    expected = expected_rows(runs)
    want = next(i for i, (_, f) in enumerate(expected) if f["max_abs"] > 0.4 or f["mismatch"])
    assert ours["first_divergent"]["row"] == want


def test_truncated_debug_buffer_is_named(runs, tmp_path):
    short = tmp_path / "short.bin"
    short.write_bytes((runs / "run.bin").read_bytes()[:1000])
    p = subprocess.run([ETVIZ, "numerics", runs / "run.etdp", "--debug-buffer", short,
                        "--reference", runs / "ref.etdp", "--reference-debug-buffer",
                        runs / "ref.bin", "--format", "json"], capture_output=True, text=True)
    assert p.returncode == 0
    out = json.loads(p.stdout)
    assert any(r["status"] == "missing_data" for r in out["rows"])
    assert "short.bin" in p.stderr


def test_truncated_etdump_fails_cleanly(runs, tmp_path):
    bad = tmp_path / "bad.etdp"
    bad.write_bytes((runs / "run.etdp").read_bytes()[:300])
    p = subprocess.run([ETVIZ, "numerics", bad, "--reference", runs / "ref.etdp"],
                       capture_output=True, text=True)
    assert p.returncode != 0
    assert "bad.etdp" in p.stderr
    assert p.returncode < 128  # an error, not a crash


def test_different_programs_warn(runs, tmp_path):
    gen("program", "--blocks", 2, "--dim", 16, "--hidden", 32, "--vocab", 32, "--heads", 2,
        "-o", tmp_path / "q.pte")
    gen("etdump", "--program", tmp_path / "q.pte", "--runs", 1, "--debug-buffer",
        tmp_path / "q.bin", "-o", tmp_path / "q.etdp")
    p = subprocess.run([ETVIZ, "numerics", runs / "run.etdp", "--debug-buffer", runs / "run.bin",
                        "--reference", tmp_path / "q.etdp", "--reference-debug-buffer",
                        tmp_path / "q.bin", "--format", "json"], capture_output=True, text=True)
    assert p.returncode == 0
    out = json.loads(p.stdout)
    assert out["summary"]["unmatched_reference"] > 0
    assert "different programs" in p.stderr


def test_bundled_reference_takes_the_logged_test_case(runs, tmp_path):
    # etviz-gen's bundles hold placeholder test data ([1, N] floats), so the run's output
    # [1, 1, vocab] is reported as a shape mismatch, not compared; the case is the one the
    # run's bundled_input_index names.
    gen("program", "--blocks", 1, "--dim", 16, "--hidden", 32, "--vocab", 32, "--heads", 2,
        "--bundle", "-o", tmp_path / "b.bpte")
    gen("etdump", "--program", tmp_path / "b.bpte", "--runs", 1, "--outputs",
        "--bundled-input-index", 0, "--debug-buffer", tmp_path / "b.bin", "-o", tmp_path / "b.etdp")
    p = subprocess.run([ETVIZ, "numerics", tmp_path / "b.etdp", "--debug-buffer", tmp_path / "b.bin",
                        "--reference", tmp_path / "b.bpte", "--format", "json"],
                       capture_output=True, text=True, check=True)
    out = json.loads(p.stdout)
    assert out["reference_kind"] == "bundled_program"
    assert "case 0, as the run logged" in out["reference_label"]
    assert [r["status"] for r in out["rows"]] == ["shape_mismatch"]
    assert out["rows"][0]["output"] is True
    # A test case the bundle does not have is an error naming the bundle.
    p = subprocess.run([ETVIZ, "numerics", tmp_path / "b.etdp", "--debug-buffer", tmp_path / "b.bin",
                        "--reference", tmp_path / "b.bpte", "--test-case", "3"],
                       capture_output=True, text=True)
    assert p.returncode != 0 and "b.bpte" in p.stderr


CORPUS = Path(os.environ.get("ETVIZ_CORPUS_DIR", "/work/shared/corpus"))
KWS = "pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte"


def test_constant_statistics_match_numpy(tmp_path):
    """`etviz tensors` against numpy over the constant bytes flatc locates: the extended
    header's segment base, the constant segment's offset and each buffer's offset in it."""
    path = CORPUS / KWS
    raw = path.read_bytes()
    assert raw[8:12] == b"eh00"
    segment_base = int.from_bytes(raw[24:32], "little")
    program = flatc_json(SCHEMAS / "program.fbs", path, tmp_path)
    cs = program["constant_segment"]
    seg_offset = program["segments"][cs["segment_index"]]["offset"]
    values = program["execution_plan"][0]["values"]
    p = subprocess.run([ETVIZ, "tensors", path, "--format", "json"], capture_output=True,
                       text=True, check=True)
    ours = json.loads(p.stdout)["constants"]
    checked = 0
    for c in ours:
        if c["location"] != "constant_segment" or "stats" not in c:
            continue
        t = values[int(c["name"][1:])]["val"]  # etviz names a constant vN: value N
        dtype = np.dtype(SCALAR[t["scalar_type"]])
        n = int(np.prod(t["sizes"]))
        start = segment_base + seg_offset + cs["offsets"][t["data_buffer_idx"]]
        x = np.frombuffer(raw, dtype=dtype, count=n, offset=start).astype(np.float64)
        s = c["stats"]
        assert s["count"] == n
        for k, want in (("min", x.min()), ("max", x.max()), ("mean", x.mean()), ("std", x.std()),
                        ("abs_max", np.abs(x).max())):
            assert math.isclose(s[k], float(want), rel_tol=1e-9, abs_tol=1e-12), (c["name"], k)
        assert s["zeros"] == int((x == 0).sum())
        hist, _ = np.histogram(x, bins=32, range=(x.min(), x.max())) if x.max() > x.min() else (None, None)
        if hist is not None:
            assert s["histogram"] == [int(h) for h in hist], c["name"]
        checked += 1
    assert checked >= 60


def test_csv_carries_the_figures(runs):
    import csv
    import io
    p = subprocess.run([ETVIZ, "numerics", runs / "run.etdp", "--debug-buffer", runs / "run.bin",
                        "--reference", runs / "ref.etdp", "--reference-debug-buffer",
                        runs / "ref.bin", "--format", "csv"], capture_output=True, text=True,
                       check=True)
    rows = list(csv.DictReader(io.StringIO(p.stdout)))
    expected = expected_rows(runs)
    assert len(rows) == len(expected)
    for row, (instr, want) in zip(rows, expected):
        assert int(row["instruction"]) == instr
        for k in ("mse", "l1", "max_abs", "mean_abs", "max_rel"):
            assert math.isclose(float(row[k]), want[k], rel_tol=1e-5, abs_tol=1e-9), (instr, k)
        assert int(row["differing"]) == want["differing"]
