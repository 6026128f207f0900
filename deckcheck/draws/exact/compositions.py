"""Compositions: how many cards of each class a hand holds, counted, listed and weighed."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterator, Sequence


def count_compositions(bounds: Sequence[int], total: int) -> list[int]:
    """How many vectors ``0 <= x <= bounds`` sum to each ``t`` in ``0..total``."""
    poly = [1] + [0] * total
    for b in bounds:
        new = [0] * (total + 1)
        for t, w in enumerate(poly):
            if w:
                for k in range(min(b, total - t) + 1):
                    new[t + k] += w
        poly = new
    return poly


def compositions(bounds: Sequence[int], total: int) -> Iterator[tuple[int, ...]]:
    """Every vector ``0 <= x <= bounds`` summing to ``total``, each once, in a fixed order.

    Only ever asked for hand-sized totals. Walks whichever is smaller: the multisets of
    ``total`` indices among the non-empty classes (dropping those over a bound), or the
    ``total``-subsets of the bounded cards themselves (dropping repeats); both are much
    faster in Python than a recursive generator.
    """
    n = len(bounds)
    if total < 0 or total > sum(bounds):
        return
    classes = [c for c in range(n) if bounds[c] > 0]
    if not classes:  # an empty pile: only the empty hand
        yield (0,) * n
        return
    cards = [c for c in classes for _ in range(bounds[c])]
    if math.comb(len(cards), total) <= math.comb(len(classes) + total - 1, total):
        done: set[tuple[int, ...]] = set()
        for picks in itertools.combinations(cards, total):
            if picks not in done:
                done.add(picks)
                comp = [0] * n
                for c in picks:
                    comp[c] += 1
                yield tuple(comp)
        return
    for picks in itertools.combinations_with_replacement(classes, total):
        comp = [0] * n
        for c in picks:
            k = comp[c] = comp[c] + 1
            if k > bounds[c]:  # over a class's cards: not a hand
                break
        else:
            yield tuple(comp)


def ways(sizes: Sequence[int], comp: Sequence[int]) -> int:
    """Ways to pick ``comp[c]`` cards out of ``sizes[c]``, for every class at once."""
    w = 1
    for s, k in zip(sizes, comp, strict=True):
        if k:  # C(s, 0) = 1: a hand holds few of its classes
            w *= math.comb(s, k)
    return w


def count_up_to_exchange(
    groups: Sequence[tuple[int, int]],
    total: int,
    weight: Callable[[int, int], Sequence[int]],
    width: int,
    pairs: bool = False,
) -> list[int]:
    """Vectors ``0 <= x <= bound`` summing to ``total``, one per exchange within each group
    of alike classes, each weighed by a polynomial: the product over classes of
    ``weight(bound, x_c)`` (coefficients of its powers up to ``width``).

    ``groups``: (bound, how many classes alike) per group, a class on its own being a group
    of one. Returns the summed polynomial's coefficients ``0..width``; with ``weight`` always
    ``[1]``, item 0 is how many such vectors there are. Costs a few polynomial products per
    group and value, never the vectors themselves. ``pairs``: count instead pairs of vectors
    ``x`` (summing to ``total``) and ``d <= bound - x`` (the power of the polynomial), one
    per exchange within each group of both at once (``weight`` unused).
    """

    def times(a: list[list[int]], b: list[list[int]]) -> list[list[int]]:
        out = [[0] * (width + 1) for _ in range(total + 1)]
        for ya, row_a in enumerate(a):
            for yb in range(total + 1 - ya):
                row_b = b[yb]
                for xa, wa in enumerate(row_a):
                    if wa:
                        for xb in range(width + 1 - xa):
                            if row_b[xb]:
                                out[ya + yb][xa + xb] += wa * row_b[xb]
        return out

    def term(bound: int, k: int) -> list[list[int]]:
        out = [[0] * (width + 1) for _ in range(total + 1)]
        for x, w in enumerate(weight(bound, k)):
            if x <= width:
                out[k][x] = w
        return out

    def single(k: int, d: int) -> list[list[int]]:
        out = [[0] * (width + 1) for _ in range(total + 1)]
        out[k][d] = 1
        return out

    one = single(0, 0)
    poly = one
    for bound, alike in groups:
        # Sorted vectors of the group: for each value in turn, how many classes take it.
        states = [one] + [[[0] * (width + 1) for _ in range(total + 1)] for _ in range(alike)]
        if pairs:
            values = [
                single(k, d)
                for k in range(min(bound, total) + 1)
                for d in range(min(bound - k, width) + 1)
            ]
        else:
            values = [term(bound, k) for k in range(min(bound, total) + 1)]
        for t in values:
            new = [[row[:] for row in s] for s in states]
            for j in range(alike):
                cur = states[j]
                for r in range(1, alike - j + 1):
                    cur = times(cur, t)
                    for y in range(total + 1):
                        for x in range(width + 1):
                            new[j + r][y][x] += cur[y][x]
            states = new
        poly = times(poly, states[alike])
    return poly[total]
