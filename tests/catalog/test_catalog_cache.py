"""The catalog cache: trusted once its hash is verified, never visible.

Every command gives the same output and exit code with the cache off, cold and warm; a damaged,
truncated, stale, odd or foreign entry (a catalog's, a name table's or a definition's) is
ignored (a debug note at most) and rewritten; an entry whose hashes match is used as it is and
never rewritten; there is no cache without a home; no temporary file survives a signal; a warm
start makes only the cards and name rows it needs. Every test uses its own cache folder.

Commands run in this process (the CLI runner) with a private cache folder; a child process
only where the process is what is tested (a hang stopped by a watchdog, no HOME at all, a
signal). Building a catalog from its TOML and writing an entry are pure functions of their
inputs, so each is done once per test run (:func:`_build_once`): a test that makes the cache
fall back still goes through the fall-back and the rewrite, without parsing 4,155 cards again.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import signal
import stat
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from afresh import afresh, forget
from conftest import invoke
from process_helpers import call_forked

from deckcheck.catalog import cache, entries
from deckcheck.catalog.selectors import _value_matches, bind_selector, value_keys
from deckcheck.core.errors import ConditionError
from deckcheck.games import base
from deckcheck.games.base import Game
from deckcheck.games.registry import all_games, get_game
from deckcheck.games.spec import spec_from_json, spec_json
from deckcheck.games.stccg import lackey

REPO = Path(__file__).resolve().parents[2]
EXAMPLES = REPO / "examples"
STCCG_DECK = EXAMPLES / "stccg-1e" / "legal-klingon.txt"
REN_DHARK_DECK = EXAMPLES / "ren-dhark" / "terra-custom.txt"
WATCHDOG = 60.0  # a hang fails the test; never a speed limit
NAMES = cache.NAMES
SPEC = cache.SPEC

_MEMO: dict[Any, Any] = {}


def _memo(kind: str, key: Any, make: Callable[[], Any]) -> Any:
    if (kind, key) not in _MEMO:
        _MEMO[kind, key] = make()
    return _MEMO[kind, key]


@pytest.fixture(autouse=True)
def _build_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Parse each TOML and name table, build each catalog and game definition and make each
    entry's lines once per run (the values are immutable; the memo holds them, so their ids
    stay theirs)."""
    parse, build = cache.parse_document, cache.build_catalog
    read_names, catalog_lines, name_lines = (
        cache.read_name_table,
        cache.catalog_lines,
        cache.name_lines,
    )

    def digest(text: str) -> bytes:
        return hashlib.sha256(text.encode()).digest()

    monkeypatch.setattr(
        cache,
        "parse_document",
        lambda text, label, data=None: _memo(
            "parse", (label, digest(text)), lambda: parse(text, label, data)
        ),
    )

    def built(game: str, name: str, fields: Any, docs: Any) -> Any:
        catalog = _memo(
            "build", (game, tuple(id(d) for d in docs)), lambda: build(game, name, fields, docs)
        )
        # What a catalog works out as it is used (its readings of spellings, a rule's
        # constraints) is a new process's to work out again, as it reads its name table.
        catalog.__dict__.pop("_derived", None)
        return catalog

    monkeypatch.setattr(cache, "build_catalog", built)
    define = base.load_definition
    monkeypatch.setattr(
        base,
        "load_definition",
        lambda game, data, build, made, plain: define(
            game,
            data,
            lambda: _memo("definition", (game, hashlib.sha256(data).digest()), build),
            made,
            plain,
        ),
    )
    monkeypatch.setattr(
        cache,
        "read_name_table",
        lambda text: _memo("names", digest(text), lambda: read_names(text)),
    )
    monkeypatch.setattr(
        cache,
        "catalog_lines",
        lambda catalog, fields: _memo(
            "lines", id(catalog), lambda: (catalog, catalog_lines(catalog, fields))
        )[1],
    )
    monkeypatch.setattr(
        cache,
        "name_lines",
        lambda table: _memo("name-lines", id(table), lambda: (table, name_lines(table)))[1],
    )


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private, empty cache folder, and every catalog and name table forgotten before and
    after."""
    path = tmp_path / "cache"
    monkeypatch.setenv("DECKCHECK_CACHE", str(path))
    forget()
    yield path
    forget()


def run(*args: str | Path) -> tuple[int, str]:
    """``deckcheck ARGS`` in process, every catalog loaded afresh: (exit code, output)."""
    forget()
    result = invoke([str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def off_output(*args: str | Path) -> tuple[int, str]:
    """The output with the cache off (computed once per run for the same arguments)."""

    def compute() -> tuple[int, str]:
        previous = os.environ.get("DECKCHECK_CACHE")
        os.environ["DECKCHECK_CACHE"] = "off"
        try:
            return run(*args)
        finally:
            if previous is not None:
                os.environ["DECKCHECK_CACHE"] = previous

    return _memo("off", tuple(str(a) for a in args), compute)


def entry(folder: Path, game: str = "stccg-1e", kind: str = cache.CATALOG) -> Path:
    return cache.entry_path(folder, game, kind)


def forge(path: Path, change: Callable[[list[bytes]], list[bytes]]) -> None:
    """Rewrite an entry's payload lines with ``change`` and forge a matching envelope (hashes,
    length and count): the entry then fails only the checks that look inside it."""
    lines = path.read_bytes().split(b"\n")
    envelope = json.loads(lines[0])
    body = change(lines[1:])
    payload = b"\n".join(body)
    envelope.update(
        payload=hashlib.sha256(payload).hexdigest(),
        bytes=len(payload),
        count=len(body) - (0 if path.name.endswith(".spec.json") else cache.LOOKUP_LINES),
    )
    path.write_bytes(json.dumps(envelope).encode() + b"\n" + payload)


def change_line(number: int, change: Callable[[Any], Any]) -> Callable[[list[bytes]], list[bytes]]:
    """Change one lookups line (0: the first) as JSON."""

    def changed(body: list[bytes]) -> list[bytes]:
        value = change(json.loads(body[number]))
        return [*body[:number], json.dumps(value).encode(), *body[number + 1 :]]

    return changed


def assert_sound_entry(folder: Path, game: str = "stccg-1e", kind: str = cache.CATALOG) -> None:
    """The entry was rewritten: a regular file whose payload matches its hash."""
    path = entry(folder, game, kind)
    info = os.lstat(path)
    assert stat.S_ISREG(info.st_mode)
    lines = path.read_bytes().split(b"\n")
    envelope = json.loads(lines[0])
    assert hashlib.sha256(b"\n".join(lines[1:])).hexdigest() == envelope["payload"]
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


def every_entry() -> list[str]:
    return sorted(
        [f"{g}.{kind}.json" for g in all_games() for kind in (cache.CATALOG, SPEC)]
        + ["stccg-1e.names.json"]
    )


# --- off, cold and warm agree ----------------------------------------------------------------


def test_every_example_same_output_off_cold_warm(folder: Path) -> None:
    decks = sorted(p for p in EXAMPLES.glob("*/*.txt"))
    assert len(decks) > 20
    args = ["validate", *decks]
    off = off_output(*args)
    cold = run(*args)
    assert sorted(p.name for p in folder.iterdir()) == every_entry()
    warm = run(*args)
    assert off == cold == warm
    assert off[0] in (1, 2, 3)  # the examples hold illegal decks
    # The JSON report too, from the warm cache (a second "cold" run would find the folder
    # filled by the first: it would be one more warm run, at the cost of every example).
    json_args = ["validate", "--json", *decks]
    assert off_output(*json_args) == run(*json_args)


@pytest.mark.parametrize(
    "args",
    [
        ["cards", "stccg-1e", "Worf"],
        ["cards", "stccg-1e", "type:Dilemma", "--json"],  # a selector, through the value index
        ["cards", "ren-dhark", "--json"],
        ["cards", "the-drake", "--json"],
        ["validate", str(EXAMPLES / "ren-dhark" / "illegal-mixed.txt")],  # an overlay
        ["export", str(STCCG_DECK), "--to", "lackey"],  # every card's name from the name table
        ["games", "--json"],
    ],
)
def test_other_commands_same_output_off_cold_warm(folder: Path, args: list[str]) -> None:
    assert off_output(*args) == run(*args) == run(*args)


def test_warm_start_makes_only_the_cards_and_rows_it_needs(folder: Path) -> None:
    run("validate", STCCG_DECK)  # cold: writes the entries
    forget()
    catalog = get_game("stccg-1e").bundled_catalog()
    table = lackey.name_table()
    assert isinstance(catalog.cards, entries.CachedCards)
    assert isinstance(table, entries.CachedNames)
    made = lambda: sum(card is not None for card in catalog.cards._made)  # noqa: E731
    rows = lambda: sum(row is not None for row in table._made)  # noqa: E731
    assert made() == rows() == 0
    deck_lines = [line for line in STCCG_DECK.read_text().splitlines() if line[:1].isdigit()]
    from deckcheck.api import validate

    assert validate([STCCG_DECK]).exit_code == 0  # resolves the lines, binds the selectors
    # a name shared by printings makes each; a selector's witness is one more card
    assert 0 < made() <= 2 * len(deck_lines)
    assert len(catalog) == 4155 and made() < 200
    assert len(table) > 5000 and 0 < rows() <= 2 * len(deck_lines)


def test_two_threads_making_one_card_count_it_once(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The builder's odds job reads the catalog while the screen does: two threads making the
    same card at once leave one card, counted once, so a later walk holds no hole."""
    import threading

    run("validate", STCCG_DECK)
    forget()
    cards = get_game("stccg-1e").bundled_catalog().cards
    assert isinstance(cards, entries.CachedCards)
    both_inside = threading.Barrier(2, timeout=30)
    make = entries.card_from_mapping

    def slow_make(*args: Any) -> Any:
        both_inside.wait()  # each thread has seen the card missing before either keeps one
        return make(*args)

    monkeypatch.setattr(entries, "card_from_mapping", slow_make)
    got: list[Any] = []
    threads = [threading.Thread(target=lambda: got.append(cards[0])) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    monkeypatch.setattr(entries, "card_from_mapping", make)
    assert len(got) == 2 and got[0] is got[1]
    assert cards._unmade == len(cards) - 1
    assert None not in list(cards)


def test_a_selector_makes_one_card_and_an_absent_value_is_still_refused(folder: Path) -> None:
    run("cards", "stccg-1e", "Worf")
    forget()
    catalog = get_game("stccg-1e").bundled_catalog()
    selector = bind_selector("type:Dilemma", catalog)
    assert sum(card is not None for card in catalog.cards._made) == 1
    assert selector(catalog.by_name("Chalnoth")[0])
    with pytest.raises(ConditionError) as warm:
        bind_selector("type:Dilemmma", catalog)  # the index lacks it: every card is looked at
    forget()
    os.environ["DECKCHECK_CACHE"] = "off"  # the fixture's monkeypatch restores it
    with pytest.raises(ConditionError) as off:
        bind_selector("type:Dilemmma", get_game("stccg-1e").bundled_catalog())
    assert (warm.value.message, warm.value.details) == (off.value.message, off.value.details)


@pytest.mark.parametrize("game", sorted(all_games()))
def test_value_index_is_what_selectors_match(game: str) -> None:
    """Each key of the index is a spelling some card's field matches, the first such card is
    its witness, and a field value matches exactly the keys :func:`value_keys` gives it."""
    cards = list(get_game(game).bundled_catalog().cards)
    fields = get_game(game).field_specs
    index = entries.value_index(cards, fields)
    assert set(index) == {"type", *fields}
    for field, witnesses in index.items():
        for position, card in enumerate(cards):
            value = card.get(field)
            keys = value_keys(value)
            assert keys <= witnesses.keys() and all(witnesses[k] <= position for k in keys)
            if position < 200:
                assert all(_value_matches(value, {k}) for k in keys)
                assert not _value_matches(value, frozenset(witnesses.keys() - keys))
        for key, position in witnesses.items():
            assert _value_matches(cards[position].get(field), {key})


# --- entries that must not be believed --------------------------------------------------------


def _warm(folder: Path) -> tuple[int, str]:
    expected = off_output("validate", STCCG_DECK)
    assert run("validate", STCCG_DECK) == expected
    assert entry(folder).is_file() and entry(folder, kind=NAMES).is_file()
    return expected


def _check_ignored(
    folder: Path,
    expected: tuple[int, str],
    caplog: pytest.LogCaptureFixture,
    kind: str = cache.CATALOG,
) -> None:
    with caplog.at_level(logging.DEBUG, logger="deckcheck.cache"):
        assert run("validate", STCCG_DECK) == expected
    notes = [r for r in caplog.records if r.name == "deckcheck.cache"]
    assert notes and all(r.levelno == logging.DEBUG for r in notes)
    assert str(entry(folder, kind=kind)) in notes[0].getMessage()
    assert_sound_entry(folder, kind=kind)
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="deckcheck.cache"):
        assert run("validate", STCCG_DECK) == expected  # the rewritten entry is used
    assert not [r for r in caplog.records if r.name == "deckcheck.cache"]


