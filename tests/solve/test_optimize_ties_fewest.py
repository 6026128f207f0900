"""``optimize`` among decks of equal chance: the answer is one with the fewest changes, against
brute force (every legal deck within K changes of a few varying cards, scored as ``odds``
does). A mix the bound skips (a mix one card better scored no more) may still tie the answer:
it is not skipped where it could do so with fewer changes."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from test_optimize import PC50, _scored, _varying

from deckcheck.analysis.odds import OddsOptions
from deckcheck.commands.optimize import optimize_loaded
from deckcheck.core.violations import Status
from deckcheck.decks.load import LoadedDeck, deck_or_owned, load_deck


def _best_and_fewest(
    loaded: LoadedDeck,
    conditions: Sequence[str],
    options: OddsOptions,
    k: int,
    universe: Sequence[str],
    owned: Mapping[str, int],
    fixed: Sequence[str],
) -> tuple[Fraction, int, int]:
    """The best exact chance over every legal deck within ``k`` changes, the fewest changes
    of a deck with that chance, and how many decks have it."""
    base = dict(loaded.deck.counts())
    caps = {i: max(base.get(i, 0), owned.get(i, 0)) for i in universe}
    scored: list[tuple[Fraction, int]] = []
    for counts, p in _scored(loaded, conditions, options, k, universe, caps, fixed=fixed):
        assert p is not None
        changed = sum(abs(counts.get(i, 0) - base.get(i, 0)) for i in {*counts, *base})
        scored.append((p, changed))
    best = max(p for p, _ in scored)
    fewest = min(d for p, d in scored if p == best)
    return best, fewest, sum(1 for p, _ in scored if p == best)


def test_a_mix_as_likely_with_fewer_changes_is_not_skipped_by_the_bound() -> None:
    """Planetary Conquerors, the return-3 mulligan: a fifth Trooper for a Pitfall or for a
    Stone Bunker (2 changes), or for two Pitfalls with a fifth Bunker (4), are equally likely
    (no hand holds more than three Pitfalls). The 4-change mix ranks first; the 2-change
    mixes are one card worse than it and were once skipped by the bound for scoring no
    more, though they tie it."""
    loaded = load_deck(PC50)
    names = ["Trooper", "Pitfall", "Stone Bunker"]
    caps = {"Trooper": 5, "Pitfall": 3, "Stone Bunker": 5}
    universe, owned, fixed = _varying(loaded, names, caps)
    conditions = ["name:Trooper>=1", "name:Pitfall<=3"]
    options = OddsOptions(seen=5)
    best, fewest, tied = _best_and_fewest(loaded, conditions, options, 4, universe, owned, fixed)
    assert tied >= 3 and fewest == 2  # a tie on the chance, the nearest decks of it nearer
    result, _ = optimize_loaded(
        loaded,
        conditions,
        options,
        changes=4,
        owned=deck_or_owned(loaded, owned),
        keep=fixed,
    )
    assert result.status == "optimal"
    assert result.after == best
    assert result.distance == fewest
    assert result.report is not None and result.report.status is Status.LEGAL
