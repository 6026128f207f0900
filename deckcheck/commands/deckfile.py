"""Building a deck from the command line: a new deck file, and cards added or removed in place.

``add``/``remove`` keep the file's format, encoding, comments, order, zones and line ends
(:mod:`deckcheck.inplace.rewrite` makes the new bytes), check that the result reads back as meant,
write it under the file's lock and atomically (:mod:`deckcheck.inplace.atomic`: no concurrent
edit lost, a link kept, a read-only or foreign file refused), and answer with the deck's
standing in one line and the findings the edit changed. The card is read with the same names
and suggestions as validation.
"""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import tomli_w

from deckcheck.analysis.progress import RuleProgress, rule_limits, rule_progress
from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.catalog.model import Card
from deckcheck.core.errors import DeckcheckError, UsageError
from deckcheck.core.inputs import STDIN, source_label
from deckcheck.core.result import OK, Json
from deckcheck.core.text import plural_noun
from deckcheck.core.values import frozen
from deckcheck.core.violations import Report, Violation
from deckcheck.decks.counts import MAX_COPIES_PER_LINE
from deckcheck.decks.load import LoadedDeck, resolve_source
from deckcheck.decks.model import DeckSource
from deckcheck.decks.parse import parse_deck
from deckcheck.decks.resolve import Headings, lookup, pick, telling_apart
from deckcheck.export.formats import reference, render_with_notes
from deckcheck.games.base import Game
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.games.registry import get_game
from deckcheck.inplace.atomic import editing, write_atomically
from deckcheck.inplace.edit import (
    checked_edit,
    encoded_as_before,
    labelled_edit,
    load_editable,
    parse_editable,
    placed_zone,
)
from deckcheck.inplace.rewrite import Change, decode_keeping, with_overlays


@frozen
class CardEdit:
    """One card's change: the copies added (negative: removed), where, and its copies now."""

    card: Card
    delta: int
    zone: str | None
    copies: int  # copies of the card in the deck now (counted zones)

    def to_json(self) -> dict[str, Json]:
        """The card's id and name, the change, the zone and its copies now."""
        return {
            "card": self.card.id,
            "name": self.card.name,
            "delta": self.delta,
            "zone": self.zone,
            "copies": self.copies,
        }


@frozen
class EditResult:
    """An edit made: the cards changed (``edits``; ``card``, ``delta``, ``zone`` and
    ``copies`` are the first's), the deck's standing afterwards, each rule's progress, and
    the findings the edit brought, reworded (a rule still unmet, its numbers moved) or
    cleared."""

    path: Path
    card: Card
    delta: int
    zone: str | None
    copies: int  # copies of the card in the deck now (counted zones)
    standing: str
    report: Report
    brought: tuple[Violation, ...]
    cleared: tuple[Violation, ...]
    edits: tuple[CardEdit, ...] = ()
    progress: tuple[RuleProgress, ...] = ()
    reworded: tuple[Violation, ...] = ()
    notes: tuple[str, ...] = ()

    @property
    def exit_code(self) -> int:
        """0: the edit was made (the standing says whether the deck is legal)."""
        return OK

    def to_json(self) -> dict[str, Json]:
        """The edit, the standing and the changed findings, with the deck's report."""
        return {
            "deck": str(self.path),
            "card": self.card.id,
            "name": self.card.name,
            "delta": self.delta,
            "zone": self.zone,
            "copies": self.copies,
            "cards": [e.to_json() for e in self.edits],
            "standing": self.standing,
            "progress": [
                {
                    "rule": p.code,
                    "state": p.state,
                    "count": p.count,
                    "min": p.low,
                    "max": p.high,
                    "text": p.text,
                }
                for p in self.progress
            ],
            "brought": [v.to_json() for v in self.brought],
            "reworded": [v.to_json() for v in self.reworded],
            "cleared": [v.to_json() for v in self.cleared],
            "notes": list(self.notes),
            "report": self.report.to_json(),
        }


