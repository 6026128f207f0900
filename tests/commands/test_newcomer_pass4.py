"""A newcomer's fourth pass (issue 41): each item's command as the newcomer typed it, in
process, on small decks."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from conftest import EXAMPLES, run_cli, run_json

PC_SET = EXAMPLES / "planetary-conquerors" / "example-set.toml"


# --- 1. overlays that stick ------------------------------------------------------------------


def test_add_with_catalog_records_the_overlay_so_the_deck_reads_back(tmp_path: Path) -> None:
    shutil.copy(PC_SET, tmp_path / "pc-set.toml")
    deck = tmp_path / "pc.txt"
    assert run_cli(["new", "pc", "-o", deck]).exit_code == 0
    added = run_cli(["add", deck, "Deep Drill", "3", "--catalog", tmp_path / "pc-set.toml"])
    assert added.exit_code == 0, added.output
    assert "catalog: pc-set.toml" in deck.read_text(encoding="utf-8")
    assert "recorded" in added.stdout
    checked = run_json(["validate", deck, "--json"], code=1)  # too small, yet it reads
    assert checked["card_count"] == 3
    # Named once: a second add with the same overlay leaves the header alone.
    run_cli(["add", deck, "Gold Miner", "--catalog", tmp_path / "pc-set.toml"])
    assert deck.read_text(encoding="utf-8").count("pc-set.toml") == 1


def test_add_with_catalog_to_a_toml_deck_and_a_refusal_for_json(tmp_path: Path) -> None:
    shutil.copy(PC_SET, tmp_path / "pc-set.toml")
    for name in ("pc.toml", "pc.json"):
        assert run_cli(["new", "pc", "-o", tmp_path / name]).exit_code == 0
    toml = run_cli(["add", tmp_path / "pc.toml", "Deep Drill", "-c", tmp_path / "pc-set.toml"])
    assert toml.exit_code == 0, toml.output
    assert run_cli(["validate", tmp_path / "pc.toml"]).exit_code == 1
    before = (tmp_path / "pc.json").read_bytes()
    refused = run_cli(["add", tmp_path / "pc.json", "Deep Drill", "-c", tmp_path / "pc-set.toml"])
    assert refused.exit_code == 2
    assert "catalog" in refused.stderr and "nothing was changed" in refused.stderr
    assert (tmp_path / "pc.json").read_bytes() == before


def test_new_takes_catalog_and_names_it_in_the_header(tmp_path: Path) -> None:
    shutil.copy(PC_SET, tmp_path / "pc-set.toml")
    deck = tmp_path / "pc.txt"
    made = run_cli(["new", "pc", "-o", deck, "--catalog", tmp_path / "pc-set.toml"])
    assert made.exit_code == 0, made.output
    assert "catalog: pc-set.toml" in deck.read_text(encoding="utf-8")
    assert run_cli(["add", deck, "Deep Drill", "3"]).exit_code == 0


def test_add_without_catalog_hints_at_overlays_where_the_catalog_is_partial(
    tmp_path: Path,
) -> None:
    deck = tmp_path / "pc.txt"
    run_cli(["new", "pc", "-o", deck])
    refused = run_cli(["add", deck, "Deep Drill", "3"])
    assert refused.exit_code == 2
    assert "--catalog" in refused.stderr and "rulebook" in refused.stderr
    rd = tmp_path / "rd.txt"
    run_cli(["new", "ren-dhark", "-o", rd])
    other = run_cli(["add", rd, "Deep Drill"])
    assert other.exit_code == 2 and "--catalog" not in other.stderr


# --- 2. tune's best legal count --------------------------------------------------------------


def _rd_33(tmp_path: Path) -> Path:
    """A 33-card Ren Dhark deck with 4 actions (at most 6 allowed, 28 places taken by the
    15 ships, 12 persons/units and the planet the rules ask for)."""
    shutil.copy(EXAMPLES / "ren-dhark" / "resource-points.toml", tmp_path)
    text = (EXAMPLES / "ren-dhark" / "terra-custom.txt").read_text(encoding="utf-8")
    text = text.replace("Zlatý člověk x2", "Zlatý člověk").replace("\nNOGK\n", "\n2 NOGK\n")
    deck = tmp_path / "rd.txt"
    deck.write_text(text, encoding="utf-8")
    return deck


def test_tune_shows_the_legal_rows_and_the_best_legal_count(tmp_path: Path) -> None:
    deck = _rd_33(tmp_path)
    args = ["tune", deck, "type:action>=2", "--target", "90%", "--turn", "2"]
    rep = run_json([*args, "--json"])
    assert rep["answer"] == 11 and rep["answer_legal"] is False
    assert rep["best_legal"] == 5
    counts = [r["count"] for r in rep["rows"]]
    assert 5 in counts and 11 in counts
    five = next(r for r in rep["rows"] if r["count"] == 5)
    assert five["legal"] is True
    assert rep["best_legal_probability"] == five["probability"]
    assert all(r["legal"] is False for r in rep["rows"] if r["count"] > 5)
    shown = run_cli(args).stdout
    assert "best legal" in shown and "5" in shown


# --- 3. a hand as dealt, then the return, then the hand kept ----------------------------------


def test_planetary_conquerors_hand_shows_the_dealt_hand_then_the_return_then_the_kept_hand() -> (
    None
):
    deck = EXAMPLES / "planetary-conquerors" / "legal-80.txt"
    args = ["hand", deck, "type:warrior>=4", "--second", "--seed", "2", "--count", "1"]
    dealt = run_json([*args, "--json"])["hands"][0]
    assert dealt["returned"] and dealt["first"] != dealt["kept"]
    shown = run_cli(args, env={"COLUMNS": "100"}).stdout
    at_dealt, at_return, at_kept = (
        shown.index("dealt:"),
        shown.index("returned"),
        shown.index("kept:"),
    )
    assert at_dealt < at_return < at_kept
    # The dealt hand holds the returned Gold Miner; the kept hand does not.
    assert "Gold Miner" in shown[at_dealt:at_return]
    assert "Gold Miner" not in shown[at_kept:]


# --- 4. a card the file seeds is never drawn --------------------------------------------------

MIRROR_IMAGE = "109_030"  # an Event: Premiere does not seed it


def _seeding_deck(tmp_path: Path) -> Path:
    deck = tmp_path / "seeds.txt"
    deck.write_text(
        "4\tData\n4\tGeordi La Forge\nMissions:\n1\tESPIONAGE MISSION\n"
        "Seed+Dil:\n1\tMIRROR IMAGE\n1\tMAGLOCK\n1\tFederation Outpost\n",
        encoding="utf-8",
    )
    return deck


def test_a_card_in_the_seed_zone_is_never_drawn_under_any_format(tmp_path: Path) -> None:
    deck = _seeding_deck(tmp_path)
    for fmt in ("standard", "modern", "open"):
        rep = run_json(["odds", deck, "type:Personnel>=1", "--format", fmt, "--json"])
        assert rep["pile_size"] == 8, fmt
        assert MIRROR_IMAGE in {a["id"] for a in rep["set_aside"]}, fmt
        dealt = run_json(["hand", deck, "--format", fmt, "--count", "40", "--seed", "1", "--json"])
        drawn = {card for h in dealt["hands"] for card in h["first"]}
        assert drawn and MIRROR_IMAGE not in drawn, fmt


def test_validate_says_what_premiere_does_not_seed(tmp_path: Path) -> None:
    report = run_json(["validate", _seeding_deck(tmp_path), "--json"], code=1)
    limits = [v for v in report["violations"] if v["code"] == "stccg.seed-limits"]
    assert any(MIRROR_IMAGE in v["cards"] and "seed zone" in v["message"] for v in limits)


# --- 5. the set-aside summed up ---------------------------------------------------------------


def _real_stccg_deck(tmp_path: Path) -> Path:
    """A real deck's shape: 6 missions, 23 seed cards in Seed+Dil, a draw deck."""
    missions = run_json(["cards", "stccg", "type:Mission", "--json"])[:6]
    dilemmas = run_json(["cards", "stccg", "type:Dilemma", "--json"])[:23]
    lines = ["30\tData", "Missions:"]
    lines += [f"1\t{m['id']}" for m in missions]
    lines += ["Seed+Dil:"] + [f"1\t{d['id']}" for d in dilemmas]
    deck = tmp_path / "real.txt"
    deck.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return deck


