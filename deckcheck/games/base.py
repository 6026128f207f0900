"""The :class:`Game` object: everything game-specific that shared code may use.

Shared code never branches on a game's name; it asks the game. A game is its ``game.toml``
(numbers, lists, variants), its ``cards.toml`` and a few pure rule functions.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from pydantic import ValidationError

from deckcheck.catalog.cache import load_bundled, load_definition
from deckcheck.catalog.load import lay_overlays
from deckcheck.catalog.model import Card, Catalog, FieldSpec
from deckcheck.catalog.names import NameMatch
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import CatalogError, UsageError
from deckcheck.core.result import Json
from deckcheck.core.text import squash, suggest
from deckcheck.core.tomlfile import parse_toml
from deckcheck.core.values import frozen
from deckcheck.core.violations import Violation
from deckcheck.games.limits import Amount, DataRule, data_rules
from deckcheck.games.linear import RuleConstraints
from deckcheck.games.spec import (
    CardChangeModel,
    GameSpec,
    OpeningModel,
    SetAsideModel,
    ZoneModel,
    checked,
    spec_from_json,
    spec_json,
)
from deckcheck.games.variant import Variant

if TYPE_CHECKING:
    from deckcheck.catalog.deck import Deck


Rule = Callable[["Deck", Catalog, Variant], Iterable[Violation]]
"""A rule: a small pure function of the deck, the catalog and the variant."""

Constraints = Callable[[Catalog, Variant], RuleConstraints]
"""A rule stated as linear constraints over card counts (for ``fix``)."""


def clean_name(code: str) -> str:
    """The 0/1 helper of a warning rule's clean form: 1 only where the rule warns of nothing."""
    return f"{code}:clean"


def warnings_only(code: str) -> Constraints:
    """The constraints of a rule whose findings are warnings: none (a deck stays legal)."""
    return lambda catalog, variant: RuleConstraints(code)


def _kept(
    name: str, rule: object, state: Constraints, catalog: Catalog, variant: Variant
) -> RuleConstraints:
    """``state(catalog, variant)``, stated once per catalog, rule and variant (fix and optimize
    state every rule for every deck; a rule's constraints are a pure function of the catalog
    and the variant). The rule object is kept with them: its identity in the key stays its
    own, and a rule replaced (a test's stand-in) is stated anew."""
    key = ("constraints", name, id(rule), variant.key)
    return catalog.derived(key, lambda: (rule, state(catalog, variant)))[1]


@frozen
class CodeRule:
    """A rule that needs code: its check and, where it can say it, its constraints."""

    check: Rule
    constraints: Constraints | None = None
    # What the rule counts and its bounds, for the standing while a deck is built (None: the
    # rule counts nothing the builder could watch grow).
    amount: Callable[[Deck, Catalog, Variant], Amount | None] | None = None
    # A warning rule's absence of findings as constraints (see :func:`clean_name`): each
    # holds while the rule's ``clean`` helper is 1, so an answer's warnings can be minimised.
    clean: Constraints | None = None

    def __call__(self, deck: Deck, catalog: Catalog, variant: Variant) -> Iterable[Violation]:
        return self.check(deck, catalog, variant)


@frozen
class Exported:
    """A deck written in some format, with notes on anything the format could not hold."""

    text: str
    notes: tuple[str, ...] = ()


Exporter = Callable[["Deck", "Path | None"], "str | Exported"]
"""A game's own export format: the deck (and where it goes, whose extension may choose a
variant of the format) to text."""

NameLookup = Callable[[str, Catalog], NameMatch | None]
"""A game's own reading of a spelling (other programs' names, set codes), its last word when it
returns a match (with no cards: none); None leaves it to the catalog's names."""


