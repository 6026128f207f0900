"""``python -m deckcheck`` works like the ``deckcheck`` command."""

from deckcheck.cli.app import main

main()
