"""deckcheck as a library: one function per command, each returning a frozen result.

Every function takes its main inputs positionally and everything else by keyword, with the same
names throughout: the context (``catalogs``, ``game``, ``variant``, ``params``: :class:`Where`)
and the draw options (``seen``, ``turn``, ``second``, ``mulligan``, ``redraws``,
``redraw_policy``, ``by_turn``: :class:`Draw`). Each function builds its command's request
and runs it. Every result has
``exit_code`` (what the command line would exit with) and ``to_json()`` (what ``--json``
prints); its other fields are documented on its class. Bad input raises
:class:`deckcheck.core.errors.DeckcheckError` (the command line's exit code 2).

>>> from deckcheck import api
>>> report = api.odds("examples/ren-dhark/terra-custom.txt", ["type:ship>=2"])
>>> round(report.probability, 3), report.exit_code
(0.996, 0)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypedDict, Unpack

from deckcheck.core.result import Json, Result

if TYPE_CHECKING:
    from deckcheck.analysis.anyof import DistributionReport
    from deckcheck.analysis.mulligan import MulliganGuide
    from deckcheck.analysis.odds import OddsOptions, OddsReport
    from deckcheck.analysis.stats import StatsReport
    from deckcheck.commands.cards import CardSearch
    from deckcheck.commands.catalog_check import CatalogCheck
    from deckcheck.commands.catalog_template import CatalogTemplate
    from deckcheck.commands.collection import CollectionEdit
    from deckcheck.commands.deckfile import EditResult, NewDeck
    from deckcheck.commands.diff import DeckDiff
    from deckcheck.commands.export import ExportResult
    from deckcheck.commands.games import GameList
    from deckcheck.commands.hands import HandsReport
    from deckcheck.commands.legality import Legality
    from deckcheck.commands.optimize import OptimizeResult
    from deckcheck.commands.owned import OwnedReport
    from deckcheck.commands.tune import TuneReport
    from deckcheck.commands.validate import SuggestedValidation
    from deckcheck.decks.verdict import Validation
    from deckcheck.games.context import Context
    from deckcheck.solve.nearest import FixResult


Paths = Sequence[str | Path]
Progress = Callable[[int, int], None]
Cards = str | Sequence[tuple[str, int]]


class Overlays(TypedDict, total=False):
    """Catalog overlays and the variant whose changes the cards carry."""

    catalogs: Paths
    variant: str | None


class Where(Overlays, total=False):
    """The context keywords: catalog overlays, the game, the variant and its settings."""

    game: str | None
    params: Mapping[str, str | int] | None


class Draw(Where, total=False):
    """The context and draw keywords: cards ``seen`` or the ``turn``, ``second`` player, the
    ``mulligan`` ("rules" or "none"), ``redraws`` (a number, "unlimited"; None: the game's),
    the ``redraw_policy`` ("optimal" or "always"), a table ``by_turn``."""

    seen: int | None
    turn: int | None
    second: bool
    mulligan: str
    redraws: int | str | None
    redraw_policy: str
    by_turn: int | None
    expected_turn: bool


class Collection(Where, total=False):
    """The context keywords, and ``collection`` with ``reserve`` of :func:`fix` and
    :func:`optimize`: the copies the collection holds beyond what the reserved decks need."""

    collection: str | Path | None
    reserve: Sequence[str | Path]


class CollectionDraw(Draw, Collection, total=False):
    """The keywords of :func:`optimize`: context, draw options, collection and reserve."""


def _context(keywords: Mapping[str, Any]) -> Context:
    """The one place the library's context keywords become a :class:`Context`."""
    from deckcheck.games.context import make_context

    unknown = sorted(keywords.keys() - Where.__optional_keys__)
    if unknown:
        raise TypeError(f"unexpected keyword argument {unknown[0]!r}")
    get = keywords.get
    return make_context(get("catalogs", ()), get("game"), get("variant"), get("params"))


def _split(keywords: Draw) -> tuple[OddsOptions, Context]:
    """The draw options (checked) and the context of a draw command's keywords."""
    from deckcheck.analysis.odds import draw_options

    rest: dict[str, Any] = dict(keywords)
    drawn = Draw.__optional_keys__ - Where.__optional_keys__
    return draw_options(**{k: rest.pop(k) for k in drawn if k in rest}), _context(rest)


def games() -> GameList:
    """The games deckcheck knows, their variants and built-in random piles."""
    from deckcheck.commands import games

    return games.run()


def cards(
    game: str, search: str | Sequence[str] | None = None, **where: Unpack[Overlays]
) -> CardSearch:
    """A game's cards matching every term of ``search`` (part of a name or id, ``field:value``
    or ``field<=N``), as ``variant`` (if given) changes them."""
    from deckcheck.commands import cards

    terms = search if search is None or isinstance(search, str) else tuple(search)
    return cards.run(cards.CardsRequest(game, terms, _context(where)))


def validate(
    decks: Sequence[str | Path], *, owned: str | Path | None = None, **where: Unpack[Where]
) -> Validation:
    """Check decks against their game's construction rules; a deck that cannot be read is an
    outcome with its error, and does not stop the others. ``params`` change the settings the game
    declares (``{"missions": 4}``; :func:`parse_settings` reads ``KEY=VALUE`` texts).
    ``owned``: a deck file listing a collection; each outcome lists the copies it lacks
    (``missing``), the exit code staying the decks'."""
    from deckcheck.commands import validate
    from deckcheck.decks.verdict import Validation

    result = validate.run(validate.ValidateRequest(tuple(decks), _context(where), owned))
    assert isinstance(result, Validation)
    return result


def legality(deck: str | Path, **where: Unpack[Where]) -> Legality:
    """The deck under every variant of its game: one row each (variant, status, the codes of
    its findings), like a deck site's legality panel."""
    from deckcheck.commands import legality

    return legality.run(legality.LegalityRequest(deck, _context(where)))


def validate_and_suggest(
    decks: Sequence[str | Path], **where: Unpack[Where]
) -> SuggestedValidation:
    """:func:`validate`, and for each illegal deck the nearest legal deck (:func:`fix`)."""
    from deckcheck.commands import validate

    result = validate.run(validate.ValidateRequest(tuple(decks), _context(where), suggest=True))
    assert isinstance(result, validate.SuggestedValidation)
    return result


def fix(
    deck: str,
    *,
    keep: Sequence[str] = (),
    owned: str | Path | None = None,
    prefer: str | None = None,
    write: bool = False,
    output: str | Path | None = None,
    force: bool = False,
    **where: Unpack[Collection],
) -> FixResult:
    """The nearest legal deck, fewest copies added plus removed, proven minimal by the solver;
    ``write`` replaces the file (keeping ``DECK.bak``), ``output`` writes the answer elsewhere.
    ``collection`` (with ``reserve``: decks, or folders of them, whose copies stay theirs):
    the answer's copies of each card come out of what the collection holds beyond what the
    reserved decks need. Exit code 1 when no legal deck can be reached (the result names the
    rules)."""
    from deckcheck.commands import fix
    from deckcheck.inplace.edit import AnswerTarget
    from deckcheck.solve.changes import SolverLimits

    target = AnswerTarget(write, output, force)
    rest: dict[str, Any] = dict(where)
    taken = rest.pop("collection", None), tuple(rest.pop("reserve", ()))
    limits = SolverLimits(tuple(keep), owned, None, None, *taken)
    return fix.run(fix.FixRequest(deck, limits, prefer, target, _context(rest)))


def optimize(
    deck: str,
    conditions: Sequence[str],
    *,
    changes: int | None = None,
    owned: str | Path | None = None,
    keep: Sequence[str] = (),
    time_limit: float | None = None,
    write: bool = False,
    output: str | Path | None = None,
    force: bool = False,
    progress: Progress | None = None,
    **draw: Unpack[CollectionDraw],
) -> OptimizeResult:
    """The legal deck within ``changes`` copies changed (any number: None), of catalog cards
    or of the collection ``owned``, keeping ``keep``, with the best exact chance that all
    ``conditions`` hold, and the proof that no such deck does better (``status``
    ``"optimal"``); ``time_limit`` seconds cut the search short (``"best found"``, with the
    bound on what could still be gained). Build the best deck from your collection: a deck
    made by :func:`new` and ``owned``; or ``collection`` with ``reserve`` (as :func:`fix`
    takes them): the copies the reserved decks need stay theirs."""
    from deckcheck.commands import optimize
    from deckcheck.inplace.edit import AnswerTarget
    from deckcheck.solve.changes import SolverLimits

    rest: dict[str, Any] = dict(draw)
    taken = rest.pop("collection", None), tuple(rest.pop("reserve", ()))
    options, context = _split(rest)  # type: ignore[arg-type]
    limits = SolverLimits(tuple(keep), owned, changes, time_limit, *taken)
    target = AnswerTarget(write, output, force)
    request = optimize.OptimizeRequest(deck, tuple(conditions), options, limits, target, context)
    return optimize.run(request, progress)


def owned(
    decks: Sequence[str | Path], collection: str | Path, *, most: bool = False, catalogs: Paths = ()
) -> OwnedReport:
    """Whether the collection (a deck file, or a folder of them) builds all ``decks`` (files,
    or folders of deck files) at the same time; if not, the least to acquire, card by card,
    proven minimal, with the decks contending for each card; ``most``: also the largest set of
    the decks buildable at once, proven (exit code 0: all at once, 1: not, 2: a deck could not
    be read)."""
    from deckcheck.commands import owned

    context = _context({"catalogs": catalogs})
    return owned.run(owned.OwnedRequest(tuple(decks), collection, most, context))


def odds(
    deck: str, conditions: Sequence[str], *, progress: Progress | None = None, **draw: Unpack[Draw]
) -> OddsReport:
    """Exact odds that all ``conditions`` hold among the cards seen (a simulation, said so in the
    report, where exact maths is out of reach). ``deck`` is a file, ``-`` or ``GAME:PILE``;
    ``progress`` is called with ``(done, total)`` during long computations. A condition may
    carry its own deadline (``"type:ship>=1@1"``); ``expected_turn``: add the exact
    distribution of the first turn the conditions hold, on the play and on the draw."""
    from deckcheck.commands import odds

    options, context = _split(draw)
    return odds.run(odds.OddsRequest(deck, tuple(conditions), options, context), progress)


def odds_deckless(
    size: int, categories: Sequence[str], conditions: Sequence[str], **draw: Unpack[Draw]
) -> OddsReport:
    """:func:`odds` of a deck given as ``size`` cards and ``categories`` (``"ships=15"``,
    ``"type:ship=15"``; the rest other cards), with ``game``'s opening and mulligan or, without
    a game, ``seen`` cards drawn."""
    from deckcheck.commands import odds

    options, context = _split(draw)
    request = odds.OddsRequest(None, tuple(conditions), options, context, size, tuple(categories))
    return odds.run(request)


def mulligan(
    deck: str, conditions: Sequence[str], *, every_row: bool = False, **draw: Unpack[Draw]
) -> MulliganGuide:
    """The exact mulligan guide for ``conditions`` (``seen``, ``turn``, ``second`` and the
    context as :func:`odds` takes them): for every hand class the game's rule tells apart, the
    best play (keep, redraw, which cards to return, or no choice), the chance if kept and
    otherwise, and how often it is dealt; ``every_row``: every class, not only the most often
    dealt."""
    from deckcheck.commands import mulligan

    options, context = _split(draw)
    request = mulligan.MulliganRequest(deck, tuple(conditions), options, context, every_row)
    return mulligan.run(request)


def distribution(deck: str, selector: str, **draw: Unpack[Draw]) -> DistributionReport:
    """How many cards matching ``selector`` are seen: P(exactly k), P(at least k) (also with
    the mulligan aimed at it) and the mean."""
    from deckcheck.commands import distribution

    options, context = _split(draw)
    return distribution.run(distribution.DistributionRequest(deck, selector, options, context))


def simulate(
    deck: str,
    conditions: Sequence[str],
    *,
    trials: int | None = None,
    seed: int | None = None,
    progress: Progress | None = None,
    **draw: Unpack[Draw],
) -> OddsReport:
    """A Monte Carlo estimate over whole deals with its Wilson 95% interval; ``progress`` is
    called with ``(done, total)`` trials now and then. ``trials`` None: 1,000,000 deals, fewer
    where each costs more (the look-ahead's), at least 20,000."""
    from deckcheck.commands import simulate

    options, context = _split(draw)
    request = simulate.SimulateRequest(deck, tuple(conditions), options, context, trials, seed)
    return simulate.run(request, progress)


def hand(
    deck: str,
    conditions: Sequence[str] = (),
    *,
    count: int = 1,
    seed: int | None = None,
    **draw: Unpack[Draw],
) -> HandsReport:
    """Sample opening hands dealt the way the game deals, with the mulligan's decisions (aimed at
    ``conditions`` where the rule offers a choice)."""
    from deckcheck.commands import hands

    options, context = _split(draw)
    return hands.run(hands.HandRequest(deck, tuple(conditions), options, context, count, seed))


def export(
    deck: str,
    fmt: str,
    *,
    output: str | Path | None = None,
    force: bool = False,
    allow_illegal: bool = False,
    **where: Unpack[Where],
) -> ExportResult:
    """A deck in another format, written atomically to ``output`` when given (``-``: the text
    only); an illegal deck is refused (exit code 1) unless ``allow_illegal``."""
    from deckcheck.commands import export

    request = export.ExportRequest(deck, fmt, output, force, allow_illegal, _context(where))
    return export.run(request)


def new(
    game: str,
    output: str | Path,
    *,
    starter: str | None = None,
    force: bool = False,
    **where: Unpack[Overlays],
) -> NewDeck:
    """A new deck file for ``game``: its header, zones and limits (a starter's cards for a
    variant that has starters; the ``catalogs`` overlays named in its header); never
    overwrites without ``force``."""
    from deckcheck.commands import deckfile

    context = _context(where)
    request = deckfile.NewRequest(game, output, context.variant, starter, force, context.overlays)
    result = deckfile.run(request)
    assert isinstance(result, deckfile.NewDeck)
    return result


def _edit(deck: str | Path, card: Cards, count: int, remove: bool, keywords: Edit) -> EditResult:
    from deckcheck.commands import deckfile

    where: dict[str, Any] = dict(keywords)
    zone, listed = where.pop("zone", None), where.pop("listed", None)
    pairs = ((card, count),) if isinstance(card, str) else tuple(card)
    request = deckfile.EditRequest(deck, pairs, remove, zone, listed, _context(where))
    result = deckfile.run(request)
    assert isinstance(result, deckfile.EditResult)
    return result


class Edit(Where, total=False):
    """The keywords of :func:`add` and :func:`remove`: the context, the ``zone`` where the
    game's decks have zones, and a pasted list ``listed`` whose cards are changed too."""

    zone: str | None
    listed: str | None


def add(deck: str | Path, card: Cards, count: int = 1, **keywords: Unpack[Edit]) -> EditResult:
    """Add copies of a card (or of several: (card, count) pairs, and the cards of a pasted
    list ``listed``) to a deck file in place (format, comments and order kept)."""
    return _edit(deck, card, count, False, keywords)


def remove(deck: str | Path, card: Cards, count: int = 1, **keywords: Unpack[Edit]) -> EditResult:
    """Remove copies of a card (or of several, as :func:`add` takes them) from a deck file in
    place (a line at 0 copies goes)."""
    return _edit(deck, card, count, True, keywords)


class InGame(TypedDict, total=False):
    """Catalog overlays and the game (of a collection edit)."""

    catalogs: Paths
    game: str | None


def _collection_edit(
    collection: str | Path, card: str, count: int, remove: bool, where: InGame
) -> CollectionEdit:
    from deckcheck.commands import collection as command

    context = _context(where)
    return command.run(command.CollectionRequest(collection, card, count, remove, context))


def collection_add(
    collection: str | Path, card: str, count: int = 1, **where: Unpack[InGame]
) -> CollectionEdit:
    """Add copies of a card to a collection file in place (as :func:`add` edits a deck: its
    format kept, checked, written atomically); the card's game is the file's, ``game``, or the
    one whose catalog knows it."""
    return _collection_edit(collection, card, count, False, where)


def collection_remove(
    collection: str | Path, card: str, count: int = 1, **where: Unpack[InGame]
) -> CollectionEdit:
    """Take copies of a card out of a collection file in place (a line at 0 copies goes)."""
    return _collection_edit(collection, card, count, True, where)


def diff(deck_a: str, deck_b: str, **where: Unpack[Where]) -> DeckDiff:
    """Cards added, removed and changed between two decks of one game, and the rule totals
    (both read under ``variant`` where given: a format's verdicts and seed deck)."""
    from deckcheck.commands import diff

    return diff.run(diff.DiffRequest(deck_a, deck_b, _context(where)))


def catalog_template(game: str, *, fields: Sequence[str] = ()) -> CatalogTemplate:
    """A commented catalog overlay to fill in; with ``fields``, every card lacking them."""
    from deckcheck.commands import catalog_template

    return catalog_template.run(catalog_template.TemplateRequest(game, tuple(fields)))


def stats(deck: str, *, second: bool = False, **where: Unpack[Where]) -> StatsReport:
    """A deck's (or a pile's) composition by the dimensions its game declares, and per value
    the opening hand's expected count and exact chance of at least one."""
    from deckcheck.commands import stats

    return stats.run(stats.StatsRequest(deck, second, _context(where)))


def tune(deck: str, condition: str, target: float | str, **draw: Unpack[Draw]) -> TuneReport:
    """How many cards of ``condition``'s category reach probability ``target`` (0.95, "95%"),
    the deck's size kept, with the table by count around the answer."""
    from deckcheck.commands import tune

    options, context = _split(draw)
    return tune.run(tune.TuneRequest(deck, condition, target, options, context))


def catalog_check(file: str | Path) -> CatalogCheck:
    """Every problem of a catalog overlay file, with its line (exit code 2 if any)."""
    from deckcheck.commands import catalog_check

    return catalog_check.run(catalog_check.CheckRequest(file))


# Result types re-exported from the modules that compute them, imported on first use so that a
# command pays only for the modules it runs (validation never imports the draw engine).
_LAZY = {
    "CardSearch": ("deckcheck.commands.cards", "CardSearch"),
    "CatalogCheck": ("deckcheck.commands.catalog_check", "CatalogCheck"),
    "CatalogTemplate": ("deckcheck.commands.catalog_template", "CatalogTemplate"),
    "CollectionEdit": ("deckcheck.commands.collection", "CollectionEdit"),
    "DeckDiff": ("deckcheck.commands.diff", "DeckDiff"),
    "DistributionReport": ("deckcheck.analysis.anyof", "DistributionReport"),
    "EditResult": ("deckcheck.commands.deckfile", "EditResult"),
    "ExportResult": ("deckcheck.commands.export", "ExportResult"),
    "FixResult": ("deckcheck.solve.nearest", "FixResult"),
    "GameList": ("deckcheck.commands.games", "GameList"),
    "Legality": ("deckcheck.commands.legality", "Legality"),
    "HandsReport": ("deckcheck.commands.hands", "HandsReport"),
    "MulliganGuide": ("deckcheck.analysis.mulligan", "MulliganGuide"),
    "NewDeck": ("deckcheck.commands.deckfile", "NewDeck"),
    "OddsReport": ("deckcheck.analysis.odds", "OddsReport"),
    "OptimizeResult": ("deckcheck.commands.optimize", "OptimizeResult"),
    "OwnedReport": ("deckcheck.commands.owned", "OwnedReport"),
    "StatsReport": ("deckcheck.analysis.stats", "StatsReport"),
    "SuggestedValidation": ("deckcheck.commands.validate", "SuggestedValidation"),
    "TuneReport": ("deckcheck.commands.tune", "TuneReport"),
    "Validation": ("deckcheck.decks.verdict", "Validation"),
    "parse_settings": ("deckcheck.games.context", "parse_settings"),
}

__all__ = [
    "Json",
    "Legality",
    "Result",
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
    "legality",
    "mulligan",
    "new",
    "odds",
    "odds_deckless",
    "optimize",
    "owned",
    "remove",
    "simulate",
    "stats",
    "tune",
    "validate",
    "validate_and_suggest",
]


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    module_name, attribute = _LAZY[name]
    import importlib

    value = getattr(importlib.import_module(module_name), attribute)
    globals()[name] = value
    return value
