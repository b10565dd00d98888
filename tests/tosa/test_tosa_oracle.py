"""The TOSA oracle: the corpus TOSA file and generated ones, decoded independently (Debian's
flatc with etviz's schema src/formats/tosa/schemas/tosa.fbs, to JSON, read here with Python's
json), compared fact by fact with what etviz exports (`etviz export --format graph-json`,
etviz.graph/1): operator counts per type, every operator's inputs and outputs in order, its
attributes, every tensor's name, dtype and shape, every constant's bytes where etviz says they
lie, every shape's values, the block's inputs and outputs. A mismatch names the file, the
operator or tensor, and the field. docs/delegates.md, "TOSA graphs".
"""

import collections
import json
import os
import pathlib
import struct
import subprocess

import pytest

CORPUS = pathlib.Path(os.environ.get("ETVIZ_CORPUS_DIR", ""))
BIN = os.environ.get("ETVIZ_BIN", "")
GEN = os.environ.get("ETVIZ_GEN", "")
FLATC = os.environ.get("ETVIZ_FLATC", "flatc")
SCHEMA = os.environ.get("ETVIZ_TOSA_SCHEMA", "")

CORPUS_TOSA = ("tosa/arm__pte-adapter-model-explorer__src__pte_adapter_model_explorer__tests__"
               "fixtures__mobilenet_v2_ethosu__output_tag1_TOSA-1.0+INT+int16+u55.tosa")

# The specification's operator names and the MLIR spirv.Tosa spellings etviz shows (the names
# Arm's Model Explorer adapter shows for VGF graphs), written out here, not derived.
OP_NAMES = {
    "ARGMAX": "ArgMax", "AVG_POOL2D": "AvgPool2D", "CONV2D": "Conv2D", "CONV3D": "Conv3D",
    "DEPTHWISE_CONV2D": "DepthwiseConv2D", "FFT2D": "FFT2D", "MATMUL": "MatMul",
    "MAX_POOL2D": "MaxPool2D", "RFFT2D": "RFFT2D", "TRANSPOSE_CONV2D": "TransposeConv2D",
    "CLAMP": "Clamp", "ERF": "Erf", "SIGMOID": "Sigmoid", "TANH": "Tanh", "ADD": "Add",
    "ARITHMETIC_RIGHT_SHIFT": "ArithmeticRightShift", "BITWISE_AND": "BitwiseAnd",
    "BITWISE_OR": "BitwiseOr", "BITWISE_XOR": "BitwiseXor", "INTDIV": "IntDiv",
    "LOGICAL_AND": "LogicalAnd", "LOGICAL_LEFT_SHIFT": "LogicalLeftShift",
    "LOGICAL_RIGHT_SHIFT": "LogicalRightShift", "LOGICAL_OR": "LogicalOr",
    "LOGICAL_XOR": "LogicalXor", "MAXIMUM": "Maximum", "MINIMUM": "Minimum", "MUL": "Mul",
    "POW": "Pow", "SUB": "Sub", "TABLE": "Table", "ABS": "Abs", "BITWISE_NOT": "BitwiseNot",
    "CEIL": "Ceil", "CLZ": "Clz", "COS": "Cos", "EXP": "Exp", "FLOOR": "Floor", "LOG": "Log",
    "LOGICAL_NOT": "LogicalNot", "NEGATE": "Negate", "RECIPROCAL": "Reciprocal",
    "RSQRT": "Rsqrt", "SIN": "Sin", "SELECT": "Select", "EQUAL": "Equal", "GREATER": "Greater",
    "GREATER_EQUAL": "GreaterEqual", "REDUCE_ALL": "ReduceAll", "REDUCE_ANY": "ReduceAny",
    "REDUCE_MAX": "ReduceMax", "REDUCE_MIN": "ReduceMin", "REDUCE_PRODUCT": "ReduceProduct",
    "REDUCE_SUM": "ReduceSum", "CONCAT": "Concat", "PAD": "Pad", "RESHAPE": "Reshape",
    "REVERSE": "Reverse", "SLICE": "Slice", "TILE": "Tile", "TRANSPOSE": "Transpose",
    "GATHER": "Gather", "SCATTER": "Scatter", "RESIZE": "Resize", "CAST": "Cast",
    "RESCALE": "Rescale", "IDENTITY": "Identity", "CUSTOM": "Custom", "COND_IF": "CondIf",
    "WHILE_LOOP": "WhileLoop", "VARIABLE": "Variable", "VARIABLE_WRITE": "VariableWrite",
    "VARIABLE_READ": "VariableRead",
}
CONSTANT_OPS = {"CONST", "CONST_SHAPE"}
# TOSA element types and etviz's canonical dtype names, with bytes per element.
DTYPES = {
    "BOOL": ("bool", 1), "INT4": ("int4", None), "INT8": ("int8", 1), "INT16": ("int16", 2),
    "INT32": ("int32", 4), "INT48": ("int48", 6), "FP32": ("float32", 4),
    "FP16": ("float16", 2), "BF16": ("bfloat16", 2), "SHAPE": ("shape", 8),
    "FP8E4M3": ("float8_e4m3fn", 1), "FP8E5M2": ("float8_e5m2", 1), "INT64": ("int64", 8),
}
INT_FORMATS = {"int8": "<b", "int16": "<h", "int32": "<i"}


