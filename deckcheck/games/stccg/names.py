"""Star Trek CCG 1E card names as deck files spell them.

Lackey deck files, the community's interchange format, spell names in several ways::

    Mr. Scott *TMP          persona / printing suffix: a set code after a star
    Kira**   Leeta*         trailing stars: Lackey's own marks for alternative printings
    % Vekor                 a leading '%': Lackey's mark for a universal card
    KIVAS FAJO - COLLECTOR  upper case (folded away by :func:`fold`)
    Vash (The Next Generation)   the card database's own "(Set Name)" disambiguation

The catalog keeps the database's names, in which a later printing carries its set in
parentheses (``Data (First Contact)``). :func:`name_candidates` turns one deck spelling into
the names worth trying, most specific first; the resolver compares ``fold(candidate)`` with
``fold(catalog name)`` and takes the first candidate that names a card.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from types import MappingProxyType

from deckcheck.catalog.model import Card, Catalog
from deckcheck.catalog.names import NameMatch, NameRow, NameTable, cards_of
from deckcheck.core.text import fold, tidy
from deckcheck.core.values import frozen

__all__ = ["SET_SUFFIXES", "fold", "name_candidates"]


# A set code (as used after a star in Lackey files, or as the Release code of the database,
# casefolded) -> the "(Set Name)" suffixes the card database uses for that set's printings.
SET_SUFFIXES: dict[str, tuple[str, ...]] = {
    "premiere": ("Premiere",),
    "pr": ("Premiere",),  # a .stdeck's code
    "au": ("Alternate Universe",),
    "qc": ("Q-Continuum",),
    "fc": ("First Contact",),
    "ds9": ("Deep Space Nine",),
    "dom": ("The Dominion",),
    "bog": ("Blaze of Glory",),
    "roa": ("Rules of Acquisition",),
    "twt": ("The Trouble with Tribbles",),
    "mm": ("Mirror, Mirror",),
    "voy": ("Voyager",),
    "borg": ("The Borg",),
    "ha": ("Holodeck Adventures",),
    "tmp": ("The Motion Pictures",),
    "agt": ("All Good Things",),
    "vp": ("Things Past", "Sanctuary", "League Promo"),
    "coc": ("Chain of Command",),
    "lfl": ("Life From Lifelessness",),
    "sas": ("Straight and Steady",),
    "sog": ("Shades of Gray",),
    "hf": ("Homefront",),
    "hf2": ("Homefront II",),
    "hf3": ("Homefront III",),
    "rif": ("Resistance is Futile",),
    "tng": ("The Next Generation",),
    "engage": ("Engage",),
    "eng": ("Engage",),
    "tstl": ("The Sky's the Limit",),
    "emissary": ("Emissary",),
    "emi": ("Emissary",),
    "wpemissary": ("Warp Pack: Emissary",),
    "maquis": ("The Maquis",),
    "maq": ("The Maquis",),
    "20th": ("20th Anniversary",),
    "tgq": ("The Gamma Quadrant",),
    "crossover": ("Crossover",),
    "xo": ("Crossover",),
    "lookinggla": ("Through the Looking Glass",),
    "ttlg": ("Through the Looking Glass",),
    "brokenbow": ("Broken Bow",),
    "bb": ("Broken Bow",),
    "prewarp": ("Pre-Warp Pack",),
    "llap": ("Live Long and Prosper",),
    "wp2017": ("Warp Pack",),
    "wp": ("Warp Pack",),
    "coldfront": ("Cold Front",),
    "cf": ("Cold Front",),
    "metamorpho": ("Metamorphosis",),
    "meta": ("Metamorphosis",),
    "cage": ("The Cage",),
    "tnz": ("The Neutral Zone",),
    "plw": ("A Private Little War",),
    "dow": ("Dogs of War",),
    "ssttr": ("Second Star to the Right",),
    "pl": ("Paradise Lost",),
    "nem": ("Nemesis",),
    "sotl": ("Ships of the Line",),
    "sfl": ("Showdown: Four Lights",),
    "ls": ("Lifesigns",),
    "aut": ("Alternate Universe Twilight",),
}


class _Needing:
    """A pattern that can match only a text holding one of ``words`` (in ``casefold()``ed text
    where the pattern ignores case): other texts are answered without running it. A pattern
    that fails scans the whole text, one try per character: a pasted line of 100,000
    characters is then read once by ``in`` instead."""

    def __init__(self, pattern: re.Pattern[str], *words: str) -> None:
        self._pattern = pattern
        self._words = words
        # Under IGNORECASE, each character the words' letters match casefolds to that very
        # letter (Kelvin sign to "k", long s to "s"), so casefolded text holds the word. Not
        # so for "i" ("İ" and "ı" match it and casefold to other text): no word may hold one.
        self._folded = bool(pattern.flags & re.IGNORECASE)
        if self._folded and any("i" in word for word in words):
            raise ValueError(f"{words}: a word with an 'i' may match text without it")

    def _may_match(self, text: str) -> bool:
        seen = text.casefold() if self._folded else text
        return any(word in seen for word in self._words)

    def match(self, text: str) -> re.Match[str] | None:
        """``pattern.match(text)``."""
        return self._pattern.match(text) if self._may_match(text) else None

    def search(self, text: str) -> re.Match[str] | None:
        """``pattern.search(text)``."""
        return self._pattern.search(text) if self._may_match(text) else None

    def sub(
        self, replacement: str | Callable[[re.Match[str]], str], text: str, count: int = 0
    ) -> str:
        """``pattern.sub(replacement, text, count)``."""
        return self._pattern.sub(replacement, text, count) if self._may_match(text) else text


_LEADING_MARKS = re.compile(r"^[%\u2756\u2022\u25c6\u2666\u00b7*\s]+")
_SET_CODE = _Needing(re.compile(r"^(?P<core>.*?)\s*\*+\s*(?P<code>[A-Za-z0-9]+)\s*\**$"), "*")
_STARS = _Needing(re.compile(r"\s*\*+$"), "*")
_PAREN = _Needing(re.compile(r"^(?P<base>.+?)\s*\((?P<label>[^()]+)\)$"), ")")
_ABBREVIATION_WORDS = ("dr", "mr", "ms", "lt", "cmdr", "capt", "gen", "adm", "sgt", "st", "jr")
_ABBREVIATIONS = _Needing(
    re.compile(r"\b(Dr|Mr|Mrs|Ms|Lt|Cmdr|Capt|Gen|Adm|Sgt|St|Jr)\b(?!\.)", re.I),
    *_ABBREVIATION_WORDS,
)
_AND = _Needing(re.compile(r"\band\b", re.I), "and")
_SHIP_PREFIXES = {
    "uss": "U.S.S.",
    "iss": "I.S.S.",
    "iks": "I.K.S.",
    "ikc": "I.K.C.",
    "irw": "I.R.W.",
}
_SHIP_PREFIX = re.compile(r"^(USS|ISS|IKS|IKC|IRW)\b\.?", re.I)


def _with_set(core: str, code: str) -> list[str]:
    """``core (Set Name)`` for every database suffix of a set code (empty if unknown)."""
    return [f"{core} ({label})" for label in SET_SUFFIXES.get(code.casefold(), ())]


def _punctuation_variants(name: str) -> list[str]:
    """Other plausible punctuations of a name (spaced hyphens, '&', dotted abbreviations)."""
    variants: list[str] = []
    if "-" in name:
        variants.append(re.sub(r"\s*-\s*", " - ", name))
        variants.append(re.sub(r"\s+-\s+", "-", name))
    if "&" in name:
        variants.append(tidy(name.replace("&", " and ")))
    if _AND.search(name):
        variants.append(tidy(_AND.sub("&", name)))
    dotted = _ABBREVIATIONS.sub(lambda m: m.group(1) + ".", name)
    # A prefix matched through a look-alike letter (Turkish dotless "ıss") is left as written.
    dotted = _SHIP_PREFIX.sub(
        lambda m: _SHIP_PREFIXES.get(m.group(1).casefold(), m.group(0)), dotted
    )
    dotted = re.sub(r":(?=\S)", ": ", dotted)
    variants.append(tidy(dotted))
    return [variant for variant in variants if variant and variant != name]


def name_candidates(raw: str) -> list[str]:
    """Return the names to try for one deck-file spelling, most specific first.

    The spelling itself (tidied) comes first; then the printing a set code or a parenthesised
    set asks for (``Mr. Scott *TMP`` -> ``Mr. Scott (The Motion Pictures)``); then the plain
    name without stars, codes or parentheses; last, the same names punctuated differently.
    Case is kept: compare the candidates with :func:`fold`.

    >>> name_candidates("Mr. Scott *TMP")
    ['Mr. Scott *TMP', 'Mr. Scott (The Motion Pictures)', 'Mr. Scott']
    >>> name_candidates("Kira**")
    ['Kira**', 'Kira']
    >>> name_candidates("Vash (The Next Generation)")
    ['Vash (The Next Generation)', 'Vash']
    """
    return list(_names_to_try(_primary_names(raw)))


def _primary_names(raw: str) -> list[str]:
    """The spelling tidied, the printings its set asks for and its plain name (the first
    names of :func:`name_candidates`)."""
    text = _LEADING_MARKS.sub("", tidy(raw))
    primary: list[str] = [text]
    coded = _SET_CODE.match(text)
    core = text
    if coded and coded.group("core"):
        core = _STARS.sub("", coded.group("core")).strip()
        primary.extend(_with_set(core, coded.group("code")))
    core = _STARS.sub("", core).strip()
    paren = _PAREN.match(core)
    if paren:
        primary.append(core)
        primary.extend(_with_set(paren.group("base"), paren.group("label").strip()))
        core = paren.group("base").strip()
    primary.append(core)
    return primary


def _names_to_try(primary: list[str]) -> Iterator[str]:
    """``primary``, then the same names punctuated differently, each once; made as far as
    they are asked for (the first name read is most often the card's)."""
    seen: set[str] = set()
    variants = (variant for name in primary for variant in _punctuation_variants(name))
    for candidate in itertools.chain(primary, variants):
        if candidate and candidate not in seen:
            seen.add(candidate)
            yield candidate


# --- resolving a spelling -------------------------------------------------------------------

_QUOTED = re.compile(r'^"(?P<inner>[^"]+)"$')
_SPACED_DASH = _Needing(re.compile(r"\s+-\s+"), "-")
_KLINGON_PREFIX = re.compile(r"^I\.K\.([CS])\.", re.I)


@frozen
class Candidate:
    """A name worth trying for a spelling; ``labels`` (when set) are the set names or codes
    the spelling asked for, which a card found under the bare name must belong to."""

    name: str
    labels: frozenset[str] | None = None


def _name_forms(name: str) -> list[str]:
    """The same name in the other spellings Lackey files use for it."""
    forms: list[str] = []
    quoted = _QUOTED.match(name)
    if quoted:
        forms.append(quoted.group("inner").strip())
    if _SPACED_DASH.search(name):
        forms.append(_SPACED_DASH.sub(": ", name, count=1))
    if re.search(r":\s", name):
        forms.append(re.sub(r"\s*:\s+", " - ", name, count=1))
    prefix = _KLINGON_PREFIX.match(name)
    if prefix:
        other = "S" if prefix.group(1).upper() == "C" else "C"
        forms.append(f"I.K.{other}." + name[prefix.end() :])
    return forms


def candidates(raw: str) -> list[Candidate]:
    """The names to try for one spelling, most specific first, each with the set a card found
    under the bare name must come from (``Worf *TNG`` asks for a TNG printing of Worf: Premiere
    Worf is not one)."""
    return list(_candidates(raw))


def _candidates(raw: str) -> Iterator[Candidate]:
    """:func:`candidates`, made as far as they are asked for."""
    text = _LEADING_MARKS.sub("", tidy(raw))
    if not text:
        return
    labels: set[str] = set()
    coded = _SET_CODE.match(text)
    if coded and coded.group("core"):
        code = coded.group("code")
        labels |= {
            code.casefold(),
            *(fold(label) for label in SET_SUFFIXES.get(code.casefold(), ())),
        }
    core = _STARS.sub("", coded.group("core") if coded and coded.group("core") else text).strip()
    paren = _PAREN.match(core)
    if paren and paren.group("label").strip().casefold() != "back":
        label = paren.group("label").strip()
        labels |= {fold(label), *(fold(x) for x in SET_SUFFIXES.get(label.casefold(), ()))}
    wanted = frozenset(labels) or None
    seen: set[str] = set()
    for name in _names_to_try(_primary_names(raw)):
        for form in (name, *_name_forms(name)):
            if form and form not in seen:
                seen.add(form)
                bare = wanted is not None and _is_bare(form, wanted)
                yield Candidate(form, wanted if bare else None)


def _is_bare(name: str, labels: frozenset[str]) -> bool:
    """Whether ``name`` has lost the set the spelling asked for (so a card found under it must
    prove its set)."""
    paren = _PAREN.match(name)
    if paren and fold(paren.group("label")) in labels:
        return False
    coded = _SET_CODE.match(name)
    return not (coded and coded.group("code").casefold() in labels)


def in_sets(card: Card, labels: frozenset[str]) -> bool:
    """Whether a card is a printing of one of these sets (by its release code, its set name or
    the ``(Set Name)`` in its name)."""
    return bool(_own_sets(card) & labels)


def _own_sets(card: Card) -> set[str]:
    """The set labels a card answers to (folded): its release code, its set name, the
    ``(Set Name)`` in its name ("" for any of them it lacks)."""
    paren = _PAREN.match(card.name)
    return {
        fold(str(card.get("release") or "")),
        fold(str(card.get("set") or "")),
        fold(paren.group("label")) if paren else "",
    }


def _of_sets(catalog: Catalog, labels: frozenset[str]) -> list[Card]:
    """The cards of ``catalog`` :func:`in_sets` ``labels``, in catalog order, by an index of
    every card's sets made once per catalog (a heading such as ``Missions (6)`` asks for a set
    "6" of a pasted list's every line)."""
    index = catalog.derived("stccg-1e cards by set label", lambda: _set_index(catalog))
    positions = sorted({p for label in labels for p in index.get(label, ())})
    return [catalog.cards[p] for p in positions]


def _set_index(catalog: Catalog) -> dict[str, tuple[int, ...]]:
    """Folded set label -> the catalog positions of the cards :func:`in_sets` of it."""
    index: dict[str, list[int]] = {}
    for position, card in enumerate(catalog):
        for label in _own_sets(card):
            index.setdefault(label, []).append(position)
    return {label: tuple(positions) for label, positions in index.items()}


@cache
def _table() -> NameTable:
    from deckcheck.games.stccg.lackey import name_table

    return name_table()


def lookup_name(
    raw: str, catalog: Catalog, identity_fields: Sequence[str] = ("type",)
) -> NameMatch | None:
    """What a deck spelling names: the Lackey plugin's own names first, then the catalog's
    names under each candidate spelling, then the same with punctuation and spacing ignored.

    A set code the catalog has no printing of (``Worf *TNG``) is refused with the card's
    printings as candidates, unless every printing is the same card to the rules (they agree
    on ``identity_fields``): then it is read as the earliest, with a note. A name the plugin
    gives to a card the catalog does not hold is refused when it carries a set code
    (``Seven of Nine *VP``) and read as the base card with a note otherwise (``Kira**``,
    Lackey's mark for a virtual alternate).
    """
    made = _candidates(raw)
    opening = next(made, None)
    if opening is None:
        return NameMatch(())
    tries = [opening]

    def every_try() -> Iterator[Candidate]:
        """The candidates, made as far as the search goes (it most often stops at the
        first); ``tries`` holds those made."""
        yield from tries
        for candidate in made:
            tries.append(candidate)
            yield candidate

    table = _table()
    literal = opening.name
    rows = table.find(literal)
    absent = bool(rows) and not any(row.card_id for row in rows)
    coded = _SET_CODE.match(literal)
    if absent and coded and coded.group("code").casefold() in VIRTUAL_REISSUE_CODES:
        return _virtual_reissue(literal, rows, catalog, identity_fields)
    if absent and coded:
        return NameMatch(
            tuple(_printings(literal, catalog)),
            refused="Lackey's card of that name is not in this catalog",
        )
    rejected: list[Card] = []
    for squashed in (False, True):
        for attempt in every_try():
            found, face = cards_of(
                table.find_squashed(attempt.name) if squashed else table.find(attempt.name),
                catalog,
            )
            if not found:
                face = None
                found = (
                    catalog.by_squashed(attempt.name) if squashed else catalog.by_name(attempt.name)
                )
            if attempt.labels is not None and found:
                fitting = [c for c in found if in_sets(c, attempt.labels)]
                rejected += [c for c in found if c not in fitting and c not in rejected]
                found = fitting
            if found:
                note = None
                if absent:
                    note = (
                        f"{literal!r} is Lackey's name of a card this catalog does not hold; "
                        f"read as {found[0].name} ({found[0].id})"
                    )
                return NameMatch(tuple(found), face=face, note=note)
    if not rejected:
        shortened = _shortened(tries, catalog)
        if shortened is not None:
            return shortened
        return NameMatch(())  # every reading was tried: the catalog's names need no second look
    printings = _printings(literal, catalog) or rejected
    first = printings[0]
    if all(all(c.get(f) == first.get(f) for f in identity_fields) for c in printings[1:]):
        earliest = min(printings, key=lambda c: c.order)
        return NameMatch(
            (earliest,),
            note=(
                f"{literal!r}: the catalog has no printing of that set; read as "
                f"{earliest.name} ({earliest.id}), the same card to the rules"
            ),
        )
    return NameMatch(tuple(printings), refused="the set it names has no printing of that card")


def _printings(spelling: str, catalog: Catalog) -> list[Card]:
    """Every printing of the card a spelling names (``Worf *TNG`` → every Worf)."""
    coded = _SET_CODE.match(spelling)
    core = _STARS.sub("", coded.group("core") if coded else spelling).strip()
    paren = _PAREN.match(core)
    base = fold(paren.group("base") if paren else core)
    index = catalog.derived("stccg-1e cards by title", lambda: _title_index(catalog))
    return [catalog.cards[p] for p in index.get(base, ())]


def _title_index(catalog: Catalog) -> dict[str, list[int]]:
    """A card's name without its ``(Set Name)``, folded -> the catalog positions of the cards
    of that title (made once per catalog: each refused spelling asks for every printing)."""
    index: dict[str, list[int]] = {}
    for position, card in enumerate(catalog):
        index.setdefault(fold(_PAREN.sub(r"\g<base>", card.name)), []).append(position)
    return index


VIRTUAL_REISSUE_CODES = frozenset({"vp"})
"""Lackey's mark of the CC's virtual re-issues (``Name *VP``): read as the card titled ``Name``,
with the re-issue's own legality tags."""

LEGALITY_FIELD = "legal"
"""The catalog field of a card's legality tags (a re-issue line gives its own)."""


def _title(name: str) -> str:
    """A catalog name without the database's ``(Set Name)`` disambiguation, folded."""
    paren = _PAREN.match(name)
    return fold(paren.group("base") if paren else name)


_ALTERNATE_MARK = re.compile(r"[*+]$")
_SECOND_EDITION = re.compile(r"\s+2E\b.*$")


def _virtual_reissue(
    literal: str, rows: Sequence[NameRow], catalog: Catalog, identity_fields: Sequence[str]
) -> NameMatch:
    """``Name *VP``: the earliest printing of the card ``Name`` names (as any spelling is read:
    the other face of a two-sided card, punctuation variants; a Second Edition title by its
    name), its legality the VP row's own tags. A ``Name*`` or ``Name+`` (Lackey's mark of a
    virtual alternate, another card) or a title no card has is refused, with the nearest."""
    coded = _SET_CODE.match(literal)
    core = (coded.group("core") if coded else literal).strip()
    found: tuple[Card, ...] = ()
    face = None
    if not _ALTERNATE_MARK.search(core):
        match = lookup_name(_SECOND_EDITION.sub("", core), catalog, identity_fields)
        if match is not None and match.cards and not match.refused:
            found, face = match.cards, match.face
    if not found:
        near = catalog.suggest_name(_STARS.sub("", core).rstrip("+ "))
        return NameMatch(
            tuple(c for name in near for c in catalog.by_name(name))[:3],
            refused=(
                "Lackey's virtual re-issue of a card this catalog has no card of that title "
                "(a virtual alternate, marked * or +, is another card)"
            ),
        )
    earliest = min(found, key=lambda c: c.order)
    tags = next((row.extra[2] for row in rows if len(row.extra) > 2 and row.extra[2]), "")
    own = [t for t in tags.split("_") if t]
    note = (
        f"{literal!r} is Lackey's virtual re-issue (VP) of {earliest.name}: read as "
        f"{earliest.name} ({earliest.id}), legal where the re-issue is "
        f"({', '.join(own) or 'nowhere'})"
    )
    return NameMatch(
        (earliest,), face=face, note=note, fields=MappingProxyType({LEGALITY_FIELD: tuple(own)})
    )


_PREFIX_END = re.compile(r"[^0-9a-z]")


def _shortened(tries: Sequence[Candidate], catalog: Catalog) -> NameMatch | None:
    """A shortened title in a named set (a ``.stdeck``'s ``Rogue Borg`` of Premiere): the one
    card of that set whose title starts with the name (at a word's end), with a note."""
    for attempt in tries:
        if attempt.labels is None:
            continue
        start = fold(attempt.name)
        of_sets = _of_sets(catalog, attempt.labels)
        found = [
            c
            for c in of_sets
            if _title(c.name).startswith(start)
            and _PREFIX_END.match(_title(c.name)[len(start) :] or " ")
        ]
        if len(found) == 1:
            card = found[0]
            return NameMatch(
                (card,),
                note=f"{attempt.name!r} is the start of one title of that set: read as "
                f"{card.name} ({card.id})",
            )
        # One edit (a letter changed, added or left out) off exactly one title of that set (a
        # client's "Nella Daren" for the printed "Neela Daren", "J'Dan" for "J'Ddan"): that
        # card, with a note. The named set keeps it safe: a short name one edit off two
        # titles of the set is refused with both.
        close = [c for c in of_sets if _one_off(start, _title(c.name))]
        if len(close) == 1:
            card = close[0]
            return NameMatch(
                (card,),
                note=f"{attempt.name!r} is one letter off {card.name} of that set: read as "
                f"{card.name} ({card.id})",
            )
    return None


def _one_off(a: str, b: str) -> bool:
    """Whether two texts differ by exactly one letter changed, added or left out."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b, strict=True)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1 :] == short for i in range(len(long_)))