DAMAGE = [
    pytest.param(lambda p: p.write_bytes(b""), id="empty"),
    pytest.param(lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]), id="cut"),
    pytest.param(
        lambda p: p.write_bytes(p.read_bytes().replace(b"Mission", b"Missiom", 1)),
        id="one-changed-word",
    ),
    pytest.param(lambda p: p.write_text("[1, 2, 3]"), id="json-of-another-shape"),
    pytest.param(lambda p: p.write_text('{"format": 3}\n{}\n{}'), id="envelope-lacks-fields"),
    pytest.param(lambda p: p.write_bytes(b"\xff\xfe" * 1000), id="binary"),
    pytest.param(
        lambda p: p.write_bytes(p.read_bytes().replace(b'"version":"', b'"version":"0', 1)),
        id="other-version",
    ),
    pytest.param(
        lambda p: p.write_bytes(p.read_bytes().replace(b'"sources":"', b'"sources":"0', 1)),
        id="other-sources",
    ),
    pytest.param(
        lambda p: p.write_bytes(p.read_bytes().replace(b'"format":3', b'"format":2', 1)),
        id="older-format",
    ),
]


@pytest.mark.parametrize("kind", [cache.CATALOG, NAMES, SPEC])
@pytest.mark.parametrize("damage", DAMAGE)
def test_damaged_entry_ignored_and_rewritten(
    folder: Path,
    caplog: pytest.LogCaptureFixture,
    damage: Callable[[Path], object],
    kind: str,
) -> None:
    expected = _warm(folder)
    damage(entry(folder, kind=kind))
    _check_ignored(folder, expected, caplog, kind)


