"""The Python package on the real corpus: the figures must be the CLI's (same library)."""
import json
import struct
import subprocess

import pytest

import etviz

DNF = "pte/berndporr__dnf_executorch__dnf.47145c4a.pte"
KWS = "pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte"
ETDUMP = "etdp/pytorch__executorch__docs__source__tutorials_source__etdump.etdp"
ETRECORD = "etrecord/pytorch__executorch__examples__devtools__scripts__etrecord.bin"
PT2 = "pt2/pytorch__executorch__extension__pt2_archive__test__linear.6f89131a.pt2"


def cli_json(etviz_bin, *args):
    return json.loads(subprocess.run([etviz_bin, *args], check=True, capture_output=True).stdout)


def test_open_paths_bytes_and_buffers(corpus):
    path = corpus / DNF
    by_path = etviz.open(path)
    assert by_path.format == "executorch_program"
    assert by_path.graphs[0] == "forward"
    by_bytes = etviz.open(path.read_bytes(), name="dnf.pte")
    assert by_bytes.name == "dnf.pte"
    assert by_bytes.info()["methods"][0]["node_count"] == by_path.info()["methods"][0]["node_count"]

    class Manager:  # ExecuTorch's ExecutorchProgramManager holds the .pte bytes in .buffer
        buffer = path.read_bytes()

    assert etviz.open(Manager()).graphs == by_path.graphs
    assert etviz.open(by_path) is by_path
    assert etviz.open(corpus / PT2).format == "torch_export_pt2"


def test_a_damaged_file_opens_with_a_warning_and_says_what_is_missing(corpus, tmp_path):
    # The KWS program with its constant segment cut short: the methods are all there.
    whole = (corpus / KWS).read_bytes()
    cut = tmp_path / "cut.pte"
    cut.write_bytes(whole[:-1000])
    with pytest.warns(etviz.DamagedFileWarning, match="1000 of its bytes are missing"):
        program = etviz.open(cut)
    assert program.damaged and not etviz.open(corpus / KWS).damaged
    errors = [m for s, m in program.diagnostics if s == "error"]
    assert len(errors) == 1 and "segment 0 (constants)" in errors[0]
    assert program.graphs == etviz.open(corpus / KWS).graphs
    assert any(d["severity"] == "error" for d in program.info()["diagnostics"])


def test_errors_are_etviz_errors_with_the_cli_message(corpus, tmp_path):
    bad = tmp_path / "truncated.pte"
    bad.write_bytes((corpus / DNF).read_bytes()[:100])
    with pytest.raises(etviz.Error) as e:
        etviz.open(bad)
    assert "truncated.pte" in str(e.value)
    assert isinstance(e.value, ValueError)
    with pytest.raises(etviz.Error):
        etviz.open(b"\x00" * 64)
    with pytest.raises(TypeError):
        etviz.open(12345)
    with pytest.raises(etviz.Error, match="nope"):
        etviz.get_delegation_info(corpus / DNF, method="nope")


def test_delegation_info_matches_the_cli(corpus, etviz_bin):
    info = etviz.get_delegation_info(corpus / DNF)
    cli = cli_json(etviz_bin, "delegation", str(corpus / DNF), "--format", "json")
    assert info.num_delegated_subgraphs == cli["num_delegated_subgraphs"] == 4
    assert info.num_delegated_nodes == cli["num_delegated_nodes"] == 10
    assert info.num_non_delegated_nodes == cli["num_non_delegated_nodes"] == 8
    assert info.get_summary() == ("Total delegated subgraphs: 4\nNumber of delegated nodes: 10\n"
                                  "Number of non-delegated nodes: 8\n")
    df = info.get_operator_delegation_dataframe()
    assert list(df.columns) == ["op_type", "occurrences_in_delegated_graphs",
                                "occurrences_in_non_delegated_graphs"]
    assert df.iloc[-1]["op_type"] == "Total"
    assert df.iloc[-1]["occurrences_in_delegated_graphs"] == 10
    assert df.iloc[-1]["occurrences_in_non_delegated_graphs"] == 8
    assert len(df) == len(cli["operators"]) + 1
    assert info.delegation_by_operator["XNNMultiply"].delegated == 3
    text = etviz.format_delegated_graph(corpus / DNF)
    assert text == subprocess.run([etviz_bin, "delegation", str(corpus / DNF), "--graph"],
                                  check=True, capture_output=True, text=True).stdout


