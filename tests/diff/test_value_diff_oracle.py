"""The value diff against an independent decode (docs/diff.md, "Values and weights").

Pairs of programs with known edits (etviz-gen's --edit-* options; corpus programs copied and a
weight's bytes changed here) are decoded with Debian's flatc and the program schema, their
constants read from the files' bytes with numpy, and every figure `etviz diff --format json`
states is checked against numpy's: which tensors differ, how many elements, max and mean
absolute difference, max relative difference, cosine, SNR, the first differences and their
multi-index; scalar, metadata, version and method changes; the header verdict.
"""

import json
import math
import os
import pathlib
import shutil
import struct
import subprocess

import numpy as np
import pytest

CORPUS = pathlib.Path(os.environ.get("ETVIZ_CORPUS_DIR", ""))
BIN = os.environ.get("ETVIZ_BIN", "")
GEN = os.environ.get("ETVIZ_GEN", "")
FLATC = os.environ.get("ETVIZ_FLATC", "flatc")
SCHEMAS = pathlib.Path(os.environ.get("ETVIZ_SCHEMA_DIR", ""))

# ScalarType -> numpy dtype, for the dtypes a constant here holds.
NUMPY = {0: np.uint8, 1: np.int8, 2: np.int16, 3: np.int32, 4: np.int64, 5: np.float16,
         6: np.float32, 7: np.float64, 11: np.bool_, 12: np.int8, 13: np.uint8, 14: np.int32}
SMALL = ["--blocks", "1", "--dim", "16", "--hidden", "24", "--heads", "2", "--seq", "4",
         "--vocab", "32"]


def flatc_json(schema, path, out_dir):
    out_dir.mkdir(parents=True, exist_ok=True)
    subprocess.run([FLATC, "--json", "--strict-json", "--raw-binary", "--defaults-json",
                    "-o", str(out_dir), str(schema), "--", str(path)],
                   check=True, capture_output=True)
    return json.loads((out_dir / (path.stem + ".json")).read_text())


def segment_base(raw):
    if raw[8:12] == b"eh00":
        return struct.unpack_from("<Q", raw, 24)[0]
    return 0


class Decoded:
    """A program's constants as flatc and numpy read them: per method, fqn -> facts."""

    def __init__(self, path, tmp):
        self.path = path
        self.raw = path.read_bytes()
        self.program = flatc_json(SCHEMAS / "program.fbs", path, tmp / path.stem)
        base = segment_base(self.raw)
        segments = self.program.get("segments", [])
        cs = self.program.get("constant_segment") or {}
        offsets = cs.get("offsets", [])
        seg = segments[cs["segment_index"]] if segments and offsets else None
        self.methods = {}
        for plan in self.program["execution_plan"]:
            tensors = {}
            for i, ev in enumerate(plan["values"]):
                if ev["val_type"] != "Tensor":
                    continue
                t = ev["val"]
                extra = t.get("extra_tensor_info") or {}
                fqn = extra.get("fully_qualified_name") or ""
                idx = t.get("data_buffer_idx", 0)
                if t.get("allocation_info") or idx <= 0:
                    continue
                fqn = fqn or f"#{i}"  # no name in the program: its value index
                dtype = NUMPY.get(t["scalar_type"])
                count = int(np.prod(t["sizes"])) if t["sizes"] else 1
                data = None
                if self.program.get("constant_buffer") and not offsets:
                    data = bytes(self.program["constant_buffer"][idx]["storage"])
                elif seg is not None and dtype is not None:
                    at = base + seg["offset"] + offsets[idx]
                    data = self.raw[at:at + count * np.dtype(dtype).itemsize]
                tensors[fqn] = {"value": i, "tensor": t, "dtype": dtype, "bytes": data,
                                "at": (base + seg["offset"] + offsets[idx]) if seg else None}
            self.methods[plan["name"]] = {"plan": plan, "tensors": tensors}


def etviz_diff(*args, damaged=False):
    """The JSON report; a damaged operand still gets one, and exit 1 (docs/cli.md)."""
    r = subprocess.run([BIN, "diff", *map(str, args), "--format", "json"], capture_output=True,
                       text=True)
    assert r.returncode == (1 if damaged else 0), r.stderr
    return json.loads(r.stdout)


