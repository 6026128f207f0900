"""``@frozen``: frozen value classes that cost next to nothing to define.

``@dataclass(frozen=True)`` writes six methods per class as source text and compiles them when
the class's module is imported, which a short command pays for every value class on its path
(the figures are in docs/performance.md).

``@frozen`` makes the same class without compiling anything: the fields are recorded by
:func:`dataclasses.dataclass` itself (so :func:`dataclasses.fields`, :func:`dataclasses.replace`
and :func:`dataclasses.asdict` work, and ``field(default=..., default_factory=...,
compare=False, repr=False)`` mean what they mean there), and the methods are shared ones that
read the recorded fields: ``__init__`` (positional or keyword, defaults and factories, then
``__post_init__``), ``__repr__``, ``__eq__`` and ``__hash__`` over the compared fields (unless
``eq=False``: identity, as a dataclass with ``eq=False``), and an ``__setattr__`` /
``__delattr__`` that raise :class:`dataclasses.FrozenInstanceError`. A ``__post_init__`` may set
a field with ``object.__setattr__``, as in a frozen dataclass.

Only a class whose instances are made by the hundred (:data:`WRITTEN_AFTER`: a deck's lines, a
solver's candidate decks) gets an ``__init__`` written for its fields, as a dataclass's is, once
its first instances are made: the same values and the same refusals at a third of the cost.

Type checkers read the decorator as a frozen dataclass (``dataclass_transform``).
"""

from __future__ import annotations

import dataclasses
import keyword
import threading
from collections.abc import Callable, Hashable
from dataclasses import MISSING, Field, FrozenInstanceError
from operator import attrgetter
from typing import Any, Generic, TypeVar, dataclass_transform, overload

T = TypeVar("T", bound=type)

_set = object.__setattr__


@overload
def frozen(cls: T, /) -> T: ...
@overload
def frozen(*, eq: bool = True) -> Callable[[T], T]: ...
@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field, Field))
def frozen(cls: T | None = None, /, *, eq: bool = True) -> T | Callable[[T], T]:
    """Make ``cls`` a frozen value class (see the module's docstring); ``@frozen`` or
    ``@frozen(eq=False)``."""

    def wrap(cls: T) -> T:
        return _make(cls, eq)

    return wrap if cls is None else wrap(cls)


def _make(cls: T, eq: bool) -> T:
    # Records the fields and __match_args__ only: with init, repr and eq off it compiles nothing.
    dataclasses.dataclass(cls, init=False, repr=False, eq=False)
    fields = dataclasses.fields(cls)
    if any(f.kw_only is True for f in fields):  # not needed yet, so not written
        raise TypeError(f"value class {cls.__name__}: keyword-only fields are not supported")
    if "__setattr__" in cls.__dict__ or "__delattr__" in cls.__dict__:
        raise TypeError(f"value class {cls.__name__} must not define __setattr__/__delattr__")
    if "__init__" not in cls.__dict__:
        cls.__init__ = _initialiser(cls, fields)  # type: ignore[misc]
    cls.__setattr__ = _frozen_setattr  # type: ignore[assignment]
    cls.__delattr__ = _frozen_delattr  # type: ignore[assignment]
    shown = tuple(f.name for f in fields if f.repr)
    if "__repr__" not in cls.__dict__:
        cls.__repr__ = _representer(shown)  # type: ignore[assignment]
    if eq:
        compared = tuple(f.name for f in fields if f.compare)
        hashed = tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash))
        if "__eq__" not in cls.__dict__:
            cls.__eq__ = _comparer(compared)  # type: ignore[assignment]
        if "__hash__" not in cls.__dict__ or cls.__dict__["__hash__"] is None:
            cls.__hash__ = _hasher(hashed)  # type: ignore[assignment]
    return cls


