"""The console-script entry point (``deckcheck``, ``python -m deckcheck``)."""

from __future__ import annotations

import gc

from deckcheck.cli.process import guarded_process


def main() -> None:
    """Run the command line. The process guard is in place before the command line's heavier
    imports, so a signal during start-up is answered like one during the run."""
    try:
        with guarded_process():
            import sys

            from deckcheck.cli.app import app_for
            from deckcheck.cli.render import tolerate_unencodable_output

            tolerate_unencodable_output()
            app_for(sys.argv[1:])(prog_name="deckcheck")
    finally:
        # At exit the interpreter empties every module and runs the cycle collector over what
        # is left: nearly all the process made, found and freed one by one although the
        # operating system takes the memory back at once. gc.freeze() sets it all aside first
        # (every file deckcheck writes is closed before its command returns, so nothing is
        # left unflushed); the cost it saves is in docs/performance.md.
        gc.freeze()
