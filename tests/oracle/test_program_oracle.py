"""The oracle suite: every program and bundled program of the corpus, decoded independently
(Debian's flatc with the program schema, to JSON, read here with Python's json), compared fact
by fact with what etviz exports (`etviz export --format graph-json`, schema etviz.graph/1):
every value as the runtime resolves it (IntList items are value indices, boxed), every tensor's
dtype, shape, dim order, memory id, offset and size and where its data lives, every
instruction's arguments, every delegate call's inputs and outputs, every delegate's payload,
and the argument names of every ATen call against torch's own operator registry (Debian's
python3-torch). A mismatch names the file, the method, the instruction or value, and the field.
docs/formats.md, "Argument values" and "Argument names".
"""

import json
import math
import os
import pathlib
import struct
import subprocess

import pytest

CORPUS = pathlib.Path(os.environ.get("ETVIZ_CORPUS_DIR", ""))
BIN = os.environ.get("ETVIZ_BIN", "")
FLATC = os.environ.get("ETVIZ_FLATC", "flatc")
SCHEMAS = pathlib.Path(os.environ.get("ETVIZ_SCHEMA_DIR", ""))

# ExecuTorch's ScalarType numbering (c10's): name and element size in bytes (None: packed or
# unused, no byte size etviz can state).
SCALAR_TYPES = {
    0: ("uint8", 1), 1: ("int8", 1), 2: ("int16", 2), 3: ("int32", 4), 4: ("int64", 8),
    5: ("float16", 2), 6: ("float32", 4), 7: ("float64", 8), 8: ("complex32", 4),
    9: ("complex64", 8), 10: ("complex128", 16), 11: ("bool", 1), 12: ("qint8", 1),
    13: ("quint8", 1), 14: ("qint32", 4), 15: ("bfloat16", 2), 16: ("quint4x2", None),
    17: ("quint2x4", None), 22: ("bits16", 2), 23: ("float8_e5m2", 1), 24: ("float8_e4m3fn", 1),
    25: ("float8_e5m2fnuz", 1), 26: ("float8_e4m3fnuz", 1), 27: ("uint16", 2),
    28: ("uint32", 4), 29: ("uint64", 8),
}
# EValue union members and the kind etviz names them (a scalar an instruction writes is
# symbolic: its value exists only at run time).
KINDS = {
    "NONE": "null", "Null": "null", "Int": "int", "Bool": "bool", "Double": "double",
    "String": "string", "Tensor": "tensor", "IntList": "int_list", "DoubleList": "double_list",
    "BoolList": "bool_list", "TensorList": "tensor_list",
    "OptionalTensorList": "optional_tensor_list",
}
SYMBOLIC = {"Int": "sym_int", "Double": "sym_float", "Bool": "sym_bool"}


def flatc_json(schema, path, out_dir):
    subprocess.run([FLATC, "--json", "--strict-json", "--raw-binary", "--defaults-json",
                    "-o", str(out_dir), str(schema), "--", str(path)],
                   check=True, capture_output=True)
    return json.loads((out_dir / (path.stem + ".json")).read_text())


def etviz_graphs(path, out_dir):
    out = out_dir / (path.name + ".graph.json")
    r = subprocess.run([BIN, "export", str(path), "--format", "graph-json", "-o", str(out), "-q"],
                       capture_output=True, text=True)
    assert r.returncode == 0, f"{path.name}: etviz export failed: {r.stderr}"
    return json.loads(out.read_text())


def torch_schemas():
    try:
        import torch
    except ImportError:  # pragma: no cover - Debian's python3-torch is a test dependency
        pytest.fail("the oracle needs torch (Debian: python3-torch) for operator schemas")
    table = {}
    for s in torch._C._jit_get_all_schemas():
        table[s.name + (f".{s.overload_name}" if s.overload_name else "")] = s
    return table