def test_odds_sums_up_the_set_aside_and_lists_it_under_verbose(tmp_path: Path) -> None:
    deck = _real_stccg_deck(tmp_path)
    args = ["odds", deck, "type:Personnel>=1", "--format", "modern"]
    rep = run_json([*args, "--json"])
    aside = [line for line in rep["assumptions"] if line.startswith("set aside")]
    assert aside == [
        "set aside: 6 missions (its own pile), 23 seed cards (the file's seed zone); "
        "--verbose or --json lists each card"
    ]
    assert len(rep["set_aside"]) == 29
    shown = run_cli(args, env={"COLUMNS": "200"}).stdout
    assert shown.count("set aside") == 1 and "((" not in shown and "))" not in shown
    listed = run_cli([*args, "--verbose"], env={"COLUMNS": "200"}).stdout
    assert "card by card" in listed
    assert sum("seed card (the file's seed zone)" in line for line in listed.splitlines()) == 23


# --- 6. export's refusal gives validate's hint ------------------------------------------------


def test_export_of_an_illegal_deck_says_which_formats_it_passes() -> None:
    deck = EXAMPLES / "stccg-1e" / "illegal-size.txt"
    refused = run_cli(["export", deck, "--to", "text"], env={"COLUMNS": "200"})
    assert refused.exit_code == 1
    assert "legal under advanced, open, traditional: --format advanced" in refused.stderr


