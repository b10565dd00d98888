"""Inspector.calculate_numeric_gap on generated runs with a planted drift and NaN: the gap
figures are numpy's over the arrays the DataFrame exposes (mapped from the debug buffers at the
offsets `etviz numerics` reads; tests/numerics checks those offsets against flatc)."""
import os
import subprocess

import numpy as np
import pytest

import etviz

GEN = os.environ.get("ETVIZ_GEN", "etviz-gen")


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    d = tmp_path_factory.mktemp("numerics")
    def gen(*args):
        subprocess.run([GEN, *map(str, args)], check=True, capture_output=True)
    gen("program", "--blocks", 1, "--dim", 16, "--hidden", 32, "--vocab", 32, "--heads", 2,
        "-o", d / "p.pte")
    common = ["etdump", "--program", d / "p.pte", "--runs", 1, "--outputs"]
    gen(*common, "--debug-buffer", d / "ref.bin", "-o", d / "ref.etdp")
    gen(*common, "--drift-from", 9, "--nan-at", 30, "--debug-buffer", d / "run.bin",
        "-o", d / "run.etdp")
    return d


def test_calculate_numeric_gap_is_numpy(runs):
    run = etviz.Inspector(etdump_path=runs / "run.etdp", debug_buffer_path=runs / "run.bin",
                          program=runs / "p.pte")
    ref = etviz.Inspector(etdump_path=runs / "ref.etdp", debug_buffer_path=runs / "ref.bin")
    df = run.calculate_numeric_gap(distance="MSE", reference=ref)
    for col in ("runtime_ops", "runtime_intermediate_output", "aot_intermediate_output", "gap",
                "mse", "l1", "snr", "cosine", "max_abs", "divergent", "first_divergent"):
        assert col in df.columns
    checked = 0
    for _, r in df.iterrows():
        if r["status"] != "compared" or r["domain"] != "float":
            continue
        a = np.asarray(r["aot_intermediate_output"], dtype=np.float64)
        b = np.asarray(r["runtime_intermediate_output"], dtype=np.float64)
        fin = np.isfinite(a) & np.isfinite(b)
        d = a[fin] - b[fin]
        assert r["gap"][0] == pytest.approx(np.mean(d ** 2), rel=1e-12, abs=1e-15)
        assert r["l1"] == pytest.approx(np.sum(np.abs(d)), rel=1e-12, abs=1e-15)
        checked += 1
    assert checked > 30
    first = df[df["first_divergent"]]
    assert list(first["instruction"]) == [30]
    snr = run.calculate_numeric_gap(distance="SNR", reference=runs / "ref.etdp",
                                    reference_debug_buffer_path=runs / "ref.bin")
    row = snr[snr["instruction"] == 12].iloc[0]
    a = np.asarray(row["aot_intermediate_output"], dtype=np.float64)
    b = np.asarray(row["runtime_intermediate_output"], dtype=np.float64)
    assert row["gap"][0] == pytest.approx(10 * np.log10(np.mean(a ** 2) / np.mean((a - b) ** 2)))


def test_unknown_distance_and_missing_reference_say_so(runs):
    run = etviz.Inspector(etdump_path=runs / "run.etdp", debug_buffer_path=runs / "run.bin")
    with pytest.raises(ValueError, match="unknown distance"):
        run.calculate_numeric_gap(distance="KL", reference=runs / "ref.etdp")
    with pytest.raises(ValueError, match="needs a reference"):
        run.calculate_numeric_gap()


def test_notebook_computes_the_gap_and_shows_the_overlay(runs, tmp_path):
    """A real notebook in a real Jupyter kernel: the DataFrame, then the page with the
    numerics overlay (etviz.show with the page options etdump, debug_buffer, reference,
    reference_debug_buffer, as the CLI takes them)."""
    import json
    import sys

    import nbformat
    from nbclient import NotebookClient

    nb = nbformat.v4.new_notebook()
    p = {k: str(runs / v) for k, v in {"pte": "p.pte", "run": "run.etdp", "rbin": "run.bin",
                                        "ref": "ref.etdp", "fbin": "ref.bin"}.items()}
    nb.cells = [
        nbformat.v4.new_code_cell(
            "import etviz\n"
            f"run = etviz.Inspector(etdump_path={p['run']!r}, debug_buffer_path={p['rbin']!r}, program={p['pte']!r})\n"
            f"ref = etviz.Inspector(etdump_path={p['ref']!r}, debug_buffer_path={p['fbin']!r})\n"
            "df = run.calculate_numeric_gap(distance='MSE', reference=ref)\n"
            "print(int(df[df.first_divergent].instruction.iloc[0]), len(df))"),
        nbformat.v4.new_code_cell(
            f"etviz.show({p['pte']!r}, etdump={p['run']!r}, debug_buffer={p['rbin']!r}, "
            f"reference={p['ref']!r}, reference_debug_buffer={p['fbin']!r}, height=400)"),
    ]
    spec = tmp_path / "jupyter" / "kernels" / "etviz-python"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "etviz test", "language": "python"}))
    os.environ["JUPYTER_PATH"] = str(tmp_path / "jupyter")
    import pathlib
    package_root = str(pathlib.Path(etviz.__file__).resolve().parent.parent)
    os.environ["PYTHONPATH"] = os.pathsep.join([package_root, os.environ.get("PYTHONPATH", "")])
    client = NotebookClient(nb, timeout=120, kernel_name="etviz-python",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    first, rows = nb.cells[0].outputs[0]["text"].split()
    assert first == "30"
    assert int(rows) == 45
    html = [o["data"]["text/html"] for o in nb.cells[1].outputs if "text/html" in o.get("data", {})]
    assert html and "etviz-numerics" in html[0]


def test_tensor_stats_is_the_cli_json():
    corpus = os.environ.get("ETVIZ_CORPUS_DIR", "/work/shared/corpus")
    kws = os.path.join(corpus, "pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte")
    etviz_bin = os.environ.get("ETVIZ_BIN", "etviz")
    import json
    cli = json.loads(subprocess.run([etviz_bin, "tensors", kws, "--format", "json", "--bins", "8"],
                                    check=True, capture_output=True).stdout)["constants"]
    assert etviz.tensor_stats(kws, bins=8) == cli
    some = etviz.tensor_stats(kws, name="v1*")
    assert some and all(c["name"].startswith("v1") for c in some)