def gen(path, *flags):
    subprocess.run([GEN, "program", *SMALL, "--fill-constants", *flags, "-o", str(path)],
                   check=True, capture_output=True)
    return path


def numpy_figures(a, b, shape, dim_order=None):
    """What a user computes with numpy: the figures etviz states, and the first differences in
    memory order with their logical multi-index."""
    x, y = a.astype(np.float64), b.astype(np.float64)
    # Positions whose numbers differ (NaN against NaN is no difference).
    differ = ~((x == y) | (np.isnan(x) & np.isnan(y)))
    finite = np.isfinite(x) & np.isfinite(y)
    d = np.abs(y[finite] - x[finite])
    xs = x[finite]
    nonzero = xs != 0
    aa, bb2, ab, dd = (xs * xs).sum(), (y[finite] ** 2).sum(), (xs * y[finite]).sum(), (d * d).sum()
    first = np.nonzero(differ)[0][:10]
    # Memory order -> logical index: the physical shape is the sizes in dim order.
    order = dim_order if dim_order is not None else list(range(len(shape)))
    physical = [shape[k] for k in order]
    index = []
    for f in first:
        p = np.unravel_index(int(f), physical)
        logical = [0] * len(shape)
        for k, dim in enumerate(order):
            logical[dim] = int(p[k])
        index.append(logical)
    return {
        "positions": int(a.size), "elements": int(finite.sum()), "differing": int(differ.sum()),
        "max_abs": float(d.max()) if d.size else 0.0,
        "mean_abs": float(d.mean()) if d.size else 0.0,
        "max_rel": float((d[nonzero] / np.abs(xs[nonzero])).max()) if nonzero.any() else 0.0,
        "cosine": float(ab / (math.sqrt(aa) * math.sqrt(bb2))),
        "snr_db": math.inf if dd == 0 else float(10 * math.log10(aa / dd)),
        "nan": {"a": int(np.isnan(x).sum()), "b": int(np.isnan(y).sum())},
        "first": [{"flat": int(f), "index": i} for f, i in zip(first, index)],
    }


def close(ours, theirs, where, rel=1e-5):
    ours = float(ours) if isinstance(ours, str) else ours  # "inf", "-inf", "nan"
    if math.isinf(theirs) or math.isnan(theirs):
        assert str(ours) == str(theirs), f"{where}: etviz {ours}, numpy {theirs}"
        return
    assert ours is not None and math.isclose(ours, theirs, rel_tol=rel, abs_tol=1e-9), \
        f"{where}: etviz {ours}, numpy {theirs}"


def check_tensor(entry, a, b, where):
    """`entry` (a tensors[] item of the JSON) against numpy on the two decoded constants."""
    t = b["tensor"]
    xa = np.frombuffer(a["bytes"], a["dtype"])
    xb = np.frombuffer(b["bytes"], b["dtype"])
    fig = numpy_figures(xa, xb, t["sizes"], t.get("dim_order"))
    s = entry["stats"]
    assert entry["data"] == "differ", where
    assert s["positions"] == fig["positions"], where
    assert s["elements"] == fig["elements"], where
    assert s["differing"] == fig["differing"], where
    for k in ("max_abs", "mean_abs", "max_rel", "cosine", "snr_db"):
        close(s[k], fig[k], f"{where} {k}")
    assert s["nan"] == fig["nan"], where
    assert [f["flat"] for f in s["first"]] == [f["flat"] for f in fig["first"]], where
    assert [f["index"] for f in s["first"]] == [f["index"] for f in fig["first"]], where
    for ours, k in zip(s["first"], fig["first"]):
        close(ours["a"], float(xa[k["flat"]]), f"{where} first a")
        close(ours["b"], float(xb[k["flat"]]), f"{where} first b")


def differing_constants(da, db, method):
    ta, tb = da.methods[method]["tensors"], db.methods[method]["tensors"]
    return sorted(k for k in ta if k in tb and ta[k]["bytes"] != tb[k]["bytes"]
                  and ta[k]["tensor"]["sizes"] == tb[k]["tensor"]["sizes"]
                  and ta[k]["tensor"]["scalar_type"] == tb[k]["tensor"]["scalar_type"])