# --- 9. one reader, one message ---------------------------------------------------------------


def _binary_files(tmp_path: Path) -> list[Path]:
    """A program-like file (an ELF header, zeros and code bytes) and random bytes."""
    import random

    elf = tmp_path / "program"
    elf.write_bytes(b"\x7fELF\x02\x01\x01" + bytes(9) + bytes(range(256)) * 8 + bytes(1200))
    noise = tmp_path / "noise.bin"
    noise.write_bytes(random.Random(41).randbytes(3000))
    return [elf, noise]


def test_a_binary_file_gets_one_message_from_every_reader(tmp_path: Path) -> None:
    for path in _binary_files(tmp_path):
        said = set()
        for args in (["validate", path], ["stats", path], ["add", path, "Data"], ["build", path]):
            result = run_cli(args)
            assert result.exit_code == 2, (args, result.output)
            said.add(result.stderr.strip())
        assert said == {
            f"error: {path}: is not a text file (binary data); deckcheck reads UTF-8 or UTF-16 text"
        }, said


def test_utf16_without_a_mark_is_still_told_apart(tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_bytes("game: ren-dhark\nTerra (Sol III)\n".encode("utf-16-le"))
    for args in (["validate", deck], ["add", deck, "Simon"]):
        assert "UTF-16 without a byte-order mark" in run_cli(args).stderr


def test_optimize_with_a_collection_notes_its_caps(tmp_path: Path) -> None:
    owned = tmp_path / "owned.txt"
    owned.write_text("game: ren-dhark\n2 POINT OF\n1 NOGK\n1 Simon\n", encoding="utf-8")
    deck = EXAMPLES / "ren-dhark" / "terra-custom.txt"
    rep = run_json(["optimize", deck, "type:ship>=2", "--turn", "2", "--owned", owned, "--json"])
    notes = " ".join(rep["notes"])
    assert "searched up to" in notes and "collection holds (1–2" in notes
    assert "the largest number the deck" not in notes


# --- 7. *VP lines named as written, with the documented reason --------------------------------


def test_a_virtual_reissue_line_is_named_as_written_with_traditionals_reason(
    tmp_path: Path,
) -> None:
    deck = tmp_path / "vp.txt"
    deck.write_text("game: stccg-1e\n1\tData\n1\tRusot *VP\n", encoding="utf-8")
    rep = run_json(["validate", deck, "--format", "traditional", "--json"], code=1)
    (pool,) = [v for v in rep["violations"] if v["code"] == "stccg.pool"]
    assert pool["message"] == (
        "line 3: 'Rusot *VP' (Rusot (Things Past)): not legal in Traditional: a CC virtual "
        "card: Traditional takes Decipher's printed cards only"
    )


def test_an_exact_name_shows_the_other_cards_it_is_part_of() -> None:
    rusot = run_cli(["cards", "stccg", "Rusot"], env={"COLUMNS": "120"}).stdout
    assert "125_059" in rusot and "Rusot (Things Past) (132_027)" in rusot
    terra = run_cli(["cards", "ren-dhark", "Terra"], env={"COLUMNS": "120"}).stdout
    assert "Terra (Sol III) (I/67)" in terra
    assert 'cards of faction Terra: deckcheck cards ren-dhark "faction:Terra"' in terra


# --- 8. .stdeck names one edit off one title --------------------------------------------------


def test_a_stdeck_name_one_edit_off_one_title_of_its_set_is_that_card(tmp_path: Path) -> None:
    deck = tmp_path / "fed.stdeck"
    draw = [
        {"name": name, "set": "PR", "type": "Personnel", "quantity": 1}
        for name in ("J'Dan", "Nella Daren", "Tasha Yr")
    ]
    deck.write_text(
        json.dumps({"format": "STCCG1E-Deck-v2", "seed": [], "draw": draw}), encoding="utf-8"
    )
    rep = run_json(["validate", deck, "--json"], code=1)
    assert rep["card_count"] == 3
    notes = " ".join(rep["notes"])
    assert "read as J'Ddan (101_262)" in notes and "read as Tasha Yar (101_244)" in notes


# --- 10. the small things ---------------------------------------------------------------------


def test_a_search_suggests_the_name_that_starts_alike_first() -> None:
    said = run_cli(["cards", "drake", "Dragon"]).stderr
    assert "did you mean: Drake" in said


def test_diff_counts_a_ship_unit_once_as_the_rules_do() -> None:
    deck = EXAMPLES / "ren-dhark" / "blue-starter.txt"
    totals = {t["label"]: t["after"] for t in run_json(["diff", deck, deck, "--json"])["totals"]}
    # 34 cards: 14 ships, 12 persons/units, Roj Syntetů once, 6 actions and the planet.
    assert totals["cards"] == 34
    assert totals["ships"] + totals["persons/units"] + totals["ships or units (either)"] == 27
    assert totals["ships or units (either)"] == 1


def test_diff_takes_a_format() -> None:
    a = EXAMPLES / "stccg-1e" / "illegal-size.txt"
    own = run_json(["diff", a, a, "--json"])
    assert own["status_a"] == "illegal"
    advanced = run_json(["diff", a, a, "--format", "advanced", "--json"])
    assert advanced["status_a"] == "legal"


def test_the_colour_warning_says_cards_and_copies() -> None:
    deck = EXAMPLES / "ren-dhark" / "warning-mixed-colours.txt"
    rep = run_json(["validate", deck, "--json"])
    (colour,) = [v for v in rep["violations"] if v["code"] == "rd.colour"]
    assert "blue: 29 cards, 32 copies" in colour["message"]
    assert "red: 1 card, 1 copy" in colour["message"]


def test_the_points_template_asks_only_cards_that_carry_points() -> None:
    text = run_cli(["catalog", "template", "ren-dhark", "--field", "resource_points"]).stdout
    asked = [line for line in text.splitlines() if line.startswith("id = ")]
    assert len(asked) == 54  # 30 ships, persons and units of each colour but the ship/unit
    assert not any("(action)" in line or "(planet)" in line for line in asked)


def test_stats_of_a_pile_takes_the_variant() -> None:
    plain = run_json(["stats", "dorn:rituals", "--json"])
    heroes = run_json(["stats", "dorn:rituals", "--variant", "four-heroes", "--json"])
    assert heroes["variant"] == "four-heroes"

    def blood(rep: dict[str, object]) -> list[object]:
        dims = rep["dimensions"]
        assert isinstance(dims, list)
        (cost,) = [d for d in dims if d["field"] == "blood_cost"]
        return [(b["value"], b["count"]) for b in cost["buckets"]]

    assert [(str(int(v) + 1), n) for v, n in blood(plain)] == blood(heroes)  # type: ignore[call-overload]


def test_a_long_unknown_name_is_cut_in_its_one_line_error(tmp_path: Path) -> None:
    deck = tmp_path / "rd.txt"
    run_cli(["new", "ren-dhark", "-o", deck])
    name = "x" * 100_000
    for args in (["add", deck, name], ["cards", "rd", name]):
        said = run_cli(args).stderr
        assert len(said) < 500 and "(100,000 characters)" in said, args


# --- 11. cosmetic -----------------------------------------------------------------------------


def test_stats_tables_fit_80_columns_with_every_cell_whole() -> None:
    shown = run_cli(
        ["stats", EXAMPLES / "ren-dhark" / "terra-custom.txt"], env={"COLUMNS": "80"}
    ).stdout
    lines = shown.splitlines()
    assert all(len(line) <= 80 for line in lines), max(lines, key=len)
    assert any("≥1 plain" in line for line in lines)
    assert not any(line.rstrip().endswith(("85.7", "plai")) for line in lines)


def test_no_line_ends_in_spaces_after_a_table() -> None:
    for args in (
        ["cards", "ren-dhark", "type:action"],
        ["stats", EXAMPLES / "dorn" / "four-heroes.txt"],
    ):
        shown = run_cli(args, env={"COLUMNS": "100"}).stdout
        assert not [line for line in shown.splitlines() if line.endswith(" ")], args


def test_tune_shows_a_target_as_given() -> None:
    deck = EXAMPLES / "ren-dhark" / "terra-custom.txt"
    args = ["tune", deck, "type:ship>=2", "--target", "99.9%", "--turn", "2"]
    shown = run_cli(args, env={"COLUMNS": "200"}).stdout
    assert "≥ 99.9 %" in shown and ">99.9" not in shown.split("\n", 3)[1]


def test_one_card_is_one_card() -> None:
    odds = run_cli(["odds", "the-drake:stack", "name:Drake>=1"], env={"COLUMNS": "120"}).stdout
    assert "1 card seen" in odds and "1 cards" not in odds
    dealt = run_cli(["hand", "the-drake:stack", "--seed", "1"], env={"COLUMNS": "120"}).stdout
    assert "1 card from a pile" in dealt
    party = run_cli(["odds", EXAMPLES / "dorn" / "four-heroes.txt", "type:hero>=1"]).stderr
    assert "dorn parties" in party


def test_the_draw_deck_count_is_singular_for_one_card(tmp_path: Path) -> None:
    deck = tmp_path / "one.txt"
    deck.write_text("format: modern\n1\tData\nMissions:\n1\tESPIONAGE MISSION\n", encoding="utf-8")
    rep = run_json(["validate", deck, "--json", "--game", "stccg"], code=1)
    (draw,) = [v for v in rep["violations"] if v["code"] == "stccg.draw-min"]
    assert draw["message"].startswith("1 card in the draw deck")


def test_card_tables_leave_a_column_out_before_wrapping_names() -> None:
    for width in ("70", "56"):
        shown = run_cli(["cards", "dorn", "type:ritual"], env={"COLUMNS": width}).stdout
        assert "Slime of Despair" in shown, width


def test_add_puts_a_seed_card_below_its_zones_comment(tmp_path: Path) -> None:
    deck = tmp_path / "s.txt"
    run_cli(["new", "stccg", "-o", deck])
    run_cli(["add", deck, "Maglock"])
    lines = deck.read_text(encoding="utf-8").splitlines()
    at = lines.index("Seed+Dil:")
    assert lines[at + 1] == "# seed cards and dilemmas" and lines[at + 2] == "1 Maglock"


def test_optimize_to_a_file_keeps_the_decks_comments(tmp_path: Path) -> None:
    shutil.copy(EXAMPLES / "ren-dhark" / "resource-points.toml", tmp_path)
    deck = tmp_path / "terra.txt"
    shutil.copy(EXAMPLES / "ren-dhark" / "terra-custom.txt", deck)
    out = tmp_path / "better.txt"
    args = ["optimize", deck, "type:ship>=2", "--turn", "2", "--changes", "2", "-o", out]
    assert run_cli(args).exit_code == 0
    before, after = deck.read_text(encoding="utf-8"), out.read_text(encoding="utf-8")
    assert after.splitlines()[:14] == before.splitlines()[:14]  # comments and header
    assert after != before


def test_tunes_suggested_command_is_whole_on_its_own_line(tmp_path: Path) -> None:
    deck = _rd_33(tmp_path)
    args = ["tune", deck, "type:action>=2", "--target", "90%", "--turn", "2"]
    shown = run_cli(args, env={"COLUMNS": "60"}).stdout
    (command,) = [line for line in shown.splitlines() if "deckcheck optimize" in line]
    assert command.strip().endswith('"type:action>=2" --turn 2 --changes K')


def test_a_usage_error_is_one_line(tmp_path: Path) -> None:
    said = run_cli(["new", "pc", "-o", tmp_path / "x.txt", "--bogus"])
    assert said.exit_code == 2
    assert said.stderr.strip() == "error: no such option: --bogus (see deckcheck new -h)"
