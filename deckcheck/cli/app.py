"""The ``deckcheck`` commands. Each parses its arguments, calls one function of
:mod:`deckcheck.api` and returns ``render.show(result, json_out, renderer)``: the exit code comes
from the result. Bad input of any kind ends in :func:`_guarded`, exit code 2."""

from __future__ import annotations

import copy
import functools
import inspect
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Annotated, Any

import typer
import typer.main
import typer.models

from deckcheck.cli import process, render
from deckcheck.cli.help import ReadableCommand, ReadableGroup
from deckcheck.cli.render import show
from deckcheck.core.errors import DeckcheckError


def _guarded(fn: Callable[..., int]) -> Callable[..., None]:
    """The one place where input errors become one clear message and exit code 2."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> None:
        try:
            code = fn(*args, **kwargs)
        except DeckcheckError as exc:
            render.error(exc)
            raise typer.Exit(2) from None
        except RecursionError:
            render.error("input is nested too deeply to read")
            raise typer.Exit(2) from None
        except ValueError as exc:
            # Python's own limit on reading a number (4,300 digits), where a reader of some
            # input did not check first: still bad input, never a traceback.
            if "integer string conversion" not in str(exc):
                raise
            render.error("a number in the input is too long to read (thousands of digits)")
            raise typer.Exit(2) from None
        except (KeyboardInterrupt, process.Stopped, process.OutputFailed) as exc:
            # Typer would end a Ctrl-C silently; every stop says why, in one line.
            raise typer.Exit(process.ending(exc)) from None
        if code:
            raise typer.Exit(code)

    return wrapper


def _unwrapped(doc: str) -> str:
    """A docstring as help: its paragraphs kept, the line breaks inside each removed (the
    terminal wraps them at its own width, never mid-sentence at the source's)."""
    paragraphs = inspect.cleandoc(doc).split("\n\n")
    return "\n\n".join(" ".join(p.split("\n")) for p in paragraphs)


def _command(target: typer.Typer, name: str | None = None) -> Callable[..., Any]:
    """Register a command on ``target`` with deckcheck's error handling; the command returns
    its exit code (from :func:`render.show`)."""

    def register(fn: Callable[..., int]) -> Callable[..., int]:
        target.command(name, cls=ReadableCommand, help=_unwrapped(fn.__doc__ or ""))(_guarded(fn))
        return fn

    return register


app = typer.Typer(
    cls=ReadableGroup,
    no_args_is_help=True,
    rich_markup_mode="rich",
    context_settings={"help_option_names": ["-h", "--help"]},
    help="Validate decks for card and board games, compute exact draw odds, simulate, export.\n\n"
    "Example: [bold]deckcheck validate my-deck.txt[/]",
)
catalog_app = typer.Typer(
    cls=ReadableGroup,
    no_args_is_help=True,
    help="Work with catalog files: a template to fill in, and a checker.\n\n"
    "Example: [bold]deckcheck catalog template planetary-conquerors > my-set.toml[/]",
)
app.add_typer(catalog_app, name="catalog")
collection_app = typer.Typer(
    cls=ReadableGroup,
    no_args_is_help=True,
    help="Edit your collection file: copies of a card added or removed in place.\n\n"
    'Example: [bold]deckcheck collection add my-cards.txt "POINT OF" 2[/]',
)
app.add_typer(collection_app, name="collection")


def _print_version(wanted: bool) -> None:
    if wanted:
        from deckcheck import __version__

        render.say(render.stdout(), f"deckcheck {__version__}")
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            metavar="",
            callback=_print_version,
            is_eager=True,
            help="Print deckcheck's version and exit.",
        ),
    ] = False,
) -> None:
    """Validate decks for card and board games, compute exact draw odds, simulate, export."""


JsonOpt = Annotated[bool, typer.Option("--json", metavar="", help="Print JSON on standard output.")]
VerboseOpt = Annotated[
    bool,
    typer.Option(
        "--verbose", metavar="", help="List each card set aside (else summed up by kind)."
    ),
]
CatalogOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--catalog",
        "-c",
        metavar="FILE",
        help="A catalog overlay file laid over the bundled catalog (repeatable; later files win).",
    ),
]
GameOpt = Annotated[
    str | None,
    typer.Option(
        "--game",
        "-g",
        metavar="GAME",
        help="The game, when the deck does not say (see `deckcheck games`).",
    ),
]
SetOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--set",
        metavar="KEY=VALUE",
        help="Change a setting of the variant (repeatable; `deckcheck games` lists each game's), "
        "e.g. --set missions=4.",
    ),
]
MissionsOpt = Annotated[
    int | None,
    typer.Option("--missions", metavar="N", help="Alias of --set missions=N.", min=1, max=1000),
]
VariantOpt = Annotated[
    str | None,
    typer.Option(
        "--variant",
        "--format",
        metavar="VARIANT",
        help="The variant to check against (default: the deck's, else the game's default).",
    ),
]