def method_diff(report, name):
    program = report["programs"][0]
    for m in program["methods"]:
        if m["name"] == name:
            return report["diffs"][m["diff"]]
    raise AssertionError(f"no method {name} in {program['methods']}")


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return gen(tmp_path_factory.mktemp("gen") / "base.pte")


def test_weights_edited_figures_match_numpy(base, tmp_path):
    b = gen(tmp_path / "weights.pte", "--edit-weights", "3", "--edit-nan")
    report = etviz_diff(base, b)
    da, db = Decoded(base, tmp_path / "a"), Decoded(b, tmp_path / "b")
    expected = differing_constants(da, db, "forward")
    assert len(expected) == 3, expected
    values = method_diff(report, "forward")["values"]
    differ = {t["name"]: t for t in values["tensors"] if t["data"] == "differ"}
    assert sorted(differ) == expected
    for name in expected:
        check_tensor(differ[name], da.methods["forward"]["tensors"][name],
                     db.methods["forward"]["tensors"][name], name)
    constants = len(db.methods["forward"]["tensors"])
    assert values["constants"]["compared"] == constants
    assert values["constants"]["differ"] == 3
    assert values["constants"]["equal"] == constants - 3
    program = report["programs"][0]
    assert not program["bitwise_equal"] and not program["same_program"]
    assert program["summary"] == "differs: forward: weights of 3 tensors"
    # The nodes reading them are changed, nothing else is.
    d = method_diff(report, "forward")
    assert d["changed"] == 3 and d["added"] == 0


def test_identical_programs_are_bitwise_equal(base, tmp_path):
    copy = tmp_path / "copy.pte"
    shutil.copy(base, copy)
    program = etviz_diff(base, copy)["programs"][0]
    assert program["bitwise_equal"] and program["same_program"]
    assert program["summary"].startswith("bitwise equal")


def test_the_same_program_laid_out_otherwise(base, tmp_path):
    """A constant segment padded (more bytes, the same constants at the same offsets): not
    bitwise equal, but the same program."""
    b = gen(tmp_path / "padded.pte", "--pad-constants", "64K")
    assert base.read_bytes() != b.read_bytes()
    da, db = Decoded(base, tmp_path / "a"), Decoded(b, tmp_path / "b")
    for name, t in da.methods["forward"]["tensors"].items():
        assert db.methods["forward"]["tensors"][name]["bytes"] == t["bytes"], name
    program = etviz_diff(base, b)["programs"][0]
    assert not program["bitwise_equal"] and program["same_program"]
    assert program["summary"].startswith("same program: ")


def test_a_scalar_changed(base, tmp_path):
    b = gen(tmp_path / "scalar.pte", "--edit-scalar")
    da, db = Decoded(base, tmp_path / "a"), Decoded(b, tmp_path / "b")
    va, vb = da.methods["forward"]["plan"]["values"], db.methods["forward"]["plan"]["values"]
    changed = [i for i in range(len(va)) if va[i] != vb[i]]
    assert len(changed) == 1
    i = changed[0]
    assert va[i]["val_type"] == "Int"
    values = method_diff(etviz_diff(base, b), "forward")["values"]
    assert values["tensors"] == []
    assert [(s["kind"]["a"], s["value"]["a"], s["value"]["b"]) for s in values["scalars"]] == \
        [("int", str(va[i]["val"]["int_val"]), str(vb[i]["val"]["int_val"]))]


@pytest.mark.parametrize("flag,field", [("--edit-sizes", "sizes"),
                                        ("--edit-dim-order", "dim_order"),
                                        ("--edit-storage-offset", "storage_offset")])
