"""Checks the Ren Dhark data: the bundled catalog and the example decks with the placeholder
overlay.

Self-contained on purpose (tomllib and a tiny deck parser, no deckcheck imports), so it checks
the data itself and fails if a card, a count or a total is wrong.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from conftest import catalog_path, fold

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "ren-dhark"


def _load(path: Path) -> dict:
    with path.open("rb") as f:
        return tomllib.load(f)


def _types(card: dict) -> list[str]:
    t = card["type"]
    return [t] if isinstance(t, str) else list(t)


CATALOG = _load(catalog_path("ren-dhark"))
CARDS: dict[str, dict] = {c["id"]: c for c in CATALOG["cards"]}


def _number(card_id: str) -> int:
    return int(card_id.split("/")[1])


def _resolver() -> dict[str, str | None]:
    """Folded id/name -> id; None for a name several cards share (must be written by id)."""
    index: dict[str, str | None] = {}
    for cid in CARDS:
        index[fold(cid)] = cid
    for cid, card in CARDS.items():
        key = fold(card["name"])
        if key in index and index[key] != cid:
            index[key] = None
        else:
            index[key] = cid
    return index


RESOLVE = _resolver()
COUNT_LINE = [
    re.compile(r"^(\d+)\s*[xX]?\s+(.+)$"),  # "2 Name", "2x Name", "2<TAB>Name"
    re.compile(r"^(.+?)\s+[xX](\d+)$"),  # "Name x2"
]


def parse_deck(path: Path) -> tuple[dict[str, str], Counter]:
    """Header dict and Counter of card ids of a text deck file (the format of CONTRACT.md)."""
    headers: dict[str, str] = {}
    cards: Counter = Counter()
    for lineno, raw in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#") or line.startswith("//"):
            continue
        m = re.match(r"^([A-Za-z_-]+):\s*(.+)$", line)
        if m and not cards and fold(line) not in RESOLVE:
            headers[m.group(1).lower()] = m.group(2).strip()
            continue
        if line.endswith(":"):
            continue  # section header
        count, name = 1, line
        for i, pattern in enumerate(COUNT_LINE):
            m = pattern.match(line)
            if m:
                count, name = (
                    (int(m.group(1)), m.group(2)) if i == 0 else (int(m.group(2)), m.group(1))
                )
                break
        key = fold(name)
        assert key in RESOLVE, f"{path.name}:{lineno}: unknown card {name!r}"
        cid = RESOLVE[key]
        assert cid is not None, (
            f"{path.name}:{lineno}: {name!r} is shared by several cards; use the id"
        )
        cards[cid] += count
    return headers, cards


def with_overlay(deck_path: Path, headers: dict[str, str]) -> dict[str, dict]:
    cards = {cid: dict(c) for cid, c in CARDS.items()}
    if "catalog" in headers:
        overlay = _load(deck_path.parent / headers["catalog"])
        assert overlay["catalog"]["game"] == "ren-dhark"
        for entry in overlay["cards"]:
            assert entry["id"] in cards, entry
            cards[entry["id"]].update({k: v for k, v in entry.items() if k != "id"})
    return cards


def colour_of(n: int) -> str:
    return "blue" if n <= 33 or n == 67 else "red"


# ------------------------------------------------------------------------------ catalog


def test_catalog_has_all_68_cards():
    assert CATALOG["catalog"]["game"] == "ren-dhark"
    assert sorted(_number(c) for c in CARDS) == list(range(1, 69))
    assert len(CATALOG["cards"]) == 68  # no duplicate ids


@pytest.mark.parametrize("colour", ["blue", "red"])
def test_per_colour_composition(colour):
    cards = [c for c in CARDS.values() if c["colour"] == colour]
    assert len(cards) == 34
    counts = Counter()
    for c in cards:
        t = _types(c)
        if "ship" in t:
            counts["ship"] += 1
        elif t[0] in ("person", "unit"):
            counts["person/unit"] += 1
        else:
            counts[t[0]] += 1
    assert counts == {"planet": 1, "ship": 15, "person/unit": 12, "action": 6}


def test_colours_follow_numbers():
    for cid, card in CARDS.items():
        assert card["colour"] == colour_of(_number(cid)), cid


def test_fields_and_unknowns():
    allowed = {"id", "name", "type", "faction", "colour", "note", "aliases"}
    for cid, card in CARDS.items():
        assert set(card) <= allowed, (cid, set(card) - allowed)
        assert set(_types(card)) <= {"person", "unit", "ship", "action", "planet"}, cid
        assert card["name"].strip() == card["name"] and card["name"], cid
    assert _types(CARDS["I/11"]) == ["ship", "unit"]
    for cid in ("I/29", "I/31", "I/62", "I/64", "I/65"):
        assert "faction" not in CARDS[cid], cid
    # spot checks of printed names
    assert CARDS["I/25"]["name"] == "POINT OF"
    assert CARDS["I/26"]["name"] == "BLÜCHER"
    assert CARDS["I/52"]["name"] == "OHĚŇ Z CROMARU III"
    assert CARDS["I/7"]["name"] == CARDS["I/8"]["name"] == "Černá garda"
    assert CARDS["I/29"]["name"] == CARDS["I/64"]["name"] == "Nor-Ex"


def test_notes_are_short():
    for cid, card in CARDS.items():
        if "note" in card:
            assert 0 < len(card["note"]) <= 100, cid
    assert "3" in CARDS["I/11"]["note"]


# ------------------------------------------------------------------------------ overlay

OVERLAY = _load(EXAMPLES / "resource-points.toml")


def test_overlay_covers_every_combat_card():
    assert OVERLAY["catalog"]["game"] == "ren-dhark"
    text = (EXAMPLES / "resource-points.toml").read_text(encoding="utf-8")
    assert "PLACEHOLDER" in text.split("[catalog]")[0]
    given = {e["id"]: e["resource_points"] for e in OVERLAY["cards"]}
    assert len(given) == len(OVERLAY["cards"])
    combat = {cid for cid, c in CARDS.items() if set(_types(c)) & {"ship", "person", "unit"}}
    assert set(given) == combat
    assert len(combat) == 54
    for cid, value in given.items():
        assert isinstance(value, int) and 2 <= value <= 5, cid
    for entry in OVERLAY["cards"]:
        assert set(entry) == {"id", "resource_points"}


# ------------------------------------------------------------------------------ decks


def rule_report(deck_path: Path) -> dict:
    headers, deck = parse_deck(deck_path)
    cards = with_overlay(deck_path, headers)
    report: dict = {"headers": headers, "deck": deck}
    report["max_copies"] = max(deck.values())
    report["colours"] = {colour_of(_number(cid)) for cid in deck}
    count = Counter()
    flex = 0
    for cid, n in deck.items():
        t = _types(cards[cid])
        if set(t) == {"ship", "unit"}:
            flex += n
        elif "ship" in t:
            count["ship"] += n
        elif t[0] in ("person", "unit"):
            count["person/unit"] += n
        else:
            count[t[0]] += n
    report["counts"] = count
    # some assignment of ship/unit cards satisfies both minimums
    report["ships_and_persons_ok"] = any(
        count["ship"] + k >= 15 and count["person/unit"] + flex - k >= 12 for k in range(flex + 1)
    )
    missing = [
        cid
        for cid in deck
        if set(_types(cards[cid])) & {"ship", "person", "unit"}
        and "resource_points" not in cards[cid]
    ]
    report["missing_points"] = missing
    report["points"] = (
        None
        if missing
        else sum(cards[cid].get("resource_points", 0) * n for cid, n in deck.items())
    )
    return report


@pytest.mark.parametrize(
    "filename,colour", [("blue-starter.txt", "blue"), ("red-starter.txt", "red")]
)
def test_starters(filename, colour):
    r = rule_report(EXAMPLES / filename)
    assert r["headers"]["game"] == "ren-dhark"
    assert r["headers"]["variant"] == "starter"
    expected = {cid for cid, c in CARDS.items() if c["colour"] == colour}
    assert set(r["deck"]) == expected
    assert set(r["deck"].values()) == {1}
    assert sum(r["deck"].values()) == 34


def _legal_custom_shape(r: dict) -> None:
    assert r["headers"]["variant"] == "custom"
    assert r["max_copies"] <= 2
    assert r["colours"] == {"blue"}
    assert r["ships_and_persons_ok"]
    assert r["counts"]["action"] <= 6
    assert r["counts"]["planet"] == 1


def test_terra_custom_is_legal():
    r = rule_report(EXAMPLES / "terra-custom.txt")
    _legal_custom_shape(r)
    assert r["headers"]["catalog"] == "resource-points.toml"
    assert r["max_copies"] == 2  # really built from two starters
    assert r["points"] is not None and 109 <= r["points"] <= 112, r["points"]
    # I/11 has to be the 15th ship
    assert r["counts"]["ship"] == 14 and r["deck"]["I/11"] == 1 and r["counts"]["person/unit"] == 12


def test_terra_unverified_lacks_points():
    r = rule_report(EXAMPLES / "terra-unverified.txt")
    _legal_custom_shape(r)
    assert "catalog" not in r["headers"]
    assert r["points"] is None and len(r["missing_points"]) == 27
    # with the placeholder overlay it would be legal too
    overlay = {e["id"]: e["resource_points"] for e in OVERLAY["cards"]}
    assert 109 <= sum(overlay.get(cid, 0) * n for cid, n in r["deck"].items()) <= 112


def test_illegal_mixed_breaks_each_rule():
    r = rule_report(EXAMPLES / "illegal-mixed.txt")
    assert r["headers"]["variant"] == "custom"
    assert r["headers"]["catalog"] == "resource-points.toml"
    assert r["max_copies"] == 3  # rd.copies
    assert r["colours"] == {"blue", "red"}  # rd.colour
    assert r["counts"]["planet"] == 2  # rd.planet
    assert r["counts"]["action"] > 6  # rd.actions
    assert not r["ships_and_persons_ok"]  # rd.ships
    assert r["counts"]["ship"] < 15
    assert r["points"] is not None and not 109 <= r["points"] <= 112  # rd.points


def test_count_forms_are_mixed():
    text = "\n".join(
        (EXAMPLES / f).read_text(encoding="utf-8")
        for f in ("terra-custom.txt", "terra-unverified.txt", "illegal-mixed.txt")
    )
    lines = [ln.strip() for ln in text.splitlines() if ln.strip() and not ln.startswith("#")]
    assert any(re.match(r"^\d+ [^x]", ln) for ln in lines)  # "2 Name"
    assert any(re.match(r"^\d+x ", ln) for ln in lines)  # "2x Name"
    assert any(re.search(r" x\d+$", ln) for ln in lines)  # "Name x2"
    assert any(re.match(r"^I/\d+$", ln) for ln in lines)  # plain id


def test_every_example_has_a_leading_comment():
    for path in EXAMPLES.glob("*.txt"):
        assert path.read_text(encoding="utf-8").startswith("#"), path.name
