"""The signal that an exact computation is out of reach, with the reason as data."""

from __future__ import annotations

from deckcheck.draws.facts import OutOfReach, Reach
from deckcheck.draws.wording import reason_text


class Intractable(Exception):
    """The exact computation would exceed its work limit; simulate instead.

    ``reason`` says why, as data (a plain message becomes :attr:`Reach.OTHER`); ``str()``
    words it.
    """

    def __init__(self, reason: OutOfReach | str) -> None:
        if isinstance(reason, str):
            reason = OutOfReach(Reach.OTHER, text=reason)
        super().__init__(reason_text(reason))
        self.reason = reason
