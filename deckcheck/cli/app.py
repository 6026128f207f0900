"""The ``deckcheck`` commands. Each parses its arguments, calls one library function and
renders the result; bad input of any kind ends in :func:`_guarded`, exit code 2."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, cast

import typer

from deckcheck.cli import render
from deckcheck.core.errors import DeckcheckError


def _guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
    """The one place where input errors become one clear message and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except DeckcheckError as exc:
            render.error(exc)
            raise typer.Exit(2) from None
        except RecursionError:
            render.error("input is nested too deeply to read")
            raise typer.Exit(2) from None

    return wrapper


def _command(target: typer.Typer, name: str | None = None) -> Callable[..., Any]:
    """Register a command on ``target`` with deckcheck's error handling."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        target.command(name)(_guarded(fn))
        return fn

    return register


app = typer.Typer(
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Validate decks for card and board games, compute exact draw odds, simulate, export.\n\n"
    "Example: [bold]deckcheck validate my-deck.txt[/]",
)
catalog_app = typer.Typer(
    no_args_is_help=True,
    help="Work with catalog files: a template to fill in, and a checker.\n\n"
    "Example: [bold]deckcheck catalog template planetary-conquerors > my-set.toml[/]",
)
app.add_typer(catalog_app, name="catalog")

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON on standard output.")]
CatalogOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--catalog",
        "-c",
        help="A catalog overlay file laid over the bundled catalog (repeatable; later files win).",
    ),
]
GameOpt = Annotated[
    str | None,
    typer.Option(
        "--game", "-g", help="The game, when the deck does not say (see `deckcheck games`)."
    ),
]
MissionsOpt = Annotated[
    int | None,
    typer.Option(
        "--missions",
        help="Number of missions where "
        "the game has that setting (STCCG: the "
        "rulebook's 4-per-side advice).",
        min=1,
        max=1000,
    ),
]
VariantOpt = Annotated[
    str | None,
    typer.Option(
        "--variant",
        "-v",
        help="The variant to check against (default: the deck's, else the game's default).",
    ),
]


@_command(app)
def games(json_out: JsonOpt = False) -> None:
    """List the games deckcheck knows, their variants and built-in random piles.

    Example: [bold]deckcheck games --json[/]
    """
    from deckcheck.games.registry import all_games

    infos = [g.info() for g in all_games().values()]
    if json_out:
        render.emit_json(infos)
        return
    render.games(infos)


@_command(app)
def cards(
    game: Annotated[str, typer.Argument(help="Game id, e.g. ren-dhark.")],
    search: Annotated[
        str | None, typer.Argument(help="Part of a name or id, or field:value.")
    ] = None,
    catalog: CatalogOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """List a game's cards, optionally those matching SEARCH; one match is shown in full.

    Examples: [bold]deckcheck cards ren-dhark type:ship[/] · [bold]deckcheck cards the-drake Monk[/]
    """
    from deckcheck.cards import find_cards

    found = find_cards(game, search, catalog or [])
    if json_out:
        render.emit_json([c.as_dict() for c in found.cards])
        return
    render.card_list(found)


@_command(app)
def validate(
    decks: Annotated[list[str], typer.Argument(help="Deck files (- for standard input).")],
    game: GameOpt = None,
    variant: VariantOpt = None,
    catalog: CatalogOpt = None,
    missions: MissionsOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Check decks against their game's construction rules; every violation is reported.

    Exit code 0: all legal; 1: a deck is illegal; 3: a rule could not be decided (catalog
    data missing); 2: a deck could not be read.

    Example: [bold]deckcheck validate examples/ren-dhark/terra-custom.txt --json[/]
    """
    from deckcheck.core.violations import worst_exit_code
    from deckcheck.validate import validate_paths

    params = {"missions": missions} if missions is not None else None
    outcomes = validate_paths(
        decks, game=game, variant=variant, catalogs=catalog or [], params=params
    )
    if json_out:
        items = [
            o.report.as_json()
            if o.report
            else {"deck": o.path, "status": "error", "error": str(o.error)}
            for o in outcomes
        ]
        render.emit_json(items[0] if len(items) == 1 else items)
    for o in outcomes:
        if o.error is not None:
            render.error(o.error)
        elif o.report is not None and not json_out:
            render.report(o.report)
    raise typer.Exit(worst_exit_code(o.exit_code for o in outcomes))


