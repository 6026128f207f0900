"""``@frozen`` value classes behave as ``@dataclass(frozen=True)`` ones, side by side."""

from __future__ import annotations

import dataclasses
import pickle
import re
from collections.abc import Mapping
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any

import pytest

from deckcheck.core.values import WRITTEN_AFTER, frozen


@frozen
class Made:
    code: str
    count: int = 1
    cards: tuple[str, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict, compare=False)
    notes: tuple[str, ...] = field(default_factory=tuple, repr=False)


@frozen
class Written:
    """``Made`` again, made often enough that an ``__init__`` written for its fields serves it
    (the shared one serves a class's first instances)."""

    code: str
    count: int = 1
    cards: tuple[str, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict, compare=False)
    notes: tuple[str, ...] = field(default_factory=tuple, repr=False)


_shared_init = Written.__init__
for _ in range(WRITTEN_AFTER):
    Written("x")
assert Written.__init__ is not _shared_init


@dataclass(frozen=True)
class Reference:
    code: str
    count: int = 1
    cards: tuple[str, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict, compare=False)
    notes: tuple[str, ...] = field(default_factory=tuple, repr=False)


CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    (("a",), {}),
    (("a", 2), {}),
    (("a",), {"cards": ("x", "y")}),
    ((), {"code": "b", "count": 3, "names": {"x": "X"}}),
    (("a", 2, ("x",), {"x": "Y"}, ("n",)), {}),
]

BAD_CALLS: list[tuple[tuple[Any, ...], dict[str, Any]]] = [
    ((), {}),  # missing a required field
    (("a", 1, (), {}, (), "extra"), {}),  # too many positional arguments
    (("a",), {"code": "b"}),  # a field given twice
    (("a",), {"colour": "red"}),  # no such field
]


def _both(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Made, Reference]:
    return Made(*args, **kwargs), Reference(*args, **kwargs)


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_fields_defaults_and_factories_as_a_dataclass(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    made, ref = _both(args, kwargs)
    assert dataclasses.asdict(made) == dataclasses.asdict(ref)
    assert repr(made).replace("Made", "Reference") == repr(ref)
    written = Written(*args, **kwargs)
    assert dataclasses.asdict(written) == dataclasses.asdict(ref)
    assert repr(written).replace("Written", "Reference") == repr(ref)
    assert Written("a").names is not Written("a").names
    assert [f.name for f in dataclasses.fields(made)] == [f.name for f in dataclasses.fields(ref)]
    assert Made.__match_args__ == Reference.__match_args__
    # a factory makes a new value for each instance
    assert Made("a").names is not Made("a").names


@pytest.mark.parametrize(("args", "kwargs"), CALLS)
def test_equality_and_hash_over_the_compared_fields(
    args: tuple[Any, ...], kwargs: dict[str, Any]
) -> None:
    made, ref = _both(args, kwargs)
    other = dataclasses.replace(made, names={"z": "Z"})  # compare=False: still equal
    other_ref = dataclasses.replace(ref, names={"z": "Z"})
    assert (made == other) == (ref == other_ref) is True
    assert hash(made) == hash(other) and hash(ref) == hash(other_ref)
    changed = dataclasses.replace(made, count=made.count + 1)
    assert changed != made and changed.count == made.count + 1
    assert made != ref  # another class never compares equal, as in a dataclass
    assert made.__eq__(ref) is NotImplemented and ref.__eq__(made) is NotImplemented


@pytest.mark.parametrize(("args", "kwargs"), BAD_CALLS)
def test_the_same_calls_fail(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    with pytest.raises(TypeError):
        Reference(*args, **kwargs)
    with pytest.raises(TypeError) as refused:
        Made(*args, **kwargs)
    # the written __init__ refuses the same calls with the same words
    with pytest.raises(TypeError, match=re.escape(str(refused.value).replace("Made", "Written"))):
        Written(*args, **kwargs)


def test_a_field_without_a_default_after_one_with_is_refused_as_by_a_dataclass() -> None:
    for make in (dataclass(frozen=True), frozen):
        with pytest.raises(TypeError, match="non-default argument 'b' follows default"):

            @make
            class Wrong:
                a: int = 0
                b: int


def test_instances_cannot_change() -> None:
    made = Made("a")
    with pytest.raises(FrozenInstanceError):
        made.code = "b"  # type: ignore[misc]
    with pytest.raises(FrozenInstanceError):
        made.colour = "red"  # type: ignore[attr-defined]
    with pytest.raises(FrozenInstanceError):
        del made.code  # type: ignore[misc]
    assert made.code == "a"


def test_post_init_runs_and_may_set_a_field() -> None:
    @frozen
    class Normalised:
        name: str
        key: str = ""

        def __post_init__(self) -> None:
            object.__setattr__(self, "key", self.name.casefold())

    assert Normalised("Ab").key == "ab"
    assert Normalised("Ab") == Normalised("Ab", "ignored")


def test_eq_false_keeps_identity() -> None:
    @frozen(eq=False)
    class Handle:
        name: str

    first, second = Handle("x"), Handle("x")
    assert first != second and first == first
    assert len({first, second}) == 2


def test_a_class_s_own_methods_are_kept() -> None:
    @frozen
    class Shown:
        name: str

        def __repr__(self) -> str:
            return f"<{self.name}>"

    assert repr(Shown("x")) == "<x>"


def test_pickles_and_copies_as_a_dataclass_does() -> None:
    import copy

    made = Made("a", 2, ("x",), {"x": "X"}, ("n",))
    for again in (pickle.loads(pickle.dumps(made)), copy.deepcopy(made), copy.copy(made)):
        assert again == made and again.names == {"x": "X"} and again.notes == ("n",)
        assert hash(again) == hash(made)


def test_no_value_class_in_deckcheck_is_still_a_frozen_dataclass() -> None:
    """One way to make a value class: a frozen dataclass costs ~0.6 ms to define, @frozen
    under 0.1 ms (the start-up time every command pays; docs/performance.md)."""
    import importlib
    import pkgutil

    import deckcheck

    slow = []
    for info in pkgutil.walk_packages(deckcheck.__path__, "deckcheck."):
        if (
            info.name.startswith(("deckcheck.cli", "deckcheck.__main__"))
            or ".catalogs" in info.name
        ):
            continue
        module = importlib.import_module(info.name)
        for obj in vars(module).values():
            if (
                isinstance(obj, type)
                and obj.__module__ == module.__name__
                and dataclasses.is_dataclass(obj)
                and obj.__dataclass_params__.frozen  # type: ignore[attr-defined]
            ):
                slow.append(f"{module.__name__}.{obj.__qualname__}")
    assert slow == []


def test_fields_no_parameter_could_be_named_keep_the_shared_init() -> None:
    """A field named by no identifier (a keyword, a dash) cannot be a parameter of a written
    ``__init__``: past :data:`WRITTEN_AFTER` instances the class still takes its calls."""
    odd = frozen(type("Odd", (), {"__annotations__": {"a-b": int, "lambda": int}}))
    for _ in range(WRITTEN_AFTER + 5):
        value = odd(1, 2)
    assert getattr(value, "a-b") == 1 and getattr(value, "lambda") == 2
