"""The ``deckcheck`` commands, declared: each turns its arguments into its command's request
(shared options come as bundles, :mod:`deckcheck.cli.options`) and returns ``run(request)``;
:mod:`deckcheck.cli.command` shows the result by its type and ends bad input with exit code 2.
"""

from __future__ import annotations

import dataclasses
import gc
from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from deckcheck.cli import options as opt
from deckcheck.cli import render
from deckcheck.cli.command import command, narrowed
from deckcheck.cli.help import ReadableGroup

if TYPE_CHECKING:
    from deckcheck.analysis.odds import OddsOptions
    from deckcheck.core.result import Result
    from deckcheck.games.context import Context
    from deckcheck.inplace.edit import AnswerTarget
    from deckcheck.solve.changes import SolverLimits


app = typer.Typer(
    cls=ReadableGroup,
    no_args_is_help=True,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Validate decks for card and board games, compute exact draw odds, simulate, export.\n\n"
    "Example: [bold]deckcheck validate my-deck.txt[/]",
)


def _group(name: str, help_text: str) -> typer.Typer:
    """The commands under ``deckcheck NAME``."""
    group = typer.Typer(cls=ReadableGroup, no_args_is_help=True, help=help_text)
    app.add_typer(group, name=name)
    return group


catalog_app = _group(
    "catalog",
    "Work with catalog files: a template to fill in, and a checker.\n\n"
    "Example: [bold]deckcheck catalog template planetary-conquerors > my-set.toml[/]",
)
collection_app = _group(
    "collection",
    "Edit your collection file: copies of a card added or removed in place.\n\n"
    'Example: [bold]deckcheck collection add my-cards.txt "POINT OF" 2[/]',
)


@app.callback()
def _options(version: opt.VersionOpt = False) -> None:
    """Validate decks for card and board games, compute exact draw odds, simulate, export."""


@command(app)
def games() -> Result:
    """List the games deckcheck knows, their variants and built-in random piles.

    Example: [bold]deckcheck games --json[/]
    """
    from deckcheck.commands import games

    return games.run()


@command(app)
def cards(
    game: Annotated[str, typer.Argument(help="Game id, e.g. ren-dhark.")],
    search: opt.CardsSearch = None,
    where: Context = opt.OVERLAYS,
) -> Result:
    """List a game's cards, optionally those matching every term of SEARCH; one match is
    shown in full. A search with no match suggests the nearest names.

    Examples: [bold]deckcheck cards ren-dhark type:ship[/] · [bold]deckcheck cards the-drake Monk[/]
    · [bold]deckcheck cards stccg-1e type:ship affiliation:klingon "range>=8"[/]
    · [bold]deckcheck cards dorn type:ritual --variant four-heroes[/]
    """
    from deckcheck.commands import cards

    return cards.run(cards.CardsRequest(game, tuple(search) if search else None, where))


@command(app)
def validate(
    decks: Annotated[list[str], typer.Argument(help="Deck files (- for standard input).")],
    where: Context = opt.MISSIONS,
    suggest: opt.ValidateSuggest = False,
    owned: opt.ValidateOwned = None,
) -> Result:
    """Check decks against their game's construction rules; every violation is reported.
    With --owned, also what your collection lacks to build each deck (the exit code stays the
    deck's).

    Exit code 0: all legal; 1: a deck is illegal; 3: a rule could not be decided (catalog
    data missing); 2: a deck could not be read.

    Example: [bold]deckcheck validate examples/ren-dhark/terra-custom.txt --json[/]
    """
    from deckcheck.commands import validate

    owned = None if suggest else owned  # --suggest reports the decks alone
    return validate.run(validate.ValidateRequest(tuple(decks), where, owned, suggest))


