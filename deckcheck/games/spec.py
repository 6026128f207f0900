"""The schema of a game's ``game.toml``: numbers and lists live in data, not in code.

The models' validators are built when first used (``defer_build``): a start that reads a
game's definition from the cache (:func:`spec_from_json`, :func:`checked`) never builds them.
"""

from __future__ import annotations

import types
from enum import Enum
from typing import Any, Literal, TypeVar, Union, get_args, get_origin

from pydantic import BaseModel, ConfigDict, Field

from deckcheck.draws.compare import Comparison

M = TypeVar("M", bound=BaseModel)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class GameInfo(_Strict):
    """``[game]``: identity and defaults."""

    id: str
    name: str
    default_variant: str
    description: str = ""
    deck_noun: str = "deck"
    card_noun: str = "card"
    example_condition: str = "type:X>=1"  # shown in messages about conditions
    aliases: list[str] = []  # other names the game answers to ("stccg"), lower case
    variant_option: str = "--variant"  # how its players name a variant ("--format")
    # Fields that say which side a card is on (an affiliation, a colour): among equally good
    # answers, fix and optimize prefer cards of the value most of the deck's cards carry.
    side_fields: list[str] = []
    # Said where a card is not found: the bundled catalog holds only part of the game's cards
    # (the rest come from the player's overlay), empty when it holds them all.
    partial_catalog: str = ""

    @property
    def variant_noun(self) -> str:
        """What its players call a variant ("format")."""
        return self.variant_option.lstrip("-")


class FieldModel(_Strict):
    """``[fields.NAME]``: what a card field may hold."""

    kind: Literal["text", "int", "bool", "list", "data"] = "text"
    values: list[str] = []
    min: int | None = None
    max: int | None = None
    not_for_types: list[str] = []
    description: str = ""
    synonyms: list[list[str]] = []  # values that mean the same ("Neutral" = "Non-Aligned")
    label: str = ""  # a column heading for listings (default: the name with spaces)
    # The cards `catalog template --field` asks it of (their types; empty: every card the
    # field is for): Ren Dhark's points are printed on combat cards, not on actions or planets.
    asked_for_types: list[str] = []


class CardChangeModel(_Strict):
    """A variant's change to a card field (Dorn 15.f: every ritual costs 1 more blood)."""

    select: str
    field: str
    add: int
    why: str = ""


class SetAsideModel(_Strict):
    """Cards taken out of the pile before the shuffle (a planet, seed cards, starting miners).

    ``zone``: only the copies the deck file wrote in that zone (a Lackey ``Seed+Dil:``
    section); ``fallback``: the rule applies only when the file wrote no card in any zone that
    a rule of the same list names (the file does not say which cards are set aside, so they
    are placed by type).
    """

    select: str = ""  # "": any card
    count: int | None = None  # None: every matching card
    one_per: str = ""  # a field: one copy per distinct value (one Outpost per affiliation)
    why: str = ""
    zone: str = ""
    fallback: bool = False


class OpeningModel(_Strict):
    """``[opening]``: how the game deals and draws."""

    hand_size: int
    hand_size_second: int | None = None
    draws_per_turn: int = 1
    extra_seen_second: int = 0  # drawn by the second player before their own first turn
    lookahead: bool = False
    players: list[str] = []  # the starting player's name and the other's (blue, red)
    second_note: str = ""  # when --second applies (a two-player game)
    turn_note: str = ""  # what the per-turn counts assume (minimums, …)
    set_aside: list[SetAsideModel] = []
    description: str = ""


class VariantModel(_Strict):
    """``[variants.NAME]``: the rules a variant checks and their numbers."""

    description: str = ""
    rules: list[str] = []
    params: dict[str, Any] = {}
    random: bool = False  # the variant deals the deck at random: simulate, do not check
    # How a random variant deals from the deck file itself (a shuffled Drake stack's leader, a
    # party drawn from a pool of heroes); odds, hand and simulate use it.
    deal: OpeningModel | None = None
    notes: list[str] = []  # what else the variant changes in play (shown, not checked)
    checks: dict[str, dict[str, Any]] = {}  # overrides of [checks."CODE"] fields
    card_changes: list[CardChangeModel] = []
    aliases: list[str] = []  # other names the variant answers to ("premiere"), lower case
    # What the variant sets aside before the shuffle instead of [opening]'s set_aside: the
    # rules themselves, or the name of a [constants] list of them (shared by variants).
    set_aside: str | list[SetAsideModel] | None = None


