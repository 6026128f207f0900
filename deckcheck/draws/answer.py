"""The one result type of every draw computation: exact or simulated, with its facts."""

from __future__ import annotations

from fractions import Fraction

from deckcheck.core.values import frozen
from deckcheck.draws.facts import Fact, FactKind, Method
from deckcheck.draws.stats import wilson_interval
from deckcheck.draws.wording import method_text, notes


@frozen
class Answer:
    """A probability with the mulligan and without it, how it was obtained and what it assumed.

    Exact answers carry ``fraction`` (and ``fraction_without_mulligan``); simulated ones carry
    ``trials``, ``successes``, ``seed`` and Wilson 95% intervals. ``facts`` are data; ``notes``
    words them (see :mod:`deckcheck.draws.wording`).
    """

    probability: float
    probability_without_mulligan: float
    method: Method
    facts: tuple[Fact, ...] = ()
    fraction: Fraction | None = None
    fraction_without_mulligan: Fraction | None = None
    trials: int | None = None
    successes: int | None = None
    seed: int | None = None
    ci95: tuple[float, float] | None = None
    ci95_without_mulligan: tuple[float, float] | None = None
    processes: int = 1

    @property
    def exact(self) -> bool:
        """Whether the figure is exact (else a Monte Carlo estimate)."""
        return self.fraction is not None

    @property
    def probability_exact(self) -> str | None:
        """The exact probability as ``"p/q"``, or None for an estimate."""
        p = self.fraction
        return None if p is None else f"{p.numerator}/{p.denominator}"

    @property
    def method_text(self) -> str:
        """The method as reports print it."""
        return method_text(self.method, self.processes)

    @property
    def notes(self) -> tuple[str, ...]:
        """Every fact as a sentence."""
        return tuple(notes(self.facts))

    def has(self, kind: FactKind) -> bool:
        """Whether a fact of ``kind`` is among the answer's facts."""
        return any(f.kind is kind for f in self.facts)

    @classmethod
    def from_fractions(
        cls, p: Fraction, plain: Fraction, method: Method, facts: list[Fact] | tuple[Fact, ...]
    ) -> Answer:
        """An exact answer."""
        return cls(float(p), float(plain), method, tuple(facts), p, plain)

    @classmethod
    def from_counts(
        cls,
        successes: int,
        successes_plain: int,
        trials: int,
        seed: int,
        method: Method,
        facts: list[Fact] | tuple[Fact, ...],
        processes: int = 1,
    ) -> Answer:
        """A simulated answer from success counts (with and without the mulligan)."""
        return cls(
            probability=successes / trials,
            probability_without_mulligan=successes_plain / trials,
            method=method,
            facts=tuple(facts),
            trials=trials,
            successes=successes,
            seed=seed,
            ci95=wilson_interval(successes, trials),
            ci95_without_mulligan=wilson_interval(successes_plain, trials),
            processes=processes,
        )
