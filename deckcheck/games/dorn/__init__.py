"""Dorn (RULES.md §4): the hero party and the game's random piles."""

from deckcheck.games.base import Game, game_directory
from deckcheck.games.dorn.rules import RULES

GAME = Game(directory=game_directory(__file__, "dorn"), rules=RULES)