def double_text_equal(text, value):
    """flatc prints doubles with 12 digits after the point (trailing zeros cut); etviz with as
    many as round-trip. Equal when etviz's value rounds to flatc's text."""
    try:
        shown = float(text)
    except ValueError:
        return False
    if math.isnan(shown) or math.isnan(value):
        return math.isnan(shown) and math.isnan(value)
    return shown == value or float(f"{shown:.12f}") == value


def file_size_of_segments(raw, program):
    """Absolute file offsets of the program's segments: segment base from the extended header
    (eh00 at byte 8), else the end of the flatbuffer data."""
    base = None
    if raw[8:12] == b"eh00":
        length = struct.unpack_from("<I", raw, 12)[0]
        base = struct.unpack_from("<Q", raw, 24)[0] if length >= 24 else None
    return [(base or 0) + s["offset"] for s in program.get("segments", [])], base


class Checker:
    def __init__(self, name, schemas):
        self.name = name
        self.schemas = schemas
        self.errors = []
        self.checked = {"values": 0, "instructions": 0, "named_arguments": 0, "delegates": 0}

    def fail(self, where, field, ours, theirs):
        self.errors.append(f"{self.name}: {where}: {field}: etviz {ours!r}, file {theirs!r}")

    def expect(self, where, field, ours, theirs):
        if ours != theirs:
            self.fail(where, field, ours, theirs)

    # --- values -------------------------------------------------------------------------
    def value(self, method, plan, i, ev, ours, written):
        vals = plan["values"]
        where = f"method {method}, value v{i}"
        vt = ev.get("val_type", "NONE")
        v = ev.get("val") or {}
        kind = SYMBOLIC[vt] if vt in SYMBOLIC and i in written else KINDS.get(vt)
        self.expect(where, "kind", ours["kind"], kind)
        self.checked["values"] += 1
        if vt in ("NONE", "Null"):
            self.expect(where, "text", ours.get("text"), "None")
        elif vt in SYMBOLIC and i in written:
            self.expect(where, "text (a run-time scalar shows its name)", ours.get("text"),
                        ours["name"])
        elif vt == "Int":
            self.expect(where, "text", ours.get("text"), str(v["int_val"]))
        elif vt == "Bool":
            self.expect(where, "text", ours.get("text"), "True" if v["bool_val"] else "False")
        elif vt == "Double":
            if not double_text_equal(ours.get("text", ""), v["double_val"]):
                self.fail(where, "text", ours.get("text"), v["double_val"])
        elif vt == "String":
            self.expect(where, "text", ours.get("text"), v.get("string_val", ""))
        elif vt == "IntList":
            items = v.get("items", [])
            self.expect(where, "items (boxed value indices)", ours.get("items", []), items)
            shown = []
            for j in items:
                m = vals[j]
                if j in written or j in plan.get("inputs", []):
                    shown.append(f"v{j}")
                else:
                    shown.append(str(m["val"]["int_val"]))
            self.expect(where, "text (items resolved)", ours.get("text"),
                        "[" + ", ".join(shown) + "]")
        elif vt == "BoolList":
            self.expect(where, "text", ours.get("text"),
                        "[" + ", ".join("True" if b else "False" for b in v.get("items", [])) + "]")
        elif vt == "DoubleList":
            text = ours.get("text", "")
            shown = [t.strip() for t in text.strip("[]").split(",") if t.strip()]
            items = v.get("items", [])
            if len(shown) != len(items) or not all(
                    double_text_equal(a, b) for a, b in zip(shown, items)):
                self.fail(where, "text", text, items)
        elif vt in ("TensorList", "OptionalTensorList"):
            items = v.get("items", [])
            self.expect(where, "items", ours.get("items", []), items)
            self.expect(where, "text", ours.get("text"),
                        "[" + ", ".join("None" if j < 0 else f"v{j}" for j in items) + "]")
        elif vt == "Tensor":
            self.tensor(where, v, ours)

    def tensor(self, where, t, ours):
        name, size = SCALAR_TYPES.get(t["scalar_type"], (f"scalar_type({t['scalar_type']})", None))
        self.expect(where, "dtype", ours.get("dtype"), name)
        sizes = t.get("sizes", [])
        self.expect(where, "shape", ours.get("shape"), sizes)
        self.expect(where, "dim_order", ours.get("dim_order"), t.get("dim_order", []))
        self.expect(where, "dynamism", ours.get("dynamism"),
                    ["static", "dynamic_bound", "dynamic_unbound"][t.get("shape_dynamism", 0)])
        alloc = t.get("allocation_info")
        memory = ours.get("memory")
        if alloc:
            offset = (alloc.get("memory_offset_high", 0) << 32) | alloc.get("memory_offset_low", 0)
            self.expect(where, "memory", memory, {"id": alloc.get("memory_id", 0), "offset": offset})
        else:
            self.expect(where, "memory", memory, None)
        if size is not None:
            self.expect(where, "nbytes", ours.get("nbytes"), math.prod(sizes) * size)
        extra = t.get("extra_tensor_info") or {}
        data = ours.get("data")
        if extra.get("location", 0) == 1:
            self.expect(where, "data location", data and data.get("location"), "external")
            self.expect(where, "data key", data and data.get("key"),
                        extra.get("fully_qualified_name"))
        elif t.get("data_buffer_idx", 0) > 0:
            expected = "mutable_segment" if alloc else (
                "inline" if self.legacy_constants else "constant_segment")
            self.expect(where, "data location", data and data.get("location"), expected)
            self.expect(where, "data index", data and data.get("index"), t["data_buffer_idx"])
            if expected == "constant_segment" and t["data_buffer_idx"] >= self.constant_offsets:
                self.fail(where, "data index within constant_segment.offsets",
                          t["data_buffer_idx"], self.constant_offsets)
        else:
            self.expect(where, "data", data, None)

    # --- instructions -------------------------------------------------------------------
    def instructions(self, method, plan, graph, program):
        nodes = {(n["chain"], n["instruction"]): n for n in graph["nodes"] if "instruction" in n}
        ops = plan.get("operators", [])
        for c, chain in enumerate(plan.get("chains", [])):
            for i, ins in enumerate(chain.get("instructions", [])):
                t = ins.get("instr_args_type")
                a = ins.get("instr_args") or {}
                where = f"method {method}, chain {c} instruction {i}"
                node = nodes.get((c, i))
                if node is None:
                    self.fail(where, "node", None, t)
                    continue
                self.checked["instructions"] += 1
                ids = {x["value"] for x in node["inputs"] + node["outputs"]}
                returns = [x["value"] for x in node.get("attributes", []) if x["name"] == "returns"]
                for r in returns:  # "v40 = [v27, v28]": a tuple return of the out= tensors
                    ids.add(int(r.split(" ", 1)[0][1:]))
                if t == "KernelCall":
                    op = ops[a["op_index"]]
                    name = op["name"] + (f".{op['overload']}" if op.get("overload") else "")
                    self.expect(where, "op", node["op"], name)
                    self.expect(where, "kind", node["kind"], "kernel")
                    self.expect(where, "arguments (value ids)", sorted(ids), sorted(set(a.get("args", []))))
                    self.names(where, name, a.get("args", []), node)
                elif t == "DelegateCall":
                    self.expect(where, "kind", node["kind"], "delegate")
                    self.expect(where, "arguments (value ids)", sorted(ids), sorted(set(a.get("args", []))))
                    backend = plan["delegates"][a["delegate_index"]]["id"]
                    self.expect(where, "op (backend id)", node["op"], backend)
                elif t == "MoveCall":
                    self.expect(where, "move", ([x["value"] for x in node["inputs"]],
                                                [x["value"] for x in node["outputs"]]),
                                ([a["move_from"]], [a["move_to"]]))
                elif t == "JumpFalseCall":
                    self.expect(where, "condition", [x["value"] for x in node["inputs"]],
                                [a["cond_value_index"]])
                elif t == "FreeCall":
                    self.expect(where, "freed value", [x["value"] for x in node["inputs"]],
                                [a["value_index"]])

    def names(self, where, op, args, node):
        """ATen calls: each argument's name is the one torch's registry gives its position."""
        schema = self.schemas.get(op)
        if schema is None:
            return
        declared = len(schema.arguments)
        returns = len(schema.returns)
        # Returns follow the arguments, one value each or one list for a tuple.
        if len(args) not in (declared, declared + returns) and not (
                returns > 1 and len(args) == declared + 1):
            return
        # Inputs keep the call's order: each is the next argument position holding its value
        # (mul(x, x) reads x as self and as other).
        k = -1
        for arg in node["inputs"]:
            k = next((j for j in range(k + 1, len(args)) if args[j] == arg["value"]), None)
            if k is None:
                self.fail(f"{where} ({op})", "input not among the call's arguments", arg, args)
                return
            if k >= declared:
                continue
            self.checked["named_arguments"] += 1
            self.expect(f"{where} ({op}) argument {k}", "name", arg["name"],
                        schema.arguments[k].name)

    # --- delegates ----------------------------------------------------------------------
    def delegates(self, method, plan, program, doc, segment_offsets):
        ours = {d["index_in_method"]: d for d in doc["delegates"] if d["method"] == method}
        inline = program.get("backend_delegate_data", [])
        segments = program.get("segments", [])
        for k, d in enumerate(plan.get("delegates", [])):
            where = f"method {method}, delegate {k} ({d['id']})"
            o = ours.get(k)
            if o is None:
                self.fail(where, "delegate", None, d["id"])
                continue
            self.checked["delegates"] += 1
            self.expect(where, "backend", o["backend"], d["id"])
            ref = d.get("processed") or {}
            location = "segment" if ref.get("location", 0) == 1 else "inline"
            self.expect(where, "payload location", o["payload_location"], location)
            self.expect(where, "payload index", o["payload_index"], ref.get("index", 0))
            if location == "inline":
                self.expect(where, "payload bytes", o["payload_bytes"],
                            len(inline[ref["index"]].get("data", [])))
            else:
                seg = segments[ref["index"]]
                self.expect(where, "payload bytes", o["payload_bytes"], seg["size"])
                if segment_offsets is not None:
                    self.expect(where, "payload offset", o["payload_offset"],
                                segment_offsets[ref["index"]])

    def program(self, program, doc, raw, base_offset=0):
        self.legacy_constants = bool(program.get("constant_buffer"))
        self.constant_offsets = len((program.get("constant_segment") or {}).get("offsets", []))
        offsets, base = file_size_of_segments(raw, program)
        segment_offsets = [base_offset + o for o in offsets] if base is not None else None
        methods = {g["name"]: g for g in doc["graphs"] if g["kind"] == "method"}
        for plan in program.get("execution_plan", []):
            method = plan["name"]
            graph = methods.get(method)
            if graph is None:
                self.fail(f"method {method}", "graph", None, method)
                continue
            self.expect(f"method {method}", "inputs", graph["inputs"], plan.get("inputs", []))
            self.expect(f"method {method}", "outputs", graph["outputs"], plan.get("outputs", []))
            self.expect(f"method {method}", "memory_buffer_sizes",
                        graph.get("memory_buffer_sizes", []),
                        plan.get("non_const_buffer_sizes", []))
            values = graph["values"]
            self.expect(f"method {method}", "value count", len(values), len(plan.get("values", [])))
            written = written_scalars(plan, self.schemas)
            for i, ev in enumerate(plan.get("values", [])):
                if i < len(values):
                    self.value(method, plan, i, ev, values[i], written)
            self.instructions(method, plan, graph, program)
            self.delegates(method, plan, program, doc, segment_offsets)