SeenOpt = Annotated[
    int | None, typer.Option("--seen", help="Cards seen in all (opening hand plus draws).")
]
TurnOpt = Annotated[
    int | None,
    typer.Option(
        "--turn",
        help="Cards seen by the start of own turn T under the game's rules (1 = opening hand; "
        "Ren Dhark: your T-th attack, a minimum).",
    ),
]
SecondOpt = Annotated[
    bool,
    typer.Option(
        "--second",
        help="The player who does not start: more cards where the game deals them (Planetary "
        "Conquerors: a sixth card, in a two-player game; Ren Dhark: red, as blue starts).",
    ),
]
MulliganOpt = Annotated[
    str,
    typer.Option(
        "--mulligan",
        help="rules: the game's own redraw/mulligan (Planetary Conquerors' return chosen "
        "optimally; Ren Dhark's redraw per --redraw-policy); none: the plain draw.",
    ),
]
RedrawPolicyOpt = Annotated[
    str,
    typer.Option(
        "--redraw-policy",
        help="For an optional redraw rule (Ren Dhark): 'optimal' (default) redraws only when "
        "that raises the chance of the query (exact); 'always' redraws whenever allowed.",
    ),
]
RedrawsOpt = Annotated[
    str | None,
    typer.Option(
        "--redraws", help="Redraw limit for games with a redraw rule: a number or 'unlimited'."
    ),
]


def _show_odds(result: Any, json_out: bool) -> None:
    """An odds or simulation report as JSON or as the panel."""
    if json_out:
        render.emit_json(result.as_json())
    else:
        render.odds(result)


