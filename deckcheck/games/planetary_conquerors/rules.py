"""Planetary Conquerors deck rules.

Every rule of the game is of a generic kind (size, copies by stars, required cards), so all of
them are data: ``[checks]`` in its game.toml. Nothing here needs code.
"""

from __future__ import annotations

from deckcheck.games.base import Rule

RULES: dict[str, Rule] = {}
