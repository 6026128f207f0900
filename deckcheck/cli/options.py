"""Options shared by several commands, declared once: single options and arguments, and the
bundles (:class:`deckcheck.cli.command.Bundle`) that make one value of a request each: the
context, the draw options, the answer's target. A bundle is typed ``Any`` here so that the
parameter naming it carries the type of the value it stands for."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from deckcheck.cli.command import Bundle, param

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
VariantOpt = Annotated[
    str | None,
    typer.Option(
        "--variant",
        "--format",
        metavar="VARIANT",
        help="The variant to check against (default: the deck's, else the game's default).",
    ),
]
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
_SETTINGS = (
    param(
        "settings",
        Annotated[
            list[str] | None,
            typer.Option(
                "--set",
                metavar="KEY=VALUE",
                help="Change a setting of the variant (repeatable; `deckcheck games` lists each "
                "game's), e.g. --set missions=4.",
            ),
        ],
        None,
    ),
)
_MISSIONS = (
    param(
        "missions",
        Annotated[
            int | None,
            typer.Option(
                "--missions", metavar="N", help="Alias of --set missions=N.", min=1, max=1000
            ),
        ],
        None,
    ),
)


def context(
    *, game: bool = True, variant: Any = VariantOpt, settings: bool = False, missions: bool = False
) -> Any:
    """The context's options (``--catalog``, ``--game``, ``--variant``, ``--set``,
    ``--missions``; those asked for) as a :class:`deckcheck.games.context.Context`."""
    params = [param("catalog", CatalogOpt, None)]
    if game:
        params.append(param("game", GameOpt, None))
    if variant is not None:
        params.append(param("variant", variant, None))
    params += [*(_SETTINGS if settings else ()), *(_MISSIONS if missions else ())]

    def make(
        catalog: list[Path] | None,
        game: str | None = None,
        variant: str | None = None,
        settings: list[str] | None = None,
        missions: int | None = None,
    ) -> Any:
        from deckcheck.games.context import make_context, parse_settings

        params = parse_settings(settings or [])
        if missions is not None:
            params["missions"] = str(missions)
        return make_context(catalog or [], game, variant, params)

    return Bundle(tuple(params), make)


_DRAW = {
    "seen": param(
        "seen",
        Annotated[
            int | None,
            typer.Option(
                "--seen", metavar="N", help="Cards seen in all (opening hand plus draws)."
            ),
        ],
        None,
    ),
    "turn": param(
        "turn",
        Annotated[
            int | None,
            typer.Option(
                "--turn",
                metavar="T",
                help="Cards seen by the start of own turn T under the game's rules (1 = opening "
                "hand; Ren Dhark: your T-th attack, a minimum).",
            ),
        ],
        None,
    ),
    "second": param(
        "second",
        Annotated[
            bool,
            typer.Option(
                "--second",
                metavar="",
                help="The player who does not start: more cards where the game deals them "
                "(Planetary Conquerors: a sixth card, in a two-player game; Ren Dhark: red, as "
                "blue starts).",
            ),
        ],
        False,
    ),
    "mulligan": param(
        "mulligan",
        Annotated[
            str,
            typer.Option(
                "--mulligan",
                metavar="rules|none",
                help="rules: the game's own redraw/mulligan (Planetary Conquerors' return chosen "
                "optimally; Ren Dhark's redraw per --redraw-policy); none: the plain draw.",
            ),
        ],
        "rules",
    ),
    "redraws": param(
        "redraws",
        Annotated[
            str | None,
            typer.Option(
                "--redraws",
                metavar="N|unlimited",
                help="Redraw limit for games with a redraw rule: a number or 'unlimited'.",
            ),
        ],
        None,
    ),
    "redraw_policy": param(
        "redraw_policy",
        Annotated[
            str,
            typer.Option(
                "--redraw-policy",
                metavar="optimal|always",
                help="For an optional redraw rule (Ren Dhark): 'optimal' (default) redraws only "
                "when that raises the chance of the query (exact); 'always' redraws whenever "
                "allowed.",
            ),
        ],
        "optimal",
    ),
    "by_turn": param(
        "by_turn",
        Annotated[int | None, typer.Option("--by-turn", metavar="T", help="A table of turns 1…T.")],
        None,
    ),
    "expected_turn": param(
        "expected_turn",
        Annotated[
            bool,
            typer.Option(
                "--expected-turn",
                help="When the conditions first hold: turn 1…T (--turn or --by-turn, default "
                "10), then later; mean and median, on the play and on the draw.",
            ),
        ],
        False,
    ),
}


def draw(*names: str) -> Any:
    """The draw options named (all but ``--by-turn`` and ``--expected-turn`` when none are) as
    checked
    :class:`deckcheck.analysis.odds.OddsOptions`."""
    chosen = names or tuple(n for n in _DRAW if n not in ("by_turn", "expected_turn"))

    def make(**values: Any) -> Any:
        from deckcheck.analysis.odds import draw_options

        return draw_options(**values)

    return Bundle(tuple(_DRAW[n] for n in chosen), make)


def answer() -> Any:
    """``--write``, ``-o`` and ``--force`` of a command that answers with a deck, as its
    :class:`deckcheck.inplace.edit.AnswerTarget`."""
    params = (
        param(
            "write",
            Annotated[
                bool,
                typer.Option(
                    "--write",
                    metavar="",
                    help="Replace DECK with the answer (atomically; DECK.bak kept).",
                ),
            ],
            False,
        ),
        param(
            "output",
            Annotated[
                str | None,  # as typed: a trailing '/' names a folder
                typer.Option(
                    "-o",
                    "--output",
                    metavar="FILE",
                    help="Write the answer to this file (- for standard output).",
                ),
            ],
            None,
        ),
        param(
            "force",
            Annotated[
                bool,
                typer.Option("--force", metavar="", help="Let -o replace an existing file."),
            ],
            False,
        ),
    )

    def make(write: bool, output: str | None, force: bool) -> Any:
        from deckcheck.inplace.edit import AnswerTarget

        return AnswerTarget(write, output, force)

    return Bundle(params, make)


def _print_version(wanted: bool) -> None:
    if wanted:
        from deckcheck import __version__
        from deckcheck.cli import render

        render.say(render.stdout(), f"deckcheck {__version__}")
        raise typer.Exit()


VersionOpt = Annotated[
    bool,
    typer.Option(
        "--version",
        metavar="",
        callback=_print_version,
        is_eager=True,
        help="Print deckcheck's version and exit.",
    ),
]
VerboseOpt = Annotated[
    bool,
    typer.Option(
        "--verbose", metavar="", help="List each card set aside (else summed up by kind)."
    ),
]
DeckFile = Annotated[str, typer.Argument(help="Deck file (- for stdin).")]
DeckOrPile = Annotated[str, typer.Argument(help="Deck file, - for stdin, or a pile GAME:PILE.")]
Conditions = Annotated[
    list[str],
    typer.Argument(help='SELECTOR OP COUNT, all must hold, each in quotes: "type:ship>=2".'),
]
SeedOpt = Annotated[
    int | None, typer.Option("--seed", metavar="N", help="Random seed (reproducible).")
]
ForceOpt = Annotated[bool, typer.Option("--force", metavar="", help="Replace an existing file.")]
ZoneOpt = Annotated[
    str | None,
    typer.Option(
        "--zone",
        "-z",
        metavar="ZONE",
        help="The zone, where the game's decks have zones (Missions).",
    ),
]
CardsArg = Annotated[
    list[str],
    typer.Argument(
        help='Cards, each with its count after it (1 if none): "Gowron" 2 "Kurn" 1; or - '
        "for a pasted list on standard input.",
        metavar="CARD [COUNT]...",
    ),
]
EditedDeck = Annotated[str, typer.Argument(help="The deck file to edit in place.")]
_LIMITS = {
    "changes": param(
        "changes",
        Annotated[
            int | None,
            typer.Option(
                "--changes",
                "-K",
                metavar="K",
                help="At most K copies added plus removed, as fix counts them (default: any).",
            ),
        ],
        None,
    ),
    "owned": param(
        "owned",
        Annotated[
            str | None,
            typer.Option(
                "--owned",
                "--only-from",
                metavar="FILE",
                help="A deck file listing your collection: every card's copies stay within it.",
            ),
        ],
        None,
    ),
    "collection": param(
        "collection",
        Annotated[
            str | None,
            typer.Option(
                "--collection",
                metavar="FILE",
                help="Your collection (a deck file listing your cards): the deck's copies come "
                "out of it.",
            ),
        ],
        None,
    ),
    "reserve": param(
        "reserve",
        Annotated[
            list[str] | None,
            typer.Option(
                "--reserve",
                metavar="DECK",
                help="A deck (or folder of decks) whose copies of the collection stay its own "
                "(repeatable; needs --collection).",
            ),
        ],
        None,
    ),
    "keep": param(
        "keep",
        Annotated[
            list[str] | None,
            typer.Option(
                "--keep",
                "-k",
                metavar="CARD",
                help="A card never removed (name or id; repeatable).",
            ),
        ],
        None,
    ),
    "time_limit": param(
        "time_limit",
        Annotated[
            float | None,
            typer.Option(
                "--time-limit",
                metavar="S",
                help="Stop after S seconds with the best deck found and a bound on what is left.",
            ),
        ],
        None,
    ),
}


def limits(*names: str) -> Any:
    """The solver's limits named, as :class:`deckcheck.solve.changes.SolverLimits`."""

    def make(keep: list[str] | None = None, reserve: list[str] | None = None, **values: Any) -> Any:
        from deckcheck.solve.changes import SolverLimits

        return SolverLimits(tuple(keep or []), reserve=tuple(reserve or []), **values)

    return Bundle(tuple(_LIMITS[n] for n in names), make)


