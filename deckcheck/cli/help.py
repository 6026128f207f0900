"""How parameters read in ``--help``: placeholders a user recognises, never a Python type.

Every option of :mod:`deckcheck.cli.app` names its placeholder (``metavar="N"``, ``"FILE"``,
``"GAME"``; ``""`` for an on/off flag): Typer would otherwise label it with its annotation
(``<int>``, ``<bool>``). What no ``metavar=`` reaches is settled here, with Typer's public
interface only: Typer's own flags (``--help``, the completion options) show no placeholder,
and an argument is named by its placeholder alone (``DECK``, ``[CONDITIONS]...`` on the usage
line) where Typer would add its type (``DECK <str>``) and braces (``{DECK}``).
"""

from __future__ import annotations

from typing import Any

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
    """Placeholders for the parameters of a command or group, and for its ``--help``."""

    def get_params(self, ctx: Any) -> list[Any]:
        # Here rather than at construction: Typer adds its completion options to a group later.
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]
        _readable(params)
        return params


class ReadableCommand(_Readable, typer.core.TyperCommand):
    """A command whose ``--help`` shows placeholders, not Python types."""


class ReadableGroup(_Readable, typer.core.TyperGroup):
    """A command group whose ``--help`` shows placeholders, not Python types."""
