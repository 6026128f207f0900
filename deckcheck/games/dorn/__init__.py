"""Dorn: the hero party and the game's random piles."""

from deckcheck.games.base import Game, game_directory
from deckcheck.games.dorn.rules import RULES

GAME = Game(directory=game_directory("dorn"), rules=RULES)
