"""Finding games: the ``deckcheck.games`` entry-point group, built-ins included."""

from __future__ import annotations

from functools import cache
from importlib.metadata import entry_points

from deckcheck.core.errors import CatalogError, UsageError
from deckcheck.core.text import suggest
from deckcheck.games.base import Game

ENTRY_POINT_GROUP = "deckcheck.games"


_broken: dict[str, str] = {}
_loaded: dict[str, Game] = {}


@cache
def all_games() -> dict[str, Game]:
    """Game id → game, for every registered game that loads (loaded once per process).

    A plugin that fails to load is left out (and named by :func:`get_game`), so one broken
    third-party package cannot break the other games.
    """
    games: dict[str, Game] = {}
    for ep in sorted(entry_points(group=ENTRY_POINT_GROUP), key=lambda e: e.name):
        try:
            game = ep.load()
        except Exception as exc:  # any failure inside a plugin's import
            _broken[ep.name] = f"game plugin {ep.name!r} failed to load: {exc}"
            continue
        if not isinstance(game, Game):
            _broken[ep.name] = f"entry point {ep.name!r} is not a deckcheck Game"
            continue
        games[ep.name] = game
    return games


def get_game(game_id: str) -> Game:
    """The game with this id; an unknown id is a usage error listing the known ones.

    Only that game's plugin is imported when it is registered under its id (start-up time).
    """
    game_id = game_id.strip().lower()
    if game_id not in _loaded:
        for ep in entry_points(group=ENTRY_POINT_GROUP, name=game_id):
            try:
                game = ep.load()
            except Exception:  # reported by all_games() below, with the others
                break
            if isinstance(game, Game):
                _loaded[game_id] = game
                return game
    else:
        return _loaded[game_id]
    games = all_games()
    if game_id in _broken:
        raise CatalogError(_broken[game_id])
    if game_id in games:
        return games[game_id]
    for game in games.values():
        if game_id in game.spec.game.aliases:  # "stccg" is stccg-1e
            return game
    known = ", ".join(games) or "none (is deckcheck installed?)"
    hint = suggest(game_id, [*games, *(a for g in games.values() for a in g.spec.game.aliases)])
    raise UsageError(
        f"unknown game {game_id!r}"
        + (f" (did you mean {hint[0]!r}?)" if hint else "")
        + f"; known games: {known}"
    )
