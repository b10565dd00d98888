"""ExecuTorch's HTML visualizer's names (etviz/_visualization.py) and `python -m etviz`, checked
against the binary: its graph JSON, its pages and its own output (help, reports, exit codes)."""
import json
import os
import re
import subprocess
import sys
import textwrap

import pytest

import etviz

DNF = "pte/berndporr__dnf_executorch__dnf.47145c4a.pte"
KWS = "pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte"
ETRECORD = "etrecord/pytorch__executorch__examples__devtools__scripts__etrecord.bin"
PT2 = "pt2/pytorch__executorch__extension__pt2_archive__test__linear.6f89131a.pt2"
BPTE = "bpte/pytorch__executorch__extension__module__test__resources__bundled_program.bpte"
PTD = "ptd/pytorch__executorch__extension__module__test__resources__linear.29d0a214.ptd"
TOSA = ("tosa/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__fixtures__"
        "mobilenet_v2_ethosu__output_tag1_TOSA-1.0+INT+int16+u55.tosa")
MODEL_EXPLORER = ("json/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__"
                  "fixtures__mobilenet_v2_vgf__expected_main.json")


def run(*args, **kw):
    return subprocess.run(list(args), capture_output=True, text=True, **kw)


def cli_graph(etviz_bin, path, tmp_path):
    """The binary's graph JSON of `path`, graph by name (an independent read of the file)."""
    out = tmp_path / "graph.json"
    subprocess.run([etviz_bin, "export", str(path), "--format", "graph-json", "-o", str(out), "-q"],
                   check=True)
    return json.loads(out.read_text())


def without_nonce(page):
    return re.sub(r'nonce(-|=")[A-Za-z0-9+/=]+', "", page)


def python_m(*args, **kw):
    return run(sys.executable, "-m", "etviz", *args, **kw)


# The visualizer's multi-pass JSON as trace_passes.py writes it (PR #18027's shape).
VISUALIZER_TRACE = {
    "model_name": "tiny",
    "passes": [
        {"metadata": {"model_name": f"pass_{k}", "total_nodes": 3 + k,
                      "category_counts": {"placeholder": 2, "aten_compute": 1 + k}},
         "nodes": [
             {"id": "x", "label": "input", "category": "placeholder", "op_name": "placeholder",
              "details": {"op": "placeholder", "target": "x", "shape": "[1, 4]",
                          "dtype": "torch.float32"}},
             {"id": "relu", "label": "relu", "category": "aten_compute",
              "op_name": "aten.relu.default",
              "details": {"op": "call_function", "target": "aten.relu.default",
                          "shape": "[1, 4]", "dtype": "torch.float32"}},
         ] + [
             {"id": f"neg_{j}", "label": "neg", "category": "aten_compute",
              "op_name": "aten.neg.default",
              "details": {"op": "call_function", "target": "aten.neg.default",
                          "shape": "[1, 4]", "dtype": "torch.float32"}} for j in range(k)
         ] + [
             {"id": "output", "label": "output", "category": "placeholder", "op_name": "output",
              "details": {"op": "output", "target": "output"}},
         ],
         "edges": [{"source": "x", "target": "relu"}]
                  + [{"source": "relu" if j == 0 else f"neg_{j - 1}", "target": f"neg_{j}"}
                     for j in range(k)]
                  + [{"source": "relu" if k == 0 else f"neg_{k - 1}", "target": "output"}]}
        for k in range(3)
    ],
}


