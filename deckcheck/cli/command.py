"""How a command is declared and run: its bundles of shared options expanded, ``--json``
added, its result shown by type, bad input turned into one line and exit code 2, and the
one-command application that spares a run the cost of building every other command.

A bundle (:class:`Bundle`) is a group of options that makes one value of a request (the
context, the draw options, the answer's target, :mod:`deckcheck.cli.options`); a command names
it as a parameter's default and receives that value, built and checked::

    def odds(deck: ..., options: OddsOptions = DRAW, where: Context = PILE) -> Result

The signature Typer reads has the bundle's options in that place (``__signature__``, the
standard way to say what a callable takes).
"""

from __future__ import annotations

import copy
import functools
import inspect
import os
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import typer
import typer.main
import typer.models

from deckcheck.cli import process, render
from deckcheck.cli.help import ReadableCommand
from deckcheck.core.errors import DeckcheckError
from deckcheck.core.values import frozen


@frozen
class Bundle:
    """Options (``params``) whose values ``make`` one value of a request."""

    params: tuple[inspect.Parameter, ...]
    make: Callable[..., Any]


def param(name: str, annotation: Any, default: Any = inspect.Parameter.empty) -> inspect.Parameter:
    """One option or argument as a signature holds it."""
    keyword = inspect.Parameter.KEYWORD_ONLY
    return inspect.Parameter(name, keyword, default=default, annotation=annotation)


JSON = param(
    "json_out",
    Annotated[bool, typer.Option("--json", metavar="", help="Print JSON on standard output.")],
    False,
)


class _Expanded:
    """A command with each bundle parameter replaced by the bundle's options (and ``--json``):
    the bundles' values are made before the command runs, its result is shown by its type.
    The signature is worked out when Typer first asks for it, which is for the one command
    run (:func:`narrowed`), not for every command declared."""

    def __init__(self, fn: Callable[..., Any], json: bool) -> None:
        self.fn = fn
        self.json = json
        self.__name__ = fn.__name__
        self.__doc__ = fn.__doc__
        self.__annotations__: dict[str, Any] = {}  # all in the signature

    @functools.cached_property
    def _plan(self) -> tuple[inspect.Signature, dict[str, Bundle]]:
        params: list[inspect.Parameter] = []
        bundles: dict[str, Bundle] = {}
        for p in inspect.signature(self.fn).parameters.values():
            if isinstance(p.default, Bundle):
                bundles[p.name] = p.default
                params += p.default.params
            else:
                # evaluated as inspect.signature(eval_str=True) would, parameter by
                # parameter: a bundle's type may be one imported for type checking only
                hint = p.annotation
                if isinstance(hint, str):
                    hint = eval(hint, self.fn.__globals__)
                params.append(p.replace(kind=inspect.Parameter.KEYWORD_ONLY, annotation=hint))
        return inspect.Signature([*params, *((JSON,) if self.json else ())]), bundles

    @property
    def __signature__(self) -> inspect.Signature:
        return self._plan[0]

    def __call__(self, **values: Any) -> int:
        json_out = values.pop(JSON.name, False)
        for name, bundle in self._plan[1].items():
            values[name] = bundle.make(**{q.name: values.pop(q.name) for q in bundle.params})
        result = self.fn(**values)
        return result if isinstance(result, int) else render.show(result, json_out)


def _guarded(fn: Callable[..., int]) -> Callable[..., None]:
    """The one place where input errors become one clear message and exit code 2."""

    @functools.wraps(fn)
    def wrapper(**kwargs: Any) -> None:
        try:
            code = fn(**kwargs)
        except DeckcheckError as exc:
            render.error(exc)
            raise typer.Exit(2) from None
        except RecursionError:
            render.error("input is nested too deeply to read")
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


def command(target: typer.Typer, name: str | None = None, json: bool = True) -> Callable[..., Any]:
    """Register a command on ``target``: its docstring is its help; with ``json``, a
    ``--json`` option; it returns its result (shown by :func:`render.show`) or an exit code."""

    def register(fn: Callable[..., Any]) -> Callable[..., Any]:
        help_text = _unwrapped(fn.__doc__ or "")
        target.command(name, cls=ReadableCommand, help=help_text)(_guarded(_Expanded(fn, json)))
        return fn

    return register


def _command_name(info: typer.models.CommandInfo) -> str | None:
    if info.name:
        return info.name
    return typer.main.get_command_name(info.callback.__name__) if info.callback else None


def narrowed(app: typer.Typer, argv: Sequence[str]) -> typer.Typer:
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
    one = copy.copy(app)
    one.registered_commands = commands
    one.registered_groups = groups
    return one
