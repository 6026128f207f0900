"""Construction rules stated as linear constraints over card counts.

Almost every deck rule of the five games is linear in the number of copies of each card: a
size range, a copy cap, a type minimum, a window on a field's sum. A few need a helper
variable (which dual ship/unit cards count as ships) or an indicator (an Outpost counts as a
seed card once its affiliation has one). A rule states itself as a :class:`RuleConstraints`;
``deckcheck fix`` solves over exactly these to find the nearest legal deck.

Variables are card ids (copies of that card, a whole number from 0) and a rule's own helper
variables (:class:`Helper`), whose names start with the rule's code so that they never clash.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field

from deckcheck.core.values import frozen


@frozen
class Linear:
    """``low <= sum(coefficient * variable) <= high`` (a missing bound is no bound).

    With ``when`` (the name of a 0/1 helper variable) the constraint holds only while that
    helper is 1: an indicator constraint.
    """

    terms: Mapping[str, int]
    low: int | None = None
    high: int | None = None
    when: str | None = None

    def holds(self, values: Mapping[str, int]) -> bool:
        """Whether the constraint holds for these values (missing variables count as 0)."""
        if self.when is not None and not values.get(self.when, 0):
            return True
        total = sum(c * values.get(v, 0) for v, c in self.terms.items())
        return (self.low is None or total >= self.low) and (self.high is None or total <= self.high)


@frozen
class Helper:
    """A rule's own whole-number variable, ``low`` to ``high`` (``binary``: 0 or 1)."""

    name: str
    low: int = 0
    high: int | None = None

    @property
    def binary(self) -> bool:
        """Whether the helper is a 0/1 indicator."""
        return self.low == 0 and self.high == 1


@frozen
class RuleConstraints:
    """One rule as constraints.

    ``fixed``: card id -> the only count allowed (a card the rule forbids: 0). ``exact``:
    the constraints say the whole rule; False when part of it is checked on the answer only
    (``note`` says which part). ``order``: card ids, top first, in the order the rule wants a
    deck's cards (a Drake stack), for whoever writes a deck that meets it.
    """

    code: str
    linear: tuple[Linear, ...] = ()
    helpers: tuple[Helper, ...] = ()
    fixed: Mapping[str, int] = field(default_factory=dict)
    exact: bool = True
    note: str = ""
    order: tuple[str, ...] = ()

    def holds(self, counts: Mapping[str, int]) -> bool:
        """Whether some values of the helpers satisfy every constraint for these card counts
        (helpers are tried exhaustively: they are few and small)."""
        if any(counts.get(card, 0) != n for card, n in self.fixed.items()):
            return False
        return any(
            all(c.holds({**counts, **values}) for c in self.linear)
            for values in _helper_values(self.helpers, counts)
        )


def _helper_values(
    helpers: tuple[Helper, ...], counts: Mapping[str, int]
) -> Iterable[dict[str, int]]:
    if not helpers:
        yield {}
        return
    first, rest = helpers[0], helpers[1:]
    top = first.high if first.high is not None else sum(counts.values())
    for value in range(first.low, top + 1):
        for others in _helper_values(rest, counts):
            yield {first.name: value, **others}


def either(name: str) -> tuple[Helper, Helper, Linear]:
    """Two 0/1 helpers ``name:yes`` and ``name:no`` of which exactly one is 1, for a constraint
    that holds in one case and another that holds in the other (each ``when`` one of them)."""
    yes, no = Helper(f"{name}:yes", 0, 1), Helper(f"{name}:no", 0, 1)
    return yes, no, Linear({yes.name: 1, no.name: 1}, 1, 1)


def terms(ids: Iterable[str], coefficient: int = 1) -> dict[str, int]:
    """Each id once with the same coefficient."""
    return dict.fromkeys(ids, coefficient)
