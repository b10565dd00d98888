"""Live forward-pass tracing: ``etviz.trace_model(model, *inputs)``.

Runs the real forward pass once and records every tensor operation through torch's official
hook for it, ``torch.overrides.TorchFunctionMode`` (``__torch_function__``), and every module
call through forward pre/post hooks on the model's modules. Nothing in torch's namespace is
patched; the hooks are removed and the mode exited even when the forward pass raises. The
result is a pass trace (docs/diff.md) with one snapshot, shown by the same page as every other
etviz input."""

import json
import linecache
import os
import sys
import weakref

from . import _etviz
from ._page import Page
from ._program import open as _open

_HERE = os.path.dirname(os.path.abspath(__file__))
_TORCH_DIR = os.sep + "torch" + os.sep


def _torch():
    try:
        import torch
        from torch.overrides import TorchFunctionMode
    except ImportError as e:
        raise ImportError("etviz.trace_model needs torch with torch.overrides.TorchFunctionMode "
                          "(Debian: python3-torch)") from e
    return torch, TorchFunctionMode


def _message(error):
    """`error` as text, even when its ``__str__`` raises."""
    try:
        return f"{type(error).__name__}: {error}"
    except Exception:  # a broken __str__ must not hide the real error
        return f"{type(error).__name__}: <its message could not be read>"


def _op_name(func):
    name = getattr(func, "__name__", None) or repr(func)
    if name.startswith("__") and name.endswith("__"):
        name = name[2:-2]
        if name.startswith("r") and name[1:] in ("add", "sub", "mul", "truediv", "matmul", "pow"):
            name = name[1:]
        if name.startswith("i") and name[1:] in ("add", "sub", "mul", "truediv"):
            name = name[1:] + "_"
    module = getattr(func, "__module__", "") or ""
    owner = getattr(func, "__objclass__", None) or getattr(func, "__self__", None)
    if owner is not None and getattr(owner, "__name__", "").lstrip("_") == "TensorBase":
        return f"Tensor.{name}"
    if module.startswith("torch.nn.functional") or module == "torch._C._nn":
        return f"F.{name}"
    return f"torch.{name}" if module.startswith("torch") else name


class TracedModel(Page):
    """A traced forward pass: shows as a page (``_repr_html_``, ``.save(path)``), and
    ``.save_trace(path)`` writes the graph in etviz's trace format, which ``etviz diff`` and
    ``etviz.diff`` compare with another traced version of the model."""

    def __init__(self, trace, html_text, error=None, height=640):
        super().__init__(html_text, height=height)
        self.trace = trace
        self.error = error

    @property
    def nodes(self):
        return self.trace["passes"][0].get("nodes", [])

    @property
    def edges(self):
        return self.trace["passes"][0].get("edges", [])

    def trace_bytes(self):
        """The trace as JSON bytes (``etviz.open`` reads them)."""
        return json.dumps(self.trace).encode()

    def save_trace(self, path):
        from ._page import _write_file
        return _write_file(path, json.dumps(self.trace))


def trace_model(model, *example_inputs, name=None, height=640, show_on_error=True, **kwargs):
    """Runs ``model(*example_inputs, **kwargs)`` once and returns a :class:`TracedModel`
    (a page in a notebook cell). If the forward pass raises, the graph up to the failing op is
    shown (in a notebook; the failing op carries the error, its inputs' shapes in the panel, the
    message in a banner) and the exception is re-raised, with the trace on it as
    ``exc.etviz_trace``.

    The trace holds tensors by weak reference: what the forward pass frees is freed while it
    runs, so tracing costs little memory beyond the untraced pass."""
    torch, TorchFunctionMode = _torch()
    if not isinstance(model, torch.nn.Module):
        raise TypeError(f"etviz.trace_model traces a torch.nn.Module, not a {type(model).__name__} "
                        "(wrap a function in a Module whose forward calls it)")
    recorder = _Recorder(torch, model)

    class Mode(TorchFunctionMode):
        def __torch_function__(self, func, types, args=(), kwargs=None):
            return recorder.call(func, args, kwargs or {})

    handles = []
    for path, module in model.named_modules():
        handles.append(module.register_forward_pre_hook(recorder.enter(path, module)))
        handles.append(module.register_forward_hook(recorder.leave()))
    error = None
    result = None
    try:
        recorder.add_inputs(example_inputs, kwargs)
        with Mode():
            result = model(*example_inputs, **kwargs)
        recorder.add_output(result)
    except Exception as e:  # shown, then re-raised below
        error = e
    finally:
        for h in handles:
            h.remove()
        recorder.release()
    trace = recorder.trace(name or type(model).__name__, error)
    doc = _etviz.open_bytes(f"{name or type(model).__name__}.trace.json", json.dumps(trace).encode())
    traced = TracedModel(trace, _etviz.page_html([doc], {}), error, height=height)
    if error is not None:
        if show_on_error:
            try:
                from IPython.display import display
                from IPython import get_ipython
                if get_ipython() is not None:
                    display(traced)
            except ImportError:
                pass
        error.etviz_trace = traced
        raise error
    return traced


