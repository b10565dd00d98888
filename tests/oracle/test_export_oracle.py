"""The oracle for exported programs: every .pt2 and ETRecord of the corpus, read with Python's
zipfile and json (the archive's own exported-program JSON is the truth), compared with what
etviz exports (`etviz export --format graph-json`): every call's operator, its arguments by
name, literal values, the tensors it reads and writes by name, and each tensor's dtype and
shape from the program's tensor_values. A mismatch names the file, the graph, the node and the
field. docs/torch_export.md.
"""

import io
import json
import math
import os
import pathlib
import struct
import subprocess
import zipfile
import zlib

import pytest

CORPUS = pathlib.Path(os.environ.get("ETVIZ_CORPUS_DIR", ""))
BIN = os.environ.get("ETVIZ_BIN", "")

# torch.export's serialized ScalarType (torch/_export/serde/schema.py), by etviz's names.
EXPORT_DTYPES = {
    1: "uint8", 2: "int8", 3: "int16", 4: "int32", 5: "int64", 6: "float16", 7: "float32",
    8: "float64", 12: "bool", 13: "bfloat16",
}


def union(u):
    """The member a serialized union sets: files of schema 1.x write every member and null the
    unset ones, later files only the set one."""
    for k, v in (u or {}).items():
        if v is not None:
            return k, v
    return None, None


def target_name(target):
    """"torch.ops.aten.linear.default" -> "aten::linear" (etviz's operator names)."""
    for prefix in ("executorch.exir.dialects.edge.ops.", "torch.ops."):
        if target.startswith(prefix):
            ns, _, rest = target[len(prefix):].partition(".")
            name = f"{ns}::{rest}"
            return name[: -len(".default")] if name.endswith(".default") else name
    return target


def programs_in(path):
    """(entry, exported-program JSON) for every entry of the archive that holds one."""
    out = []
    raw = path.read_bytes()
    with zipfile.ZipFile(io.BytesIO(raw)) as z:
        for info in z.infolist():
            if info.file_size == 0 or info.file_size > (64 << 20):
                continue
            data = read_member(z, raw, info)
            if not data.lstrip().startswith(b"{"):
                continue
            try:
                doc = json.loads(data)
            except ValueError:
                continue
            if isinstance(doc, dict) and "graph_module" in doc:
                out.append((info.filename, doc))
    return out


def read_member(z, raw, info):
    """An entry's bytes. One corpus ETRecord was edited after it was zipped (a path inside its
    JSON grew by 6 bytes, and its central directory sits 12 bytes later than it says): there,
    the entry's local header is found by its name and its bytes run to the next entry's."""
    try:
        return z.read(info)
    except zipfile.BadZipFile:
        name = info.filename.encode()
        at = raw.find(b"PK\x03\x04")
        while at >= 0 and raw[at + 30:at + 30 + len(name)] != name:
            at = raw.find(b"PK\x03\x04", at + 1)
        assert at >= 0, f"no local header for {info.filename}"
        name_len, extra_len = struct.unpack_from("<HH", raw, at + 26)
        start = at + 30 + name_len + extra_len
        end = raw.find(b"PK\x03\x04", start)
        body = raw[start:end if end >= 0 else len(raw)]
        return body if info.compress_type == zipfile.ZIP_STORED else zlib.decompress(body, -15)


def literal_text(kind, v):
    """What etviz shows for a literal argument, or None for kinds not checked here."""
    if kind == "as_none":
        return "None"
    if kind == "as_int":
        return str(v)
    if kind == "as_bool":
        return "True" if v else "False"
    if kind == "as_ints":
        return "[" + ", ".join(str(x) for x in v) + "]"
    if kind == "as_bools":
        return "[" + ", ".join("True" if x else "False" for x in v) + "]"
    if kind == "as_string":
        return v
    return None


def sizes_of(meta):
    """Concrete sizes (None for a symbolic one). Schema 0.x nests the tensor's facts in
    `meta`."""
    meta = meta.get("meta", meta)
    out = []
    for s in meta.get("sizes", []):
        k, v = union(s)
        out.append(v if k == "as_int" else None)
    return out


