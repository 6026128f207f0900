"""``odds``, ``simulate`` and ``hand`` end to end (CliRunner, ``--json``) and through the library.

Expected values are computed here independently (``math.comb`` and ``fractions``), or are the
published 6-decimal values of plain hypergeometric draws. Decks are written to ``tmp_path``.
Every simulation is seeded.
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from conftest import EXAMPLES, invoke, run_cli, run_json

from deckcheck.analysis.odds import OddsOptions, compute_odds
from deckcheck.analysis.setup import draw_setup
from deckcheck.cli.render import _percent, digits
from deckcheck.decks.load import open_deck
from deckcheck.games.registry import get_game

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE_SET = ROOT / "examples" / "planetary-conquerors" / "example-set.toml"
RD = str(EXAMPLES / "ren-dhark/terra-custom.txt")
PC = str(EXAMPLES / "planetary-conquerors/legal-50.txt")
STCCG = str(EXAMPLES / "stccg-1e/legal-federation.txt")
TOLERANCE = 4.5  # standard errors


def odds(deck: Path | str, *args: str) -> Any:
    return run_json(["odds", str(deck), *args, "--json"])


def hyper(total: int, good: int, drawn: int, k: int) -> Fraction:
    """P(exactly k good cards among ``drawn`` from ``total`` holding ``good``)."""
    return Fraction(
        math.comb(good, k) * math.comb(total - good, drawn - k), math.comb(total, drawn)
    )


def at_least(total: int, good: int, drawn: int, k: int) -> Fraction:
    return sum((hyper(total, good, drawn, j) for j in range(k, min(good, drawn) + 1)), Fraction(0))


def exact_of(data: dict[str, Any]) -> Fraction:
    text = data["probability_exact"]
    assert isinstance(text, str) and "/" in text
    p, q = text.split("/")
    value = Fraction(int(p), int(q))
    assert float(value) == pytest.approx(data["probability"], abs=1e-12)
    return value


# ============================================================ STCCG: published values

EVENT_24 = "101_066"  # Alien Probe (Premiere Event), 24 copies
OTHERS = [
    "101_055",
    "101_056",
    "101_057",
    "101_058",
    "101_107",
    "101_108",
    "101_109",
    "101_110",
    "101_067",
]  # 9 Premiere draw-deck cards, 4 copies each = 36


def stccg_deck(tmp_path: Path, *, seeds: bool = False) -> Path:
    lines = [
        "game: stccg-1e",
        "variant: advanced",
        f"24 {EVENT_24}",
        *(f"4 {card}" for card in OTHERS),
    ]
    if seeds:  # set aside before the shuffle: never drawn
        lines += ["1 101_146", "1 101_147", "1 101_148", "1 101_149", "1 101_104", "3 101_010"]
    path = tmp_path / ("seeded.txt" if seeds else "draw60.txt")
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("condition", "published"),
    [
        ("Alien Probe<=0", 0.021615),
        ("Alien Probe=0", 0.021615),
        ("id:101_066==0", 0.021615),
        ("Alien Probe=3", 0.308704),
        ("Alien Probe>=5", 0.082777),
        ("Alien Probe>4", 0.082777),
        ("alien probe<5", 1 - 0.082777),
    ],
)
def test_stccg_published_single_card(tmp_path: Path, condition: str, published: float) -> None:
    setup = draw_setup(open_deck(str(stccg_deck(tmp_path))))
    assert setup.pile_size == 60 and setup.set_aside == ()
    report = compute_odds(setup, [condition], OddsOptions())
    assert report.cards_seen == 7
    assert report.exact
    assert round(report.probability, 6) == pytest.approx(published, abs=1e-9)
    assert report.probability == report.probability_without_mulligan  # STCCG: no mulligan


def test_stccg_two_four_ofs_together(tmp_path: Path) -> None:
    data = odds(stccg_deck(tmp_path), "id:101_055>=1", "id:101_056>=1")
    assert round(data["probability"], 6) == 0.145406
    assert data["cards_seen"] == 7
    assert data["probability"] == data["probability_without_mulligan"]
    assert exact_of(data) == 1 - 2 * hyper(60, 4, 7, 0) + hyper(60, 8, 7, 0)


def test_stccg_seed_cards_are_set_aside(tmp_path: Path) -> None:
    data = odds(stccg_deck(tmp_path, seeds=True), "Alien Probe=3")
    assert data["deck_size"] == 68 and data["pile_size"] == 60
    assert round(data["probability"], 6) == 0.308704
    (aside,) = [line for line in data["assumptions"] if line.startswith("set aside")]
    assert aside.startswith("set aside: 4 missions (seeded: the space line), 4 seed cards")
    none = odds(stccg_deck(tmp_path, seeds=True), "type:Mission>=1")
    assert none["probability"] == 0.0
    # Each set-aside card in the JSON too: 4 missions, 1 Outpost and 3 copies of a dilemma.
    assert sum(a["count"] for a in data["set_aside"]) == 8
    assert {a["id"] for a in data["set_aside"]} >= {"101_146", "101_104", "101_010"}


def test_many_set_aside_cards_are_summed_up_and_listed_in_json(tmp_path: Path) -> None:
    """A deck seeding hundreds of cards gets one line summing them up by reason (and a
    condition on them names the first few), not a line per card; the JSON lists each."""
    from deckcheck.analysis.odds import SET_ASIDE_LISTED, SET_ASIDE_NAMED

    missions = run_json(["cards", "stccg-1e", "type:Mission", "--json"])
    ids = [c["id"] for c in missions][: SET_ASIDE_LISTED + 5]
    deck = stccg_deck(tmp_path)
    deck.write_text(
        deck.read_text(encoding="utf-8") + "".join(f"2 {i}\n" for i in ids), encoding="utf-8"
    )
    data = odds(deck, "Alien Probe=3", "type:Mission>=1")
    aside = [line for line in data["assumptions"] if line.startswith("set aside")]
    assert len(aside) == 1
    assert aside[0].startswith(f"set aside: {2 * len(ids)} missions (seeded: the space line)")
    assert sum(a["count"] for a in data["set_aside"]) == 2 * len(ids)
    assert data["deck_size"] - data["pile_size"] == 2 * len(ids)
    (never,) = [line for line in data["assumptions"] if line.startswith("type:Mission>=1:")]
    assert (
        never.count("2× ") == SET_ASIDE_NAMED and f"and {len(ids) - SET_ASIDE_NAMED} more" in never
    )


def test_stccg_turns(tmp_path: Path) -> None:
    deck = stccg_deck(tmp_path)
    turn3 = odds(deck, "Alien Probe>=5", "--turn", "3")
    assert turn3["cards_seen"] == 9 and turn3["turn"] == 3
    assert exact_of(turn3) == at_least(60, 24, 9, 5)
    assert odds(deck, "Alien Probe>=5", "--seen", "9")["probability"] == turn3["probability"]
    assert odds(deck, "Alien Probe>=5", "--second")["cards_seen"] == 7  # no second-player bonus


# =========================================================================== Ren Dhark


def ren_dhark_deck(tmp_path: Path) -> Path:
    """The blue cards once each, the six actions twice, the planet: 40 cards, 39 drawn from."""
    ids = [f"I/{i}" for i in range(1, 34)] + [f"I/{i}" for i in range(28, 34)] + ["I/67"]
    path = tmp_path / "rd.txt"
    path.write_text("game: ren-dhark\nvariant: custom\n" + "\n".join(ids) + "\n", encoding="utf-8")
    return path


RD_PILE, RD_SHIPS, RD_ACTIONS = 39, 15, 12  # I/11 is ship and unit: a ship


def rd_no_trigger(seen: int = 7) -> Fraction:
    """P(the hand allows no redraw): at least 2 ships and at most 3 actions."""
    others = RD_PILE - RD_SHIPS - RD_ACTIONS
    total = Fraction(0)
    for s in range(2, seen + 1):
        for a in range(0, min(3, seen - s) + 1):
            total += Fraction(
                math.comb(RD_SHIPS, s) * math.comb(RD_ACTIONS, a) * math.comb(others, seen - s - a),
                math.comb(RD_PILE, seen),
            )
    return total


def test_ren_dhark_catalog_counts() -> None:
    catalog = get_game("ren-dhark").bundled_catalog()
    blue = [catalog.by_id(f"I/{i}") for i in range(1, 34)]
    assert sum(c is not None and c.has_type("ship") for c in blue) == RD_SHIPS
    assert sum(c is not None and c.has_type("action") for c in blue) == 6


def test_ren_dhark_planet_set_aside(tmp_path: Path) -> None:
    data = odds(ren_dhark_deck(tmp_path), "type:ship>=2")
    assert data["deck_size"] == 40 and data["pile_size"] == RD_PILE
    assert data["cards_seen"] == 7
    assert data["mulligan"] == "rules"
    assert any("Terra (Sol III)" in line for line in data["assumptions"])
    assert odds(ren_dhark_deck(tmp_path), "type:planet>=1")["probability"] == 0.0


def test_ren_dhark_without_mulligan(tmp_path: Path) -> None:
    deck = ren_dhark_deck(tmp_path)
    rules = odds(deck, "type:ship>=2")
    plain = odds(deck, "type:ship>=2", "--mulligan", "none")
    assert plain["mulligan"] == "none"
    assert plain["probability"] == plain["probability_without_mulligan"]
    assert plain["probability"] == rules["probability_without_mulligan"]
    assert exact_of(plain) == at_least(RD_PILE, RD_SHIPS, 7, 2)


def test_ren_dhark_redraw_raises_the_probability(tmp_path: Path) -> None:
    deck = ren_dhark_deck(tmp_path)
    rules = odds(deck, "type:ship>=2", "--redraw-policy", "always")
    assert rules["probability"] > rules["probability_without_mulligan"]
    ok, q = rd_no_trigger(), at_least(RD_PILE, RD_SHIPS, 7, 2)
    # redraw whenever allowed, at most once
    assert exact_of(rules) == ok + (1 - ok) * q


@pytest.mark.parametrize("redraws", [0, 1, 2, 3])
def test_ren_dhark_redraw_limit(tmp_path: Path, redraws: int) -> None:
    data = odds(
        ren_dhark_deck(tmp_path),
        "type:ship>=2",
        "--redraws",
        str(redraws),
        "--redraw-policy",
        "always",
    )
    ok, q = rd_no_trigger(), at_least(RD_PILE, RD_SHIPS, 7, 2)
    assert exact_of(data) == 1 - (1 - ok) ** redraws * (1 - q)


def test_ren_dhark_redraws_zero_none_unlimited(tmp_path: Path) -> None:
    deck = ren_dhark_deck(tmp_path)
    always = ("--redraw-policy", "always")
    zero = odds(deck, "type:ship>=2", "--redraws", "0", *always)
    none = odds(deck, "type:ship>=2", "--mulligan", "none")
    one = odds(deck, "type:ship>=2", "--redraws", "1", *always)
    unlimited = odds(deck, "type:ship>=2", "--redraws", "unlimited", *always)
    assert zero["probability"] == pytest.approx(none["probability"], abs=1e-12)
    assert unlimited["probability"] >= one["probability"] > zero["probability"]
    # with unlimited redraws the kept hand never triggers, so it always holds 2 ships
    assert unlimited["probability"] == pytest.approx(1.0, abs=1e-12)
    cond = odds(deck, "type:action>=4", "--redraws", "unlimited", *always)
    assert cond["probability"] == pytest.approx(0.0, abs=1e-12)
    # The redraw is optional: by default a hand with 4+ actions is kept when that is the goal.
    best = odds(deck, "type:action>=4", "--redraws", "unlimited")
    assert best["probability"] >= best["probability_without_mulligan"] > 0


def test_ren_dhark_turn_three_sees_eleven(tmp_path: Path) -> None:
    deck = ren_dhark_deck(tmp_path)
    turn = odds(deck, "type:ship>=4", "--turn", "3")
    assert turn["cards_seen"] == 11  # blue: 7 + 2(t - 1)
    seen = odds(deck, "type:ship>=4", "--seen", "11")
    assert seen["probability"] == pytest.approx(turn["probability"], abs=1e-12)
    plain = odds(deck, "type:ship>=4", "--turn", "3", "--mulligan", "none")
    assert exact_of(plain) == at_least(RD_PILE, RD_SHIPS, 11, 4)
    assert odds(deck, "type:ship>=4", "--turn", "1")["cards_seen"] == 7


@pytest.mark.parametrize(
    "args",
    [
        ["--redraws", "many"],
        ["--redraws", "-1"],
        ["--mulligan", "sometimes"],
        ["--seen", "40"],
        ["--seen", "5"],
        ["--turn", "0"],
        ["--seen", "8", "--turn", "2"],
    ],
)
def test_ren_dhark_bad_options(tmp_path: Path, args: list[str]) -> None:
    result = invoke(["odds", str(ren_dhark_deck(tmp_path)), "type:ship>=2", *args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)


# =========================================================================== Planetary Conquerors

PC_CARDS = {
    "Gold Miner": 2,
    "Collector of Cosmium": 2,
    "Deep Drill": 3,
    "Cosmium Siphon": 3,
    "Stone Bunker": 4,
    "Watchtower": 3,
    "Mud Hut": 2,
    "Power Plant": 2,
    "Sky Citadel": 1,
    "Trooper": 4,
    "Raider": 4,
    "Scout Drone": 2,
    "Lancer": 3,
    "Shield Bearer": 2,
    "Iron Warlord": 1,
    "Pitfall": 3,
    "Snare Net": 2,
    "Spike Field": 1,
    "Quick Repair": 2,
    "Power Surge": 2,
    "Sabotage": 1,
    "Meteor Strike": 1,
}
PC_PILE, PC_WARRIORS = 48, 16


def pc_deck(tmp_path: Path, cards: dict[str, int] | None = None, name: str = "pc.txt") -> Path:
    cards = PC_CARDS if cards is None else cards
    lines = [
        "game: planetary-conquerors",
        f"catalog: {EXAMPLE_SET}",
        "",
        *(f"{n} {card}" for card, n in cards.items()),
    ]
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_pc_starting_miners_set_aside(tmp_path: Path) -> None:
    data = odds(pc_deck(tmp_path), "type:warrior>=2")
    assert sum(PC_CARDS.values()) == 50
    assert data["deck_size"] == 50 and data["pile_size"] == PC_PILE
    assert data["cards_seen"] == 5
    # one of each starting miner goes to the mine, the second copy stays in the pile
    miner = odds(pc_deck(tmp_path), "id:pc/gold-miner>=1", "--mulligan", "none")
    assert exact_of(miner) == Fraction(5, 48)
    single = dict(PC_CARDS, **{"Gold Miner": 1, "Trooper": 5})
    alone = odds(pc_deck(tmp_path, single, "single.txt"), "Gold Miner>=1")
    assert alone["probability"] == 0.0


def test_pc_plain_draw(tmp_path: Path) -> None:
    first = odds(pc_deck(tmp_path), "type:warrior>=2", "--mulligan", "none")
    assert exact_of(first) == at_least(PC_PILE, PC_WARRIORS, 5, 2)
    second = odds(pc_deck(tmp_path), "type:warrior>=2", "--mulligan", "none", "--second")
    assert second["cards_seen"] == 6 and second["second"] is True
    assert exact_of(second) == at_least(PC_PILE, PC_WARRIORS, 6, 2)


@pytest.mark.parametrize(("extra", "hand"), [([], 5), (["--second"], 6)])
def test_pc_mulligan_return_three(tmp_path: Path, extra: list[str], hand: int) -> None:
    data = odds(pc_deck(tmp_path), "type:warrior>=1", *extra)
    assert data["cards_seen"] == hand
    # no warrior in hand: return 3 cards, shuffle them back, draw 3 from the pile they joined
    back = PC_PILE - hand + 3
    miss = hyper(PC_PILE, PC_WARRIORS, hand, 0) * hyper(back, PC_WARRIORS, 3, 0)
    assert exact_of(data) == 1 - miss
    assert data["probability"] > data["probability_without_mulligan"]


def test_pc_mulligan_raises_the_probability(tmp_path: Path) -> None:
    deck = pc_deck(tmp_path)
    for extra in ([], ["--second"]):
        data = odds(deck, "type:warrior>=2", *extra)
        assert data["mulligan"] == "rules"
        assert data["probability"] > data["probability_without_mulligan"]
        plain = odds(deck, "type:warrior>=2", "--mulligan", "none", *extra)
        assert plain["probability"] == pytest.approx(data["probability_without_mulligan"])
        exact_of(data)


def test_pc_turns_with_look_ahead(tmp_path: Path) -> None:
    deck = pc_deck(tmp_path)
    turn2 = odds(deck, "type:warrior>=3", "--turn", "2", "--mulligan", "none")
    assert turn2["cards_seen"] == 7
    # the look-ahead keep can only help: at least the plain 7-card draw
    assert turn2["probability"] >= float(at_least(PC_PILE, PC_WARRIORS, 7, 3)) - 1e-12
    assert odds(deck, "type:warrior>=3", "--turn", "2", "--second")["cards_seen"] == 8


# =========================================================================== built-in piles


def test_drake_stack_leader() -> None:
    data = odds("the-drake:stack", "name:Drake>=1")
    assert data["probability_exact"] == "1/7"
    assert data["cards_seen"] == 1 and data["pile_size"] == 7
    clubman = odds("the-drake:stack", "Clubman>=1")
    assert exact_of(clubman) == Fraction(2, 7)


def test_dorn_rituals() -> None:
    data = odds("dorn:rituals", "id:ritual/bloodlust>=1")
    assert data["cards_seen"] == 6 and data["pile_size"] == 12
    assert exact_of(data) == Fraction(1, 2)
    two = odds("dorn:rituals", "id:ritual/bloodlust>=1", "id:ritual/zombie-frenzy>=1")
    assert exact_of(two) == Fraction(math.comb(10, 4), math.comb(12, 6))
    all_twelve = odds("dorn:rituals", "type:ritual=12", "--seen", "12")
    assert all_twelve["probability"] == 1.0


def test_dorn_blessings_default_seen() -> None:
    data = odds("dorn:blessings", "id:blessing/firm-roots>=1")
    assert data["cards_seen"] == 5 and data["pile_size"] == 12
    assert exact_of(data) == Fraction(5, 12)
    four = odds("dorn:blessings", "id:blessing/firm-roots>=1", "--seen", "4")
    assert exact_of(four) == Fraction(4, 12)


def test_dorn_heroes() -> None:
    data = odds("dorn:heroes", "recommended:true>=3")
    assert data["cards_seen"] == 5 and data["pile_size"] == 9
    assert exact_of(data) == at_least(9, 5, 5, 3)
    assert exact_of(odds("dorn:heroes", "Ragnar>=1")) == Fraction(5, 9)


@pytest.mark.parametrize(
    "args",
    [
        ["dorn:rituals", "type:ritual>=1", "--turn", "2"],
        ["dorn:rituals", "type:ritual>=1", "--seen", "13"],
        ["dorn:nothing", "type:ritual>=1"],
        ["dorn:rituals", "Ragnarok>=1"],
    ],
)
def test_pile_errors(args: list[str]) -> None:
    result = invoke(["odds", *args])
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output


# =========================================================================== bad conditions


@pytest.mark.parametrize(
    "condition",
    [
        "type:ship>=banana",
        ">=2",
        "No Such Card>=1",
        "type:ship",
        "type:ship>=-1",
        "nosuchfield:x>=1",
        "id:I/999>=1",
        "type:ship>=2.5",
        "",
    ],
)
@pytest.mark.parametrize("command", ["odds", "simulate"])
def test_bad_conditions_exit_2(tmp_path: Path, command: str, condition: str) -> None:
    args = [command, str(ren_dhark_deck(tmp_path)), condition, "--json"]
    if command == "simulate":
        args += ["--trials", "100", "--seed", "1"]
    result = invoke(args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    assert result.stdout.strip() == ""  # no half-written JSON


def test_missing_deck_file_exit_2(tmp_path: Path) -> None:
    result = invoke(["odds", str(tmp_path / "nope.txt"), "type:ship>=2"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_dorn_party_is_not_drawn_from(tmp_path: Path) -> None:
    party = tmp_path / "party.txt"
    party.write_text("game: dorn\nRagnar\nGor\nRiel\nChoros\nAlmanor\n", encoding="utf-8")
    result = invoke(["odds", str(party), "type:hero>=1"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


# =========================================================================== simulate


def _agrees(sim: dict[str, Any], exact: dict[str, Any], key: str = "probability") -> None:
    p, n = exact[key], sim["trials"]
    se = math.sqrt(max(p * (1 - p), 1e-12) / n)
    assert abs(sim[key] - p) <= TOLERANCE * se + 1e-12, (sim[key], p, se)


@pytest.mark.parametrize(
    ("deck", "conditions", "extra"),
    [
        ("rd", ["type:ship>=2"], []),
        ("rd", ["type:ship>=3", "type:action<=1"], ["--turn", "2"]),
        ("rd", ["type:ship>=2"], ["--redraws", "unlimited"]),
        ("pc", ["type:warrior>=2"], []),
        ("pc", ["type:warrior>=1", "type:spell>=1"], ["--second"]),
        ("stccg", ["Alien Probe=3"], []),
        ("pile", ["id:ritual/bloodlust>=1"], []),
    ],
)
def test_simulate_agrees_with_odds(
    tmp_path: Path, deck: str, conditions: list[str], extra: list[str]
) -> None:
    path = {
        "rd": lambda: str(ren_dhark_deck(tmp_path)),
        "pc": lambda: str(pc_deck(tmp_path)),
        "stccg": lambda: str(stccg_deck(tmp_path)),
        "pile": lambda: "dorn:rituals",
    }[deck]()
    exact = run_json(["odds", path, *conditions, *extra, "--json"])
    sim = run_json(
        ["simulate", path, *conditions, *extra, "--seed", "1", "--trials", "200000", "--json"]
    )
    assert sim["exact"] is False
    assert sim["trials"] == 200_000 and sim["seed"] == 1
    assert sim["cards_seen"] == exact["cards_seen"]
    assert sim["conditions"] == exact["conditions"]
    low, high = sim["ci95"]
    assert 0.0 <= low <= sim["probability"] <= high <= 1.0
    _agrees(sim, exact)
    _agrees(sim, exact, "probability_without_mulligan")


def test_simulate_same_seed_same_result(tmp_path: Path) -> None:
    deck = str(ren_dhark_deck(tmp_path))
    args = ["simulate", deck, "type:ship>=2", "--seed", "7", "--trials", "50000", "--json"]
    first, again = run_json(args), run_json(args)
    assert first == again
    other = run_json([*args[:4], "8", *args[5:]])
    assert other["seed"] == 8
    assert other["probability"] != first["probability"]


def test_simulate_bad_trials(tmp_path: Path) -> None:
    result = invoke(["simulate", str(ren_dhark_deck(tmp_path)), "type:ship>=2", "--trials", "0"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


# =========================================================================== hand


def test_hand_deterministic_and_sized(tmp_path: Path) -> None:
    deck = str(ren_dhark_deck(tmp_path))
    args = ["hand", deck, "--seed", "5", "--count", "3", "--json"]
    first, again = run_json(args), run_json(args)
    assert first == again
    assert first["seed"] == 5 and first["hand_size"] == 7
    assert len(first["hands"]) == 3
    for hand in first["hands"]:
        assert len(hand["first"]) == 7 and len(hand["kept"]) == 7
        assert "I/67" not in hand["kept"] and "I/67" not in hand["first"]  # the planet
    assert run_json(["hand", deck, "--seed", "6", "--count", "3", "--json"]) != first


def _rd_triggers(ids: Sequence[str]) -> bool:
    catalog = get_game("ren-dhark").bundled_catalog()
    cards = [catalog.by_id(i) for i in ids]
    ships = sum(c is not None and c.has_type("ship") for c in cards)
    actions = sum(c is not None and c.has_type("action") for c in cards)
    return ships < 2 or actions > 3


def test_hand_ren_dhark_redraw_decisions(tmp_path: Path) -> None:
    data = run_json(
        ["hand", str(ren_dhark_deck(tmp_path)), "--seed", "3", "--count", "300", "--json"]
    )
    redrawn = 0
    for hand in data["hands"]:
        decisions = hand["decisions"]
        assert len(hand["kept"]) == 7
        if not _rd_triggers(hand["first"]):
            assert decisions == ["kept: the rule offers no redraw for this hand"]
            assert hand["kept"] == hand["first"]
            continue
        redrawn += 1
        assert decisions[0].startswith("redraw"), decisions
        final = decisions[-1]
        if "no redraws left" in final:
            assert _rd_triggers(hand["kept"])
        else:
            assert final.startswith("kept"), decisions
            assert not _rd_triggers(hand["kept"]), (hand["kept"], decisions)
        assert len(decisions) == 2  # at most one redraw by default
    assert redrawn >= 10, "the seed gave too few redraws to test anything"


def test_hand_mulligan_none(tmp_path: Path) -> None:
    data = run_json(
        [
            "hand",
            str(ren_dhark_deck(tmp_path)),
            "--seed",
            "3",
            "--count",
            "50",
            "--mulligan",
            "none",
            "--json",
        ]
    )
    for hand in data["hands"]:
        assert hand["kept"] == hand["first"]
        assert not any(d.startswith("redraw") for d in hand["decisions"])


@pytest.mark.parametrize(("extra", "size"), [([], 5), (["--second"], 6)])
def test_hand_planetary_conquerors(tmp_path: Path, extra: list[str], size: int) -> None:
    deck = str(pc_deck(tmp_path))
    args = ["hand", deck, "type:warrior>=2", "--seed", "5", "--count", "40", *extra, "--json"]
    data = run_json(args)
    assert data == run_json(args)
    assert data["hand_size"] == size
    catalog = get_game("planetary-conquerors").catalog([EXAMPLE_SET])
    returned_some = False
    for hand in data["hands"]:
        assert len(hand["first"]) == size and len(hand["kept"]) == size
        assert len(hand["returned"]) in (0, 3)
        returned_some |= bool(hand["returned"])
        warriors = sum(
            catalog.by_id(i).has_type("warrior")  # type: ignore[union-attr]
            for i in hand["kept"]
        )
        assert hand["goal_met"] == (warriors >= 2)
        if hand["returned"]:
            kept_of_first = list(hand["first"])
            for card in hand["returned"]:
                kept_of_first.remove(card)
            for card in kept_of_first:
                assert card in hand["kept"]
    assert returned_some


def test_hand_from_a_pile() -> None:
    data = run_json(["hand", "dorn:heroes", "--seed", "2", "--count", "4", "--json"])
    for hand in data["hands"]:
        assert len(hand["kept"]) == 5
        assert len(set(hand["kept"])) == 5
        assert all(card.startswith("hero/") for card in hand["kept"])


def test_hand_bad_count(tmp_path: Path) -> None:
    result = invoke(["hand", str(ren_dhark_deck(tmp_path)), "--count", "0"])
    assert result.exit_code == 2
    assert "Traceback" not in result.output


def test_pc_look_ahead_helps_avoid_cards(tmp_path: Path) -> None:
    traps = 6
    data = odds(pc_deck(tmp_path), "type:trap=0", "--turn", "3", "--mulligan", "none")
    assert data["cards_seen"] == 9
    blind = float(hyper(PC_PILE, traps, 9, 0))
    # two look-aheads (turns 2 and 3): each can put a trap under instead of drawing it
    assert data["probability"] > blind + 0.01


def test_pc_look_ahead_never_worse_than_blind(tmp_path: Path) -> None:
    deck = pc_deck(tmp_path)
    for condition, blind in [
        ("type:trap=0", hyper(PC_PILE, 6, 9, 0)),
        ("type:warrior>=4", at_least(PC_PILE, PC_WARRIORS, 9, 4)),
    ]:
        data = odds(deck, condition, "--turn", "3", "--mulligan", "none")
        assert data["probability"] >= float(blind) - 1e-12, condition


# =========================================================================== real Lackey deck


def test_stccg_lackey_deck_draw_pile() -> None:
    path = ROOT.parent / "shared" / "data" / "stccg-1e" / "lackey-decks" / "simple-federation.txt"
    if not path.is_file():
        pytest.skip(f"{path} is not available")
    from deckcheck.decks.load import load_deck

    deck = load_deck(path).deck
    seed_types = ("Mission", "Dilemma", "Artifact", "Outpost", "Facility")
    # Seeded: the seed types, and whatever the file writes in its seed or mission zone.
    seeds = sum(
        e.count
        for e in deck.entries
        if e.zone in ("Missions", "Seed+Dil") or any(e.card.has_type(t) for t in seed_types)
    )
    data = odds(path, "type:Personnel>=3", "--turn", "2")
    assert data["game"] == "stccg-1e"
    assert data["deck_size"] == deck.size
    assert data["pile_size"] == deck.size - seeds
    assert data["cards_seen"] == 8
    personnel = deck.count_where(lambda c: c.has_type("Personnel"))
    assert exact_of(data) == at_least(deck.size - seeds, personnel, 8, 3)


def _kira_deck(tmp_path: Path) -> Path:
    path = tmp_path / "kira.txt"
    path.write_text("game: stccg-1e\nvariant: advanced\n4\tKira**\n56\t101_055\n", encoding="utf-8")
    return path


def test_stccg_condition_by_catalog_name(tmp_path: Path) -> None:
    data = odds(_kira_deck(tmp_path), "Kira>=1")
    assert exact_of(data) == 1 - hyper(60, 4, 7, 0)


def test_stccg_condition_by_deck_spelling(tmp_path: Path) -> None:
    data = odds(_kira_deck(tmp_path), "Kira**>=1")
    assert exact_of(data) == 1 - hyper(60, 4, 7, 0)


def test_a_reported_seed_can_be_passed_back() -> None:
    first = invoke(["simulate", RD, "type:ship>=2", "--trials", "2000", "--json"])
    assert first.exit_code == 0, first.output
    data = json.loads(first.stdout)
    assert 0 <= data["seed"] < 2**31
    again = invoke(
        ["simulate", RD, "type:ship>=2", "--trials", "2000", "--json", "--seed", str(data["seed"])],
    )
    assert again.exit_code == 0
    assert json.loads(again.stdout)["probability"] == data["probability"]


def test_a_set_aside_type_is_said_never_drawn() -> None:
    data = run_json(["odds", RD, "type:planet>=1", "--json"])
    assert data["probability"] == 0
    assert any("never drawn" in line and "Terra" in line for line in data["assumptions"])


@pytest.mark.parametrize(
    ("p", "shown"),
    [(0.99996, "0.99996"), (0.999999996, "0.999999996"), (1.0, "1.0000"), (0.00004, "0.00004")],
)
def test_digits_tell_a_near_certainty_from_certainty(p: float, shown: str) -> None:
    assert digits(p, 4) == shown
    assert _percent(0.99996) == "99.996 %"


def test_redraws_without_a_redraw_rule_is_refused() -> None:
    result = run_cli(["odds", PC, "type:warrior>=1", "--redraws", "2"])
    assert result.exit_code == 2
    assert "--redraws" in result.stderr and "not a redraw" in result.stderr


@pytest.mark.parametrize(
    ("condition", "says"),
    [
        ("ship>=2", "did you mean: type:ship?"),
        ("colr:red>=1", "no field 'colr' (did you mean colour:red?)"),
        ("type:ship=>2", "did you mean 'type:ship>=2'?"),
        ("type:>=2", "names the field type but no value"),
    ],
)
@pytest.mark.parametrize("command", ["odds", "simulate", "hand"])
def test_one_set_of_condition_messages(command: str, condition: str, says: str) -> None:
    extra = ["--trials", "100"] if command == "simulate" else []
    result = run_cli([command, RD, condition, *extra])
    assert result.exit_code == 2
    assert says in " ".join(result.stderr.split())


def test_field_suggestion_for_an_abbreviated_field() -> None:
    result = run_cli(["odds", STCCG, "affil:klingon>=2"])
    assert result.exit_code == 2 and "affiliation:klingon" in result.stderr


def test_redraws_zero_says_no_redraw_before_the_rule_that_promises_one() -> None:
    result = run_cli(
        [
            "odds",
            EXAMPLES / "ren-dhark" / "terra-custom.txt",
            "type:ship>=2",
            "--redraws",
            "0",
        ]
    )
    assert result.exit_code == 0, result.output
    assert "mulligan: no redraw (at most 0 allowed here); the game's rule:" in result.stdout
    assert "(the redraw is optional), at most 0" not in " ".join(result.stdout.split())
