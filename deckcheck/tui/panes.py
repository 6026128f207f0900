"""The builder's panes, one widget each: Cards (search, results, the highlighted card), Deck
(by zone and type), Standing, Odds (computed by a background worker) and Playtest.

Each pane shows what the library answers (:mod:`deckcheck.commands.build`,
:mod:`deckcheck.builder`) and posts a message for what the player asks; the app turns those
into edits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import ClassVar

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.events import Click, Resize
from textual.message import Message
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import DataTable, Input, Static
from textual.worker import get_current_worker

from deckcheck.analysis.progress import MARKS
from deckcheck.builder.playtest import PlaytestView, by_type, deal
from deckcheck.catalog.model import Card
from deckcheck.commands.build import DeckLine, OddsView, Standing
from deckcheck.core.errors import DeckcheckError
from deckcheck.core.violations import Severity, Status
from deckcheck.decks.load import LoadedDeck
from deckcheck.inplace.edit import OpenedText

#: How long odds may take before the pane says they are coming (most come sooner: no flicker).
ODDS_WAIT = 0.12
#: Width of the odds chart's bars.
BAR = 6
#: The fewest cells a card's name keeps before a table drops its other columns.
NAME_MIN = 14
#: How a rule's state reads: the mark the CLI's progress line uses, and its colour.
STATE_STYLE = {"met": "green", "unmet": "red", "warning": "yellow", "unknown": "yellow"}


def cut(text: str, width: int, style: str = "") -> Text:
    """``text`` in at most ``width`` cells, an ellipsis where it is cut."""
    out = Text(text, style=style, no_wrap=True)
    out.truncate(max(1, width), overflow="ellipsis")
    return out


def table_width(table: DataTable[object]) -> int:
    """The cells a table's columns share: its width less the scrollbar's."""
    return max(8, table.size.width - table.styles.scrollbar_size_vertical)


class KeyLine(Static):
    """The keys that work where the focus is, on one line (a greyed key waits for its
    moment); a click on a key presses it. One widget updated in place: Textual's Footer
    mounts a widget per key on every focus change, and lays the whole screen out again."""

    def __init__(self) -> None:
        super().__init__()
        self.shown: tuple[tuple[str, str, bool, str], ...] = ()
        self.spans: list[tuple[int, int, str]] = []  # where each key is, for a click

    def on_mount(self) -> None:
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)
        self.bindings_changed(self.screen)

    def bindings_changed(self, screen: Screen[object]) -> None:
        """Show the keys of the focused widget and its panes (each action once)."""
        shown: dict[str, tuple[str, str, bool, str]] = {}
        for _node, b, enabled, _tip in screen.active_bindings.values():
            if b.show and b.action not in shown:
                shown[b.action] = (self.app.get_key_display(b), b.description, enabled, b.key)
        if tuple(shown.values()) == self.shown:
            return
        self.shown = tuple(shown.values())
        line, self.spans = Text(no_wrap=True, overflow="ellipsis"), []
        for display, description, enabled, key in self.shown:
            start = len(line)
            line.append(f" {display} ", style="bold" if enabled else "dim")
            line.append(f"{description} ", style="" if enabled else "dim")
            self.spans.append((start, len(line), key))
        self.update(line, layout=False)  # one line, always: no new layout

    def on_click(self, event: Click) -> None:
        for start, end, key in self.spans:
            if start <= event.x < end:
                self.app.simulate_key(key)


class SearchBox(Input):
    """The search box: Enter adds the highlighted card."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "submit", "Add")]


class ConditionsBox(Input):
    """The odds' conditions: Enter computes them."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "submit", "Odds")]


class Results(DataTable[object]):
    """The cards found: Enter adds the one under the cursor."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "select_cursor", "Add")]


class DeckRows(DataTable[object]):
    """The deck's rows: Enter adds a copy of the card under the cursor."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "select_cursor", "+1")]


class HandRows(DataTable[object]):
    """The playtest hand: Enter marks a card to return (a return mulligan)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "select_cursor", "Mark")]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter marks only while a return is being chosen (greyed out otherwise)."""
        view = getattr(self.parent, "view", None)
        return action != "select_cursor" or bool(view and view.to_return) or None


class OddsChart(VerticalScroll, can_focus=True):
    """The odds by turn: Enter goes to the conditions box above it."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("enter", "conditions", "Conditions")]

    def action_conditions(self) -> None:
        """Edit the conditions (selected: typing replaces them)."""
        box = self.screen.query_one("#conditions", Input)
        box.focus()
        box.select_all()


