"""``python -m deckcheck`` works like the ``deckcheck`` command."""

from deckcheck.cli.main import main

main()