def flatc_json(path, out_dir):
    # --defaults-json: fields equal to their default are written too (flatc leaves them out).
    subprocess.run([FLATC, "--json", "--strict-json", "--raw-binary", "--defaults-json",
                    "-o", str(out_dir), SCHEMA, "--", str(path)], check=True,
                   capture_output=True)
    return json.loads((out_dir / (path.stem + ".json")).read_text())


def etviz_graphs(path, out_dir):
    out = out_dir / (path.name + ".graph.json")
    r = subprocess.run([BIN, "export", str(path), "--format", "graph-json", "-o", str(out), "-q"],
                       capture_output=True, text=True)
    assert r.returncode == 0, f"{path.name}: etviz export failed: {r.stderr}"
    return json.loads(out.read_text())


def check_file(path, tmp_path):
    ref = flatc_json(path, tmp_path)
    ours = etviz_graphs(path, tmp_path)
    where = path.name
    v = ref["version"]
    assert ours["format"] == "tosa_flatbuffer", where
    assert ours["format_version"] == "TOSA {}.{}.{}{}".format(
        v["_major"], v["_minor"], v["_patch"], " draft" if v["_draft"] else ""), where
    data = path.read_bytes()
    blocks = [b for r in ref["regions"] for b in r.get("blocks", [])]
    assert len(ours["graphs"]) == len(blocks), where
    # The entry block is region "main"'s first; the others follow in file order.
    main = next(r for r in ref["regions"] if r["name"] == "main")
    order = [main["blocks"][0]] + [b for b in blocks if b is not main["blocks"][0]]
    for block, graph in zip(order, ours["graphs"]):
        check_block(where, block, graph, data)


