"""Resolving deck lines to catalog cards, every failure collected and reported together."""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.catalog.model import Card, Catalog
from deckcheck.catalog.names import NameMatch
from deckcheck.core.errors import UnknownCardsError, UnresolvedLine
from deckcheck.core.text import Suggester, fold, squash
from deckcheck.core.values import frozen
from deckcheck.decks.model import DeckLine, DeckSource
from deckcheck.decks.parse import HEADER_KEYS
from deckcheck.games.base import Game

MAX_REPORTED_LINES = 100
"""Unknown lines reported one by one; the lines after them are counted, not looked up (a
wrong file must fail fast: work stays bounded by this many lookups, whatever its length)."""

SUGGESTION_BUDGET = 100_000
"""Name comparisons a deck may spend on "did you mean" (one comparison: one deck spelling
against one catalog spelling, about a microsecond). Every listed line of a small catalog gets
suggestions; of STCCG's 4,155 spellings, the first two dozen lines do, the rest are listed
without (a deck that wrong is not a typo)."""

SUGGESTED_LENGTH = 200
"""Longer spellings get no suggestion: no card name is within reach of them."""


def lookup(
    name: str, catalog: Catalog, game: Game, answered: dict[str, NameMatch] | None = None
) -> NameMatch:
    """What a spelling may mean: an id; the game's own reading (another program's names, set
    codes); each of the game's candidate names; last, the same names with punctuation and
    spacing ignored (``Red Alert`` for ``Red Alert!``).

    ``answered``: the answers given before for this catalog and game, kept by a caller that reads
    the same lines again (the builder, after every edit); the new answer is added to them (up to
    :data:`ANSWERS_KEPT`, and only spellings no longer than :data:`SUGGESTED_LENGTH`, so that a
    pasted wall of text is not kept). Without it, the answers the catalog keeps
    (:func:`kept_answers`)."""
    if answered is None:
        answered = kept_answers(catalog, game)
    match = answered.get(name)
    if match is None:
        match = _lookup(name, catalog, game)
        if len(answered) < ANSWERS_KEPT and len(name) <= SUGGESTED_LENGTH:
            answered[name] = match
    return match


def kept_answers(catalog: Catalog, game: Game) -> dict[str, NameMatch]:
    """The readings of spellings kept with ``catalog`` for ``game``'s readers: a spelling's
    reading is a pure function of the catalog and those readers, and a process that reads
    several decks (a folder, detection trying every game, the builder) reads the same
    spellings again."""
    return catalog.derived(("name answers", game.lookup_name, game.name_candidates), dict)


ANSWERS_KEPT = 20_000
"""Readings of spellings kept for one catalog (:func:`lookup`): every line of many decks, while
junk files of ten thousand lines cannot make them grow without bound."""


def _lookup(name: str, catalog: Catalog, game: Game) -> NameMatch:
    """:func:`lookup` without remembering."""
    card = catalog.by_id(name)
    if card is not None:
        return NameMatch((card,))
    if game.lookup_name is not None:
        match = game.lookup_name(name, catalog)
        if match is not None:
            return match
    tries = game.name_candidates(name)
    for find in (catalog.by_name, catalog.by_squashed):
        for candidate in tries:
            found = find(candidate)
            if found:
                return NameMatch(tuple(found))
    return NameMatch(())


def pick(cards: Sequence[Card], game: Game) -> Card | None:
    """One card for a name several cards share: the earliest printing, when all agree on every
    rule-relevant field; otherwise None (the user must write the id)."""
    if len(cards) == 1:
        return cards[0]
    fields = game.spec.identity_fields
    first = cards[0]
    if all(all(c.get(f) == first.get(f) for f in fields) for c in cards[1:]):
        return min(cards, key=lambda c: c.order)
    return None


@frozen
class Resolved:
    """What one line names: a card (with its face), or candidates and why none was taken."""

    card: Card | None
    count: int
    candidates: tuple[Card, ...] = ()
    face: str | None = None
    note: str | None = None
    refused: str | None = None
    fields: Mapping[str, Any] | None = None  # card fields the spelling gives (a *VP's tags)


def resolve_line(
    line: DeckLine, catalog: Catalog, game: Game, answered: dict[str, NameMatch] | None = None
) -> Resolved:
    """The card a line names, or None with the candidates found (``answered``: see
    :func:`lookup`)."""
    match, whole = _line_match(line, catalog, game, answered)
    count = 1 if whole else line.count
    # Positional: a value made for every line of every deck read.
    if not match.cards:
        return Resolved(None, count, (), None, None, match.refused)
    if match.refused:
        return Resolved(None, count, match.cards, None, None, match.refused)
    card = pick(match.cards, game)
    if card is None:
        return Resolved(None, count, match.cards)
    return Resolved(card, count, (), match.face, match.note, None, match.fields)


