"""The console-script entry point (``deckcheck``, ``python -m deckcheck``)."""

from __future__ import annotations

from deckcheck.cli.process import guarded_process


def main() -> None:
    """Run the command line. The process guard is in place before the command line's heavier
    imports, so a signal during start-up is answered like one during the run."""
    with guarded_process():
        import sys

        from deckcheck.cli.app import app_for
        from deckcheck.cli.render import tolerate_unencodable_output

        tolerate_unencodable_output()
        app_for(sys.argv[1:])(prog_name="deckcheck")
