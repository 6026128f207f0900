"""Construction rules stated as linear constraints over card counts.

Almost every deck rule of the five games is linear in the number of copies of each card: a
size range, a copy cap, a type minimum, a window on a field's sum. A few need a helper
variable (which dual ship/unit cards count as ships) or an indicator (an Outpost counts as a
seed card once its affiliation has one). A rule states itself as a :class:`RuleConstraints`;
``deckcheck fix`` solves over exactly these to find the nearest legal deck.

Variables are card ids (copies of that card in every counted zone of the deck file, a whole
number from 0), a card's copies in one zone (:func:`in_zone`: a rule that counts a seed deck
the file names) and a rule's own helper variables (:class:`Helper`), whose names start with
the rule's code so that they never clash.
"""

from __future__ import annotations

import functools
from collections import deque
from collections.abc import Iterable, Mapping
from dataclasses import field

from deckcheck.catalog.deck import Deck
from deckcheck.core.values import frozen

ZONE_MARK = "\x1f"
"""Between a card id and a zone in the name of a zoned variable (no id holds it)."""


def in_zone(card_id: str, zone: str) -> str:
    """The variable counting a card's copies in one zone of the deck file."""
    return f"{card_id}{ZONE_MARK}{zone}"


def split_zone(name: str) -> tuple[str, str | None]:
    """A variable's card id and zone (None: every zone, or a helper)."""
    card_id, mark, zone = name.partition(ZONE_MARK)
    return (card_id, zone) if mark else (name, None)


def deck_values(deck: Deck, default_zone: str | None) -> dict[str, int]:
    """The values a deck gives the variables: each card's copies, and its copies per zone
    (a line without a zone is in ``default_zone``; a game without zones has none)."""
    values: dict[str, int] = {}
    for e in deck.entries:
        values[e.card.id] = values.get(e.card.id, 0) + e.count
        zone = e.zone or default_zone
        if zone is not None:
            name = in_zone(e.card.id, zone)
            values[name] = values.get(name, 0) + e.count
    return values


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
        """Whether some whole values of the helpers satisfy every constraint for these card
        counts (missing cards count as 0; a helper without a maximum goes up to the deck's
        size). Exact: see :func:`satisfiable` (the constraints are read once, for every deck
        asked of them)."""
        if any(counts.get(card, 0) != n for card, n in self._fixed_counts):
            return False
        forbidden = self._forbidden
        if forbidden and (
            any(counts.get(card, 0) for card in forbidden)
            if len(forbidden) < len(counts)
            else any(n and card in forbidden for card, n in counts.items())
        ):
            return False
        return self._system.satisfiable(counts)

    @functools.cached_property
    def _system(self) -> System:
        return System(self.linear, self.helpers)

    @functools.cached_property
    def _forbidden(self) -> frozenset[str]:
        return frozenset(card for card, n in self.fixed.items() if n == 0)

    @functools.cached_property
    def _fixed_counts(self) -> tuple[tuple[str, int], ...]:
        return tuple((card, n) for card, n in self.fixed.items() if n != 0)


# A constraint with the counts put in: helper -> coefficient, bounds on their sum (None: no
# bound), and the helper it holds under (None: always).
_Row = tuple[dict[str, int], int | None, int | None, str | None]
_Domains = dict[str, tuple[int, int]]


def satisfiable(
    linear: Iterable[Linear], helpers: Iterable[Helper], counts: Mapping[str, int]
) -> bool:
    """Whether some whole values of ``helpers`` satisfy every constraint of ``linear`` once
    the other variables take ``counts`` (missing ones 0). A helper without a maximum goes up
    to the sum of the counts.

    Exact, and quick where trying every value is not (a STCCG rule has a hundred 0/1
    helpers): the counts leave a small system over the helpers alone, whose independent parts
    are decided one by one; in each, bounds are narrowed constraint by constraint (an
    indicator whose constraint cannot hold any more is 0) until nothing changes, and only then
    is a helper tried value by value, each value narrowed again.
    """
    return System(linear, helpers).satisfiable(counts)


