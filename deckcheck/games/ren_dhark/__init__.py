"""Ren Dhark Trading Card Game (RULES.md §1)."""

from deckcheck.games.base import Game, game_directory
from deckcheck.games.ren_dhark.rules import RULES

GAME = Game(directory=game_directory(__file__, "ren-dhark"), rules=RULES)
