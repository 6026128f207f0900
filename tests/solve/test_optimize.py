"""``optimize`` against brute force: every deck within K changes, validated and scored as
``validate`` and ``odds`` do, on small universes of each game (a collection limits the
cards, so that the brute force stays cheap)."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping, Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from conftest import run_cli, run_json

from deckcheck import api
from deckcheck.analysis.odds import OddsOptions, bind
from deckcheck.analysis.setup import deck_setup
from deckcheck.catalog.deck import DeckEntry
from deckcheck.commands.optimize import OptimizeResult, optimize_loaded
from deckcheck.core.violations import Status
from deckcheck.decks.load import LoadedDeck, deck_or_owned, load_deck
from deckcheck.decks.verdict import validate_loaded
from deckcheck.draws.facade import Mode, Policy, solve
from deckcheck.draws.model import Procedure, Query
from deckcheck.games.context import make_context

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
TERRA = str(EXAMPLES / "ren-dhark" / "terra-custom.txt")
PC50 = str(EXAMPLES / "planetary-conquerors" / "legal-50.txt")
FED = str(EXAMPLES / "stccg-1e" / "legal-federation.txt")


def _changes(
    base: Mapping[str, int],
    universe: Sequence[str],
    caps: Mapping[str, int],
    k: int,
    fixed: Sequence[str] = (),
) -> Iterator[dict[str, int]]:
    """Every deck (card id -> copies) within ``k`` copies added plus removed of ``base``,
    each card within 0..caps (the ``fixed`` ones at their count)."""
    ids = [i for i in dict.fromkeys([*base, *universe]) if i not in fixed]

    def walk(i: int, left: int, deck: dict[str, int]) -> Iterator[dict[str, int]]:
        if i == len(ids):
            yield dict(deck)
            return
        card = ids[i]
        have = base.get(card, 0)
        for n in range(max(0, have - left), min(caps.get(card, have + left), have + left) + 1):
            deck[card] = n
            yield from walk(i + 1, left - abs(n - have), deck)
        deck[card] = have

    yield from walk(0, k, dict(base))


_LEGAL: dict[tuple[object, ...], tuple[LoadedDeck, list[tuple[dict[str, int], LoadedDeck]]]] = {}
"""The legal decks of a neighbourhood, by the loaded deck (its identity: it is kept with them)
and the neighbourhood: a test that scores several questions on one neighbourhood validates
each deck once (the decks are only read)."""


def _legal_decks(
    loaded: LoadedDeck,
    k: int,
    universe: Sequence[str],
    caps: Mapping[str, int],
    size: int | None,
    fixed: Sequence[str],
) -> list[tuple[dict[str, int], LoadedDeck]]:
    """Every legal deck within ``k`` changes (its counts, and the deck), as ``validate``
    judges it (see :func:`_scored`)."""
    key = (id(loaded), k, tuple(universe), tuple(sorted(caps.items())), size, tuple(fixed))
    kept = _LEGAL.get(key)
    if kept is not None and kept[0] is loaded:
        return kept[1]
    if any(deck is not loaded for deck, _ in _LEGAL.values()):
        _LEGAL.clear()  # another deck's: only one test's neighbourhoods are kept
    cards = {c.id: c for c in loaded.catalog}
    base = dict(loaded.deck.counts())
    found = []
    for counts in _changes(base, universe, caps, k, fixed):
        if size is not None and sum(counts.values()) != size:
            continue
        entries = tuple(DeckEntry(cards[i], n) for i, n in counts.items() if n)
        deck = dataclasses.replace(loaded, deck=dataclasses.replace(loaded.deck, entries=entries))
        if validate_loaded(deck).status is Status.LEGAL:
            found.append((counts, deck))
    _LEGAL[key] = (loaded, found)
    return found


def _scored(
    loaded: LoadedDeck,
    conditions: Sequence[str],
    options: OddsOptions,
    k: int,
    universe: Sequence[str],
    caps: Mapping[str, int],
    size: int | None = None,
    fixed: Sequence[str] = (),
) -> Iterator[tuple[dict[str, int], Fraction | None]]:
    """Every legal deck within ``k`` changes (its counts) with its exact chance, as ``odds``
    scores it (``size``: skip decks of another size at once, when the rules fix it; ``fixed``:
    cards never changed)."""
    memo: dict[object, Fraction | None] = {}
    for counts, deck in _legal_decks(loaded, k, universe, caps, size, fixed):
        setup = deck_setup(deck)
        bound = bind(setup, conditions, options)
        seen, procedure = _seen(setup, bound.procedure, options)
        if setup.pile_size < seen:
            continue
        key = (bound.problem.group_sizes, bound.problem.membership)
        if key not in memo:
            query = Query(seen, options.second, options.mulligan == "rules", options.turn)
            memo[key] = solve(bound.problem, procedure, query, Policy(), mode=Mode.EXACT).fraction
        yield counts, memo[key]


def _brute(
    loaded: LoadedDeck,
    conditions: Sequence[str],
    options: OddsOptions,
    k: int,
    universe: Sequence[str],
    owned: Mapping[str, int] | None = None,
    size: int | None = None,
    fixed: Sequence[str] = (),
) -> Fraction | None:
    """The best exact chance over every legal deck within ``k`` changes (see :func:`_scored`)."""
    base = dict(loaded.deck.counts())
    caps = {i: max(base.get(i, 0), owned.get(i, 0)) for i in universe} if owned else {}
    best: Fraction | None = None
    for _, p in _scored(loaded, conditions, options, k, universe, caps, size, fixed):
        if p is not None and (best is None or p > best):
            best = p
    return best


def _seen(setup: object, procedure: Procedure, options: OddsOptions) -> tuple[int, Procedure]:
    if getattr(setup, "builtin_pile", None):
        seen = options.seen or setup.opening.hand_size  # type: ignore[attr-defined]
        return seen, Procedure(seen, None, 1, None, False)
    if options.turn is not None:
        return procedure.seen_by_turn(options.turn, options.second), procedure
    return options.seen or procedure.opening_size(options.second), procedure


def _check(*args: Any, **kwargs: Any) -> Fraction | None:
    """The brute force's best chance, checked against optimize's answer (:func:`_checked`)."""
    return _checked(*args, **kwargs)[0]


def _checked(
    loaded: LoadedDeck,
    conditions: Sequence[str],
    options: OddsOptions,
    k: int,
    universe: Sequence[str],
    owned: Mapping[str, int] | None = None,
    size: int | None = None,
    fixed: Sequence[str] = (),
) -> tuple[Fraction | None, OptimizeResult]:
    """The brute force's best chance, checked against optimize's answer (also returned)."""
    caps = None if owned is None else deck_or_owned(loaded, owned)
    result, _ = optimize_loaded(
        loaded, conditions, options, changes=k, owned=caps, keep=list(fixed)
    )
    expected = _brute(loaded, conditions, options, k, universe, owned, size, fixed)
    assert result.after == expected
    assert result.status == "optimal"
    assert result.report is not None and result.report.status is Status.LEGAL
    assert result.distance <= k
    if owned is not None:
        assert all(c.after <= max(c.before, owned.get(c.card.id, 0)) for c in result.changes)
    return expected, result


def _ids(loaded: LoadedDeck, names: Sequence[str]) -> list[str]:
    return [next(c.id for c in loaded.catalog if c.name == n) for n in names]


def test_ren_dhark_redraw_taking_cards_out_beats_adding_ships() -> None:
    """Ren Dhark, the optimal redraw: the best move is out of the pile (actions removed), not
    more ships (none owned here)."""
    loaded = load_deck(TERRA)
    deck = dict(loaded.deck.counts())
    owned = dict(deck)
    options = OddsOptions(turn=2)
    # the answer _check compared (owned: the deck's own copies, as deck_or_owned gives them)
    best, result = _checked(loaded, ["type:ship>=2"], options, 1, list(deck), owned)
    assert best is not None and result.before is not None and best > result.before
    assert all(c.delta < 0 for c in result.changes)


def test_ren_dhark_two_conditions_with_a_collection() -> None:
    loaded = load_deck(TERRA)
    deck = dict(loaded.deck.counts())
    extra = _ids(loaded, ["POINT OF", "NOGK"])
    owned = {**deck, **{i: 2 for i in extra}}
    _check(loaded, ["type:ship>=2", "POINT OF>=1"], OddsOptions(turn=2), 2, list(owned), owned)


def test_planetary_conquerors_return_three_and_look_ahead() -> None:
    """Return-3 mulligan and the look-ahead (turn 2), a collection of a few more cards."""
    loaded = load_deck(PC50)
    deck = dict(loaded.deck.counts())
    extra = _ids(loaded, ["Trooper", "Iron Warlord", "Pitfall"])
    owned = {**deck, **{i: deck.get(i, 0) + 2 for i in extra}}
    _check(loaded, ["type:warrior>=3"], OddsOptions(turn=2), 3, list(owned), owned)


SMALL_STCCG = """game: stccg-1e
6 Avert Disaster
1 Federation Outpost
10 Alien Abduction
20 Albert Einstein
23 Engineering Kit
"""


def test_stccg_seed_cards_move_cards_out_of_the_draw_deck(tmp_path: Path) -> None:
    """STCCG: a dilemma (a seed card) in place of a draw card shrinks the draw deck; a second
    Outpost of another affiliation is a seed card too, a second of the same is drawn."""
    path = tmp_path / "small.txt"
    path.write_text(SMALL_STCCG, encoding="utf-8")
    loaded = load_deck(str(path))
    deck = dict(loaded.deck.counts())
    extra = _ids(loaded, ["Klingon Outpost", "Tarellian Plague Ship"])
    owned = {**deck, **{i: deck.get(i, 0) + 2 for i in [*deck, *extra]}}
    best = _check(loaded, ["type:Personnel>=3"], OddsOptions(turn=2), 2, list(owned), owned, 60)
    result, _ = optimize_loaded(loaded, ["type:Personnel>=3"], OddsOptions(turn=2), changes=2)
    assert result.after == best  # the collection holds what the best deck needs


def test_a_collection_limits_the_answer() -> None:
    loaded = load_deck(TERRA)
    options = OddsOptions(turn=2)
    free, _ = optimize_loaded(loaded, ["POINT OF>=1"], options, changes=4)
    owned = dict(loaded.deck.counts())
    limited, _ = optimize_loaded(loaded, ["POINT OF>=1"], options, changes=4, owned=owned)
    assert free.after is not None and limited.after is not None
    assert limited.after <= free.after
    assert all(c.after <= owned.get(c.card.id, 0) for c in limited.changes)


def test_dorn_random_party_and_drake_random_stack() -> None:
    dorn = load_deck(
        str(EXAMPLES / "dorn" / "first-game-party.txt"), make_context(variant="random-party")
    )
    heroes = [c.id for c in dorn.catalog if c.has_type("hero")]
    _check(dorn, ["recommended:true>=5"], OddsOptions(), 2, heroes)
    drake = load_deck(
        str(EXAMPLES / "the-drake" / "custom-stack.txt"), make_context(variant="random")
    )
    troops = [c.id for c in drake.catalog]
    assert _check(drake, ["name:Drake>=1"], OddsOptions(), 3, troops) == Fraction(4, 9)


def test_keep_is_never_removed() -> None:
    loaded = load_deck(TERRA)
    keep = ["Zlatý člověk"]
    result, _ = optimize_loaded(loaded, ["type:ship>=2"], OddsOptions(turn=2), changes=4, keep=keep)
    assert all(c.card.name != "Zlatý člověk" for c in result.changes)


def test_build_the_best_deck_from_a_collection(tmp_path: Path) -> None:
    """A deck made by ``new`` and a collection: the best legal deck it allows."""
    deck = tmp_path / "new.txt"
    assert run_cli(["new", "the-drake", "--variant", "custom", "-o", str(deck)]).exit_code == 0
    owned = tmp_path / "owned.txt"
    owned.write_text("game: the-drake\n2 Drake\n1 Monk\n1 Archer\n", encoding="utf-8")
    result = api.optimize(str(deck), ["name:Drake>=1"], seen=1, owned=str(owned), variant="random")
    assert result.status == "optimal"
    assert result.after == Fraction(2, 3)  # 2 Drakes of at least 3 troops
    assert result.report is not None and result.report.status is Status.LEGAL


def test_json_and_limits() -> None:
    data = run_json(["optimize", TERRA, "type:ship>=2", "--turn", "2", "--changes", "1", "--json"])
    assert data["status"] == "optimal"
    before = Fraction(data["probability_before_exact"])
    after = Fraction(data["probability_exact"])
    assert after >= before and data["distance"] <= 1
    proof = data["proof"]
    assert proof["evaluated"] >= 1 and proof["reached"] >= 1
    parts = ("ruled_out_by_bound", "unreachable", "reached", "simulated")
    assert sum(proof[k] for k in parts) == proof["mixes"]
    assert [p["turn"] for p in data["curve_after"]] == [1, 2]


def test_unreachable_and_bad_input() -> None:
    illegal = str(EXAMPLES / "stccg-1e" / "illegal-size.txt")
    result = run_cli(["optimize", illegal, "type:Personnel>=1", "--changes", "0"])
    assert result.exit_code == 1 and "no legal deck" in result.stdout
    assert run_cli(["optimize", TERRA, "type:ship>=2", "--changes", "-1"]).exit_code == 2
    assert run_cli(["optimize", TERRA, "type:ship>=2", "--time-limit", "0"]).exit_code == 2


def test_tune_marks_the_counts_the_rules_forbid() -> None:
    """Ren Dhark needs 15 ships: tune's 10 is no longer recommended silently."""
    data = run_json(["tune", TERRA, "type:ship>=2", "--target", "95%", "--turn", "2", "--json"])
    assert data["answer"] == 10 and data["answer_legal"] is False
    assert data["legal_answer"] == 15
    legal = {row["count"]: row["legal"] for row in data["rows"]}
    assert legal[14] is False and legal[15] is True
    assert any("deckcheck optimize" in line for line in data["rules"])
    shown = run_cli(["tune", TERRA, "type:ship>=2", "--target", "95%", "--turn", "2"]).stdout
    assert "illegal" in shown and "optimize" in shown