@command(app)
def odds(
    deck: opt.OddsDeck,
    conditions: opt.OddsConditions = None,
    deck_size: opt.OddsDeckSize = None,
    category: opt.OddsCategory = None,
    options: OddsOptions = opt.DRAW_BY_TURN,
    where: Context = opt.PILE,
    verbose: opt.VerboseOpt = False,
) -> Result:
    """Exact odds of holding what you need: opening hand, later turns, with the mulligan.

    Cards set aside by the rules (a planet, seed cards, starting miners) are not drawn. With
    the game's mulligan the choice is optimal for your question, and the figure without it is
    shown too.

    Conditions joined by | hold when either does; a deck file's own categories (a
    'category: NAME = card; card' line) may be named in conditions. Without a deck file,
    --deck N and --category NAME=COUNT describe it.

    A condition may carry its own deadline, CONDITION@TURN: it must hold by the start of that
    own turn ("type:ship>=1@1" "type:person>=3@4").

    Examples: [bold]deckcheck odds examples/ren-dhark/terra-custom.txt "type:ship>=2" --by-turn 5[/]
    · [bold]deckcheck odds --deck 60 --category ships=15 "ships>=2" --seen 7[/]
    """
    from deckcheck.commands import odds

    if deck_size is not None:
        where = dataclasses.replace(where, variant=None)  # a deck of categories has none
        options = dataclasses.replace(options, expected_turn=False)  # nor an expected turn
        request = odds.OddsRequest(
            None, (deck, *(conditions or [])), options, where, deck_size, tuple(category or [])
        )
        return render.Verbose(odds.run(request)) if verbose else odds.run(request)
    request = odds.OddsRequest(
        deck, tuple(conditions or []), options, where, None, tuple(category or [])
    )
    # What is already made (modules, the deck, its catalog) outlives the answer: set aside
    # while it is worked out, the cycle collector's full passes do not walk it again (one
    # comes with numpy's import, which the exact engines bring), and given back after; not
    # where the process has set objects aside itself (it manages its collector).
    aside = not gc.get_freeze_count()
    if aside:
        gc.freeze()
    try:
        with render.progress_bar() as progress:
            result = odds.run(request, progress)
    finally:
        if aside:
            gc.unfreeze()
    return render.Verbose(result) if verbose else result


@command(app)
def mulligan(
    deck: opt.DeckOrPile,
    conditions: opt.MulliganConditions,
    options: OddsOptions = opt.DRAW_SEEN,
    every_row: opt.MulliganEveryRow = False,
    where: Context = opt.PILE,
) -> Result:
    """The exact mulligan guide: keep, redraw or which cards to return, for every hand class.

    For each opening hand the game's rule tells apart (how many cards of each condition and
    of the cards the rule names), the best play for your question, the chance if kept and if
    redrawn (or returned), the margin and how often the hand is dealt; a rule of thumb when
    one fits. It is the play odds assumes: following it gives the chance odds reports.

    Example: [bold]deckcheck mulligan examples/ren-dhark/terra-custom.txt "type:ship>=2" --turn 2[/]
    """
    from deckcheck.commands import mulligan

    request = mulligan.MulliganRequest(deck, tuple(conditions), options, where, every_row)
    return mulligan.run(request)


@command(app)
def simulate(
    deck: opt.DeckOrPile,
    conditions: opt.Conditions,
    trials: opt.SimulateTrials = None,
    seed: opt.SeedOpt = None,
    options: OddsOptions = opt.DRAW,
    where: Context = opt.PILE,
    verbose: opt.VerboseOpt = False,
) -> Result:
    """Monte Carlo estimate over whole deals, with a Wilson 95% interval.

    For what exact maths cannot reach (look-ahead choices over many turns, any rule with
    choices). Every trial is a real deal from the shuffled pile (numpy, one process), never a
    draw from the exact answer's distribution; a seed makes a run reproducible.

    Example: [bold]deckcheck simulate my-deck.txt "type:warrior>=2" --turn 3 --seed 7[/]
    """
    from deckcheck.commands import simulate

    request = simulate.SimulateRequest(deck, tuple(conditions), options, where, trials, seed)
    with render.progress_bar(trials or 0, "simulating") as progress:
        result = simulate.run(request, progress)
    return render.Verbose(result) if verbose else result


@command(app)
def hand(
    deck: opt.DeckOrPile,
    conditions: opt.HandConditions = None,
    seed: opt.SeedOpt = None,
    count: Annotated[int, typer.Option("--count", "-k", metavar="N", help="How many hands.")] = 1,
    options: OddsOptions = opt.DRAW_HAND,
    where: Context = opt.PILE,
) -> Result:
    """Deal sample opening hands the way the game deals them, with the mulligan decision.

    Cards are grouped by type; each hand says what was redrawn or returned, and why. Hand N
    of a seed is the same whatever --count, so a hand can be shown again.

    Example: [bold]deckcheck hand examples/ren-dhark/terra-custom.txt --count 3 --seed 1[/]
    """
    from deckcheck.commands import hands

    return hands.run(hands.HandRequest(deck, tuple(conditions or []), options, where, count, seed))