class Pane(Vertical):
    """A pane with a title line that lights up while the pane has the keys."""

    def __init__(self, title: str, **kwargs: object) -> None:
        super().__init__(classes="pane", **kwargs)  # type: ignore[arg-type]
        self.heading = Static(title, classes="pane-title")
        self.fitted = 0  # the width the rows were last fitted to

    def on_resize(self, event: Resize) -> None:
        if event.size.width != self.fitted:  # a new height keeps the columns as they are
            self.fitted = event.size.width
            self.refit()

    def refit(self) -> None:
        """The rows again, fitted to the pane's width."""
        self.refill()

    def refill(self) -> None:
        """The rows again, fitted to the pane's width (each pane its own)."""


class CardsPane(Pane):
    """The search box, the cards found (name, and the type where it fits), the card under
    the cursor. Enter in the box adds the highlighted card; Down goes to the list."""

    class Add(Message):
        """The player asks for one more copy of ``card``."""

        def __init__(self, card: Card) -> None:
            super().__init__()
            self.card = card

    def __init__(
        self, example: str, names: Callable[[Card], str], art: Callable[[Card], str | None]
    ) -> None:
        super().__init__("1 Cards", id="cards-pane")
        self.example = example
        self.names = names
        self.art = art
        self.found: tuple[Card, ...] = ()

    def compose(self) -> ComposeResult:
        yield self.heading
        yield SearchBox(placeholder=f"name or {self.example}", id="search")
        yield Results(id="results", cursor_type="row")
        yield Static(id="details")

    @property
    def table(self) -> DataTable[object]:
        """The results."""
        return self.query_one("#results", DataTable)

    @property
    def highlighted(self) -> Card | None:
        """The card under the results' cursor."""
        row = self.table.cursor_row
        return self.found[row] if 0 <= row < len(self.found) else None

    def show(self, found: Sequence[Card], total: int) -> None:
        """List ``found`` (``total`` matched in all)."""
        self.found = tuple(found)
        self.refill()
        shown = f"{total}" if total == len(found) else f"{len(found)} of {total}"
        self.heading.update(f"1 Cards · {shown}", layout=False)
        self.show_details(self.highlighted)

    def show_details(self, card: Card | None) -> None:
        """The card under the cursor: its name, id, type, fields and art."""
        out = Text()
        if card is not None:
            out.append(self.names(card), style="bold")
            kind = card.type_label if card.types else "type unknown"
            out.append(f"  {card.id}\n{kind}\n", style="dim")
            for key, value in card.fields.items():
                shown = ", ".join(map(str, value)) if isinstance(value, list | tuple) else value
                out.append(f"{key}: {shown}\n")
            art = self.art(card)
            out.append(art + "\n" if art else "")
        self.query_one("#details", Static).update(out)

    @on(DataTable.RowHighlighted, "#results")
    def _highlighted(self, _event: DataTable.RowHighlighted) -> None:
        self.show_details(self.highlighted)

    def refill(self) -> None:
        """The rows again, fitted to the pane's width."""
        table = self.table
        row = table.cursor_row
        table.clear(columns=True)
        width = table_width(table)
        kinds = max((len(c.type_label) for c in self.found), default=4)
        name = width - kinds - 4
        with_type = name >= NAME_MIN
        name = name if with_type else width - 2
        table.add_column("Card", width=name, key="card")
        if with_type:
            table.add_column("Type", width=kinds, key="type")
        for card in self.found:
            cells = [cut(self.names(card), name)]
            table.add_row(*cells, *([card.type_label] if with_type else []))
        if self.found:
            table.move_cursor(row=min(max(row, 0), len(self.found) - 1))

    def refit(self) -> None:
        """The rows and the search's hint, fitted to the pane's width."""
        self.refill()
        box = self.query_one("#search", Input)
        hint = f"name or {self.example}"
        box.placeholder = hint if len(hint) < box.content_size.width else self.example

    @on(Input.Submitted, "#search")
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        card = self.highlighted
        if card is not None:
            self.post_message(self.Add(card))

    @on(DataTable.RowSelected, "#results")
    def _selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        card = self.highlighted
        if card is not None:
            self.post_message(self.Add(card))

    def on_key(self, event: object) -> None:
        if getattr(event, "key", "") == "down" and self.query_one("#search").has_focus:
            self.table.focus()
            getattr(event, "stop", lambda: None)()


