"""deckcheck as a library: one function per command, each returning a frozen result.

Every function takes its main inputs positionally and everything else by keyword, with the same
names throughout (``catalogs``, ``game``, ``variant``, ``params``). Every result has
``exit_code`` (what the command line would exit with) and ``to_json()`` (what ``--json``
prints); its other fields are documented on its class. Bad input raises
:class:`deckcheck.core.errors.DeckcheckError` (the command line's exit code 2).

>>> from deckcheck import api
>>> report = api.odds("examples/ren-dhark/terra-custom.txt", ["type:ship>=2"])
>>> round(report.probability, 3), report.exit_code
(0.996, 0)
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from deckcheck.core.errors import UsageError
from deckcheck.core.result import Json, Result

if TYPE_CHECKING:
    from deckcheck.analysis.anyof import DistributionReport
    from deckcheck.analysis.mulligan import MulliganGuide
    from deckcheck.analysis.odds import (
        GameRule,
        OddsOptions,
        OddsReport,
    )
    from deckcheck.analysis.stats import StatsReport
    from deckcheck.commands.cards import CardSearch
    from deckcheck.commands.collection import CollectionEdit
    from deckcheck.commands.deckfile import EditResult, NewDeck
    from deckcheck.commands.diff import DeckDiff
    from deckcheck.commands.export import ExportResult
    from deckcheck.commands.fix import SuggestedValidation
    from deckcheck.commands.hands import HandsReport
    from deckcheck.commands.legality import Legality
    from deckcheck.commands.optimize import OptimizeResult
    from deckcheck.commands.owned import OwnedReport
    from deckcheck.commands.tune import TuneReport
    from deckcheck.decks.verdict import Validation
    from deckcheck.games.catalog_check import CatalogCheck
    from deckcheck.games.catalog_template import CatalogTemplate
    from deckcheck.games.context import parse_settings
    from deckcheck.games.registry import GameList
    from deckcheck.solve.nearest import FixResult

__all__ = [
    "CardSearch",
    "CatalogCheck",
    "CatalogTemplate",
    "CollectionEdit",
    "DeckDiff",
    "DistributionReport",
    "EditResult",
    "ExportResult",
    "FixResult",
    "GameList",
    "HandsReport",
    "Json",
    "MulliganGuide",
    "NewDeck",
    "OddsReport",
    "OptimizeResult",
    "OwnedReport",
    "Result",
    "StatsReport",
    "SuggestedValidation",
    "TuneReport",
    "Validation",
    "add",
    "cards",
    "catalog_check",
    "catalog_template",
    "collection_add",
    "collection_remove",
    "diff",
    "distribution",
    "export",
    "fix",
    "games",
    "hand",
    "mulligan",
    "new",
    "odds",
    "odds_deckless",
    "optimize",
    "owned",
    "parse_settings",
    "remove",
    "simulate",
    "stats",
    "tune",
    "validate",
    "validate_and_suggest",
]

Paths = Sequence[str | Path]

MAX_REDRAWS = 100
"""Exact fractions grow by a few digits per redraw; beyond this "unlimited" says it better."""


def games() -> GameList:
    """The games deckcheck knows, their variants and built-in random piles."""
    from deckcheck.games.registry import list_games

    return list_games()


def cards(
    game: str,
    search: str | Sequence[str] | None = None,
    *,
    catalogs: Paths = (),
    variant: str | None = None,
) -> CardSearch:
    """A game's cards matching every term of ``search`` (part of a name or id, ``field:value``
    or ``field<=N``), as ``variant`` (if given) changes them."""
    from deckcheck.commands.cards import find_cards
    from deckcheck.games.context import make_context

    return find_cards(game, search, make_context(catalogs, variant=variant))


def validate(
    decks: Sequence[str | Path],
    *,
    catalogs: Paths = (),
    game: str | None = None,
    variant: str | None = None,
    params: Mapping[str, str | int] | None = None,
    owned: str | Path | None = None,
) -> Validation:
    """Check decks against their game's construction rules; a deck that cannot be read is an
    outcome with its error, and does not stop the others. ``params`` change the settings the game
    declares (``{"missions": 4}``; :func:`parse_settings` reads ``KEY=VALUE`` texts).
    ``owned``: a deck file listing a collection; each outcome lists the copies it lacks
    (``missing``), the exit code staying the decks'."""
    from deckcheck.commands.validate import validate_paths
    from deckcheck.games.context import make_context

    return validate_paths(decks, make_context(catalogs, game, variant, params), owned=owned)