def edit_deck(
    path: str | Path,
    card: str | Sequence[tuple[str, int]],
    count: int = 1,
    *,
    remove: bool = False,
    zone: str | None = None,
    context: Context = NO_CONTEXT,
    listed: str | None = None,
) -> EditResult:
    """Add (or with ``remove`` take out) ``count`` copies of ``card`` in the deck file, in its
    ``zone`` where the game has zones; ``card`` may also be several (card, count) pairs, and
    ``listed`` a pasted deck list (its headings and title left out), all changed at once.
    The file is locked for the edit (no other deckcheck edit is lost), the result is read
    back before it is written, and it is written atomically (:mod:`deckcheck.inplace.atomic`);
    else it is untouched (a card that names nothing stops the whole edit, every such card
    listed)."""
    if str(path) == STDIN:
        raise UsageError("add and remove edit a deck file, not standard input")
    wanted = [(card, count)] if isinstance(card, str) else list(card)
    if not wanted and listed is None:
        raise UsageError("name at least one card to add or remove")
    for _, n in wanted:
        if not 1 <= n <= MAX_COPIES_PER_LINE:
            raise UsageError(f"the number of copies is 1 to {MAX_COPIES_PER_LINE:,}, not {n}")
    target = Path(path)
    label = source_label(path)
    # Locked from the read to the rename: a concurrent edit waits, and none is lost.
    with editing(path) as held:
        text, encoded = decode_keeping(held.data, label)
        source = parse_editable(text, label, target)
        loaded, before = load_editable(source, context)
        recorded = unrecorded_overlays(source, context.overlays, target)
        if recorded:
            # The deck names the overlays its cards come from: it reads back without --catalog.
            text = with_overlays(
                text, source.format, source.headers.get("catalog"), source.header_lines, recorded
            )
            source = parse_editable(text, label, target)
            notes_recorded = [f"recorded in the deck's header: catalog {', '.join(recorded)}"]
        else:
            notes_recorded = []
        notes: list[str] = list(notes_recorded)
        if listed is not None:
            wanted += _listed(listed, loaded, notes)
            if not wanted:
                raise UsageError("the list names no card to add or remove")
        cards, problems = [], []
        for name, _ in wanted:
            try:
                cards.append(find_card(name, loaded))
            except UsageError as exc:
                problems.append(exc)
        if len(problems) == 1:
            raise problems[0]
        if problems:
            raise UsageError(
                f"{len(problems)} of the cards name no single card; nothing was changed",
                details=[
                    p.message + (f" ({'; '.join(p.details)})" if p.details else "")
                    for p in problems
                ],
            )
        the_zone = _zone(zone, loaded.game)
        merged: dict[tuple[str, str | None], Change] = {}
        for the_card, (_, n) in zip(cards, wanted, strict=True):
            where = the_zone
            if where is None and not remove:
                where = placed_zone(text, source, loaded, the_card, n)
            key = (the_card.id, where)
            delta = (-n if remove else n) + (merged[key].delta if key in merged else 0)
            merged[key] = Change(the_card, delta, where)
        changes = list(merged.values())
        new_text = labelled_edit(text, source, loaded, changes, label)
        after_loaded, after = checked_edit(new_text, label, target, loaded, changes, context)
        held.replace(encoded_as_before(encoded, new_text, label))
    brought, cleared = changed_findings(before, after)
    was = {v.code for v in before.violations}
    counts = after_loaded.deck.counts()
    edits = tuple(CardEdit(c.card, c.delta, c.zone, counts.get(c.card.id, 0)) for c in changes)
    progress = rule_progress(after_loaded, after)
    first = edits[0]
    return EditResult(
        target,
        first.card,
        first.delta,
        first.zone,
        first.copies,
        standing(after_loaded, after, progress),
        after,
        tuple(v for v in brought if v.code not in was),
        cleared,
        edits,
        progress,
        tuple(v for v in brought if v.code in was),
        tuple(notes),
    )


_NO_SOURCE = DeckSource("", None, "text", {}, ())
"""A deck that names no overlays yet (a new one)."""


def unrecorded_overlays(
    source: DeckSource, overlays: Sequence[str | Path], target: Path
) -> list[str]:
    """The overlays given for an edit (``--catalog``) that the deck's header does not name, as
    its header would name them: relative to the deck's folder."""
    named = {p.resolve() for p in source.catalogs}
    folder = os.path.dirname(os.path.abspath(target))  # as the user sees it: links kept
    out: list[str] = []
    for overlay in overlays:
        full = Path(overlay).resolve()
        if full in named:
            continue
        named.add(full)
        out.append(Path(os.path.relpath(os.path.abspath(overlay), folder)).as_posix())
    return out


