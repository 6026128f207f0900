"""The condition language: ``SELECTOR OP COUNT`` (``type:ship>=2``)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from deckcheck.core.errors import ConditionError
from deckcheck.core.values import frozen
from deckcheck.draws.compare import Comparison

MAX_CONDITION_COUNT = 100_000
_DEADLINE = re.compile(r"^(?P<rest>.*)@\s*(?P<turn>[^@]*?)\s*$", re.S)
_CONDITION = re.compile(r"^(?P<selector>.*?)\s*(?P<op>>=|<=|==|=|>|<)\s*(?P<count>[^<>=]*)$", re.S)
_OPERATOR_CHARS = "<>="
_QUOTE_THEM = (
    "quote each condition: unquoted, the shell takes > and < for redirections "
    '(SELECTOR>=2 would send the output to a file named "=2")'
)


@frozen
class Condition:
    """A parsed condition: which cards, the comparison and the count; ``deadline``: the own
    turn by whose start it must hold (``CONDITION@TURN``), None for the question's own."""

    text: str
    selector: str
    op: Comparison
    count: int
    deadline: int | None = None


def parse_condition(text: str) -> Condition:
    """Parse ``SELECTOR OP COUNT`` or ``SELECTOR OP COUNT@TURN``; anything else is a
    :class:`ConditionError`.

    >>> parse_condition("type:ship>=1@1").deadline
    1
    """
    cleaned = text.strip()
    if "|" in cleaned:
        # Only odds splits alternatives before parsing; elsewhere the selector would be blamed.
        raise ConditionError(
            f"condition {text!r}: conditions joined by | (either of) are answered by odds "
            "only; ask each alternative on its own here"
        )
    deadline: int | None = None
    dated = _DEADLINE.match(cleaned)
    if dated and any(ch in dated.group("rest") for ch in _OPERATOR_CHARS):
        turn = dated.group("turn")
        if not re.fullmatch(r"[0-9]{1,6}", turn) or int(turn) < 1:
            raise ConditionError(
                f"condition {text!r}: after @ comes the turn by whose start it must hold, "
                f'a whole number from 1 (e.g. "type:ship>=1@1"), not {turn!r}'
            )
        deadline = int(turn)
        text_body = dated.group("rest").strip()
    else:
        text_body = cleaned
    parsed = _parse_body(text, text_body)
    return Condition(cleaned, parsed.selector, parsed.op, parsed.count, deadline)


def _parse_body(text: str, cleaned: str) -> Condition:
    """``SELECTOR OP COUNT`` of ``cleaned`` (``text``: as written, for messages)."""
    for typo, meant in (("=>", ">="), ("=<", "<=")):
        if typo in cleaned:
            raise ConditionError(
                f"condition {text!r}: {typo} is not an operator; did you mean "
                f"{cleaned.replace(typo, meant, 1)!r}?"
            )
    match = _CONDITION.match(cleaned)
    if not match or not match.group("selector").strip():
        raise ConditionError(
            f"condition {text!r} is not SELECTOR OP COUNT "
            '(e.g. "type:ship>=2", "POINT OF>=1", "id:I/25=1"; OP is >= <= = == > <)'
        )
    raw_count = match.group("count").strip()
    if not re.fullmatch(r"\d+", raw_count):
        raise ConditionError(
            f"condition {text!r}: the count must be a whole number ≥ 0, not {raw_count!r}"
        )
    if len(raw_count.lstrip("0")) > len(str(MAX_CONDITION_COUNT)):
        shown = (
            raw_count if len(raw_count) <= 24 else f"{raw_count[:12]}… ({len(raw_count):,} digits)"
        )
        said = text if len(text) <= 60 else text[:40] + "…"
        raise ConditionError(f"condition {said!r}: a count of {shown} is beyond any deck")
    count = int(raw_count)
    if count > MAX_CONDITION_COUNT:
        raise ConditionError(f"condition {text!r}: a count of {count} is beyond any deck")
    op = Comparison.parse(match.group("op"))
    return Condition(cleaned, match.group("selector").strip().strip("\"'"), op, count)


def parse_conditions(texts: Sequence[str]) -> tuple[Condition, ...]:
    """Parse every condition of a command line. A condition the shell split apart (unquoted,
    its ``>`` taken for a redirection, or written with spaces) is explained, not just refused.

    >>> [c.text for c in parse_conditions(["type:ship>=2", "POINT OF=1"])]
    ['type:ship>=2', 'POINT OF=1']
    >>> parse_conditions(["type:ship", "2"])
    Traceback (most recent call last):
    ...
    deckcheck.core.errors.ConditionError: the shell split a condition: 'type:ship' '2' ...
    """
    for i, text in enumerate(texts):
        after = texts[i + 1].strip() if i + 1 < len(texts) else ""
        stripped = text.strip()
        if not any(ch in stripped for ch in _OPERATOR_CHARS):
            if after.isdigit():
                raise ConditionError(
                    f"the shell split a condition: {text!r} {after!r} (its > or < was taken for "
                    f'a redirection); write it as one quoted argument, e.g. "{stripped}>={after}"'
                )
            raise ConditionError(
                f"condition {text!r} has no comparison (SELECTOR OP COUNT, e.g. "
                f'"{stripped or "SELECTOR"}>=1"); {_QUOTE_THEM}'
            )
        if stripped[-1] in _OPERATOR_CHARS and after.isdigit():
            raise ConditionError(
                f"the shell split a condition: {text!r} {after!r}; write it as one quoted "
                f'argument, "{stripped}{after}"'
            )
    return tuple(parse_condition(t) for t in texts)
