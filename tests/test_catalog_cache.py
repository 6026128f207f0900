"""The catalog cache: never trusted, never visible.

Every command gives the same output and exit code with the cache off, cold and warm; a damaged,
forged, odd or foreign cache entry is ignored (a debug note at most) and rewritten; there is no
cache without a home; no temporary file survives a signal; a warm start makes only the cards it
needs. Every test uses its own cache folder.
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
import textwrap
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import invoke

from deckcheck.catalog import cache
from deckcheck.games.registry import all_games, get_game

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
STCCG_DECK = EXAMPLES / "stccg-1e" / "legal-klingon.txt"
WATCHDOG = 60.0  # a hang fails the test; never a speed limit


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A private, empty cache folder, and every game's catalog forgotten before and after."""
    path = tmp_path / "cache"
    monkeypatch.setenv("DECKCHECK_CACHE", str(path))
    _forget()
    yield path
    _forget()


def _forget() -> None:
    for game in all_games().values():
        game._catalog = None


def run(*args: str | Path) -> tuple[int, str]:
    """``deckcheck ARGS`` in process, every game's catalog loaded afresh: (exit code, output)."""
    _forget()
    result = invoke([str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), result.output
    return result.exit_code, result.output


def entry(folder: Path, game: str = "stccg-1e") -> Path:
    return cache.entry_path(folder, game)


def forge(path: Path, change: Callable[[list[bytes]], list[bytes]]) -> None:
    """Rewrite an entry's payload lines with ``change`` and forge a matching envelope (hashes,
    length and card count): the entry then fails only the checks that look inside it."""
    lines = path.read_bytes().split(b"\n")
    envelope = json.loads(lines[0])
    body = change(lines[1:])
    payload = b"\n".join(body)
    envelope.update(
        payload=hashlib.sha256(payload).hexdigest(), bytes=len(payload), cards=len(body) - 1
    )
    path.write_bytes(json.dumps(envelope).encode() + b"\n" + payload)


def change_card(card_id: str, **fields: object) -> Callable[[list[bytes]], list[bytes]]:
    def change(body: list[bytes]) -> list[bytes]:
        out = []
        for line in body:
            if line.startswith(b"{") and json.loads(line).get("id") == card_id:
                card = json.loads(line)
                card.update(fields)
                line = json.dumps(card).encode()
            out.append(line)
        return out

    return change


def off_output(*args: str | Path) -> tuple[int, str]:
    previous = os.environ.get("DECKCHECK_CACHE")
    os.environ["DECKCHECK_CACHE"] = "off"
    try:
        return run(*args)
    finally:
        if previous is not None:
            os.environ["DECKCHECK_CACHE"] = previous


def assert_sound_entry(folder: Path, game: str = "stccg-1e") -> None:
    """The entry was rewritten: a regular file that loads without a note."""
    path = entry(folder, game)
    info = os.lstat(path)
    assert stat.S_ISREG(info.st_mode)
    lines = path.read_bytes().split(b"\n")
    envelope = json.loads(lines[0])
    assert hashlib.sha256(b"\n".join(lines[1:])).hexdigest() == envelope["payload"]
    assert not [p.name for p in folder.iterdir() if p.name.endswith(".tmp")]


# --- off, cold and warm agree ----------------------------------------------------------------


def test_every_example_same_output_off_cold_warm(folder: Path) -> None:
    decks = sorted(p for p in EXAMPLES.glob("*/*.txt"))
    assert len(decks) > 20
    for args in (["validate", *decks], ["validate", "--json", *decks]):
        off = off_output(*args)
        cold = run(*args)
        assert sorted(p.name for p in folder.iterdir()) == sorted(
            f"{g}.catalog.json" for g in all_games()
        )
        warm = run(*args)
        assert off == cold == warm
        assert off[0] in (1, 2, 3)  # the examples hold illegal decks


@pytest.mark.parametrize(
    "args",
    [
        ["cards", "stccg-1e", "Worf"],
        ["cards", "ren-dhark", "--json"],
        ["cards", "the-drake", "--json"],
        ["validate", str(EXAMPLES / "ren-dhark" / "illegal-mixed.txt")],  # an overlay
        ["games", "--json"],
    ],
)
def test_other_commands_same_output_off_cold_warm(folder: Path, args: list[str]) -> None:
    assert off_output(*args) == run(*args) == run(*args)


def test_warm_start_makes_only_the_cards_it_needs(folder: Path) -> None:
    run("validate", STCCG_DECK)  # cold: writes the entry
    _forget()
    catalog = get_game("stccg-1e").bundled_catalog()
    assert isinstance(catalog.cards, cache._CachedCards)
    made = lambda: sum(card is not None for card in catalog.cards._made)  # noqa: E731
    assert made() == 0
    deck_lines = [line for line in STCCG_DECK.read_text().splitlines() if line[:1].isdigit()]
    from deckcheck.decks.load import load_deck

    load_deck(STCCG_DECK)
    assert 0 < made() <= 2 * len(deck_lines)  # a name shared by printings makes each
    assert len(catalog) == 4155 and made() < 200


# --- entries that must not be believed --------------------------------------------------------


def _warm(folder: Path) -> tuple[int, str]:
    expected = run("validate", STCCG_DECK)
    assert entry(folder).is_file()
    return expected


def _check_ignored(
    folder: Path, expected: tuple[int, str], caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.DEBUG, logger="deckcheck.cache"):
        assert run("validate", STCCG_DECK) == expected
    notes = [r for r in caplog.records if r.name == "deckcheck.cache"]
    assert notes and all(r.levelno == logging.DEBUG for r in notes)
    assert str(entry(folder)) in notes[0].getMessage()
    assert_sound_entry(folder)
    caplog.clear()
    with caplog.at_level(logging.DEBUG, logger="deckcheck.cache"):
        assert run("validate", STCCG_DECK) == expected  # the rewritten entry is used
    assert not [r for r in caplog.records if r.name == "deckcheck.cache"]


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(lambda p: p.write_bytes(b""), id="empty"),
        pytest.param(lambda p: p.write_bytes(p.read_bytes()[: p.stat().st_size // 2]), id="cut"),
        pytest.param(
            lambda p: p.write_bytes(p.read_bytes().replace(b"Klingon", b"Klingom", 1)),
            id="one-changed-word",
        ),
        pytest.param(lambda p: p.write_text("[1, 2, 3]"), id="json-of-another-shape"),
        pytest.param(lambda p: p.write_text('{"format": 2}\n{}'), id="envelope-lacks-fields"),
        pytest.param(lambda p: p.write_bytes(b"\xff\xfe" * 1000), id="binary"),
        pytest.param(
            lambda p: p.write_bytes(p.read_bytes().replace(b'"version":"', b'"version":"0', 1)),
            id="other-version",
        ),
        pytest.param(
            lambda p: p.write_bytes(p.read_bytes().replace(b'"sources":"', b'"sources":"0', 1)),
            id="other-sources",
        ),
    ],
)
def test_damaged_entry_ignored_and_rewritten(
    folder: Path, caplog: pytest.LogCaptureFixture, damage: Callable[[Path], object]
) -> None:
    expected = _warm(folder)
    damage(entry(folder))
    _check_ignored(folder, expected, caplog)


@pytest.mark.parametrize(
    "change",
    [
        pytest.param(change_card("101_105", type=7), id="type-a-number"),
        pytest.param(change_card("101_105", name=["Klingon Outpost"]), id="name-a-list"),
        pytest.param(change_card("101_105", affiliation=[7]), id="list-of-numbers"),
        pytest.param(change_card("101_105", shields="high"), id="text-for-a-number"),
        pytest.param(change_card("101_105", wormhole=True), id="unknown-field"),
        pytest.param(change_card("101_105", id="999_999"), id="another-id"),
        pytest.param(lambda body: [body[0], *(b"[7]" for _ in body[1:])], id="every-card-a-list"),
        pytest.param(
            lambda body: [body[0].replace(b'"names":{', b'"names":{"x":[999999],', 1), *body[1:]],
            id="lookup-outside",
        ),
        pytest.param(lambda body: [b'{"ids":7}', *body[1:]], id="lookups-of-another-shape"),
    ],
)
def test_forged_entry_of_the_wrong_shape_ignored(
    folder: Path, caplog: pytest.LogCaptureFixture, change: Callable[[list[bytes]], list[bytes]]
) -> None:
    """Hashes and count forged to match: the shape and the TOML's own checks still catch it,
    also when other cards were already made from the entry."""
    expected = _warm(folder)
    forge(entry(folder), change)
    _check_ignored(folder, expected, caplog)


def test_forged_extra_card_does_not_make_a_deck_legal(folder: Path, tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text(STCCG_DECK.read_text() + "1 Cardassian Warp Bubble\n", encoding="utf-8")
    expected = off_output("validate", deck)
    assert expected[0] == 2 and "Cardassian Warp Bubble" in expected[1]
    run("validate", STCCG_DECK)

    def add_card(body: list[bytes]) -> list[bytes]:
        lookups = json.loads(body[0])
        position = len(lookups["ids"])
        lookups["ids"].append("x_1")
        lookups["folded_ids"].append("x_1")
        lookups["names"]["cardassian warp bubble"] = [position]
        card = {"id": "x_1", "name": "Cardassian Warp Bubble", "type": "Event"}
        return [json.dumps(lookups).encode(), *body[1:], json.dumps(card).encode()]

    forge(entry(folder), add_card)
    assert run("validate", deck) == expected
    assert_sound_entry(folder)


def test_huge_sparse_entry_is_not_read(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _warm(folder)
    with entry(folder).open("r+b") as handle:
        handle.truncate(1 << 30)  # 1 GiB of NULs, sparse: no disk used
    read = 0
    real_read = os.read

    def counting_read(fd: int, n: int) -> bytes:
        nonlocal read
        data = real_read(fd, n)
        read += len(data)
        return data

    monkeypatch.setattr(cache.os, "read", counting_read)
    assert run("validate", STCCG_DECK) == expected
    assert read == 0
    assert entry(folder).stat().st_size < 10 << 20


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_symlink_to_a_device_is_not_followed(folder: Path) -> None:
    expected = _warm(folder)
    entry(folder).unlink()
    entry(folder).symlink_to("/dev/zero")
    assert run("validate", STCCG_DECK) == expected
    assert_sound_entry(folder)


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
    assert run("validate", STCCG_DECK) == expected
    assert entry(folder).is_dir()  # left alone; nothing else written
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs named pipes")
def test_fifo_at_the_entry_path_does_not_hang(tmp_path: Path) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    os.mkfifo(entry(folder))
    env = {**os.environ, "DECKCHECK_CACHE": str(folder)}
    out = subprocess.run(
        [sys.executable, "-m", "deckcheck", "validate", str(STCCG_DECK)],
        capture_output=True,
        env=env,
        cwd=REPO,
        timeout=WATCHDOG,
    )
    assert out.returncode == 0 and out.stderr == b""
    assert_sound_entry(folder)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_entry_of_another_user_is_ignored(folder: Path, caplog: pytest.LogCaptureFixture) -> None:
    expected = _warm(folder)
    os.chown(entry(folder), 54321, 54321)
    _check_ignored(folder, expected, caplog)
    assert entry(folder).stat().st_uid == os.geteuid()


# --- where the cache is, and whether there is one ---------------------------------------------


@pytest.mark.parametrize("value", ["off", "OFF", "false", "False", "0", "no", " none "])
def test_cache_switched_off(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, value: str) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DECKCHECK_CACHE", value)
    assert cache.cache_dir() is None
    _forget()
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


def test_no_home_runs_without_a_cache(tmp_path: Path) -> None:
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("HOME", "XDG_CACHE_HOME", "DECKCHECK_CACHE")
    }
    out = subprocess.run(
        [sys.executable, "-m", "deckcheck", "validate", str(STCCG_DECK)],
        capture_output=True,
        env=env,
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
    assert names == {entry(folder).name, fresh.name, unrelated.name}


def test_one_entry_per_catalog_after_the_sources_change(folder: Path) -> None:
    run("validate", STCCG_DECK)
    first = entry(folder).read_bytes()
    forge(entry(folder), lambda body: body)  # same content, and still one entry
    lines = entry(folder).read_bytes().split(b"\n")
    envelope = json.loads(lines[0])
    envelope["sources"] = "0" * 64  # as if built from older source files
    entry(folder).write_bytes(json.dumps(envelope).encode() + b"\n" + b"\n".join(lines[1:]))
    run("validate", STCCG_DECK)
    assert entry(folder).read_bytes() == first
    assert [p.name for p in folder.iterdir()] == [entry(folder).name]


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signals")
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP, signal.SIGINT])
def test_no_temporary_file_left_by_a_signal_while_writing(tmp_path: Path, signum: int) -> None:
    """The signal arrives while the temporary file exists (sent from inside the write): the
    entry is completed or nothing is left, never a temporary file."""
    folder = tmp_path / "cache"
    script = textwrap.dedent(
        f"""
        import os
        from deckcheck.catalog import cache
        real = os.replace
        def replace(src, dst):
            os.kill(os.getpid(), {int(signum)})
            real(src, dst)
        cache.os.replace = replace
        from deckcheck.games.registry import get_game
        get_game("ren-dhark").bundled_catalog()
        """
    )
    env = {**os.environ, "DECKCHECK_CACHE": str(folder)}
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, env=env, cwd=REPO, timeout=WATCHDOG
    )
    assert out.returncode != 0  # the signal did act, after the write
    assert [p.name for p in folder.iterdir()] == [entry(folder, "ren-dhark").name]
