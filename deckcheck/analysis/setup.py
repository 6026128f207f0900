"""What is drawn from: a deck's draw pile (cards set aside as the game says) or a built-in pile.

``DECK`` arguments of ``odds``, ``hand`` and ``simulate`` are files, ``-`` or ``GAME:PILE``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from deckcheck.catalog.model import Card, Catalog
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import UsageError
from deckcheck.decks.load import LoadedDeck, load_deck
from deckcheck.draws.model import CountTest, Procedure, RedrawRule, ReturnRule
from deckcheck.games.base import Game
from deckcheck.games.registry import all_games
from deckcheck.games.spec import MulliganModel, OpeningModel

_PILE = re.compile(r"^(?P<game>[a-z0-9][a-z0-9-]*):(?P<pile>[a-z0-9][a-z0-9-]*)$")


@dataclass(frozen=True)
class SetAside:
    """Cards taken out before the shuffle, and why."""

    card: Card
    count: int
    why: str


@dataclass(frozen=True)
class DrawSetup:
    """A pile to draw from and how the game deals from it."""

    label: str
    game: Game
    catalog: Catalog
    deck_size: int
    pile: tuple[tuple[Card, int], ...]
    set_aside: tuple[SetAside, ...]
    opening: OpeningModel
    mulligan: MulliganModel | None
    builtin_pile: str | None = None
    pile_note: str = ""

    @property
    def pile_size(self) -> int:
        """Cards in the pile drawn from."""
        return sum(n for _, n in self.pile)

    def procedure(self, redraws: int | str | None = "rules") -> Procedure:
        """The abstract procedure; ``redraws`` overrides a redraw rule's limit (None: unlimited,
        ``"rules"``: the game's)."""
        o = self.opening
        return Procedure(
            o.hand_size,
            o.hand_size_second,
            o.draws_per_turn,
            self.mulligan_rule(redraws),
            o.lookahead,
            o.extra_seen_second,
        )

    def mulligan_rule(self, redraws: int | str | None = "rules") -> RedrawRule | ReturnRule | None:
        """The game's mulligan as an abstract rule (trigger selectors are numbered later)."""
        m = self.mulligan
        if m is None:
            return None
        if m.kind == "return":
            return ReturnRule(m.count)
        limit = m.max_redraws if redraws == "rules" else redraws
        return RedrawRule(
            tuple(CountTest(i, t.op, t.count) for i, t in enumerate(m.triggers)),
            limit if not isinstance(limit, str) else None,
        )


def is_pile_reference(text: str) -> bool:
    """Whether a DECK argument is ``GAME:PILE`` rather than a file."""
    match = _PILE.match(text)
    if match is None or Path(text).exists():
        return False
    return match.group("game") in all_games()


def open_setup(
    deck: str,
    *,
    catalogs: Sequence[str | Path] = (),
    game: str | None = None,
    variant: str | None = None,
) -> DrawSetup:
    """The draw setup of a deck file, ``-`` or ``GAME:PILE``."""
    if is_pile_reference(deck):
        match = _PILE.match(deck)
        if match is None:  # is_pile_reference matched it; keeps type checkers informed
            raise UsageError(f"{deck!r} is not GAME:PILE")
        return pile_setup(all_games()[match.group("game")], match.group("pile"), catalogs)
    return deck_setup(load_deck(deck, game=game, variant=variant, catalogs=catalogs))


def deck_setup(loaded: LoadedDeck) -> DrawSetup:
    """The draw setup of a loaded deck: the cards the rules set aside, the pile drawn from."""
    spec = loaded.game.spec
    deal = spec.variants[loaded.variant.name].deal
    opening = deal or spec.opening
    if opening is None:
        piles = ", ".join(f"{loaded.game.id}:{p}" for p in spec.piles) or "none"
        raise UsageError(
            f"{loaded.game.id} {spec.game.deck_noun}s are not drawn from; "
            f"its random piles are: {piles}",
            source=loaded.deck.label,
        )
    remaining = dict(loaded.deck.counts())
    cards = loaded.deck.cards()
    aside: list[SetAside] = []
    for rule in opening.set_aside:
        selector = bind_selector(rule.select, loaded.catalog)
        for card_id in list(remaining):
            if remaining[card_id] and selector(cards[card_id]):
                take = (
                    remaining[card_id]
                    if rule.count is None
                    else min(rule.count, remaining[card_id])
                )
                if take:
                    remaining[card_id] -= take
                    aside.append(SetAside(cards[card_id], take, rule.why))
                if rule.count is not None:
                    break
    pile = tuple((cards[i], n) for i, n in remaining.items() if n)
    return DrawSetup(
        loaded.deck.label,
        loaded.game,
        loaded.catalog,
        loaded.deck.size,
        pile,
        tuple(aside),
        opening,
        None if deal else spec.mulligan,
        # a random variant's deck is dealt as a plain shuffled pile, like a built-in one
        builtin_pile=f"variant {loaded.variant.name}" if deal else None,
        pile_note=deal.description if deal else "",
    )


def pile_setup(game: Game, name: str, catalogs: Sequence[str | Path] = ()) -> DrawSetup:
    """A game's built-in random pile (``dorn:rituals``)."""
    spec = game.spec.piles.get(name)
    if spec is None:
        known = ", ".join(f"{game.id}:{p}" for p in game.spec.piles) or "none"
        raise UsageError(f"{game.id} has no pile {name!r}; piles: {known}")
    catalog = game.catalog(catalogs)
    if spec.cards:
        pile = []
        for card_id, n in spec.cards.items():
            card = catalog.by_id(card_id)
            if card is None:
                raise UsageError(f"pile {game.id}:{name} names unknown card {card_id!r}")
            pile.append((card, n))
    else:
        selector = bind_selector(spec.select, catalog)
        pile = [(c, 1) for c in catalog if selector(c)]
    opening = OpeningModel(hand_size=spec.seen, draws_per_turn=1, description=spec.seen_note)
    return DrawSetup(
        f"{game.id}:{name}",
        game,
        catalog,
        sum(n for _, n in pile),
        tuple(pile),
        (),
        opening,
        None,
        builtin_pile=name,
        pile_note=spec.description,
    )