@dataclass
class Game:
    """A game deckcheck knows: data from its folder plus the code that data cannot express.

    ``rules`` maps the codes of the rules that need code to their functions (or
    :class:`CodeRule` s, which can also state themselves as constraints); rules of generic
    kinds are data (``[checks]`` in game.toml). Each code is defined once, in one place;
    ``name_candidates`` turns a deck spelling into names to try (persona suffixes, …);
    ``lookup_name`` reads a spelling first, where the game knows more than its catalog's names
    (another program's name table, set codes); ``exporters`` adds game-specific export
    formats; ``face_name`` spells the other face of a two-sided card (so that a written deck
    reads back to that face); ``starters`` gives a variant's ready-made decks (name → card
    ids) for ``new``; ``place`` gives every line a zone where the game's exports put it (a
    Lackey file's missions under ``Missions:``); ``card_art`` draws a card as text.
    """

    directory: Traversable | Path
    rules: Mapping[str, Rule | CodeRule]
    name_candidates: Callable[[str], Sequence[str]] = lambda raw: [raw]
    lookup_name: NameLookup | None = None
    exporters: Mapping[str, Exporter] = field(default_factory=dict)
    card_art: Callable[[Any], str] | None = None
    face_name: Callable[[Card, str], str | None] | None = None
    starters: Callable[[Variant], Mapping[str, Sequence[str]]] | None = None
    place: Callable[[Deck], Deck] | None = None
    _catalog: Catalog | None = field(default=None, init=False, repr=False)

    @cached_property
    def spec(self) -> GameSpec:
        """The parsed game.toml."""
        path = self.directory / "game.toml"
        label = str(path)
        text = path.read_text(encoding="utf-8")

        def validated() -> GameSpec:
            parsed = parse_toml(text, label, CatalogError)
            try:
                return GameSpec.model_validate(parsed)
            except ValidationError as exc:
                raise CatalogError(f"game definition is broken: {exc}", source=label) from None

        spec = load_definition(
            self.directory.name, text.encode(), validated, spec_from_json, spec_json
        )
        both = set(spec.checks) & set(self.rules)
        if both:
            raise CatalogError(f"rules defined as code and as data: {sorted(both)}", source=label)
        known = set(spec.checks) | set(self.rules)
        missing = {r for v in spec.variants.values() for r in v.rules} - known
        if missing:
            raise CatalogError(f"rules without code: {sorted(missing)}", source=label)
        return spec

    @cached_property
    def data_rules(self) -> dict[str, DataRule]:
        """The rules of generic kinds declared in game.toml, by code."""
        return data_rules(self.spec.checks)

    @property
    def id(self) -> str:
        """The game's id (``ren-dhark``)."""
        return self.spec.game.id

    @property
    def name(self) -> str:
        """The game's display name."""
        return self.spec.game.name

    @cached_property
    def variants(self) -> dict[str, Variant]:
        """Variant name → variant, in game.toml order."""
        shared: dict[str, tuple[SetAsideModel, ...]] = {}
        return {
            name: Variant(
                name,
                v.description,
                tuple(v.rules),
                MappingProxyType({**self.spec.constants, **v.params}),
                tuple(v.notes),
                tuple(v.card_changes),
                MappingProxyType(dict(v.checks)),
                self._set_aside_of(name, v.set_aside, shared),
                tuple(a.lower() for a in v.aliases),
            )
            for name, v in self.spec.variants.items()
        }

    def _set_aside_of(
        self,
        variant: str,
        rules: str | list[SetAsideModel] | None,
        shared: dict[str, tuple[SetAsideModel, ...]],
    ) -> tuple[SetAsideModel, ...] | None:
        """A variant's own set-aside rules (a [constants] list named by key is read here, once
        for the variants that name it: they share the very rules, and what is worked out from
        them, such as a deck's cards set aside, is kept for all)."""
        if rules is None:
            return None
        if isinstance(rules, str):
            if rules in shared:
                return shared[rules]
            listed = self.spec.constants.get(rules)
            if not isinstance(listed, list):
                raise CatalogError(
                    f"variant {variant!r}: set_aside names {rules!r}, no list in [constants]"
                )
            try:
                return shared.setdefault(rules, tuple(checked(SetAsideModel, r) for r in listed))
            except ValueError as exc:
                raise CatalogError(f"variant {variant!r}: set_aside {rules!r}: {exc}") from None
        return tuple(rules)

    def opening(self, variant: Variant | None = None) -> OpeningModel | None:
        """How the game deals (``[opening]``), with what ``variant`` sets aside instead."""
        opening = self.spec.opening
        if opening is None or variant is None or variant.set_aside is None:
            return opening
        return opening.model_copy(update={"set_aside": list(variant.set_aside)})

    def variant(self, name: str | None) -> Variant:
        """The named variant (default when None); an unknown name is a usage error."""
        chosen = name or self.spec.game.default_variant
        # Any case, spaces for hyphens: "Four Heroes" is four-heroes.
        key = "-".join(chosen.strip().lower().replace("_", "-").split())
        key = next((n for n, v in self.variants.items() if key in v.aliases), key)
        if key not in self.variants:
            hint = suggest(key, list(self.variants), limit=1)
            raise UsageError(
                f"{self.id} has no variant {chosen!r}"
                + (f" (did you mean {hint[0]!r}?)" if hint else "")
                + f"; variants: {', '.join(self.variants)}"
            )
        return self.variants[key]

    @cached_property
    def field_specs(self) -> dict[str, FieldSpec]:
        """Field name → what it may hold."""
        return {
            name: FieldSpec(
                name,
                f.kind,
                tuple(f.values),
                f.min,
                f.max,
                tuple(f.not_for_types),
                f.description,
                tuple(tuple(group) for group in f.synonyms),
                f.label,
            )
            for name, f in self.spec.fields.items()
        }

    def bundled_catalog(self) -> Catalog:
        """The catalog shipped with the game (parsed once per process)."""
        if self._catalog is None:
            files = [
                (str(entry), entry.read_bytes())
                for entry in sorted(self.directory.iterdir(), key=lambda p: p.name)
                if entry.name.endswith(".toml") and entry.name != "game.toml"
            ]
            game_toml = (self.directory / "game.toml").read_bytes()
            self._catalog = load_bundled(self.id, self.name, self.field_specs, files, [game_toml])
        return self._catalog

    def catalog(
        self, overlays: Sequence[str | Path] = (), variant: Variant | None = None
    ) -> Catalog:
        """The bundled catalog with the user's overlay files laid over it, in order, and the
        variant's changes to card fields (a ritual's blood cost) applied last."""
        catalog = lay_overlays(self.bundled_catalog(), overlays)
        if variant is not None and variant.card_changes:
            catalog = _changed(catalog, variant.card_changes)
        return catalog

    def with_settings(self, variant: Variant, settings: Mapping[str, str | int]) -> Variant:
        """``variant`` with the user's settings (``--set missions=4``, a ``missions: 4`` header):
        only the parameters the game declares as ``[settings]``, each a whole number in range."""
        known = [k for k in self.spec.settings if k in variant.params]
        overrides: dict[str, int] = {}
        for raw_key, raw in settings.items():
            key = raw_key.strip().lower()
            if key not in known:
                hint = suggest(key, known, limit=1)
                raise UsageError(
                    f"{self.id} variant {variant.name!r} has no setting {raw_key!r}"
                    + (f" (did you mean {hint[0]!r}?)" if hint else "")
                    + (f"; settings: {', '.join(known)}" if known else "; it has no settings")
                )
            spec = self.spec.settings[key]
            text = str(raw).strip()
            if (
                not text.isascii()
                or not text.isdigit()
                or len(text.lstrip("0")) > len(str(spec.max))
                or not spec.min <= int(text) <= spec.max
            ):
                shown = text if len(text) <= 24 else f"{text[:12]}… ({len(text):,} characters)"
                raise UsageError(
                    f"setting {key} must be a whole number from {spec.min} to {spec.max}, "
                    f"not {shown!r}"
                )
            overrides[key] = int(text)
        return variant.with_params(overrides) if overrides else variant

    @property
    def zones(self) -> list[ZoneModel]:
        """The deck file's zones (empty: the game has none), the default zone first."""
        return self.spec.zones

    def zone(self, section: str | None) -> ZoneModel | None:
        """The zone a section header names (None for a header that is no zone of the game);
        no header means the first zone."""
        spec = self.spec
        if not spec.zones:
            return None
        if section is None:
            return spec.zones[0]
        # Asked for every line of every deck read: the zones by squashed name, made once for
        # this definition (a spec read afresh gets its own).
        kept = self.__dict__.get("_zones_by_key")
        if kept is None or kept[0] is not spec:
            by_key: dict[str, ZoneModel] = {}
            for zone in spec.zones:
                for name in (zone.name, *zone.aliases, *zone.formats.values()):
                    by_key.setdefault(squash(name), zone)
            kept = self.__dict__["_zones_by_key"] = (spec, by_key)
        return kept[1].get(squash(section))

    def rule(self, code: str) -> Rule:
        """The function behind a rule code (a data rule is callable like one)."""
        if code in self.data_rules:
            return self.data_rules[code]
        return self.rules[code]

    def constraints(self, code: str, catalog: Catalog, variant: Variant) -> RuleConstraints:
        """A rule as linear constraints; a rule that cannot say itself so is checked on the
        answer only (``exact`` False, no constraints)."""
        if code in self.data_rules:
            data = self.data_rules[code]
            return _kept(code, data, data.constraints, catalog, variant)
        rule = self.rules[code]
        if isinstance(rule, CodeRule) and rule.constraints is not None:
            return _kept(code, rule, rule.constraints, catalog, variant)
        return RuleConstraints(code, exact=False, note="not expressible as constraints")

    def states_clean(self, code: str) -> bool:
        """Whether a rule states its clean form (see :meth:`clean`)."""
        rule = self.rules.get(code)
        return isinstance(rule, CodeRule) and rule.clean is not None

    def clean(self, code: str, catalog: Catalog, variant: Variant) -> RuleConstraints | None:
        """A warning rule's clean form (constraints that hold, while its helper
        :func:`clean_name` is 1, exactly on the decks it warns nothing of); None where the
        rule cannot say so."""
        rule = self.rules.get(code)
        if isinstance(rule, CodeRule) and rule.clean is not None:
            return _kept(clean_name(code), rule, rule.clean, catalog, variant)
        return None

    def info(self) -> GameInfo:
        """What ``deckcheck games`` says about this game."""
        return GameInfo(
            self.id,
            self.name,
            tuple(self.variants),
            self.spec.game.default_variant,
            len(self.bundled_catalog()),
            tuple(f"{self.id}:{p}" for p in self.spec.piles),
            tuple(self.spec.settings),
            tuple(self.spec.game.aliases),
        )