def legality(deck: str | Path, *, catalogs: Paths = (), game: str | None = None) -> Legality:
    """The deck under every variant of its game: one row each (variant, status, the codes of
    its findings), like a deck site's legality panel."""
    from deckcheck.commands.legality import deck_legality
    from deckcheck.decks.load import load_deck
    from deckcheck.games.context import make_context

    context = make_context(catalogs, game)
    return deck_legality(load_deck(deck, context), context)


def validate_and_suggest(
    decks: Sequence[str | Path],
    *,
    catalogs: Paths = (),
    game: str | None = None,
    variant: str | None = None,
    params: Mapping[str, str | int] | None = None,
) -> SuggestedValidation:
    """:func:`validate`, and for each illegal deck the nearest legal deck (:func:`fix`)."""
    from deckcheck.commands.fix import SuggestedValidation, suggest_fixes
    from deckcheck.commands.validate import validate_paths
    from deckcheck.games.context import make_context

    context = make_context(catalogs, game, variant, params)
    validation = validate_paths(decks, context)
    return SuggestedValidation(validation, suggest_fixes(validation.outcomes, context=context))


def fix(
    deck: str,
    *,
    keep: Sequence[str] = (),
    owned: str | Path | None = None,
    prefer: str | None = None,
    write: bool = False,
    output: str | Path | None = None,
    force: bool = False,
    catalogs: Paths = (),
    game: str | None = None,
    variant: str | None = None,
    params: Mapping[str, str | int] | None = None,
    collection: str | Path | None = None,
    reserve: Sequence[str | Path] = (),
) -> FixResult:
    """The nearest legal deck, fewest copies added plus removed, proven minimal by the solver;
    ``write`` replaces the file (keeping ``DECK.bak``), ``output`` writes the answer elsewhere.
    ``collection`` (with ``reserve``: decks, or folders of them, whose copies stay theirs):
    the answer's copies of each card come out of what the collection holds beyond what the
    reserved decks need. Exit code 1 when no legal deck can be reached (the result names the
    rules)."""
    from deckcheck.commands.fix import fix_deck
    from deckcheck.export.inplace import AnswerTarget
    from deckcheck.games.context import make_context

    return fix_deck(
        deck,
        keep=keep,
        owned=owned,
        prefer=prefer,
        target=AnswerTarget(write, output, force),
        context=make_context(catalogs, game, variant, params),
        collection=collection,
        reserve=reserve,
    )


def optimize(
    deck: str,
    conditions: Sequence[str],
    *,
    seen: int | None = None,
    turn: int | None = None,
    second: bool = False,
    changes: int | None = None,
    owned: str | Path | None = None,
    keep: Sequence[str] = (),
    time_limit: float | None = None,
    write: bool = False,
    output: str | Path | None = None,
    force: bool = False,
    mulligan: str = "rules",
    redraw_policy: str = "optimal",
    catalogs: Paths = (),
    game: str | None = None,
    variant: str | None = None,
    params: Mapping[str, str | int] | None = None,
    progress: Callable[[int, int], None] | None = None,
    collection: str | Path | None = None,
    reserve: Sequence[str | Path] = (),
) -> OptimizeResult:
    """The legal deck within ``changes`` copies changed (any number: None), of catalog cards
    or of the collection ``owned``, keeping ``keep``, with the best exact chance that all
    ``conditions`` hold, and the proof that no such deck does better (``status``
    ``"optimal"``); ``time_limit`` seconds cut the search short (``"best found"``, with the
    bound on what could still be gained). Build the best deck from your collection: a deck
    made by :func:`new` and ``owned``; or ``collection`` with ``reserve`` (as :func:`fix`
    takes them): the copies the reserved decks need stay theirs."""
    from deckcheck.commands.optimize import optimize_deck
    from deckcheck.export.inplace import AnswerTarget
    from deckcheck.games.context import make_context

    options = odds_options(seen, turn, second, mulligan, None, None, redraw_policy)
    return optimize_deck(
        deck,
        conditions,
        options,
        changes=changes,
        keep=keep,
        owned=owned,
        target=AnswerTarget(write, output, force),
        time_limit=time_limit,
        context=make_context(catalogs, game, variant, params),
        progress=progress,
        collection=collection,
        reserve=reserve,
    )


