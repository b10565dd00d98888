"""ExecuTorch's delegation APIs (``executorch.devtools.backend_debug``), computed by etviz."""

import json
from dataclasses import dataclass, field

from ._program import open as _open


def _pandas():
    try:
        import pandas
    except ImportError as e:
        raise ImportError("this needs pandas (Debian: python3-pandas; pip: pandas)") from e
    return pandas


@dataclass
class DelegationBreakdown:
    """Occurrences of one operator inside delegated subgraphs and outside them."""
    op_type: str
    delegated: int
    non_delegated: int
    by_backend: dict = field(default_factory=dict)


@dataclass
class DelegationInfo:
    """What ExecuTorch's ``get_delegation_info`` returns, with the same names."""
    num_delegated_subgraphs: int
    num_delegated_nodes: int
    num_non_delegated_nodes: int
    delegation_by_operator: dict
    delegates: list = field(default_factory=list)
    backends: list = field(default_factory=list)
    report: dict = field(default_factory=dict)  # the whole `etviz delegation --format json`

    def get_summary(self) -> str:
        """The three counts, as ExecuTorch words them."""
        return (f"Total delegated subgraphs: {self.num_delegated_subgraphs}\n"
                f"Number of delegated nodes: {self.num_delegated_nodes}\n"
                f"Number of non-delegated nodes: {self.num_non_delegated_nodes}\n")

    def get_operator_delegation_dataframe(self):
        """One row per operator (op_type, occurrences_in_delegated_graphs,
        occurrences_in_non_delegated_graphs) and a final ``Total`` row (pandas)."""
        pd = _pandas()
        rows = [{"op_type": b.op_type, "occurrences_in_delegated_graphs": b.delegated,
                 "occurrences_in_non_delegated_graphs": b.non_delegated}
                for b in self.delegation_by_operator.values()]
        rows.append({"op_type": "Total",
                     "occurrences_in_delegated_graphs": sum(b.delegated for b in self.delegation_by_operator.values()),
                     "occurrences_in_non_delegated_graphs": sum(b.non_delegated for b in self.delegation_by_operator.values())})
        return pd.DataFrame(rows, columns=["op_type", "occurrences_in_delegated_graphs",
                                           "occurrences_in_non_delegated_graphs"])


def get_delegation_info(program, method=None, etrecord=None) -> DelegationInfo:
    """What each backend took and what stayed on the CPU (``etviz delegation``). `etrecord`:
    the program's ETRecord, to name operators by the edge-dialect ops they came from."""
    prog = _open(program)
    record = _open(etrecord)._doc if etrecord is not None else None
    report = json.loads(prog._doc.delegation_json(method or "", record))
    by_op = {}
    for o in report["operators"]:
        by_op[o["op_type"]] = DelegationBreakdown(
            o["op_type"], o["occurrences_in_delegated_graphs"],
            o["occurrences_in_non_delegated_graphs"], dict(o.get("delegated_by_backend", {})))
    return DelegationInfo(report["num_delegated_subgraphs"], report["num_delegated_nodes"],
                          report["num_non_delegated_nodes"], by_op, report.get("delegates", []),
                          report.get("backends", []), report)


def format_delegated_graph(program, method=None) -> str:
    """The program as indented text, each delegate's subgraph under its call."""
    return _open(program)._doc.delegated_graph(method or "")