class Checker:
    def __init__(self, name):
        self.name = name
        self.errors = []
        self.nodes = 0
        self.arguments = 0

    def expect(self, where, field, ours, theirs):
        if ours != theirs:
            self.errors.append(f"{self.name}: {where}: {field}: etviz {ours!r}, file {theirs!r}")

    def tensor(self, where, value, meta):
        dtype = EXPORT_DTYPES.get(meta.get("meta", meta).get("dtype"))
        if dtype:
            self.expect(where, "dtype", value.get("dtype"), dtype)
        sizes = sizes_of(meta)
        if all(s is not None for s in sizes):
            self.expect(where, "shape", value.get("shape"), sizes)

    def graph(self, entry, program, graph):
        g = program["graph_module"]["graph"]
        tensors = g.get("tensor_values", {})
        values = graph["values"]
        by_name = {}
        for v in values:
            by_name.setdefault(v["name"], v)
        calls = [n for n in graph["nodes"] if n["kind"] not in ("input", "output", "constant")]
        if len(calls) != len(g["nodes"]):
            self.expect(entry, "call count", len(calls), len(g["nodes"]))
            return
        for node, theirs in zip(calls, g["nodes"]):
            where = f"{entry}, node {node['name']}"
            self.nodes += 1
            self.expect(where, "op", node["op"], target_name(theirs["target"]))
            ours = {a["name"]: values[a["value"]] for a in node["inputs"] if a["value"] >= 0}
            for inp in theirs.get("inputs", []):
                name = inp["name"]
                kind, v = union(inp.get("arg"))
                value = ours.get(name)
                if kind is None:
                    continue
                if value is None:
                    # torch.export leaves None arguments out of some calls; etviz keeps the rest.
                    if kind != "as_none":
                        self.expect(where, f"argument {name}", None, kind)
                    continue
                self.arguments += 1
                if kind == "as_tensor":
                    self.expect(where, f"argument {name} (tensor)", value["name"], v["name"])
                    if v["name"] in tensors:
                        self.tensor(f"{where}, argument {name}", value, tensors[v["name"]])
                elif kind == "as_float":
                    shown = float(value.get("text", "nan"))
                    if not (shown == v or (math.isnan(shown) and math.isnan(v))):
                        self.expect(where, f"argument {name}", value.get("text"), v)
                else:
                    text = literal_text(kind, v)
                    if text is not None:
                        self.expect(where, f"argument {name}", value.get("text"), text)
            outs = []
            for a in node["outputs"]:  # a tuple of tensors is one list value naming them
                if a["value"] >= 0:
                    v = values[a["value"]]
                    outs.append(v["name"])
                    outs += [values[i]["name"] for i in v.get("items", []) if i >= 0]
            theirs_out = []
            for o in theirs.get("outputs", []):
                kind, v = union(o)
                if kind == "as_tensor":
                    theirs_out.append(v["name"])
                elif kind == "as_tensors":
                    theirs_out.extend(t["name"] for t in v)
            for name in theirs_out:
                if name not in outs:
                    self.expect(where, "outputs", outs, theirs_out)
                    break
                if name in tensors:
                    self.tensor(f"{where}, output {name}", by_name[name], tensors[name])


def archives():
    files = []
    for folder in ("pt2", "etrecord"):
        files += [f for f in sorted((CORPUS / folder).iterdir()) if f.is_file()]
    return files


def check_archive(path, tmp_path):
    programs = programs_in(path)
    out = tmp_path / "graph.json"
    r = subprocess.run([BIN, "export", str(path), "--format", "graph-json", "-o", str(out), "-q"],
                       capture_output=True, text=True)
    if not programs:
        # An archive with no program (an empty ETRecord): etviz says so and holds no graph.
        assert r.returncode != 0 or not json.loads(out.read_text())["graphs"], r.stderr
        return
    assert r.returncode == 0, r.stderr
    doc = json.loads(out.read_text())
    checker = Checker(path.name)
    top = [g for g in doc["graphs"] if g["kind"] == "exported_program"]
    for entry, program in programs:
        # The etviz graph of this entry: the one whose calls are the entry's, in order.
        nodes = program["graph_module"]["graph"]["nodes"]
        targets = [target_name(n["target"]) for n in nodes]
        first_out = next((union(o)[1].get("name") for n in nodes for o in n.get("outputs", [])
                          if union(o)[0] == "as_tensor"), None)

        def calls(g):
            return [n for n in g["nodes"] if n["kind"] not in ("input", "output", "constant")]

        def first_output(g):
            for n in calls(g):
                for a in n["outputs"]:
                    return g["values"][a["value"]]["name"]
            return None

        # Stages of one ETRecord can call the same operators: the output names tell them apart.
        match = [g for g in top if [n["op"] for n in calls(g)] == targets and
                 (first_out is None or first_output(g) == first_out)]
        assert match, f"{path.name}: no etviz graph has the calls of {entry}: {targets[:8]}"
        checker.graph(entry, program, match[0])
    assert checker.nodes > 0
    assert not checker.errors, f"{len(checker.errors)} mismatches:\n" + "\n".join(checker.errors[:60])
    return checker


@pytest.mark.parametrize("path", archives(), ids=lambda p: p.name[:60])
def test_exported_programs_match_their_json(path, tmp_path):
    assert BIN, "run through ctest (ETVIZ_BIN)"
    check_archive(path, tmp_path)


# The corpus's exported programs are small (a linear, a mul): the generator's transformer in
# every layout and schema form adds hundreds of calls with lists, scalars and control flow.
GENERATED = [("pt2", []), ("pt2-2024", []), ("etrecord", ["--debug-handles"]),
             ("pt2", ["--schema1"]), ("pt2", ["--cond"])]


@pytest.mark.parametrize("form,flags", GENERATED, ids=lambda x: str(x))
def test_generated_exported_programs_match_their_json(form, flags, tmp_path):
    gen = os.environ.get("ETVIZ_GEN", "")
    assert gen, "run through ctest (ETVIZ_GEN)"
    path = tmp_path / f"model.{'etrecord' if form == 'etrecord' else 'pt2'}"
    subprocess.run([gen, "export", "--blocks", "3", "--format", form, *flags, "-o", str(path)],
                   check=True, capture_output=True)
    checker = check_archive(path, tmp_path)
    assert checker.nodes >= 3 * 30, checker.nodes
    assert checker.arguments >= 3 * 60, checker.arguments