@command(app, json=False)
def export(
    deck: opt.DeckFile,
    to: opt.ExportTo,
    output: opt.ExportOutput = None,
    force: opt.ForceOpt = False,
    allow_illegal: opt.ExportAllowIllegal = False,
    where: Context = opt.PLAIN,
) -> Result:
    """Export a legal deck to another format; never overwrites without --force.

    An illegal deck gets its validation report and exit code 1 (unless --allow-illegal); an
    unverified one is exported with a warning. Files are written atomically.

    Example: [bold]deckcheck export my-deck.txt --to lackey -o my-deck.dek[/]
    """
    from deckcheck.commands import export

    return export.run(export.ExportRequest(deck, to, output, force, allow_illegal, where))


@command(app)
def fix(
    deck: opt.DeckFile,
    limits: SolverLimits = opt.FIX_LIMITS,
    prefer: opt.FixPrefer = None,
    target: AnswerTarget = opt.ANSWER,
    where: Context = opt.SETTINGS,
) -> Result:
    """The nearest legal deck: the fewest copies added and removed, proven minimal (a
    mixed-integer solver's optimum over the rules as constraints).

    Exit code 0: the answer (or the deck) is legal; 1: no legal deck is reachable (the rules
    that cannot be met are named), or the answer breaks a rule checked on it only.

    With --collection FILE and --reserve DECK...: build or repair the deck from your
    collection without taking the copies the reserved decks use.

    Example: [bold]deckcheck fix my-deck.txt --keep "POINT OF" --write[/]
    """
    from deckcheck.commands import fix

    return fix.run(fix.FixRequest(deck, limits, prefer, target, where))


@command(app)
def optimize(
    deck: Annotated[str, typer.Argument(help="Deck file (- for stdin); a new empty deck works.")],
    conditions: opt.OptimizeConditions,
    options: OddsOptions = opt.DRAW_NO_REDRAWS,
    limits: SolverLimits = opt.OPTIMIZE_LIMITS,
    target: AnswerTarget = opt.ANSWER,
    where: Context = opt.SETTINGS,
) -> Result:
    """The legal deck with the best exact odds of the conditions, proven best: among the
    decks within --changes K copies of DECK (of your collection with --owned; --keep cards
    kept), the one where the conditions most likely hold by the turn asked, with the game's
    mulligan and look-ahead played optimally, exactly as odds computes it. Build the best deck
    from your collection: optimize a deck made by new, with --owned; or with --collection
    FILE --reserve DECK..., keeping the copies your other decks use.

    Exit code 0: an answer (status optimal, or best found when cut short); 1: no legal deck
    within the limits.

    Example: [bold]deckcheck optimize examples/ren-dhark/terra-custom.txt "type:ship>=2"
    --turn 2 --changes 4[/]
    """
    from deckcheck.commands import optimize

    request = optimize.OptimizeRequest(deck, tuple(conditions), options, limits, target, where)
    with render.progress_bar(label="searching") as progress:
        return optimize.run(request, progress)


@command(app)
def owned(
    decks: opt.OwnedDecks,
    collection: opt.OwnedCollection,
    most: opt.OwnedMost = False,
    verbose: opt.OwnedVerbose = False,
    where: Context = opt.CATALOGS,
) -> Result:
    """Can your collection build all these decks at the same time? Each deck's standing on
    its own, and if not all at once, the fewest extra copies to acquire, card by card (proven
    minimal), with the decks contending for each (--verbose: every one named); --most adds
    the largest set of the decks buildable at once (a proven maximum). A copy in each zone
    counts, side zones too.

    Exit code 0: all can be built at once; 1: not; 2: a file could not be read.

    Example: [bold]deckcheck owned examples/the-drake --collection
    examples/my-collection.txt --most[/]
    """
    from deckcheck.commands import owned

    result = owned.run(owned.OwnedRequest(tuple(decks), collection, most, where))
    return render.Verbose(result) if verbose else result


