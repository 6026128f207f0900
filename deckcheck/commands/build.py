"""``build``: the deck builder's session: the deck file's text, its undo and redo stacks, and
what the standing, deck and odds panes show, from the library (the screen is
:mod:`deckcheck.tui`; nothing here imports Textual, so that it is tested and measured alone).

Every edit is made on the file's text by the same rewriter as ``add``/``remove``
(:mod:`deckcheck.inplace.edit`): the deck shown is always the file that saving writes, with
its format, comments, order, zones and line ends. Undo and redo move between texts.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from deckcheck.analysis.progress import RuleProgress, rule_progress
from deckcheck.catalog.model import Card
from deckcheck.catalog.names import NameMatch
from deckcheck.core.errors import DeckcheckError, DeckFormatError, InputFileError, UsageError
from deckcheck.core.inputs import read_bytes, source_label
from deckcheck.core.text import plural_noun
from deckcheck.core.values import frozen
from deckcheck.core.violations import Report, Violation
from deckcheck.decks.load import LoadedDeck
from deckcheck.decks.resolve import PartlyResolvedError, resolve_deck
from deckcheck.decks.verdict import validate_loaded, with_hint
from deckcheck.games.context import NO_CONTEXT, Context
from deckcheck.inplace.atomic import editing, write_atomically
from deckcheck.inplace.edit import (
    OpenedText,
    change_text,
    encoded_as_before,
    open_text,
    parse_editable,
)
from deckcheck.inplace.rewrite import Encoded, decode_keeping

if TYPE_CHECKING:
    from deckcheck.analysis.odds import OddsReport
    from deckcheck.analysis.setup import DrawSetup

#: Turns the odds chart shows (turn 1 is the opening hand).
ODDS_TURNS = 6
#: Edits the undo stack keeps.
UNDO_DEPTH = 500


@frozen
class RuleRow:
    """One rule of the variant in the Standing pane: its progress (``38/60 cards``,
    ``copies ✓`` for a rule that counts nothing) and its findings."""

    progress: RuleProgress
    findings: tuple[Violation, ...]

    @property
    def code(self) -> str:
        """The rule's code."""
        return self.progress.code

    @property
    def ok(self) -> bool:
        """No error and nothing undecided (warnings keep a rule satisfied)."""
        return self.progress.met


@frozen
class Standing:
    """The deck's standing: every rule with its progress and findings, the verdict."""

    rules: tuple[RuleRow, ...]
    report: Report
    summary: str
    hints: tuple[str, ...] = ()


@frozen
class DeckLine:
    """A row of the Deck pane: copies of a card in a zone (lines of one card merged)."""

    zone: str | None
    type_label: str
    card: Card
    count: int


@frozen
class OddsView:
    """The Odds pane: per condition set, the probability by turn (None: not computed)."""

    conditions: tuple[str, ...]
    turns: tuple[tuple[int, int, float, bool], ...]  # (turn, cards seen, probability, exact)
    mulligan: str
    message: str = ""
    without: tuple[float, ...] = ()  # by turn, the chance without the mulligan


_CONFLICT = (
    "{what} on disk since it was opened: reload it (your edits are dropped; undo brings "
    "them back) or overwrite it"
)


class SaveConflict(DeckcheckError):
    """The file changed on disk since it was opened (or last saved)."""


