"""deckcheck: build, validate and analyse decks for card and board games.

The library never prints; :mod:`deckcheck.cli` is a thin layer over it.
"""

__version__ = "0.1.0"
