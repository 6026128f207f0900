"""A typed query whose states need keys wider than 62 bits is handed back to the recursion,
not turned into numpy integers that overflow (a traceback before)."""

from __future__ import annotations

from fractions import Fraction

from conftest import EXAMPLES, run_json


def test_a_key_too_wide_for_numpy_goes_to_the_recursion() -> None:
    answer = run_json(
        [
            "odds",
            EXAMPLES / "planetary-conquerors" / "legal-80.txt",
            "type:building>=4",
            "name:Stone Bunker=1",
            "name:Power Plant>=1",
            "name:Trooper<=1",
            "name:Deep Drill<=1",
            "type:miner>=2",
            "type:warrior>=1",
            "name:Mud Hut>=1",
            "--turn",
            "3",
            "--second",
            "--json",
        ]
    )
    assert answer["exact"] is True
    # The recursion's own Fraction (the level engines were not needed for it).
    assert Fraction(answer["probability_exact"]) == Fraction(
        74154564289576620631, 1340007336581515717500
    )
