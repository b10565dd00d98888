"""ExecuTorch's ``Inspector`` over an ETDump, computed by etviz (``etviz profile``)."""

import json
import os
from dataclasses import dataclass, field

from . import _etviz

_UNITS = {"ns": "ns", "us": "us", "ms": "ms", "s": "s", "cycles": "cycles", "cycle": "cycles",
          "nanoseconds": "ns", "microseconds": "us", "milliseconds": "ms", "seconds": "s"}


def _unit(scale):
    """'ns', TimeScale.NS (ExecuTorch's enum: value 'ns') or None."""
    if scale is None:
        return None
    value = getattr(scale, "value", scale)
    text = str(value).lower()
    if text not in _UNITS:
        raise ValueError(f"unknown time scale {scale!r}; use one of ns, us, ms, s, cycles")
    return _UNITS[text]


@dataclass
class PerfData:
    """Durations of one event's occurrences, in the inspector's target unit."""
    raw: list
    p10: float = 0.0
    p50: float = 0.0
    p90: float = 0.0
    avg: float = 0.0
    min: float = 0.0
    max: float = 0.0

    @property
    def median(self):
        return self.p50


@dataclass
class Event:
    """One profiled event (an operator call, a delegate call, a backend's own event)."""
    name: str
    perf_data: PerfData
    op_types: list = field(default_factory=list)
    delegate_debug_identifier: object = None
    delegate_backend_name: str = None
    is_delegated_op: bool = None
    debug_handles: list = field(default_factory=list)
    module_hierarchy: list = field(default_factory=list)
    stack_traces: list = field(default_factory=list)
    instruction_id: int = None
    chain_index: int = None
    occurrences: int = 0
    nested_in: int = None  # index in the block's events of the event this one runs inside


@dataclass
class EventBlock:
    name: str
    events: list


