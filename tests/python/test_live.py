"""etviz.trace_model on real torch models (no mocks): exact ops, hierarchy, shapes, the partial
graph of a failing forward pass, and torch left as it was."""
import collections
import json
import os
import subprocess

import pytest

import etviz

torch = pytest.importorskip("torch")
nn = torch.nn
F = torch.nn.functional


def ops(traced):
    return collections.Counter(n["op_name"] for n in traced.nodes if n["details"]["op"] == "call_function")


def node(traced, op):
    return next(n for n in traced.nodes if n["op_name"] == op)


def test_mlp_ops_shapes_and_hierarchy():
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 4)).eval()
    t = etviz.trace_model(model, torch.randn(2, 8))
    assert ops(t) == {"F.linear": 2, "F.relu": 1}
    assert [n["id"] for n in t.nodes if n["details"]["op"] == "placeholder"] == [
        "input_0", "0.weight", "0.bias", "2.weight", "2.bias"]
    assert node(t, "F.relu")["details"]["shape"] == "[2, 16]"
    assert node(t, "F.relu")["details"]["nn_module_stack"] == {"1": ["1", "ReLU"]}
    assert {"source": "input_0", "target": "linear_3"} in t.edges
    assert t.edges[-1]["target"] == "output"
    # Source locations name the user's code, not torch's or etviz's.
    assert "test_live.py" in node(t, "F.relu")["details"]["stack_trace"]
    assert "torch" + "/nn" not in node(t, "F.relu")["details"]["stack_trace"]
    html = t._repr_html_()
    assert html.startswith("<iframe srcdoc=")