def _line_match(
    line: DeckLine, catalog: Catalog, game: Game, answered: dict[str, NameMatch] | None
) -> tuple[NameMatch, bool]:
    """What a line's name means, and whether that is what the whole line means instead (a
    name may begin with a number: "1 Tribble - Bonus")."""
    match = lookup(line.name, catalog, game, answered)
    if not match.cards and line.text != line.name and not match.refused:
        whole = lookup(line.text, catalog, game, answered)
        if whole.cards and not whole.refused:
            return whole, True
    return match, False


class PartlyResolvedError(UnknownCardsError):
    """Unknown or ambiguous lines, with the deck the other lines make (``deck``), so that the
    resolved part can still be checked."""

    def __init__(self, unresolved: Sequence[UnresolvedLine], game: str, deck: Deck) -> None:
        super().__init__(unresolved, game)
        self.deck = deck
        self.loaded: Any = None  # the LoadedDeck of the resolved part, once the loader has it


def resolve_deck(
    source: DeckSource,
    catalog: Catalog,
    game: Game,
    variant: str,
    answered: dict[str, NameMatch] | None = None,
) -> Deck:
    """The deck with every line resolved; all unknown or ambiguous lines raise together
    (:class:`PartlyResolvedError`, carrying the deck of the lines that did resolve);
    ``answered``: see :func:`lookup`.

    Lines of a side zone (a side deck, cards set aside) go to ``Deck.side``; notes say how a
    doubtful line was read, and name lines with no copies and cards written on two lines.
    """
    entries: list[DeckEntry] = []
    side: list[DeckEntry] = []
    notes: list[str] = []
    unresolved: list[UnresolvedLine] = []
    suggester: Suggester | None = None
    spent = 0
    seen: dict[tuple[str, str | None, str | None, bool], DeckLine] = {}
    headings = Headings(game, catalog)
    if answered is None:
        answered = kept_answers(catalog, game)
    for index, line in enumerate(source.lines):
        if len(unresolved) >= MAX_REPORTED_LINES:
            # A deck this wrong is not worth resolving to the end (nor a partial verdict).
            unread = [later.line for later in source.lines[index:]]
            raise UnknownCardsError(unresolved, game.id, unread)
        found = resolve_line(line, catalog, game, answered)
        card = found.card
        if card is not None:
            where = f"line {line.line}" if line.line is not None else line.text
            if found.note:
                notes.append(f"{where}: {found.note}")
            if not found.count:
                notes.append(f"{where}: 0 copies of {card.name}: the line adds nothing")
                continue
            zone = game.zone(line.section) if line.section is not None else None
            entry = DeckEntry(
                card,
                found.count,
                line.line,
                line.section,
                zone.name if zone else None,
                found.face,
                found.fields,
                # an id is no spelling to quote back: the card's name says more
                line.name if fold(line.name) not in (fold(card.name), fold(card.id)) else None,
            )
            key = (card.id, entry.zone, found.face, bool(found.fields))
            if key in seen and not game.spec.ordered:
                first = seen[key]
                notes.append(
                    f"{where}: {card.name} is also on "
                    + (f"line {first.line}" if first.line is not None else "another line")
                    + ": the copies are added together"
                )
            seen.setdefault(key, line)
            (side if zone is not None and not zone.counted else entries).append(entry)
            continue
        if line.doubt == "header" and not found.candidates:
            header_key = line.text.split(":", 1)[0].strip()
            known = sorted(HEADER_KEYS | set(game.spec.settings))
            near = difflib.get_close_matches(header_key.lower(), known, n=1, cutoff=0.75)
            listing = f"headers: {', '.join(sorted(HEADER_KEYS))}" + (
                f"; {game.id} settings: {', '.join(sorted(game.spec.settings))}"
                if game.spec.settings
                else ""
            )
            if near:
                # A misspelt header would silently check the wrong variant or settings.
                unresolved.append(
                    UnresolvedLine(
                        source.label,
                        line.line,
                        line.text,
                        reason="unknown header",
                        hint=f"did you mean {near[0]!r}? {listing}",
                    )
                )
            else:
                where = f"line {line.line}" if line.line is not None else repr(line.text)
                notes.append(
                    f"{where}: left out, {header_key!r} is no header deckcheck knows ({listing})"
                )
            continue
        if not found.candidates and (line.doubt is not None or headings.reads_as_heading(line)):
            notes.append(_doubt_note(line))
            continue
        if found.candidates:
            unresolved.append(
                UnresolvedLine(
                    source.label,
                    line.line,
                    line.name,
                    reason=found.refused or "ambiguous name",
                    candidates=tuple(
                        f"{c.id} ({c.name}; {c.type_label}, {_where(c)})"
                        if found.refused
                        else f"{c.id} ({c.type_label}, {_where(c)})"
                        for c in found.candidates
                    ),
                )
            )
            continue
        if suggester is None:
            suggester = catalog.suggest_name
        hints: tuple[str, ...] = ()
        if spent + len(suggester) <= SUGGESTION_BUDGET and len(line.name) <= SUGGESTED_LENGTH:
            hints = tuple(suggester(line.name))
            spent += len(suggester)
        unresolved.append(
            UnresolvedLine(
                source.label, line.line, line.name, hints, reason=found.refused or "unknown card"
            )
        )
    deck = Deck(
        source.label,
        game.id,
        variant,
        tuple(entries),
        source.headers.get("name"),
        source.format,
        source.headers,
        tuple(side),
        (*source.notes, *notes),
    )
    if unresolved:
        raise PartlyResolvedError(unresolved, game.id, deck)
    return deck


