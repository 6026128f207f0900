"""Options shared by several commands, declared once. A bundle is a group of options that
makes one value of a request (the context, the draw options, the answer's target); a command
names it as a parameter's default and receives the value, built and checked (a bundle is
typed ``Any`` so that the parameter can carry the type of the value it stands for):

    def odds(deck: ..., draw: OddsOptions = DRAW, where: Context = context()) -> Result

The command's signature as Typer reads it has the bundle's options in that place
(``inspect.Signature``, the standard way to say what a callable takes).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from deckcheck.core.values import frozen


@frozen
class Bundle:
    """Options (``params``) whose values ``make`` one value of a request."""

    params: tuple[inspect.Parameter, ...]
    make: Callable[..., Any]


def _param(name: str, annotation: Any, default: Any = inspect.Parameter.empty) -> inspect.Parameter:
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
    )


def expanded(
    fn: Callable[..., Any], after: Callable[[Any, dict[str, Any]], int]
) -> Callable[..., int]:
    """``fn`` with each bundle parameter replaced by the bundle's options; its value is made
    from them before ``fn`` runs, and ``after(result, rest)`` ends the run (``rest``: the values
    of the parameters added to ``fn``'s, such as ``--json``)."""
    params: list[inspect.Parameter] = []
    bundles: dict[str, Bundle] = {}
    for p in inspect.signature(fn).parameters.values():
        if isinstance(p.default, Bundle):
            bundles[p.name] = p.default
            params += p.default.params
        else:
            # the command module's own names (Annotated, typer): a bundle's type may be one
            # imported for type checking only, as it is never evaluated
            hint = p.annotation
            hint = eval(hint, fn.__globals__) if isinstance(hint, str) else hint
            params.append(p.replace(kind=inspect.Parameter.KEYWORD_ONLY, annotation=hint))
    own = set(inspect.signature(fn).parameters) - set(bundles)

    def run(**values: Any) -> int:
        for name, bundle in bundles.items():
            values[name] = bundle.make(**{q.name: values.pop(q.name) for q in bundle.params})
        rest = {k: values.pop(k) for k in list(values) if k not in own and k not in bundles}
        return after(fn(**values), rest)

    run.__signature__ = inspect.Signature(params)  # type: ignore[attr-defined]
    run.__name__ = fn.__name__
    run.__doc__ = fn.__doc__
    return run


JSON = _param(
    "json_out",
    Annotated[bool, typer.Option("--json", metavar="", help="Print JSON on standard output.")],
    False,
)

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
    _param(
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
    _param(
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
    params = [_param("catalog", CatalogOpt, None)]
    if game:
        params.append(_param("game", GameOpt, None))
    if variant is not None:
        params.append(_param("variant", variant, None))
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
    "seen": _param(
        "seen",
        Annotated[
            int | None,
            typer.Option(
                "--seen", metavar="N", help="Cards seen in all (opening hand plus draws)."
            ),
        ],
        None,
    ),
    "turn": _param(
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
    "second": _param(
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
    "mulligan": _param(
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
    "redraws": _param(
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
    "redraw_policy": _param(
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
    "by_turn": _param(
        "by_turn",
        Annotated[int | None, typer.Option("--by-turn", metavar="T", help="A table of turns 1…T.")],
        None,
    ),
}


def draw(*names: str) -> Any:
    """The draw options named (all but ``--by-turn`` when none are) as checked
    :class:`deckcheck.analysis.odds.OddsOptions`."""
    chosen = names or tuple(n for n in _DRAW if n != "by_turn")

    def make(**values: Any) -> Any:
        from deckcheck.analysis.odds import draw_options

        return draw_options(**values)

    return Bundle(tuple(_DRAW[n] for n in chosen), make)


def answer() -> Any:
    """``--write``, ``-o`` and ``--force`` of a command that answers with a deck, as its
    :class:`deckcheck.export.inplace.AnswerTarget`."""
    params = (
        _param(
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
        _param(
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
        _param(
            "force",
            Annotated[
                bool,
                typer.Option("--force", metavar="", help="Let -o replace an existing file."),
            ],
            False,
        ),
    )

    def make(write: bool, output: str | None, force: bool) -> Any:
        from deckcheck.export.inplace import AnswerTarget

        return AnswerTarget(write, output, force)

    return Bundle(params, make)