class BuildSession:
    """A deck being built: its text now, the texts before (undo) and after (redo), and the
    file's bytes as last read or written (to notice a change made elsewhere)."""

    def __init__(
        self,
        path: str | Path,
        *,
        context: Context = NO_CONTEXT,
        new_text: str | None = None,
    ) -> None:
        self.path = Path(path)
        self.new_text = new_text
        self.label = source_label(str(path))
        self.context = context
        self.undo_stack: list[str] = []
        # What each spelling of the deck names, for the catalog opened: every edit reads the
        # whole deck again, its lines mostly as they were.
        self.answered: dict[str, NameMatch] = {}
        self.redo_stack: list[str] = []
        self.on_disk: bytes | None = None
        self.encoded: Encoded
        text = self._read()
        self.saved_text: str | None = text if self.on_disk is not None else None
        self.opened = self._open(text)

    # --- the file ---------------------------------------------------------------------------

    def _read(self) -> str:
        """The file's text (a new deck's, as ``new`` writes it, when there is no file yet)."""
        if self.path.exists():
            data = read_bytes(self.path)
            text, self.encoded = decode_keeping(data, self.label)
            self.on_disk = data
            return text
        if self.new_text is None:
            raise UsageError(
                f"{self.label} does not exist yet: give --game to start a new deck there"
            )
        text = self.new_text
        self.encoded = decode_keeping(text.encode(), self.label)[1]
        self.on_disk = None
        return text

    def _reopen(self, text: str) -> OpenedText:
        """``text`` after an edit of its card lines: its header, hence its game, variant and
        catalog (overlays laid), are those already opened, so only its lines are read again
        (laying a deck's overlay again would cost most of an edit's refresh)."""
        was = self.opened.loaded
        source = parse_editable(text, self.label, self.path)
        settings = was.game.spec.settings
        if any(line.header and line.header[0] in settings for line in source.lines):
            return self._open(text)  # setting lines are read with the header
        try:
            deck = resolve_deck(source, was.catalog, was.game, was.variant.name, self.answered)
        except PartlyResolvedError as exc:
            partly = LoadedDeck(exc.deck, was.game, was.catalog, was.variant, source)
            report = replace(validate_loaded(partly), unknown_lines=len(exc.unresolved))
            return OpenedText(text, source, partly, report)
        loaded = LoadedDeck(deck, was.game, was.catalog, was.variant, source)
        return OpenedText(text, source, loaded, validate_loaded(loaded))

    def _open(self, text: str) -> OpenedText:
        self.answered = {}  # the header may name another game, variant or overlay
        return open_text(text, self.label, self.path, self.context)

    @property
    def text(self) -> str:
        """The deck file's text as it stands (what saving writes)."""
        return self.opened.text

    @property
    def dirty(self) -> bool:
        """Whether there is something to save."""
        return self.saved_text != self.text

    def save(self, *, overwrite: bool = False) -> None:
        """Write the deck as ``add`` writes it: in the file's encoding, under its lock,
        atomically. Refuses (:class:`SaveConflict`, nothing written) when the file changed on
        disk since it was read or last written, unless ``overwrite``."""
        data = encoded_as_before(self.encoded, self.text, self.label)
        if not self.path.exists():
            if self.on_disk is not None and not overwrite:
                raise SaveConflict(_CONFLICT.format(what="was removed"), source=self.label)
            try:
                write_atomically(self.path, data)  # never over a file made meanwhile
            except InputFileError:
                if not self.path.exists():
                    raise
                raise SaveConflict(_CONFLICT.format(what="was made"), source=self.label) from None
        else:
            with editing(self.path) as held:
                if held.data != self.on_disk and not overwrite:
                    what = "was made" if self.on_disk is None else "changed"
                    raise SaveConflict(_CONFLICT.format(what=what), source=self.label)
                held.replace(data)
        self.on_disk = data
        self.saved_text = self.text

    def reload(self) -> None:
        """Read the file again (edits not saved are dropped; undo goes back to them)."""
        before = self.text
        text = self._read()
        self.opened = self._open(text)
        self.saved_text = text
        if before != text:
            self._push_undo(before)

    # --- edits --------------------------------------------------------------------------------

    def add(self, card: Card, delta: int = 1, zone: str | None = None) -> None:
        """Add ``delta`` copies of ``card`` (negative: remove) by the file's rewriter."""
        text, change = change_text(self.opened, card, delta, zone)
        opened = self._reopen(text)
        # As add checks an edit before writing it: the text must read back as meant.
        expected = _totals(self.opened.loaded)
        expected[change.card.id] += change.delta
        if +expected != +_totals(opened.loaded):
            raise DeckFormatError(
                "not edited: deckcheck cannot edit this file's lines so that they read back "
                "as meant; edit it in a text editor",
                source=self.label,
            )
        self._push_undo(self.text)
        self.redo_stack.clear()
        self.opened = opened

    def _push_undo(self, text: str) -> None:
        self.undo_stack.append(text)
        del self.undo_stack[:-UNDO_DEPTH]

    def undo(self) -> bool:
        """Go back one edit; False when there is none."""
        if not self.undo_stack:
            return False
        self.redo_stack.append(self.text)
        self.opened = self._reopen(self.undo_stack.pop())
        return True

    def redo(self) -> bool:
        """Make the edit undone last again; False when there is none."""
        if not self.redo_stack:
            return False
        self.undo_stack.append(self.text)
        self.opened = self._reopen(self.redo_stack.pop())
        return True

    # --- what the panes show --------------------------------------------------------------------

    @property
    def game(self) -> str:
        """The deck's game id."""
        return self.opened.loaded.game.id

    @property
    def variant(self) -> str:
        """The deck's variant."""
        return self.opened.loaded.variant.name

    def deck_lines(self) -> list[DeckLine]:
        """The deck by zone (as the file orders them) and type, copies of a card merged."""
        deck = self.opened.loaded.deck
        merged: dict[tuple[str | None, str], DeckLine] = {}
        for e in deck.all_entries():
            key = (e.zone, e.card.id)
            had = merged.get(key)
            count = e.count + (had.count if had else 0)
            merged[key] = DeckLine(e.zone, e.card.type_label, e.card, count)
        zones = list(dict.fromkeys(line.zone for line in merged.values()))
        out: list[DeckLine] = []
        for zone in zones:
            here = [line for line in merged.values() if line.zone == zone]
            types = list(dict.fromkeys(line.type_label for line in here))
            for kind in types:
                out += [line for line in here if line.type_label == kind]
        return out

    def standing(self) -> Standing:
        """Every rule with its progress and findings, and the verdict (``validate``'s)."""
        loaded = self.opened.loaded
        # validate's report, with the other variants (formats) the deck passes when it fails
        # its own
        report = with_hint(loaded, self.opened.report)
        rows = tuple(
            RuleRow(p, tuple(v for v in report.violations if v.code == p.code))
            for p in rule_progress(loaded, report)
        )
        hints = (report.legal_under_hint,) if report.legal_under else ()
        return Standing(rows, report, _summary(loaded, report), hints)

    def odds(
        self,
        conditions: Sequence[str],
        turns: int = ODDS_TURNS,
        *,
        opened: OpenedText | None = None,
    ) -> OddsView:
        """The exact probability by turn that all ``conditions`` hold, with the game's
        mulligan (``odds DECK CONDITIONS --by-turn N``); a message instead for bad input.
        ``opened``: the deck as it was at an edit (for a computation in the background)."""
        from deckcheck.analysis.odds import OddsOptions, compute_odds
        from deckcheck.analysis.setup import deck_setup

        texts = tuple(c for c in conditions if c.strip())
        try:
            setup = deck_setup((opened or self.opened).loaded)
            if any("@" in t for t in texts):
                # Conditions with their own deadline keep it; the others are asked by turn.
                dated = _dated_rows(setup, texts, turns)
                rows = tuple((r.turn or 0, r.cards_seen, r.probability, r.exact) for r in dated)
                without = tuple(r.probability_without_mulligan for r in dated)
                return OddsView(texts, rows, "rules", without=without)
            report = compute_odds(setup, texts, OddsOptions(by_turn=turns))
        except DeckcheckError as exc:
            hint = f" ({exc.details[0].strip()})" if exc.details else ""
            return OddsView(texts, (), "", exc.message + hint)
        rows = tuple((r.turn, r.cards_seen, r.probability, r.exact) for r in report.by_turn)
        without = tuple(r.probability_without_mulligan for r in report.by_turn)
        return OddsView(texts, rows, report.mulligan, without=without)