def written_scalars(plan, schemas):
    """Values instructions write, from the file alone: a kernel call's returns follow its
    schema's arguments (ExecuTorch's convention: the last argument is always one), and a move
    writes its target."""
    written = set()
    ops = plan.get("operators", [])
    for chain in plan.get("chains", []):
        for ins in chain.get("instructions", []):
            a = ins.get("instr_args") or {}
            if ins.get("instr_args_type") == "KernelCall" and a.get("args"):
                args = a["args"]
                written.add(args[-1])
                op = ops[a["op_index"]]
                schema = schemas.get(op["name"] + (f".{op['overload']}" if op.get("overload") else ""))
                if schema is not None and len(args) > len(schema.arguments):
                    written.update(args[len(schema.arguments):])
            elif ins.get("instr_args_type") == "MoveCall":
                written.add(a["move_to"])
    return written


def corpus_programs():
    files = sorted((CORPUS / "pte").iterdir()) + sorted((CORPUS / "bpte").iterdir())
    return [f for f in files if f.is_file() and f.read_bytes()[4:8] in (b"ET12", b"BP08")]


@pytest.fixture(scope="module")
def schemas():
    return torch_schemas()


def check_file(path, out_dir, schemas):
    """Decodes `path` with flatc and with etviz, and compares them."""
    raw = path.read_bytes()
    doc = etviz_graphs(path, out_dir)
    checker = Checker(path.name, schemas)
    if raw[4:8] == b"BP08":
        bundle = flatc_json(SCHEMAS / "bundled_program.fbs", path, out_dir)
        inner = bytes(bundle["program"])
        program_path = out_dir / "inner_program.pte"
        program_path.write_bytes(inner)
        program = flatc_json(SCHEMAS / "program.fbs", program_path, out_dir)
        # The program sits inside the bundle at the vector's file offset: found by content.
        checker.program(program, doc, inner, base_offset=raw.find(inner))
    else:
        program = flatc_json(SCHEMAS / "program.fbs", path, out_dir)
        checker.program(program, doc, raw)
    return checker


