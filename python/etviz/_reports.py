"""Diffs and memory plans, as `etviz diff` and `etviz memory` report them."""

import json

from . import _etviz
from ._program import open as _open


def diff(*programs, graphs=None):
    """What changed between consecutive graphs (``etviz diff A B [C ...] --format json``,
    ``etviz.diff/1``). `programs`: anything :func:`etviz.open` takes; `graphs`: per program, a
    graph (method, stage, pass) name or None for its main graph."""
    if len(programs) < 2:
        raise TypeError("etviz.diff needs two programs or more")
    names = list(graphs) if graphs is not None else [None] * len(programs)
    if len(names) != len(programs):
        raise TypeError("graphs= needs one entry per program")
    docs = [_open(p)._doc for p in programs]
    return json.loads(_etviz.diff_json(docs, [n or "" for n in names]))


def memory(program, method=None):
    """The memory plan of a method (``etviz memory --format json``, ``etviz.memory/1``):
    arenas with planned and peak bytes, tensors with lifetimes, overlaps (plan defects)."""
    return json.loads(_open(program)._doc.memory_json(method or ""))
