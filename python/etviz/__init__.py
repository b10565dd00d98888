"""etviz: explore PyTorch -> ExecuTorch artifacts from Python and notebooks.

The same C++ library as the ``etviz`` command computes everything; this package gives it the
shapes ExecuTorch users know::

    import etviz
    prog = etviz.open("model.pte")                 # a path, bytes, or an object with .buffer
    etviz.visualize(prog, "model.html")            # the interactive page, one offline file
    etviz.show(prog)                               # the same page inside a notebook cell
    info = etviz.get_delegation_info(prog)         # ExecuTorch's get_delegation_info
    print(info.get_summary())
    df = info.get_operator_delegation_dataframe()  # pandas
    print(etviz.format_delegated_graph(prog))
    inspector = etviz.Inspector(etdump_path="run.etdp", etrecord="record.bin")
    inspector.print_data_tabular()
    etviz.diff("a.pte", "b.pte")                   # what changed (etviz.diff/1)
    etviz.memory("model.pte")                      # the memory plan (etviz.memory/1)
    etviz.trace_model(model, x)                    # a live forward pass, as a page

ExecuTorch's HTML visualizer's names (executorch.devtools.visualization) work unchanged::

    from etviz import generate_html, visualize_edge_manager, extract_from_pte
    graph_data = extract_from_pte("model.pte")     # plain data: metadata, nodes, edges
    generate_html(graph_data, "model.html")        # etviz's page

and ``python -m etviz ...`` (or the ``etviz`` command pip installs) is the etviz command.

Errors from files are :class:`etviz.Error` (a ``ValueError``) with the CLI's one-line message.
"""

from ._etviz import Error, version as _version
from ._program import DamagedFileWarning, Program, open
from ._page import Page, show, visualize
from ._delegation import DelegationBreakdown, DelegationInfo, format_delegated_graph, get_delegation_info
from ._inspector import Event, EventBlock, Inspector, PerfData
from ._diff import Diff, GraphDiff, ProgramDiff, TensorDiff, TensorStats, ValueDiff
from ._reports import diff, memory, tensor_stats
from ._trace import PassTracer
from ._live import TracedModel, trace_model
from ._visualization import (CATEGORIES, extract, extract_from_bpte, extract_from_etrecord,
                             extract_from_exported_program, extract_from_model_explorer_json,
                             extract_from_pt2, extract_from_pte, extract_from_ptd,
                             extract_from_tosa, extract_from_trace_json, generate_html,
                             generate_multi_pass_html, visualize_edge_manager)

__version__ = _version()

__all__ = [
    "Error", "DamagedFileWarning", "Program", "open", "Page", "show", "visualize", "DelegationBreakdown",
    "DelegationInfo", "format_delegated_graph", "get_delegation_info", "Event", "EventBlock",
    "Inspector", "PerfData", "diff", "Diff", "GraphDiff", "ProgramDiff", "TensorDiff",
    "TensorStats", "ValueDiff", "memory", "PassTracer", "TracedModel", "trace_model",
    "__version__", "tensor_stats", "CATEGORIES", "extract", "extract_from_bpte",
    "extract_from_etrecord", "extract_from_exported_program", "extract_from_model_explorer_json",
    "extract_from_pt2", "extract_from_pte", "extract_from_ptd", "extract_from_tosa",
    "extract_from_trace_json", "generate_html", "generate_multi_pass_html",
    "visualize_edge_manager",
]
