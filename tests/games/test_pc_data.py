"""Checks the Planetary Conquerors data: the bundled catalog, the illustrative example set and
the example decks (sizes, rarity limits, miners), computed from the TOML files.

Self-contained on purpose (tomllib and a tiny deck parser, no deckcheck imports).
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path

import pytest
from conftest import catalog_path, fold

ROOT = Path(__file__).resolve().parents[2]
EXAMPLES = ROOT / "examples" / "planetary-conquerors"
TYPES = {"miner", "building", "warrior", "trap", "spell"}
LIMIT = {1: None, 2: 3, 3: 1}


def _load(path: Path) -> dict:
    with path.open("rb") as f:
        return tomllib.load(f)


BUNDLED = _load(catalog_path("planetary-conquerors"))
EXAMPLE_SET = _load(EXAMPLES / "example-set.toml")


def merged() -> dict[str, dict]:
    """The bundled catalog with the example set laid over it (by id)."""
    cards = {c["id"]: dict(c) for c in BUNDLED["cards"]}
    for entry in EXAMPLE_SET["cards"]:
        if entry["id"] in cards:
            cards[entry["id"]].update(entry)
        else:
            cards[entry["id"]] = dict(entry)
    return cards


CARDS = merged()


def _index(cards: dict[str, dict]) -> dict[str, str]:
    index: dict[str, str] = {}
    for cid, card in cards.items():
        for key in [cid, card["name"], *card.get("aliases", [])]:
            k = fold(key)
            assert index.get(k, cid) == cid, f"{key!r} names two cards"
            index[k] = cid
    return index


INDEX = _index(CARDS)
COUNT_LINE = [
    re.compile(r"^(\d+)\s*[xX]?\s+(.+)$"),
    re.compile(r"^(.+?)\s+[xX](\d+)$"),
]


def parse_deck(path: Path) -> tuple[dict[str, str], Counter]:
    headers: dict[str, str] = {}
    deck: Counter = Counter()
    for lineno, raw in enumerate(path.read_text(encoding="utf-8-sig").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#") or line.startswith("//"):
            continue
        m = re.match(r"^([A-Za-z_-]+):\s*(.+)$", line)
        if m and not deck:
            headers[m.group(1).lower()] = m.group(2).strip()
            continue
        if line.endswith(":"):
            continue
        count, name = 1, line
        for i, pattern in enumerate(COUNT_LINE):
            m = pattern.match(line)
            if m:
                count, name = (
                    (int(m.group(1)), m.group(2)) if i == 0 else (int(m.group(2)), m.group(1))
                )
                break
        assert fold(name) in INDEX, f"{path.name}:{lineno}: unknown card {name!r}"
        deck[INDEX[fold(name)]] += count
    return headers, deck


def check(deck: Counter) -> dict:
    """What deckcheck should find: sizes, rarity breaches, undecidable cards, miners."""
    breaches, unknown = [], []
    for cid, n in deck.items():
        rarity = CARDS[cid].get("rarity")
        if rarity is None:
            unknown.append(cid)
        elif LIMIT[rarity] is not None and n > LIMIT[rarity]:
            breaches.append(cid)
    return {
        "size": sum(deck.values()),
        "rarity_breaches": sorted(breaches),
        "rarity_unknown": sorted(unknown),
        "miners_ok": deck["pc/gold-miner"] >= 1 and deck["pc/collector-of-cosmium"] >= 1,
    }


# ------------------------------------------------------------------------------ catalogs


def test_bundled_catalog():
    assert BUNDLED["catalog"]["game"] == "planetary-conquerors"
    cards = {c["id"]: c for c in BUNDLED["cards"]}
    assert set(cards) == {
        "pc/gold-miner",
        "pc/collector-of-cosmium",
        "pc/topdecker",
        "pc/worthy-sacrifice",
    }
    assert cards["pc/gold-miner"]["name"] == "Gold Miner"
    assert cards["pc/collector-of-cosmium"]["name"] == "Collector of Cosmium"
    assert cards["pc/gold-miner"]["type"] == cards["pc/collector-of-cosmium"]["type"] == "miner"
    for cid in ("pc/topdecker", "pc/worthy-sacrifice"):
        assert "type" not in cards[cid] and "rarity" not in cards[cid]
    for card in cards.values():
        assert "rarity" not in card  # the rulebook states no rarity for any of them
        assert not any(k.startswith("cost_") for k in card)


def test_example_set():
    assert EXAMPLE_SET["catalog"]["game"] == "planetary-conquerors"
    header = (EXAMPLES / "example-set.toml").read_text(encoding="utf-8").split("[catalog]")[0]
    assert "NOT the published" in header
    invented = [c for c in EXAMPLE_SET["cards"] if not c["id"].startswith("pc/")]
    assert len(invented) >= 20
    assert {c["type"] for c in invented} == TYPES
    assert {c["rarity"] for c in invented} == {1, 2, 3}
    for card in invented:
        assert card["type"] in TYPES and card["rarity"] in (1, 2, 3), card["id"]
        costs = [k for k in card if k.startswith("cost_")]
        if card["type"] == "trap":
            assert not costs, card["id"]
        else:
            assert sorted(costs) == ["cost_cosmium", "cost_electricity", "cost_gold"], card["id"]
            assert all(isinstance(card[k], int) and 0 <= card[k] <= 6 for k in costs)
            assert sum(card[k] for k in costs) > 0, card["id"]
        assert ("lives" in card) == (card["type"] in ("building", "warrior")), card["id"]
        assert ("attack" in card) == (card["type"] == "warrior"), card["id"]
    assert CARDS["pc/gold-miner"]["rarity"] == 1
    assert CARDS["pc/collector-of-cosmium"]["rarity"] == 1
    assert "rarity" not in CARDS["pc/topdecker"]


# ------------------------------------------------------------------------------ decks


def _load_deck(name: str) -> dict:
    headers, deck = parse_deck(EXAMPLES / name)
    assert headers["game"] == "planetary-conquerors"
    assert headers["catalog"] == "example-set.toml"
    assert (EXAMPLES / name).read_text(encoding="utf-8").startswith("#")
    return check(deck) | {"deck": deck}


@pytest.mark.parametrize("name,size", [("legal-50.txt", 50), ("legal-80.txt", 80)])
def test_legal_decks(name, size):
    r = _load_deck(name)
    assert r["size"] == size
    assert r["rarity_breaches"] == [] and r["rarity_unknown"] == []
    assert r["miners_ok"]


def test_legal_80_uses_every_rarity_at_its_limit():
    deck = _load_deck("legal-80.txt")["deck"]
    by_rarity = Counter()
    for cid, n in deck.items():
        by_rarity[CARDS[cid]["rarity"]] = max(by_rarity[CARDS[cid]["rarity"]], n)
    assert by_rarity[2] == 3 and by_rarity[3] == 1 and by_rarity[1] > 3


def test_illegal_size():
    r = _load_deck("illegal-size.txt")
    assert not 50 <= r["size"] <= 80 and r["size"] == 45
    assert r["rarity_breaches"] == [] and r["rarity_unknown"] == [] and r["miners_ok"]


def test_illegal_rarity():
    r = _load_deck("illegal-rarity.txt")
    assert 50 <= r["size"] <= 80 and r["miners_ok"] and r["rarity_unknown"] == []
    breaches = {cid: (CARDS[cid]["rarity"], r["deck"][cid]) for cid in r["rarity_breaches"]}
    assert sorted(breaches.values()) == [(2, 4), (3, 2)]


def test_illegal_miners():
    r = _load_deck("illegal-miners.txt")
    assert 50 <= r["size"] <= 80 and r["rarity_breaches"] == [] and r["rarity_unknown"] == []
    assert not r["miners_ok"]
    assert r["deck"]["pc/gold-miner"] >= 1 and r["deck"]["pc/collector-of-cosmium"] == 0


def test_unverified_rarity():
    r = _load_deck("unverified-rarity.txt")
    assert 50 <= r["size"] <= 80 and r["miners_ok"] and r["rarity_breaches"] == []
    assert r["rarity_unknown"] == ["pc/topdecker"]