def test_a_script_written_the_visualizers_way_writes_etviz_pages(corpus, etviz_bin, tmp_path):
    # The visualizer's calls, unchanged apart from the import.
    trace_file = tmp_path / "trace.json"
    trace_file.write_text(json.dumps(VISUALIZER_TRACE))
    script = tmp_path / "export_script.py"
    script.write_text(textwrap.dedent(f"""
        import json
        from etviz import generate_html, generate_multi_pass_html, visualize_edge_manager, \\
            extract_from_pte

        class ExecutorchProgramManager:  # what to_executorch() returns: .buffer is the .pte
            buffer = open({str(corpus / KWS)!r}, "rb").read()

        edge_manager = ExecutorchProgramManager()
        visualize_edge_manager(edge_manager, "my_model.html")
        graph_data = extract_from_pte({str(corpus / KWS)!r}); generate_html(graph_data, "model.html")
        with open({str(trace_file)!r}) as f:
            trace_data = json.load(f)
        generate_multi_pass_html(trace_data, "passes.html")
        """))
    env = dict(os.environ)
    done = run(sys.executable, str(script), cwd=tmp_path, env=env)
    assert done.returncode == 0, done.stderr
    # The visualizer's summary lines on stdout.
    data = etviz.extract_from_pte(corpus / KWS)
    assert f"Wrote model.html ({data['metadata']['total_nodes']} nodes" in done.stdout
    assert "Wrote passes.html (3 passes, 12 total nodes across all snapshots)" in done.stdout
    # model.html and my_model.html are the page the binary writes for the file.
    subprocess.run([etviz_bin, str(corpus / KWS), "-o", str(tmp_path / "cli.html"), "-q"],
                   check=True)
    cli = without_nonce((tmp_path / "cli.html").read_text())
    assert without_nonce((tmp_path / "model.html").read_text()) == cli
    # From .buffer the page names the file "program.pte", as etviz.visualize does.
    mine = without_nonce((tmp_path / "my_model.html").read_text())
    by_buffer = etviz.open((corpus / KWS).read_bytes(), name="program.pte")
    assert mine == without_nonce(etviz.show(by_buffer).html)
    # passes.html is the binary's page of the same trace file.
    subprocess.run([etviz_bin, str(trace_file), "-o", str(tmp_path / "cli_passes.html"), "-q"],
                   check=True)
    passes = without_nonce((tmp_path / "passes.html").read_text())
    assert 'id="etviz-timeline"' in passes
    cli_passes = without_nonce((tmp_path / "cli_passes.html").read_text())
    # The same graphs; only the file's name differs (trace.json against tiny.json).
    assert passes.replace("tiny.json", "trace.json") == cli_passes


def test_extracted_graph_data_is_the_binarys_graph(corpus, etviz_bin, tmp_path):
    data = etviz.extract_from_pte(corpus / DNF)
    cli = cli_graph(etviz_bin, corpus / DNF, tmp_path)
    graph = next(g for g in cli["graphs"] if g["name"] == data["metadata"]["graph"])
    meta = data["metadata"]
    assert meta["graph"] == "forward" and meta["source_type"] == "pte"
    assert meta["model_name"] == os.path.basename(DNF)
    assert meta["source"] == str(corpus / DNF)
    assert meta["total_nodes"] == len(data["nodes"]) == len(graph["nodes"])
    assert meta["total_edges"] == len(data["edges"])
    assert sum(meta["category_counts"].values()) == meta["total_nodes"]
    assert set(meta["category_counts"]) <= set(etviz.CATEGORIES) and len(etviz.CATEGORIES) == 7
    assert [n["id"] for n in data["nodes"]] == [n["name"] for n in graph["nodes"]]
    ids = {n["id"] for n in data["nodes"]}
    assert all(e["source"] in ids and e["target"] in ids for e in data["edges"])
    # Four delegate calls (the binary's delegation report), each with its backend.
    delegation = json.loads(run(etviz_bin, "delegation", str(corpus / DNF), "--format", "json").stdout)
    delegates = [n for n in data["nodes"] if n["category"] == "delegate"]
    assert len(delegates) == delegation["num_delegated_subgraphs"] == 4
    assert all(d["details"]["delegate_id"] == "XnnpackBackend" for d in delegates)
    # Every input's shape and dtype as the binary read them.
    values = graph["values"]
    for node, read in zip(data["nodes"], graph["nodes"]):
        tensors = [values[o["value"]] for o in read["outputs"] if values[o["value"]]["kind"] == "tensor"]
        assert node["shapes"] == [t["shape"] for t in tensors]
        assert node["dtypes"] == [t["dtype"] for t in tensors]
        assert node["op"] == node["op_name"] == read["op"]
        if read["kind"] == "input":
            assert node["category"] == "placeholder" and node["details"]["op"] == "placeholder"
    # Edges: one per (producer, consumer) pair of tensors the node reads.
    pairs = set()
    for read in graph["nodes"]:
        for a in read["inputs"]:
            v = values[a["value"]]
            for item in [v] + [values[i] for i in v.get("items", [])]:
                if "producer" in item:
                    pairs.add((graph["nodes"][item["producer"]]["name"], read["name"]))
    assert {(e["source"], e["target"]) for e in data["edges"]} == pairs
    # Bytes give the same graph (no source: the page is drawn from the data).
    from_bytes = etviz.extract_from_pte((corpus / DNF).read_bytes())
    assert from_bytes["nodes"] == data["nodes"] and from_bytes["metadata"]["source"] is None
    json.dumps(data)  # plain data


