"""The interactive page: written to a file, or shown in a notebook cell."""

import html
import os

from . import _etviz
from ._program import Program, open as _open

# `etviz view`'s page options (session/page_options.h, as keywords: source_unit for
# --source-unit), and compress.
_OPTIONS = tuple(_etviz.page_options()) + ("compress",)


def _page_html(programs, options):
    unknown = set(options) - set(_OPTIONS)
    if unknown:
        raise TypeError(f"unknown option(s) {sorted(unknown)}; options are {list(_OPTIONS)}")
    opts = {k: (os.fspath(v) if isinstance(v, os.PathLike) else v) for k, v in options.items()
            if v is not None}
    temps = []
    # Given as dicts ({node name: group name}; Model Explorer node data), as temporary files.
    for key in ("groups", "node_data"):
        if isinstance(opts.get(key), dict):
            import json
            import tempfile
            with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
                json.dump(opts[key], f)
            opts[key] = f.name
            temps.append(f.name)
    if "etrecord" in opts and isinstance(opts["etrecord"], Program):
        if opts["etrecord"]._source is None:
            raise TypeError("etrecord= needs a path (the profile join reads the file)")
        opts["etrecord"] = opts["etrecord"]._source
    if not isinstance(programs, (list, tuple)):
        programs = [programs]
    docs = [_open(p)._doc for p in programs]
    try:
        return _etviz.page_html(docs, opts)
    finally:
        for temp in temps:
            os.unlink(temp)


def _write_file(path, text):
    """Writes `text` (str or bytes) by the CLI's rules (docs/limits.md, "Outputs never harm"):
    never over a file this process read (by device and inode), devices and FIFOs in place,
    files replaced atomically with their mode kept. Returns the path."""
    data = text.encode("utf-8") if isinstance(text, str) else bytes(text)
    _etviz.write_file(os.fspath(path), data)
    return os.fspath(path)


class Page:
    """A page etviz wrote. ``str(page)`` is the HTML; in a notebook the page shows in the
    cell (a sandboxed iframe: offline, and several pages on one notebook do not interfere)."""

    def __init__(self, html_text, height=640):
        self.html = html_text
        self.height = height

    def save(self, path):
        """Writes the page to `path` (returns the path)."""
        return _write_file(path, self.html)

    def _repr_html_(self):
        # srcdoc keeps the page self-contained; the sandbox lets its scripts run but gives them
        # no access to the notebook (another origin) and no network beyond what the page's own
        # Content-Security-Policy already forbids.
        return (f'<iframe srcdoc="{html.escape(self.html, quote=True)}" '
                f'sandbox="allow-scripts allow-downloads" '
                f'style="width:100%;height:{int(self.height)}px;border:1px solid #ddd;border-radius:6px" '
                f'title="etviz" loading="lazy"></iframe>')

    def __str__(self):
        return self.html


def visualize(program, path=None, **options):
    """Writes the page `etviz FILE -o PATH` writes and returns its path. `program`: anything
    :func:`etviz.open` takes, or a list of them (one page, a file selector). Options as the CLI:
    ``etdump``, ``etrecord``, ``method``, ``source_unit``, ``unit``, ``block`` (profile overlay),
    ``categories`` (JSON file), ``stages`` (step through an ETRecord's stages), ``compress``,
    ``groups`` ({node name: group name} or a JSON file: Model Explorer's visualize_with_clusters
    grouping, each group one box), ``node_data`` (Model Explorer node data, a dict such as
    ``{"results": {node: {"value": 3.5}}, "gradient": [...]}`` or a JSON file: values and
    colours over the nodes, docs/export.md)."""
    page = Page(_page_html(program, options))
    if path is None:
        first = program[0] if isinstance(program, (list, tuple)) else program
        base = os.path.basename(os.fspath(first)) if isinstance(first, (str, os.PathLike)) else "etviz"
        path = os.path.splitext(base)[0] + ".html"
    return page.save(path)


def show(program, height=640, **options):
    """The page as a notebook cell output (``_repr_html_``); options as :func:`visualize`."""
    return Page(_page_html(program, options), height=height)
