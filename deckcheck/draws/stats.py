"""Small statistics helpers for Monte Carlo estimates (pure Python, no numpy)."""

from __future__ import annotations

import math

Z95 = 1.959964


def wilson_interval(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (95% with the default ``z``).

    Chosen over the normal approximation because it stays inside [0, 1] and behaves well for
    probabilities near 0 or 1, which odds questions often produce. ``trials == 0`` gives the
    uninformative interval (0, 1).
    """
    if trials < 0 or successes < 0 or successes > trials:
        raise ValueError(f"invalid counts: {successes} successes in {trials} trials")
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    z2 = z * z
    denom = 1.0 + z2 / trials
    centre = (p + z2 / (2 * trials)) / denom
    half = z * math.sqrt(p * (1.0 - p) / trials + z2 / (4 * trials * trials)) / denom
    # Clamp: rounding can push the bounds a hair outside [0, 1] at p = 0 or 1.
    return (max(0.0, centre - half), min(1.0, centre + half))