class DeckPane(Pane):
    """The deck by zone and type, copies per row; a zone the rules do not count is marked."""

    def __init__(self) -> None:
        super().__init__("2 Deck", id="deck-pane")
        self.rows: list[tuple[Text, str, str, Card | None]] = []  # count, name, style, card
        self.cards: list[tuple[Card, str | None] | None] = []

    def compose(self) -> ComposeResult:
        yield self.heading
        yield DeckRows(id="deck", cursor_type="row")

    @property
    def table(self) -> DataTable[object]:
        """The deck's rows."""
        return self.query_one("#deck", DataTable)

    def show(
        self,
        lines: Sequence[DeckLine],
        names: Callable[[Card], str],
        uncounted: set[str],
        title: str,
    ) -> None:
        """The deck's lines under their zone's and type's headings (with their copies)."""
        self.heading.update(f"2 Deck · {title}", layout=False)
        self.rows, self.cards = [], []
        in_zone: dict[str | None, int] = {}
        of_kind: dict[tuple[str | None, str], int] = {}
        for line in lines:
            in_zone[line.zone] = in_zone.get(line.zone, 0) + line.count
            key = (line.zone, line.type_label)
            of_kind[key] = of_kind.get(key, 0) + line.count
        zone: object = object()
        kind: object = object()
        for line in lines:
            if line.zone != zone:
                zone, kind = line.zone, object()
                if line.zone is not None:
                    mark = " (not counted)" if line.zone in uncounted else ""
                    self._row(str(in_zone[line.zone]), line.zone + mark, "bold underline", None)
            if line.type_label != kind:
                kind = line.type_label
                total = of_kind[(line.zone, line.type_label)]
                self._row(str(total), line.type_label or "—", "bold", None)
            self._row(str(line.count), names(line.card), "", (line.card, line.zone))
        self.refill()

    def _row(self, count: str, name: str, style: str, card: tuple[Card, str | None] | None) -> None:
        self.rows.append((Text(count, style="bold" if style else ""), name, style, None))
        self.cards.append(card)

    def refill(self) -> None:
        """The rows again, fitted to the pane's width."""
        table = self.table
        row = table.cursor_row
        table.clear(columns=True)
        name = table_width(table) - 3 - 4
        table.add_column("#", width=3, key="count")
        table.add_column("Card", width=name, key="card")
        for count, text, style, _ in self.rows:
            table.add_row(count, cut(text, name, style))
        if self.rows:
            table.move_cursor(row=min(max(row, 0), len(self.rows) - 1))

    @property
    def under_cursor(self) -> tuple[Card, str | None] | None:
        """The card (and its zone) on the cursor's row; None on a heading."""
        row = self.table.cursor_row
        return self.cards[row] if 0 <= row < len(self.cards) else None


class StandingPane(VerticalScroll, can_focus=True):
    """Every rule as the CLI's progress line says it (``110/109–112 points``, ``copies ✓``,
    ``outpost-mission !``), its findings under it, the verdict on top."""

    def compose(self) -> ComposeResult:
        yield Static(id="standing-text")

    def show(self, standing: Standing) -> None:
        """The standing after an edit."""
        report = standing.report
        colour = {Status.LEGAL: "green", Status.ILLEGAL: "red", Status.UNVERIFIED: "yellow"}
        out = Text()
        out.append(report.status.value.upper(), style=f"bold {colour[report.status]}")
        out.append(f"  {standing.summary}\n")
        for hint in standing.hints:
            out.append(f"{hint}\n", style="italic")
        for rule in standing.rules:
            p = rule.progress
            counted = p.count is not None and bool(p.goal)
            out.append(f"{MARKS[p.state]} ", style=STATE_STYLE[p.state])
            out.append(f"{p.text}\n" if counted else f"{p.name}\n")
            for finding in rule.findings:
                style = "red" if finding.severity is Severity.ERROR else "yellow"
                out.append(f"  {finding.severity.value}: ", style=style)
                out.append(f"{finding.message}\n")
        if report.unknown_lines:
            out.append(f"({report.partial})\n", style="yellow")
        self.query_one("#standing-text", Static).update(out)


