"""Typed results of :func:`etviz.diff`: the ``etviz.diff/1`` report (docs/diff.md) as
dataclasses. Programs compared whole have a :class:`ProgramDiff` per pair of files (verdict,
versions, methods only in A or B, named data) and a :class:`GraphDiff` per method; each graph
diff has its :class:`ValueDiff` (weights, tensor metadata, scalars, counts).
:meth:`Diff.to_dataframe` lists the tensors that differ, one row each."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Optional


@dataclass
class Difference:
    """One element that differs: memory position, logical multi-index, both numbers."""
    flat: int
    index: list[int]
    a: Optional[float]
    b: Optional[float]


def _number(v: Any) -> Optional[float]:
    """A figure as JSON holds it: a number, or "inf", "-inf", "nan"."""
    return float(v) if isinstance(v, str) else v


@dataclass
class TensorStats:
    """Element-wise figures of two tensors (analysis/tensor_compare.h, A the reference):
    ``positions`` compared, ``elements`` of them finite on both sides (the figures' n),
    ``differing`` positions whose numbers differ; NaN and Inf counted per side, left out."""
    positions: int
    elements: int
    differing: int
    max_abs: Optional[float]
    mean_abs: Optional[float]
    max_rel: Optional[float]
    cosine: Optional[float]
    snr_db: Optional[float]
    nan: tuple[int, int]
    inf: tuple[int, int]
    first: list[Difference]
    domain: str = "float"  # "integer": stored integers (quantized tensors) compared as such

    @classmethod
    def _from(cls, j: dict) -> "TensorStats":
        n = _number
        return cls(j["positions"], j["elements"], j["differing"], n(j["max_abs"]),
                   n(j["mean_abs"]), n(j["max_rel"]), n(j["cosine"]), n(j["snr_db"]),
                   (j["nan"]["a"], j["nan"]["b"]), (j["inf"]["a"], j["inf"]["b"]),
                   [Difference(f["flat"], f["index"], n(f["a"]), n(f["b"])) for f in j["first"]],
                   j.get("domain", "float"))


@dataclass
class FieldChange:
    field: str  # "scalar_type", "sizes", "dim_order", "storage_offset", "allocation", ...
    a: str
    b: str


@dataclass
class TensorDiff:
    """A tensor whose metadata or bytes differ. ``data``: "differ" (``stats`` set), "equal",
    "metadata" (another dtype or shape: not compared element-wise), "unavailable" (``note``
    says why), "not_constant"."""
    name: str
    dtype: str
    shape: str
    location: str
    data: str
    metadata: list[FieldChange]
    readers: list[dict]
    stats: Optional[TensorStats] = None
    dequantized: Optional[TensorStats] = None
    dequantized_by: str = ""
    note: str = ""

    @classmethod
    def _from(cls, j: dict) -> "TensorDiff":
        deq = j.get("dequantized")
        return cls(j["name"], j["dtype"], j["shape"], j["location"], j["data"],
                   [FieldChange(m["field"], m["a"], m["b"]) for m in j["metadata"]],
                   j["readers"], TensorStats._from(j["stats"]) if "stats" in j else None,
                   TensorStats._from(deq) if deq else None, deq.get("by", "") if deq else "",
                   j.get("note", ""))


@dataclass
class ScalarChange:
    """A value that is not a tensor read differently: ``int 0 -> 42``, ``int -> null``."""
    name: str
    kind: tuple[str, str]
    value: tuple[str, str]
    readers: list[dict]


@dataclass
class ValueDiff:
    values: tuple[int, int]
    instructions: tuple[int, int]
    non_const_buffer_sizes: tuple[list[int], list[int]]
    constants: dict
    tensors: list[TensorDiff]
    scalars: list[ScalarChange]
    constants_only_in_a: list[dict]
    constants_only_in_b: list[dict]
    nested: list["GraphDiff"]

    @classmethod
    def _from(cls, j: dict) -> "ValueDiff":
        c = j["counts"]
        return cls((c["values"]["a"], c["values"]["b"]),
                   (c["instructions"]["a"], c["instructions"]["b"]),
                   (j["non_const_buffer_sizes"]["a"], j["non_const_buffer_sizes"]["b"]),
                   j["constants"], [TensorDiff._from(t) for t in j["tensors"]],
                   [ScalarChange(s["name"], (s["kind"]["a"], s["kind"]["b"]),
                                 (s["value"]["a"], s["value"]["b"]), s["readers"])
                    for s in j["scalars"]],
                   j["constants_only_in_a"], j["constants_only_in_b"],
                   [GraphDiff._from(n, n.get("label", "")) for n in j["nested"]])


@dataclass
class GraphDiff:
    """Two matched graphs: node counts, changes, and their values (None when not compared)."""
    name: str
    same: int
    changed: int
    added: int
    removed: int
    changes: list[dict]
    only_in_a: list[dict]
    only_in_b: list[dict]
    values: Optional[ValueDiff]

    @classmethod
    def _from(cls, j: dict, name: str) -> "GraphDiff":
        return cls(name, j["same"], j["changed"], j["added"], j["removed"], j["changes"],
                   j["only_in_a"], j["only_in_b"],
                   ValueDiff._from(j["values"]) if "values" in j else None)


@dataclass
class ProgramDiff:
    """Two files compared whole: the one-line verdict and the file-level facts."""
    summary: str
    bitwise_equal: bool
    same_program: bool
    version: tuple[str, str]
    methods: dict[str, GraphDiff]
    methods_only_in_a: list[str]
    methods_only_in_b: list[str]
    named_data: list[dict]


@dataclass
class Diff:
    """What :func:`etviz.diff` returns. ``programs``: per pair of consecutive files compared
    whole (ExecuTorch programs named without a graph); ``diffs``: every graph pair, in the
    report's order. ``raw``: the ``etviz.diff/1`` JSON itself; ``diff["key"]`` reads it."""
    programs: list[ProgramDiff]
    diffs: list[GraphDiff]
    raw: dict = field(repr=False)

    def __getitem__(self, key: str) -> Any:
        return self.raw[key]

    @classmethod
    def _from(cls, j: dict) -> "Diff":
        names = [d.get("method") or j["graphs"][d["b"]]["graph"] for d in j["diffs"]]
        diffs = [GraphDiff._from(d, n) for d, n in zip(j["diffs"], names)]
        programs = []
        for p in j.get("programs", []):
            programs.append(ProgramDiff(
                p["summary"], p["bitwise_equal"], p["same_program"],
                (p["version"]["a"], p["version"]["b"]),
                {m["name"]: diffs[m["diff"]] for m in p["methods"]},
                p["methods_only_in_a"], p["methods_only_in_b"], p["named_data"]))
        return cls(programs, diffs, j)

    @property
    def summary(self) -> str:
        """The first pair's one-line verdict (whole programs), else node counts."""
        if self.programs:
            return self.programs[0].summary
        d = self.diffs[0]
        return f"{d.same} same, {d.changed} changed, {d.added} added, {d.removed} removed"

    def tensor_rows(self) -> list[dict]:
        """One row per tensor that differs (payload constants too): where, what, figures."""
        rows = []

        def walk(graph: str, values: Optional[ValueDiff]) -> None:
            if values is None:
                return
            for t in values.tensors:
                s = t.stats
                rows.append({
                    "graph": graph, "name": t.name, "dtype": t.dtype, "shape": t.shape,
                    "location": t.location, "data": t.data,
                    "metadata": "; ".join(f"{m.field} {m.a} -> {m.b}" for m in t.metadata),
                    "positions": s.positions if s else None,
                    "differing": s.differing if s else None,
                    "max_abs": s.max_abs if s else None, "mean_abs": s.mean_abs if s else None,
                    "max_rel": s.max_rel if s else None, "cosine": s.cosine if s else None,
                    "snr_db": s.snr_db if s else None,
                })
            for n in values.nested:
                walk(f"{graph}/{n.name}", n.values)

        for d in self.diffs:
            walk(d.name, d.values)
        return rows

    def to_dataframe(self):
        """The tensor rows as a pandas DataFrame (pandas needed)."""
        import pandas as pd
        columns = ["graph", "name", "dtype", "shape", "location", "data", "metadata", "positions",
                   "differing", "max_abs", "mean_abs", "max_rel", "cosine", "snr_db"]
        return pd.DataFrame(self.tensor_rows(), columns=columns)
