"""A return table's kept parts are valued when first asked for
(``deckcheck/draws/exact/sequential.py``, ``KeptPartValues``): ``odds`` needs none of them,
the mulligan guide and the simulator's player those they meet, each the value the engine
gives it."""

from __future__ import annotations

import pytest

from deckcheck.draws.exact.compositions import compositions
from deckcheck.draws.exact.sequential import KeptPartValues


def test_a_kept_part_is_valued_once_when_asked_for() -> None:
    asked: list[tuple[int, ...]] = []

    def value(kept: tuple[int, ...]) -> int:
        asked.append(kept)
        return 10 * kept[0] + kept[1]

    values = KeptPartValues((2, 3), 2, value)
    assert not asked and len(values) == len(list(compositions((2, 3), 2)))
    assert values[(1, 1)] == 11 and values[(1, 1)] == 11 and asked == [(1, 1)]
    assert dict(values) == {kept: 10 * kept[0] + kept[1] for kept in compositions((2, 3), 2)}
    for wrong in ((3, 0), (1, 0), (1, 1, 0)):
        with pytest.raises(KeyError):
            values[wrong]