def _odds_options(
    seen: int | None,
    turn: int | None,
    second: bool,
    mulligan: str,
    redraws: str | None,
    by_turn: int | None = None,
    redraw_policy: str = "optimal",
) -> Any:
    from deckcheck.analysis.odds import UNLIMITED, MulliganPolicy, OddsOptions, RedrawPolicy
    from deckcheck.core.errors import UsageError

    if mulligan not in ("rules", "none"):
        raise UsageError(f"--mulligan is 'rules' or 'none', not {mulligan!r}")
    parsed: int | str | None = None
    if redraws is not None:
        if redraws.strip().lower() == UNLIMITED:
            parsed = UNLIMITED
        elif redraws.strip().isdigit() and int(redraws) <= MAX_REDRAWS:
            parsed = int(redraws)
        else:
            raise UsageError(
                f"--redraws is a number from 0 to {MAX_REDRAWS} or 'unlimited', not {redraws!r}"
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


# Exact fractions grow by a few digits per redraw; beyond this "unlimited" says it better.
MAX_REDRAWS = 100


@_command(app)
def odds(
    deck: Annotated[str, typer.Argument(help="Deck file, - for stdin, or a pile GAME:PILE.")],
    conditions: Annotated[
        list[str],
        typer.Argument(
            help='SELECTOR OP COUNT, all must hold: type:ship>=2 "POINT OF>=1" rarity:3>=1'
        ),
    ],
    seen: SeenOpt = None,
    turn: TurnOpt = None,
    second: SecondOpt = False,
    mulligan: MulliganOpt = "rules",
    redraws: RedrawsOpt = None,
    redraw_policy: RedrawPolicyOpt = "optimal",
    by_turn: Annotated[int | None, typer.Option("--by-turn", help="A table of turns 1…T.")] = None,
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Exact odds of holding what you need: opening hand, later turns, with the mulligan.

    Cards set aside by the rules (a planet, seed cards, starting miners) are not drawn. With
    the game's mulligan the choice is optimal for your question, and the figure without it is
    shown too.

    Example: [bold]deckcheck odds examples/ren-dhark/terra-custom.txt "type:ship>=2" --by-turn 5[/]
    """
    from deckcheck.analysis.odds import compute_odds
    from deckcheck.analysis.setup import open_setup

    options = _odds_options(seen, turn, second, mulligan, redraws, by_turn, redraw_policy)
    setup = open_setup(deck, catalogs=catalog or [], game=game)
    result = compute_odds(setup, conditions, options)
    _show_odds(result, json_out)


@_command(app)
def simulate(
    deck: Annotated[str, typer.Argument(help="Deck file, - for stdin, or a pile GAME:PILE.")],
    conditions: Annotated[list[str], typer.Argument(help="SELECTOR OP COUNT, all must hold.")],
    trials: Annotated[int, typer.Option("--trials", "-n", help="Simulated deals.")] = 1_000_000,
    seed: Annotated[int | None, typer.Option("--seed", help="Random seed (reproducible).")] = None,
    seen: SeenOpt = None,
    turn: TurnOpt = None,
    second: SecondOpt = False,
    mulligan: MulliganOpt = "rules",
    redraws: RedrawsOpt = None,
    redraw_policy: RedrawPolicyOpt = "optimal",
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Monte Carlo estimate over whole deals, with a Wilson 95% interval.

    For what exact maths cannot reach (look-ahead choices over many turns, any rule with
    choices). Uses numpy and every core for long runs; a seed makes a run reproducible.

    Example: [bold]deckcheck simulate my-deck.txt "type:warrior>=2" --turn 3 --seed 7[/]
    """
    from deckcheck.analysis.odds import simulate_odds
    from deckcheck.analysis.setup import open_setup

    options = _odds_options(seen, turn, second, mulligan, redraws, None, redraw_policy)
    setup = open_setup(deck, catalogs=catalog or [], game=game)
    with render.progress_bar(trials) as progress:
        result = simulate_odds(setup, conditions, options, trials, seed, progress)
    _show_odds(result, json_out)


@_command(app)
def hand(
    deck: Annotated[str, typer.Argument(help="Deck file, - for stdin, or a pile GAME:PILE.")],
    conditions: Annotated[
        list[str] | None,
        typer.Argument(help="Optional goal (SELECTOR OP COUNT) that a choosing mulligan aims for."),
    ] = None,
    seed: Annotated[int | None, typer.Option("--seed", help="Random seed (reproducible).")] = None,
    count: Annotated[int, typer.Option("--count", "-k", help="How many hands.")] = 1,
    mulligan: MulliganOpt = "rules",
    second: SecondOpt = False,
    redraw_policy: RedrawPolicyOpt = "optimal",
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Deal sample opening hands the way the game deals them, with the mulligan decision.

    Cards are grouped by type; each hand says what was redrawn or returned, and why. Hand N
    of a seed is the same whatever --count, so a hand can be shown again.

    Example: [bold]deckcheck hand examples/ren-dhark/terra-custom.txt --count 3 --seed 1[/]
    """
    from deckcheck.analysis.hands import sample_hands
    from deckcheck.analysis.setup import open_setup

    options = _odds_options(None, None, second, mulligan, None, None, redraw_policy)
    setup = open_setup(deck, catalogs=catalog or [], game=game)
    result = sample_hands(
        setup,
        count=count,
        seed=seed,
        mulligan=options.mulligan,
        conditions=conditions or [],
        second=second,
        redraw_policy=options.redraw_policy,
    )
    if json_out:
        render.emit_json(render.hands_json(result))
    else:
        render.hands(result)


@_command(app)
def export(
    deck: Annotated[str, typer.Argument(help="Deck file (- for stdin).")],
    to: Annotated[
        str,
        typer.Option(
            "--to",
            "-t",
            help="Format: text, toml, json, csv, "
            "markdown, or the game's own (lackey for stccg-1e).",
        ),
    ],
    output: Annotated[
        Path | None,
        typer.Option("-o", "--output", help="File to write (default: standard output)."),
    ] = None,
    force: Annotated[bool, typer.Option("--force", help="Replace an existing file.")] = False,
    allow_illegal: Annotated[
        bool, typer.Option("--allow-illegal", help="Export even an illegal deck.")
    ] = False,
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    variant: VariantOpt = None,
) -> None:
    """Export a legal deck to another format; never overwrites without --force.

    An illegal deck gets its validation report and exit code 1 (unless --allow-illegal); an
    unverified one is exported with a warning. Files are written atomically.

    Example: [bold]deckcheck export my-deck.txt --to lackey -o my-deck.dek[/]
    """
    from deckcheck.core.violations import Status
    from deckcheck.export import export_deck

    if output is not None and str(output) == "-":
        output = None  # "-" is standard output, as DECK "-" is standard input
    result = export_deck(
        deck,
        to,
        output=output,
        force=force,
        allow_illegal=allow_illegal,
        catalogs=catalog or [],
        game=game,
        variant=variant,
    )
    if result.refused:
        render.say(
            render.err,
            ("not exported:", "bold red"),
            " the deck is illegal (--allow-illegal exports it anyway)",
        )
        render.report(result.report, console=render.err)
        raise typer.Exit(1)
    if result.report.status is Status.UNVERIFIED:
        undecided = [v.message for v in result.report.violations if v.severity.value == "unknown"]
        render.say(
            render.err, ("warning:", "yellow"), " the deck is unverified: " + "; ".join(undecided)
        )
    elif result.report.status is Status.ILLEGAL:
        render.say(
            render.err, ("warning:", "yellow"), " exporting an illegal deck (--allow-illegal)"
        )
    if output is None:
        sys.stdout.write(result.text or "")
    else:
        render.say(render.err, f"wrote {output} ({to})")


@_command(app)
def diff(
    deck_a: Annotated[str, typer.Argument(help="The first deck.")],
    deck_b: Annotated[str, typer.Argument(help="The second deck.")],
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """Compare two decks: cards added, removed and changed, by type, and the rule totals.

    Example: [bold]deckcheck diff old-deck.txt new-deck.txt --json[/]
    """
    from deckcheck.diff import diff_decks

    result = diff_decks(deck_a, deck_b, catalogs=catalog or [], game=game)
    if json_out:
        render.emit_json(result.as_json())
    else:
        render.deck_diff(result)


@_command(app)
def stats(
    deck: Annotated[str, typer.Argument(help="Deck file, - for stdin, or a pile GAME:PILE.")],
    second: SecondOpt = False,
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    variant: VariantOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """A deck's composition by the dimensions its game declares, as bar charts, with the
    opening hand's expected count and chance of at least one per value (exact, with the
    game's mulligan).

    Example: [bold]deckcheck stats examples/planetary-conquerors/legal-50.txt[/]
    """
    from deckcheck.analysis.stats import deck_stats
    from deckcheck.cli import charts

    result = deck_stats(deck, catalogs=catalog or [], game=game, variant=variant, second=second)
    if json_out:
        render.emit_json(result.to_json())
    else:
        charts.stats(result, render.out)


@_command(catalog_app, "template")
def catalog_template(
    game: Annotated[str, typer.Argument(help="Game id.")],
    field: Annotated[
        list[str] | None,
        typer.Option("--field", "-f", help="List every card lacking this field, ready to fill in."),
    ] = None,
) -> None:
    """Print a commented catalog overlay to fill in (standard output).

    Example: [bold]deckcheck catalog template ren-dhark --field resource_points > mine.toml[/]
    """
    from deckcheck.games.catalog_template import render_template
    from deckcheck.games.registry import get_game

    the_game = get_game(game)
    sys.stdout.write(render_template(the_game, the_game.bundled_catalog(), field or []))


@_command(catalog_app, "check")
def catalog_check(
    file: Annotated[str, typer.Argument(help="The overlay file to check (- for stdin).")],
) -> None:
    """Check a catalog overlay and report every problem with its line; exit 2 if any.

    Example: [bold]deckcheck catalog check examples/planetary-conquerors/example-set.toml[/]
    """
    from deckcheck.games.catalog_check import check_catalog_file

    result = check_catalog_file(file)
    if not result.ok:
        render.problem_lines(
            [p.describe(result.label) for p in result.problems],
            f"{result.label}: {len(result.problems)} problem(s)",
        )
        raise typer.Exit(2)
    render.say(
        render.out,
        ("ok", "green"),
        f": {result.label} ({result.game}): {result.changed} card(s) changed, {result.added} added",
    )


def main() -> None:
    """Console-script entry point."""
    app(prog_name="deckcheck")
