"""``cards``: several terms that must all hold (``field:value``, number comparisons, parts of
names), one quoted argument holding several terms, and "did you mean" for a search with no
match."""

from __future__ import annotations

from conftest import run_cli, run_json


def test_one_quoted_argument_holds_several_terms() -> None:
    one = run_json(["cards", "stccg", "type:ship affiliation:klingon", "--json"])
    two = run_json(["cards", "stccg", "type:ship", "affiliation:klingon", "--json"])
    assert one == two and one
    assert all(c["type"] == "Ship" and "Klingon" in c["affiliation"] for c in one)


def test_all_terms_must_hold_with_number_comparisons() -> None:
    ships = run_json(["cards", "stccg", "type:ship", "affiliation:klingon", "--json"])
    far = run_json(["cards", "stccg", "type:ship", "affiliation:klingon", "range>=8", "--json"])
    assert far and len(far) < len(ships)
    assert all(c["range"] >= 8 for c in far)
    assert {c["id"] for c in far} == {c["id"] for c in ships if c.get("range", 0) >= 8}
    cheap = run_json(["cards", "dorn", "blood_cost<=3", "--json"])
    assert cheap and all(c["blood_cost"] <= 3 for c in cheap)


def test_parts_of_a_name_must_all_be_in_it() -> None:
    found = run_json(["cards", "stccg", "Klingon", "Outpost", "--json"])
    assert found and all("klingon" in c["name"].lower() for c in found)
    assert all("outpost" in c["name"].lower() for c in found)


def test_a_field_that_holds_no_numbers_is_refused_with_the_nearest() -> None:
    result = run_cli(["cards", "dorn", "cost<=1"])
    assert result.exit_code == 2
    assert "blood_cost" in result.stderr and "number fields" in result.stderr


def test_a_mistyped_name_gets_did_you_mean() -> None:
    result = run_cli(["cards", "rd", "Ren Dhrak"])
    assert "did you mean" in result.stderr and "Ren Dhark" in result.stderr
    result = run_cli(["cards", "stccg", "Worff"])
    assert "did you mean" in result.stderr and "Worf" in result.stderr


def test_an_exact_name_is_still_shown_alone() -> None:
    result = run_cli(["cards", "stccg", "Klingon Outpost"], env={"COLUMNS": "120"})
    assert result.exit_code == 0
    assert "affiliation" in result.stdout and "cards" not in result.stdout.split("\n")[0]


def test_cards_rejects_a_field_as_odds_does() -> None:
    result = run_cli(["cards", "ren-dhark", "colr:red"])
    assert result.exit_code == 2 and "colour:red" in result.stderr


def test_cards_exact_match_is_shown_alone_in_full() -> None:
    found = run_json(["cards", "the-drake", "Monk", "--json"])
    assert [c["name"] for c in found] == ["Monk"]