def owned(
    decks: Sequence[str | Path],
    collection: str | Path,
    *,
    most: bool = False,
    catalogs: Paths = (),
) -> OwnedReport:
    """Whether the collection (a deck file, or a folder of them) builds all ``decks`` (files,
    or folders of deck files) at the same time; if not, the least to acquire, card by card,
    proven minimal, with the decks contending for each card; ``most``: also the largest set of
    the decks buildable at once, proven (exit code 0: all at once, 1: not, 2: a deck could not
    be read)."""
    from deckcheck.commands.owned import owned_decks
    from deckcheck.games.context import make_context

    return owned_decks(decks, collection, most=most, context=make_context(catalogs))


def odds(
    deck: str,
    conditions: Sequence[str],
    *,
    seen: int | None = None,
    turn: int | None = None,
    second: bool = False,
    mulligan: str = "rules",
    redraws: int | str | None = None,
    redraw_policy: str = "optimal",
    by_turn: int | None = None,
    catalogs: Paths = (),
    game: str | None = None,
    variant: str | None = None,
    progress: Callable[[int, int], None] | None = None,
    expected_turn: bool = False,
) -> OddsReport:
    """Exact odds that all ``conditions`` hold among the cards seen (a simulation, said so in the
    report, where exact maths is out of reach). ``deck`` is a file, ``-`` or ``GAME:PILE``;
    ``progress`` is called with ``(done, total)`` during long computations. A condition may
    carry its own deadline (``"type:ship>=1@1"``); ``expected_turn``: add the exact
    distribution of the first turn the conditions hold, on the play and on the draw."""
    from deckcheck.analysis.categories import categorized
    from deckcheck.commands.odds import odds as odds_of
    from deckcheck.decks.load import open_deck
    from deckcheck.games.context import make_context

    options = odds_options(seen, turn, second, mulligan, redraws, by_turn, redraw_policy)
    if expected_turn:
        options = dataclasses.replace(options, expected_turn=True)
    opened = open_deck(deck, make_context(catalogs, game, variant))
    setup, texts = categorized(opened, conditions)
    return odds_of(setup, texts, options, progress)


def odds_deckless(
    size: int,
    categories: Sequence[str],
    conditions: Sequence[str],
    *,
    seen: int | None = None,
    turn: int | None = None,
    second: bool = False,
    mulligan: str = "rules",
    redraws: int | str | None = None,
    redraw_policy: str = "optimal",
    by_turn: int | None = None,
    catalogs: Paths = (),
    game: str | None = None,
) -> OddsReport:
    """:func:`odds` of a deck given as ``size`` cards and ``categories`` (``"ships=15"``,
    ``"type:ship=15"``; the rest other cards), with ``game``'s opening and mulligan or, without
    a game, ``seen`` cards drawn."""
    from deckcheck.analysis.deckless import deckless_setup
    from deckcheck.commands.odds import odds as odds_of

    options = odds_options(seen, turn, second, mulligan, redraws, by_turn, redraw_policy)
    setup = deckless_setup(size, categories, game=game, seen=seen, catalogs=catalogs)
    return odds_of(setup, conditions, options)


def mulligan(
    deck: str,
    conditions: Sequence[str],
    *,
    seen: int | None = None,
    turn: int | None = None,
    second: bool = False,
    every_row: bool = False,
    catalogs: Paths = (),
    game: str | None = None,
    variant: str | None = None,
) -> MulliganGuide:
    """The exact mulligan guide for ``conditions``: for every hand class the game's rule
    tells apart, the best play (keep, redraw, which cards to return, or no choice), the chance
    if kept and otherwise, and how often it is dealt; ``every_row``: every class, not only the
    most often dealt."""
    from deckcheck.analysis.categories import categorized
    from deckcheck.commands.mulligan import mulligan as guide_of
    from deckcheck.decks.load import open_deck
    from deckcheck.games.context import make_context

    options = odds_options(seen, turn, second, "rules", None)
    opened = open_deck(deck, make_context(catalogs, game, variant))
    setup, texts = categorized(opened, conditions)
    return guide_of(setup, texts, options, every_row=every_row)