def _listed(text: str, loaded: LoadedDeck, notes: list[str]) -> list[tuple[str, int]]:
    """The (card, count) lines of a pasted list; a line that names no card and reads as a
    heading, a title or prose is left out with a note, as when a deck is read."""
    source = parse_deck(text, "the list")
    headings = Headings(loaded.game, loaded.catalog)
    found = []
    for line in source.lines:
        match = lookup(line.name, loaded.catalog, loaded.game)
        if not match.cards and (
            line.doubt is not None or line.header is not None or headings.reads_as_heading(line)
        ):
            notes.append(f"left out {line.text!r}: it names no card")
            continue
        found.append((line.name, line.count))
    return found


def changed_findings(
    before: Report, after: Report
) -> tuple[tuple[Violation, ...], tuple[Violation, ...]]:
    """(findings the change brought or reworded, findings it cleared): a rule's finding whose
    numbers moved (``5 cards`` → ``6 cards``) counts as brought, not as cleared and brought."""
    was = {(v.code, v.message) for v in before.violations}
    now = {(v.code, v.message) for v in after.violations}
    brought = tuple(v for v in after.violations if (v.code, v.message) not in was)
    still = {v.code for v in after.violations}
    reworded = {v.code for v in brought}
    cleared = tuple(
        v
        for v in before.violations
        if (v.code, v.message) not in now and not (v.code in still and v.code in reworded)
    )
    return brought, cleared


def find_card(text: str, loaded: LoadedDeck) -> Card:
    """The card a name, id or spelling means, read as a deck line is (unknown: suggestions;
    several cards: their ids)."""
    match = lookup(text.strip(), loaded.catalog, loaded.game)
    card = pick(match.cards, loaded.game) if match.cards and not match.refused else None
    if card is not None:
        return card
    if match.cards:
        apart = telling_apart(match.cards)
        listed = "; ".join(
            f"{c.id} ({c.name}" + (f": {apart[c.id]})" if apart[c.id] else ")")
            for c in match.cards[:8]
        )
        why = match.refused or "it names several cards"
        raise UsageError(f"{text!r}: {why}; give the id: {listed}")
    hints = loaded.catalog.suggest_name(text)
    details = [f"did you mean: {', '.join(hints)}?"] if hints else []
    partial = loaded.game.spec.game.partial_catalog
    if partial and not loaded.source.catalogs:
        details.append(
            f"{partial}: name yours with --catalog FILE (add records it in the deck's header)"
        )
    raise UsageError(f"no {loaded.game.id} card is named {text!r}", details=details)


def _zone(zone: str | None, game: Game) -> str | None:
    if zone is None:
        return None
    if not game.zones:
        raise UsageError(f"{game.id} decks have no zones; leave out --zone")
    found = game.zone(zone)
    if found is None:
        names = ", ".join(z.name for z in game.zones)
        raise UsageError(f"{game.id} has no zone {zone!r}; zones: {names}")
    return found.name


def standing(
    loaded: LoadedDeck, report: Report, progress: tuple[RuleProgress, ...] | None = None
) -> str:
    """The deck in one line, as a deck site's legality panel shows it: every rule's progress
    (``38/60 cards · 6/6 missions · 22/≤30 seed cards · outposts ✗``) and the number of
    findings."""
    progress = rule_progress(loaded, report) if progress is None else progress
    parts = [p.text for p in progress]
    if not any(p.count is not None and p.noun == loaded.game.spec.game.card_noun for p in progress):
        n = loaded.deck.size
        parts.insert(0, f"{n} {plural_noun(loaded.game.spec.game.card_noun, n)}")
    k = len(report.violations)
    parts.append(f"{k} finding{'' if k == 1 else 's'}")
    if report.unknown_lines:
        parts.append(report.partial)
    return " · ".join(parts)


# --- a new deck -----------------------------------------------------------------------------


@frozen
class NewDeck:
    """A new deck file written: where, for which game and variant, and its cards (a starter)."""

    path: Path
    game: str
    variant: str
    starter: str | None
    cards: int
    text: str

    @property
    def exit_code(self) -> int:
        """0: the file was written."""
        return OK

    def to_json(self) -> dict[str, Json]:
        """Where the deck was written and what it holds."""
        return {
            "deck": str(self.path),
            "game": self.game,
            "variant": self.variant,
            "starter": self.starter,
            "cards": self.cards,
        }