def _initialiser(cls: type, fields: tuple[Field[Any], ...]) -> Callable[..., None]:
    names = tuple(f.name for f in fields if f.init)
    count = len(names)
    defaults = {f.name: f.default for f in fields if f.init and f.default is not MISSING}
    factories = {
        f.name: f.default_factory
        for f in fields
        if f.init and f.default_factory is not MISSING  # type: ignore[misc]
    }
    # Fields left out of __init__ still get their default or a new value, as in a dataclass.
    preset = tuple((f.name, f.default) for f in fields if not f.init and f.default is not MISSING)
    made = tuple(
        (f.name, f.default_factory)
        for f in fields
        if not f.init and f.default_factory is not MISSING  # type: ignore[misc]
    )
    # The fields from the first one with a default on: a call giving the fields before them in
    # order (Card(id, name, types)) fills the rest from here, without binding by name.
    required = next((i for i, n in enumerate(names) if n in defaults or n in factories), count)
    trailing = tuple((n, defaults.get(n), factories.get(n)) for n in names[required:])
    late = [n for n in names[required:] if n not in defaults and n not in factories]
    if late:  # what @dataclass refuses too
        raise TypeError(f"non-default argument {late[0]!r} follows default argument")
    post_init = getattr(cls, "__post_init__", None)
    title = cls.__qualname__

    def bound(args: tuple[Any, ...], kwargs: dict[str, Any]) -> dict[str, Any]:
        """Every field's value from a call that does not give all of them in order."""
        values = dict(zip(names, args, strict=False))
        for name, arg in kwargs.items():
            if name not in names:
                raise TypeError(f"{title}.__init__() got an unexpected keyword argument {name!r}")
            if name in values:
                raise TypeError(f"{title}.__init__() got multiple values for argument {name!r}")
            values[name] = arg
        for name in names[len(args) :]:
            if name in values:
                continue
            if name in defaults:
                values[name] = defaults[name]
            elif name in factories:
                values[name] = factories[name]()
            else:
                raise TypeError(f"{title}.__init__() missing required argument: {name!r}")
        return values

    known = frozenset(names)
    needed = known - defaults.keys() - factories.keys()
    # What a call that leaves fields out fills in, in field order: (name, default, factory).
    fills = tuple(
        (n, defaults.get(n), factories.get(n)) for n in names if n in defaults or n in factories
    )

    made_so_far = 0

    def __init__(self: object, *args: Any, **kwargs: Any) -> None:
        nonlocal made_so_far
        made_so_far += 1
        if made_so_far == WRITTEN_AFTER and cls.__dict__.get("__init__") is __init__:
            cls.__init__ = _written(  # type: ignore[misc]
                cls, names, defaults, factories, preset, made, post_init, __init__
            )
        given = len(args)
        if given > count:
            raise TypeError(
                f"{title}.__init__() takes {count + 1} positional arguments "
                f"but {given + 1} were given"
            )
        # The instance's dictionary is filled directly: what a frozen dataclass's
        # object.__setattr__ calls do, field by field, in one step.
        state = self.__dict__
        if not kwargs:
            if given < required:
                state.update(bound(args, kwargs))  # raises: a required field is missing
            else:
                state.update(zip(names, args, strict=False))
                for name, default, factory in trailing[given - required :]:
                    state[name] = default if factory is None else factory()
        elif state or not kwargs.keys() <= known:
            state.update(bound(args, kwargs))  # raises on an unknown keyword
        else:
            state.update(zip(names, args, strict=False))
            state.update(kwargs)
            if len(state) != given + len(kwargs):
                state.clear()
                state.update(bound(args, kwargs))  # raises: a field given twice
            elif len(state) < count:
                if not needed <= state.keys():
                    state.clear()
                    state.update(bound(args, kwargs))  # raises: a required field is missing
                # checked first, so that no factory runs for a call that is refused
                for name, default, factory in fills:
                    if name not in state:
                        state[name] = default if factory is None else factory()
        for name, default in preset:
            state[name] = default
        for name, factory in made:
            state[name] = factory()
        if post_init is not None:
            post_init(self)

    __init__.__qualname__ = f"{title}.__init__"
    return __init__


WRITTEN_AFTER = 200
"""Instances of a class made by the shared ``__init__`` before one written for its fields takes
over (:func:`_written`): writing one costs what some 100 instances save, and a short command
makes fewer of most classes."""

_UNSET: Any = object()
"""A field not given to a written ``__init__``: required, or made by its factory."""


