"""Building a deck from the command line: a new deck file, and cards added or removed in place.

``add``/``remove`` keep the file's format, encoding, comments, order, zones and line ends
(:mod:`deckcheck.decks.rewrite` makes the new bytes), write it atomically (the old file stays whole
until the new one replaces it), and answer with the deck's standing in one line and the
findings the edit changed. The card is read with the same names and suggestions as validation.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import tomli_w

from deckcheck.catalog.deck import Deck, DeckEntry
from deckcheck.catalog.model import Card
from deckcheck.core.errors import DeckFormatError, UsageError
from deckcheck.core.inputs import STDIN, read_bytes, source_label
from deckcheck.core.result import OK, Json
from deckcheck.core.text import Suggester
from deckcheck.core.values import frozen
from deckcheck.core.violations import Report, Violation
from deckcheck.decks.counts import MAX_COPIES_PER_LINE
from deckcheck.decks.load import LoadedDeck
from deckcheck.decks.model import DeckSource
from deckcheck.decks.resolve import lookup, pick
from deckcheck.decks.rewrite import Change, decode_keeping
from deckcheck.export.formats import reference, render_with_notes
from deckcheck.export.inplace import edited_text, load_editable, parse_editable
from deckcheck.export.write import write_atomically
from deckcheck.games.base import Game
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.games.registry import get_game


@frozen
class EditResult:
    """An edit made: the card, the copies added (negative: removed), where, the deck's standing
    afterwards and the findings the edit brought or cleared."""

    path: Path
    card: Card
    delta: int
    zone: str | None
    copies: int  # copies of the card in the deck now (counted zones)
    standing: str
    report: Report
    brought: tuple[Violation, ...]
    cleared: tuple[Violation, ...]

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
            "standing": self.standing,
            "brought": [v.to_json() for v in self.brought],
            "cleared": [v.to_json() for v in self.cleared],
            "report": self.report.to_json(),
        }


def edit_deck(
    path: str | Path,
    card: str,
    count: int = 1,
    *,
    remove: bool = False,
    zone: str | None = None,
    context: Context = NO_CONTEXT,
) -> EditResult:
    """Add (or with ``remove`` take out) ``count`` copies of ``card`` in the deck file, in its
    ``zone`` where the game has zones; the file is rewritten atomically, else untouched."""
    if str(path) == STDIN:
        raise UsageError("add and remove edit a deck file, not standard input")
    if not 1 <= count <= MAX_COPIES_PER_LINE:
        raise UsageError(f"the number of copies is 1 to {MAX_COPIES_PER_LINE:,}, not {count}")
    target = Path(path)
    label = source_label(path)
    data = read_bytes(target)
    text, encoded = decode_keeping(data, label)
    source = parse_editable(text, label, target)
    loaded, before = load_editable(source, context)
    the_card = find_card(card, loaded)
    the_zone = _zone(zone, loaded.game)
    if the_zone is None and not remove and _writes_zones(text, source, loaded.game):
        the_zone = _placed_zone(loaded, the_card, count)
    change = Change(the_card, -count if remove else count, the_zone)
    try:
        new_text = edited_text(text, source, loaded, [change])
    except DeckFormatError as exc:
        raise DeckFormatError(exc.message, source=label, line=exc.line) from None
    write_atomically(target, encoded.encode(new_text), force=True)
    after_loaded, after = load_editable(parse_editable(new_text, label, target), context)
    brought, cleared = changed_findings(before, after)
    return EditResult(
        target,
        the_card,
        change.delta,
        the_zone,
        after_loaded.deck.counts().get(the_card.id, 0),
        standing(after_loaded, after),
        after,
        brought,
        cleared,
    )


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


def _writes_zones(text: str, source: DeckSource, game: Game) -> bool:
    """Whether the file names zones (a zone header, a superzone, a zones table): then a new
    card goes where the game puts it; otherwise its lines stay without headers."""
    if source.format == "dek":
        return True
    if source.format == "toml":
        return re.search(r"^\s*\[\s*zones\s*\.", text, re.M) is not None
    if source.format == "json":
        return any(line.section for line in source.lines)
    headers = {re.sub(r"[\W_]+", "", z.name).casefold() for z in game.zones}
    return any(
        re.sub(r"[\W_]+", "", line.strip()[:-1]).casefold() in headers
        for line in text.splitlines()
        if line.strip().endswith(":")
    )


def _placed_zone(loaded: LoadedDeck, card: Card, count: int) -> str | None:
    """Where the game's export would put a card new to the deck (a mission under
    ``Missions:``); None where the game has no say or the card is already in the deck."""
    place = loaded.game.place
    if place is None:
        return None
    if any(e.card.id == card.id for e in loaded.deck.all_entries()):
        return None  # the copies join the card's own line
    deck = loaded.deck
    placed = place(replace(deck, entries=(*deck.entries, DeckEntry(card, count))))
    return next((e.zone for e in reversed(placed.entries) if e.card.id == card.id), None)


def find_card(text: str, loaded: LoadedDeck) -> Card:
    """The card a name, id or spelling means, read as a deck line is (unknown: suggestions;
    several cards: their ids)."""
    match = lookup(text.strip(), loaded.catalog, loaded.game)
    card = pick(match.cards, loaded.game) if match.cards and not match.refused else None
    if card is not None:
        return card
    if match.cards:
        listed = ", ".join(f"{c.id} ({c.name})" for c in match.cards[:8])
        why = match.refused or "it names several cards"
        raise UsageError(f"{text!r}: {why}; give the id: {listed}")
    hints = Suggester(loaded.catalog.names())(text)
    raise UsageError(
        f"no {loaded.game.id} card is named {text!r}",
        details=[f"did you mean: {', '.join(hints)}?"] if hints else [],
    )


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


def standing(loaded: LoadedDeck, report: Report) -> str:
    """The deck in one line: its size and every counted amount the rules bound, against their
    bounds, and the number of findings (``58/60 cards, 6/6 missions, 2 findings``)."""
    parts = []
    sized = False
    for code in loaded.variant.rules:
        rule = loaded.game.data_rules.get(code)
        amount = rule.amount(loaded.deck, loaded.catalog, loaded.variant) if rule else None
        if amount is not None:
            parts.append(amount.describe(loaded.game.spec.game.card_noun))
            sized = sized or amount.size
    if not sized:
        n = loaded.deck.size
        parts.insert(0, f"{n} {loaded.game.spec.game.card_noun}{'' if n == 1 else 's'}")
    k = len(report.violations)
    parts.append(f"{k} finding{'' if k == 1 else 's'}")
    if report.unknown_lines:
        parts.append(report.partial)
    return ", ".join(parts)


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
) -> NewDeck:
    """Write a new deck file: the header (game, variant), the game's zones as headers, comments
    with the variant's construction limits, and for a variant with ready-made decks (a
    starter) that deck's cards. The format follows the file's extension (.toml, .json, .dek;
    anything else is text). Never overwrites without ``force``."""
    the_game = get_game(game)
    the_variant = the_game.variant(variant)
    catalog = the_game.catalog((), the_variant)
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
    target = Path(output)
    deck = Deck(str(target), the_game.id, the_variant.name, tuple(entries))
    source = DeckSource(str(target), target, "text", {}, ())
    loaded = LoadedDeck(deck, the_game, catalog, the_variant, source)
    text = _new_text(loaded, target, chosen, ready)
    write_atomically(target, text, force=force)
    return NewDeck(target, the_game.id, the_variant.name, chosen, deck.size, text)


def _limits(loaded: LoadedDeck) -> list[str]:
    """The variant's description and its counted bounds, as comment lines."""
    lines = [f"# {loaded.game.name}, variant {loaded.variant.name}: {loaded.variant.description}"]
    bounds = []
    for code in loaded.variant.rules:
        rule = loaded.game.data_rules.get(code)
        amount = rule.amount(loaded.deck, loaded.catalog, loaded.variant) if rule else None
        if amount is not None:
            goal = amount.describe(loaded.game.spec.game.card_noun).split("/", 1)[-1]
            bounds.append(f"{goal} ({code})")
    if bounds:
        lines.append("# Limits: " + "; ".join(bounds))
    lines.append("# One card per line: '2 Card name' or '2x Card name';")
    lines.append("# deckcheck add / remove edit this file, deckcheck validate checks it.")
    return lines


def _new_text(
    loaded: LoadedDeck, target: Path, chosen: str | None, ready: dict[str, Sequence[str]]
) -> str:
    suffix = target.suffix.lower()
    if suffix == ".toml":
        body = tomli_w.dumps(
            {
                "game": loaded.game.id,
                "variant": loaded.variant.name,
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
    out += [f"game: {loaded.game.id}", f"variant: {loaded.variant.name}", ""]
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
