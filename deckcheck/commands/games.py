"""``games``: the games deckcheck knows, their variants and built-in random piles."""

from __future__ import annotations

from deckcheck.core.result import OK, Json
from deckcheck.core.values import frozen
from deckcheck.games.base import GameInfo
from deckcheck.games.registry import all_games


@frozen
class GamesRequest:
    """Every game that loads (the request has nothing to choose)."""


@frozen
class GameList:
    """Every game that loads, in id order."""

    games: tuple[GameInfo, ...]

    exit_code = OK

    def to_json(self) -> list[Json]:
        """A list of ``GameInfo.to_json()``."""
        return [g.to_json() for g in self.games]


EVERY_GAME = GamesRequest()


def run(request: GamesRequest = EVERY_GAME) -> GameList:
    """The games deckcheck knows, their variants and built-in random piles."""
    return GameList(tuple(g.info() for g in all_games().values()))