def _written(
    cls: type,
    names: tuple[str, ...],
    defaults: dict[str, Any],
    factories: dict[str, Callable[[], Any]],
    preset: tuple[tuple[str, Any], ...],
    made: tuple[tuple[str, Callable[[], Any]], ...],
    post_init: Callable[[Any], None] | None,
    shared: Callable[..., None],
) -> Callable[..., None]:
    """An ``__init__`` written for ``cls``'s fields, as a dataclass writes its own: about a
    third of the shared one's cost. Every call the shared one would refuse (a required field
    left out, an unknown keyword, too many arguments) goes to it, so that it is refused with
    the same message; Python itself refuses a field given twice, in the same words."""
    if any(
        name.startswith("_frozen_") or not name.isidentifier() or keyword.iskeyword(name)
        for name in names
    ):
        # what the written text names its own helpers by, or no parameter name at all
        return shared
    scope: dict[str, Any] = {"_frozen_unset": _UNSET, "_frozen_shared": shared}
    params: list[str] = []
    required: list[str] = []
    fill: list[str] = []
    for i, name in enumerate(names):
        if name in defaults:
            scope[f"_frozen_default_{i}"] = defaults[name]
            params.append(f"{name}=_frozen_default_{i}")
            continue
        params.append(f"{name}=_frozen_unset")
        if name in factories:
            scope[f"_frozen_factory_{i}"] = factories[name]
            fill.append(f"    if {name} is _frozen_unset:\n        {name} = _frozen_factory_{i}()")
        else:
            required.append(f"{name} is _frozen_unset")
    given = ", ".join(f"{name!r}: {name}" for name in names)
    lines = [
        f"def __init__(_frozen_self, {''.join(p + ', ' for p in params)}"
        "*_frozen_args, **_frozen_kwargs):",
        "    if " + " or ".join(["_frozen_args", "_frozen_kwargs", *required]) + ":",
        f"        _frozen_refuse(_frozen_self, _frozen_args, _frozen_kwargs, {{{given}}})",
        *fill,
        "    _frozen_state = _frozen_self.__dict__",
        *(f"    _frozen_state[{name!r}] = {name}" for name in names),
    ]
    for i, (name, default) in enumerate(preset):
        scope[f"_frozen_preset_{i}"] = default
        lines.append(f"    _frozen_state[{name!r}] = _frozen_preset_{i}")
    for i, (name, factory) in enumerate(made):
        scope[f"_frozen_made_{i}"] = factory
        lines.append(f"    _frozen_state[{name!r}] = _frozen_made_{i}()")
    if post_init is not None:
        scope["_frozen_post_init"] = post_init
        lines.append("    _frozen_post_init(_frozen_self)")

    def refuse(
        self: object, args: tuple[Any, ...], kwargs: dict[str, Any], given: dict[str, Any]
    ) -> None:
        if args:  # every field was given in order, and more
            shared(self, *given.values(), *args)
        shared(self, **{k: v for k, v in given.items() if v is not _UNSET}, **kwargs)
        raise AssertionError(f"{cls.__qualname__}: a call the shared __init__ took")

    scope["_frozen_refuse"] = refuse
    exec("\n".join(lines), scope)  # a text made here of the field names alone
    written: Callable[..., None] = scope["__init__"]
    written.__qualname__ = f"{cls.__qualname__}.__init__"
    return written


def _frozen_setattr(self: object, name: str, value: object) -> None:
    raise FrozenInstanceError(f"cannot assign to field {name!r}")


def _frozen_delattr(self: object, name: str) -> None:
    raise FrozenInstanceError(f"cannot delete field {name!r}")


def _representer(shown: tuple[str, ...]) -> Callable[[object], str]:
    def __repr__(self: object) -> str:
        inner = ", ".join(f"{name}={getattr(self, name)!r}" for name in shown)
        return f"{type(self).__qualname__}({inner})"

    return __repr__


def _values(names: tuple[str, ...]) -> Callable[[object], tuple[Any, ...]]:
    """The named fields' values as a tuple (what a dataclass compares and hashes)."""
    if len(names) == 1:
        name = names[0]
        return lambda obj: (getattr(obj, name),)
    if names:
        return attrgetter(*names)
    return lambda obj: ()


def _comparer(compared: tuple[str, ...]) -> Callable[[object, object], bool]:
    values = _values(compared)

    def __eq__(self: object, other: object) -> bool:
        if other.__class__ is not self.__class__:
            return NotImplemented
        return values(self) == values(other)

    return __eq__


def _hasher(hashed: tuple[str, ...]) -> Callable[[object], int]:
    values = _values(hashed)

    def __hash__(self: object) -> int:
        return hash(values(self))

    return __hash__


V = TypeVar("V")


class Recent(Generic[V]):
    """The latest answers of a pure function of frozen values, for the very objects it was
    asked about: each answer is kept beside those objects (so that their ids, part of the key,
    are never another object's) and given again only for them; the oldest answer goes first
    once ``size`` are kept (few: each keeps its objects alive). Safe to share between threads
    (the builder's background jobs)."""

    def __init__(self, size: int) -> None:
        self._answers: dict[Hashable, tuple[tuple[object, ...], V]] = {}
        self._size = size
        self._lock = threading.Lock()

    def answer(self, key: Hashable, objects: tuple[object, ...], make: Callable[[], V]) -> V:
        """``make()``, or what it answered before for an equal ``key`` and these very
        ``objects``."""
        full = (tuple(map(id, objects)), key)
        with self._lock:
            known = self._answers.get(full)
        if known is not None and all(a is b for a, b in zip(known[0], objects, strict=True)):
            return known[1]
        value = make()
        with self._lock:
            if full not in self._answers and len(self._answers) >= self._size:
                del self._answers[next(iter(self._answers))]
            self._answers[full] = (objects, value)
        return value