def new_deck(
    game: str,
    output: str | Path,
    *,
    variant: str | None = None,
    starter: str | None = None,
    force: bool = False,
    write: bool = True,
    overlays: Sequence[str | Path] = (),
) -> NewDeck:
    """Write a new deck file: the header (game, variant), the game's zones as headers, comments
    with the variant's construction limits, and for a variant with ready-made decks (a
    starter) that deck's cards. The format follows the file's extension (.toml, .json, .dek;
    anything else is text). Never overwrites without ``force``; with ``write`` unset the text
    is only made (``build`` writes it on its first save). ``overlays`` (``--catalog``) are
    named in the header, relative to the file, so that the deck reads with them."""
    if write and str(output) == "-":
        raise UsageError(
            "new writes a deck file that add, remove and build then edit: "
            "-o needs a file name, not -"
        )
    the_game = get_game(game)
    the_variant = the_game.variant(variant)
    target = Path(output)
    written = unrecorded_overlays(_NO_SOURCE, overlays, target)
    if written and target.suffix.lower() == ".dek":
        raise UsageError(
            "a .dek file has no place to name a catalog overlay; name the deck .txt, .toml or .json"
        )
    catalog = the_game.catalog(overlays, the_variant)
    ready = dict(the_game.starters(the_variant)) if the_game.starters else {}
    if starter is not None and starter not in ready:
        choices = ", ".join(ready) or "none (this variant has no ready-made decks)"
        raise UsageError(
            f"{the_game.id} variant {the_variant.name!r} has no starter {starter!r}"
            f"; starters: {choices}"
        )
    chosen = starter or next(iter(ready), None)
    entries = []
    for card_id in ready.get(chosen, []) if chosen else []:
        card = catalog.by_id(card_id)
        if card is not None:
            entries.append(DeckEntry(card, 1))
    deck = Deck(str(target), the_game.id, the_variant.name, tuple(entries))
    source = DeckSource(str(target), target, "text", {}, ())
    loaded = LoadedDeck(deck, the_game, catalog, the_variant, source)
    text = _new_text(loaded, target, chosen, ready, written)
    _reads_back(text, target, loaded)
    if write:
        write_atomically(output, text, force=force)  # as given: "deck.txt/" is refused
    return NewDeck(target, the_game.id, the_variant.name, chosen, deck.size, text)


def _reads_back(text: str, target: Path, loaded: LoadedDeck) -> None:
    """Refuse to write a new deck that would not read back as this game's deck that ``add``
    edits (a ``.csv`` name, read as CSV, for instance)."""
    label = str(target)
    try:
        source = parse_editable(text, label, target)
        back = resolve_source(source, Context(variant=loaded.variant.name))
    except DeckcheckError as exc:
        back, why = None, exc.message
    if back is None or back.game.id != loaded.game.id:
        why = "it would read as another game" if back is not None else why
        raise UsageError(
            f"a new deck named {target.name!r} would not read back ({why}); name it .txt, "
            ".toml, .json or .dek"
        )


def _limits(loaded: LoadedDeck) -> list[str]:
    """The variant's description and every rule's limit, as comment lines; for a game whose
    deck is an ordered stack, the order the rules want."""
    lines = [f"# {loaded.game.name}, variant {loaded.variant.name}: {loaded.variant.description}"]
    lines.append("# Limits:")
    lines += [f"#   {limit} ({code})" for code, limit in rule_limits(loaded)]
    for code in loaded.variant.rules:
        order = loaded.game.constraints(code, loaded.catalog, loaded.variant).order
        if order:
            names = [loaded.catalog.by_id(i) for i in order]
            written = [c.name if c is not None else i for c, i in zip(names, order, strict=True)]
            lines.append(f"# The {loaded.game.spec.game.deck_noun}'s order, top first ({code}):")
            lines.append("#   " + ", ".join(written))
    lines.append("# One card per line: '2 Card name' or '2x Card name';")
    lines.append("# deckcheck add / remove edit this file, deckcheck validate checks it.")
    return lines


