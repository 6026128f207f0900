"""Generic rule kinds declared as data in ``game.toml`` (``[checks."CODE"]``).

Size and copy limits are the same few shapes in every game, so they are data of one checker,
not code per game:

* ``size``: how many cards (or how many matching ``select``), from ``min`` to ``max``;
* ``count``: how many cards match ``select``, from ``min`` to ``max``, a multiple of
  ``multiple_of`` (STCCG's even number of missions);
* ``copies``: copies of one card (``by = "id"``) or of one name (``by = "name"``) at most
  ``max``, or at most the cap ``caps`` gives for the card's ``caps_field`` value (stars);
* ``required``: at least one copy of each of ``cards``;
* ``sum``: the sum of a card field over the deck, from ``min`` to ``max`` (``required_for``:
  cards that must carry the field, else the rule is undecided).

A number may be written as an integer or as the name of a variant parameter, so that a
variant (or ``--missions 4``) changes it. A variant may also override fields of a rule
(``[variants.advanced.checks."stccg.missions"]``: at least 6 and even, no maximum).
``messages`` holds the finding's wording, with ``{n}``-style fields (each kind names its own).

Every kind can also state itself as linear constraints over card counts (:mod:`.linear`).
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from deckcheck.catalog.deck import Deck
from deckcheck.catalog.model import Card, Catalog
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import CatalogError
from deckcheck.core.text import fold, plural
from deckcheck.core.values import frozen
from deckcheck.core.violations import Violation, error, undecided
from deckcheck.games.linear import Helper, Linear, RuleConstraints, terms
from deckcheck.games.spec import CheckModel, checked
from deckcheck.games.variant import Variant


@frozen
class Amount:
    """How many cards a size or count rule counts, and its bounds: ``58/60 cards``."""

    noun: str  # "" for the deck's own size (the caller names it)
    n: int
    low: int | None
    high: int | None
    size: bool = False  # the deck's own size (a "size" rule)

    def describe(self, noun: str = "card") -> str:
        """``58/60 cards``, ``62/60+ cards``, ``41/40–60 cards``."""
        word = self.noun or noun
        if self.low is not None and self.low == self.high:
            goal = str(self.low)
        elif self.low is not None and self.high is not None:
            goal = f"{self.low}–{self.high}"
        elif self.low is not None:
            goal = f"{self.low}+"
        elif self.high is not None:
            goal = f"≤{self.high}"
        else:
            return f"{self.n} {word}{'' if self.n == 1 else 's'}"
        return f"{self.n}/{goal} {word}s"


class _Fields(dict[str, Any]):
    """Template fields; a field a template names but the kind does not give is a data bug."""

    def __missing__(self, key: str) -> Any:
        raise CatalogError(f"a rule message names an unknown field {{{key}}}")


class _Count(int):
    """A whole-number field that a message may give with its noun, in the right number:
    ``{n:party member}`` reads ``1 party member`` or ``5 party members`` (the data says the
    noun; the code knows the grammar)."""

    def __format__(self, spec: str) -> str:
        if spec and not spec[0].isdigit() and spec[0] not in "<>^=+- #,_.":
            return plural(int(self), spec)
        return format(int(self), spec)


@frozen
class DataRule:
    """One ``[checks."CODE"]`` entry: checks a deck and states itself as constraints."""

    code: str
    model: CheckModel

    # -- shared ---------------------------------------------------------------------------

    def _in(self, variant: Variant) -> DataRule:
        """The rule with the variant's overrides of its fields (made once per variant; the
        rule is kept with it, so that its identity in the key stays its own)."""
        changes = variant.checks.get(self.code)
        if not changes:
            return self
        key = ("check", self.code, id(self))
        return variant.derived(key, lambda: (self, self._with(changes, variant)))[1]

    def _with(self, changes: Mapping[str, Any], variant: Variant) -> DataRule:
        data = {name: getattr(self.model, name) for name in CheckModel.model_fields}
        data.update({k: v for k, v in changes.items() if k != "messages"})
        data["messages"] = {**self.model.messages, **changes.get("messages", {})}
        try:
            return DataRule(self.code, checked(CheckModel, data))
        except ValueError as exc:
            raise CatalogError(f"variant {variant.name!r} breaks rule {self.code}: {exc}") from None

    def _number(self, name: str, variant: Variant) -> int | None:
        value = getattr(self.model, name)
        if value is None or isinstance(value, int):
            return value
        number = variant.param(value)
        if not isinstance(number, int) or isinstance(number, bool):
            raise CatalogError(f"{self.code}: parameter {value!r} must be a whole number")
        return number

    def _say(self, case: str, **fields: Any) -> str:
        template = self.model.messages.get(case)
        if template is None:
            raise CatalogError(f"{self.code} has no message {case!r}")
        if "count" in fields:  # "{count_cards}": "1 card", "3 cards"
            fields.setdefault("count_cards", plural(fields["count"], "card"))
        counts = {k: _Count(v) for k, v in fields.items() if type(v) is int}
        return template.format_map(_Fields({**fields, **counts}))

    def _matcher(self, catalog: Catalog) -> Any:
        selects = [self.model.select] if isinstance(self.model.select, str) else self.model.select
        # the bound predicates themselves: a rule asks this of every card of every deck checked
        predicates = tuple(bind_selector(s, catalog).predicate for s in selects if s)
        if not predicates:
            return lambda card: True
        if len(predicates) == 1:
            return predicates[0]
        return lambda card: any(p(card) for p in predicates)

    # -- standing -------------------------------------------------------------------------

    def amount(self, deck: Deck, catalog: Catalog, variant: Variant) -> Amount | None:
        """For a size or count rule: how many cards it counts now, and its bounds (the
        one-line standing after an edit); None for other kinds."""
        rule = self._in(variant)
        if rule.model.kind not in ("size", "count"):
            return None
        match = rule._matcher(catalog)
        n = deck.count_where(match) if rule.model.select else deck.size
        low, high = rule._number("min", variant), rule._number("max", variant)
        noun = rule.model.noun
        if not noun and rule.model.kind == "count":
            # "type:action" counts actions; a list of selectors is named by the rule's code.
            select = rule.model.select
            noun = select.partition(":")[2] if isinstance(select, str) else self.code
        return Amount(noun, n, low, high, rule.model.kind == "size")

    def limit(self, variant: Variant, catalog: Catalog | None = None) -> str:
        """The rule's limit in words, for a new deck's comments: ``at most 2 copies of a
        card``, ``resource_points total 109–112``."""
        rule = self._in(variant)
        model = rule.model
        low, high = rule._number("min", variant), rule._number("max", variant)
        window = (
            f"exactly {low}"
            if low is not None and low == high
            else f"{low}–{high}"
            if low is not None and high is not None
            else f"at least {low}"
            if low is not None
            else f"at most {high}"
            if high is not None
            else ""
        )
        scope = f" among {model.select}" if isinstance(model.select, str) and model.select else ""
        if model.kind == "copies":
            each = "card" if model.by == "id" else "name"
            if model.caps_field:
                caps = ", ".join(
                    f"{k}: {'1 copy' if v == 1 else f'{v} copies'}"
                    for k, v in rule._caps(variant).items()
                )
                return f"copies of a {each}{scope} capped by its {model.caps_field} ({caps})"
            copies = "1 copy" if high == 1 else f"{high} copies"
            return f"at most {copies} of a {each}{scope}"
        if model.kind == "sum":
            return f"{model.field.replace('_', ' ')} total {window}".strip()
        if model.kind == "required":
            ids = rule._required_ids(variant)
            cards = [catalog.by_id(i) if catalog is not None else None for i in ids]
            names = [c.name if c is not None else i for c, i in zip(cards, ids, strict=True)]
            return "the deck holds " + ", ".join(names)
        noun = model.noun or (
            model.select.partition(":")[2] if isinstance(model.select, str) else ""
        )
        return f"{window} {noun or 'cards'}".strip()

    # -- checking -------------------------------------------------------------------------

    def check(self, deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
        """The rule's findings for a deck (the ``Rule`` signature)."""
        rule = self._in(variant)
        kind = rule.model.kind
        if kind in ("size", "count"):
            return rule._check_amount(deck, catalog, variant)
        if kind == "copies":
            return rule._check_copies(deck, catalog, variant)
        if kind == "required":
            return rule._check_required(deck, catalog, variant)
        return rule._check_sum(deck, catalog, variant)

    def __call__(self, deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
        return self.check(deck, catalog, variant)

    def _check_amount(self, deck: Deck, catalog: Catalog, variant: Variant) -> list[Violation]:
        low, high = self._number("min", variant), self._number("max", variant)
        step = self._number("multiple_of", variant)
        match = self._matcher(catalog)
        n = deck.count_where(match) if self.model.select else deck.size
        case = None
        if low is not None and low == high and n != low:
            case = "exact"
        elif (low is not None and n < low) or (high is not None and n > high):
            if "outside" in self.model.messages:
                case = "outside"
            else:
                case = "below" if low is not None and n < low else "above"
        elif step and n % step:
            case = "multiple"
        if case is None:
            return []  # most decks checked (every neighbour fix weighs) break nothing
        cards = deck.ids_where(match) if self.model.kind == "count" else []
        noun = self.model.noun
        fields = {
            "n": n,
            "min": low,
            "max": high,
            "multiple": step,
            "count": plural(n, noun),
            "add": (low or 0) - n,
            "remove": n - (high if high is not None else n),
        }
        if case == "exact":
            assert low is not None
            fields["fix"] = f"remove {n - low}" if n > low else f"add {low - n}"
        return [error(self.code, self._say(case, **fields), cards)]

    def _cap_of(self, card: Card, variant: Variant) -> tuple[int | None, bool]:
        """(the copy cap of a card, whether its cap is unknown)."""
        if not self.model.caps_field:
            return self._number("max", variant), False
        value = card.get(self.model.caps_field)
        if value is None:
            return None, True
        caps = self._caps(variant)
        return caps.get(str(value)), False

    def _caps(self, variant: Variant) -> dict[str, int]:
        caps = self.model.caps
        table = variant.param(caps) if isinstance(caps, str) else caps
        return {str(k): int(v) for k, v in table.items()}

    def _groups(self, cards: Iterable[Card]) -> dict[str, list[Card]]:
        groups: dict[str, list[Card]] = {}
        for card in cards:
            key = card.id if self.model.by == "id" else fold(card.name)
            groups.setdefault(key, []).append(card)
        return groups

    def _check_copies(self, deck: Deck, catalog: Catalog, variant: Variant) -> list[Violation]:
        match = self._matcher(catalog)
        per_key: Counter[str] = Counter()
        ids: dict[str, list[str]] = {}
        last: dict[str, Card] = {}
        for entry in deck:
            if not match(entry.card):
                continue
            key = entry.card.id if self.model.by == "id" else fold(entry.card.name)
            per_key[key] += entry.count
            ids.setdefault(key, []).append(entry.card.id)
            last[key] = entry.card
        found: list[Violation] = []
        unknown: list[str] = []
        field = self.model.caps_field
        caps = self._caps(variant) if field else None  # read once, as :meth:`_cap_of` reads
        least = min(caps.values()) if caps is not None else None
        top: list[int | None] = []  # the rule's max, read at the first card
        for key, n in per_key.items():
            card = last[key]
            if caps is None:
                if not top:
                    top.append(self._number("max", variant))
                cap, is_unknown = top[0], False
            else:
                value = card.get(field)
                is_unknown = value is None
                cap = None if is_unknown else caps.get(str(value))
            if is_unknown:
                # No cap is below the strictest, so fewer copies than that cannot break it.
                if least is not None and n > least:
                    unknown.extend(dict.fromkeys(ids[key]))
                continue
            if cap is not None and n > cap:
                group = list(dict.fromkeys(ids[key]))
                first = deck.cards()[group[0]]
                found.append(
                    error(
                        self.code,
                        self._say(
                            "over",
                            id=key,
                            name=first.name,
                            n=n,
                            cap=cap,
                            value=card.get(self.model.caps_field) if self.model.caps_field else "",
                        ),
                        group,
                    )
                )
        if unknown:
            names = ", ".join(deck.cards()[i].name for i in unknown)
            found.append(
                undecided(
                    self.code,
                    self._say("unknown", names=names, least=least, copies=_copies(least)),
                    unknown,
                )
            )
        return found

    def _required_ids(self, variant: Variant) -> list[str]:
        cards = self.model.cards
        return list(variant.param(cards) if isinstance(cards, str) else cards)

    def _check_required(self, deck: Deck, catalog: Catalog, variant: Variant) -> list[Violation]:
        counts = deck.counts()
        low = self._number("min", variant) or 1
        found = []
        for card_id in self._required_ids(variant):
            if counts.get(card_id, 0) < low:
                card = catalog.by_id(card_id)
                name = card.name if card else card_id
                found.append(
                    error(self.code, self._say("missing", id=card_id, name=name), [card_id])
                )
        return found

    def _needs_value(self, catalog: Catalog) -> Any:
        predicates = [bind_selector(s, catalog) for s in self.model.required_for]
        return lambda card: any(p(card) for p in predicates)

    def _check_sum(self, deck: Deck, catalog: Catalog, variant: Variant) -> list[Violation]:
        low, high = self._number("min", variant), self._number("max", variant)
        needs = self._needs_value(catalog)
        total = 0
        missing: list[str] = []
        for entry in deck:
            value = entry.card.get(self.model.field)
            if value is None:
                if needs(entry.card):
                    missing.append(entry.card.id)
                continue
            total += value * entry.count
        missing = list(dict.fromkeys(missing))
        above = high is not None and total > high
        if missing and not above:
            fields: dict[str, object] = {
                "count": len(missing),
                "min": low,
                "max": high,
                "known": total,
            }
            return [undecided(self.code, self._say("unknown", **fields), missing)]
        if above or (not missing and low is not None and total < low):
            at_least = " at least" if missing else ""
            fields = {"total": total, "min": low, "max": high, "at_least": at_least}
            return [error(self.code, self._say("outside", **fields))]
        return []

    # -- constraints ----------------------------------------------------------------------

    def constraints(self, catalog: Catalog, variant: Variant) -> RuleConstraints:
        """The rule as linear constraints over the catalog's card counts."""
        rule = self._in(variant)
        if rule is not self:
            return rule.constraints(catalog, _plain(variant))
        kind = self.model.kind
        match = self._matcher(catalog)
        low, high = self._number("min", variant), self._number("max", variant)
        if kind in ("size", "count"):
            ids = [c.id for c in catalog if match(c)]
            linear = [Linear(terms(ids), low, high)] if low is not None or high is not None else []
            helpers: list[Helper] = []
            step = self._number("multiple_of", variant)
            if step:
                k = Helper(f"{self.code}:multiple")
                helpers.append(k)
                linear.append(Linear({**terms(ids), k.name: -step}, 0, 0))
            return RuleConstraints(self.code, tuple(linear), tuple(helpers))
        if kind == "copies":
            return self._copies_constraints(catalog, variant, match)
        if kind == "required":
            least = low or 1
            return RuleConstraints(
                self.code,
                tuple(
                    Linear({i: 1}, least) for i in self._required_ids(variant) if catalog.by_id(i)
                ),
            )
        needs = self._needs_value(catalog)
        values: dict[str, int] = {}
        fixed: dict[str, int] = {}
        for card in catalog:
            value = card.get(self.model.field)
            if isinstance(value, int) and not isinstance(value, bool):
                if value:
                    values[card.id] = value
            elif needs(card):
                fixed[card.id] = 0
        note = (
            f"{plural(len(fixed), 'card')} without a {self.model.field} value cannot be used "
            "(give their values with --catalog)"
            if fixed
            else ""
        )
        return RuleConstraints(self.code, (Linear(values, low, high),), fixed=fixed, note=note)

    def _copies_constraints(
        self, catalog: Catalog, variant: Variant, match: Any
    ) -> RuleConstraints:
        linear = []
        note = ""
        unknown = 0
        least = min(self._caps(variant).values()) if self.model.caps_field else None
        for group in self._groups(c for c in catalog if match(c)).values():
            cap, is_unknown = self._cap_of(group[-1], variant)
            if is_unknown:
                # Held at most as often as the strictest cap, it is legal whatever its value.
                cap, unknown = least, unknown + 1
            if cap is not None:
                linear.append(Linear(terms(c.id for c in group), None, cap))
        if unknown:
            cards = "1 card" if unknown == 1 else f"{unknown} cards"
            note = (
                f"{cards} of unknown {self.model.caps_field} held at most "
                f"{_copies(least)}, which is legal whatever their {self.model.caps_field}"
            )
        return RuleConstraints(self.code, tuple(linear), note=note)


def _plain(variant: Variant) -> Variant:
    """The variant without rule overrides (already applied)."""
    return dataclasses.replace(variant, checks={})


def data_rules(checks: Mapping[str, CheckModel]) -> dict[str, DataRule]:
    """The data rules of a game.toml, by code."""
    return {code: DataRule(code, model) for code, model in checks.items()}


def _copies(n: int | None) -> str:
    """``1 copy``, ``3 copies``: a count of copies in words a message can use."""
    return "1 copy" if n == 1 else f"{n} copies"
