"""Recording a pass trace from an export script (the trace format of docs/diff.md)."""

import json
import os
from ._page import _write_file


class PassTracer:
    """Records a snapshot of a program after each pass or named stage and writes an
    ``etviz.trace/1`` trace that ``etviz passes.json -o page.html`` steps through::

        with etviz.PassTracer("traces/llama", model="llama") as trace:
            ep = torch.export.export(model, inputs)
            trace.snapshot("export", ep)
            edge = to_edge(ep)
            trace.snapshot("to_edge", edge)          # EdgeProgramManager: .exported_program()
            trace.snapshot("lowered", edge.to_executorch())  # .buffer: a .pte
            trace.failed("quantize", "what went wrong")

    Each snapshot is written beside the trace (``.pt2`` through ``torch.export.save``, or the
    ``.pte`` bytes of an object with ``.buffer``, or a file you already have: pass its path).
    """

    def __init__(self, directory, model="model"):
        self.directory = os.fspath(directory)
        self.model = model
        self.passes = []
        os.makedirs(self.directory, exist_ok=True)

    @property
    def path(self):
        return os.path.join(self.directory, "trace.json")

    def _file(self, index, name, ext):
        safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)[:80]
        return f"{index:03d}_{safe}{ext}"

    def snapshot(self, name, program):
        """Records `program` after pass `name`: a path, an object with ``.buffer`` (.pte
        bytes), an ExportedProgram or an object with ``.exported_program()``."""
        index = len(self.passes) + 1
        if isinstance(program, (str, os.PathLike)):
            rel = os.path.relpath(os.fspath(program), self.directory)
            if rel == os.pardir or rel.startswith(os.pardir + os.sep):
                # A trace reads only its own folder (docs/limits.md): a copy goes in it.
                import shutil
                ext = os.path.splitext(os.fspath(program))[1]
                rel = self._file(index, name, ext)
                shutil.copyfile(os.fspath(program), os.path.join(self.directory, rel))
            entry = {"name": name, "file": rel}
        elif isinstance(getattr(program, "buffer", None), (bytes, bytearray, memoryview)):
            file = self._file(index, name, ".pte")
            _write_file(os.path.join(self.directory, file), bytes(program.buffer))
            entry = {"name": name, "file": file}
        else:
            from ._program import _torch_bytes
            data = _torch_bytes(program)
            if data is None:
                raise TypeError(f"PassTracer.snapshot: cannot record a {type(program).__name__}")
            file = self._file(index, name, ".pt2")
            _write_file(os.path.join(self.directory, file), data)
            entry = {"name": name, "file": file}
        self.passes.append(entry)
        self.write()
        return entry

    def failed(self, name, error):
        """Records that pass `name` failed with `error` (no graph after it)."""
        self.passes.append({"name": name, "error": str(error)})
        self.write()

    def write(self):
        """Writes the trace (also done after every snapshot); returns its path."""
        trace = {"format": "etviz.trace/1", "model": self.model, "passes": self.passes}
        return _write_file(self.path, json.dumps(trace, indent=2))

    def __enter__(self):
        return self

    def __exit__(self, kind, value, tb):
        if value is not None:
            self.failed("exception", f"{kind.__name__}: {value}")
        self.write()
        return False