PILE = context(variant=PileVariantOpt)
PLAIN = context()
GAME_ONLY = context(variant=None)
ANSWER = answer()
SETTINGS = context(settings=True)
MISSIONS = context(settings=True, missions=True)
DRAW_HAND = draw("mulligan", "second", "redraw_policy")
SECOND = draw("second")
DRAW_NO_REDRAWS = draw("seen", "turn", "second", "mulligan", "redraw_policy")
DRAW_TURN = draw("turn", "second", "mulligan", "redraw_policy")
DRAW = draw()
OVERLAYS = context(
    game=False,
    variant=Annotated[
        str | None,
        typer.Option(
            "--variant",
            "--format",
            metavar="VARIANT",
            help="Show the cards as this variant changes them (and its notes).",
        ),
    ],
)
DRAW_BY_TURN = draw(
    "seen", "turn", "second", "mulligan", "redraws", "redraw_policy", "by_turn", "expected_turn"
)
DRAW_SEEN = draw("seen", "turn", "second")
FIX_LIMITS = limits("keep", "owned", "collection", "reserve")
OPTIMIZE_LIMITS = limits("changes", "owned", "collection", "reserve", "keep", "time_limit")
CATALOGS = context(game=False, variant=None)
OVERLAYS_VARIANT = context(game=False)
CollectionFile = Annotated[str, typer.Argument(help="The collection file to edit in place.")]
CollectionCard = Annotated[str, typer.Argument(help="The card (name or id).")]
BUILD = context(
    variant=Annotated[
        str | None,
        typer.Option(
            "--format",
            "--variant",
            metavar="VARIANT",
            help="The format (variant) to build for (default: the deck's, else the game's).",
        ),
    ]
)

