"""The cards of a named set (a pasted heading's ``(6)``, a ``.stdeck``'s set code) come from an
index of the STCCG catalog made once: the same cards, in the same order, as a scan of the
catalog with :func:`in_sets` finds."""

from __future__ import annotations

from deckcheck.games.stccg import GAME
from deckcheck.games.stccg.names import _of_sets, in_sets


def test_the_index_finds_what_the_scan_finds() -> None:
    catalog = GAME.bundled_catalog()
    for labels in [
        {"premiere"},  # a set name
        {"tng", "the next generation"},  # a code and its name
        {"6"},  # a heading's count: no set
        {""},  # what every card without a release code answers to
        {"first contact", "nothing"},
    ]:
        wanted = frozenset(labels)
        assert _of_sets(catalog, wanted) == [c for c in catalog if in_sets(c, wanted)], labels