class CheckModel(_Strict):
    """``[checks."CODE"]``: a rule of a generic kind, as data (see :mod:`deckcheck.games.limits`).

    Numbers are integers or names of variant parameters; ``messages`` words the findings.
    """

    kind: Literal["size", "count", "copies", "required", "sum"]
    select: str | list[str] = ""  # the cards counted / capped (a list: any of them)
    min: int | str | None = None
    max: int | str | None = None
    multiple_of: int | str | None = None
    by: Literal["id", "name"] = "id"  # copies: of one card, or of one name
    caps_field: str = ""  # copies: the cap depends on this field's value (stars)
    caps: str | dict[str, int] = {}  # value -> cap (a parameter name or the table)
    cards: str | list[str] = []  # required: card ids (or a parameter name)
    field: str = ""  # sum: the field summed
    required_for: list[str] = []  # sum: cards that must carry the field
    noun: str = ""  # count: "mission" -> {count} is "1 mission" or "5 missions"
    messages: dict[str, str]


class CountTestModel(_Strict):
    """``SELECTOR OP COUNT`` in data (mulligan triggers)."""

    select: str
    op: Comparison
    count: int


class MulliganModel(_Strict):
    """``[mulligan]``: the game's own redraw or return rule."""

    kind: Literal["redraw", "return"]
    triggers: list[CountTestModel] = []
    max_redraws: int | None = 1
    count: int = 3
    description: str = ""


class PileModel(_Strict):
    """``[piles.NAME]``: a built-in random pile, queried as ``GAME:NAME``."""

    description: str
    select: str = ""
    cards: dict[str, int] = {}  # card id -> copies, instead of select
    seen: int
    seen_param: str = ""  # a variant parameter that sets the default seen (party_size)
    seen_note: str = ""  # may say {seen}


class ProductModel(_Strict):
    """``[products.NAME]``: a product whose contents the game's data names (a starter set),
    which a collection file may list whole (``product: NAME``)."""

    description: str
    cards: dict[str, int]  # card id -> copies in one product
    note: str = ""  # what the product holds that is not listed (copies not known)
    aliases: list[str] = []  # other names it answers to, lower case


class TotalModel(_Strict):
    """``[[totals]]``: a rule-relevant total shown by ``diff`` (a count or a field sum)."""

    label: str
    select: str | list[str] = ""  # a list: cards matching any of them
    # ...and matching one of these too (a card of two kinds counted once, in a total of its
    # own: Ren Dhark's ship/unit Roj Syntetů) ...
    also: str | list[str] = ""
    # ... and none of these
    unless: str | list[str] = ""
    sum_field: str = ""
    set_aside: bool = False  # count the cards [opening] sets aside (STCCG's seed cards)
    required_for: list[str] = []  # a sum is unknown only when these cards lack the field


class DimensionModel(_Strict):
    """``[[dimensions]]``: one way ``stats`` breaks a deck down (type, faction, cost, ...)."""

    field: str  # a card field, or "type", "name", "zone" (where the rules put a card)
    label: str = ""  # heading (default: the field's name)
    select: str = ""  # only the cards matching this selector (mission kind: type:Mission)
    curve: bool = False  # a number: values in numeric order, with the total and the mean


class SettingModel(_Strict):
    """``[settings.NAME]``: a variant parameter users may change (``--set NAME=N`` or a
    ``NAME: N`` header line in a deck file); every variant with that parameter accepts it."""

    description: str = ""
    min: int = 0
    max: int = 10_000


class ZoneModel(_Strict):
    """``[[zones]]``: a section of a deck file. The first zone holds the lines before any
    section header. Cards of a counted zone are the deck the rules check; a side zone (a side
    deck, cards set aside or brought from outside the game) is listed, never counted."""

    name: str  # the section header as written, without its colon ("Seed+Dil")
    counted: bool = True
    description: str = ""
    aliases: list[str] = []  # other headers meaning this zone
    formats: dict[str, str] = {}  # the zone's name in another program's deck format
    # Why a card the file writes here is set aside before the shuffle, whatever the variant's
    # own rules seed (a seed zone: the file says the card is seeded, so it is never drawn);
    # "": the zone's cards are drawn as the rules say.
    seeded: str = ""

    @property
    def role(self) -> str:
        """What the zone is to the rules: ``seed`` (its cards are seeded), ``draw`` (the
        counted deck drawn from), or, for a side zone, its own name in lower case."""
        if not self.counted:
            return self.name.lower()
        return "seed" if self.seeded else "draw"