# --- a game's definition ----------------------------------------------------------------------


@pytest.mark.parametrize("game", sorted(all_games()))
def test_definition_from_the_cache_is_the_validated_one(
    folder: Path, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    """A warm start makes the very spec validation made (values, their types, which fields
    were written), without reading the TOML."""
    cold = get_game(game).spec
    assert entry(folder, game, SPEC).is_file()
    forget()
    monkeypatch.setattr(base, "parse_toml", _never)
    warm = get_game(game).spec
    assert warm is not cold
    assert warm == cold and repr(warm) == repr(cold)
    assert warm.model_dump(exclude_unset=True) == cold.model_dump(exclude_unset=True)


def _never(*args: object) -> None:
    raise AssertionError("the cached definition was not used")


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(lambda v: v["mulligan"]["triggers"][0].update(op="=>"), id="operator"),
        pytest.param(lambda v: v["mulligan"]["triggers"][0].update(op=1), id="operator-number"),
        pytest.param(lambda v: v["mulligan"].update(max_redraws="1"), id="optional-number"),
        pytest.param(lambda v: v["variants"]["custom"].update(params=[]), id="any-table"),
    ],
)
def test_definition_shape_checked_everywhere(change: Callable[[dict[str, Any]], object]) -> None:
    """Ren Dhark's definition (the one with an operator), changed in one place."""
    value = json.loads(json.dumps(spec_json(get_game("ren-dhark").spec)))
    assert spec_from_json(value) == get_game("ren-dhark").spec
    change(value)
    with pytest.raises(ValueError):
        spec_from_json(value)