class Inspector:
    """``Inspector(etdump_path=..., etrecord=..., source_time_scale=..., target_time_scale=...)``
    as ExecuTorch's: event blocks with perf data, ``to_dataframe()``,
    ``print_data_tabular()``, ``find_total_for_module()``. `program`: the .pte that ran (to
    join instructions with ops when no ETRecord is given)."""

    def __init__(self, etdump_path, etrecord=None, source_time_scale=None, target_time_scale=None,
                 program=None, debug_buffer_path=None, method=None):
        self._options = {"etrecord": os.fspath(etrecord) if etrecord is not None else None,
                         "program": os.fspath(program) if program is not None else None,
                         "source_unit": _unit(source_time_scale), "unit": _unit(target_time_scale),
                         "debug_buffer": os.fspath(debug_buffer_path) if debug_buffer_path else None,
                         "method": method}
        self._options = {k: v for k, v in self._options.items() if v is not None}
        self._etdump = os.fspath(etdump_path)
        self.report = json.loads(_etviz.profile_json(self._etdump, self._options))
        self.unit = self.report.get("unit")
        blocks = {}
        for e in self.report["events"]:
            stats = PerfData(list(e.get("raw", [])), e.get("p10", 0.0), e.get("p50", 0.0), e.get("p90", 0.0),
                             e.get("avg", 0.0), e.get("min", 0.0), e.get("max", 0.0))
            delegated = e.get("delegated")
            event = Event(e["name"], stats, list(e.get("op_types", [])), e.get("delegate_debug_id"),
                          e.get("backend"), delegated, list(e.get("debug_handles", [])),
                          list(e.get("module_hierarchy", [])), list(e.get("stack", [])),
                          e.get("instruction"), e.get("chain"), e.get("occurrences", 0), e.get("nested_in"))
            blocks.setdefault(e["block"], []).append(event)
        self.event_blocks = [EventBlock(name, events) for name, events in blocks.items()]

    def to_dataframe(self):
        """One row per event: event_block_name, event_name, raw, p10, p50, p90, avg, min, max,
        op_types, delegate_debug_identifier, is_delegated_op, delegate_backend_name,
        debug_handles, module_hierarchy, stack_traces (pandas)."""
        from ._delegation import _pandas
        pd = _pandas()
        rows = []
        for block in self.event_blocks:
            for e in block.events:
                p = e.perf_data
                rows.append({"event_block_name": block.name, "event_name": e.name, "raw": p.raw,
                             "p10": p.p10, "p50": p.p50, "p90": p.p90, "avg": p.avg, "min": p.min,
                             "max": p.max, "op_types": e.op_types,
                             "delegate_debug_identifier": e.delegate_debug_identifier,
                             "is_delegated_op": e.is_delegated_op,
                             "delegate_backend_name": e.delegate_backend_name,
                             "debug_handles": e.debug_handles, "module_hierarchy": e.module_hierarchy,
                             "stack_traces": e.stack_traces})
        return pd.DataFrame(rows)

    def print_data_tabular(self, file=None):
        """The table `etviz profile` prints."""
        print(_etviz.profile_text(self._etdump, self._options), end="", file=file)

    def find_total_for_module(self, module_name):
        """Sum of the average times of the events that ran inside module `module_name`
        (ExecuTorch's definition; nested events counted once), as ``etviz profile
        --module-totals`` computes it."""
        return sum(m["total_of_averages"] for m in self.report.get("module_totals", [])
                   if m["module"] == module_name)

    def numerics(self, reference, reference_debug_buffer_path=None, thresholds=None, run=None,
                 test_case=None):
        """``etviz numerics`` of this run: its intermediate outputs (debug events, bytes in
        `debug_buffer_path`) against `reference` (another Inspector, an .etdp path, or a bundled
        program whose expected outputs the method outputs are compared with). The report as
        etviz.numerics/1 JSON (dict), figures as docs/numerics.md defines them."""
        options = {k: self._options.get(k) for k in ("debug_buffer", "program", "method")}
        if isinstance(reference, Inspector):
            options["reference"] = reference._etdump
            options["reference_debug_buffer"] = reference._options.get("debug_buffer")
        else:
            options["reference"] = os.fspath(reference)
        if reference_debug_buffer_path is not None:
            options["reference_debug_buffer"] = os.fspath(reference_debug_buffer_path)
        options["thresholds"] = list(thresholds) if thresholds else None
        options["run"] = run
        options["test_case"] = test_case
        options = {k: v for k, v in options.items() if v is not None}
        return json.loads(_etviz.numerics_json(self._etdump, options))

    def calculate_numeric_gap(self, distance="MSE", reference=None, reference_debug_buffer_path=None,
                              thresholds=None):
        """ExecuTorch's ``calculate_numeric_gap``, between this run and `reference` (another
        Inspector, an .etdp path, or a bundled program's expected outputs): a pandas DataFrame,
        one row per logged output in execution order, with ExecuTorch's columns where they
        apply (``runtime_ops``, ``runtime_intermediate_output`` and ``aot_intermediate_output``
        as numpy arrays, the reference standing in for the AOT side; ``gap``: [the `distance`
        figure]) and ours (instruction, status, domain, mse, l1, snr, cosine, max_abs,
        divergent, first_divergent). `distance`: "MSE", "L1" or "SNR"."""
        from ._delegation import _pandas
        pd = _pandas()
        key = {"mse": "mse", "l1": "l1", "snr": "snr"}.get(str(distance).lower())
        if key is None:
            raise ValueError(f"unknown distance {distance!r}; use MSE, L1 or SNR")
        if reference is None:
            raise ValueError("calculate_numeric_gap needs a reference: another Inspector, an "
                             ".etdp path or a bundled program (.bpte)")
        report = self.numerics(reference, reference_debug_buffer_path, thresholds)
        run_buffer = self._options.get("debug_buffer")
        ref_buffer = None
        if isinstance(reference, Inspector):
            ref_buffer = reference._options.get("debug_buffer")
        if reference_debug_buffer_path is not None:
            ref_buffer = os.fspath(reference_debug_buffer_path)
        first = report["first_divergent"]["row"] if report.get("first_divergent") else None
        rows = []
        for r in report["rows"]:
            gap = r.get(key)
            rows.append({
                "runtime_ops": [r.get("op", r.get("name", ""))],
                "runtime_intermediate_output": _debug_array(run_buffer, r.get("run")),
                "aot_intermediate_output": _debug_array(ref_buffer, r.get("reference")),
                "gap": [_figure(gap)] if gap is not None else [],
                "instruction": r["instruction"], "output": r["output"], "status": r["status"],
                "domain": r.get("domain"), "mse": _figure(r.get("mse")), "l1": _figure(r.get("l1")),
                "snr": _figure(r.get("snr")), "cosine": _figure(r.get("cosine")),
                "max_abs": _figure(r.get("max_abs")), "divergent": r.get("divergent", False),
                "first_divergent": r["index"] == first,
            })
        return pd.DataFrame(rows)


_NUMPY_DTYPES = {"float32": "<f4", "float64": "<f8", "float16": "<f2", "int8": "i1", "uint8": "u1",
                 "int16": "<i2", "uint16": "<u2", "int32": "<i4", "uint32": "<u4", "int64": "<i8",
                 "uint64": "<u8", "bool": "?", "qint8": "i1", "quint8": "u1", "qint32": "<i4"}


def _figure(v):
    """JSON figures: numbers, or "inf"/"-inf"/"nan" as text."""
    return float(v) if isinstance(v, str) else v


def _debug_array(buffer, side):
    """A logged tensor's bytes in the debug buffer as a read-only numpy array (mapped, not
    copied), or None when there is no buffer or the tensor is not in it."""
    if not buffer or not side or side.get("kind") not in ("Tensor", "TensorList"):
        return None
    dtype = _NUMPY_DTYPES.get(side.get("dtype"))
    if dtype is None or "offset" not in side or "missing" in side:
        return None
    import numpy as np
    shape = tuple(side.get("shape", []))
    return np.memmap(buffer, dtype=dtype, mode="r", offset=side["offset"], shape=shape or (1,)).reshape(shape)