def _dated_rows(setup: DrawSetup, texts: Sequence[str], turns: int) -> tuple[OddsReport, ...]:
    """The answers of turns 1…``turns`` for conditions some of which carry their own
    deadline: each asks the others by its turn (as ``odds --turn T`` does), while the pile
    lasts."""
    from deckcheck.analysis.deadlines import answer_odds
    from deckcheck.analysis.odds import OddsOptions, last_turn

    last = last_turn(setup.procedure(), False, setup.pile_size)
    rows: list[OddsReport] = []
    for turn in range(1, min(turns, last) + 1):
        try:
            rows.append(answer_odds(setup, texts, OddsOptions(turn=turn)))
        except UsageError:
            if rows:
                break  # a later turn's deadline past the pile, or out of reach
            raise
    return tuple(rows)


def _totals(loaded: LoadedDeck) -> Counter[str]:
    """Every card's copies in the file, in every zone."""
    totals: Counter[str] = Counter()
    for entry in loaded.deck.all_entries():
        totals[entry.card.id] += entry.count
    return totals


def _summary(loaded: LoadedDeck, report: Report) -> str:
    """The deck's size and its number of findings (each rule's progress is on its row)."""
    n = loaded.deck.size
    parts = [f"{n} {plural_noun(loaded.game.spec.game.card_noun, n)}"]
    k = len(report.violations)
    parts.append(f"{k} finding{'' if k == 1 else 's'}")
    if report.unknown_lines:
        parts.append(report.partial)
    return ", ".join(parts)


def new_seed() -> int:
    """A seed for a fresh playtest hand (shown, so that ``hand --seed`` repeats it)."""
    return random.randrange(1, 100_000)