class OddsPane(Vertical):
    """The conditions box and the chance by turn that they all hold, with the game's mulligan
    and without it; computed by a background worker, the newest edit's only."""

    class Ready(Message):
        """The odds of edit ``generation``."""

        def __init__(self, generation: int, view: OddsView) -> None:
            super().__init__()
            self.generation = generation
            self.view = view

    def __init__(self, conditions: str, example: str, mulligan: str, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.mulligan = mulligan
        self.conditions = conditions
        self.example = example
        self.view: OddsView | None = None
        self.pending = False
        self.generation = 0
        self.timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield ConditionsBox(
            value=self.conditions, placeholder=f"conditions, e.g. {self.example}", id="conditions"
        )
        with OddsChart(id="odds-view"):
            yield Static(id="odds-text")

    def start(
        self, odds: Callable[..., OddsView], conditions: Sequence[str], opened: OpenedText
    ) -> None:
        """Compute the odds of the deck ``opened`` in the background; say they are coming
        when they take longer than :data:`ODDS_WAIT`."""
        self.generation += 1
        self.pending = True
        if self.timer is not None:
            self.timer.stop()
        self.timer = self.set_timer(ODDS_WAIT, self.mark_pending)
        self.compute(self.generation, odds, tuple(conditions), opened)

    @work(exclusive=True, thread=True, group="odds")
    def compute(
        self,
        generation: int,
        odds: Callable[..., OddsView],
        conditions: tuple[str, ...],
        opened: OpenedText,
    ) -> None:
        """The odds of the deck at edit ``generation`` (skipped once a later edit came)."""
        if get_current_worker().is_cancelled or generation != self.generation:
            return
        view = odds(conditions, opened=opened)
        if not get_current_worker().is_cancelled:
            self.post_message(self.Ready(generation, view))

    def mark_pending(self) -> None:
        """The odds are late: say so above the last ones."""
        if self.pending:
            self.draw(self.view, pending=True)

    @on(Ready)
    def _ready(self, event: Ready) -> None:
        event.stop()
        if event.generation != self.generation:
            return  # a later edit's odds are coming
        self.pending = False
        if self.timer is not None:
            self.timer.stop()
        self.draw(event.view)

    def draw(self, view: OddsView | None, *, pending: bool = False) -> None:
        """The chart of ``view``: a bar per turn, the chance with the mulligan and without."""
        self.view = view
        out = Text()
        if pending:
            out.append("pending: computing…\n", style="italic yellow")
        if view is not None and view.message:
            out.append(view.message + "\n", style="red")
        elif view is not None:
            out.append(f"{' and '.join(view.conditions)}\n", style="bold")
            out.append(f"{self.mulligan}\n", style="dim")
            if view.without and view.without != tuple(t[2] for t in view.turns):
                out.append("chance, then without the mulligan\n", style="dim")
            else:
                view = replace(view, without=())
            for i, (turn, seen, p, exact) in enumerate(view.turns):
                filled = round(p * BAR)
                out.append(f"T{turn:<2} {seen:>4} ")
                out.append("█" * filled, style="green")
                out.append("░" * (BAR - filled), style="dim")
                out.append(f" {p:6.1%}{'' if exact else ' ~'}")
                if i < len(view.without):
                    out.append(f" {view.without[i]:6.1%}", style="dim")
                out.append("\n")
        self.query_one("#odds-text", Static).update(out)


class PlaytestPane(VerticalScroll, can_focus=False):
    """The playtest hand by type, its mulligan (played optimally or by the player: a redraw,
    or the cards of a return marked one by one with Enter), the advice, the next draws."""

    def __init__(
        self,
        deck: Callable[[], tuple[LoadedDeck, tuple[str, ...]]],
        names: Callable[[Card], str],
        seed: int,
        **kwargs: object,
    ) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.deck = deck
        self.names = names
        self.seed = seed
        self.redraws: int | None = None  # None: the optimal policy plays the mulligan
        self.returned: tuple[int, ...] | None = None  # a return taken by the player
        self.marked: set[int] = set()
        self.turns = 0
        self.view: PlaytestView | None = None
        self.places: list[int | None] = []
        self.returning = False

    def compose(self) -> ComposeResult:
        yield Static(id="playtest-head")
        yield HandRows(id="hand", cursor_type="row", show_header=False)
        yield Static(id="advice")
        yield Static(id="guide")  # one more line of advice on the hand, where one is given
        yield Static(id="later")

    def deal_again(self) -> str:
        """The hand of the deck as it is now; a message where it cannot be dealt."""
        loaded, conditions = self.deck()
        try:
            self.view = deal(loaded, self.seed, conditions, self.redraws, self.turns, self.returned)
        except DeckcheckError as exc:
            self.view = None
            self.query_one("#advice", Static).update(Text(exc.message, style="red"))
            return exc.message
        self.draw()
        return ""

    def new_hand(self, seed: int) -> None:
        """A new hand (seed), the mulligan left to the optimal policy."""
        self.seed, self.redraws, self.returned, self.marked, self.turns = seed, None, None, set(), 0
        self.deal_again()

    def optimal(self) -> None:
        """The mulligan played by the optimal policy."""
        self.redraws, self.returned, self.marked, self.turns = None, None, set(), 0
        self.deal_again()

    def next_turn(self) -> None:
        """The next turn's draws."""
        self.turns += 1
        self.deal_again()

    def mulligan(self) -> str:
        """Take the mulligan by hand: a redraw, or the return of the cards marked; what was
        refused, in words."""
        view = self.view
        if view is not None and view.to_return and self.returned is None:
            if len(self.marked) != view.to_return:
                return f"mark {view.to_return} cards of the hand (Enter on each), then m"
            self.returned, self.marked, self.turns = tuple(sorted(self.marked)), set(), 0
            self.deal_again()
            return "returned"
        if view is not None and view.mulligan.startswith("return") and self.returned is None:
            self.redraws = 0  # the return is chosen by hand: the first hand, nothing taken
            self.deal_again()
            return f"mark {self.view.to_return if self.view else 3} cards (Enter on each), then m"
        wanted = (self.redraws or 0) + 1
        self.redraws, self.turns = wanted, 0
        self.deal_again()
        shown = self.view
        if shown is not None and shown.redraws < wanted:
            self.redraws = shown.redraws or None  # refused: as it was
            self.deal_again()
            return shown.decisions[-1] if shown.decisions else "the hand is kept"
        return "redrawn"

    def mark(self) -> str:
        """Mark (or unmark) the card under the cursor to return."""
        place = self.under_cursor
        view = self.view
        if place is None or view is None or not view.to_return:
            return "Enter marks cards to return in a return mulligan (after m)"
        self.marked ^= {place}
        self.draw()
        return f"{len(self.marked)} of {view.to_return} marked to return; m returns them"

    def draw(self) -> None:
        """The hand dealt, the mulligan's decisions, the advice, the next turns' draws."""
        view, names = self.view, self.names
        if view is None:
            return
        mode = "taken by you" if view.manual else "played optimally"
        mode = f"choose {view.to_return} to return" if view.to_return else mode
        mode = "" if view.mulligan == "no mulligan" else f" · {mode}"
        head = Text(f"seed {view.seed} · {view.mulligan}{mode}\n", style="bold")
        keys = "h new hand · d draw"
        if view.mulligan != "no mulligan":
            keys += " · m mulligan · o optimal"
        if view.to_return:
            keys += f" · Enter marks {view.to_return} to return"
        head.append(keys + "\n", style="dim")
        if list(view.first) != list(view.kept):
            head.append("first: " + ", ".join(names(c) for c in view.first) + "\n", style="dim")
        for decision in view.decisions:
            head.append(f"{decision}\n", style="italic")
        self.query_one("#playtest-head", Static).update(head)
        table = self.query_one("#hand", DataTable)
        row = table.cursor_row
        table.clear(columns=True)
        table.add_column("card", key="card")
        self.places = []
        for kind, cards in by_type(view.kept):
            table.add_row(Text(f"{kind} ({len(cards)})", style="bold"))
            self.places.append(None)
            for i, card in cards:
                if i in self.marked:
                    label = Text(f"  ↩ {names(card)}", style="yellow")
                elif i in view.best_return and view.to_return:
                    label = Text.assemble(f"  {names(card)}", (" · optimal return", "cyan"))
                else:
                    label = Text(f"  {names(card)}")
                table.add_row(label)
                self.places.append(i)
        table.move_cursor(row=min(max(row, 0), len(self.places) - 1))
        self.query_one("#advice", Static).update(Text(view.advice, style="cyan"))
        guide = self.query_one("#guide", Static)
        guide.update(view.guide)
        guide.set_class(bool(view.guide), "-shown")
        if bool(view.to_return) != self.returning:  # Enter marks only while a return is chosen
            self.returning = bool(view.to_return)
            table.refresh_bindings()
        later = Text()
        for n, drawn in enumerate(view.turns, start=2):
            later.append(f"turn {n}: " + ", ".join(names(c) for c in drawn) + "\n")
        self.query_one("#later", Static).update(later)

    @property
    def under_cursor(self) -> int | None:
        """The hand's card (its place in the hand) on the cursor's row."""
        row = self.query_one("#hand", DataTable).cursor_row
        return self.places[row] if 0 <= row < len(self.places) else None
