"""The shape every library entry point returns: a frozen value with an exit code and JSON.

A command's whole answer is one such value. The command line shows it (as JSON with ``--json``,
else for people) and exits with its ``exit_code``; a program calling :mod:`deckcheck.api` reads
its fields or :meth:`Result.to_json`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, runtime_checkable

from deckcheck.core.errors import DeckcheckError

Json = dict[str, "Json"] | list["Json"] | str | int | float | bool | None
"""A JSON value as :func:`json.dumps` writes it."""

OK = 0
"""Success; for ``validate``, every deck is legal."""
ILLEGAL = 1
"""A deck breaks a rule (``validate``), or was refused for it (``export``)."""
BAD_INPUT = 2
"""Input that could not be read or understood; nothing was decided."""
UNVERIFIED = 3
"""A rule could not be decided: catalog data is missing."""
INTERRUPTED = 130
"""Stopped by Ctrl-C (128 + SIGINT)."""
TERMINATED = 143
"""Stopped by SIGTERM (128 + SIGTERM)."""


@runtime_checkable
class Result(Protocol):
    """What a library entry point returns (frozen dataclasses satisfy it)."""

    @property
    def exit_code(self) -> int:
        """The process exit code a command showing this result ends with."""
        ...

    def to_json(self) -> Json:
        """The documented ``--json`` output."""
        ...


@runtime_checkable
class WithErrors(Protocol):
    """A result over several inputs of which some could not be read: their errors go to
    standard error even when the result is shown as JSON."""

    @property
    def errors(self) -> tuple[DeckcheckError, ...]:
        """The input errors, in the order of the inputs."""
        ...


_SEVERITY = {BAD_INPUT: 3, ILLEGAL: 2, UNVERIFIED: 1, OK: 0}


def worst_exit_code(codes: Iterable[int]) -> int:
    """Several results in one run: bad input over illegal over unverified over success."""
    return max(codes, key=lambda c: _SEVERITY.get(c, 4), default=OK)
