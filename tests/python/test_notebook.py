"""A real notebook, executed headless in a real Jupyter kernel, shows etviz pages; the saved
output then opens in headless Chromium and draws with no error and no request."""
import json
import os
import pathlib
import subprocess
import sys

import nbformat
from nbclient import NotebookClient

HERE = pathlib.Path(__file__).resolve().parent


def test_notebook_shows_pages_that_draw(corpus, tmp_path):
    kws = corpus / "pte/pytorch__executorch__examples__arduino__examples__KeywordSpotting__model.pte"
    dnf = corpus / "pte/berndporr__dnf_executorch__dnf.47145c4a.pte"
    nb = nbformat.v4.new_notebook()
    nb.cells = [
        nbformat.v4.new_code_cell("import etviz\ninfo = etviz.get_delegation_info(%r)\nprint(info.get_summary())" % str(dnf)),
        nbformat.v4.new_code_cell("etviz.show(%r)" % str(kws)),
        nbformat.v4.new_code_cell("etviz.show(%r, height=500)" % str(dnf)),
        nbformat.v4.new_code_cell("import torch\n"
                                  "model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))\n"
                                  "etviz.trace_model(model, torch.randn(2, 8), height=400)"),
    ]
    # A kernel of this interpreter (Debian's), whatever `python3` comes first on PATH.
    spec = tmp_path / "jupyter" / "kernels" / "etviz-python"
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "etviz test", "language": "python"}))
    os.environ["JUPYTER_PATH"] = str(tmp_path / "jupyter")
    # The kernel imports the etviz this test imports, wherever the kernel's directory is.
    import etviz
    package_root = str(pathlib.Path(etviz.__file__).resolve().parent.parent)
    os.environ["PYTHONPATH"] = os.pathsep.join([package_root, os.environ.get("PYTHONPATH", "")])
    client = NotebookClient(nb, timeout=120, kernel_name="etviz-python",
                            resources={"metadata": {"path": str(tmp_path)}})
    client.execute()
    saved = tmp_path / "executed.ipynb"
    nbformat.write(nb, saved)
    cells = nbformat.read(saved, as_version=4).cells
    assert "Total delegated subgraphs: 4" in cells[0].outputs[0]["text"]
    pages = []
    for cell in cells[1:4]:
        html = [o["data"]["text/html"] for o in cell.outputs if "text/html" in o.get("data", {})]
        assert html, cell.outputs
        assert html[0].startswith("<iframe srcdoc=")
        pages.append(html[0])
    # Both outputs on one page, as a notebook shows them: each draws, neither disturbs the other.
    wrapper = tmp_path / "notebook_output.html"
    wrapper.write_text("<!DOCTYPE html><html><body>" + "".join(pages) + "</body></html>", encoding="utf-8")
    r = subprocess.run(["node", str(HERE / "open_frames.mjs"), str(wrapper)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stdout + r.stderr
    result = json.loads(r.stdout)
    assert result["frames"] == 3
    assert result["ready"] == 3
    assert result["errors"] == []
    assert result["requests"] == []
    assert all(n > 0 for n in result["nodes"])
    assert result["nodes"][2] == 9  # the traced MLP: input, 4 parameters, 3 ops, output