def test_tensor_metadata_changed(base, tmp_path, flag, field):
    b = gen(tmp_path / "meta.pte", flag)
    da, db = Decoded(base, tmp_path / "a"), Decoded(b, tmp_path / "b")
    ta, tb = da.methods["forward"]["tensors"], db.methods["forward"]["tensors"]
    flatc_field = {"sizes": "sizes", "dim_order": "dim_order",
                   "storage_offset": "storage_offset"}[field]
    edited = [k for k in ta if ta[k]["tensor"].get(flatc_field) != tb[k]["tensor"].get(flatc_field)]
    assert len(edited) == 1
    name = edited[0]
    report = etviz_diff(base, b)
    values = method_diff(report, "forward")["values"]
    meta = [t for t in values["tensors"] if t["metadata"]]
    assert [t["name"] for t in meta] == [name]
    fields = {m["field"]: (m["a"], m["b"]) for m in meta[0]["metadata"]}
    assert field in fields
    if field == "storage_offset":
        assert fields[field] == (str(ta[name]["tensor"]["storage_offset"]),
                                 str(tb[name]["tensor"]["storage_offset"]))
    if field == "sizes":
        # Another shape: a metadata change, not compared element by element.
        assert meta[0]["data"] == "metadata"
    summary = report["programs"][0]["summary"]
    assert "metadata of 1 tensor" in summary, summary


def test_version_changed(base, tmp_path):
    b = gen(tmp_path / "version.pte", "--version", "7")
    da, db = Decoded(base, tmp_path / "a"), Decoded(b, tmp_path / "b")
    program = etviz_diff(base, b)["programs"][0]
    assert program["version"]["a"] != program["version"]["b"]
    assert str(db.program["version"]) in program["version"]["b"]
    assert str(da.program["version"]) in program["version"]["a"]
    assert program["summary"].startswith("differs: ")


def test_an_operator_swapped(base, tmp_path):
    b = gen(tmp_path / "swap.pte", "--swap-op", "aten::mul.out=aten::div.out")
    db = Decoded(b, tmp_path / "b")
    ops = [o["name"] + "." + o["overload"] for o in db.methods["forward"]["plan"]["operators"]]
    assert "aten::div.out" in ops and "aten::mul.out" not in ops
    da = Decoded(base, tmp_path / "a")
    calls = sum(1 for i in da.methods["forward"]["plan"]["chains"][0]["instructions"]
                if i["instr_args_type"] == "KernelCall"
                and da.methods["forward"]["plan"]["operators"][i["instr_args"]["op_index"]]["name"]
                == "aten::mul")
    report = etviz_diff(base, b)
    d = method_diff(report, "forward")
    assert d["changed"] + d["added"] >= calls > 0
    assert "forward: " in report["programs"][0]["summary"]
    assert method_diff(report, "forward")["values"]["tensors"] == []


def test_a_method_added(base, tmp_path):
    b = gen(tmp_path / "methods.pte", "--methods", "2")
    db = Decoded(b, tmp_path / "b")
    names = [p["name"] for p in db.program["execution_plan"]]
    report = etviz_diff(base, b)
    program = report["programs"][0]
    added = sorted(set(names) - {"forward"})
    assert program["methods_only_in_b"] == added and program["methods_only_in_a"] == []
    assert [m["name"] for m in program["methods"]] == ["forward"]
    assert program["summary"] == "differs: methods only in B: " + ", ".join(added)


def edited_copy(src, dst, name, tmp):
    """A copy of corpus program `src` with constant `name`'s bytes edited: every 3rd float
    element + 1. Returns the decoded original."""
    d = Decoded(src, tmp)
    raw = bytearray(src.read_bytes())
    for m in d.methods.values():
        t = m["tensors"].get(name)
        if t is None:
            continue
        x = np.frombuffer(t["bytes"], t["dtype"]).copy()
        x[::3] += 1
        raw[t["at"]:t["at"] + len(t["bytes"])] = x.tobytes()
        break
    dst.write_bytes(bytes(raw))
    return d


def corpus_pte(fragment):
    found = sorted((CORPUS / "pte").glob(f"*{fragment}*"))
    if not found:
        pytest.skip(f"corpus program *{fragment}* not here")
    return found[0]


