"""The Drake stack rules: small pure functions. A stack's order matters."""

from __future__ import annotations

from collections.abc import Iterable

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Catalog
from deckcheck.core.violations import Violation, error
from deckcheck.games.base import CodeRule, Variant
from deckcheck.games.linear import RuleConstraints


def standard_stack(deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
    """drake.stack: exactly the standard stack, top first."""
    want = list(variant.param("standard_stack"))
    have = [c.id for c in deck.sequence()]
    if have == want:
        return
    names = {c.id: c.name for c in catalog}
    first = next(
        (i for i, (a, b) in enumerate(zip(have, want, strict=False)) if a != b),
        min(len(have), len(want)),
    )
    detail = (
        f"position {first + 1} is {names.get(have[first], have[first])}, "
        f"the standard stack has {names.get(want[first], want[first])} there"
        if first < min(len(have), len(want))
        else f"{len(have)} troops, the standard stack has {len(want)}"
    )
    yield error(
        "drake.stack",
        "not the standard stack (" + ", ".join(names[i] for i in want) + f"): {detail}",
        list(dict.fromkeys(have[first : first + 1] or have[-1:])),
    )


# drake.stack-size is data: [checks] in game.toml.
def standard_stack_constraints(catalog: Catalog, variant: Variant) -> RuleConstraints:
    """drake.stack: each troop exactly as often as in the standard stack, in its order (the
    order is not a count: a deck written in ``order`` meets it)."""
    want = list(variant.param("standard_stack"))
    counts = {c.id: want.count(c.id) for c in catalog}
    return RuleConstraints("drake.stack", fixed=counts, order=tuple(want))


RULES = {"drake.stack": CodeRule(standard_stack, standard_stack_constraints)}
