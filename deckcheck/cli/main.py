"""The console-script entry point (``deckcheck``, ``python -m deckcheck``)."""

from __future__ import annotations

from deckcheck.cli.process import guarded_process


def main() -> None:
    """Run the command line. The process guard is in place before the command line's heavier
    imports, so a signal during start-up is answered like one during the run."""
    with guarded_process():
        from deckcheck.cli.app import app
        from deckcheck.cli.render import tolerate_unencodable_output

        tolerate_unencodable_output()
        app(prog_name="deckcheck")
