"""Planetary Conquerors: user-defined card sets are the normal path."""

from deckcheck.games.base import Game, game_directory
from deckcheck.games.planetary_conquerors.rules import RULES

GAME = Game(directory=game_directory("planetary-conquerors"), rules=RULES)