def test_every_format_has_its_extract_and_says_when_it_is_the_wrong_one(corpus, etviz_bin, tmp_path):
    assert etviz.extract_from_pt2(corpus / PT2)["metadata"]["source_type"] == "pt2"
    assert etviz.extract_from_model_explorer_json(corpus / MODEL_EXPLORER)["nodes"]
    stages = etviz.extract_from_etrecord(corpus / ETRECORD)
    assert [p["metadata"]["graph"] for p in stages["passes"]] == etviz.open(corpus / ETRECORD).graphs
    with pytest.raises(etviz.Error, match="not an ExecuTorch program"):
        etviz.extract_from_pte(corpus / PT2)
    with pytest.raises(etviz.Error, match="no graph 'nope'"):
        etviz.extract_from_pte(corpus / DNF, method="nope")
    bundled = etviz.extract_from_bpte(corpus / BPTE)
    assert bundled["metadata"]["source_type"] == "bpte"
    assert bundled["nodes"] == etviz.extract_from_pte(corpus / BPTE)["nodes"]
    tosa = etviz.extract_from_tosa(corpus / TOSA)
    assert tosa["metadata"]["graph"] == "main" and tosa["metadata"]["source_type"] == "tosa"
    assert etviz.extract(corpus / TOSA) == tosa
    # A .ptd holds tensors, no graph: refused as `etviz FILE.ptd` refuses it.
    with pytest.raises(etviz.Error, match="holds no graph"):
        etviz.extract_from_ptd(corpus / PTD)
    assert run(etviz_bin, str(corpus / PTD), "-o", "-").returncode == 1
    trace = tmp_path / "trace.json"
    trace.write_text(json.dumps(VISUALIZER_TRACE))
    passes = etviz.extract_from_trace_json(trace)["passes"]
    assert [p["metadata"]["total_nodes"] for p in passes] == [3, 4, 5]
    assert [[n["id"] for n in p["nodes"]] for p in passes] == \
        [[n["id"] for n in p["nodes"]] for p in VISUALIZER_TRACE["passes"]]


def test_graph_data_without_a_source_is_drawn_from_its_nodes(corpus, etviz_bin, tmp_path):
    data = etviz.extract_from_pte(corpus / DNF)
    data["metadata"]["source"] = None
    data["nodes"] = data["nodes"][:-1]  # edited: the output node left out
    kept = {n["id"] for n in data["nodes"]}
    data["edges"] = [e for e in data["edges"] if e["target"] in kept]
    page = tmp_path / "edited.html"
    etviz.generate_html(data, page, compress=False)
    assert page.read_text().startswith("<!DOCTYPE html>")
    # The binary reads the same data (as a one-pass trace) to the same nodes.
    trace = tmp_path / "edited.json"
    trace.write_text(json.dumps({"model_name": "dnf", "passes": [data]}))
    graph = cli_graph(etviz_bin, trace, tmp_path)["graphs"][0]
    assert [n["name"] for n in graph["nodes"]] == [n["id"] for n in data["nodes"]]
    for n in data["nodes"]:
        assert json.dumps(n["id"])[1:-1] in page.read_text()
    with pytest.raises(etviz.Error, match="passes"):
        etviz.generate_multi_pass_html({"nodes": []}, tmp_path / "x.html")