@_command(app)
def games(json_out: JsonOpt = False) -> int:
    """List the games deckcheck knows, their variants and built-in random piles.

    Example: [bold]deckcheck games --json[/]
    """
    from deckcheck import api

    return show(api.games(), json_out, render.games)


@_command(app)
def cards(
    game: Annotated[str, typer.Argument(help="Game id, e.g. ren-dhark.")],
    search: Annotated[
        list[str] | None,
        typer.Argument(
            help="Terms that must all hold: part of a name or id, field:value, or a number "
            'field compared, in quotes: "points<=2".'
        ),
    ] = None,
    catalog: CatalogOpt = None,
    variant: Annotated[
        str | None,
        typer.Option(
            "--variant",
            "--format",
            metavar="VARIANT",
            help="Show the cards as this variant changes them (and its notes).",
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> int:
    """List a game's cards, optionally those matching every term of SEARCH; one match is
    shown in full. A search with no match suggests the nearest names.

    Examples: [bold]deckcheck cards ren-dhark type:ship[/] · [bold]deckcheck cards the-drake Monk[/]
    · [bold]deckcheck cards stccg-1e type:ship affiliation:klingon "range>=8"[/]
    · [bold]deckcheck cards dorn type:ritual --variant four-heroes[/]
    """
    from deckcheck import api

    result = api.cards(game, search or None, catalogs=catalog or [], variant=variant)
    return show(result, json_out, render.card_list)


@_command(app)
def validate(
    decks: Annotated[list[str], typer.Argument(help="Deck files (- for standard input).")],
    game: GameOpt = None,
    variant: VariantOpt = None,
    catalog: CatalogOpt = None,
    settings: SetOpt = None,
    missions: MissionsOpt = None,
    suggest: Annotated[
        bool,
        typer.Option(
            "--suggest",
            metavar="",
            help="Under an illegal deck's findings, its nearest legal deck.",
        ),
    ] = False,
    owned: Annotated[
        str | None,
        typer.Option(
            "--owned",
            metavar="FILE",
            help="A deck file listing your collection: list the copies it lacks for each deck.",
        ),
    ] = None,
    json_out: JsonOpt = False,
) -> int:
    """Check decks against their game's construction rules; every violation is reported.
    With --owned, also what your collection lacks to build each deck (the exit code stays the
    deck's).

    Exit code 0: all legal; 1: a deck is illegal; 3: a rule could not be decided (catalog
    data missing); 2: a deck could not be read.

    Example: [bold]deckcheck validate examples/ren-dhark/terra-custom.txt --json[/]
    """
    from deckcheck import api

    params = api.parse_settings(settings or [])
    if missions is not None:
        params["missions"] = str(missions)
    if suggest:
        suggested = api.validate_and_suggest(
            decks, game=game, variant=variant, catalogs=catalog or [], params=params
        )
        return show(suggested, json_out, render.suggested)
    result = api.validate(
        decks, game=game, variant=variant, catalogs=catalog or [], params=params, owned=owned
    )
    return show(result, json_out, render.validation)


PileVariantOpt = Annotated[
    str | None,
    typer.Option(
        "--variant",
        "--format",
        metavar="VARIANT",
        help="The variant (default: the deck's, else the game's); for a pile GAME:PILE it can "
        "set the cards seen (Dorn four-heroes: 4 blessings).",
    ),
]
SeenOpt = Annotated[
    int | None,
    typer.Option("--seen", metavar="N", help="Cards seen in all (opening hand plus draws)."),
]
TurnOpt = Annotated[
    int | None,
    typer.Option(
        "--turn",
        metavar="T",
        help="Cards seen by the start of own turn T under the game's rules (1 = opening hand; "
        "Ren Dhark: your T-th attack, a minimum).",
    ),
]
SecondOpt = Annotated[
    bool,
    typer.Option(
        "--second",
        metavar="",
        help="The player who does not start: more cards where the game deals them (Planetary "
        "Conquerors: a sixth card, in a two-player game; Ren Dhark: red, as blue starts).",
    ),
]
MulliganOpt = Annotated[
    str,
    typer.Option(
        "--mulligan",
        metavar="rules|none",
        help="rules: the game's own redraw/mulligan (Planetary Conquerors' return chosen "
        "optimally; Ren Dhark's redraw per --redraw-policy); none: the plain draw.",
    ),
]
RedrawPolicyOpt = Annotated[
    str,
    typer.Option(
        "--redraw-policy",
        metavar="optimal|always",
        help="For an optional redraw rule (Ren Dhark): 'optimal' (default) redraws only when "
        "that raises the chance of the query (exact); 'always' redraws whenever allowed.",
    ),
]
RedrawsOpt = Annotated[
    str | None,
    typer.Option(
        "--redraws",
        metavar="N|unlimited",
        help="Redraw limit for games with a redraw rule: a number or 'unlimited'.",
    ),
]


@_command(app)
def odds(
    deck: Annotated[
        str,
        typer.Argument(
            help="Deck file, - for stdin, or a pile GAME:PILE (with --deck N: the first condition)."
        ),
    ],
    conditions: Annotated[
        list[str] | None,
        typer.Argument(
            help='SELECTOR OP COUNT, all must hold, each in quotes: "type:ship>=2" '
            '"POINT OF>=1"; "A | B" holds when either does; CONDITION@TURN: its own deadline'
        ),
    ] = None,
    deck_size: Annotated[
        int | None,
        typer.Option("--deck", metavar="N", help="No deck file: the number of cards drawn from."),
    ] = None,
    category: Annotated[
        list[str] | None,
        typer.Option(
            "--category",
            metavar="NAME=COUNT",
            help="With --deck: NAME=COUNT cards of a kind (repeatable; type:ship=15 lets the "
            "game's mulligan see their type).",
        ),
    ] = None,
    seen: SeenOpt = None,
    turn: TurnOpt = None,
    second: SecondOpt = False,
    mulligan: MulliganOpt = "rules",
    redraws: RedrawsOpt = None,
    redraw_policy: RedrawPolicyOpt = "optimal",
    by_turn: Annotated[
        int | None, typer.Option("--by-turn", metavar="T", help="A table of turns 1…T.")
    ] = None,
    expected_turn: Annotated[
        bool,
        typer.Option(
            "--expected-turn",
            help="When the conditions first hold: turn 1…T (--turn or --by-turn, default 10), "
            "then later; mean and median, on the play and on the draw.",
        ),
    ] = False,
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    variant: PileVariantOpt = None,
    verbose: VerboseOpt = False,
    json_out: JsonOpt = False,
) -> int:
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
    from deckcheck import api
    from deckcheck.core.errors import UsageError

    if deck_size is not None:
        result = api.odds_deckless(
            deck_size,
            category or [],
            [deck, *(conditions or [])],
            seen=seen,
            turn=turn,
            second=second,
            mulligan=mulligan,
            redraws=redraws,
            redraw_policy=redraw_policy,
            by_turn=by_turn,
            catalogs=catalog or [],
            game=game,
        )
        return show(result, json_out, render.odds)
    if category:
        raise UsageError("--category describes a deck given by --deck N (no deck file)")
    with render.progress_bar() as progress:
        result = api.odds(
            deck,
            conditions or [],
            seen=seen,
            turn=turn,
            second=second,
            mulligan=mulligan,
            redraws=redraws,
            redraw_policy=redraw_policy,
            by_turn=by_turn,
            catalogs=catalog or [],
            game=game,
            variant=variant,
            progress=progress,
            expected_turn=expected_turn,
        )
    return show(result, json_out, render.odds_listing if verbose else render.odds)


@_command(app)
def mulligan(
    deck: Annotated[str, typer.Argument(help="Deck file, - for stdin, or a pile GAME:PILE.")],
    conditions: Annotated[
        list[str],
        typer.Argument(
            help="SELECTOR OP COUNT, optionally @TURN (its own deadline), all must hold, each "
            'in quotes: "type:ship>=2" "type:person>=3@4"'
        ),
    ],
    seen: SeenOpt = None,
    turn: TurnOpt = None,
    second: SecondOpt = False,
    every_row: Annotated[
        bool, typer.Option("--all", help="Every hand class, not only the most often dealt.")
    ] = False,
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    variant: PileVariantOpt = None,
    json_out: JsonOpt = False,
) -> int:
    """The exact mulligan guide: keep, redraw or which cards to return, for every hand class.

    For each opening hand the game's rule tells apart (how many cards of each condition and
    of the cards the rule names), the best play for your question, the chance if kept and if
    redrawn (or returned), the margin and how often the hand is dealt; a rule of thumb when
    one fits. It is the play odds assumes: following it gives the chance odds reports.

    Example: [bold]deckcheck mulligan examples/ren-dhark/terra-custom.txt "type:ship>=2" --turn 2[/]
    """
    from deckcheck import api

    result = api.mulligan(
        deck,
        conditions,
        seen=seen,
        turn=turn,
        second=second,
        every_row=every_row,
        catalogs=catalog or [],
        game=game,
        variant=variant,
    )
    return show(result, json_out, render.mulligan)


@_command(app)
def simulate(
    deck: Annotated[str, typer.Argument(help="Deck file, - for stdin, or a pile GAME:PILE.")],
    conditions: Annotated[
        list[str],
        typer.Argument(help='SELECTOR OP COUNT, all must hold, each in quotes: "type:ship>=2".'),
    ],
    trials: Annotated[
        int, typer.Option("--trials", "-n", metavar="N", help="Simulated deals.")
    ] = 1_000_000,
    seed: Annotated[
        int | None, typer.Option("--seed", metavar="N", help="Random seed (reproducible).")
    ] = None,
    seen: SeenOpt = None,
    turn: TurnOpt = None,
    second: SecondOpt = False,
    mulligan: MulliganOpt = "rules",
    redraws: RedrawsOpt = None,
    redraw_policy: RedrawPolicyOpt = "optimal",
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    variant: PileVariantOpt = None,
    verbose: VerboseOpt = False,
    json_out: JsonOpt = False,
) -> int:
    """Monte Carlo estimate over whole deals, with a Wilson 95% interval.

    For what exact maths cannot reach (look-ahead choices over many turns, any rule with
    choices). Uses numpy, and the cores it may use for runs long enough to repay them; a seed
    makes a run reproducible, on any number of cores.

    Example: [bold]deckcheck simulate my-deck.txt "type:warrior>=2" --turn 3 --seed 7[/]
    """
    from deckcheck import api

    with render.progress_bar(trials, "simulating") as progress:
        result = api.simulate(
            deck,
            conditions,
            trials=trials,
            seed=seed,
            seen=seen,
            turn=turn,
            second=second,
            mulligan=mulligan,
            redraws=redraws,
            redraw_policy=redraw_policy,
            catalogs=catalog or [],
            game=game,
            variant=variant,
            progress=progress,
        )
    return show(result, json_out, render.odds_listing if verbose else render.odds)


@_command(app)
def hand(
    deck: Annotated[str, typer.Argument(help="Deck file, - for stdin, or a pile GAME:PILE.")],
    conditions: Annotated[
        list[str] | None,
        typer.Argument(
            help='Optional goal (SELECTOR OP COUNT, in quotes: "type:warrior>=2") that a '
            "choosing mulligan aims for."
        ),
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", metavar="N", help="Random seed (reproducible).")
    ] = None,
    count: Annotated[int, typer.Option("--count", "-k", metavar="N", help="How many hands.")] = 1,
    mulligan: MulliganOpt = "rules",
    second: SecondOpt = False,
    redraw_policy: RedrawPolicyOpt = "optimal",
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    variant: PileVariantOpt = None,
    json_out: JsonOpt = False,
) -> int:
    """Deal sample opening hands the way the game deals them, with the mulligan decision.

    Cards are grouped by type; each hand says what was redrawn or returned, and why. Hand N
    of a seed is the same whatever --count, so a hand can be shown again.

    Example: [bold]deckcheck hand examples/ren-dhark/terra-custom.txt --count 3 --seed 1[/]
    """
    from deckcheck import api

    result = api.hand(
        deck,
        conditions or [],
        count=count,
        seed=seed,
        second=second,
        mulligan=mulligan,
        redraw_policy=redraw_policy,
        catalogs=catalog or [],
        game=game,
        variant=variant,
    )
    return show(result, json_out, render.hands)


@_command(app)
def export(
    deck: Annotated[str, typer.Argument(help="Deck file (- for stdin).")],
    to: Annotated[
        str,
        typer.Option(
            "--to",
            "-t",
            metavar="FORMAT",
            help="Format: text, toml, json, csv, markdown, or the game's own (stccg-1e: "
            "lackey, which is Lackey's .dek XML when the file ends in .dek; dek; gemp).",
        ),
    ],
    output: Annotated[
        str | None,  # as typed: a trailing '/' names a folder
        typer.Option(
            "-o", "--output", metavar="FILE", help="File to write (default: standard output)."
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", metavar="", help="Replace an existing file.")
    ] = False,
    allow_illegal: Annotated[
        bool, typer.Option("--allow-illegal", metavar="", help="Export even an illegal deck.")
    ] = False,
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    variant: VariantOpt = None,
) -> int:
    """Export a legal deck to another format; never overwrites without --force.

    An illegal deck gets its validation report and exit code 1 (unless --allow-illegal); an
    unverified one is exported with a warning. Files are written atomically.

    Example: [bold]deckcheck export my-deck.txt --to lackey -o my-deck.dek[/]
    """
    from deckcheck import api

    if output is not None and str(output) == "-":
        output = None  # "-" is standard output, as DECK "-" is standard input
    result = api.export(
        deck,
        to,
        output=output,
        force=force,
        allow_illegal=allow_illegal,
        catalogs=catalog or [],
        game=game,
        variant=variant,
    )
    return show(result, False, render.exported)


TakeFromOpt = Annotated[
    str | None,
    typer.Option(
        "--collection",
        metavar="FILE",
        help="Your collection (a deck file listing your cards): the deck's copies come out of it.",
    ),
]
ReserveOpt = Annotated[
    list[str] | None,
    typer.Option(
        "--reserve",
        metavar="DECK",
        help="A deck (or folder of decks) whose copies of the collection stay its own "
        "(repeatable; needs --collection).",
    ),
]


@_command(app)
def fix(
    deck: Annotated[str, typer.Argument(help="Deck file (- for stdin).")],
    keep: Annotated[
        list[str] | None,
        typer.Option(
            "--keep", "-k", metavar="CARD", help="A card never removed (name or id; repeatable)."
        ),
    ] = None,
    owned: Annotated[
        str | None,
        typer.Option(
            "--owned",
            "--only-from",
            metavar="DECK",
            help="A deck file listing your collection: every card's copies stay within it.",
        ),
    ] = None,
    collection: TakeFromOpt = None,
    reserve: ReserveOpt = None,
    prefer: Annotated[
        str | None,
        typer.Option(
            "--prefer",
            metavar="SELECTOR",
            help="Among the nearest decks, prefer cards matching this (type:ship).",
        ),
    ] = None,
    write: Annotated[
        bool,
        typer.Option(
            "--write", metavar="", help="Replace DECK with the answer (atomically; DECK.bak kept)."
        ),
    ] = False,
    output: Annotated[
        str | None,  # as typed: a trailing '/' names a folder
        typer.Option(
            "-o",
            "--output",
            metavar="FILE",
            help="Write the answer to this file (- for standard output).",
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", metavar="", help="Let -o replace an existing file.")
    ] = False,
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    variant: VariantOpt = None,
    settings: SetOpt = None,
    json_out: JsonOpt = False,
) -> int:
    """The nearest legal deck: the fewest copies added and removed, proven minimal (a
    mixed-integer solver's optimum over the rules as constraints).

    Exit code 0: the answer (or the deck) is legal; 1: no legal deck is reachable (the rules
    that cannot be met are named), or the answer breaks a rule checked on it only.

    With --collection FILE and --reserve DECK...: build or repair the deck from your
    collection without taking the copies the reserved decks use.

    Example: [bold]deckcheck fix my-deck.txt --keep "POINT OF" --write[/]
    """
    from deckcheck import api

    result = api.fix(
        deck,
        keep=keep or [],
        owned=owned,
        prefer=prefer,
        collection=collection,
        reserve=reserve or [],
        write=write,
        output=output,
        force=force,
        catalogs=catalog or [],
        game=game,
        variant=variant,
        params=api.parse_settings(settings or []),
    )
    return show(result, json_out, render.fixed)


@_command(app)
def optimize(
    deck: Annotated[str, typer.Argument(help="Deck file (- for stdin); a new empty deck works.")],
    conditions: Annotated[
        list[str],
        typer.Argument(
            help='SELECTOR OP COUNT, all must hold, each in quotes: "type:ship>=2"; '
            '"type:ship>=1@1": its own deadline'
        ),
    ],
    seen: SeenOpt = None,
    turn: TurnOpt = None,
    second: SecondOpt = False,
    changes: Annotated[
        int | None,
        typer.Option(
            "--changes",
            "-K",
            metavar="K",
            help="At most K copies added plus removed, as fix counts them (default: any).",
        ),
    ] = None,
    owned: Annotated[
        str | None,
        typer.Option(
            "--owned",
            metavar="FILE",
            help="A deck file listing your collection: every card's copies stay within it.",
        ),
    ] = None,
    collection: TakeFromOpt = None,
    reserve: ReserveOpt = None,
    keep: Annotated[
        list[str] | None,
        typer.Option(
            "--keep", "-k", metavar="CARD", help="A card never removed (name or id; repeatable)."
        ),
    ] = None,
    time_limit: Annotated[
        float | None,
        typer.Option(
            "--time-limit",
            metavar="S",
            help="Stop after S seconds with the best deck found and a bound on what is left.",
        ),
    ] = None,
    write: Annotated[
        bool,
        typer.Option("--write", help="Replace DECK with the answer (atomically; DECK.bak kept)."),
    ] = False,
    output: Annotated[
        str | None,  # as typed: a trailing '/' names a folder
        typer.Option(
            "-o",
            "--output",
            metavar="FILE",
            help="Write the answer to this file (- for standard output).",
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", help="Let -o replace an existing file.")
    ] = False,
    mulligan: MulliganOpt = "rules",
    redraw_policy: RedrawPolicyOpt = "optimal",
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    variant: VariantOpt = None,
    settings: SetOpt = None,
    json_out: JsonOpt = False,
) -> int:
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
    from deckcheck import api

    with render.progress_bar(label="searching") as progress:
        result = api.optimize(
            deck,
            conditions,
            seen=seen,
            turn=turn,
            second=second,
            changes=changes,
            owned=owned,
            collection=collection,
            reserve=reserve or [],
            keep=keep or [],
            time_limit=time_limit,
            write=write,
            output=output,
            force=force,
            mulligan=mulligan,
            redraw_policy=redraw_policy,
            catalogs=catalog or [],
            game=game,
            variant=variant,
            params=api.parse_settings(settings or []),
            progress=progress,
        )
    return show(result, json_out, render.optimized)


CollectionOpt = Annotated[
    str,
    typer.Option(
        "--collection",
        metavar="FILE",
        help="Your collection: a deck file listing the cards you own (or a folder of them).",
    ),
]


@_command(app)
def owned(
    decks: Annotated[
        list[str],
        typer.Argument(
            help="Deck files, or a folder: every deck file in it.", metavar="DECK...|DIR"
        ),
    ],
    collection: CollectionOpt,
    most: Annotated[
        bool,
        typer.Option("--most", help="Also the largest set of the decks buildable at once."),
    ] = False,
    catalog: CatalogOpt = None,
    json_out: JsonOpt = False,
) -> int:
    """Can your collection build all these decks at the same time? Each deck's standing on
    its own, and if not all at once, the fewest extra copies to acquire, card by card (proven
    minimal), with the decks contending for each; --most adds the largest set of the decks
    buildable at once (a proven maximum). A copy in each zone counts, side zones too.

    Exit code 0: all can be built at once; 1: not; 2: a file could not be read.

    Example: [bold]deckcheck owned examples/the-drake --collection
    examples/my-collection.txt --most[/]
    """
    from deckcheck import api

    result = api.owned(decks, collection, most=most, catalogs=catalog or [])
    return show(result, json_out, render.owned)


ZoneOpt = Annotated[
    str | None,
    typer.Option(
        "--zone",
        "-z",
        metavar="ZONE",
        help="The zone, where the game's decks have zones (Missions).",
    ),
]


@_command(app)
def new(
    game: Annotated[str, typer.Argument(help="Game id, e.g. stccg-1e.")],
    output: Annotated[
        str,  # as typed: a trailing '/' names a folder
        typer.Option(
            "-o",
            "--output",
            metavar="FILE",
            help="The deck file to write (.txt, .toml, .json, .dek).",
        ),
    ],
    variant: VariantOpt = None,
    starter: Annotated[
        str | None,
        typer.Option(
            "--starter",
            metavar="NAME",
            help="Which ready-made deck of the variant (Ren Dhark: red).",
        ),
    ] = None,
    force: Annotated[
        bool, typer.Option("--force", metavar="", help="Replace an existing file.")
    ] = False,
    catalog: CatalogOpt = None,
    json_out: JsonOpt = False,
) -> int:
    """Start a deck file: the header, the game's zones and the variant's limits as comments
    (a starter variant's cards filled in; --catalog files named in its header). Never
    overwrites without --force.

    Examples: [bold]deckcheck new stccg-1e -o my-deck.txt[/]
    · [bold]deckcheck new pc -o my-deck.txt --catalog my-set.toml[/]
    """
    from deckcheck import api

    result = api.new(
        game, output, variant=variant, starter=starter, force=force, catalogs=catalog or []
    )
    return show(result, json_out, render.new_deck)


def _pairs(words: Sequence[str]) -> list[tuple[str, int]]:
    """``Gowron 2 Kurn Worf 3``: each card with the count after it (1 when none follows)."""
    from deckcheck.core.errors import UsageError

    pairs: list[tuple[str, int | None]] = []
    for word in words:
        number = word.isascii() and word.isdigit()  # "²" is a digit to Python, not a count
        if number and len(word.lstrip("0")) > 6:
            shown = word if len(word) <= 24 else f"{word[:12]}… ({len(word):,} digits)"
            raise UsageError(f"the number of copies is 1 to 10,000, not {shown}")
        if not number:
            pairs.append((word, None))
        elif pairs and pairs[-1][1] is None:
            pairs[-1] = (pairs[-1][0], int(word))
        else:
            raise UsageError(f'{word} copies of what? Give the card first: "Gowron" {word}')
    for name, n in pairs:
        if n is not None and n < 1:
            raise UsageError(f"the number of copies of {name!r} must be at least 1, not {n}")
    return [(name, 1 if n is None else n) for name, n in pairs]


def _edit(
    remove: bool,
    deck: str,
    cards: list[str],
    zone: str | None,
    catalog: list[Path] | None,
    game: str | None,
    variant: str | None,
    json_out: bool,
) -> int:
    from deckcheck import api
    from deckcheck.core.inputs import read_text

    edit = api.remove if remove else api.add
    listed = read_text("-") if cards == ["-"] else None
    pairs = [] if listed is not None else _pairs(cards)
    result = edit(
        deck,
        pairs,
        zone=zone,
        catalogs=catalog or [],
        game=game,
        variant=variant,
        listed=listed,
    )
    return show(result, json_out, render.edited)


CardsArg = Annotated[
    list[str],
    typer.Argument(
        help='Cards, each with its count after it (1 if none): "Gowron" 2 "Kurn" 1; or - '
        "for a pasted list on standard input.",
        metavar="CARD [COUNT]...",
    ),
]


@_command(app)
def add(
    deck: Annotated[str, typer.Argument(help="The deck file to edit in place.")],
    cards: CardsArg,
    zone: ZoneOpt = None,
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    variant: VariantOpt = None,
    json_out: JsonOpt = False,
) -> int:
    """Add copies of cards to a deck file, keeping its format, comments, order and zones;
    then every rule's progress in one line and the findings the change brought or cleared.

    Examples: [bold]deckcheck add my-deck.txt "Klingon Outpost" 1 --zone Seed+Dil[/]
    · [bold]deckcheck add my-deck.txt Gowron 2 Kurn 1 Worf[/]
    · [bold]deckcheck add my-deck.txt - < pasted-list.txt[/]
    """
    return _edit(False, deck, cards, zone, catalog, game, variant, json_out)


@_command(app)
def remove(
    deck: Annotated[str, typer.Argument(help="The deck file to edit in place.")],
    cards: CardsArg,
    zone: ZoneOpt = None,
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    variant: VariantOpt = None,
    json_out: JsonOpt = False,
) -> int:
    """Remove copies of cards from a deck file (a line goes at 0 copies), keeping the rest
    of the file as it is; then every rule's progress and the findings that changed.

    Examples: [bold]deckcheck remove my-deck.txt Worf 2[/] · [bold]deckcheck remove my-deck.txt
    Worf 2 Kurn[/]
    """
    return _edit(True, deck, cards, zone, catalog, game, variant, json_out)


def _collection_edit(
    remove: bool,
    collection: str,
    card: str,
    count: int,
    catalog: list[Path] | None,
    game: str | None,
    json_out: bool,
) -> int:
    from deckcheck import api

    edit = api.collection_remove if remove else api.collection_add
    result = edit(collection, card, count, catalogs=catalog or [], game=game)
    return show(result, json_out, render.collection_edited)


@_command(collection_app, "add")
def collection_add(
    collection: Annotated[str, typer.Argument(help="The collection file to edit in place.")],
    card: Annotated[str, typer.Argument(help="The card (name or id).")],
    count: Annotated[int, typer.Argument(help="Copies to add.", min=1)] = 1,
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> int:
    """Add copies of a card to your collection file, keeping its format, comments and order
    (written atomically, as add edits a deck). A file that names no game may mix games: the
    card goes among its game's lines.

    Example: [bold]deckcheck collection add my-cards.txt "POINT OF" 2[/]
    """
    return _collection_edit(False, collection, card, count, catalog, game, json_out)


@_command(collection_app, "remove")
def collection_remove(
    collection: Annotated[str, typer.Argument(help="The collection file to edit in place.")],
    card: Annotated[str, typer.Argument(help="The card (name or id).")],
    count: Annotated[int, typer.Argument(help="Copies to remove.", min=1)] = 1,
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> int:
    """Remove copies of a card from your collection file (a line at 0 copies goes).

    Example: [bold]deckcheck collection remove my-cards.txt "POINT OF" 1[/]
    """
    return _collection_edit(True, collection, card, count, catalog, game, json_out)


@_command(app)
def build(
    deck: Annotated[str, typer.Argument(help="The deck file (a new one is made on first save).")],
    game: GameOpt = None,
    variant: Annotated[
        str | None,
        typer.Option(
            "--format",
            "--variant",
            metavar="VARIANT",
            help="The format (variant) to build for (default: the deck's, else the game's).",
        ),
    ] = None,
    catalog: CatalogOpt = None,
    seed: Annotated[
        int | None, typer.Option("--seed", metavar="N", help="The first playtest hand's seed.")
    ] = None,
    no_mouse: Annotated[
        bool, typer.Option("--no-mouse", help="Leave the mouse to the terminal.")
    ] = False,
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

    return run_build(
        deck, game=game, variant=variant, catalogs=catalog or [], seed=seed, mouse=not no_mouse
    )


@_command(app)
def diff(
    deck_a: Annotated[str, typer.Argument(help="The first deck.")],
    deck_b: Annotated[str, typer.Argument(help="The second deck.")],
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    variant: VariantOpt = None,
    json_out: JsonOpt = False,
) -> int:
    """Compare two decks: cards added, removed and changed, by type, and the rule totals
    (both decks read under --format where given, else each under its own).

    Example: [bold]deckcheck diff old-deck.txt new-deck.txt --json[/]
    """
    from deckcheck import api

    result = api.diff(deck_a, deck_b, catalogs=catalog or [], game=game, variant=variant)
    return show(result, json_out, render.deck_diff)


@_command(app)
def legality(
    deck: Annotated[str, typer.Argument(help="Deck file, or - for stdin.")],
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> int:
    """The deck under every variant of its game: one row each, the verdict and the codes of
    its findings (exit 0 when it passes some variant, 1 when none).

    Example: [bold]deckcheck legality my-lackey-deck.txt --json[/]
    """
    from deckcheck import api

    result = api.legality(deck, catalogs=catalog or [], game=game)
    return show(result, json_out, render.legality)


@_command(app)
def stats(
    deck: Annotated[str, typer.Argument(help="Deck file, - for stdin, or a pile GAME:PILE.")],
    second: SecondOpt = False,
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    variant: VariantOpt = None,
    json_out: JsonOpt = False,
) -> int:
    """A deck's composition by the dimensions its game declares, as bar charts, with the
    opening hand's expected count and chance of at least one per value (exact, with the
    game's mulligan).

    Example: [bold]deckcheck stats examples/planetary-conquerors/legal-50.txt[/]
    """
    from deckcheck import api
    from deckcheck.cli import charts

    result = api.stats(deck, catalogs=catalog or [], game=game, variant=variant, second=second)
    return show(result, json_out, lambda r: charts.stats(r, render.stdout()))


@_command(app)
def distribution(
    deck: Annotated[str, typer.Argument(help="Deck file, - for stdin, or a pile GAME:PILE.")],
    selector: Annotated[
        str, typer.Argument(help="The cards counted: type:ship, a card name, a category.")
    ],
    seen: SeenOpt = None,
    turn: TurnOpt = None,
    second: SecondOpt = False,
    mulligan: MulliganOpt = "rules",
    redraw_policy: RedrawPolicyOpt = "optimal",
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> int:
    """How many cards of a kind are seen: the chance of exactly 0, 1, 2… and of at least
    each (also with the game's mulligan aimed at it), and the expected number. Exact.

    Example: [bold]deckcheck distribution examples/ren-dhark/terra-custom.txt type:ship[/]
    """
    from deckcheck import api
    from deckcheck.cli import charts

    result = api.distribution(
        deck,
        selector,
        seen=seen,
        turn=turn,
        second=second,
        mulligan=mulligan,
        redraw_policy=redraw_policy,
        catalogs=catalog or [],
        game=game,
    )
    return show(result, json_out, lambda r: charts.distribution(r, render.stdout()))


@_command(app)
def tune(
    deck: Annotated[str, typer.Argument(help="Deck file, - for stdin, or a pile GAME:PILE.")],
    condition: Annotated[
        str,
        typer.Argument(
            help='SELECTOR OP COUNT whose category is tuned, in quotes: "type:ship>=2" '
            "(CONDITION@TURN: its own deadline)"
        ),
    ],
    target: Annotated[
        str,
        typer.Option("--target", "-p", metavar="P", help="The probability to reach: 0.95 or 95%."),
    ],
    turn: TurnOpt = None,
    second: SecondOpt = False,
    mulligan: MulliganOpt = "rules",
    redraw_policy: RedrawPolicyOpt = "optimal",
    catalog: CatalogOpt = None,
    game: GameOpt = None,
    json_out: JsonOpt = False,
) -> int:
    """How many cards of the condition's category the deck needs for the condition to hold
    with probability ≥ the target, the deck's size kept (other cards make room), with the
    table of probability by count around the answer. Exact, with the game's opening and
    mulligan.

    Example: [bold]deckcheck tune my-deck.txt "type:ship>=2" --target 95% --turn 2[/]
    """
    from deckcheck import api
    from deckcheck.cli import charts

    result = api.tune(
        deck,
        condition,
        target,
        turn=turn,
        second=second,
        mulligan=mulligan,
        redraw_policy=redraw_policy,
        catalogs=catalog or [],
        game=game,
    )
    return show(result, json_out, lambda r: charts.tune(r, render.stdout()))


@_command(catalog_app, "template")
def catalog_template(
    game: Annotated[str, typer.Argument(help="Game id.")],
    field: Annotated[
        list[str] | None,
        typer.Option(
            "--field",
            "-f",
            metavar="FIELD",
            help="List every card lacking this field, ready to fill in.",
        ),
    ] = None,
) -> int:
    """Print a commented catalog overlay to fill in (standard output).

    Example: [bold]deckcheck catalog template ren-dhark --field resource_points > mine.toml[/]
    """
    from deckcheck import api

    return show(api.catalog_template(game, fields=field or []), False, render.catalog_template)


@_command(catalog_app, "check")
def catalog_check(
    file: Annotated[str, typer.Argument(help="The overlay file to check (- for stdin).")],
) -> int:
    """Check a catalog overlay and report every problem with its line; exit 2 if any.

    Example: [bold]deckcheck catalog check examples/planetary-conquerors/example-set.toml[/]
    """
    from deckcheck import api

    return show(api.catalog_check(file), False, render.catalog_check)


def _command_name(info: typer.models.CommandInfo) -> str | None:
    if info.name:
        return info.name
    return typer.main.get_command_name(info.callback.__name__) if info.callback else None


def app_for(argv: Sequence[str]) -> typer.Typer:
    """The application to run for the command line ``argv`` (without the program name).

    Typer builds every command's parameters before it runs one, which is most of the cost of
    starting a 20-command application; a command line that names a known command gets an
    application holding that command alone (with the same top-level options), so that
    ``deckcheck validate`` pays for ``validate``. Help, shell completion and anything
    unknown (a typo is answered with the full list of commands) get the whole application.
    """
    if any(key.startswith("_") and key.endswith("_COMPLETE") for key in os.environ):
        return app
    # The top-level options take no values, so the first word that is no option names the
    # command.
    wanted = next((word for word in argv if not word.startswith("-")), None)
    if wanted is None:
        return app
    commands = [info for info in app.registered_commands if _command_name(info) == wanted]
    groups = [info for info in app.registered_groups if info.name == wanted]
    if not commands and not groups:
        return app
    narrowed = copy.copy(app)
    narrowed.registered_commands = commands
    narrowed.registered_groups = groups
    return narrowed
