"""Text folding used wherever a user's spelling meets a catalog's."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from functools import lru_cache

_QUOTES = str.maketrans(
    {
        "\u2018": "'",
        "\u2019": "'",
        "\u201a": "'",
        "\u201b": "'",
        "\u2032": "'",
        "`": "'",
        "\u00b4": "'",
        "\u201c": '"',
        "\u201d": '"',
        "\u201e": '"',
        "\u201f": '"',
        "\u2033": '"',
        "\u2010": "-",
        "\u2011": "-",
        "\u2012": "-",
        "\u2013": "-",
        "\u2014": "-",
        "\u2212": "-",
        "\u00a0": " ",
        "\u2007": " ",
        "\u202f": " ",
    }
)


@lru_cache(maxsize=1 << 16)
def fold(text: str) -> str:
    """The comparison key of a name: case, accents, curly quotes, dashes and spaces folded.

    >>> fold("  Blücher ") == fold("BLUCHER")
    True
    """
    text = unicodedata.normalize("NFKD", text.translate(_QUOTES))
    if not text.isascii():
        text = "".join(ch for ch in text if not unicodedata.combining(ch))
    # split() and join collapse whitespace as ``re.sub(r"\s+", " ", ...).strip()`` would (both
    # take str.isspace's whitespace) at a fraction of the cost on a long pasted line.
    return " ".join(text.split()).casefold()


_NOT_ALNUM = re.compile(r"[\W_]+")
_ASCII_NOT_ALNUM = str.maketrans(
    "", "", "".join(c for c in map(chr, range(128)) if not c.isalnum())
)


def squash(text: str) -> str:
    """A name with case, accents, punctuation and spacing folded away: ``Hyper Aging`` and
    ``Hyper-Aging``, ``Horgahn`` and ``Horga'hn`` give one key.

    >>> squash("Red Alert!") == squash("red alert")
    True
    """
    folded = fold(text)
    if folded.isascii():  # the usual case: a table deletes the same characters in one pass
        return folded.translate(_ASCII_NOT_ALNUM)
    return _NOT_ALNUM.sub("", folded)


def tidy(text: str) -> str:
    """Curly quotes, typographic dashes and odd spaces made plain, whitespace collapsed; case
    and accents kept (for display and for parsing names)."""
    return " ".join(unicodedata.normalize("NFC", text.translate(_QUOTES)).split())


def slug(text: str) -> str:
    """A lowercase ASCII identifier made of a name (for ids of user-defined cards)."""
    return re.sub(r"[^a-z0-9]+", "-", fold(text)).strip("-") or "card"


LONGEST_QUOTED = 200
"""A quoted name in a one-line message longer than this (a pasted 100,000-character name) is
cut; paths and other words are never cut."""
_LONG_QUOTED = re.compile(
    rf"'[^'\n]{{{LONGEST_QUOTED + 1},}}'|\"[^\"\n]{{{LONGEST_QUOTED + 1},}}\""
)


def cut_long_words(text: str) -> str:
    """A message with each quoted name beyond :data:`LONGEST_QUOTED` characters cut to its
    start and its length (``'xxxx…' (100,000 characters)``): the message stays one line a
    person reads."""

    def cut(match: re.Match[str]) -> str:
        quoted = match.group()
        core = quoted[1:-1]
        return f"{quoted[0]}{core[:60]}…{quoted[-1]} ({len(core):,} characters)"

    return _LONG_QUOTED.sub(cut, text)


PREFIX = 3
"""Letters a suggestion shares with the start of a word to be offered first."""
PREFIX_SLACK = 10.0
"""How far below the cutoff such a suggestion may score."""
PREFIX_ROOM = 5
"""Extra matches looked at for one that shares the word's start."""


SUGGESTIONS_KEPT = 1024
"""Answers a :class:`Suggester` keeps (each a few names)."""


