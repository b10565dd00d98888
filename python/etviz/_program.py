"""Opening programs: paths, bytes, ExecuTorch and torch.export objects."""

import io
import json
import os
import warnings

from . import _etviz


class Program:
    """A file etviz read: an ExecuTorch program (.pte/.bpte), weights (.ptd), an exported
    program (.pt2), an ETRecord, an ETDump or a pass trace."""

    def __init__(self, document, source=None):
        self._doc = document
        self._source = source  # the path, when there is one (profile joins read it again)
        for severity, message in document.diagnostics:
            if severity == "error":
                warnings.warn(f"{document.name}: {message}", DamagedFileWarning, stacklevel=3)

    @property
    def diagnostics(self):
        """What the reader noted, as ``[(severity, message)]``; severity is ``note``,
        ``warning`` or ``error`` (part of the file is damaged and left out)."""
        return list(self._doc.diagnostics)

    @property
    def damaged(self):
        """True when part of the file could not be read (a segment cut off by the end of the
        file): the rest is shown, as the CLI shows it before exiting 1."""
        return any(severity == "error" for severity, _ in self._doc.diagnostics)

    @property
    def side_files(self):
        """Files given beside the program (``tosa=``) and where each went, as a list of dicts:
        ``path``, ``kind`` (``tosa``), ``delegate`` (``forward/EthosUBackend#0``, or None when
        it attached nowhere), ``ambiguous`` (another file or delegate had the same inputs and
        outputs; paired in the order given) and ``note`` (why)."""
        return list(self._doc.side_files)

    @property
    def name(self):
        """The file name (or the name given with bytes)."""
        return self._doc.name

    @property
    def format(self):
        """``executorch_program``, ``torch_export_pt2``, ``etrecord``, ``pass_trace``, ..."""
        return self._doc.format

    @property
    def graphs(self):
        """Names of the graphs a user can ask for, in pipeline order."""
        return list(self._doc.graphs)

    @property
    def default_graph(self):
        """The graph meant when none is named: the one the page opens on, ``etviz export``
        draws and :func:`etviz.diff` and :func:`etviz.memory` take (``forward`` when it has
        nodes, else the largest graph); ``None`` when the file holds no graph."""
        return self._doc.default_graph or None

    def graph_data(self):
        """Every graph as etviz read it, as plain Python data (what ``etviz export --format
        graph-json`` writes, schema ``etviz.graph/1``): nodes with their named arguments, every
        value resolved as the runtime sees it (list items, symbolic sizes), each tensor's dtype,
        shape, dim order, memory placement and data location, and the delegates."""
        return json.loads(self._doc.graph_json())

    def info(self, method=None):
        """What ``etviz info --json`` prints (``etviz.info/1``), as a dict."""
        return json.loads(self._doc.info_json(method or ""))

    def __repr__(self):
        return f"<etviz.Program {self.name!r} {self.format}, graphs {self.graphs}>"


def _torch_bytes(obj):
    """Serialises an ExportedProgram (or an EdgeProgramManager's) with torch.export.save into
    memory; None when `obj` is not a torch object."""
    exported = None
    if hasattr(obj, "exported_program") and callable(obj.exported_program):
        exported = obj.exported_program()
    elif type(obj).__name__ == "ExportedProgram":
        exported = obj
    if exported is None:
        return None
    try:
        import torch
    except ImportError as e:  # pragma: no cover - depends on the machine
        raise Error("reading an ExportedProgram needs torch (Debian: python3-torch)") from e
    export = getattr(torch, "export", None)
    if export is None or not hasattr(export, "save"):
        raise Error(f"this torch ({torch.__version__}) has no torch.export.save; save the program "
                    "with the torch that exported it and pass the .pt2 path")
    buffer = io.BytesIO()
    export.save(exported, buffer)
    return buffer.getvalue()


Error = _etviz.Error


def _paths(value):
    """A path or a list of paths, as a list (tosa="dir" and tosa=["a.tosa", "b.tosa"])."""
    if value is None:
        return []
    if isinstance(value, (str, os.PathLike)):
        return [value]
    return list(value)


class DamagedFileWarning(UserWarning):
    """A file opened in part: a piece of it (a segment cut off by the end of the file) is
    missing and left out; ``Program.diagnostics`` says which."""


def open(program, *, data=None, tosa=None, name=None):
    """Reads `program`: a path (str or os.PathLike), ``bytes``/``bytearray``/``memoryview`` of
    any format etviz reads, an object with a ``.buffer`` holding .pte bytes (ExecuTorch's
    ExecutorchProgramManager), an ``ExportedProgram`` or an object with
    ``.exported_program()`` (EdgeProgramManager; needs torch.export), or a Program (returned
    as is). `data`: .ptd files with the program's external weights. `tosa`: TOSA graphs the
    Arm compiler wrote beside the program (.tosa files, or directories of them), each attached
    to the delegate whose inputs and outputs it matches (``Program.side_files`` says where)."""
    if isinstance(program, Program):
        return program
    if isinstance(program, (str, os.PathLike)):
        path = os.fspath(program)
        return Program(_etviz.open_path(path, [os.fspath(d) for d in (data or [])],
                                        [os.fspath(t) for t in _paths(tosa)]), path)
    if tosa:
        raise TypeError("etviz.open: tosa= needs the program as a path (the side files are "
                        "matched to its delegates when it is read)")
    if isinstance(program, (bytes, bytearray, memoryview)):
        return Program(_etviz.open_bytes(name or "program", bytes(program)))
    buffer = getattr(program, "buffer", None)
    if isinstance(buffer, (bytes, bytearray, memoryview)):
        return Program(_etviz.open_bytes(name or "program.pte", bytes(buffer)))
    serialised = _torch_bytes(program)
    if serialised is not None:
        return Program(_etviz.open_bytes(name or "exported_program.pt2", serialised))
    raise TypeError(f"etviz.open: cannot read a {type(program).__name__}; give a path, bytes, an "
                    "object with .buffer, or an ExportedProgram")