def test_inspector_matches_etviz_profile(corpus, etviz_bin):
    inspector = etviz.Inspector(etdump_path=corpus / ETDUMP, source_time_scale="ns",
                                target_time_scale="ms")
    cli = cli_json(etviz_bin, "profile", str(corpus / ETDUMP), "--source-unit", "ns", "--unit", "ms",
                   "--format", "json")
    events = [e for b in inspector.event_blocks for e in b.events]
    assert len(events) == len(cli["events"])
    first = events[0]
    assert first.name == cli["events"][0]["name"]
    assert first.perf_data.avg == pytest.approx(cli["events"][0]["avg"])
    assert first.perf_data.p90 == pytest.approx(cli["events"][0]["p90"])
    assert len(first.perf_data.raw) == cli["events"][0]["occurrences"]
    assert {b.name for b in inspector.event_blocks} <= set(cli["blocks"])
    df = inspector.to_dataframe()
    assert len(df) == len(events)
    assert {"event_block_name", "event_name", "p50", "avg", "raw"} <= set(df.columns)
    assert inspector.find_total_for_module("no.such.module") == 0.0


def test_inspector_printout_is_the_cli_table(corpus, etviz_bin, capsys):
    etviz.Inspector(etdump_path=corpus / ETDUMP).print_data_tabular()
    out = capsys.readouterr().out
    cli = subprocess.run([etviz_bin, "profile", str(corpus / ETDUMP), "--module-totals"],
                         check=True, capture_output=True, text=True,
                         env={"COLUMNS": "0", "PATH": "/usr/bin:/bin"}).stdout
    assert out.splitlines()[0] == cli.splitlines()[0]
    assert "OPERATOR_CALL" in out


def test_visualize_writes_the_cli_page(corpus, etviz_bin, tmp_path):
    out = etviz.visualize(corpus / KWS, tmp_path / "kws.html")
    page = (tmp_path / "kws.html").read_text(encoding="utf-8")
    assert out == str(tmp_path / "kws.html")
    assert page.startswith("<!DOCTYPE html>") and 'id="etviz-data"' in page
    subprocess.run([etviz_bin, str(corpus / KWS), "-o", str(tmp_path / "cli.html"), "-q"], check=True)
    cli = (tmp_path / "cli.html").read_text(encoding="utf-8")
    # Same page but for the nonce of the Content-Security-Policy.
    strip = lambda s: __import__("re").sub(r'nonce(-|=")[A-Za-z0-9+/=]+', "", s)
    assert strip(page) == strip(cli)
    with pytest.raises(TypeError, match="unknown option"):
        etviz.show(corpus / KWS, colour="red")


def test_python_writes_follow_the_cli_rules(corpus, tmp_path):
    import os
    import shutil
    import stat
    # visualize(p, p) overwrote its input; now refused by device and inode, under any name.
    pte = tmp_path / "model.pte"
    shutil.copyfile(corpus / KWS, pte)
    os.link(pte, tmp_path / "hard.pte")
    before = pte.read_bytes()
    for out in (pte, tmp_path / "hard.pte"):
        with pytest.raises(etviz.Error, match="refusing to overwrite an input"):
            etviz.visualize(pte, out)
    assert pte.read_bytes() == before
    # A replaced file keeps its mode; no temporary is left beside it.
    page = tmp_path / "page.html"
    page.write_text("old")
    os.chmod(page, 0o600)
    etviz.visualize(corpus / KWS, page)
    assert stat.S_IMODE(os.stat(page).st_mode) == 0o600
    assert page.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")
    assert [p.name for p in tmp_path.iterdir() if ".etviz-" in p.name] == []
    # A FIFO is written in place (its reader gets the page), not replaced by a file.
    fifo = tmp_path / "out.fifo"
    os.mkfifo(fifo)
    import threading
    got = []
    reader = threading.Thread(target=lambda: got.append(open(fifo, "rb").read()))
    reader.start()
    etviz.show(corpus / KWS).save(fifo)
    reader.join(10)
    assert stat.S_ISFIFO(os.stat(fifo).st_mode)
    assert got and got[0].startswith(b"<!DOCTYPE html>")


def test_show_embeds_a_sandboxed_self_contained_page(corpus):
    page = etviz.show(corpus / KWS)
    html = page._repr_html_()
    assert html.startswith("<iframe srcdoc=")
    assert 'sandbox="allow-scripts' in html
    assert "&lt;!DOCTYPE html&gt;" in html
    # Several programs in one page, with a profile overlay from options.
    both = etviz.show([corpus / KWS, corpus / DNF])
    assert 'id="etviz-data-2"' in both.html


