"""Property tests: arbitrary text, bytes, overlays and conditions through the parsers, the
overlay checker, the condition language and deck resolution raise nothing but
:class:`deckcheck.core.errors.DeckcheckError` (the CLI turns those into exit code 2).

Deterministic for CI (``derandomize=True``, no example database). How many examples each
property tries comes from the hypothesis profile (``tests/conftest.py``): a quick one by
default, ``HYPOTHESIS_PROFILE=thorough`` for ten times as many.
"""

from __future__ import annotations

import codecs
import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
import tomli_w
from conftest import invoke
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from deckcheck.analysis.conditions import parse_condition
from deckcheck.catalog.load import apply_overlay, check_overlay, parse_document
from deckcheck.catalog.model import Catalog
from deckcheck.catalog.selectors import bind_selector
from deckcheck.core.errors import DeckcheckError, DeckFormatError, InputFileError
from deckcheck.core.inputs import decode
from deckcheck.decks.load import resolve_source
from deckcheck.decks.parse import parse_deck
from deckcheck.games.context import make_context
from deckcheck.games.registry import get_game

T = TypeVar("T")

pytestmark = pytest.mark.slow

HOSTILE = settings(
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
FEWER = settings(HOSTILE, max_examples=max(1, HOSTILE.max_examples * 2 // 5))

LABEL = "hostile-deck.txt"
GAMES = ("ren-dhark", "planetary-conquerors", "dorn", "the-drake")


def catalog_of(game: str) -> Catalog:
    return get_game(game).bundled_catalog()


def only_deckcheck_errors(call: Callable[[], T]) -> T | DeckcheckError:
    """``call()``'s result, or the DeckcheckError it raised; anything else fails the test."""
    try:
        return call()
    except DeckcheckError as exc:
        str(exc)  # the message itself must render
        return exc


# --- strategies -------------------------------------------------------------------------------

_NAMES = sorted({n for g in GAMES for c in catalog_of(g) for n in (c.name, c.id, *c.aliases)})
_HOSTILE_TEXT = st.text(
    alphabet=st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=60
)
card_name = st.one_of(
    st.sampled_from(_NAMES), _HOSTILE_TEXT, st.sampled_from(_NAMES).map(str.upper)
)
count_text = st.one_of(
    st.integers(-(10**15), 10**15).map(str),
    st.sampled_from(["0x10", "1e3", "1.5", "-0", "1_000", "1,000", "٣", "²", "", "x", "--1"]),
)
count_form = st.sampled_from(
    [
        "{n} {name}",
        "{n}x {name}",
        "{n}\t{name}",
        "{name} x{n}",
        "{name}",
        "{n}",
        "{n}x",
        "{name}:",
        "# {name}",
        "{n} {name} // note",
    ]
)
header = st.one_of(
    st.builds("game: {}".format, st.sampled_from([*GAMES, "nosuchgame", "", "REN-DHARK"])),
    st.builds("variant: {}".format, st.sampled_from(["custom", "starter", "standard", "zzz"])),
    st.builds("missions: {}".format, st.sampled_from(["4", "-1", "banana", "99999999", "٣"])),
    st.builds("name: {}".format, _HOSTILE_TEXT),
)


# The strategies a composite draws from are made once, here: a strategy made anew on every
# draw is worked out anew (what it can draw, whether it is empty) for every example.
_HEADS = st.lists(header, max_size=3)
_CARD_LINES = st.lists(
    st.builds(lambda form, n, name: form.format(n=n, name=name), count_form, count_text, card_name),
    max_size=8,
)
_LINE_ENDING = st.sampled_from(["\n", "\r\n", "\r"])


@st.composite
def deck_like(draw: st.DrawFn) -> str:
    """Header lines, then card lines in every count form, with hostile names and counts."""
    heads = draw(_HEADS)
    lines = draw(_CARD_LINES)
    ending = draw(_LINE_ENDING)
    return ending.join([*heads, *lines])


toml_scalar = st.one_of(
    st.integers(-(2**70), 2**70),
    st.booleans(),
    st.floats(allow_nan=True),
    _HOSTILE_TEXT,
    st.lists(st.one_of(st.integers(), _HOSTILE_TEXT), max_size=3),
    st.dictionaries(_HOSTILE_TEXT, st.integers(), max_size=2),
)


_TOML_KEYS = st.one_of(
    st.sampled_from(
        ["game", "variant", "name", "catalog", "cards", "author", '"POINT OF"', "RIOBE", "zzz"]
    ),
    _HOSTILE_TEXT,
)
_TOML_VALUES = st.one_of(
    st.sampled_from(
        [
            '"ren-dhark"',
            "5",
            '"two"',
            "1.5",
            "true",
            "[1, 2]",
            "{}",
            "-2",
            "1_000_000_000_000",
            '"',
            "[[[",
            "0x10",
            "1e3",
            "",
            "nan",
            "inf",
        ]
    ),
    _HOSTILE_TEXT.map(lambda t: '"' + t.replace("\\", "/").replace('"', "'") + '"'),
)
_TOML_LINES = st.lists(st.builds("{} = {}".format, _TOML_KEYS, _TOML_VALUES), max_size=8)
_TABLE_HEADER = st.sampled_from(["[cards]", "[[cards]]", "[catalog]", "[cards", "[ cards ]"])


@st.composite
def toml_like_text(draw: st.DrawFn) -> str:
    """``key = value`` lines (some valid TOML, some not), maybe under [cards]."""
    lines = draw(_TOML_LINES)
    if draw(st.booleans()):
        lines.insert(draw(st.integers(0, len(lines))), draw(_TABLE_HEADER))
    return "\n".join(lines)


_DECK_KEYS = st.lists(
    st.sampled_from(["game", "variant", "name", "catalog", "extra"]), unique=True, max_size=3
)
_DECK_VALUE = st.one_of(st.sampled_from([*GAMES, "nosuchgame"]), toml_scalar)
_DECK_CARDS = st.one_of(
    st.dictionaries(card_name, st.one_of(st.integers(-5, 10**13), toml_scalar), max_size=5),
    toml_scalar,
)


@st.composite
def toml_deck_document(draw: st.DrawFn) -> str:
    """Well-formed TOML shaped like a deck, with wrong types anywhere."""
    data: dict[str, Any] = {}
    for key in draw(_DECK_KEYS):
        data[key] = draw(_DECK_VALUE)
    data["cards"] = draw(_DECK_CARDS)
    try:
        return tomli_w.dumps(data)
    except (TypeError, ValueError):  # tomli_w cannot write NaN keys etc.: any TOML will do
        return 'game = "ren-dhark"\n[cards]\n"POINT OF" = 2\n'


_RD_FIELDS = [
    "id",
    "name",
    "type",
    "aliases",
    "note",
    "faction",
    "colour",
    "resource_points",
    "vs_ship",
    "vs_person",
    "vs_unit",
    "resource_point",
    "rarity",
]
_RD_IDS = [c.id for c in catalog_of("ren-dhark")]
_RD_CARD_NAMES = [c.name for c in catalog_of("ren-dhark")]


@functools.cache
def overlay_value(text_types_only: bool) -> st.SearchStrategy[Any]:
    base = st.one_of(
        st.integers(-(2**64), 2**64),
        st.sampled_from(_RD_IDS),
        st.sampled_from(_RD_CARD_NAMES),
        st.sampled_from(["ship", "unit", "blue", "red", "", " "]),
        _HOSTILE_TEXT,
        st.lists(st.sampled_from(["ship", "unit", "person", "zzz"]), max_size=3),
    )
    if text_types_only:
        return base
    return st.one_of(
        base,
        st.booleans(),
        st.floats(allow_nan=False),
        st.lists(st.integers(), max_size=2),
        st.dictionaries(_HOSTILE_TEXT, st.integers(), max_size=2),
    )


_OVERLAY_GAME = st.sampled_from(["ren-dhark", "ren-dhark", "dorn", ""])
_OVERLAY_FIELDS = st.lists(st.sampled_from(_RD_FIELDS), unique=True, max_size=4)
_OVERLAY_TYPE = st.one_of(
    st.sampled_from(["ship", "unit", "zzz"]), st.lists(_HOSTILE_TEXT, max_size=2)
)


@st.composite
def overlay_document(draw: st.DrawFn, text_types_only: bool = True) -> str:
    """A TOML overlay for ren-dhark: [catalog] (maybe broken) and [[cards]] with any fields.

    ``text_types_only``: ``type`` stays a text or a list of texts (else any TOML value).
    """
    data: dict[str, Any] = {}
    if draw(st.integers(0, 9)):
        data["catalog"] = {"game": draw(_OVERLAY_GAME), "name": "hostile"}
    cards = []
    for _ in range(draw(st.integers(0, 4))):
        fields = draw(_OVERLAY_FIELDS)
        card: dict[str, Any] = {}
        for field in fields:
            if field == "type" and text_types_only:
                card[field] = draw(_OVERLAY_TYPE)
            else:
                card[field] = draw(overlay_value(text_types_only))
        cards.append(card)
    data["cards"] = cards
    try:
        return tomli_w.dumps(data)
    except (TypeError, ValueError):
        return '[catalog]\ngame = "ren-dhark"\n'


selector_text = st.one_of(
    _HOSTILE_TEXT,
    st.builds(
        "{}:{}".format,
        st.sampled_from(
            [
                "type",
                "TYPE",
                "colour",
                "id",
                "name",
                "rarity",
                "resource_points",
                "faction",
                "zzz",
                "",
            ]
        ),
        st.one_of(st.sampled_from(["ship", "blue", "I/25", "POINT OF", "3", ""]), _HOSTILE_TEXT),
    ),
    st.sampled_from(_NAMES),
)
condition_text = st.one_of(
    _HOSTILE_TEXT,
    st.builds(
        "{}{}{}".format,
        selector_text,
        st.sampled_from([">=", "<=", "=", "==", ">", "<", "=>", "", " >= "]),
        st.one_of(count_text, st.integers(0, 10**12).map(str)),
    ),
)


# --- deck parsing ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "path",
    [None, Path("d.txt"), Path("d.toml"), Path("d.json")],
    ids=["no-path", "txt", "toml", "json"],
)
@HOSTILE
@given(text=st.text())
def test_parse_deck_arbitrary_text(path: Path | None, text: str) -> None:
    got = only_deckcheck_errors(lambda: parse_deck(text, LABEL, path))
    if isinstance(got, DeckFormatError):
        assert got.source == LABEL  # the message names the file


@HOSTILE
@given(
    data=st.one_of(
        st.binary(max_size=400),
        st.tuples(
            st.sampled_from([codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE, b""]),
            st.binary(max_size=400),
        ).map(b"".join),
        st.text(max_size=200).map(lambda t: t.encode("utf-16-le")),
    )
)
def test_decode_then_parse_arbitrary_bytes(data: bytes) -> None:
    def run() -> object:
        return parse_deck(decode(data, LABEL), LABEL, None)

    got = only_deckcheck_errors(run)
    if isinstance(got, InputFileError | DeckFormatError):
        assert got.source == LABEL


@HOSTILE
@given(text=deck_like())
def test_deck_like_lines_parse_and_resolve(text: str) -> None:
    source = only_deckcheck_errors(lambda: parse_deck(text, LABEL, None))
    if isinstance(source, DeckcheckError):
        assert source.source == LABEL
        return
    only_deckcheck_errors(lambda: resolve_source(source))
    for game in ("ren-dhark", "planetary-conquerors"):
        if not source.game:
            only_deckcheck_errors(lambda game=game: resolve_source(source, make_context(game=game)))


@FEWER
@given(text=deck_like())
def test_deck_like_lines_against_stccg(text: str) -> None:
    """STCCG has its own name rules (personas, '(…)' suffixes) and 4,000+ cards."""
    source = only_deckcheck_errors(lambda: parse_deck(text, LABEL, None))
    if not isinstance(source, DeckcheckError) and not source.game:
        only_deckcheck_errors(lambda: resolve_source(source, make_context(game="stccg-1e")))


@HOSTILE
@given(text=toml_like_text())
def test_toml_like_text(text: str) -> None:
    for path in (None, Path("d.toml")):
        source = only_deckcheck_errors(lambda path=path: parse_deck(text, LABEL, path))
        if not isinstance(source, DeckcheckError) and not source.catalogs:
            only_deckcheck_errors(lambda source=source: resolve_source(source))


@HOSTILE
@given(text=toml_deck_document())
def test_toml_decks_with_wrong_types(text: str) -> None:
    source = only_deckcheck_errors(lambda: parse_deck(text, LABEL, Path("d.toml")))
    if isinstance(source, DeckcheckError):
        assert source.source == LABEL
    elif not source.catalogs:
        only_deckcheck_errors(lambda: resolve_source(source))


@HOSTILE
@given(text=deck_like())
def test_resolution_errors_name_the_deck(text: str) -> None:
    source = only_deckcheck_errors(lambda: parse_deck(text, LABEL, None))
    if isinstance(source, DeckcheckError):
        return
    got = only_deckcheck_errors(lambda: resolve_source(source))
    if isinstance(got, DeckcheckError):
        assert LABEL in str(got), str(got)


# --- catalog overlays ---------------------------------------------------------------------------


def _check_and_apply(text: str) -> None:
    base = catalog_of("ren-dhark")
    doc = only_deckcheck_errors(lambda: parse_document(text, "hostile-overlay.toml"))
    if isinstance(doc, DeckcheckError):
        return
    problems = only_deckcheck_errors(lambda: check_overlay(base, doc))
    if isinstance(problems, list):
        for p in problems:
            assert p.describe("hostile-overlay.toml").startswith("hostile-overlay.toml")
    only_deckcheck_errors(lambda: apply_overlay(base, doc))


@HOSTILE
@given(text=st.text())
def test_overlay_arbitrary_text(text: str) -> None:
    _check_and_apply(text)


@HOSTILE
@given(text=toml_like_text())
def test_overlay_toml_like_text(text: str) -> None:
    _check_and_apply(text)


@HOSTILE
@given(text=overlay_document())
def test_overlay_documents(text: str) -> None:
    _check_and_apply(text)


@HOSTILE
@given(text=overlay_document(text_types_only=False))
def test_overlay_documents_with_any_type_value(text: str) -> None:
    _check_and_apply(text)


# --- conditions and selectors ---------------------------------------------------------------


@pytest.mark.parametrize("game", ["ren-dhark", "planetary-conquerors", "dorn"])
@HOSTILE
@given(text=condition_text)
def test_conditions_and_selectors(game: str, text: str) -> None:
    catalog = catalog_of(game)
    condition = only_deckcheck_errors(lambda: parse_condition(text))
    if not isinstance(condition, DeckcheckError):
        assert condition.count >= 0
        selector = only_deckcheck_errors(lambda: bind_selector(condition.selector, catalog))
        if not isinstance(selector, DeckcheckError):
            for card in catalog:
                assert isinstance(selector(card), bool)
    only_deckcheck_errors(lambda: bind_selector(text, catalog))


@HOSTILE
@given(text=st.text())
def test_arbitrary_text_as_condition(text: str) -> None:
    catalog = catalog_of("ren-dhark")
    condition = only_deckcheck_errors(lambda: parse_condition(text))
    if not isinstance(condition, DeckcheckError):
        only_deckcheck_errors(lambda: bind_selector(condition.selector, catalog))


# --- the whole CLI, standard input ------------------------------------------------------------

_BRACKETY = st.text(alphabet="[]/ab =:#\n", max_size=30)


def _validate_stdin(data: bytes) -> None:
    result = invoke(["validate", "-"], data)
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    assert result.exit_code in (0, 1, 2, 3)
    assert "Traceback" not in result.stdout + result.stderr


@FEWER
@given(text=deck_like())
def test_cli_validate_stdin_deck_like(text: str) -> None:
    _validate_stdin(text.encode("utf-8", "surrogatepass"))


@HOSTILE
@given(text=_BRACKETY)
def test_cli_validate_stdin_bracket_text(text: str) -> None:
    _validate_stdin(("game: ren-dhark\n" + text).encode())
