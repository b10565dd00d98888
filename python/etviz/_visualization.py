"""ExecuTorch's HTML visualizer's calls (``executorch.devtools.visualization``, PR #18027):
``extract_from_*``, ``generate_html``, ``generate_multi_pass_html``, ``visualize_edge_manager``.

Scripts written for the visualizer run unchanged apart from the import; the pages they write
are etviz's (the page ``etviz FILE -o`` writes, with the same options). The graph data is
built from etviz's own graph JSON (``Program.graph_data()``, etviz.graph/1: labels and
categories as the page draws them), reshaped into the visualizer's node/edge shape; the shape
is documented in docs/python.md ("The visualizer's names") and is stable: fields are only
ever added.
"""

import json
import os

from . import _etviz
from ._page import visualize
from ._program import Error, Program, open as _open

# The visualizer's seven categories, in its legend's order.
CATEGORIES = ("backend", "aten_compute", "quantize", "memory", "placeholder", "param", "delegate")

# etviz's categories (analysis/categories.h, the page's legend) as the visualizer's. Control
# instructions (move, jump_false, free), a failed op (etviz's `error`; `details.etviz_category`
# keeps it) and anything else fall where the visualizer puts every op it does not recognise:
# aten_compute.
_CATEGORY = {
    "compute": "aten_compute",
    "backend": "backend",
    "quantize": "quantize",
    "memory": "memory",
    "io": "placeholder",
    "constant": "param",
    "delegate": "delegate",
    "control": "aten_compute",
    "other": "aten_compute",
    "error": "aten_compute",
}

# The visualizer's source_type for each format etviz reads.
_SOURCE_TYPE = {
    "executorch_program": "pte",
    "bundled_program": "bpte",
    "flat_tensor": "ptd",
    "torch_export_pt2": "pt2",
    "etrecord": "etrecord",
    "pass_trace": "json",
    "model_explorer_json": "json",
    "tosa_flatbuffer": "tosa",
}

# FX's node op for each etviz node kind (the visualizer's details["op"]; the pass-trace reader
# reads it back: placeholders, outputs and get_attr nodes keep their role).
_FX_OP = {"input": "placeholder", "constant": "placeholder", "output": "output",
          "get_attr": "get_attr"}

SCHEMA = "etviz.visualizer/1"


def _shape_text(shape):
    return "[" + ", ".join(str(d) for d in shape) + "]"


def _graph_data(program, graph, doc_json, model_name, source):
    """One graph of etviz.graph/1 as the visualizer's {metadata, nodes, edges}."""
    values = graph["values"]
    nodes, edges, ids = [], [], []
    seen = {}
    for n in graph["nodes"]:
        # Node names are ids; a repeated name is made unique as the pass-trace reader does.
        node_id = n["name"] or f"node_{n['index']}"
        if node_id in seen:
            seen[node_id] += 1
            node_id = f"{node_id}#{seen[node_id]}"
        else:
            seen[node_id] = 1
        ids.append(node_id)
    for n, node_id in zip(graph["nodes"], ids):
        tensors = [values[a["value"]] for a in n["outputs"]
                   if 0 <= a["value"] < len(values) and values[a["value"]]["kind"] == "tensor"]
        shapes = [t["shape"] for t in tensors]
        dtypes = [t["dtype"] for t in tensors]
        category = _CATEGORY.get(n["category"], "aten_compute")
        # FX's target: the op a call runs; a placeholder's or output's own name.
        fx_op = _FX_OP.get(n["kind"], "call_function")
        details = {"op": fx_op, "target": n["op"] if fx_op == "call_function" else n["name"],
                   "kind": n["kind"], "etviz_category": n["category"]}
        if shapes:
            details["shape"] = _shape_text(shapes[0])
            details["dtype"] = dtypes[0]
        ins = []
        for a in n["inputs"]:
            v = values[a["value"]] if 0 <= a["value"] < len(values) else None
            if v and v["kind"] == "tensor":
                ins.append(f"{_shape_text(v['shape'])} {v['dtype']}")
        if ins:
            details["inputs"] = ins
        if tensors and fx_op == "call_function":
            details["outputs"] = [f"{_shape_text(s)} {d}" for s, d in zip(shapes, dtypes)]
        if n.get("module"):
            details["nn_module_stack"] = n["module"]
        if "delegate" in n and 0 <= n["delegate"] < len(doc_json["delegates"]):
            delegate = doc_json["delegates"][n["delegate"]]
            details["delegate_id"] = delegate["backend"]
            details["delegate_index"] = delegate["index_in_method"]
            details["blob_size_bytes"] = delegate["payload_bytes"]
        if "debug_handles" in n:
            details["debug_handles"] = n["debug_handles"]
        for attr in n.get("attributes", []):
            details.setdefault(attr["name"], attr["value"])
        nodes.append({
            "id": node_id,
            "label": n["label"],
            "w": max(len(n["label"]) * 8 + 16, 60),
            "category": category,
            "op": n["op"],
            "op_name": n["op"],
            "shapes": shapes,
            "dtypes": dtypes,
            "details": details,
        })
        # Edges: from the producer of every tensor the node reads (list items included).
        linked = set()
        pending = [a["value"] for a in n["inputs"]]
        while pending:
            vi = pending.pop()
            if not 0 <= vi < len(values):
                continue
            v = values[vi]
            pending.extend(v.get("items", []))
            producer = v.get("producer")
            if producer is not None and 0 <= producer < len(ids) and producer not in linked:
                linked.add(producer)
                edges.append({"source": ids[producer], "target": node_id})
    counts = {}
    for node in nodes:
        counts[node["category"]] = counts.get(node["category"], 0) + 1
    return {
        "metadata": {
            "schema": SCHEMA,
            "model_name": model_name,
            "source_type": _SOURCE_TYPE.get(doc_json["format"], doc_json["format"]),
            "format": doc_json["format"],
            "graph": graph["name"],
            "graphs": program.graphs,
            "source": source,
            "total_nodes": len(nodes),
            "total_edges": len(edges),
            "category_counts": counts,
            "categories": list(CATEGORIES),
        },
        "nodes": nodes,
        "edges": edges,
    }


