"""``python -m deckcheck`` works like the ``deckcheck`` command."""

from deckcheck.cli.process import main

main()