class Suggester:
    """ "Did you mean" over a fixed list of choices, folded once (a deck with thousands of
    unknown lines must not re-fold the whole catalog for each of them)."""

    def __init__(self, choices: Iterable[str]) -> None:
        self._folded: dict[str, str] = {}
        for choice in choices:
            self._folded.setdefault(fold(choice), choice)
        self._keys = list(self._folded)
        # A spelling far longer than every choice is near none of them: compare only its start
        # (a pasted 100 KB line must not take seconds of fuzzy matching).
        self._longest = max((len(k) for k in self._keys), default=0) * 2 + 16
        # The latest answers: a fuzzy search of thousands of names costs milliseconds, and the
        # same unknown lines are asked about again (the builder re-checks after every edit).
        self._answers: dict[tuple[str, int, float], tuple[str, ...]] = {}
        self._processed: list[str] | None = None  # the keys as rapidfuzz compares them

    def __len__(self) -> int:
        """How many distinct (folded) choices a suggestion compares a word with."""
        return len(self._keys)

    def __call__(self, word: str, limit: int = 3, cutoff: float = 60.0) -> list[str]:
        """Up to ``limit`` choices that look like ``word``, best first.

        rapidfuzz is imported here, on the error path only, to keep start-up light.
        """
        key = fold(word[: self._longest])
        asked = (key, limit, cutoff)
        known = self._answers.get(asked)
        if known is None:
            if len(self._answers) >= SUGGESTIONS_KEPT:
                self._answers.clear()
            known = self._answers[asked] = tuple(self._search(key, limit, cutoff))
        return list(known)

    def _search(self, key: str, limit: int, cutoff: float) -> list[str]:
        from rapidfuzz import fuzz, process, utils

        # The choices processed once, not on every search (what ``processor=`` would do); the
        # scores, and so the matches and their order, are the same.
        if self._processed is None:
            self._processed = [utils.default_process(k) for k in self._keys]
        matches = [
            (self._keys[index], score, index)
            for _, score, index in process.extract(
                utils.default_process(key),
                self._processed,
                scorer=fuzz.WRatio,
                processor=None,
                limit=limit + PREFIX_ROOM,
                score_cutoff=cutoff - PREFIX_SLACK,
            )
        ]
        # A name that starts as the word does ("Dragon": Drake) comes first, a little below
        # the cutoff too: WRatio's partial match may rank a short name inside the word
        # ("Monk" in "Dragon") above it.
        head = key[:PREFIX]
        starts = [m for m in matches if len(head) == PREFIX and m[0].startswith(head)]
        rest = [m for m in matches if m not in starts and m[1] >= cutoff]
        return [self._folded[m[0]] for m in [*starts, *rest][:limit]]


def suggest(word: str, choices: Iterable[str], limit: int = 3, cutoff: float = 60.0) -> list[str]:
    """Up to ``limit`` of ``choices`` that look like ``word`` (best first), for "did you mean"."""
    return Suggester(choices)(word, limit, cutoff)


def plural(n: int, word: str) -> str:
    """``n`` and the word, plural unless one: "1 card", "0 ships", "5 heroes"."""
    return f"{n} {plural_noun(word, n)}"


def plural_noun(noun: str, n: int | None) -> str:
    """``noun`` as ``n`` of it reads: ``1 planet``, ``5 heroes``, ``2 persons/units``,
    ``3 party members`` (each part of a slashed noun, the last word of several)."""
    if n == 1 or not noun:
        return noun
    return "/".join(_plural_word(part) for part in noun.split("/"))


def _plural_word(words: str) -> str:
    head, _, last = words.rpartition(" ")
    if not last or (last.endswith("s") and not last.endswith(("ss", "us"))):
        return words  # already plural ("points", "missions")
    if last.endswith(("ss", "x", "ch", "sh", "o")):
        last += "es"
    elif last.endswith("y") and last[-2:-1] not in tuple("aeiou"):
        last = last[:-1] + "ies"
    else:
        last += "s"
    return f"{head} {last}" if head else last
