"""How parameters read in ``--help``: placeholders a user recognises, never a Python type.

Typer labels every parameter with its annotation (``<bool>``, ``<list[str]>``, ``<int>``) and
writes a required argument as ``{deck}`` on the usage line. deckcheck's commands and groups are
built with the classes below, which give each parameter a placeholder instead: ``DECK`` and
``[CONDITIONS]...`` on the usage line, ``N`` for a number, ``FILE`` for a path, ``TEXT``
otherwise, and nothing at all for an on/off flag. A placeholder written on an option in
:mod:`deckcheck.cli.app` (``metavar="GAME"``) is kept.
"""

from __future__ import annotations

from typing import Any

import typer.core
from typer import _click


class _PlainArgument(typer.core.TyperArgument):
    """An argument named by its placeholder alone: no type column, no braces in usage."""

    def display_type_rich(self, ctx: _click.Context) -> str | None:
        return None

    def _usage_display_name(self) -> str:
        name = self.display_name_raw
        return name if self.required else f"[{name}]"


def _placeholder(param: typer.core.TyperOption) -> str:
    descriptor = param.type_descriptor
    if param.is_flag or param.count or descriptor.annotation is bool:
        return ""
    if descriptor.is_path:
        return "FILE"
    if descriptor.annotation is int or descriptor.is_ranged:
        return "N"
    return "TEXT"


def _readable(params: list[Any]) -> None:
    for param in params:
        if isinstance(param, typer.core.TyperArgument) and not isinstance(param, _PlainArgument):
            if param.metavar is None:
                name = (param.name or "value").upper()
                param.metavar = f"{name}..." if param.nargs != 1 else name
            # Same fields, other display methods: safe to switch the class of the instance.
            param.__class__ = _PlainArgument
        elif isinstance(param, typer.core.TyperOption) and param.metavar is None:
            param.metavar = _placeholder(param)


class _Readable:
    """Placeholders for the parameters of a command or group, and for its ``--help``."""

    params: list[Any]

    def get_params(self, ctx: _click.Context) -> list[Any]:
        # Here rather than at construction: Typer adds its completion options to a group later.
        params: list[Any] = super().get_params(ctx)  # type: ignore[misc]
        _readable(params)
        return params

    def get_help_option(self, ctx: _click.Context) -> Any:
        option = super().get_help_option(ctx)  # type: ignore[misc]
        if option is not None:
            option.metavar = ""
        return option


class ReadableCommand(_Readable, typer.core.TyperCommand):
    """A command whose ``--help`` shows placeholders, not Python types."""


class ReadableGroup(_Readable, typer.core.TyperGroup):
    """A command group whose ``--help`` shows placeholders, not Python types."""
