"""``optimize`` asks the linear relaxation first whether a deck reaches a mix: no deck reaches
a mix its relaxation cannot, so those mixes (most of those asked, in the larger searches)
are settled without the integer programme. The answers themselves are checked against brute
force in ``test_optimize.py`` (``test_ren_dhark_two_conditions_with_a_collection`` passes
this way)."""

from __future__ import annotations

from typing import Any

import pytest
from test_optimize import TERRA

from deckcheck.analysis.odds import OddsOptions
from deckcheck.commands.optimize import optimize_loaded
from deckcheck.decks.load import load_deck
from deckcheck.solve import programme
from deckcheck.solve.programme import INFEASIBLE


def test_a_mix_the_relaxation_cannot_reach_is_not_solved_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    real = programme.Programme.solve
    # The solves of a mix, in order: the programme, its arguments, the status.
    asked: list[tuple[Any, tuple[Any, ...], dict[str, Any], int]] = []

    def solve(self: Any, *args: Any, **kw: Any) -> Any:
        got = real(self, *args, **kw)
        if kw.get("bounds"):
            asked.append((self, args, kw, got.status))
        return got

    monkeypatch.setattr(programme.Programme, "solve", solve)
    loaded = load_deck(TERRA)
    options = OddsOptions(turn=2)
    optimize_loaded(loaded, ["type:ship>=2"], options, changes=4, keep=["Zlatý člověk"])
    relaxed = [i for i, (_, _, kw, _) in enumerate(asked) if kw.get("relax")]
    settled = [i for i in relaxed if asked[i][3] == INFEASIBLE]
    assert settled and len(settled) < len(relaxed)
    for i in relaxed:
        p, args, kw, status = asked[i]
        after = asked[i + 1][2] if i + 1 < len(asked) else {}
        integer = after.get("bounds") == kw["bounds"] and not after.get("relax")
        # A mix the relaxation reaches is asked of the integer programme next; one it cannot
        # is not, and its integer programme is unreachable too.
        assert integer is (status != INFEASIBLE)
        if status == INFEASIBLE:
            assert real(p, *args, **{**kw, "relax": False}).status == INFEASIBLE