def test_diff_and_memory_match_the_cli(corpus, etviz_bin):
    a, b = corpus / DNF, corpus / "pte/berndporr__dnf_executorch__dnf.d1aa57fe.pte"
    d = etviz.diff(a, b)
    cli = cli_json(etviz_bin, "diff", str(a), str(b), "--format", "json")
    assert d["diffs"][0]["added"] == cli["diffs"][0]["added"]
    assert d["diffs"][0]["removed"] == cli["diffs"][0]["removed"]
    m = etviz.memory(corpus / KWS)
    assert m["format"] == "etviz.memory/1"
    assert m["arenas"][0]["planned_bytes"] == 16000
    assert m == cli_json(etviz_bin, "memory", str(corpus / KWS), "--format", "json") | {"file": m["file"]}


def test_diff_is_typed_and_sees_weights(corpus, tmp_path):
    """etviz.diff returns dataclasses (docs/diff.md): a weight edited in a copy of a corpus
    program is one TensorDiff with the figures numpy computes, one row of the dataframe."""
    import numpy as np
    src = corpus / "pte/corey-cole__djl-executorch-engine__src__test__resources__models__stress__stress_mlp.6d3450d6.pte"
    raw = bytearray(src.read_bytes())
    # The first constant of the constant segment: 64x256 float32 at its offset (flatc-checked
    # in tests/diff/test_value_diff_oracle.py); every 3rd element + 1.
    same = etviz.diff(src, src)
    assert isinstance(same, etviz.Diff) and same.programs[0].bitwise_equal
    assert same.summary.startswith("bitwise equal")
    edited = tmp_path / "edited.pte"
    base = struct.unpack_from("<Q", raw, 24)[0]
    at = base  # the constant segment is segment 0 at offset 0, its first tensor at 0
    x = np.frombuffer(bytes(raw[at:at + 64 * 256 * 4]), np.float32).copy()
    y = x.copy()
    y[::3] += 1
    raw[at:at + x.nbytes] = y.tobytes()
    edited.write_bytes(bytes(raw))
    d = etviz.diff(src, edited)
    assert d.summary == "differs: forward: weights of 1 tensor"
    values = d.programs[0].methods["forward"].values
    assert isinstance(values, etviz.ValueDiff)
    [t] = [t for t in values.tensors if t.data == "differ"]
    assert isinstance(t.stats, etviz.TensorStats)
    assert t.stats.positions == x.size and t.stats.differing == len(x[::3])
    assert abs(t.stats.max_abs - 1.0) < 1e-6
    assert t.stats.first[0].index == [0, 0] and t.stats.first[1].index == [0, 3]
    df = d.to_dataframe()
    assert list(df["differing"]) == [len(x[::3])]
    assert d["format"] == "etviz.diff/1"


def test_pass_tracer_writes_a_trace_etviz_reads(corpus, tmp_path):
    with etviz.PassTracer(tmp_path / "trace", model="dnf") as tracer:
        tracer.snapshot("delegated", corpus / DNF)
        class Manager:
            buffer = (corpus / "pte/berndporr__dnf_executorch__dnf.d1aa57fe.pte").read_bytes()
        tracer.snapshot("portable", Manager())
        tracer.failed("quantize", "no calibration data")
    trace = etviz.open(tracer.path)
    assert trace.format == "pass_trace"
    assert len(trace.graphs) == 3
    page = etviz.show(trace)
    assert 'id="etviz-timeline"' in page.html


def test_torch_inputs_say_what_they_need():
    torch = pytest.importorskip("torch")
    class FakeExported:
        pass
    FakeExported.__name__ = "ExportedProgram"
    if not hasattr(torch, "export") or not hasattr(torch.export, "save"):
        with pytest.raises(etviz.Error, match="torch.export.save"):
            etviz.open(FakeExported())


