"""The console-script entry point (``deckcheck``, ``python -m deckcheck``)."""

from __future__ import annotations

import gc

from deckcheck.cli.process import guarded_process


def main() -> None:
    """Run the command line. The process guard is in place before the command line's heavier
    imports, so a signal during start-up is answered like one during the run."""
    # The cycle collector's passes walk every object the process holds, and most of those are
    # the modules' own: made by the imports, alive until the process ends. So the imports run
    # without the collector and what they made is set aside (gc.freeze) before the command
    # runs; at the end the same is done before the interpreter's last full pass, which would
    # only find what the exiting process gives back anyway (every file deckcheck writes is
    # closed before its command returns). A validation's start costs ≈ 25 ms less.
    gc.disable()
    try:
        with guarded_process():
            import sys

            from deckcheck.cli.app import app_for
            from deckcheck.cli.render import tolerate_unencodable_output

            gc.freeze()
            gc.enable()
            tolerate_unencodable_output()
            app_for(sys.argv[1:])(prog_name="deckcheck")
    finally:
        gc.freeze()
        gc.enable()