def _source(path_or_bytes, program):
    if isinstance(path_or_bytes, (str, os.PathLike)):
        return os.path.abspath(os.fspath(path_or_bytes))
    return program._source and os.path.abspath(program._source)


def _extract(path_or_bytes, formats, what, method=None, passes=False):
    program = _open(path_or_bytes)
    if formats and program.format not in formats:
        raise Error(f"{program.name} is {program.format}, not {what}; use etviz.extract "
                    f"(any format) or the extract_from_* of its format")
    doc_json = program.graph_data()
    by_name = {g["name"]: g for g in doc_json["graphs"]}
    source = _source(path_or_bytes, program)
    # Several graphs in pipeline order (stages, passes): the visualizer's multi-pass shape.
    if passes and method is None and len(program.graphs) > 1:
        return {
            "model_name": program.name,
            "source": source,
            "format": program.format,
            "passes": [_graph_data(program, by_name[g], doc_json, g, source)
                       for g in program.graphs if g in by_name],
        }
    name = method or program.default_graph
    if name is None:
        raise Error(f"{program.name}: the file holds no graph")
    if name not in by_name:
        raise Error(f"{program.name}: no graph '{name}' (graphs: {', '.join(program.graphs)})")
    return _graph_data(program, by_name[name], doc_json, program.name, source)


def extract(path_or_bytes, method=None):
    """The graph data of any file etviz reads (its default graph, or `method`)."""
    return _extract(path_or_bytes, None, "", method)


def extract_from_pte(path_or_bytes, method=None):
    """An ExecuTorch program (.pte; a bundled program's too): the graph of `method` (default:
    forward, else the largest), in the visualizer's shape (docs/python.md)."""
    return _extract(path_or_bytes, ("executorch_program", "bundled_program"),
                    "an ExecuTorch program", method)


def extract_from_bpte(path_or_bytes, method=None):
    """A bundled program (.bpte): its program's graph."""
    return _extract(path_or_bytes, ("bundled_program",), "a bundled program", method)


def extract_from_ptd(path_or_bytes, method=None):
    """A FlatTensor data file (.ptd). It holds a program's tensors and no graph, so, as
    ``etviz FILE.ptd`` does, this raises :class:`etviz.Error` ("holds no graph"); draw the
    program with the file as ``data=`` instead."""
    return _extract(path_or_bytes, ("flat_tensor",), "a FlatTensor data file", method)


def extract_from_pt2(path_or_bytes, method=None):
    """A torch.export archive (.pt2), read without torch."""
    return _extract(path_or_bytes, ("torch_export_pt2",), "a torch.export archive", method)