@pytest.fixture(scope="module")
def results(schemas, tmp_path_factory):
    """Every corpus program checked once; the tests below report per file and in total."""
    assert BIN and SCHEMAS.is_dir(), "run through ctest (ETVIZ_BIN, ETVIZ_SCHEMA_DIR)"
    out = {}
    for path in corpus_programs():
        out[path.name] = check_file(path, tmp_path_factory.mktemp("oracle"), schemas)
    return out


@pytest.mark.parametrize("path", corpus_programs(), ids=lambda p: p.name[:60])
def test_program_matches_flatc(path, results):
    checker = results[path.name]
    assert checker.checked["values"] > 0
    assert not checker.errors, f"{len(checker.errors)} mismatches:\n" + "\n".join(checker.errors[:60])


def test_the_suite_checks_names_and_values(results):
    """The suite must see what it claims to: across the corpus, every value, instruction and
    delegate, and every named ATen argument (figures of 2026-11-28; a decode that quietly
    checks less fails here)."""
    totals = {"values": 0, "instructions": 0, "named_arguments": 0, "delegates": 0}
    for checker in results.values():
        for k in totals:
            totals[k] += checker.checked[k]
    assert totals["values"] >= 1500, totals
    assert totals["instructions"] >= 360, totals
    assert totals["named_arguments"] >= 600, totals
    assert totals["delegates"] >= 33, totals


# The corpus has no program with thousands of values, folded views, et_view calls or reused
# memory: the generator's transformer in those forms, checked the same way.
GENERATED = [[], ["--views"], ["--views", "--reuse-memory", "--methods", "2"],
             ["--delegates", "--delegate-backend", "xnnpack"], ["--bundle"]]


@pytest.mark.parametrize("flags", GENERATED, ids=lambda f: " ".join(f) or "plain")
def test_generated_program_matches_flatc(flags, tmp_path, schemas):
    gen = os.environ.get("ETVIZ_GEN", "")
    assert gen, "run through ctest (ETVIZ_GEN)"
    path = tmp_path / ("model.bpte" if "--bundle" in flags else "model.pte")
    subprocess.run([gen, "program", "--blocks", "3", *flags, "-o", str(path)], check=True,
                   capture_output=True)
    checker = check_file(path, tmp_path, schemas)
    assert checker.checked["values"] > 300, checker.checked
    assert checker.checked["named_arguments"] > 100, checker.checked
    assert not checker.errors, f"{len(checker.errors)} mismatches:\n" + "\n".join(checker.errors[:60])