def test_definition_json_cannot_hold_is_not_cached(folder: Path, tmp_path: Path) -> None:
    """A value JSON cannot hold (a TOML date) keeps the definition out of the cache."""
    directory = tmp_path / "dated"
    directory.mkdir()
    source = (REPO / "catalogs" / "the-drake" / "game.toml").read_text(encoding="utf-8")
    (directory / "game.toml").write_text(
        source.replace("[constants]\n", "[constants]\nsince = 2012-01-01\n", 1),
        encoding="utf-8",
    )
    game = Game(directory, get_game("the-drake").rules)
    assert str(game.spec.constants["since"]) == "2012-01-01"
    assert not entry(folder, "dated", SPEC).exists()


def test_verified_entry_is_used_as_it_is_and_never_rewritten(folder: Path) -> None:
    """The hashes are what the cache trusts (the threat model of docs/internals.md): an entry
    whose hashes match is used without looking inside, and a warm start writes nothing."""
    _warm(folder)
    entries = sorted(folder.iterdir())
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in entries}
    assert run("validate", STCCG_DECK)[0] == 0
    assert {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in entries} == before

    def rename(body: list[bytes]) -> list[bytes]:
        lines = [line.replace(b'"Klingon Outpost"', b'"Klingon Outpost (cached)"') for line in body]
        assert lines != body
        return lines

    forge(entry(folder), rename)
    forget()
    outpost = get_game("stccg-1e").bundled_catalog().by_id("101_105")
    assert outpost is not None and outpost.name == "Klingon Outpost (cached)"


