"""Star Trek CCG, First Edition."""

from deckcheck.catalog.deck import Deck
from deckcheck.games.base import Game, game_directory
from deckcheck.games.stccg.lackey import lackey_name, write_lackey
from deckcheck.games.stccg.names import name_candidates
from deckcheck.games.stccg.rules import RULES, seed_cards


def _lackey(deck: Deck) -> str:
    constants = GAME.spec.constants
    seeded = seed_cards(deck, GAME.bundled_catalog(), constants)
    return write_lackey(
        deck,
        mission=lambda c: c.has_type(constants["mission_type"]),
        seeded={s.card.id: s.count for s in seeded},
        name_of=lambda c: lackey_name(
            c, title_case=lambda k: any(k.has_type(t) for t in constants["affiliated_types"])
        ),
    )


GAME = Game(
    directory=game_directory("stccg-1e"),
    rules=RULES,
    name_candidates=name_candidates,
    exporters={"lackey": _lackey},
)
