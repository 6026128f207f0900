"""A deck's standing against each construction rule, as a deck site's legality panel shows it
while a deck is built: ``38/60 cards · 6/6 missions · copies ✓ · outposts ✗``.

One :class:`RuleProgress` per rule of the variant, computed from a loaded deck and its report:
the amount the rule counts and its bounds where the rule counts something (a data rule's
size or count, a code rule's own amount, else the rule's single linear constraint), otherwise
whether it holds. The CLI prints them after each edit; a terminal builder shows the same
values in its standing pane.
"""

from __future__ import annotations

from deckcheck.core.text import plural_noun
from deckcheck.core.values import frozen
from deckcheck.core.violations import Report, Severity
from deckcheck.decks.load import LoadedDeck
from deckcheck.games.limits import Amount
from deckcheck.games.linear import Linear

MARKS = {"met": "✓", "unmet": "✗", "warning": "!", "unknown": "?"}
"""How a rule's state is marked where no number says it."""


@frozen
class RuleProgress:
    """Where a deck stands on one rule: ``count`` of ``noun`` against ``low``–``high`` where
    the rule counts something (None otherwise), and its ``state``: ``met``, ``unmet`` (an
    error), ``warning`` or ``unknown`` (the catalog lacks data to decide)."""

    code: str
    name: str
    state: str
    count: int | None = None
    low: int | None = None
    high: int | None = None
    noun: str = ""

    @property
    def met(self) -> bool:
        """Whether the rule holds (a warning holds: it never makes a deck illegal)."""
        return self.state in ("met", "warning")

    @property
    def goal(self) -> str:
        """The bounds as read: ``60``, ``50–80``, ``15+``, ``≤6`` (empty: none)."""
        if self.low is not None and self.low == self.high:
            return str(self.low)
        if self.low is not None and self.high is not None:
            return f"{self.low}–{self.high}"
        if self.low is not None:
            return f"{self.low}+"
        if self.high is not None:
            return f"≤{self.high}"
        return ""

    @property
    def text(self) -> str:
        """``38/60 cards``, ``1/1 planet``, ``5/≤6 actions``; ``copies ✓`` for a rule that
        counts nothing; a count the catalog cannot settle gets a ``?``."""
        if self.count is None or not self.goal:
            return f"{self.name} {MARKS[self.state]}"
        bound = self.high if self.high is not None else self.low
        unknown = "?" if self.state == "unknown" else ""
        return f"{self.count}{unknown}/{self.goal} {plural_noun(self.noun, bound)}"


def rule_progress(loaded: LoadedDeck, report: Report) -> tuple[RuleProgress, ...]:
    """Every rule of the deck's variant, in the variant's order, with its progress."""
    worst: dict[str, str] = {}
    rank = {"met": 0, "warning": 1, "unknown": 2, "unmet": 3}
    for v in report.violations:
        state = {Severity.ERROR: "unmet", Severity.WARNING: "warning"}.get(v.severity, "unknown")
        if rank[state] > rank[worst.get(v.code, "met")]:
            worst[v.code] = state
    counts = loaded.deck.counts()
    noun = loaded.game.spec.game.card_noun
    out = []
    for code in loaded.variant.rules:
        state = worst.get(code, "met")
        name = code.partition(".")[2] or code
        amount = _amount(loaded, code)
        if amount is not None:
            out.append(
                RuleProgress(
                    code,
                    name,
                    state,
                    amount.n,
                    amount.low,
                    amount.high,
                    amount.noun or noun,
                )
            )
            continue
        single = _single_bound(loaded, code)
        if single is not None:
            total = sum(c * counts.get(v, 0) for v, c in single.terms.items())
            out.append(RuleProgress(code, name, state, total, single.low, single.high, name))
            continue
        out.append(RuleProgress(code, name, state))
    return tuple(out)


def _amount(loaded: LoadedDeck, code: str) -> Amount | None:
    """What a data rule counts, or a code rule that says what it counts."""
    rule = loaded.game.data_rules.get(code)
    if rule is not None:
        return rule.amount(loaded.deck, loaded.catalog, loaded.variant)
    counted = getattr(loaded.game.rules.get(code), "amount", None)
    return counted(loaded.deck, loaded.catalog, loaded.variant) if counted else None


def _single_bound(loaded: LoadedDeck, code: str) -> Linear | None:
    """The rule's one constraint over many cards (a points window), when the rule is exactly
    that: no helpers, no fixed counts, nothing checked on the answer only."""
    stated = loaded.game.constraints(code, loaded.catalog, loaded.variant)
    if (
        len(stated.linear) != 1
        or stated.helpers
        or stated.fixed
        or not stated.exact
        or stated.linear[0].when is not None
        or len(stated.linear[0].terms) < 2
    ):
        return None
    return stated.linear[0]


def progress_line(progress: tuple[RuleProgress, ...]) -> str:
    """The progress in one line, joined by `` · ``."""
    return " · ".join(p.text for p in progress)


def rule_limits(loaded: LoadedDeck) -> tuple[tuple[str, str], ...]:
    """Every rule of the deck's variant with its limit in words (code, limit): the bounds of
    what it counts (``15+ ships``), a data rule's own wording (``at most 3 copies of a
    card``), else the first sentence of the rule's description."""
    empty = Report(loaded.deck.label, loaded.game.id, loaded.variant.name, 0, ())
    out = []
    for p in rule_progress(loaded, empty):
        bound = p.high if p.high is not None else p.low
        # A bound of 0 on an empty deck is one that grows with the deck (half of it): the
        # rule's own words say it better.
        if p.count is not None and p.goal and bound:
            out.append((p.code, f"{p.goal} {plural_noun(p.noun, bound)}"))
            continue
        data = loaded.game.data_rules.get(p.code)
        if data is not None:
            out.append((p.code, data.limit(loaded.variant, loaded.catalog)))
            continue
        rule = loaded.game.rules.get(p.code)
        check = getattr(rule, "check", rule)
        doc = (getattr(check, "__doc__", None) or "").strip().split("\n\n")[0]
        doc = " ".join(doc.split()).replace("``", "")
        summary = doc.partition(": ")[2] if doc.startswith(p.code) else doc
        out.append((p.code, summary.rstrip(".") or p.name))
    return tuple(out)