def test_value_missing_from_the_index_is_found_card_by_card(folder: Path) -> None:
    expected = _warm(folder)
    forge(entry(folder), change_line(1, lambda v: {**v, "type": {}}))
    assert run("validate", STCCG_DECK) == expected


@pytest.mark.parametrize("kind", [cache.CATALOG, NAMES])
def test_huge_sparse_entry_is_not_read(
    folder: Path, monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    expected = _warm(folder)
    with entry(folder, kind=kind).open("r+b") as handle:
        handle.truncate(1 << 30)  # 1 GiB of NULs, sparse: no disk used
    read = 0
    real_read = os.read

    def counting_read(fd: int, n: int) -> bytes:
        nonlocal read
        data = real_read(fd, n)
        read += len(data)
        return data

    forget()
    assert get_game("stccg-1e").spec  # read from its own entry, before the counting starts
    monkeypatch.setattr(cache.os, "read", counting_read)
    if kind == cache.CATALOG:
        assert get_game("stccg-1e").bundled_catalog().by_name("Klingon Outpost")
    else:
        assert lackey.name_table().find("Klingon Outpost")
    assert read == 0
    assert run("validate", STCCG_DECK) == expected
    assert entry(folder, kind=kind).stat().st_size < 10 << 20


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
@pytest.mark.parametrize("kind", [cache.CATALOG, NAMES])
def test_symlink_to_a_device_is_not_followed(folder: Path, kind: str) -> None:
    expected = _warm(folder)
    entry(folder, kind=kind).unlink()
    entry(folder, kind=kind).symlink_to("/dev/zero")
    assert run("validate", STCCG_DECK) == expected
    assert_sound_entry(folder, kind=kind)


def test_symlink_to_a_good_entry_is_not_followed(folder: Path, tmp_path: Path) -> None:
    expected = _warm(folder)
    elsewhere = tmp_path / "elsewhere.json"
    entry(folder).rename(elsewhere)
    entry(folder).symlink_to(elsewhere)
    assert run("validate", STCCG_DECK) == expected
    assert_sound_entry(folder)


def test_directory_at_the_entry_path(folder: Path) -> None:
    expected = off_output("validate", STCCG_DECK)
    entry(folder).mkdir(parents=True)
    entry(folder, kind=NAMES).mkdir(parents=True)
    assert run("validate", STCCG_DECK) == expected
    assert entry(folder).is_dir() and entry(folder, kind=NAMES).is_dir()  # left alone
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_fifo_at_the_entry_path_does_not_hang(tmp_path: Path) -> None:
    """In a child process forked from this one, which reads the game afresh, so that a hang
    meets the watchdog (the small game: the opening of the entry is what is tested, shared by
    every game)."""
    folder = tmp_path / "cache"
    folder.mkdir()
    os.mkfifo(entry(folder, "ren-dhark"))
    args: list[str | Path] = ["validate", REN_DHARK_DECK]
    out = call_forked(afresh(args), " ".join(map(str, args)), env={"DECKCHECK_CACHE": str(folder)})
    assert out.code == 0 and out.stderr == ""
    assert_sound_entry(folder, "ren-dhark")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
@pytest.mark.parametrize("kind", [cache.CATALOG, NAMES])
def test_entry_of_another_user_is_ignored(
    folder: Path, caplog: pytest.LogCaptureFixture, kind: str
) -> None:
    expected = _warm(folder)
    os.chown(entry(folder, kind=kind), 54321, 54321)
    _check_ignored(folder, expected, caplog, kind)
    assert entry(folder, kind=kind).stat().st_uid == os.geteuid()


# --- where the cache is, and whether there is one ---------------------------------------------


@pytest.mark.parametrize("value", ["off", "OFF", "false", "False", "0", "no", " none "])
def test_cache_switched_off(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DECKCHECK_CACHE", value)
    assert cache.cache_dir() is None
    assert run("validate", STCCG_DECK)[0] == 0
    assert list(tmp_path.iterdir()) == []  # no folder named "false"


@pytest.mark.parametrize("value", ["on", "true", "1", "yes", ""])
def test_cache_switched_on_means_the_default_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str
) -> None:
    monkeypatch.setenv("DECKCHECK_CACHE", value)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert cache.cache_dir() == tmp_path / "deckcheck"


def test_default_folders(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("DECKCHECK_CACHE", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    assert cache.cache_dir() == tmp_path / ".cache" / "deckcheck"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/path")  # the XDG rule: ignored
    assert cache.cache_dir() == tmp_path / ".cache" / "deckcheck"
    monkeypatch.delenv("HOME")
    monkeypatch.delenv("XDG_CACHE_HOME")
    assert cache.cache_dir() is None


def test_no_home_runs_without_a_cache(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """In process for STCCG (catalog and name table), and once in a child process started
    without HOME at all (the small game: what matters is the start without a home)."""
    monkeypatch.chdir(tmp_path)
    for name in ("HOME", "XDG_CACHE_HOME", "DECKCHECK_CACHE"):
        monkeypatch.delenv(name, raising=False)
    assert run("validate", STCCG_DECK) == off_output("validate", STCCG_DECK)
    assert list(tmp_path.iterdir()) == []
    out = subprocess.run(
        [sys.executable, "-m", "deckcheck", "validate", str(REN_DHARK_DECK)],
        capture_output=True,
        env=dict(os.environ),
        cwd=tmp_path,
        timeout=WATCHDOG,
    )
    assert (out.returncode, out.stderr) == (0, b"")
    assert b"LEGAL" in out.stdout
    assert list(tmp_path.iterdir()) == []


# --- housekeeping ----------------------------------------------------------------------------


def test_old_entries_and_stale_temporary_files_removed(folder: Path) -> None:
    folder.mkdir()
    legacy = folder / f"catalog-1-{'a' * 40}.json"
    legacy.write_text("{}")
    stale = folder / f".{entry(folder).name}.abc123.tmp"
    stale.write_text("half")
    os.utime(stale, (1, 1))
    fresh = folder / f".{entry(folder).name}.def456.tmp"  # another writer, at work now
    fresh.write_text("half")
    unrelated = folder / "notes.txt"
    unrelated.write_text("mine")
    run("validate", STCCG_DECK)
    names = {p.name for p in folder.iterdir()}
    assert names == {
        *(entry(folder, kind=kind).name for kind in (cache.CATALOG, NAMES, SPEC)),
        fresh.name,
        "notes.txt",
    }


@pytest.mark.parametrize("kind", [cache.CATALOG, NAMES, SPEC])
def test_one_entry_per_catalog_after_the_sources_change(folder: Path, kind: str) -> None:
    run("validate", STCCG_DECK)
    first = entry(folder, kind=kind).read_bytes()
    forge(entry(folder, kind=kind), lambda body: body)  # same content, and still one entry
    lines = entry(folder, kind=kind).read_bytes().split(b"\n")
    envelope = json.loads(lines[0])
    envelope["sources"] = "0" * 64  # as if built from older source files
    changed = json.dumps(envelope).encode() + b"\n" + b"\n".join(lines[1:])
    entry(folder, kind=kind).write_bytes(changed)
    run("validate", STCCG_DECK)
    assert entry(folder, kind=kind).read_bytes() == first
    assert sorted(p.name for p in folder.iterdir()) == sorted(
        entry(folder, kind=kind).name for kind in (cache.CATALOG, NAMES, SPEC)
    )


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signals")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_no_temporary_file_left_by_a_signal_while_writing(tmp_path: Path, signum: int) -> None:
    """The signal arrives while the temporary file exists (sent from inside the write): the
    entry is completed or nothing is left, never a temporary file. In a child process forked
    from this one (what the signal ends is a process; its start is not what is tested), which
    reads the game afresh."""
    folder = tmp_path / "cache"

    def write_under_a_signal() -> None:
        # Ctrl-C as in a terminal, even where the suite was started in the background (which
        # starts its children with SIGINT ignored); SIGTERM and SIGHUP as a new process has them
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGHUP, signal.SIG_DFL)
        forget()
        assert get_game("ren-dhark").spec  # its entry written before the signal is armed
        real = os.replace

        def replace(src: str, dst: str) -> None:
            os.kill(os.getpid(), signum)
            real(src, dst)

        cache.os.replace = replace  # type: ignore[assignment]
        get_game("ren-dhark").bundled_catalog()

    out = call_forked(
        write_under_a_signal, "a write stopped by a signal", env={"DECKCHECK_CACHE": str(folder)}
    )
    assert out.code != 0  # the signal did act, after the write
    assert sorted(p.name for p in folder.iterdir()) == [
        entry(folder, "ren-dhark").name,
        entry(folder, "ren-dhark", SPEC).name,
    ]