def test_validate_lists_what_the_collection_lacks(tmp_path: Path) -> None:
    owned = tmp_path / "owned.txt"
    owned.write_text("game: ren-dhark\n1 POINT OF\n", encoding="utf-8")
    data = run_json(["validate", TERRA, "--owned", owned, "--json"])  # the deck's code: 0
    lacking = {m["name"]: m["missing"] for m in data["missing"]}
    assert lacking["POINT OF"] == 1 and lacking["Zlatý člověk"] == 2
    assert "lacks" in run_cli(["validate", TERRA, "--owned", owned]).stdout


def test_stccg_community_formats_and_zoned_files() -> None:
    """A CC format (its own set-aside: missions, then the seed deck by type) is optimized and
    proven; so is a Lackey file whose Seed+Dil zone says what is seeded (its zones kept)."""
    modern = str(EXAMPLES / "stccg-1e" / "legal-modern-federation.txt")
    data = run_json(["optimize", modern, "type:Personnel>=3", "--turn", "2", "-K", "2", "--json"])
    assert data["status"] == "optimal" and data["validation"]["status"] == "legal"
    assert Fraction(data["probability_exact"]) >= Fraction(data["probability_before_exact"])
    lackey = str(EXAMPLES / "stccg-1e" / "legal-klingon-lackey.txt")
    zoned = run_json(
        ["optimize", lackey, "type:Personnel>=3", "--variant", "modern", "-K", "2", "--json"]
    )
    assert zoned["status"] == "optimal" and zoned["validation"]["status"] == "legal"
    assert Fraction(zoned["probability_exact"]) >= Fraction(zoned["probability_before_exact"])


