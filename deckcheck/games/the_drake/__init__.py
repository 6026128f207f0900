"""The Drake: troop stacks and their tiles."""

from deckcheck.catalog.model import Card
from deckcheck.games.base import Game, game_directory
from deckcheck.games.the_drake.rules import RULES
from deckcheck.games.the_drake.tiles import render_tile


def _tile(card: Card) -> str:
    return render_tile(
        card.get("front") or [],
        card.get("back") or [],
        tuple(card.get("front_pivot") or (1, 1)),
        tuple(card.get("back_pivot") or (1, 1)),
        card.name,
    )


GAME = Game(directory=game_directory("the-drake"), rules=RULES, card_art=_tile)
