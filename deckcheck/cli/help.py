"""How parameters read in ``--help``: placeholders a user recognises, never a Python type.

Every option of :mod:`deckcheck.cli.app` names its placeholder (``metavar="N"``, ``"FILE"``,
``"GAME"``; ``""`` for an on/off flag): Typer would otherwise label it with its annotation
(``<int>``, ``<bool>``). What no ``metavar=`` reaches is settled here, with Typer's public
interface only: Typer's own flags (``--help``, the completion options) show no placeholder,
and an argument is named by its placeholder alone (``DECK``, ``[CONDITIONS]...`` on the usage
line) where Typer would add its type (``DECK <str>``) and braces (``{DECK}``).
"""

from __future__ import annotations

import sys
from typing import Any

import typer
import typer.core


class _PlainArgument(typer.core.TyperArgument):
    """An argument named by its placeholder alone: no type column, no braces in usage."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def get_usage_pieces(self, ctx: Any) -> list[str]:
        name = self.display_name_raw
        return [name if self.required else f"[{name}]"]


def _readable(params: list[Any]) -> None:
    for param in params:
        if isinstance(param, typer.core.TyperArgument) and not isinstance(param, _PlainArgument):
            if param.metavar is None:
                name = (param.name or "value").upper()
                param.metavar = f"{name}..." if param.nargs != 1 else name
            # A subclass that only changes how it is shown: same fields, same parsing.
            param.__class__ = _PlainArgument
        elif isinstance(param, typer.core.TyperOption) and param.is_flag and param.metavar is None:
            param.metavar = ""  # Typer's own flags: --help, the completion options


class _Readable:
    """Placeholders for the parameters of a command or group, and for its ``--help``; a
    usage error in one line, as every other error."""

    def get_params(self, ctx: Any) -> list[Any]:
        # Here rather than at construction: Typer adds its completion options to a group later.
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]
        _readable(params)
        return params

    def main(self, *args: Any, standalone_mode: bool = True, **kwargs: Any) -> Any:
        """Typer's ``main``; run standalone, a usage error (an unknown option, a missing
        argument, a bad value) is one line on standard error, ``error: …`` and where the help
        is, exit 2, instead of Typer's framed box."""
        if not standalone_mode:
            return super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[misc]
        try:
            code = super().main(*args, standalone_mode=False, **kwargs)  # type: ignore[misc]
        except typer.Abort:
            print("Aborted!", file=sys.stderr)
            sys.exit(1)
        except typer.TyperException as exc:  # Typer's usage errors are these
            sys.exit(_usage_error(exc))
        sys.exit(code if isinstance(code, int) else 0)


def _usage_error(exc: typer.TyperException) -> int:
    """Say a click error in one line; its exit code."""
    from deckcheck.cli.render import error

    message = exc.format_message().strip().replace("\n", " ").removesuffix(".")
    if not message:  # no arguments at all: the help was shown, nothing more to say
        return exc.exit_code
    if message[:1].isupper() and message[1:2].islower():
        message = message[0].lower() + message[1:]
    ctx = getattr(exc, "ctx", None)
    if ctx is not None:
        flag = ctx.help_option_names[0] if ctx.help_option_names else "--help"
        message += f" (see {ctx.command_path} {flag})"
    error(message)
    return exc.exit_code


class ReadableCommand(_Readable, typer.core.TyperCommand):
    """A command whose ``--help`` shows placeholders, not Python types."""


class ReadableGroup(_Readable, typer.core.TyperGroup):
    """A command group whose ``--help`` shows placeholders, not Python types."""