class Residual(nn.Module):
    def __init__(self, c):
        super().__init__()
        self.conv1 = nn.Conv2d(c, c, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(c)
        self.conv2 = nn.Conv2d(c, c, 3, padding=1)
        self.bn2 = nn.BatchNorm2d(c)

    def forward(self, x):
        y = F.relu(self.bn1(self.conv1(x)))
        y = self.bn2(self.conv2(y))
        return F.relu(x + y)


class SmallCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Conv2d(3, 8, 3, padding=1)
        self.blocks = nn.Sequential(Residual(8), Residual(8))
        self.head = nn.Linear(8, 10)

    def forward(self, x):
        x = self.blocks(self.stem(x))
        x = torch.flatten(F.adaptive_avg_pool2d(x, 1), 1)
        return self.head(x)


def test_cnn_with_batchnorm_and_residuals():
    t = etviz.trace_model(SmallCNN().eval(), torch.randn(1, 3, 16, 16))
    c = ops(t)
    assert c["torch.conv2d"] == 5
    assert c["F.batch_norm"] == 4
    assert c["F.relu"] == 4
    assert c["Tensor.add"] == 2
    assert c["F.adaptive_avg_pool2d"] == 1 and c["torch.flatten"] == 1 and c["F.linear"] == 1
    # Hierarchy: the second block's second BatchNorm.
    bn = [n for n in t.nodes if n["op_name"] == "F.batch_norm"][-1]
    assert list(bn["details"]["nn_module_stack"]) == ["blocks", "blocks.1", "blocks.1.bn2"]
    assert bn["details"]["shape"] == "[1, 8, 16, 16]"
    # The page groups by module: blocks > blocks.1 > ...
    prog = etviz.open(t.trace_bytes(), name="cnn.trace.json")
    assert prog.format == "pass_trace"


def test_transformer_encoder_and_lstm():
    layer = nn.TransformerEncoderLayer(d_model=16, nhead=2, dim_feedforward=32, batch_first=True)
    enc = nn.TransformerEncoder(layer, num_layers=2).eval()
    t = etviz.trace_model(enc, torch.randn(1, 5, 16))
    paths = {p for n in t.nodes for p in n["details"].get("nn_module_stack", {})}
    assert {"layers.0", "layers.1", "layers.0.self_attn", "layers.1.linear2"} <= paths
    assert node(t, "F.linear")["details"]["dtype"] == "torch.float32"
    lstm = nn.LSTM(input_size=4, hidden_size=8, batch_first=True).eval()
    t2 = etviz.trace_model(lstm, torch.randn(2, 3, 4))
    assert sum(ops(t2).values()) >= 1
    assert any(n["id"].startswith("weight_ih_l0") for n in t2.nodes)


class Broken(nn.Module):
    def __init__(self):
        super().__init__()
        self.a = nn.Linear(4, 6)
        self.b = nn.Linear(4, 5)

    def forward(self, x):
        return torch.cat([self.a(x), self.b(x)], dim=0)  # [2, 6] and [2, 5]: dim 1 differs


def test_failing_forward_shows_the_partial_graph_and_reraises():
    with pytest.raises(RuntimeError) as info:
        etviz.trace_model(Broken(), torch.randn(2, 4))
    traced = info.value.etviz_trace
    assert ops(traced) == {"F.linear": 2, "torch.cat": 1}
    failed = node(traced, "torch.cat")
    assert failed["category"] == "error"
    assert failed["details"]["input_shapes"] == ["[2, 6]", "[2, 5]"]
    assert "Sizes of tensors must match" in failed["details"]["error"]
    error = traced.trace["passes"][0]["metadata"]["error"]["message"]
    assert error.startswith("RuntimeError at cat_")


def test_the_failed_op_is_of_category_error_through_the_trace_reader(etviz_bin, tmp_path):
    """The trace JSON read back (the path `etviz TRACE.json` takes): the failed op, and only it,
    is of the page's category `error`, its exception text kept as the model raised it."""
    with pytest.raises(RuntimeError) as info:
        etviz.trace_model(Broken(), torch.randn(2, 4), show_on_error=False)
    traced = info.value.etviz_trace
    path = tmp_path / "broken.json"
    traced.save_trace(path)
    want = {n["id"] for n in traced.trace["passes"][0]["nodes"] if n["category"] == "error"}
    assert len(want) == 1
    out = tmp_path / "graph.json"
    subprocess.run([etviz_bin, "export", str(path), "--format", "graph-json", "-o", str(out), "-q"],
                   check=True)
    nodes = [n for g in json.loads(out.read_text())["graphs"] for n in g["nodes"]]
    assert {n["name"] for n in nodes if n["category"] == "error"} == want
    failed = next(n for n in nodes if n["name"] in want)
    assert dict((a["name"], a["value"]) for a in failed["attributes"])["error"].startswith(
        "RuntimeError: Sizes of tensors must match")
    # The visualizer's names keep the seven categories; etviz's is in the details.
    data = etviz.extract_from_trace_json(path)
    nodes = data["passes"][0]["nodes"] if "passes" in data else data["nodes"]
    assert {n["id"] for n in nodes if n["details"]["etviz_category"] == "error"} == want


def test_torch_is_left_as_it_was():
    before = (torch.cat, F.linear, torch.Tensor.add, torch.overrides._get_current_function_mode()
              if hasattr(torch.overrides, "_get_current_function_mode") else None)
    model = Broken()
    with pytest.raises(RuntimeError):
        etviz.trace_model(model, torch.randn(2, 4), show_on_error=False)
    etviz.trace_model(nn.Linear(4, 2), torch.randn(1, 4))
    after = (torch.cat, F.linear, torch.Tensor.add, torch.overrides._get_current_function_mode()
             if hasattr(torch.overrides, "_get_current_function_mode") else None)
    assert before == after
    assert all(not m._forward_hooks and not m._forward_pre_hooks for m in model.modules())
    x = torch.ones(2, 2)
    assert torch.equal(torch.cat([x, x]), torch.ones(4, 2))


def test_a_traced_model_diffs_against_another_version(tmp_path):
    a = etviz.trace_model(nn.Sequential(nn.Linear(4, 8), nn.ReLU()), torch.randn(1, 4))
    b = etviz.trace_model(nn.Sequential(nn.Linear(4, 8), nn.GELU()), torch.randn(1, 4))
    pa, pb = a.save_trace(tmp_path / "a.json"), b.save_trace(tmp_path / "b.json")
    d = etviz.diff(pa, pb)["diffs"][0]
    assert d["removed"] == 1 and d["added"] == 1  # relu out, gelu in
    assert d["same"] >= 3


# A 40-step forward pass whose steps each make two 4 MiB tensors and drop the last one: untraced it
# holds about two at a time. Run in fresh interpreters (peak RSS is per process).
_PEAK_SCRIPT = r"""
import resource, sys, torch, etviz
class Steps(torch.nn.Module):
    def forward(self, x):
        for _ in range(40):
            x = x * 1.0001 + 1
        return x
x = torch.zeros(1024 * 1024)
Steps()(x)  # warm-up: torch's own first-call allocations in both runs
base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
if sys.argv[1] == "traced":
    etviz.trace_model(Steps(), x)
else:
    Steps()(x)
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base)
"""


def test_tracing_keeps_no_tensor_the_pass_frees():
    import subprocess
    import sys
    grown = {}
    for mode in ("untraced", "traced"):
        r = subprocess.run([sys.executable, "-c", _PEAK_SCRIPT, mode], capture_output=True, text=True,
                           env=dict(os.environ), timeout=300)
        assert r.returncode == 0, r.stderr
        grown[mode] = int(r.stdout.split()[-1]) / 1024  # KiB -> MiB
    # 40 steps x 2 tensors of 4 MiB would be 320 MiB if the trace held them.
    assert grown["traced"] < grown["untraced"] + 64, grown


def test_self_referential_outputs_are_walked_once():
    class Loop(nn.Module):
        def forward(self, x):
            out = [x + 1]
            out.append(out)  # a list holding itself
            return out
    t = etviz.trace_model(Loop(), torch.randn(2))
    out = [e for e in t.edges if e["target"] == "output"]
    assert [e["source"] for e in out] == [node(t, "Tensor.add")["id"]]


class _Unprintable(Exception):
    def __str__(self):
        raise ValueError("no text")


def test_an_exception_that_cannot_be_printed_is_still_reraised():
    class Raises(nn.Module):
        def forward(self, x):
            raise _Unprintable()
    with pytest.raises(_Unprintable) as info:
        etviz.trace_model(Raises(), torch.randn(2), show_on_error=False)
    message = info.value.etviz_trace.trace["passes"][0]["metadata"]["error"]["message"]
    assert message.startswith("_Unprintable") and "could not be read" in message


def test_a_plain_function_is_refused():
    with pytest.raises(TypeError, match="torch.nn.Module"):
        etviz.trace_model(lambda x: x + 1, torch.randn(2))
