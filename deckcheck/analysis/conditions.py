"""The condition language: ``SELECTOR OP COUNT`` (``type:ship>=2``)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from deckcheck.core.errors import ConditionError
from deckcheck.draws.compare import Comparison

MAX_CONDITION_COUNT = 100_000
_CONDITION = re.compile(r"^(?P<selector>.*?)\s*(?P<op>>=|<=|==|=|>|<)\s*(?P<count>[^<>=]*)$", re.S)


@dataclass(frozen=True)
class Condition:
    """A parsed condition: which cards, the comparison and the count."""

    text: str
    selector: str
    op: Comparison
    count: int


def parse_condition(text: str) -> Condition:
    """Parse ``SELECTOR OP COUNT``; anything else is a :class:`ConditionError`."""
    cleaned = text.strip()
    match = _CONDITION.match(cleaned)
    if not match or not match.group("selector").strip():
        raise ConditionError(
            f"condition {text!r} is not SELECTOR OP COUNT "
            '(e.g. type:ship>=2, "POINT OF>=1", id:I/25=1; OP is >= <= = == > <)'
        )
    raw_count = match.group("count").strip()
    if not re.fullmatch(r"\d+", raw_count):
        raise ConditionError(
            f"condition {text!r}: the count must be a whole number ≥ 0, not {raw_count!r}"
        )
    count = int(raw_count)
    if count > MAX_CONDITION_COUNT:
        raise ConditionError(f"condition {text!r}: a count of {count} is beyond any deck")
    op = Comparison.parse(match.group("op"))
    return Condition(cleaned, match.group("selector").strip().strip("\"'"), op, count)