def test_corpus_program_with_a_weight_edited(tmp_path):
    src = corpus_pte("stress_mlp.6d3450d6")
    da = Decoded(src, tmp_path / "a")
    floats = [k for k, t in da.methods["forward"]["tensors"].items()
              if t["dtype"] == np.float32 and t["bytes"]]
    name = floats[0]
    dst = tmp_path / "edited.pte"
    edited_copy(src, dst, name, tmp_path / "c")
    db = Decoded(dst, tmp_path / "b")
    report = etviz_diff(src, dst)
    values = method_diff(report, "forward")["values"]
    differ = [t for t in values["tensors"] if t["data"] == "differ"]
    # Value indices are the program's (etviz keeps them), so the tensor is named by both.
    assert [t["b"] for t in differ] == [da.methods["forward"]["tensors"][name]["value"]]
    check_tensor(differ[0], da.methods["forward"]["tensors"][name],
                 db.methods["forward"]["tensors"][name], name)
    assert report["programs"][0]["summary"] == "differs: forward: weights of 1 tensor"


def test_corpus_pte_with_its_ptd(tmp_path):
    pte = corpus_pte("executorch-rs__examples__data_map__model__model")
    ptd = next((CORPUS / "ptd").glob("*data_map__model___default_external_constant.ptd"))
    flat = flatc_json(SCHEMAS / "flat_tensor.fbs", ptd, tmp_path / "ptd")
    raw = bytearray(ptd.read_bytes())
    # The FlatTensor header (FH01 at byte 8): segment base offset at byte 32.
    assert raw[8:12] == b"FH01"
    base = struct.unpack_from("<Q", raw, 32)[0]
    entry = flat["named_data"][0]
    seg = flat["segments"][entry["segment_index"]]
    at = base + seg["offset"]
    before = np.frombuffer(bytes(raw[at:at + seg["size"]]), np.float32).copy()
    after = before.copy()
    after[0] += 2
    raw[at:at + seg["size"]] = after.tobytes()
    edited = tmp_path / "edited.ptd"
    edited.write_bytes(bytes(raw))
    report = etviz_diff(pte, pte, "--data-a", ptd, "--data-b", edited)
    program = report["programs"][0]
    assert not program["bitwise_equal"]
    values = method_diff(report, "forward")["values"]
    differ = [t for t in values["tensors"] if t["data"] == "differ"]
    assert len(differ) == 1, values["tensors"]
    s = differ[0]["stats"]
    assert s["differing"] == 1 and s["positions"] == before.size
    close(s["max_abs"], float(np.float32(after[0]) - np.float32(before[0])), "max_abs")
    assert s["first"][0]["flat"] == 0
    assert differ[0]["location"] in ("external", "named_data"), differ[0]["location"]
    # The .ptd's key is named data too: its bytes differ.
    assert program["named_data"] == [{"key": entry["key"], "change": "bytes differ",
                                      "bytes": {"a": seg["size"], "b": seg["size"]}}]
    assert program["summary"] == "differs: forward: weights of 1 tensor; named data: 1 key"
    # The same weights on both sides: the same program.
    same = etviz_diff(pte, pte, "--data", ptd)["programs"][0]
    assert same["bitwise_equal"]
    # Without A's weights its constants are named, not compared.
    bare = etviz_diff(pte, pte, "--data-b", edited)
    values = method_diff(bare, "forward")["values"]
    n = values["constants"]["unavailable"]
    assert n >= 1
    assert all("not given" in t["note"] for t in values["tensors"] if t["data"] == "unavailable")
    assert f"{n} constant{'s' if n > 1 else ''} not compared (bytes not reachable)" in \
        bare["programs"][0]["summary"]


def test_a_truncated_segment_is_named_and_the_rest_compared(base, tmp_path):
    raw = base.read_bytes()
    cut = tmp_path / "cut.pte"
    cut.write_bytes(raw[:-300])
    d = Decoded(base, tmp_path / "a")
    report = etviz_diff(base, cut, damaged=True)
    program = report["programs"][0]
    assert any("300 of its bytes are missing" in x for x in program["damaged"]), program["damaged"]
    values = method_diff(report, "forward")["values"]
    # The constants wholly before the cut compare equal; the one the cut runs through is named,
    # compared over the bytes both hold.
    end = len(raw) - 300
    inside = [k for k, t in d.methods["forward"]["tensors"].items()
              if t["at"] + len(t["bytes"]) > end]
    assert len(inside) == 1
    [t] = [t for t in values["tensors"] if t["data"] == "differ"]
    assert t["name"] == inside[0]
    held = end - d.methods["forward"]["tensors"][inside[0]]["at"]
    assert t["bytes"]["b"] == held and "cut off" in t["note"]
    assert t["stats"]["positions"] == held // 4 and t["stats"]["differing"] == 0
    assert values["constants"]["equal"] == len(d.methods["forward"]["tensors"]) - 1