def _new_text(
    loaded: LoadedDeck,
    target: Path,
    chosen: str | None,
    ready: dict[str, Sequence[str]],
    overlays: Sequence[str] = (),
) -> str:
    suffix = target.suffix.lower()
    named: dict[str, Any] = {"catalog": list(overlays)} if overlays else {}
    if suffix == ".toml":
        body = tomli_w.dumps(
            {
                "game": loaded.game.id,
                "variant": loaded.variant.name,
                **named,
                "cards": {reference(e.card, loaded): e.count for e in loaded.deck},
            }
        )
        return "\n".join(_limits(loaded)) + "\n" + body
    if suffix == ".json":
        return (
            json.dumps(
                {
                    "game": loaded.game.id,
                    "variant": loaded.variant.name,
                    **named,
                    "cards": [
                        {"count": e.count, "id": e.card.id, "name": e.card.name}
                        for e in loaded.deck
                    ],
                },
                indent=2,
                ensure_ascii=False,
            )
            + "\n"
        )
    if suffix == ".dek" and "dek" in loaded.game.exporters:
        return render_with_notes(loaded, "dek", target).text
    out = _limits(loaded)
    if chosen is not None:
        others = [name for name in ready if name != chosen]
        out.append(
            f"# The {chosen} starter" + (f" (others: {', '.join(others)})" if others else "")
        )
    out += [f"game: {loaded.game.id}", f"variant: {loaded.variant.name}"]
    if overlays:
        out.append(f"catalog: {', '.join(overlays)}")
    out.append("")
    zones = loaded.game.zones
    counted = [z for z in zones if z.counted]
    side = [z for z in zones if not z.counted]
    if zones:
        out.append(
            f"# {counted[0].name}: {counted[0].description or 'the cards before any header'}"
        )
    out += [f"{e.count} {reference(e.card, loaded)}" for e in loaded.deck]
    for zone in counted[1:]:
        out += ["", f"{zone.name}:"]
        if zone.description:
            out.append(f"# {zone.description}")
    if side:
        out += ["", "# Side zones, listed and never counted (add a header to use one):"]
        out += [f"#   {z.name}: {z.description}" for z in side]
    return "\n".join(out) + "\n"


def card_counts(words: Sequence[str]) -> tuple[tuple[str, int], ...]:
    """``Gowron 2 Kurn Worf 3``: each card with the count after it (1 when none follows)."""
    pairs: list[tuple[str, int | None]] = []
    for word in words:
        number = word.isascii() and word.isdigit()  # "²" is a digit to Python, not a count
        if number and len(word.lstrip("0")) > 6:
            shown = word if len(word) <= 24 else f"{word[:12]}… ({len(word):,} digits)"
            raise UsageError(f"the number of copies is 1 to {MAX_COPIES_PER_LINE:,}, not {shown}")
        if not number:
            pairs.append((word, None))
        elif pairs and pairs[-1][1] is None:
            pairs[-1] = (pairs[-1][0], int(word))
        else:
            raise UsageError(f'{word} copies of what? Give the card first: "Gowron" {word}')
    for name, n in pairs:
        if n is not None and n < 1:
            raise UsageError(f"the number of copies of {name!r} must be at least 1, not {n}")
    return tuple((name, 1 if n is None else n) for name, n in pairs)


@frozen
class NewRequest:
    """A new deck file ``output`` for ``game`` (its ``variant``, a ``starter``'s cards, the
    catalog ``overlays`` named in its header); ``force`` replaces an existing file."""

    game: str
    output: str | Path
    variant: str | None = None
    starter: str | None = None
    force: bool = False
    overlays: tuple[str | Path, ...] = ()


@frozen
class EditRequest:
    """Copies of cards added to (``remove``: removed from) the deck file ``deck`` opened in
    ``context``: ``cards`` as (card, count) pairs, or the cards of a pasted list ``listed``."""

    deck: str | Path
    cards: tuple[tuple[str, int], ...] = ()
    remove: bool = False
    zone: str | None = None
    listed: str | None = None
    context: Context = NO_CONTEXT


def run(request: NewRequest | EditRequest) -> NewDeck | EditResult:
    """A new deck file (``new``) or an edit in place (``add``, ``remove``)."""
    r = request
    if isinstance(r, NewRequest):
        return new_deck(
            r.game,
            r.output,
            variant=r.variant,
            starter=r.starter,
            force=r.force,
            overlays=r.overlays,
        )
    return edit_deck(
        r.deck, r.cards, remove=r.remove, zone=r.zone, context=r.context, listed=r.listed
    )