def test_groups_make_boxes_in_the_page(corpus, etviz_bin, tmp_path):
    prog = etviz.open(corpus / KWS)
    # Two nodes of the KWS program by name, grouped as "front end" (a box in the page data).
    names = ["input_0", "quantize_per_tensor_0"]
    page = etviz.show(prog, groups={names[0]: "front end", names[1]: "front end"}, compress=False)
    assert '"front end"' in page.html
    assert '"front end"' not in etviz.show(prog, compress=False).html
    (tmp_path / "groups.json").write_text(json.dumps({names[0]: "front end"}))
    out = tmp_path / "g.html"
    subprocess.run([etviz_bin, str(corpus / KWS), "--groups", str(tmp_path / "groups.json"), "-o", str(out), "-q",
                    "--no-compress"], check=True)
    assert "front end" in out.read_text(encoding="utf-8")
    (tmp_path / "bad.json").write_text("[1, 2]")
    r = subprocess.run([etviz_bin, str(corpus / KWS), "--groups", str(tmp_path / "bad.json"), "-o", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 1 and "expects a JSON object" in r.stderr


def test_node_data_colours_the_page(corpus):
    prog = etviz.open(corpus / KWS)
    # Model Explorer node data as a dict: one value on a KWS node, one key naming nothing.
    data = {"results": {"quantize_per_tensor_0": {"value": 2.5}, "no_such_node": {"value": 1}},
            "thresholds": [{"value": 10, "bgColor": "teal"}]}
    page = etviz.show(prog, node_data=data, compress=False)
    assert 'id="etviz-node-data"' in page.html
    assert '"#008080"' in page.html  # teal, as the page's style
    assert "no_such_node" in page.html  # listed as a key that names no node
    assert 'id="etviz-node-data"' not in etviz.show(prog, compress=False).html
    with pytest.raises(etviz.Error, match="colour 'tealish'"):
        etviz.show(prog, node_data={"results": {"x": {"value": 1, "bgColor": "tealish"}}})


def test_graph_data_is_the_cli_graph_json_with_named_resolved_arguments(corpus, etviz_bin, tmp_path):
    path = corpus / "bpte/pytorch__executorch__docs__source__tutorials_source__bundled_program.a59a06e0.bp"
    data = etviz.open(path).graph_data()
    out = tmp_path / "g.json"
    subprocess.run([etviz_bin, "export", str(path), "--format", "graph-json", "-o", str(out), "-q"],
                   check=True)
    cli = json.loads(out.read_text())
    assert data["schema"] == cli["schema"] == "etviz.graph/1"
    assert data["graphs"] == cli["graphs"]
    forward = data["graphs"][0]
    conv = next(n for n in forward["nodes"] if n["op"] == "aten::convolution.out")
    args = {a["name"]: forward["values"][a["value"]] for a in conv["inputs"]}
    assert args["stride"]["text"] == "[1, 1]"
    assert args["stride"]["items"] == [12, 13]
    assert args["padding"]["text"] == "[0, 0]"
    assert args["groups"]["text"] == "1"
    assert args["weight"]["dtype"] == "float32" and args["weight"]["shape"] == [6, 1, 5, 5]
    assert args["weight"]["data"]["location"] == "constant_segment"


ETHOSU = ("pte/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__"
          "mobilenet_v2_ethosu__input.pte")
ETHOSU_TOSA = ("tosa/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__"
               "fixtures__mobilenet_v2_ethosu__output_tag1_TOSA-1.0+INT+int16+u55.tosa")


def test_tosa_side_files_attach_as_the_cli_attaches_them(corpus, etviz_bin, tmp_path):
    program = etviz.open(corpus / ETHOSU, tosa=corpus / ETHOSU_TOSA)
    assert program.side_files == [{
        "path": str(corpus / ETHOSU_TOSA), "kind": "tosa", "delegate": "forward/EthosUBackend#0",
        "ambiguous": False,
        "note": "the TOSA graph of forward/EthosUBackend#0, matched by its inputs and outputs "
                "(takes [1, 3, 224, 224] int8, returns [1, 1000] int8)"}]
    info = etviz.get_delegation_info(program)
    cli = cli_json(etviz_bin, "delegation", str(corpus / ETHOSU), "--tosa",
                   str(corpus / ETHOSU_TOSA), "--format", "json")
    assert info.num_delegated_nodes == cli["num_delegated_nodes"] == 203
    assert info.num_non_delegated_nodes == cli["num_non_delegated_nodes"]
    # A file that fits no delegate is listed with why; the program opens all the same.
    other = tmp_path / "other.tosa"
    other.write_bytes(b"not a tosa graph at all")
    program = etviz.open(corpus / ETHOSU, tosa=[other])
    assert program.side_files[0]["delegate"] is None
    assert program.side_files[0]["note"].startswith("not attached: not a TOSA flatbuffer")
    assert etviz.get_delegation_info(program).num_delegated_nodes == 0
    with pytest.raises(TypeError, match="tosa= needs the program as a path"):
        etviz.open((corpus / ETHOSU).read_bytes(), tosa=corpus / ETHOSU_TOSA)
    # A .tosa file on its own is a document of its graph.
    alone = etviz.open(corpus / ETHOSU_TOSA)
    assert alone.format == "tosa_flatbuffer" and alone.graphs == ["main"]