@command(app)
def new(
    game: Annotated[str, typer.Argument(help="Game id, e.g. stccg-1e.")],
    output: opt.NewOutput,
    starter: opt.NewStarter = None,
    force: opt.ForceOpt = False,
    where: Context = opt.OVERLAYS_VARIANT,
) -> Result:
    """Start a deck file: the header, the game's zones and the variant's limits as comments
    (a starter variant's cards filled in; --catalog files named in its header). Never
    overwrites without --force.

    Examples: [bold]deckcheck new stccg-1e -o my-deck.txt[/]
    · [bold]deckcheck new pc -o my-deck.txt --catalog my-set.toml[/]
    """
    from deckcheck.commands import deckfile

    return deckfile.run(
        deckfile.NewRequest(game, output, where.variant, starter, force, where.overlays)
    )


def _edit(deck: str, cards: list[str], remove: bool, zone: str | None, where: Context) -> Result:
    from deckcheck.commands import deckfile
    from deckcheck.core.inputs import read_text

    listed = read_text("-") if cards == ["-"] else None
    pairs = () if listed is not None else deckfile.card_counts(cards)
    return deckfile.run(deckfile.EditRequest(deck, pairs, remove, zone, listed, where))


@command(app)
def add(
    deck: opt.EditedDeck, cards: opt.CardsArg, zone: opt.ZoneOpt = None, where: Context = opt.PLAIN
) -> Result:
    """Add copies of cards to a deck file, keeping its format, comments, order and zones;
    then every rule's progress in one line and the findings the change brought or cleared.

    Examples: [bold]deckcheck add my-deck.txt "Klingon Outpost" 1 --zone Seed+Dil[/]
    · [bold]deckcheck add my-deck.txt Gowron 2 Kurn 1 Worf[/]
    · [bold]deckcheck add my-deck.txt - < pasted-list.txt[/]
    """
    return _edit(deck, cards, False, zone, where)


@command(app)
def remove(
    deck: opt.EditedDeck, cards: opt.CardsArg, zone: opt.ZoneOpt = None, where: Context = opt.PLAIN
) -> Result:
    """Remove copies of cards from a deck file (a line goes at 0 copies), keeping the rest
    of the file as it is; then every rule's progress and the findings that changed.

    Examples: [bold]deckcheck remove my-deck.txt Worf 2[/] · [bold]deckcheck remove my-deck.txt
    Worf 2 Kurn[/]
    """
    return _edit(deck, cards, True, zone, where)


def _collection_edit(
    collection: str, card: str, count: int, remove: bool, where: Context
) -> Result:
    from deckcheck.commands import collection as command

    return command.run(command.CollectionRequest(collection, card, count, remove, where))


@command(collection_app, "add")
def collection_add(
    collection: opt.CollectionFile,
    card: opt.CollectionCard,
    count: opt.CollectionAddCount = 1,
    where: Context = opt.GAME_ONLY,
) -> Result:
    """Add copies of a card to your collection file, keeping its format, comments and order
    (written atomically, as add edits a deck). A file that names no game may mix games: the
    card goes among its game's lines.

    Example: [bold]deckcheck collection add my-cards.txt "POINT OF" 2[/]
    """
    return _collection_edit(collection, card, count, False, where)


@command(collection_app, "remove")
def collection_remove(
    collection: opt.CollectionFile,
    card: opt.CollectionCard,
    where: Context = opt.GAME_ONLY,  # options and arguments are listed apart
    count: opt.CollectionRemoveCount = 1,
) -> Result:
    """Remove copies of a card from your collection file (a line at 0 copies goes).

    Example: [bold]deckcheck collection remove my-cards.txt "POINT OF" 1[/]
    """
    return _collection_edit(collection, card, count, True, where)


@command(app, json=False)
def build(
    deck: Annotated[str, typer.Argument(help="The deck file (a new one is made on first save).")],
    where: Context = opt.BUILD,
    seed: opt.BuildSeed = None,
    no_mouse: opt.BuildNoMouse = False,
) -> int:
    """Build a deck on one screen: search the game's cards, add and remove them, and watch
    every rule's standing, the odds by turn and a playtest hand change with each edit; save
    keeps the file's format (as add/remove do). Keys: / search (Enter adds the highlighted
    card, Down goes to the list), panes 1 cards, 2 deck, 3 standing, 4 odds, 5 playtest (Tab
    cycles), Esc leaves a text box, +/- one copy more or fewer, s save, u undo, Ctrl+R redo,
    h new hand, m mulligan (for a return: Enter marks the cards), o optimal, d draw, q quit.
    Needs a terminal of at least 80x24.

    Example: [bold]deckcheck build my-deck.txt --game stccg-1e[/]
    """
    from deckcheck.tui import run_build

    return run_build(deck, where, seed=seed, mouse=not no_mouse)