class _Recorder:
    """What the mode and the hooks see, as trace nodes and edges."""

    def __init__(self, torch, model):
        self.torch = torch
        self.nodes = []
        self.edges = []
        # id(tensor) -> (node id, weak reference): a tensor freed by the forward pass drops out
        # (its id may be reused by a new tensor, which the reference tells apart).
        self.producer = {}
        self.modules = []   # (path, type) of the module calls in progress
        self.params = {id(p): n for n, p in model.named_parameters()}
        self.params.update({id(b): n for n, b in model.named_buffers()})
        self.failed = None
        self.depth = 0
        self.user_code = {}  # code object -> not torch's or etviz's (source locations)
        self.lines = {}      # (code, line) -> the stack_trace text
        self.stacks = {}     # module stack -> nn_module_stack detail

    # ---- module hierarchy ----
    def enter(self, path, module):
        def hook(_module, _inputs):
            self.modules.append((path, type(module).__name__))
        return hook

    def leave(self):
        def hook(_module, _inputs, _output):
            if self.modules:
                self.modules.pop()
        return hook

    # ---- tensors ----
    def tensors(self, value, out):
        """The tensors inside `value` (lists, tuples and dicts, however deep or
        self-referential), in order, each container visited once."""
        stack = [value]
        seen = set()
        while stack:
            v = stack.pop()
            if isinstance(v, self.torch.Tensor):
                out.append(v)
            elif isinstance(v, (list, tuple, dict)):
                if id(v) in seen:
                    continue
                seen.add(id(v))
                items = list(v.values()) if isinstance(v, dict) else list(v)
                stack.extend(reversed(items))
        return out

    def remember(self, t, node_id):
        key = id(t)

        def forget(ref, key=key):
            entry = self.producer.get(key)
            if entry is not None and entry[1] is ref:
                del self.producer[key]
        self.producer[key] = (node_id, weakref.ref(t, forget))

    def producer_of(self, t):
        entry = self.producer.get(id(t))
        return entry[0] if entry is not None and entry[1]() is t else None

    def describe(self, t):
        return {"shape": str(list(t.shape)), "dtype": str(t.dtype)}

    def node(self, node_id, op, target, details, category):
        entry = {"id": node_id, "label": target.split(".")[-1], "category": category,
                 "op_name": target, "details": {"op": op, "target": target, **details}}
        key = tuple(self.modules)
        stack = self.stacks.get(key)
        if stack is None:
            stack = self.stacks[key] = {p: [p, t] for p, t in self.modules if p}
        if stack:
            entry["details"]["nn_module_stack"] = stack
        self.nodes.append(entry)
        return entry

    def source(self):
        frame = sys._getframe(3)
        while frame is not None:
            code = frame.f_code
            user = self.user_code.get(code)
            if user is None:
                file = code.co_filename
                user = self.user_code[code] = not (file.startswith(_HERE) or _TORCH_DIR in file)
            if user:
                key = (code, frame.f_lineno)
                text = self.lines.get(key)
                if text is None:
                    line = linecache.getline(code.co_filename, frame.f_lineno).strip()
                    text = self.lines[key] = (f'File "{code.co_filename}", line {frame.f_lineno}, '
                                              f'in {code.co_name}\n    {line}')
                return text
            frame = frame.f_back
        return None

    def add_inputs(self, args, kwargs):
        inputs = self.tensors(list(args), []) + self.tensors(dict(kwargs), [])
        for k, t in enumerate(inputs):
            node_id = f"input_{k}"
            self.node(node_id, "placeholder", node_id, self.describe(t), "placeholder")
            self.remember(t, node_id)

    def source_of(self, t):
        """The node that made tensor t: a recorded op, an input, or a parameter/buffer (a
        constant node named by its fully qualified name, made on first use)."""
        node_id = self.producer_of(t)
        if node_id is None and id(t) in self.params:
            node_id = self.params[id(t)]
            self.node(node_id, "placeholder", node_id, self.describe(t), "param")
            self.remember(t, node_id)
        return node_id

    def call(self, func, args, kwargs):
        inputs = self.tensors(list(args), []) + self.tensors(dict(kwargs), [])
        node_id = None
        sources = []
        if self.depth == 0 and inputs:
            sources = [s for s in (self.source_of(t) for t in inputs) if s is not None]
        self.depth += 1
        try:
            result = func(*args, **kwargs)
        except Exception as e:
            self.depth -= 1
            if self.depth == 0 and self.failed is None:
                target = _op_name(func)
                node_id = f"{target.split('.')[-1]}_{len(self.nodes)}"
                details = {"input_shapes": [str(list(t.shape)) for t in inputs],
                           "error": _message(e)}
                src = self.source()
                if src:
                    details["stack_trace"] = src
                self.node(node_id, "call_function", target, details, "error")
                for s in dict.fromkeys(sources):
                    self.edges.append({"source": s, "target": node_id})
                self.failed = (node_id, target, e)
            raise
        self.depth -= 1
        if self.depth > 0:
            return result  # an op inside an op (a method's own torch calls): the outer is what ran
        outputs = self.tensors(result, [])
        if not outputs:
            return result  # size(), dim(), shape: not a tensor operation
        target = _op_name(func)
        node_id = f"{target.split('.')[-1]}_{len(self.nodes)}"
        details = self.describe(outputs[0])
        src = self.source()
        if src:
            details["stack_trace"] = src
        self.node(node_id, "call_function", target, details, "aten_compute")
        for s in dict.fromkeys(sources):
            self.edges.append({"source": s, "target": node_id})
        for t in outputs:
            self.remember(t, node_id)
        return result

    def add_output(self, result):
        self.node("output", "output", "output", {}, "placeholder")
        for s in dict.fromkeys(self.source_of(t) for t in self.tensors(result, [])):
            if s is not None:
                self.edges.append({"source": s, "target": "output"})

    def release(self):
        self.producer.clear()

    def trace(self, model_name, error):
        meta = {"model_name": "forward", "source_type": "etviz.trace_model", "total_nodes": len(self.nodes),
                "error": None}
        if error is not None:
            at = f" at {self.failed[0]} ({self.failed[1]})" if self.failed else ""
            name, _, text = _message(error).partition(": ")
            meta["error"] = {"pass_name": "forward", "message": f"{name}{at}: {text}", "traceback": ""}
        return {"model_name": model_name,
                "passes": [{"metadata": meta, "nodes": self.nodes, "edges": self.edges}]}
