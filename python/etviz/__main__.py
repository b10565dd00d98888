"""``python -m etviz ...`` and the ``etviz`` console script: the etviz command itself.

The C++ entry point the binary's main calls (cli/run.h), so commands, flags, output and exit
codes are the binary's: ``python -m etviz model.pte -o model.html``, ``python -m etviz info
model.pte``, ``python -m etviz --help``.
"""

import signal
import sys

from . import _etviz


def main(argv=None):
    """Runs ``etviz ARGS`` (`argv`: the arguments, default ``sys.argv[1:]``) and returns its
    exit code. The process behaves as the binary does: a closed pipe and Ctrl-C end it with
    the default signal actions (Python's own handlers turn them into exceptions)."""
    args = list(sys.argv[1:] if argv is None else argv)
    for name in ("SIGPIPE", "SIGINT"):
        try:
            signal.signal(getattr(signal, name), signal.SIG_DFL)
        except (AttributeError, ValueError):  # no such signal here; not the main thread
            pass
    # Python's buffered output first, then the command writes to the same descriptors.
    sys.stdout.flush()
    sys.stderr.flush()
    return _etviz.cli_main(["etviz"] + [str(a) for a in args])


if __name__ == "__main__":
    sys.exit(main())