# The options and arguments of one command each, by command.
CardsSearch = Annotated[
    list[str] | None,
    typer.Argument(
        help="Terms that must all hold: part of a name or id, field:value, or a number "
        'field compared, in quotes: "points<=2".'
    ),
]
ValidateSuggest = Annotated[
    bool,
    typer.Option(
        "--suggest",
        metavar="",
        help="Under an illegal deck's findings, its nearest legal deck.",
    ),
]
ValidateOwned = Annotated[
    str | None,
    typer.Option(
        "--owned",
        metavar="FILE",
        help="A deck file listing your collection: list the copies it lacks for each deck.",
    ),
]
OddsDeck = Annotated[
    str,
    typer.Argument(
        help="Deck file, - for stdin, or a pile GAME:PILE (with --deck N: the first condition)."
    ),
]
OddsConditions = Annotated[
    list[str] | None,
    typer.Argument(
        help='SELECTOR OP COUNT, all must hold, each in quotes: "type:ship>=2" '
        '"POINT OF>=1"; "A | B" holds when either does; CONDITION@TURN: its own deadline'
    ),
]
OddsDeckSize = Annotated[
    int | None,
    typer.Option("--deck", metavar="N", help="No deck file: the number of cards drawn from."),
]
OddsCategory = Annotated[
    list[str] | None,
    typer.Option(
        "--category",
        metavar="NAME=COUNT",
        help="With --deck: NAME=COUNT cards of a kind (repeatable; type:ship=15 lets the "
        "game's mulligan see their type).",
    ),
]
SimulateTrials = Annotated[
    int | None,
    typer.Option(
        "--trials",
        "-n",
        metavar="N",
        help="Simulated deals (default 1,000,000; fewer, at least 20,000, where each deal "
        "costs more, as with the look-ahead).",
    ),
]
HandConditions = Annotated[
    list[str] | None,
    typer.Argument(
        help='Optional goal (SELECTOR OP COUNT, in quotes: "type:warrior>=2") that a '
        "choosing mulligan aims for."
    ),
]
ExportTo = Annotated[
    str,
    typer.Option(
        "--to",
        "-t",
        metavar="FORMAT",
        help="Format: text, toml, json, csv, markdown, or the game's own (stccg-1e: "
        "lackey, which is Lackey's .dek XML when the file ends in .dek; dek; gemp).",
    ),
]
ExportOutput = Annotated[
    str | None,  # as typed: a trailing '/' names a folder
    typer.Option(
        "-o", "--output", metavar="FILE", help="File to write (default: standard output)."
    ),
]
ExportAllowIllegal = Annotated[
    bool, typer.Option("--allow-illegal", metavar="", help="Export even an illegal deck.")
]
FixPrefer = Annotated[
    str | None,
    typer.Option(
        "--prefer",
        metavar="SELECTOR",
        help="Among the nearest decks, prefer cards matching this (type:ship).",
    ),
]
OwnedDecks = Annotated[
    list[str],
    typer.Argument(help="Deck files, or a folder: every deck file in it.", metavar="DECK...|DIR"),
]
OwnedCollection = Annotated[
    str,
    typer.Option(
        "--collection",
        metavar="FILE",
        help="Your collection: a deck file listing the cards you own (or a folder of them).",
    ),
]
OwnedMost = Annotated[
    bool,
    typer.Option("--most", help="Also the largest set of the decks buildable at once."),
]
OwnedVerbose = Annotated[
    bool,
    typer.Option(
        "--verbose", metavar="", help="Name every deck contending for each card to acquire."
    ),
]
NewOutput = Annotated[
    str,  # as typed: a trailing '/' names a folder
    typer.Option(
        "-o",
        "--output",
        metavar="FILE",
        help="The deck file to write (.txt, .toml, .json, .dek).",
    ),
]
NewStarter = Annotated[
    str | None,
    typer.Option(
        "--starter",
        metavar="NAME",
        help="Which ready-made deck of the variant (Ren Dhark: red).",
    ),
]
BuildSeed = Annotated[
    int | None, typer.Option("--seed", metavar="N", help="The first playtest hand's seed.")
]
BuildNoMouse = Annotated[bool, typer.Option("--no-mouse", help="Leave the mouse to the terminal.")]
DistributionSelector = Annotated[
    str, typer.Argument(help="The cards counted: type:ship, a card name, a category.")
]
TuneCondition = Annotated[
    str,
    typer.Argument(
        help='SELECTOR OP COUNT whose category is tuned, in quotes: "type:ship>=2" '
        "(CONDITION@TURN: its own deadline)"
    ),
]
TuneTarget = Annotated[
    str,
    typer.Option("--target", "-p", metavar="P", help="The probability to reach: 0.95 or 95%."),
]
CatalogTemplateField = Annotated[
    list[str] | None,
    typer.Option(
        "--field",
        "-f",
        metavar="FIELD",
        help="List every card lacking this field, ready to fill in.",
    ),
]
CollectionAddCount = Annotated[int, typer.Argument(help="Copies to add.", min=1)]
CollectionRemoveCount = Annotated[int, typer.Argument(help="Copies to remove.", min=1)]
OptimizeConditions = Annotated[
    list[str],
    typer.Argument(
        help='SELECTOR OP COUNT, all must hold, each in quotes: "type:ship>=2"; '
        '"type:ship>=1@1": its own deadline'
    ),
]
MulliganConditions = Annotated[
    list[str],
    typer.Argument(
        help="SELECTOR OP COUNT, optionally @TURN (its own deadline), all must hold, each "
        'in quotes: "type:ship>=2" "type:person>=3@4"'
    ),
]
MulliganEveryRow = Annotated[
    bool, typer.Option("--all", help="Every hand class, not only the most often dealt.")
]