class System:
    """Constraints over helpers and card counts, read once to be asked of many decks: each
    constraint's part over the helpers, its part over the cards, and which constraints each
    card enters. A deck's cards touch few of them: the others are as with no cards at all,
    and so are the independent parts of those (helpers linked by no constraint a deck
    touches), each decided once for every deck that leaves it so (a rule stated for every
    card of a catalog, over a deck of a few of them)."""

    def __init__(self, linear: Iterable[Linear], helpers: Iterable[Helper]) -> None:
        self.helpers = tuple(helpers)
        names = {h.name for h in self.helpers}
        self.parts: list[tuple[dict[str, int], dict[str, int], Linear, bool]] = []
        self.entered: dict[str, list[int]] = {}  # card -> the constraints it enters
        untouched: dict[tuple[object, ...], tuple[_Row, list[int]]] = {}
        self.never: list[int] = []  # constraints that cannot hold while no card enters them
        for i, c in enumerate(linear):
            row = {v: k for v, k in c.terms.items() if k and v in names}
            cards = {v: k for v, k in c.terms.items() if k and v not in names}
            counted = c.when is not None and c.when not in names  # an indicator over a card
            self.parts.append((row, cards, c, counted))
            for card in [*cards, *([c.when] if c.when is not None and counted else [])]:
                self.entered.setdefault(card, []).append(i)
            if counted:
                continue  # no card: the indicator is 0, the constraint off
            if not row and c.when is None:
                if (c.low is not None and c.low > 0) or (c.high is not None and c.high < 0):
                    self.never.append(i)
                continue
            key = (*row.items(), c.low, c.high, c.when)
            untouched.setdefault(key, ((row, c.low, c.high, c.when), []))[1].append(i)
        self.untouched = list(untouched.items())
        # each constraint's untouched row (its index in ``untouched``), where it has one
        self._entry = {i: e for e, (_, (_, members)) in enumerate(self.untouched) for i in members}
        # the untouched rows' groups that share no helper (see :func:`_parts`): each group's
        # rows, each helper's group; a group with a helper bounded by the deck's size is
        # decided anew for each deck, the others once (None: not yet)
        parts = _parts([alike for _, (alike, _) in self.untouched])
        self._group_of: dict[str, int] = {}
        for g, part in enumerate(parts):
            for row, _, _, when in part:
                for name in (*row, *([when] if when else [])):
                    self._group_of[name] = g
        self._groups: list[list[int]] = [[] for _ in parts]
        for e, (_, ((row, _, _, when), _)) in enumerate(self.untouched):
            self._groups[self._group_of[next(iter(row), when or "")]].append(e)
        sized = {h.name for h in self.helpers if h.high is None}
        self._sized = {self._group_of[n] for n in sized if n in self._group_of}
        self._decided: list[bool | None] = [None] * len(parts)
        self._bounds = {h.name: (h.low, h.high) for h in self.helpers}
        self._lows = [h.low for h in self.helpers if h.high is None]
        self._empty = any(h.high is not None and h.low > h.high for h in self.helpers)

    def _domains(self, rows: list[_Row], size: int) -> _Domains:
        """The helpers of ``rows`` with their bounds (no maximum: the deck's size)."""
        bounds = self._bounds
        out: _Domains = {}
        for row, _, _, when in rows:
            for name in (*row, *([when] if when else [])):
                if name not in out:
                    low, high = bounds[name]
                    out[name] = (low, size if high is None else high)
        return out

    def _holds_alone(self, g: int) -> bool:
        """Whether an untouched group's rows hold for some values of its helpers (none is
        bounded by the deck's size: the same for every deck)."""
        known = self._decided[g]
        if known is None:
            rows = [self.untouched[e][1][0] for e in self._groups[g]]
            known = self._decided[g] = _search(rows, self._domains(rows, 0))
        return known

    def satisfiable(self, counts: Mapping[str, int]) -> bool:
        """See :func:`satisfiable`."""
        size = sum(counts.values())
        if self._empty or any(low > size for low in self._lows):
            return False
        touched = {i for card, n in counts.items() if n for i in self.entered.get(card, ())}
        if any(i not in touched for i in self.never):
            return False
        fresh: list[_Row] = []
        affected = set(self._sized)
        left: dict[int, int] = {}  # untouched row -> its constraints the deck touches
        for i in sorted(touched):
            row, cards, c, counted = self.parts[i]
            when = c.when
            e = self._entry.get(i)
            if e is not None:
                left[e] = left.get(e, 0) + 1
            if counted:
                if not counts.get(when or "", 0):
                    continue  # the indicator is a card count, here 0: the constraint is off
                when = None
            if len(cards) <= len(counts):
                constant = sum(k * counts.get(v, 0) for v, k in cards.items())
            else:  # a constraint over many cards, of which a deck has few: look up the deck's
                constant = sum(n * cards.get(v, 0) for v, n in counts.items())
            low = None if c.low is None else c.low - constant
            high = None if c.high is None else c.high - constant
            if not row and when is None:
                if (low is not None and low > 0) or (high is not None and high < 0):
                    return False
                continue
            fresh.append((row, low, high, when))
            for name in (*row, *([when] if when else [])):
                g = self._group_of.get(name)
                if g is not None:
                    affected.add(g)
        # an untouched row every one of whose constraints the deck touches is stated no more
        gone = {e for e, n in left.items() if n == len(self.untouched[e][1][1])}
        affected.update(self._group_of_entry(e) for e in gone)
        for g in range(len(self._groups)):
            if g not in affected and not self._holds_alone(g):
                return False
        rows: list[_Row] = []
        stated: set[tuple[object, ...]] = set()  # a row stated twice (one rule per card) once
        for g in sorted(affected):
            for e in self._groups[g]:
                if e not in gone:
                    key, (alike, _) = self.untouched[e]
                    stated.add(key)
                    rows.append(alike)
        for row, low, high, when in fresh:
            key = (*row.items(), low, high, when)
            if key not in stated:
                stated.add(key)
                rows.append((row, low, high, when))
        return all(_search(part, self._domains(part, size)) for part in _parts(rows))

    def _group_of_entry(self, e: int) -> int:
        (row, _, _, when), _ = self.untouched[e][1]
        return self._group_of[next(iter(row), when or "")]


