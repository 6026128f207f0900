"""The optimiser: the legal deck with the best exact odds, within a budget of changes, proven.

The chance of a query depends on the draw pile only through how many of its cards fall in each
*class* (cards matching the same selectors: the query's and the mulligan's) and on its size.
So the search runs over class mixes, not decks:

1. A mixed-integer programme (HiGHS through ``scipy.optimize.milp``, imported only here)
   states the legal decks: every rule of the variant as linear constraints over card counts
   (:mod:`deckcheck.games.linear`, as ``fix`` uses them), the budget of copies changed, the
   kept cards, the collection, and how many cards of each class the draw pile holds once the
   game has set its cards aside (seed cards, a planet, starting miners: moving a card out of
   the pile is a move too).
2. Its linear relaxation bounds each class's count; every mix in those bounds and within the
   budget's reach of the deck's own mix is a candidate.
3. Each candidate's probability is computed exactly, by the engines behind ``odds``. A mix is
   skipped without computing it when a mix that is at least as good card for card (one card
   swapped for a card that meets more of the query and the same mulligan triggers) already
   scores no better than a legal deck in hand: a bound.
4. A mix that scores more than the best deck in hand, or as much and could be reached with
   fewer changes, is asked of the programme at once (its nearest legal deck within the
   budget, if any). A mix the bound skipped scores at most the answer's chance but may equal
   it: once the pass is over, those that could also be nearer than the answer (one change
   moves one card of the pile at most, so a mix is at least as far as its counts differ
   from the deck's own) are scored, and asked of the programme where they tie. The answer
   is then the best chance, and among the decks of that chance one with the fewest changes;
   among the decks of its mix as near, the tie-breaks of ``fix`` choose (another mix as
   likely and as near is not compared on them).

The answer is checked again as ``odds`` computes it on the deck written out. Where the pile
depends on the cards' order (which of several classes' cards a rule takes first), the
programme allows every way to set them aside: the optimum is then proven when the deck
written out scores what the programme said, else it is the best found, with the bound.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import field
from fractions import Fraction
from typing import Any

from deckcheck.analysis.deadlines import deadline_chance, deadline_dues
from deckcheck.analysis.odds import Bound, OddsOptions, bind
from deckcheck.analysis.setup import DrawSetup, deck_setup
from deckcheck.catalog.model import Card
from deckcheck.core.errors import UsageError
from deckcheck.core.text import fold
from deckcheck.core.values import frozen
from deckcheck.decks.load import LoadedDeck
from deckcheck.draws.compare import Comparison
from deckcheck.draws.model import DrawProblem, Procedure, Query, RedrawRule
from deckcheck.games.setaside import placement, with_seeded_zones
from deckcheck.solve.changes import UNREACHABLE, cards_by_id
from deckcheck.solve.programme import (
    DISTANCE,
    INFEASIBLE,
    DeckProgramme,
    Programme,
    Solved,
    deck_programme,
)
from deckcheck.solve.programme import OPTIMAL as HIGHS_OPTIMAL
from deckcheck.solve.ties import settle, tie_broken

OPTIMAL = "optimal"
BEST_FOUND = "best found"

MAX_CANDIDATES = 2_000_000
"""Most class mixes a search may list; past it the user narrows the search (``--changes``)."""

MILP_TIME_LIMIT = 30.0
"""Seconds HiGHS may spend on one question (a mix's reachability)."""

TABLES_MOST = 500_000
"""Most entries the exact engine's tables kept across the mixes of a search may hold (about
260 bytes each): past it they start again empty, so that a long search's memory stays
bounded; the chances are the same either way."""

Progress = Callable[[int, int], None]
_Aside = list[dict[int, float]]  # per class: variables counting its copies set aside


@frozen
class Search:
    """What the search found.

    ``values``: card id -> copies of the best deck found (None when no legal deck is within
    the limits), ``cells`` its copies per (card id, zone); ``mix``: its draw pile's count per
    class; ``probability``: the exact chance the search computed for it (None when the mix
    could only be simulated). ``evaluated``: mixes whose exact chance was computed (a mix
    the bound skipped included, where it was scored to see whether it ties the answer with
    fewer changes); ``ruled_out``: mixes never asked of the solver (a better or equal mix
    scored no more than a deck in hand, or the mix scored no more); ``unreachable``: mixes
    the solver proved no legal deck within the limits reaches; ``simulated``: mixes whose
    exact chance is out of reach; ``reached``: mixes a legal deck within the limits was
    found for (each the best so far when asked; the last is the answer's); ``ruled_out +
    unreachable + reached + simulated == candidates``. ``gain_bound``: for a search cut
    short, the most a deck within the limits could still gain over the answer.
    """

    status: str
    values: Mapping[str, int] | None
    mix: tuple[int, ...] = ()
    probability: Fraction | None = None
    candidates: int = 0
    evaluated: int = 0
    ruled_out: int = 0
    unreachable: int = 0
    simulated: int = 0
    reached: int = 0
    gain_bound: Fraction | None = None
    distance: int = 0
    cells: Mapping[tuple[str, str | None], int] | None = None
    notes: tuple[str, ...] = ()
    seconds: float = 0.0
    classes: tuple[tuple[bool, ...], ...] = field(default=(), repr=False)


# ------------------------------------------------------------------------------ the model


@frozen
class Limits:
    """Which decks a search may answer with, and for how long it may look: at most
    ``changes`` copies added plus removed (None: any number), the cards ``keep`` (catalog
    ids) never removed, every card's copies within its cap in ``owned`` (card id -> the most
    copies the answer may hold, 0 when absent; None: any card of the catalog); after ``time_limit``
    seconds (None: none) the best deck found so far is the answer."""

    changes: int | None = None
    keep: frozenset[str] = frozenset()
    owned: Mapping[str, int] | None = None
    time_limit: float | None = None


NO_LIMITS = Limits()
"""Any legal deck of the catalog's cards, however long the search takes."""


class _Model:
    """The legal decks within the limits (the programme ``fix`` solves too), and their draw
    piles by class."""

    def __init__(
        self,
        loaded: LoadedDeck,
        setup: DrawSetup,
        bound: Bound,
        limits: Limits,
        seen: int,
    ) -> None:
        self.loaded = loaded
        self.notes: list[str] = []
        self.relaxed = False  # the pile's classes are allowed more ways than the cards' order
        self.inexact = False  # a rule or a set-aside the programme cannot state: never proven
        self.deck = deck_programme(
            loaded,
            keep=limits.keep,
            owned=limits.owned,
            changes=limits.changes,
            numbers=[seen],
            prune=True,
        )
        self.programme = self.deck.programme
        self.deck_counts = dict(loaded.deck.counts())
        self.cap = self.deck.cap
        catalog = list(loaded.catalog)
        self.cards = cards_by_id(loaded.catalog)
        for code, rc in self.deck.stated.items():
            if not rc.exact:
                # The search then runs over more decks than the legal ones: its answer is
                # still the best legal deck when it passes the rule (checked on it).
                self.notes.append(f"{code} is checked on the answer only ({rc.note})")
            elif rc.note:
                self.notes.append(f"{code}: {rc.note}")  # cards it cannot use: unknown values
        # The classes: cards answering the query's and the triggers' selectors alike.
        self.selectors = bound.selectors
        present = [c for c in catalog if c.id in self.deck.by_card]
        self.key_of = _answers(present, self.selectors)
        self.rules = _aside_rules(setup, self.deck)
        roles = _roles(present, setup, self.rules)
        self.later = any(r[3] for r in roles.values())
        self._pile(roles)

    def copies(self, card_id: str) -> dict[int, float]:
        """The variables of a card's copies, every zone."""
        return self.deck.copies(card_id)

    def _pile(self, roles: Mapping[str, tuple[Any, ...]]) -> None:
        """One variable per class: the copies its cards have in the draw pile (a card's
        copies in the zones no rule sets aside, less what a rule by type takes)."""
        p = self.programme
        keys = sorted({self.key_of[i] for i in self.deck.by_card}, reverse=True)
        self.classes = tuple(keys)
        index = {k: g for g, k in enumerate(keys)}
        pile_terms: list[dict[int, float]] = [{} for _ in keys]
        for card_id, cells in self.deck.zoned.items():
            role = roles.get(card_id, _PILE)
            if role[0] == _ALL[0]:
                continue
            terms = pile_terms[index[self.key_of[card_id]]]
            for (_, zone), v in cells.items():
                if zone not in role[4]:
                    terms[v] = 1.0
        aside: list[dict[int, float]] = [{} for _ in keys]
        by_rule: dict[int, list[str]] = {}
        for i in self.deck.by_card:
            role = roles.get(i, _PILE)
            if role[0] in ("count", "one_per"):
                by_rule.setdefault(role[1], []).append(i)
        for rule_index, ids in sorted(by_rule.items()):
            model = self.rules[rule_index]
            if model.one_per:
                self._one_per(ids, model.one_per, index, aside, roles)
            else:
                self._count(ids, model.count or 0, index, aside)
        self.pile_var: list[int] = []
        most = sum(p.upper[v] for mine in self.deck.by_card.values() for v in mine)
        for g in range(len(keys)):
            n = p.var(0, most)
            self.pile_var.append(n)
            terms = dict(pile_terms[g])
            for v, k in aside[g].items():
                terms[v] = terms.get(v, 0.0) - k
            terms[n] = -1.0
            p.row(terms, 0, 0)

    def _most(self, ids: Sequence[str]) -> float:
        p = self.programme
        return sum(p.upper[v] for i in ids for v in self.deck.by_card[i])

    def _in_zones(self, card_id: str, zones: set[str], inside: bool) -> list[int]:
        """A card's variables in ``zones`` (``inside``) or in the others."""
        cells = self.deck.zoned.get(card_id, {})
        return [v for (_, zone), v in cells.items() if (zone in zones) == inside]

    def _held(self, ids: Sequence[str], k: float = 1.0) -> dict[int, float]:
        return {v: k for i in ids for v in self.deck.by_card[i]}

    def _count(
        self, ids: Sequence[str], count: int, index: Mapping[Any, int], aside: _Aside
    ) -> None:
        """At most ``count`` copies of these cards set aside (in the deck's order)."""
        p = self.programme
        held = self._held(ids)
        most = self._most(ids)
        taken = p.var(0, count)
        full = p.var(0, 1)
        # taken = min(count, held): taken <= held, taken >= count*full, taken >= held - M*full
        # (full = 1 needs held >= count; full = 0 makes taken = held, so held <= count)
        p.row({**held, taken: -1}, 0, math.inf)
        p.row({taken: 1, full: -count}, 0, math.inf)
        p.row({taken: 1, **self._held(ids, -1.0), full: float(most)}, 0, math.inf)
        by_class: dict[int, list[str]] = {}
        for i in ids:
            by_class.setdefault(index[self.key_of[i]], []).append(i)
        if len(by_class) == 1:
            (g,) = by_class
            aside[g][taken] = aside[g].get(taken, 0.0) + 1
            return
        # Which cards come first in the deck is the deck's order: any split is allowed here.
        self.relaxed = True
        parts = {}
        for g, members in by_class.items():
            part = p.var(0, count)
            parts[part] = 1.0
            p.row({part: 1, **self._held(members, -1.0)}, -math.inf, 0)
            aside[g][part] = aside[g].get(part, 0.0) + 1
        p.row({**parts, taken: -1}, 0, 0)

    def _one_per(
        self,
        ids: Sequence[str],
        field_name: str,
        index: Mapping[Any, int],
        aside: _Aside,
        roles: Mapping[str, tuple[Any, ...]],
    ) -> None:
        """One copy set aside per value of ``field_name`` (STCCG: an Outpost per affiliation).

        As the rules take them: a card of one value is set aside when it is the first of its
        value present (which one, when cards of a value fall in several classes, is the deck's
        order: any is allowed here); then a card of several values takes one copy per value
        still free, as many as it has copies (``t <= copies``, and ``t`` equals the copies or
        takes every free value). Where the file's seed zones take a card's other copies (its
        role names them), the rule takes a copy the file seeds when it has one (the draw pile
        loses nothing), else a drawn copy: the pile loses one exactly while the value's cards
        have a drawn copy and no seeded one."""
        p = self.programme
        single: dict[str, dict[int, list[str]]] = {}  # value -> class -> cards
        multi: list[tuple[str, list[str]]] = []
        for i in ids:
            values = _values(self.cards[i], field_name)
            if len(values) == 1:
                single.setdefault(values[0], {}).setdefault(index[self.key_of[i]], []).append(i)
            else:
                multi.append((i, values))
        by_single: dict[str, int] = {}  # value -> 0/1: a card of that value alone holds it
        for value, by_class in single.items():
            if len(by_class) > 1:
                self.relaxed = True
            members = [i for m in by_class.values() for i in m]
            most = self._most(members)
            present = p.var(0, 1)
            # present = 1 exactly while the deck holds a copy of such a card
            p.row({**self._held(members), present: -float(max(most, 1))}, -math.inf, 0)
            p.row({**self._held(members), present: -1.0}, 0, math.inf)
            seeds = {z for i in members for z in roles.get(i, _PILE)[4]}
            drawn = {i: self._in_zones(i, seeds, False) for i in members}
            taken = present
            if seeds:
                taken = p.var(0, 1)
                d = {v: 1.0 for i in members for v in drawn[i]}
                z = {v: 1.0 for i in members for v in self._in_zones(i, seeds, True)}
                top_d = max(1.0, sum(p.upper[v] for v in d))
                top_z = max(1.0, sum(p.upper[v] for v in z))
                # taken = 1 exactly while a copy is drawn (d >= 1) and none seeded (z = 0)
                p.row({**d, taken: -1.0}, 0, math.inf)
                p.row({**z, taken: top_z}, -math.inf, top_z)
                p.row({taken: top_d, **{v: -1.0 for v in d}, **{v: top_d for v in z}}, 0, math.inf)
            parts = {}
            for g, cards in by_class.items():
                u = p.var(0, 1)
                p.row({u: 1, **{v: -1.0 for i in cards for v in drawn[i]}}, -math.inf, 0)
                parts[u] = 1.0
                aside[g][u] = aside[g].get(u, 0.0) + 1
            p.row({**parts, taken: -1.0}, 0, 0)
            by_single[value] = present
        claimed: dict[str, dict[int, float]] = {}
        for i, values in multi:
            g = index[self.key_of[i]]
            most = self._most([i])
            seeded = set(roles.get(i, _PILE)[4])
            mine: dict[int, float] = {}
            for value in values:
                t = p.var(0, 1)
                mine[t] = 1.0
                claimed.setdefault(value, {})[t] = 1.0
                if not seeded:
                    aside[g][t] = aside[g].get(t, 0.0) + 1
                if value in by_single:  # a value a card of its own took is not free
                    p.row({t: 1, by_single[value]: 1}, -math.inf, 1)
            p.row({**mine, **self._held([i], -1.0)}, -math.inf, 0)
            # Either every copy is set aside (short = 1: t >= copies), or every value is
            # taken (short = 0: each value by this card or by a card of its own).
            short = p.var(0, 1)
            p.row({**mine, **self._held([i], -1.0), short: -float(most)}, -float(most), math.inf)
            for value, t in zip(values, mine, strict=True):
                terms = {t: 1.0, short: 1.0}
                if value in by_single:
                    terms[by_single[value]] = 1.0
                p.row(terms, 1, math.inf)
            if seeded:
                # the values it takes come from its seeded copies first: the pile loses
                # lost = max(0, taken - seeded copies), with b = 1 where none is lost
                z = {v: 1.0 for v in self._in_zones(i, seeded, True)}
                top_z = max(1.0, sum(p.upper[v] for v in z))
                top_t = float(len(values))
                lost = p.var(0, top_t)
                b = p.var(0, 1)
                minus_t = {t: -1.0 for t in mine}
                p.row({lost: 1.0, **minus_t, **z}, 0, math.inf)
                p.row({lost: 1.0, **minus_t, **z, b: -top_z}, -math.inf, 0)
                p.row({lost: 1.0, b: top_t}, -math.inf, top_t)
                aside[g][lost] = aside[g].get(lost, 0.0) + 1
        for who in claimed.values():
            if len(who) > 1:
                self.relaxed = True  # two cards of several values want one: the deck's order
                p.row(who, -math.inf, 1)

    # -- answers -------------------------------------------------------------------------

    def values(self, x: Sequence[float]) -> dict[str, int]:
        """Card id -> copies in a solution."""
        return self.deck.totals(x)

    def mix_of(self, x: Sequence[float]) -> tuple[int, ...]:
        """The pile's count per class in a solution."""
        return tuple(round(x[n]) for n in self.pile_var)


_PILE: tuple[Any, ...] = ("pile", -1, "", False, ())
_ALL: tuple[Any, ...] = ("all", -1, "", False, ())


def _answers(cards: Sequence[Card], selectors: Sequence[Any]) -> dict[str, tuple[bool, ...]]:
    """Each card's answers to ``selectors``; a selector decided by one field's value is asked
    once per distinct value (a catalog of 4,155 cards holds a few dozen types)."""
    from deckcheck.catalog.selectors import value_key

    out: dict[str, tuple[bool, ...]] = {}
    memo: list[dict[object, bool]] = [{} for _ in selectors]
    for card in cards:
        answers = []
        for s, seen in zip(selectors, memo, strict=True):
            field_name = getattr(s, "field", None)
            key = value_key(card.get(field_name)) if field_name is not None else None
            if key is None:
                answers.append(bool(s(card)))
                continue
            got = seen.get(key)
            if got is None:
                got = seen[key] = bool(s(card))
            answers.append(got)
        out[card.id] = tuple(answers)
    return out


def _aside_rules(setup: DrawSetup, deck: DeckProgramme) -> list[Any]:
    """The set-aside rules as they apply to the answers: a deck file that says which cards it
    seeds (a Lackey ``Seed+Dil:`` zone) keeps saying so, its seed zones set aside; one that
    does not has its cards placed by type (the ``fallback`` rules)."""
    if setup.builtin_pile:
        return []
    rules: Sequence[Any] = setup.opening.set_aside
    if any(e.zone for e in deck.loaded.deck.entries):
        # as the draw pile of odds takes them: the rules, then the zones a file seeds (a file
        # that names no zone stays so: the answer too)
        rules = with_seeded_zones(rules, deck.loaded.game.spec.zones)
    # fallback rules (placing cards by type) apply to a file that places none, and it stays so
    return list(placement(rules, deck.placed or not any(r.fallback for r in rules)))


def _any(card: Card) -> bool:
    return True


def _roles(
    catalog: Iterable[Card], setup: DrawSetup, rules: Sequence[Any]
) -> dict[str, tuple[Any, ...]]:
    """For each card the first set-aside rule that takes its copies wherever they are: (kind,
    the rule's index, its ``one_per`` field, whether a later rule could take copies it
    leaves, the zones whose copies rules before it set aside, or for a card under a
    ``one_per`` rule the seed zones that take its other copies after it); kind "all"
    takes every copy,
    "count" some, "one_per" one per value, "pile" none; cards of no rule are absent."""
    from deckcheck.catalog.selectors import bind_selector

    selectors = [bind_selector(r.select, setup.catalog) if r.select else _any for r in rules]
    hits = _answers(list(catalog), selectors)
    roles: dict[str, tuple[Any, ...]] = {}
    for card_id, answers in hits.items():
        zones: list[str] = []
        for i, (rule, selects) in enumerate(zip(rules, answers, strict=True)):
            if not selects:
                continue
            if rule.zone:
                zones.append(rule.zone)
                continue
            kind = "one_per" if rule.one_per else "count" if rule.count is not None else "all"
            # copies a partial rule leaves that a later rule could take: not stated, but for
            # a card whose later rules are the file's seed zones (an Outpost in
            # Seed+Dil: the rule takes the copy the file seeds, the zone the rest)
            takers = [r for r, yes in zip(rules[i + 1 :], answers[i + 1 :], strict=True) if yes]
            after: tuple[str, ...] = ()
            if kind == "one_per" and takers and all(r.zone for r in takers):
                after = tuple(r.zone for r in takers)
                takers = []
            later = bool(takers) and kind != "all"
            later = later or (bool(zones) and kind != "all")
            roles[card_id] = (kind, i, rule.one_per, later, after)
            break
        else:
            if zones:
                roles[card_id] = ("pile", -1, "", False, tuple(zones))
    return roles


def _values(card: Card, field_name: str) -> list[str]:
    value = card.get(field_name)
    items = value if isinstance(value, list | tuple) else [] if value is None else [value]
    return list(dict.fromkeys(fold(str(v)) for v in items)) or [""]


# ------------------------------------------------------------------------------ the chances


class _Chances:
    """The exact chance of the query for a mix (cached), as ``odds`` computes it."""

    def __init__(
        self,
        bound: Bound,
        procedure: Procedure,
        query: Query,
        classes: Sequence[tuple[bool, ...]],
        policy: Any,
        due: tuple[int, ...] | None = None,
    ) -> None:
        self.bound = bound
        self.procedure = procedure
        self.query = query
        self.classes = tuple(classes)
        self.policy = policy
        self.due = due  # cards seen by each condition's own deadline, if any has one
        self.memo: dict[tuple[int, ...], Fraction | None] = {}
        # The exact engine's tables, kept for every mix (see SequentialEngine.share_tables).
        self.tables: dict[tuple[object, ...], dict[str, dict[object, object]]] = {}

    def __call__(self, mix: tuple[int, ...]) -> Fraction | None:
        """The chance, or None when only a simulation could tell."""
        got = self.memo.get(mix, False)
        if got is not False:
            return got  # type: ignore[return-value]
        from deckcheck.draws.answer import Intractable
        from deckcheck.draws.facade import Mode, Prior, solve

        keep = [g for g, n in enumerate(mix) if n]
        problem = DrawProblem(
            tuple(mix[g] for g in keep),
            tuple(self.classes[g] for g in keep),
            self.bound.problem.conditions,
            self.bound.problem.selector_labels,
        )
        if self.due is not None:
            value = deadline_chance(
                problem, self.procedure, self.query, self.due, self.policy.redraw
            )
            self.memo[mix] = value
            return value
        try:
            answer = solve(
                problem,
                self.procedure,
                self.query,
                self.policy,
                mode=Mode.EXACT,
                prior=Prior(tables=self.tables),
            )
            value = answer.fraction
        except Intractable:
            value = None
        if sum(len(t) for tables in self.tables.values() for t in tables.values()) > TABLES_MOST:
            self.tables = {}
        self.memo[mix] = value
        return value


def _better(
    classes: Sequence[tuple[bool, ...]], bound: Bound, procedure: Procedure, query: Query
) -> list[list[int]]:
    """For each class h, the classes g such that a card of g in place of one of h can never
    lower the chance: g meets every lower-bound condition h meets, no upper-bound condition
    h does not, equality conditions alike, and (under a redraw rule) the same triggers.
    The player holding g can play exactly as with h (decisions see the same triggers), and
    ends holding the same cards, each counting at least as well."""
    conditions = bound.problem.conditions
    n_conditions = len(conditions)
    redraw = query.use_mulligan and isinstance(procedure.mulligan, RedrawRule)
    out: list[list[int]] = []
    for h in classes:
        better = []
        for g_index, g in enumerate(classes):
            if g == h:
                continue
            ok = True
            for c in conditions:
                s = c.selector
                if c.op in (Comparison.GE, Comparison.GT):
                    ok = g[s] >= h[s]
                elif c.op in (Comparison.LE, Comparison.LT):
                    ok = g[s] <= h[s]
                else:
                    ok = g[s] == h[s]
                if not ok:
                    break
            if ok:
                others = range(n_conditions, len(g))
                if redraw:
                    ok = all(g[s] == h[s] for s in others)
                # selectors of no condition and no trigger do not matter
            if ok:
                better.append(g_index)
        out.append(better)
    return out


# ------------------------------------------------------------------------------ the search


def _seen(setup: DrawSetup, procedure: Procedure, options: OddsOptions) -> tuple[int, Procedure]:
    """Cards seen, and the procedure (a random variant's deck is dealt as a plain pile)."""
    if setup.builtin_pile:
        if options.turn is not None:
            raise UsageError(f"{setup.label} is dealt once: use --seen, not --turn")
        seen = options.seen if options.seen is not None else setup.opening.hand_size
        if seen < 1:
            raise UsageError("--seen must be at least 1")
        return seen, Procedure(seen, None, 1, None, False)
    if options.seen is not None and options.turn is not None:
        raise UsageError("give --seen or --turn, not both")
    if options.turn is not None:
        if options.turn < 1:
            raise UsageError("--turn counts from 1 (the opening hand)")
        seen = procedure.seen_by_turn(options.turn, options.second)
    elif options.seen is not None:
        seen = options.seen
    else:
        seen = procedure.opening_size(options.second)
    opening = procedure.opening_size(options.second)
    if seen < opening:
        raise UsageError(f"--seen {seen} is fewer than the opening hand of {opening}")
    return seen, procedure


def search(
    loaded: LoadedDeck,
    conditions: Sequence[str],
    options: OddsOptions,
    limits: Limits = NO_LIMITS,
    *,
    progress: Progress | None = None,
) -> tuple[Search, DrawSetup, Bound, Query, Procedure]:
    """Search the legal decks within ``limits`` for the best exact chance of ``conditions``
    (see the module's description); a search cut short by its time limit answers with the
    best deck found so far and a bound on what could still be gained."""
    from deckcheck.draws.facade import Policy

    started = time.perf_counter()
    changes = limits.changes
    deadline = None if limits.time_limit is None else started + limits.time_limit
    if changes is not None and changes < 0:
        raise UsageError("--changes cannot be negative")
    setup = deck_setup(loaded)
    bound = bind(setup, conditions, options, deadlines=True)
    seen, procedure = _seen(setup, bound.procedure, options)
    due = deadline_dues(setup, bound, options)
    if due is not None:
        seen = max(due)
    query = Query(seen, options.second, options.mulligan == "rules", options.turn)
    model = _Model(loaded, setup, bound, limits, seen)
    if model.later:
        model.inexact = True
        model.notes.append("a card two set-aside rules take is counted by the first only")
    chances = _Chances(
        bound, procedure, query, model.classes, Policy(redraw=options.redraw_policy), due
    )
    p = model.programme
    notes = list(model.notes)
    if changes is None:
        notes.append(
            f"without --changes, each card is searched up to {model.cap} copies (the largest "
            "number the deck, the question or the rules name)"
        )

    def done(status: str, **kw: Any) -> Search:
        return Search(
            status,
            notes=tuple(notes + kw.pop("more", [])),
            seconds=time.perf_counter() - started,
            classes=model.classes,
            **kw,
        )

    # A legal deck within the limits, nearest first: the starting incumbent.
    first = p.solve({DISTANCE: 1.0}, time_limit=MILP_TIME_LIMIT)
    x = first.x
    if x is None:
        why = (
            "no legal deck is within the limits"
            if first.status == INFEASIBLE
            else "the solver gave up"
        )
        return done(UNREACHABLE, values=None, more=[why]), setup, bound, query, procedure
    incumbent_x = x
    incumbent_mix = model.mix_of(x)
    # Bounds of each class's count and of the pile, from the relaxation. A least the legal
    # deck in hand already reaches needs no solve: a class it holds none of in its pile (no
    # count is below 0), a pile no larger than the cards seen (no mix holds fewer).
    lows, highs = [], []
    for v, held in zip(model.pile_var, incumbent_mix, strict=True):
        if held:
            lows.append(math.ceil(p.solve(cost={v: 1.0}, relax=True).objective - 1e-6))
        else:
            lows.append(0)
        hi = -p.solve(cost={v: -1.0}, relax=True).objective
        highs.append(math.floor(hi + 1e-6) if math.isfinite(hi) else 10**9)
    total = dict.fromkeys(model.pile_var, 1.0)
    least = seen
    if sum(incumbent_mix) > seen:
        least = max(seen, math.ceil(p.solve(cost=total, relax=True).objective - 1e-6))
    most_pile = -p.solve(cost={v: -1.0 for v in total}, relax=True).objective
    most = math.floor(most_pile + 1e-6) if math.isfinite(most_pile) else 10**9
    origin = _origin(loaded, model, setup)
    candidates = _candidates(lows, highs, least, most, origin, changes)
    if candidates is None:
        raise UsageError(
            "too many deck mixes to search: give --changes K (how many copies may change)"
        )
    better = _better(model.classes, bound, procedure, query)
    # Most promising first: mixes whose cards meet more of the query come before those they
    # dominate, so that a bound can skip the dominated ones.
    rank = _ranks(better)
    candidates.sort(key=lambda m: -sum(n * rank[g] for g, n in enumerate(m)))
    best_x: Sequence[float] = incumbent_x
    best_mix = incumbent_mix
    best_p = chances(incumbent_mix) if sum(incumbent_mix) >= seen else None
    best_distance = model.deck.distance(best_x)
    scores: dict[tuple[int, ...], Fraction] = {}
    # skipped by the bound: mix -> the most it can score (a mix one card better scored it)
    below: dict[tuple[int, ...], Fraction] = {}
    simulated = unreachable = checked = 0
    stopped = False

    def reach(mix: tuple[int, ...]) -> tuple[int, tuple[float, ...] | None, float]:
        fixed = {v: (float(n), float(n)) for v, n in zip(model.pile_var, mix, strict=True)}
        # No deck reaches a mix its relaxation cannot: the linear programme (about a third of
        # the integer one's time) settles most of the mixes asked, which are unreachable.
        relaxed = p.solve({DISTANCE: 1.0}, bounds=fixed, relax=True, time_limit=MILP_TIME_LIMIT)
        if relaxed.status == INFEASIBLE:
            return relaxed.status, None, math.nan
        got = p.solve({DISTANCE: 1.0}, bounds=fixed, time_limit=MILP_TIME_LIMIT)
        return got.status, got.x, got.objective

    # One pass, most promising mixes first. A mix that scores more than the best deck in hand
    # is asked of the solver at once, so that the best in hand rises early and the bound
    # (a mix one card better scored no more) skips most of the rest. A mix the bound skipped
    # scores at most the answer but may equal it with fewer changes: a second pass scores
    # those that could (their bound is the answer's chance, and they are nearer the deck's own
    # mix than the answer), most promising first, and asks the solver where they tie.
    ahead = ((k, mix, False) for k, mix in enumerate(candidates))
    for k, mix, again in itertools.chain(ahead, ((-1, mix, True) for mix in candidates)):
        if again:
            most_p = below.get(mix)
            if best_p is None or most_p is None or most_p < best_p:
                continue
            if _gap(mix, origin) >= best_distance:
                continue
        if deadline is not None and time.perf_counter() > deadline:
            stopped = True
            break
        if progress is not None and not again and k % 16 == 0:
            progress(k, len(candidates))
        if best_p is not None:
            most_p = _dominated(mix, better, scores, below, best_p, least=again)
            if most_p is not None and (not again or most_p < best_p):
                below[mix] = most_p
                continue
        value = chances(mix)
        below.pop(mix, None)
        if value is None:
            simulated += 1
            continue
        scores[mix] = value
        if best_p is not None and (
            value < best_p or (value == best_p and _gap(mix, origin) >= best_distance)
        ):
            continue  # no better, and no nearer: a change moves one card of the pile at most
        status, x, nearest = reach(mix)
        checked += 1
        if x is None:
            if status == 2:
                unreachable += 1
                continue
            stopped = True  # the solver's own limit: this mix is unknown
            break
        gone = round(nearest)  # the distance, which the solve minimised
        if best_p is None or value > best_p or gone < best_distance:
            best_x, best_mix, best_p, best_distance = x, mix, value, gone
    if progress is not None and not stopped:
        progress(len(candidates), len(candidates))
    evaluated = len(scores)
    # Every mix scored but not asked of the solver scored no more than the answer.
    ruled = len(below) + evaluated - checked
    gain: Fraction | None = None
    state = OPTIMAL
    more: list[str] = []
    if stopped:
        state = BEST_FOUND
        # the mixes not yet scored could score anything
        gain = Fraction(1) - (best_p or Fraction(0))
        more.append("the time limit stopped the search: the best deck found so far")
    if simulated:
        state = BEST_FOUND
        gain = Fraction(1) - (best_p or Fraction(0))
        more.append(
            f"{simulated} mix(es) are out of the exact engine's reach (only a simulation could "
            "score them): optimality is not claimed"
        )
    if model.inexact:
        state = BEST_FOUND
    if best_p is None and state == OPTIMAL:
        more.append(f"no legal deck within the limits has a draw pile of {seen} cards or more")
        return (
            done(UNREACHABLE, values=None, candidates=len(candidates), more=more),
            setup,
            bound,
            query,
            procedure,
        )
    if state == OPTIMAL:
        # among the decks of the best mix as near as the answer, the one the tie-breaks choose
        fixed = {v: (float(n), float(n)) for v, n in zip(model.pile_var, best_mix, strict=True)}
        tied = tie_broken(
            model.deck,
            Solved(HIGHS_OPTIMAL, tuple(best_x), float(best_distance)),
            bounds=fixed,
            time_limit=MILP_TIME_LIMIT,
        )
        if tied.x is not None:
            best_x = settle(model.deck, tied.x)
        more += model.deck.notes
    return (
        done(
            state,
            values=model.values(best_x),
            cells=model.deck.values(best_x),
            mix=best_mix,
            probability=best_p,
            candidates=len(candidates),
            evaluated=evaluated,
            ruled_out=ruled,
            unreachable=unreachable,
            simulated=simulated,
            reached=checked - unreachable,
            gain_bound=gain,
            distance=model.deck.distance(best_x),
            more=more,
        ),
        setup,
        bound,
        query,
        procedure,
    )


def relaxed_note() -> str:
    """Why an answer found through a relaxed pile model is only the best found."""
    return (
        "the deck's card order decides which cards the rules set aside; the search allowed "
        "every order, and the deck written out scores less than the best order would"
    )


def _origin(loaded: LoadedDeck, model: _Model, setup: DrawSetup) -> tuple[int, ...]:
    """The deck's own draw pile by class."""
    counts = [0] * len(model.classes)
    index = {k: g for g, k in enumerate(model.classes)}
    for card, n in setup.pile:
        key = model.key_of.get(card.id)
        if key is not None and key in index:
            counts[index[key]] += n
        else:
            key = tuple(bool(s(card)) for s in model.selectors)
            if key in index:
                counts[index[key]] += n
    return tuple(counts)


def _gap(mix: Sequence[int], origin: Sequence[int]) -> int:
    return sum(abs(a - b) for a, b in zip(mix, origin, strict=True))


def _candidates(
    lows: Sequence[int],
    highs: Sequence[int],
    least: int,
    most: int,
    origin: Sequence[int],
    changes: int | None,
) -> list[tuple[int, ...]] | None:
    """Every mix within the classes' bounds, a pile of ``least`` to ``most`` cards, and (with a
    budget) within ``changes`` of the deck's own mix: a copy changed moves one card of one
    class at most. None when there would be more than :data:`MAX_CANDIDATES`."""
    d = len(lows)
    lo = list(lows)
    hi = list(highs)
    if changes is not None:
        lo = [max(a, o - changes) for a, o in zip(lo, origin, strict=True)]
        hi = [min(b, o + changes) for b, o in zip(hi, origin, strict=True)]
    if any(a > b for a, b in zip(lo, hi, strict=True)) or least > most:
        return []
    out: list[tuple[int, ...]] = []
    budget = changes if changes is not None else math.inf
    # suffix sums of the least / most each remaining class can add, to prune the total
    min_rest = [0] * (d + 1)
    max_rest = [0] * (d + 1)
    for g in range(d - 1, -1, -1):
        min_rest[g] = min_rest[g + 1] + lo[g]
        max_rest[g] = max_rest[g + 1] + hi[g]
    mix = [0] * d

    def walk(g: int, total: int, used: float) -> bool:
        if g == d:
            if least <= total <= most:
                out.append(tuple(mix))
                return len(out) <= MAX_CANDIDATES
            return True
        for n in range(lo[g], hi[g] + 1):
            spent = used + abs(n - origin[g])
            if spent > budget:
                continue
            if total + n + max_rest[g + 1] < least or total + n + min_rest[g + 1] > most:
                continue
            mix[g] = n
            if not walk(g + 1, total + n, spent):
                return False
        return True

    if d == 0:
        return []
    if not walk(0, 0, 0):
        return None
    return out


def _ranks(better: Sequence[Sequence[int]]) -> list[int]:
    """A class's height in the order "at least as good as": how many classes are strictly
    below it (a class strictly better than another is higher)."""
    n = len(better)
    return [sum(1 for h in range(n) if g in better[h] and h not in better[g]) for g in range(n)]


def _dominated(
    mix: tuple[int, ...],
    better: Sequence[Sequence[int]],
    scores: Mapping[tuple[int, ...], Fraction],
    below: Mapping[tuple[int, ...], Fraction],
    floor: Fraction,
    *,
    least: bool = False,
) -> Fraction | None:
    """The most ``mix`` can score when a mix one card better (a card of class h swapped for
    one of a class g at least as good) already scored no more than ``floor`` (or was skipped
    for it): that mix's score or bound, else None. The first such bound found, or with
    ``least`` the least of them."""
    found: Fraction | None = None
    for h, n in enumerate(mix):
        if not n:
            continue
        for g in better[h]:
            up = list(mix)
            up[h] -= 1
            up[g] += 1
            key = tuple(up)
            got = below.get(key)
            if got is None:
                got = scores.get(key)
            if got is not None and got <= floor:
                if not least:
                    return got
                if found is None or got < found:
                    found = got
    return found


# ------------------------------------------------------------------------------ tune's rows


@frozen
class CountLegality:
    """Which counts of a category some legal deck of a given size holds.

    ``legal``: count -> whether a legal deck of ``size`` cards holds exactly that many cards
    of the category; ``nearest``: the count nearest the one asked that a legal deck holds
    (in the direction asked), None when none does; ``exact``: every rule was stated (else a
    rule is checked on a deck only, and a count marked legal may still break it).
    """

    size: int
    legal: Mapping[int, bool]
    nearest: int | None
    exact: bool


def count_legality(
    loaded: LoadedDeck,
    matches: Callable[[Card], bool],
    counts: Iterable[int],
    *,
    want: int | None = None,
    upward: bool = True,
) -> CountLegality:
    """For each count, whether some legal deck of the deck's size (cards of the catalog, any
    number) holds that many cards matching ``matches``; with ``want``, the nearest count at
    least (``upward``) or at most ``want`` that a legal deck holds."""
    stated = {
        code: loaded.game.constraints(code, loaded.catalog, loaded.variant)
        for code in loaded.variant.rules
    }
    size = loaded.deck.size
    p = Programme()
    card_var: dict[str, int] = {}
    fixed: dict[str, int] = {}
    for rc in stated.values():
        for card_id, n in rc.fixed.items():
            fixed[card_id] = min(fixed.get(card_id, n), n)
    cards = list(loaded.catalog)
    hits = _answers(cards, [matches])
    for card in cards:
        only = fixed.get(card.id)
        card_var[card.id] = p.var(only or 0, size if only is None else only)
    helper: dict[str, int] = {}
    for rc in stated.values():
        for h in rc.helpers:
            helper.setdefault(h.name, p.var(h.low, h.high if h.high is not None else size))

    def resolve(name: str) -> dict[int, float]:
        v = helper.get(name, card_var.get(name))
        return {} if v is None else {v: 1.0}

    for rc in stated.values():
        for c in rc.linear:
            p.state(c, resolve)
    every = {v: 1.0 for v in card_var.values()}
    p.row(every, size, size)
    category = {card_var[c.id]: 1.0 for c in cards if hits[c.id][0]}
    count_var = p.var(0, size)
    p.row({**category, count_var: -1.0}, 0, 0)
    legal = {}
    for n in counts:
        got = p.solve(bounds={count_var: (float(n), float(n))})
        legal[n] = got.x is not None
    nearest = None
    if want is not None:
        bounds = (
            {count_var: (float(want), float(size))} if upward else {count_var: (0.0, float(want))}
        )
        got = p.solve(cost={count_var: 1.0 if upward else -1.0}, bounds=bounds)
        nearest = None if got.x is None else round(got.x[count_var])
    return CountLegality(size, legal, nearest, all(rc.exact for rc in stated.values()))