@frozen
class GameInfo:
    """One game as ``deckcheck games`` lists it."""

    id: str
    name: str
    variants: tuple[str, ...]
    default_variant: str
    cards: int
    piles: tuple[str, ...]
    settings: tuple[str, ...] = ()
    aliases: tuple[str, ...] = ()  # other names the game answers to ("stccg", "st1e")

    def to_json(self) -> dict[str, Json]:
        """``{"id", "name", "aliases", "variants", "default_variant", "cards", "piles",
        "settings"}``."""
        return {
            "id": self.id,
            "name": self.name,
            "aliases": list(self.aliases),
            "variants": list(self.variants),
            "default_variant": self.default_variant,
            "cards": self.cards,
            "piles": list(self.piles),
            "settings": list(self.settings),
        }


def _changed(catalog: Catalog, changes: Sequence[CardChangeModel]) -> Catalog:
    """The catalog with each change added to the matching cards' field (where it is known)."""
    cards = list(catalog.cards)
    for change in changes:
        selector = bind_selector(change.select, catalog)
        for i, card in enumerate(cards):
            value = card.get(change.field)
            if selector(card) and isinstance(value, int) and not isinstance(value, bool):
                fields = MappingProxyType({**card.fields, change.field: value + change.add})
                cards[i] = dataclasses.replace(card, fields=fields)
    return Catalog(catalog.game, catalog.name, tuple(cards), catalog.fields, catalog.sources)


def game_directory(game_id: str) -> Traversable:
    """Where a built-in game's ``game.toml`` and ``cards.toml`` live: ``deckcheck/catalogs/<id>``.

    One lookup for every install: in a checkout ``deckcheck/catalogs`` is a link to the
    repository's top-level ``catalogs/``, and the wheel carries the folder itself.
    """
    directory = files("deckcheck") / "catalogs" / game_id
    if not (directory / "game.toml").is_file():
        raise CatalogError(f"the bundled catalog of {game_id} is missing from this installation")
    return directory