def _parts(rows: list[_Row]) -> list[list[_Row]]:
    """The rows in groups that share no helper (each group is decided on its own)."""
    parent: dict[str, str] = {}

    def root(name: str) -> str:
        while parent.setdefault(name, name) != name:
            parent[name] = parent[parent[name]]
            name = parent[name]
        return name

    for row, _, _, when in rows:
        names = [*row, *([when] if when else [])]
        for other in names[1:]:
            parent[root(other)] = root(names[0])
    groups: dict[str, list[_Row]] = {}
    for r in rows:
        groups.setdefault(root(next(iter(r[0]), r[3] or "")), []).append(r)
    return list(groups.values())


def _search(
    rows: list[_Row],
    domains: _Domains,
    watch: dict[str, list[int]] | None = None,
    tried: str | None = None,
) -> bool:
    """Whether the rows hold for some values within the domains: narrow, then try values.
    ``tried``: the one helper whose domain changed since the domains were last narrowed (only
    its rows, and what they change, are narrowed again: the narrowed domains are the same)."""
    if watch is None:  # the rows of each helper, to narrow again only what a change touches
        watch = {}
        for i, (row, _, _, when) in enumerate(rows):
            for name in (*row, *([when] if when else [])):
                watch.setdefault(name, []).append(i)
    narrowed = _narrow(rows, domains, watch, None if tried is None else watch[tried])
    if narrowed is None:
        return False
    open_ = [n for n in watch if narrowed[n][0] < narrowed[n][1]]
    if not open_:
        return True  # every helper has one value, and _narrow found every row holds
    name = min(open_, key=lambda n: (narrowed[n][1] - narrowed[n][0], n))
    low, high = narrowed[name]
    return any(_search(rows, {**narrowed, name: (v, v)}, watch, name) for v in range(low, high + 1))