@command(app)
def diff(
    deck_a: Annotated[str, typer.Argument(help="The first deck.")],
    deck_b: Annotated[str, typer.Argument(help="The second deck.")],
    where: Context = opt.PLAIN,
) -> Result:
    """Compare two decks: cards added, removed and changed, by type, and the rule totals
    (both decks read under --format where given, else each under its own).

    Example: [bold]deckcheck diff old-deck.txt new-deck.txt --json[/]
    """
    from deckcheck.commands import diff

    return diff.run(diff.DiffRequest(deck_a, deck_b, where))


@command(app)
def legality(
    deck: Annotated[str, typer.Argument(help="Deck file, or - for stdin.")],
    where: Context = opt.GAME_ONLY,
) -> Result:
    """The deck under every variant of its game: one row each, the verdict and the codes of
    its findings (exit 0 when it passes some variant, 1 when none).

    Example: [bold]deckcheck legality my-lackey-deck.txt --json[/]
    """
    from deckcheck.commands import legality

    return legality.run(legality.LegalityRequest(deck, where))


@command(app)
def stats(
    deck: opt.DeckOrPile, options: OddsOptions = opt.SECOND, where: Context = opt.PLAIN
) -> Result:
    """A deck's composition by the dimensions its game declares, as bar charts, with the
    opening hand's expected count and chance of at least one per value (exact, with the
    game's mulligan).

    Example: [bold]deckcheck stats examples/planetary-conquerors/legal-50.txt[/]
    """
    from deckcheck.commands import stats

    return stats.run(stats.StatsRequest(deck, options.second, where))


@command(app)
def distribution(
    deck: opt.DeckOrPile,
    selector: opt.DistributionSelector,
    options: OddsOptions = opt.DRAW_NO_REDRAWS,
    where: Context = opt.GAME_ONLY,
) -> Result:
    """How many cards of a kind are seen: the chance of exactly 0, 1, 2… and of at least
    each (also with the game's mulligan aimed at it), and the expected number. Exact.

    Example: [bold]deckcheck distribution examples/ren-dhark/terra-custom.txt type:ship[/]
    """
    from deckcheck.commands import distribution

    return distribution.run(distribution.DistributionRequest(deck, selector, options, where))


@command(app)
def tune(
    deck: opt.DeckOrPile,
    condition: opt.TuneCondition,
    target: opt.TuneTarget,
    options: OddsOptions = opt.DRAW_TURN,
    where: Context = opt.GAME_ONLY,
) -> Result:
    """How many cards of the condition's category the deck needs for the condition to hold
    with probability ≥ the target, the deck's size kept (other cards make room), with the
    table of probability by count around the answer. Exact, with the game's opening and
    mulligan.

    Example: [bold]deckcheck tune my-deck.txt "type:ship>=2" --target 95% --turn 2[/]
    """
    from deckcheck.commands import tune

    return tune.run(tune.TuneRequest(deck, condition, target, options, where))


@command(catalog_app, "template", json=False)
def catalog_template(
    game: Annotated[str, typer.Argument(help="Game id.")],
    field: opt.CatalogTemplateField = None,
) -> Result:
    """Print a commented catalog overlay to fill in (standard output).

    Example: [bold]deckcheck catalog template ren-dhark --field resource_points > mine.toml[/]
    """
    from deckcheck.commands import catalog_template

    return catalog_template.run(catalog_template.TemplateRequest(game, tuple(field or [])))


@command(catalog_app, "check", json=False)
def catalog_check(
    file: Annotated[str, typer.Argument(help="The overlay file to check (- for stdin).")],
) -> Result:
    """Check a catalog overlay and report every problem with its line; exit 2 if any.

    Example: [bold]deckcheck catalog check examples/planetary-conquerors/example-set.toml[/]
    """
    from deckcheck.commands import catalog_check

    return catalog_check.run(catalog_check.CheckRequest(file))


def app_for(argv: Sequence[str]) -> typer.Typer:
    """The application to run for ``argv`` (:func:`deckcheck.cli.command.narrowed`)."""
    return narrowed(app, argv)