def test_write_and_time_limit(tmp_path: Path) -> None:
    deck = tmp_path / "terra.txt"
    deck.write_text(Path(TERRA).read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "resource-points.toml").write_text(
        (EXAMPLES / "ren-dhark" / "resource-points.toml").read_text(encoding="utf-8"),
        encoding="utf-8",
    )
    result = api.optimize(str(deck), ["type:ship>=2"], turn=2, changes=1, write=True)
    assert result.written_to == str(deck) and (tmp_path / "terra.txt.bak").exists()
    assert "# Ships" in deck.read_text(encoding="utf-8")  # edited in place, comments kept
    assert api.validate([str(deck)]).exit_code == 0
    # A limit too short for the search: the best deck found so far, and what may be left.
    cut = api.optimize(TERRA, ["type:ship>=2"], turn=2, changes=4, time_limit=1e-9)
    assert cut.status == "best found" and cut.gain_bound is not None
    assert not any("no deck within the limits does better" in n for n in cut.notes)


def _varying(
    loaded: LoadedDeck, names: Sequence[str], caps: Mapping[str, int]
) -> tuple[list[str], dict[str, int], list[str]]:
    """Only the named cards change (up to ``caps`` copies by name, else the deck's count plus
    4): the rest is kept and owned at its count. (universe, owned, fixed)"""
    deck = dict(loaded.deck.counts())
    universe = _ids(loaded, names)
    fixed = [i for i in deck if i not in universe]
    owned = {i: deck[i] for i in fixed}
    for card_id, name in zip(universe, names, strict=True):
        owned[card_id] = caps.get(name, deck.get(card_id, 0) + 4)
    return universe, owned, fixed


