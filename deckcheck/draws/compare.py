"""The comparison operators of a count test (``>=``, ``<=``, ``=``, ``>``, ``<``): their one home.

Everything that needs to know what an operator means (whether a count passes, which counts a
test can tell apart, whether one more card helps or hurts, whether a test can still hold)
asks :class:`Comparison`, so the exact engine, the simulators, the policies and the condition
parser cannot disagree.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from enum import StrEnum
from typing import Any


class Comparison(StrEnum):
    """``count OP threshold``. The value is the operator as written (``"=="`` parses as ``=``)."""

    GE = ">="
    LE = "<="
    EQ = "="
    GT = ">"
    LT = "<"

    @classmethod
    def parse(cls, text: str | Comparison) -> Comparison:
        """The comparison written ``text`` (``>= <= = == > <``); ValueError otherwise."""
        if isinstance(text, Comparison):
            return text
        if text == "==":
            return cls.EQ
        try:
            return cls(text)
        except ValueError:
            raise ValueError(f"unknown comparison {text!r} (use >= <= = == > <)") from None

    def holds(self, count: Any, threshold: int) -> Any:
        """Whether ``count`` passes; ``count`` may be an int or a numpy array (element-wise)."""
        return _FUNCTIONS[self](count, threshold)

    @property
    def function(self) -> Callable[[Any, int], Any]:
        """:meth:`holds` as a plain function of the count and the threshold (``operator.ge``
        for ``>=``): one call per test where a holding is judged again and again."""
        return _FUNCTIONS[self]

    def least(self, threshold: int) -> int:
        """The smallest count that can pass."""
        if self is Comparison.GT:
            return threshold + 1
        if self in (Comparison.GE, Comparison.EQ):
            return threshold
        return 0

    def most(self, threshold: int) -> int | None:
        """The largest count that can pass; None when there is no upper limit."""
        if self in (Comparison.LE, Comparison.EQ):
            return threshold
        if self is Comparison.LT:
            return threshold - 1
        return None

    @property
    def is_lower_bound(self) -> bool:
        """Whether the test asks for at least some cards (``>=``, ``>``, ``=``)."""
        return self in (Comparison.GE, Comparison.GT, Comparison.EQ)

    @property
    def is_upper_bound(self) -> bool:
        """Whether the test allows at most some cards (``<=``, ``<``, ``=``)."""
        return self in (Comparison.LE, Comparison.LT, Comparison.EQ)

    def negated(self) -> Comparison | None:
        """The comparison that passes exactly when this one fails; None for ``=`` (two ranges)."""
        return _NEGATIONS.get(self)

    def cap(self, threshold: int) -> int:
        """The largest count the test can tell apart from all larger ones.

        ``>= t`` and ``< t`` cannot tell ``t`` from ``t + 5``; ``<= t``, ``> t`` and ``= t`` need
        to see ``t + 1``. Counting further than the cap only multiplies states.
        """
        if self in (Comparison.GE, Comparison.LT):
            return max(0, threshold)
        return max(0, threshold + 1)

    def broken(self, count: int, threshold: int) -> bool:
        """Whether ``count`` is past every passing count: counts only grow, so it stays failed."""
        most = self.most(threshold)
        return most is not None and count > most

    def out_of_reach(self, count: int, threshold: int, more: int) -> bool:
        """Whether the test cannot pass even with ``more`` further matching cards."""
        return count + more < self.least(threshold)

    def certain(self, count: int, threshold: int) -> bool:
        """Whether the test passes now and keeps passing however many more cards come."""
        return self.most(threshold) is None and count >= self.least(threshold)

    def advanced_by_one(self, count: int, threshold: int) -> bool:
        """Whether one more matching card moves a failing test toward passing."""
        return (
            not self.holds(count, threshold)
            and self.is_lower_bound
            and count < self.least(threshold)
        )

    def broken_by_one(self, count: int, threshold: int) -> bool:
        """Whether one more matching card turns a passing upper bound into a failure."""
        return (
            self.is_upper_bound
            and self.holds(count, threshold)
            and not self.holds(count + 1, threshold)
        )


_FUNCTIONS: dict[Comparison, Callable[[Any, int], Any]] = {
    Comparison.GE: operator.ge,
    Comparison.LE: operator.le,
    Comparison.EQ: operator.eq,
    Comparison.GT: operator.gt,
    Comparison.LT: operator.lt,
}

_NEGATIONS: dict[Comparison, Comparison] = {
    Comparison.GE: Comparison.LT,
    Comparison.LT: Comparison.GE,
    Comparison.LE: Comparison.GT,
    Comparison.GT: Comparison.LE,
}