def _doubt_note(line: DeckLine) -> str:
    """Why a line that reads as prose, a title or a heading and names no card was left out."""
    where = f"line {line.line}" if line.line is not None else repr(line.text)
    reads = {"prose": "prose", "title": "a title"}.get(line.doubt or "", "a heading")
    return f"{where}: left out, it reads as {reads} and names no card: {line.text!r}"


GENERIC_HEADINGS = frozenset(
    squash(word)
    for word in (
        "deck",
        "main",
        "main deck",
        "draw deck",
        "side",
        "side deck",
        "sideboard",
        "seed",
        "seeds",
        "seed deck",
        "cards",
        "decklist",
        "deck list",
        "total",
        "other",
        "others",
        "extra",
    )
)
"""Words a pasted list heads its parts with in any game (a game adds its zones and types)."""

_JOINERS = re.compile(r"\s*(?:[&/,+]|\band\b|\bor\b)\s*", re.I)
_COUNT_AFTER = re.compile(r"\(\s*[\d_,]+\s*\)\s*$")  # "Personnel (37)"
_COUNT_AFTER_SPACED = re.compile(r"\s*\(\s*[\d_,]+\s*\)\s*$")


class Headings:
    """Whether a line that names no card is a list's heading: a zone or type name of the game
    (``Missions (6)``, ``Personnel (37)``, ``Ships & Facilities``), or a word that heads a
    part of any deck list (``Seeds``, ``Sideboard``). Built on first use, from the catalog's
    types (:attr:`Catalog.types`, read once per catalog)."""

    def __init__(self, game: Game, catalog: Catalog) -> None:
        self._game = game
        self._catalog = catalog
        self._words: frozenset[str] | None = None

    def words(self) -> frozenset[str]:
        """The squashed heading words: zones, their aliases, types in singular and plural."""
        if self._words is None:
            words = set(GENERIC_HEADINGS)
            for zone in self._game.zones:
                words.update(squash(n) for n in (zone.name, *zone.aliases))
            for kind in self._catalog.types:
                key = squash(kind)
                words.update({key, key + "s", key + "es"})
                if key.endswith("y"):
                    words.add(key[:-1] + "ies")
            words.discard("")
            self._words = frozenset(words)
        return self._words

    def reads_as_heading(self, line: DeckLine) -> bool:
        """A line with no count before its name (none, or one in brackets after it) whose
        words, split at ``&``, ``/``, ``and``, are all heading words."""
        text = line.text.strip().rstrip(":").strip()
        if line.count != 1 and not _COUNT_AFTER.search(text):
            return False
        name = _COUNT_AFTER_SPACED.sub("", line.name).strip().rstrip(":")
        parts = [p for p in _JOINERS.split(name) if p]
        if not parts or len(name) > 60:
            return False
        words = self.words()
        return all(squash(p) in words for p in parts)


def telling_apart(cards: Sequence[Card], limit: int = 3) -> dict[str, str]:
    """For cards that share a name: each card's id -> the values of the fields in which they
    differ (``faction Ratekové, colour red``), up to ``limit`` fields, type and the set first."""
    keys: list[str] = ["type"]
    for card in cards:
        keys += [k for k in card.fields if k not in keys and k not in ("note", "name", "id")]

    def shown(card: Card, key: str) -> str:
        value = card.type_label if key == "type" else card.get(key)
        return ", ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)

    differ = [k for k in keys if len({shown(c, k) for c in cards}) > 1][:limit]
    return {
        c.id: ", ".join(f"{k} {shown(c, k)}" for k in differ if c.get(k) is not None or k == "type")
        for c in cards
    }


def _where(card: Card) -> str:
    bits = [str(card.get(k)) for k in ("set", "affiliation", "faction", "colour") if card.get(k)]
    return "; ".join(bits) or card.name


def unknown_lines(source: DeckSource, catalog: Catalog, game: Game) -> Iterator[DeckLine]:
    """The lines of ``source`` that name no card of ``catalog`` (for game detection), found as
    far as they are asked for: the first tells a game that does not fit, a hundred one that
    does not nearly fit either."""
    headings = Headings(game, catalog)
    answered = kept_answers(catalog, game)
    for line in source.lines:
        # A line names no card when no reading of it finds one (else it names a card, or
        # cards to choose from).
        if (
            not _line_match(line, catalog, game, answered)[0].cards
            and line.doubt is None
            and not headings.reads_as_heading(line)
        ):
            yield line