def test_unrelated_programs_diff_quickly(tmp_path):
    a = corpus_pte("stress_mlp.6d3450d6")
    b = corpus_pte("KeywordSpotting__model")
    report = etviz_diff(a, b)
    assert report["programs"][0]["summary"].startswith("differs: ")


def test_a_constant_inside_an_xnnpack_payload(tmp_path):
    """The generator's XNNPACK payloads hold their weights after the XN01 graph (XH00 header:
    constant data offset at byte 18, size at 22, from the payload's start). One float of the
    first constant edited: the decoded payloads' diff names it with numpy's figures."""
    a = gen(tmp_path / "x.pte", "--delegates", "--delegate-backend", "xnnpack")
    d = Decoded(a, tmp_path / "a")
    raw = bytearray(a.read_bytes())
    delegate = d.methods["forward"]["plan"]["delegates"][0]
    assert delegate["id"] == "XnnpackBackend" and delegate["processed"]["location"] == 1
    at = segment_base(raw) + d.program["segments"][delegate["processed"]["index"]]["offset"]
    assert raw[at + 4:at + 8] == b"XH00"
    constants_at = at + struct.unpack_from("<I", raw, at + 18)[0]
    before = struct.unpack_from("<f", raw, constants_at + 4)[0]
    struct.pack_into("<f", raw, constants_at + 4, before + 1.5)
    b = tmp_path / "y.pte"
    b.write_bytes(bytes(raw))
    report = etviz_diff(a, b)
    assert report["programs"][0]["summary"] == \
        "differs: forward: weights of 1 tensor, 1 delegate payload"
    values = method_diff(report, "forward")["values"]
    assert [t for t in values["tensors"] if t["data"] == "differ"] == []
    [nested] = [n for n in values["nested"] if n["values"]["constants"]["differ"]]
    [t] = [t for t in nested["values"]["tensors"] if t["data"] == "differ"]
    s = t["stats"]
    assert s["differing"] == 1 and s["first"][0]["flat"] == 1
    close(s["max_abs"], 1.5, "max_abs")
    close(s["first"][0]["a"], before, "a")
    # The delegate call is the node marked.
    [change] = method_diff(report, "forward")["changes"]
    assert change["b"].startswith("XnnpackBackend")


def test_a_pt2_state_dict_weight_edited(tmp_path):
    """A .pt2's weights (data/weights/*, stored members) compare like a program's constants."""
    import zipfile
    found = sorted((CORPUS / "pt2").glob("*.pt2"))
    if not found:
        pytest.skip("no .pt2 in the corpus")
    src = found[0]
    dst = tmp_path / "edited.pt2"
    edited = None
    with zipfile.ZipFile(src) as z, zipfile.ZipFile(dst, "w", zipfile.ZIP_STORED) as out:
        for info in z.infolist():
            data = z.read(info.filename)
            if edited is None and "/data/weights/weight_" in info.filename:
                before = np.frombuffer(data, np.float32).copy()
                after = before.copy()
                after[2] += 0.5
                data = after.tobytes()
                edited = (before, after)
            out.writestr(info, data)
    assert edited is not None
    report = etviz_diff(src, dst)
    [d] = report["diffs"]
    [t] = [t for t in d["values"]["tensors"] if t["data"] == "differ"]
    fig = numpy_figures(edited[0], edited[1], [edited[0].size])
    assert t["stats"]["differing"] == fig["differing"] == 1
    for k in ("max_abs", "mean_abs", "max_rel", "cosine", "snr_db"):
        close(t["stats"][k], fig[k], k)
    assert d["changed"] == 1
