"""Planetary Conquerors deck rules: small pure functions."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Catalog
from deckcheck.core.text import fold
from deckcheck.core.violations import Violation, error, undecided
from deckcheck.games.base import Variant


def size(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """pc.size: between ``min_cards`` and ``max_cards`` cards."""
    low, high = variant.param("min_cards"), variant.param("max_cards")
    if not low <= deck.size <= high:
        yield error("pc.size", f"{deck.size} cards, must be {low}–{high}")


def rarity(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """pc.rarity: copies per card name capped by stars; unknown rarity leaves it undecided."""
    field = variant.param("rarity_field")
    caps = {int(k): v for k, v in variant.param("copy_caps").items()}
    per_name: Counter[str] = Counter()
    first: dict[str, list[str]] = {}
    stars: dict[str, int | None] = {}
    for e in deck:
        key = fold(e.card.name)
        per_name[key] += e.count
        first.setdefault(key, []).append(e.card.id)
        stars[key] = e.card.get(field)
    unknown: list[str] = []
    for key, n in per_name.items():
        ids = list(dict.fromkeys(first[key]))
        star = stars[key]
        if star is None:
            # No rarity caps a card below min(caps) copies, so fewer cannot break the rule.
            if caps and n > min(caps.values()):
                unknown.extend(ids)
            continue
        cap = caps.get(int(star))
        if cap is not None and n > cap:
            name = deck.cards()[ids[0]].name
            yield error(
                "pc.rarity", f"{name}: {n} copies of a {star}-star card, at most {cap}", ids
            )
    if unknown:
        names = ", ".join(deck.cards()[i].name for i in unknown)
        yield undecided(
            "pc.rarity",
            f"rarity unknown for {names}, held more than {min(caps.values())} time(s): the "
            "copy limit cannot be checked (give it in a catalog overlay: rarity = 1, 2 or 3)",
            unknown,
        )


def miners(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """pc.miners: at least one of each starting miner."""
    counts = deck.counts()
    for card_id in variant.param("required_cards"):
        if counts.get(card_id, 0) < 1:
            card = catalog.by_id(card_id)
            name = card.name if card else card_id
            yield error(
                "pc.miners", f"no {name}: every player starts with one in the mine", [card_id]
            )


RULES = {"pc.size": size, "pc.rarity": rarity, "pc.miners": miners}
