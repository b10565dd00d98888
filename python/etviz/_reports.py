"""Diffs, memory plans and constants' statistics, as `etviz diff`, `etviz memory` and `etviz
tensors` report them."""

import json

from . import _etviz
from ._diff import Diff
from ._program import open as _open


def diff(*programs, graphs=None) -> Diff:
    """What changed between consecutive graphs, as ``etviz diff A B [C ...] --format json``
    reports it (``etviz.diff/1``), typed (:class:`etviz.Diff`): ExecuTorch programs named
    without a graph are compared whole (every method, weights, scalars, versions; a one-line
    verdict in ``.summary``), other graphs one pair each. `programs`: anything
    :func:`etviz.open` takes (open a program with ``data=[...]`` for its ``.ptd`` weights);
    `graphs`: per program, a graph (method, stage, pass) name or None for its main graph.
    ``.to_dataframe()``: one row per tensor that differs."""
    if len(programs) < 2:
        raise TypeError("etviz.diff needs two programs or more")
    names = list(graphs) if graphs is not None else [None] * len(programs)
    if len(names) != len(programs):
        raise TypeError("graphs= needs one entry per program")
    docs = [_open(p)._doc for p in programs]
    return Diff._from(json.loads(_etviz.diff_json(docs, [n or "" for n in names])))


def memory(program, method=None):
    """The memory plan of a method (``etviz memory --format json``, ``etviz.memory/1``):
    arenas with planned and peak bytes, tensors with lifetimes, overlaps (plan defects)."""
    return json.loads(_open(program)._doc.memory_json(method or ""))


def tensor_stats(program, name=None, bins=32, dequantize=False, data=None):
    """Statistics of a program's constants, as ``etviz tensors PROGRAM --format json`` gives
    them: a list of dicts (graph, name, dtype, shape, nbytes, location, quantization, and
    ``stats``: count, finite, nan, inf, zeros, min, max, mean, std, abs_max, histogram, and for
    quantized weights qmin/qmax with at_qmin/at_qmax). `name`: a glob over constant names;
    `data`: the program's .ptd files; `dequantize`: quantized weights' real values."""
    import os
    options = {"name": name, "bins": bins, "dequantize": bool(dequantize),
               "data": [os.fspath(d) for d in data] if data else None}
    options = {k: v for k, v in options.items() if v is not None}
    return json.loads(_etviz.tensors_json(os.fspath(program), options))["constants"]
