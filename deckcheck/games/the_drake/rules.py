"""The Drake stack rules: small pure functions. A stack's order matters."""

from __future__ import annotations

from collections.abc import Iterable

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Catalog
from deckcheck.core.violations import Violation, error
from deckcheck.games.base import Variant


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
RULES = {"drake.stack": standard_stack}
