"""A game's variant: the rules it checks, their numbers, and what else it changes."""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Hashable, Mapping
from dataclasses import field
from types import MappingProxyType
from typing import Any, TypeVar, cast

from pydantic import BaseModel

from deckcheck.core.errors import CatalogError, UsageError
from deckcheck.core.values import Recent, frozen
from deckcheck.games.spec import CardChangeModel, M, SetAsideModel, checked

T = TypeVar("T")


@frozen
class Variant:
    """A named set of rules and their numbers (``params``)."""

    name: str
    description: str
    rules: tuple[str, ...]
    params: Mapping[str, Any]
    notes: tuple[str, ...] = ()  # other changes in play, shown where the variant is described
    card_changes: tuple[CardChangeModel, ...] = ()  # field changes to cards (+1 blood)
    checks: Mapping[str, Mapping[str, Any]] = field(default_factory=dict)  # rule overrides
    # what the variant sets aside before the shuffle (None: the game's [opening] says)
    set_aside: tuple[SetAsideModel, ...] | None = None
    aliases: tuple[str, ...] = ()  # other names it answers to

    def with_params(self, overrides: Mapping[str, Any]) -> Variant:
        """The variant with some numbers changed (``--missions 4``); unknown names are errors."""
        unknown = [k for k in overrides if k not in self.params]
        if unknown:
            raise UsageError(
                f"variant {self.name!r} has no setting {unknown[0]!r}"
                + (f"; settings: {', '.join(self.params)}" if self.params else "")
            )
        return dataclasses.replace(self, params=MappingProxyType({**self.params, **overrides}))

    def param(self, key: str) -> Any:
        """A number or list from game.toml; a missing one is a bug in the game's data."""
        try:
            return self.params[key]
        except KeyError:
            raise CatalogError(f"variant {self.name!r} has no parameter {key!r}") from None

    def tables(self, key: str, model: type[M]) -> tuple[M, ...]:
        """A parameter's list of tables, each made a ``model`` as game.toml's own tables are
        (:func:`~deckcheck.games.spec.checked`), once per variant, and once for the variants
        that share the very list (:data:`_TABLES`): a rule reads them for every deck it checks."""

        def made() -> tuple[M, ...]:
            raw = self.param(key)
            return _TABLES.answer(model, (raw,), lambda: tuple(checked(model, t) for t in raw))

        return self.derived(("tables", key, model), made)

    def derived(self, key: Hashable, make: Callable[[], T]) -> T:
        """What ``make`` works out from the variant alone, kept with it under ``key`` (a
        variant never changes: worked out once however many decks are checked)."""
        kept = self._derived
        if key not in kept:
            kept[key] = make()
        return cast(T, kept[key])

    @functools.cached_property
    def key(self) -> Hashable:
        """The variant as one hashable value, equal for variants that say the same: what is
        worked out from a variant is kept under it (see :meth:`Catalog.derived`)."""
        return tuple(_hashable(getattr(self, f.name)) for f in dataclasses.fields(self))

    @functools.cached_property
    def _derived(self) -> dict[Hashable, Any]:
        return {}


_TABLES: Recent[tuple[Any, ...]] = Recent(32)
"""Tables made of a game's very list (a [constants] list every variant shares): the variants
share the very models too, and what is worked out from them is kept for all (a rule that sets
cards aside, asked of a deck under every variant for the hint)."""


def _hashable(value: Any) -> Hashable:
    """A value read from game.toml (tables, lists, models of them) as a hashable one, each
    kind of container told apart."""
    if isinstance(value, BaseModel):
        return (type(value).__name__, _hashable(value.model_dump()))
    if isinstance(value, Mapping):
        return ("table", tuple((k, _hashable(v)) for k, v in sorted(value.items())))
    if isinstance(value, list | tuple):
        return (type(value).__name__, tuple(_hashable(v) for v in value))
    # Typed: a TOML true and 1 are equal in Python but say different things.
    return (type(value).__name__, cast(Hashable, value))
