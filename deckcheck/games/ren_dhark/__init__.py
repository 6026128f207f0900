"""Ren Dhark Trading Card Game."""

from deckcheck.games.base import Game, game_directory
from deckcheck.games.ren_dhark.rules import RULES, starters

GAME = Game(directory=game_directory("ren-dhark"), rules=RULES, starters=starters)