def test_the_visualizers_own_graph_json_draws(etviz_bin, tmp_path, capsys):
    one = VISUALIZER_TRACE["passes"][1]  # a graph as the visualizer's extract_from_* return it
    etviz.generate_html(one, tmp_path / "one.html", compress=False)
    assert "Wrote " + str(tmp_path / "one.html") + " (4 nodes, 3 edges)" in capsys.readouterr().out
    page = (tmp_path / "one.html").read_text()
    assert page.startswith("<!DOCTYPE html>") and '"neg_0"' in page
    # The binary reads the same graph from the same data.
    trace = tmp_path / "one.json"
    trace.write_text(json.dumps({"model_name": "tiny", "passes": [one]}))
    graph = cli_graph(etviz_bin, trace, tmp_path)["graphs"][0]
    assert [n["name"] for n in graph["nodes"]] == [n["id"] for n in one["nodes"]]


def test_python_m_etviz_is_the_binary(corpus, etviz_bin, tmp_path):
    for args in (["--help"], ["info", "--help"], ["--version"], ["info", str(corpus / DNF)],
                 ["delegation", str(corpus / DNF), "--format", "json"],
                 ["nosuchcommand"], ["info"], ["info", str(tmp_path / "missing.pte")],
                 ["info", "--no-such-flag", str(corpus / DNF)]):
        binary = run(etviz_bin, *args)
        module = python_m(*args)
        assert (module.returncode, module.stdout, module.stderr) == \
            (binary.returncode, binary.stdout, binary.stderr), args
    assert run(etviz_bin, "nosuchcommand").returncode == 2
    assert run(etviz_bin, "info", str(tmp_path / "missing.pte")).returncode == 1
    assert "Usage: etviz" in run(etviz_bin, "--help").stdout
    # A page through python -m is the binary's page.
    assert python_m(str(corpus / KWS), "-o", str(tmp_path / "m.html"), "-q").returncode == 0
    subprocess.run([etviz_bin, str(corpus / KWS), "-o", str(tmp_path / "b.html"), "-q"], check=True)
    assert without_nonce((tmp_path / "m.html").read_text()) == \
        without_nonce((tmp_path / "b.html").read_text())
    # A closed pipe ends it as it ends the binary (no Python traceback).
    piped = subprocess.run(f"{sys.executable} -m etviz --help | head -c 10 >/dev/null",
                           shell=True, capture_output=True, text=True)
    assert "Traceback" not in piped.stderr


def model_explorer_delegate_calls(path):
    """Node ids of the delegate calls in a Model Explorer file, read with json alone: nodes Arm's
    .pte adapter marks `Instruction Type: DelegateCall`, or labelled executorch_call_delegate."""
    calls = set()
    for graph in json.loads(path.read_text())["graphs"]:
        for n in graph["nodes"]:
            attrs = {a["key"]: a["value"] for a in n.get("attrs", [])}
            if attrs.get("Instruction Type") == "DelegateCall" or "executorch_call_delegate" in n["label"]:
                calls.add(n["id"])
    return calls


def test_model_explorer_delegate_calls_are_delegates(corpus, etviz_bin, tmp_path):
    files = sorted((corpus / "json").glob("*pte_adapter_model_explorer*expected_main.json"))
    assert len(files) == 3
    for path in files:
        want = model_explorer_delegate_calls(path)
        assert len(want) == 1, path.name
        # The binary's graph JSON (its `category` is the page's) and the visualizer's names.
        cli = cli_graph(etviz_bin, path, tmp_path)
        nodes = [n for g in cli["graphs"] for n in g["nodes"]]
        assert {n["name"] for n in nodes if n["category"] == "delegate"} == want, path.name
        assert all(n["kind"] == "delegate" for n in nodes if n["name"] in want)
        data = etviz.extract_from_model_explorer_json(path)
        assert {n["id"] for n in data["nodes"] if n["category"] == "delegate"} == want
        assert data["metadata"]["category_counts"]["delegate"] == len(want)
        # The delegation report counts the call (its payload is in another file).
        report = json.loads(run(etviz_bin, "delegation", str(path), "--format", "json").stdout)
        assert report["num_delegated_subgraphs"] == len(want), report
