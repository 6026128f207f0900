"""What is drawn from: a deck's draw pile (cards set aside as the game says) or a built-in pile.

``DECK`` arguments of ``odds``, ``hand`` and ``simulate`` are files, ``-`` or ``GAME:PILE``
(opened by :func:`deckcheck.decks.load.open_deck`).
"""

from __future__ import annotations

from deckcheck.catalog.model import Card, Catalog
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import UsageError
from deckcheck.core.text import plural_noun
from deckcheck.core.values import frozen
from deckcheck.decks.load import LoadedDeck
from deckcheck.draws.model import CountTest, Procedure, RedrawRule, ReturnRule
from deckcheck.games.base import Game
from deckcheck.games.context import Pile
from deckcheck.games.setaside import SetAside, set_aside, with_seeded_zones
from deckcheck.games.spec import MulliganModel, OpeningModel


@frozen
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

    def procedure(self, trigger_offset: int = 0) -> Procedure:
        """The game's procedure as the abstract one, with the game's own redraw limit.

        A redraw rule's triggers read selectors ``trigger_offset``, ``trigger_offset + 1``...
        (after the query's own); :meth:`Procedure.with_max_redraws` sets another limit.
        """
        o = self.opening
        return Procedure(
            o.hand_size,
            o.hand_size_second,
            o.draws_per_turn,
            self.mulligan_rule(trigger_offset),
            o.lookahead,
            o.extra_seen_second,
        )

    def mulligan_rule(self, trigger_offset: int = 0) -> RedrawRule | ReturnRule | None:
        """The game's mulligan as an abstract rule (see :meth:`procedure` for the numbering)."""
        m = self.mulligan
        if m is None:
            return None
        if m.kind == "return":
            return ReturnRule(m.count)
        return RedrawRule(
            tuple(CountTest(trigger_offset + i, t.op, t.count) for i, t in enumerate(m.triggers)),
            m.max_redraws,
        )


def draw_setup(opened: LoadedDeck | Pile) -> DrawSetup:
    """The draw setup of an opened DECK argument (:func:`deckcheck.decks.load.open_deck`)."""
    if isinstance(opened, Pile):
        return pile_setup(opened)
    return deck_setup(opened)


def deck_setup(loaded: LoadedDeck) -> DrawSetup:
    """The draw setup of a loaded deck: the cards the rules set aside, the pile drawn from."""
    spec = loaded.game.spec
    deal = spec.variants[loaded.variant.name].deal
    opening = deal or loaded.game.opening(loaded.variant)
    if opening is None:
        piles = ", ".join(f"{loaded.game.id}:{p}" for p in spec.piles) or "none"
        raise UsageError(
            f"{loaded.game.id} {plural_noun(spec.game.deck_noun, None)} are not drawn from; "
            f"its random piles are: {piles}",
            source=loaded.deck.label,
        )
    rules = opening.set_aside if deal else with_seeded_zones(opening.set_aside, spec.zones)
    aside = set_aside(loaded.deck, loaded.catalog, rules)
    remaining = dict(loaded.deck.counts())
    for taken in aside:
        remaining[taken.card.id] -= taken.count
    cards = loaded.deck.cards()
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


def pile_setup(named: Pile) -> DrawSetup:
    """A game's built-in random pile (``dorn:rituals``), under its context's variant (default:
    the game's) and with its context's overlays.

    The variant can set the default number of cards seen (Dorn's four-heroes: one blessing per
    hero, so 4) and change card fields (its rituals cost 1 more blood)."""
    game, name, variant = named.game, named.name, named.context.variant
    spec = game.spec.piles.get(name)
    if spec is None:
        known = ", ".join(f"{game.id}:{p}" for p in game.spec.piles) or "none"
        raise UsageError(f"{game.id} has no pile {name!r}; piles: {known}")
    the_variant = game.variant(variant)
    catalog = game.catalog(named.context.overlays, the_variant)
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
    seen = the_variant.param(spec.seen_param) if spec.seen_param else spec.seen
    note = spec.seen_note.replace("{seen}", str(seen))
    if variant is not None:
        note += f" (variant {the_variant.name})"
    opening = OpeningModel(hand_size=seen, draws_per_turn=1, description=note)
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