def extract_from_etrecord(path_or_bytes, method=None):
    """An ETRecord: every stage as a pass (``{model_name, passes}``) when it holds several, as
    the visualizer returns it; one graph's data when it holds one or `method` names one."""
    return _extract(path_or_bytes, ("etrecord",), "an ETRecord", method, passes=True)


def extract_from_trace_json(path_or_bytes, method=None):
    """A pass trace (ExecuTorch's trace_passes.py JSON or etviz.trace/1): ``{model_name,
    passes}``, each pass in the graph-data shape."""
    return _extract(path_or_bytes, ("pass_trace",), "a pass trace", method, passes=True)


def extract_from_model_explorer_json(path_or_bytes, method=None):
    """A Model Explorer graph JSON (GraphCollection)."""
    return _extract(path_or_bytes, ("model_explorer_json",), "a Model Explorer graph JSON",
                    method)


def extract_from_tosa(path_or_bytes, method=None):
    """A TOSA flatbuffer (.tosa)."""
    return _extract(path_or_bytes, ("tosa_flatbuffer",), "a TOSA flatbuffer", method)


def extract_from_exported_program(exported_program, model_name=None):
    """An in-memory ExportedProgram (or EdgeProgramManager): needs a torch with
    torch.export (read through ``torch.export.save``)."""
    data = _extract(exported_program, None, "")
    if model_name:
        data["metadata"]["model_name"] = model_name
    return data


def _page_from_json(trace):
    """A page from graph data without a source file: the pass-trace reader reads the
    visualizer's shape (the same reader as ``etviz trace.json``)."""
    name = (trace.get("model_name") or "graph") + ".json"
    program = Program(_etviz.open_bytes(name, json.dumps(trace).encode("utf-8")))
    if program.format != "pass_trace":
        raise Error(f"{name}: not graph data (a dict with 'nodes' and 'edges', or 'passes')")
    return program


def generate_html(graph_data, output_path, **options):
    """Writes etviz's page for `graph_data`: data an ``extract_from_*`` returned for a file
    (``metadata.source``) is drawn from that file, the page ``etviz FILE -o`` writes; data
    without a source (built by hand, edited with ``source`` set to None, or the visualizer's
    own JSON) is drawn from its nodes and edges. Options as :func:`etviz.visualize`. Prints
    what it wrote, as the visualizer does; returns the path."""
    if not isinstance(graph_data, dict):
        raise TypeError("generate_html: graph data is a dict (what extract_from_* returns)")
    if "passes" in graph_data:
        return generate_multi_pass_html(graph_data, output_path, **options)
    meta = graph_data.get("metadata") or {}
    source = meta.get("source")
    if source:
        out = visualize(source, output_path, **options)
    else:
        trace = {"model_name": meta.get("model_name", "graph"), "passes": [graph_data]}
        out = visualize(_page_from_json(trace), output_path, **options)
    print(f"Wrote {out} ({len(graph_data.get('nodes', []))} nodes, "
          f"{len(graph_data.get('edges', []))} edges)")
    return out


def generate_multi_pass_html(trace_data, output_path, **options):
    """Writes etviz's page stepping through the passes of `trace_data` (``{model_name,
    passes}``: what ``extract_from_trace_json``/``extract_from_etrecord`` return, ExecuTorch's
    trace_passes.py JSON, or etviz.trace/1). Data from a file is drawn from the file (an
    ETRecord's stages over one layout, ``stages=True``); otherwise from its passes. Returns the
    path."""
    if not isinstance(trace_data, dict) or "passes" not in trace_data:
        raise Error("generate_multi_pass_html: trace data needs a 'passes' list")
    source = trace_data.get("source")
    if source:
        if trace_data.get("format") == "etrecord":
            options.setdefault("stages", True)
        out = visualize(source, output_path, **options)
    else:
        out = visualize(_page_from_json(trace_data), output_path, **options)
    passes = trace_data["passes"]
    total = sum(len(p.get("nodes", [])) if isinstance(p, dict) else 0 for p in passes)
    print(f"Wrote {out} ({len(passes)} passes, {total} total nodes across all snapshots)")
    return out


def visualize_edge_manager(edge_manager, output_path="graph.html", **options):
    """The visualizer's call for an EdgeProgramManager before ``to_executorch()``; here any
    object :func:`etviz.visualize` takes (an EdgeProgramManager or ExportedProgram with a torch
    that has torch.export, an ExecutorchProgramManager, a path, bytes). Returns the path."""
    return visualize(edge_manager, output_path, **options)