def test_k4_ren_dhark_an_upper_bound_condition() -> None:
    """K = 4: no action by turn 2, the actions and a few ships may change."""
    loaded = load_deck(TERRA)
    names = ["Zlatý člověk", "Antisféra", "Stopař Robonů", "Globální ochranný štít"]
    universe, owned, fixed = _varying(loaded, names, {})
    _check(loaded, ["type:action<=0"], OddsOptions(turn=2), 4, universe, owned, fixed=fixed)


def test_k4_planetary_conquerors_second_player_two_conditions() -> None:
    """One Gold Miner starts in the mine whatever the deck holds: more copies stay in the
    draw pile (the search once let the mine take none)."""
    loaded = load_deck(PC50)
    names = ["Trooper", "Pitfall", "Gold Miner", "Sabotage"]
    universe, owned, fixed = _varying(loaded, names, {})
    _check(loaded, ["name:Gold Miner>=1"], OddsOptions(turn=1), 4, universe, owned, fixed=fixed)
    options = OddsOptions(turn=2, second=True)
    conditions = ["type:warrior>=2", "name:Pitfall>=1"]
    _check(loaded, conditions, options, 4, universe, owned, fixed=fixed)


def test_k4_drake_exactly_and_at_most() -> None:
    drake = load_deck(
        str(EXAMPLES / "the-drake" / "custom-stack.txt"), make_context(variant="random")
    )
    troops = [c.id for c in drake.catalog]
    _check(drake, ["name:Drake>=1", "name:Monk<=0"], OddsOptions(seen=2), 4, troops)
    _check(drake, ["name:Archer==1"], OddsOptions(seen=3), 4, troops)