def _narrow(
    rows: list[_Row],
    domains: _Domains,
    watch: dict[str, list[int]],
    start: list[int] | None = None,
) -> _Domains | None:
    """The domains with every value that no solution can take removed (bounds only), or None
    when a row cannot hold. ``start``: the rows to narrow first (None: all of them); the
    others must hold narrowed already (narrowing each row in any order until none changes
    anything ends with the same domains)."""
    domains = dict(domains)
    # first in, first out: a row over many helpers waits for the rows before it to narrow
    # them all, rather than being narrowed again after each of them
    queue = deque(range(len(rows)) if start is None else start)
    queued = set(queue)

    def narrowed(name: str, bounds: tuple[int, int]) -> None:
        domains[name] = bounds
        for j in watch[name]:
            if j not in queued:
                queued.add(j)
                queue.append(j)

    while queue:
        i = queue.popleft()
        queued.discard(i)
        row, low, high, when = rows[i]
        w_low, w_high = domains[when] if when is not None else (1, 1)
        if w_low == w_high == 0:
            continue  # the indicator is 0: the constraint is off
        on = not w_low <= 0 <= w_high  # the indicator cannot be 0: the constraint is on
        least = most = 0
        for v, k in row.items():
            v_low, v_high = domains[v]
            if k > 0:
                least += k * v_low
                most += k * v_high
            else:
                least += k * v_high
                most += k * v_low
        if (low is not None and most < low) or (high is not None and least > high):
            if on or when is None:
                return None
            narrowed(when, (0, 0))  # the constraint cannot hold: its indicator is 0
            continue
        if not on:
            continue  # it may yet be off: nothing to narrow
        if (low is None or least >= low) and (high is None or most <= high):
            continue  # it holds whatever the values: it narrows nothing
        for v, k in row.items():
            v_low, v_high = domains[v]
            # the rest of the row's sum lies in [least - own least, most - own most]
            rest_least = least - k * (v_low if k > 0 else v_high)
            rest_most = most - k * (v_high if k > 0 else v_low)
            new_low, new_high = v_low, v_high
            if k > 0:
                if low is not None:
                    new_low = max(new_low, -((rest_most - low) // k))  # ceil
                if high is not None:
                    new_high = min(new_high, (high - rest_least) // k)  # floor
            else:
                if low is not None:
                    new_high = min(new_high, (low - rest_most) // k)  # floor
                if high is not None:
                    new_low = max(new_low, -((rest_least - high) // k))  # ceil
            if new_low > new_high:
                return None
            if (new_low, new_high) != (v_low, v_high):
                narrowed(v, (new_low, new_high))
                least += k * ((new_low - v_low) if k > 0 else (new_high - v_high))
                most += k * ((new_high - v_high) if k > 0 else (new_low - v_low))
    return domains


def either(name: str) -> tuple[Helper, Helper, Linear]:
    """Two 0/1 helpers ``name:yes`` and ``name:no`` of which exactly one is 1, for a constraint
    that holds in one case and another that holds in the other (each ``when`` one of them)."""
    yes, no = Helper(f"{name}:yes", 0, 1), Helper(f"{name}:no", 0, 1)
    return yes, no, Linear({yes.name: 1, no.name: 1}, 1, 1)


def terms(ids: Iterable[str], coefficient: int = 1) -> dict[str, int]:
    """Each id once with the same coefficient."""
    return dict.fromkeys(ids, coefficient)