class GameSpec(_Strict):
    """A whole ``game.toml``."""

    game: GameInfo
    fields: dict[str, FieldModel] = {}
    identity_fields: list[str] = Field(default_factory=lambda: ["type"])
    group_by: str = "type"
    variants: dict[str, VariantModel]
    checks: dict[str, CheckModel] = {}  # rules of generic kinds, by code (variants list them)
    constants: dict[str, Any] = {}  # numbers and lists every variant shares
    opening: OpeningModel | None = None
    mulligan: MulliganModel | None = None
    piles: dict[str, PileModel] = {}
    products: dict[str, ProductModel] = {}  # what a collection may list whole
    totals: list[TotalModel] = []
    ordered: bool = False  # the order of the deck's lines matters (a Drake stack)
    list_fields: list[str] = []  # columns of `cards` listings (default: the first few fields)
    dimensions: list[DimensionModel] = []  # what `stats` counts, in order
    settings: dict[str, SettingModel] = {}  # the variant parameters users may change
    zones: list[ZoneModel] = []  # none: sections are free labels and every card counts


def spec_json(spec: GameSpec) -> dict[str, Any]:
    """A validated spec as plain values for :func:`spec_from_json` (what was written in
    game.toml, after validation; enumerations as their text)."""
    return spec.model_dump(exclude_unset=True)


def spec_from_json(value: Any) -> GameSpec:
    """The spec that :func:`spec_json` gave ``value``, made without running pydantic's
    validators: every value is checked against its field's annotation (type, literal, union,
    nested model, unknown or missing keys) instead, strictly, as JSON holds them. The models
    have no constraints beyond their annotations, so a value that passes is one validation
    would keep as it is. ValueError when ``value`` is of any other shape."""
    return checked(GameSpec, value)


def checked(model: type[M], value: Any) -> M:
    """``model`` made from plain values (a JSON or TOML table) as :func:`spec_from_json` makes
    a spec: each value checked against its field's annotation, strictly, without building
    pydantic's validators (a command that reads a game's definition from the cache never
    builds them). ValueError when ``value`` is of any other shape."""
    return _model(model, value)


def _model(model: type[M], value: Any) -> M:
    if type(value) is not dict:
        raise ValueError(f"{model.__name__}: not a table")
    fields = model.model_fields
    unknown = value.keys() - fields.keys()
    missing = {name for name, f in fields.items() if f.is_required()} - value.keys()
    if unknown or missing:
        raise ValueError(f"{model.__name__}: keys {sorted(unknown | missing)} do not fit")
    made = {name: _shaped(fields[name].annotation, v) for name, v in value.items()}
    return model.model_construct(**made)


def _shaped(annotation: Any, value: Any) -> Any:
    """``value`` as a field annotated ``annotation`` holds it; ValueError if it cannot be."""
    origin = get_origin(annotation)
    if annotation is Any:
        return value
    if origin is Literal:
        if any(type(value) is type(a) and value == a for a in get_args(annotation)):
            return value
    elif origin is Union or origin is types.UnionType:
        for option in get_args(annotation):
            try:
                return _shaped(option, value)
            except ValueError:
                continue
    elif origin is list:
        if type(value) is list:
            (item,) = get_args(annotation)
            return [_shaped(item, v) for v in value]
    elif origin is dict:
        if type(value) is dict and get_args(annotation)[0] is str:
            item = get_args(annotation)[1]
            return {k: _shaped(item, v) for k, v in value.items()}
    elif annotation is None or annotation is type(None):
        if value is None:
            return None
    elif isinstance(annotation, type) and issubclass(annotation, BaseModel):
        return _model(annotation, value)
    elif isinstance(annotation, type) and issubclass(annotation, Enum):
        if type(value) is str:
            return annotation(value)
    elif annotation in (str, int, bool) and type(value) is annotation:
        return value
    raise ValueError(f"{value!r:.40} does not fit {annotation}")