def test_k4_an_outpost_of_two_affiliations(tmp_path: Path) -> None:
    """Klaestron Outpost (Federation and Cardassian), written before the Federation Outpost,
    seeds one copy for each affiliation still free: the only seed card on offer here, so
    copies in place of draw cards shrink the draw deck; the answer is proven and legal."""
    path = tmp_path / "small.txt"
    path.write_text(
        "game: stccg-1e\n6 Avert Disaster\n1 Klaestron Outpost\n1 Federation Outpost\n"
        "10 Alien Abduction\n20 Albert Einstein\n22 Engineering Kit\n",
        encoding="utf-8",
    )
    loaded = load_deck(str(path))
    names = ["Klaestron Outpost", "Engineering Kit", "Federation Outpost", "Cardassian Outpost"]
    universe, owned, fixed = _varying(loaded, names, {"Klaestron Outpost": 3})
    _check(loaded, ["type:Personnel>=3"], OddsOptions(turn=2), 4, universe, owned, fixed=fixed)
    _check(loaded, ["type:Outpost<=0"], OddsOptions(turn=2), 4, universe, owned, fixed=fixed)


def test_seed_rules_constraints_agree_with_the_check_on_outposts_of_two_affiliations() -> None:
    """Klaestron Outpost (Federation and Cardassian) seeds one copy per affiliation still free
    once the Outposts of one affiliation took theirs, whatever the deck's order: the seed
    rules' constraints count it so, and agree with each rule's check on every small deck."""
    import itertools

    from deckcheck.catalog.deck import Deck
    from deckcheck.games.registry import get_game

    game = get_game("stccg-1e")
    full = game.bundled_catalog()
    names = [
        "Klaestron Outpost",
        "Federation Outpost",
        "Cardassian Outpost",
        "Alien Abduction",
        "Albert Einstein",
    ]
    cards = [next(c for c in full if c.name == n) for n in names]
    # one card of every type besides, so that every rule's selectors find their type
    others = {t: c for c in full for t in c.types if not c.has_type("Outpost")}
    catalog = dataclasses.replace(full, cards=[*cards, *others.values()])
    codes = ("stccg.seed-half", "stccg.seed-max", "stccg.draw-min", "stccg.one-outpost")
    sides = {True: 0, False: 0}
    for variant_name in ("standard", "modern", "warp-speed"):  # each rule of the four
        variant = game.variant(variant_name)
        stated = {
            code: game.constraints(code, catalog, variant)
            for code in codes
            if code in variant.rules
        }
        for code, rc in stated.items():
            assert rc.exact, (variant_name, code)
        counts_of = itertools.product(range(3), range(2), range(2), (0, 3), (1, 4))
        for counts in counts_of:
            entries = [DeckEntry(c, n) for c, n in zip(cards, counts, strict=True) if n]
            both = counts[0] and counts[1]  # Klaestron and Federation Outposts: both orders
            for order in (entries, entries[::-1]) if both else (entries,):
                deck = Deck("d", game.id, variant_name, tuple(order))
                values = dict(deck.counts())
                for code, rc in stated.items():
                    found = game.rule(code)(deck, catalog, variant)
                    errors = [v for v in found if v.code == code and v.severity.value == "error"]
                    holds = rc.holds(values)
                    assert holds == (not errors), (variant_name, code, counts)
                    sides[holds] += 1
    assert sides[True] and sides[False]  # both sides were exercised