def distribution(
    deck: str,
    selector: str,
    *,
    seen: int | None = None,
    turn: int | None = None,
    second: bool = False,
    mulligan: str = "rules",
    redraw_policy: str = "optimal",
    catalogs: Paths = (),
    game: str | None = None,
    variant: str | None = None,
) -> DistributionReport:
    """How many cards matching ``selector`` are seen: P(exactly k), P(at least k) (also with
    the mulligan aimed at it) and the mean."""
    from deckcheck.analysis.categories import categorized
    from deckcheck.commands.odds import distribution as category_distribution
    from deckcheck.decks.load import open_deck
    from deckcheck.games.context import make_context

    options = odds_options(seen, turn, second, mulligan, None, None, redraw_policy)
    opened = open_deck(deck, make_context(catalogs, game, variant))
    setup, texts = categorized(opened, [f"{selector}>=1"])
    return category_distribution(setup, texts[0].rsplit(">=", 1)[0], options)


def simulate(
    deck: str,
    conditions: Sequence[str],
    *,
    trials: int = 1_000_000,
    seed: int | None = None,
    seen: int | None = None,
    turn: int | None = None,
    second: bool = False,
    mulligan: str = "rules",
    redraws: int | str | None = None,
    redraw_policy: str = "optimal",
    catalogs: Paths = (),
    game: str | None = None,
    variant: str | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> OddsReport:
    """A Monte Carlo estimate over whole deals with its Wilson 95% interval; ``progress`` is
    called with ``(done, total)`` trials now and then."""
    from deckcheck.analysis.setup import draw_setup
    from deckcheck.commands.odds import simulate as simulate_odds
    from deckcheck.decks.load import open_deck
    from deckcheck.games.context import make_context

    options = odds_options(seen, turn, second, mulligan, redraws, None, redraw_policy)
    setup = draw_setup(open_deck(deck, make_context(catalogs, game, variant)))
    return simulate_odds(setup, conditions, options, trials, seed, progress)


def hand(
    deck: str,
    conditions: Sequence[str] = (),
    *,
    count: int = 1,
    seed: int | None = None,
    second: bool = False,
    mulligan: str = "rules",
    redraw_policy: str = "optimal",
    catalogs: Paths = (),
    game: str | None = None,
    variant: str | None = None,
) -> HandsReport:
    """Sample opening hands dealt the way the game deals, with the mulligan's decisions (aimed at
    ``conditions`` where the rule offers a choice)."""
    from deckcheck.analysis.setup import draw_setup
    from deckcheck.commands.hands import sample_hands
    from deckcheck.decks.load import open_deck
    from deckcheck.games.context import make_context

    options = odds_options(None, None, second, mulligan, None, None, redraw_policy)
    return sample_hands(
        draw_setup(open_deck(deck, make_context(catalogs, game, variant))),
        count=count,
        seed=seed,
        mulligan=options.mulligan,
        conditions=conditions,
        second=second,
        redraw_policy=options.redraw_policy,
    )


def export(
    deck: str,
    fmt: str,
    *,
    output: str | Path | None = None,
    force: bool = False,
    allow_illegal: bool = False,
    catalogs: Paths = (),
    game: str | None = None,
    variant: str | None = None,
) -> ExportResult:
    """A deck in another format, written atomically to ``output`` when given; an illegal deck is
    refused (exit code 1) unless ``allow_illegal``."""
    from deckcheck.commands.export import export_deck
    from deckcheck.decks.load import load_deck
    from deckcheck.games.context import make_context

    loaded = load_deck(deck, make_context(catalogs, game, variant))
    return export_deck(loaded, fmt, output=output, force=force, allow_illegal=allow_illegal)


def new(
    game: str,
    output: str | Path,
    *,
    variant: str | None = None,
    starter: str | None = None,
    force: bool = False,
    catalogs: Paths = (),
) -> NewDeck:
    """A new deck file for ``game``: its header, zones and limits (a starter's cards for a
    variant that has starters; the ``catalogs`` overlays named in its header); never
    overwrites without ``force``."""
    from deckcheck.commands.deckfile import new_deck

    return new_deck(game, output, variant=variant, starter=starter, force=force, overlays=catalogs)


def add(
    deck: str | Path,
    card: str | Sequence[tuple[str, int]],
    count: int = 1,
    *,
    zone: str | None = None,
    catalogs: Paths = (),
    game: str | None = None,
    variant: str | None = None,
    listed: str | None = None,
) -> EditResult:
    """Add copies of a card (or of several: (card, count) pairs, and the cards of a pasted
    list ``listed``) to a deck file in place (format, comments and order kept)."""
    from deckcheck.commands.deckfile import edit_deck
    from deckcheck.games.context import make_context

    context = make_context(catalogs, game, variant)
    return edit_deck(deck, card, count, zone=zone, context=context, listed=listed)


def remove(
    deck: str | Path,
    card: str | Sequence[tuple[str, int]],
    count: int = 1,
    *,
    zone: str | None = None,
    catalogs: Paths = (),
    game: str | None = None,
    variant: str | None = None,
    listed: str | None = None,
) -> EditResult:
    """Remove copies of a card (or of several, as :func:`add` takes them) from a deck file in
    place (a line at 0 copies goes)."""
    from deckcheck.commands.deckfile import edit_deck
    from deckcheck.games.context import make_context

    context = make_context(catalogs, game, variant)
    return edit_deck(deck, card, count, remove=True, zone=zone, context=context, listed=listed)


def collection_add(
    collection: str | Path,
    card: str,
    count: int = 1,
    *,
    catalogs: Paths = (),
    game: str | None = None,
) -> CollectionEdit:
    """Add copies of a card to a collection file in place (as :func:`add` edits a deck: its
    format kept, checked, written atomically); the card's game is the file's, ``game``, or the
    one whose catalog knows it."""
    from deckcheck.commands.collection import edit_collection
    from deckcheck.games.context import make_context

    return edit_collection(collection, card, count, context=make_context(catalogs, game))


def collection_remove(
    collection: str | Path,
    card: str,
    count: int = 1,
    *,
    catalogs: Paths = (),
    game: str | None = None,
) -> CollectionEdit:
    """Take copies of a card out of a collection file in place (a line at 0 copies goes)."""
    from deckcheck.commands.collection import edit_collection
    from deckcheck.games.context import make_context

    context = make_context(catalogs, game)
    return edit_collection(collection, card, count, remove=True, context=context)


def diff(
    deck_a: str,
    deck_b: str,
    *,
    catalogs: Paths = (),
    game: str | None = None,
    variant: str | None = None,
) -> DeckDiff:
    """Cards added, removed and changed between two decks of one game, and the rule totals
    (both read under ``variant`` where given: a format's verdicts and seed deck)."""
    from deckcheck.commands.diff import diff_decks
    from deckcheck.decks.load import load_deck
    from deckcheck.games.context import make_context

    context = make_context(catalogs, game, variant)
    return diff_decks(load_deck(deck_a, context), load_deck(deck_b, context))


def catalog_template(game: str, *, fields: Sequence[str] = ()) -> CatalogTemplate:
    """A commented catalog overlay to fill in; with ``fields``, every card lacking them."""
    from deckcheck.games.catalog_template import catalog_template as _template

    return _template(game, fields)


def stats(
    deck: str,
    *,
    second: bool = False,
    catalogs: Paths = (),
    game: str | None = None,
    variant: str | None = None,
) -> StatsReport:
    """A deck's (or a pile's) composition by the dimensions its game declares, and per value
    the opening hand's expected count and exact chance of at least one."""
    from deckcheck.commands.stats import deck_stats
    from deckcheck.decks.load import open_deck
    from deckcheck.games.context import make_context

    return deck_stats(open_deck(deck, make_context(catalogs, game, variant)), second=second)


def tune(
    deck: str,
    condition: str,
    target: float | str,
    *,
    turn: int | None = None,
    second: bool = False,
    mulligan: str = "rules",
    redraw_policy: str = "optimal",
    catalogs: Paths = (),
    game: str | None = None,
) -> TuneReport:
    """How many cards of ``condition``'s category reach probability ``target`` (0.95, "95%"),
    the deck's size kept, with the table by count around the answer."""
    from deckcheck.commands.tune import check_target, tune_deck
    from deckcheck.decks.load import open_deck
    from deckcheck.games.context import make_context

    options = odds_options(None, None, second, mulligan, None, None, redraw_policy)
    wanted = parse_target(target)
    check_target(wanted)
    opened = open_deck(deck, make_context(catalogs, game))
    return tune_deck(opened, condition, wanted, turn=turn, second=second, options=options)


def parse_target(target: float | str) -> float:
    """A probability as ``0.95``, ``"95%"`` or ``95`` (a number above 1 is a percentage)."""
    text = str(target).strip()
    try:
        value = float(text.rstrip("%").strip())
    except ValueError:
        raise UsageError(f"--target is a probability such as 0.95 or 95%, not {text!r}") from None
    if text.endswith("%") or value > 1:
        value /= 100
    return value


def catalog_check(file: str | Path) -> CatalogCheck:
    """Every problem of a catalog overlay file, with its line (exit code 2 if any)."""
    from deckcheck.games.catalog_check import check_catalog_file

    return check_catalog_file(file)


def odds_options(
    seen: int | None,
    turn: int | None,
    second: bool,
    mulligan: str,
    redraws: int | str | None,
    by_turn: int | None = None,
    redraw_policy: str = "optimal",
) -> OddsOptions:
    """Check the draw options as a user gives them (``redraws`` a number or "unlimited"; None
    keeps the game's own limit)."""
    from deckcheck.analysis.odds import (
        GAME_RULE,
        UNLIMITED,
        MulliganPolicy,
        OddsOptions,
        RedrawPolicy,
    )

    if mulligan not in ("rules", "none"):
        raise UsageError(f"--mulligan is 'rules' or 'none', not {mulligan!r}")
    parsed: int | GameRule | None = GAME_RULE
    if redraws is not None:
        text = str(redraws).strip().lower()
        if text == UNLIMITED:
            parsed = None
        elif text.isascii() and text.isdigit() and len(text) <= 6 and int(text) <= MAX_REDRAWS:
            parsed = int(text)
        else:
            raise UsageError(
                f"--redraws is a number from 0 to {MAX_REDRAWS} or 'unlimited', not "
                f"{str(redraws)[:24]!r}"
            )
    if redraw_policy not in ("always", "optimal"):
        raise UsageError(f"--redraw-policy is 'always' or 'optimal', not {redraw_policy!r}")
    return OddsOptions(
        seen,
        turn,
        second,
        cast(MulliganPolicy, mulligan),
        parsed,
        by_turn,
        cast(RedrawPolicy, redraw_policy),
    )


# Result types re-exported from the modules that compute them, imported on first use so that a
# command pays only for the modules it runs (validation never imports the draw engine).
_LAZY = {
    "CardSearch": ("deckcheck.commands.cards", "CardSearch"),
    "CatalogCheck": ("deckcheck.games.catalog_check", "CatalogCheck"),
    "CollectionEdit": ("deckcheck.commands.collection", "CollectionEdit"),
    "CatalogTemplate": ("deckcheck.games.catalog_template", "CatalogTemplate"),
    "DeckDiff": ("deckcheck.commands.diff", "DeckDiff"),
    "DistributionReport": ("deckcheck.analysis.anyof", "DistributionReport"),
    "ExportResult": ("deckcheck.commands.export", "ExportResult"),
    "FixResult": ("deckcheck.solve.nearest", "FixResult"),
    "GameList": ("deckcheck.games.registry", "GameList"),
    "HandsReport": ("deckcheck.commands.hands", "HandsReport"),
    "MulliganGuide": ("deckcheck.analysis.mulligan", "MulliganGuide"),
    "OddsReport": ("deckcheck.analysis.odds", "OddsReport"),
    "OptimizeResult": ("deckcheck.commands.optimize", "OptimizeResult"),
    "OwnedReport": ("deckcheck.commands.owned", "OwnedReport"),
    "StatsReport": ("deckcheck.analysis.stats", "StatsReport"),
    "SuggestedValidation": ("deckcheck.commands.fix", "SuggestedValidation"),
    "TuneReport": ("deckcheck.commands.tune", "TuneReport"),
    "Validation": ("deckcheck.decks.verdict", "Validation"),
    "parse_settings": ("deckcheck.games.context", "parse_settings"),
}


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module_name, attribute = _LAZY[name]
    import importlib

    value = getattr(importlib.import_module(module_name), attribute)
    globals()[name] = value
    return value