def check_block(where, block, graph, data):
    where = f"{where} block {block.get('name')!r}"
    values = graph["values"]
    by_name = {v["name"]: v for v in values}
    tensors = block.get("tensors", [])
    shapes = block.get("shapes", [])
    assert len(values) == len(tensors) + len(shapes), where
    for t in tensors:
        v = by_name[t["name"]]
        dtype, size = DTYPES[t["type"]]
        assert v["dtype"] == dtype, f"{where} tensor {t['name']}: dtype"
        assert v["shape"] == t.get("shape", []), f"{where} tensor {t['name']}: shape"
        raw = t.get("data", [])
        if raw:
            blob = v["data"]["blob"]
            assert v["data"]["location"] == "inline", f"{where} tensor {t['name']}"
            assert blob["size"] == len(raw), f"{where} tensor {t['name']}: data size"
            got = data[blob["offset"]:blob["offset"] + blob["size"]]
            assert list(got) == raw, f"{where} tensor {t['name']}: bytes at the offset etviz gives"
            if size:
                numel = 1
                for d in t.get("shape", []):
                    numel *= d
                # The shape's bytes; the file may hold more (the corpus' per-channel weight
                # zero points: shape [1], one zero per output channel).
                assert v["nbytes"] == numel * size <= len(raw), f"{where} tensor {t['name']}"
        else:
            assert "data" not in v, f"{where} tensor {t['name']}: not a constant"
    for s in shapes:
        v = by_name[s["name"]]
        assert v["dtype"] == "shape" and v["shape"] == [s["rank"]], f"{where} shape {s['name']}"
        blob = v["data"]["blob"]
        got = data[blob["offset"]:blob["offset"] + blob["size"]]
        assert list(got) == s.get("data", []), f"{where} shape {s['name']}: bytes"
    nodes = graph["nodes"]
    name_of = lambda arg: values[arg["value"]]["name"]
    # Block inputs and outputs, in order, named as the file names them.
    assert [values[i]["name"] for i in graph["inputs"]] == block.get("inputs", []), where
    assert [values[i]["name"] for i in graph["outputs"]] == block.get("outputs", []), where
    assert [n["name"] for n in nodes if n["kind"] == "input"] == block.get("inputs", []), where
    # Operator counts per type.
    ops = block.get("operators", [])
    want = collections.Counter(OP_NAMES[o["op"]] for o in ops if o["op"] not in CONSTANT_OPS)
    got = collections.Counter(n["op"] for n in nodes if n["kind"] == "kernel")
    assert got == want, f"{where}: operators per type"
    constants = sum(1 for o in ops if o["op"] in CONSTANT_OPS)
    assert sum(1 for n in nodes if n["kind"] == "constant") == constants, where
    # Every operator, in order: its inputs and outputs, and its attributes.
    kernels = [n for n in nodes if n["kind"] == "kernel"]
    compute = [o for o in ops if o["op"] not in CONSTANT_OPS]
    assert len(kernels) == len(compute), where
    by_tensor = {values[n["outputs"][0]["value"]]["name"]: n for n in nodes
                 if n["kind"] == "constant"}
    for o in ops:
        if o["op"] in CONSTANT_OPS:
            for out in o["outputs"]:
                assert out in by_tensor, f"{where}: constant {out} has no node"
    for k, (o, n) in enumerate(zip(compute, kernels)):
        at = f"{where} operator {o['op']} #{k}"
        assert [name_of(a) for a in n["inputs"]] == o.get("inputs", []), f"{at}: inputs"
        assert [name_of(a) for a in n["outputs"]] == o.get("outputs", []), f"{at}: outputs"
        attrs = {a["name"]: a["value"] for a in n.get("attributes", [])}
        input_dtype = values[n["inputs"][0]["value"]]["dtype"] if n["inputs"] else None
        for field, value in o.get("attributes", {}).items():
            shown = attrs.get(field)
            assert shown is not None, f"{at}: attribute {field} not shown"
            if isinstance(value, bool):
                expect = "true" if value else "false"
            elif isinstance(value, list) and field in ("min_val", "max_val"):
                expect = str(struct.unpack(INT_FORMATS[input_dtype], bytes(value))[0])
            elif isinstance(value, list):
                expect = "[" + ", ".join(str(x) for x in value) + "]"
            else:
                expect = str(value)
            assert shown == expect, f"{at}: attribute {field}: {shown!r} != {expect!r}"


def test_corpus_file(tmp_path):
    check_file(CORPUS / CORPUS_TOSA, tmp_path)


def test_corpus_counts(tmp_path):
    """The figures the corpus README states: 769 operators, constants included."""
    ref = flatc_json(CORPUS / CORPUS_TOSA, tmp_path)
    ops = [o["op"] for r in ref["regions"] for b in r["blocks"] for o in b["operators"]]
    assert len(ops) == 769
    assert collections.Counter(ops) == {
        "CONST": 546, "RESCALE": 83, "CONV2D": 36, "CLAMP": 35, "CONST_SHAPE": 20, "RESHAPE": 20,
        "DEPTHWISE_CONV2D": 17, "ADD": 10, "TRANSPOSE": 1, "AVG_POOL2D": 1}


def test_generated_files(tmp_path):
    out = tmp_path / "ethosu"
    subprocess.run([GEN, "ethosu", "--delegates", "3", "--layers", "2", "--height", "6",
                    "--width", "6", "--decoy", "-o", str(out)], check=True, capture_output=True)
    files = sorted(out.glob("*.tosa"))
    assert len(files) == 4
    for f in files:
        check_file(f, tmp_path)
