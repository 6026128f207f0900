"""``deckcheck build``: the deck builder's screen (Textual).

Three columns: Cards (search box, results, the highlighted card), Deck (by zone and type),
and Standing / Odds / Playtest as tabs. Every edit goes through :class:`BuildSession` (the
library); this module only shows what it answers and turns keys into its calls.
"""

from __future__ import annotations

import concurrent.futures
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import (
    Button,
    DataTable,
    Footer,
    Input,
    Label,
    Static,
    TabbedContent,
    TabPane,
)

from deckcheck.catalog.model import Card
from deckcheck.commands.build import (
    BuildSession,
    OddsView,
    OpenedText,
    SaveConflict,
    Standing,
    new_seed,
)
from deckcheck.core.errors import DeckcheckError
from deckcheck.core.text import plural_noun
from deckcheck.core.violations import Severity, Status
from deckcheck.tui.playtest import PlaytestView, deal, search

#: How long an edit waits for its odds before showing them as pending (the rest of the
#: refresh takes a few milliseconds; odds out of exact reach are simulated, which takes longer).
ODDS_WAIT = 0.12
#: Width of the odds chart's bars.
BAR = 10

CSS = """
Screen { layout: vertical; }
#title { height: 1; background: $primary; color: $text; padding: 0 1; }
#columns { height: 1fr; }
#cards-pane { width: 1fr; min-width: 26; }
#deck-pane { width: 1fr; min-width: 22; }
#tabs { width: 1fr; min-width: 28; }
#search { height: 3; }
#results { height: 1fr; }
#details { height: auto; max-height: 12; border-top: solid $primary; }
#deck { height: 1fr; }
#message { height: 1; padding: 0 1; }
.pane-title { height: 1; text-style: bold; padding: 0 1; }
#conditions { height: 3; }
TabPane { padding: 0; }
Confirm { align: center middle; }
Confirm > Vertical { width: 60; height: auto; border: thick $primary; padding: 1 2;
                     background: $surface; }
Confirm Horizontal { height: auto; margin-top: 1; }
Confirm Button { margin-right: 1; }
"""


def brief(error: DeckcheckError) -> str:
    """An error in the message line: its message and its first hint (a suggestion)."""
    return error.message + (f" ({error.details[0].strip()})" if error.details else "")


class Confirm(ModalScreen[str]):
    """A question with a few answers (buttons; the first letter of each is its key)."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "answer('cancel')", "Cancel")]

    def __init__(self, question: str, answers: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.question = question
        self.answers = answers

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Label(self.question)
            with Horizontal():
                for key, label in self.answers:
                    yield Button(label, id=f"answer-{key}")

    def on_key(self, event: object) -> None:
        key = getattr(event, "key", "")
        for answer, label in self.answers:
            if key == label[0].lower():
                self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss((event.button.id or "answer-cancel").removeprefix("answer-"))

    def action_answer(self, answer: str) -> None:
        """Close with ``answer``."""
        self.dismiss(answer)


class BuildApp(App[None]):
    """The deck builder: search the game's cards, add and remove them, see the deck's
    standing, its odds and a playtest hand change with every edit, save in place."""

    CSS = CSS
    TITLE = "deckcheck build"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "search", "Search"),
        Binding("plus", "more", "+1"),
        Binding("minus", "less", "-1"),
        Binding("s", "save", "Save"),
        Binding("ctrl+s", "save", "Save", show=False, priority=True),
        Binding("u", "undo", "Undo"),
        Binding("ctrl+r", "redo", "Redo", priority=True),
        Binding("h", "hand", "Hand"),
        Binding("m", "mulligan", "Mulligan", show=False),
        Binding("o", "optimal", "Optimal", show=False),
        Binding("d", "draw", "Draw", show=False),
        Binding("escape", "leave_box", "Leave the box", show=False),
        Binding("q", "quit_app", "Quit"),
        Binding("ctrl+q", "quit_app", "Quit", show=False, priority=True),
    ]

    def __init__(self, session: BuildSession, *, seed: int | None = None) -> None:
        super().__init__()
        self.session = session
        self.conditions: tuple[str, ...] = (session.opened.loaded.game.spec.game.example_condition,)
        self.seed = seed if seed is not None else new_seed()
        self.redraws: int | None = None  # None: the optimal policy plays the mulligan
        self.turns_drawn = 0
        self.found: tuple[Card, ...] = ()
        self.deck_cards: list[tuple[Card, str | None] | None] = []
        self.generation = 0
        self.odds_pending = False
        self.odds_view: OddsView | None = None
        self.last_standing: Standing | None = None
        self.last_playtest: PlaytestView | None = None
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=1)

    # --- layout ---------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="columns"):
            with Vertical(id="cards-pane"):
                yield Input(placeholder="/ search: name, field:value, cost>=3", id="search")
                yield DataTable(id="results", cursor_type="row", zebra_stripes=False)
                yield Static(id="details")
            with Vertical(id="deck-pane"):
                yield Static("Deck", classes="pane-title", id="deck-title")
                yield DataTable(id="deck", cursor_type="row")
            with TabbedContent(id="tabs"):
                with TabPane("Standing", id="standing-tab"), VerticalScroll():
                    yield Static(id="standing")
                with TabPane("Odds", id="odds-tab"):
                    yield Input(
                        value="; ".join(self.conditions),
                        placeholder="conditions, e.g. type:ship>=2; ...",
                        id="conditions",
                    )
                    with VerticalScroll():
                        yield Static(id="odds")
                with TabPane("Playtest", id="playtest-tab"), VerticalScroll():
                    yield Static(id="playtest")
        yield Static(id="message")
        yield Footer()

    def on_mount(self) -> None:
        results = self.query_one("#results", DataTable)
        results.add_columns("Card", "Type")
        deck = self.query_one("#deck", DataTable)
        deck.add_columns("#", "Card")
        self.run_search("")
        self.refresh_all()
        results.focus()

    def on_unmount(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)

    # --- showing --------------------------------------------------------------------------------

    def say(self, text: str, *, error: bool = False) -> None:
        """A one-line message above the footer."""
        self.query_one("#message", Static).update(
            Text(text, style="bold red" if error else "") if text else ""
        )

    def refresh_all(self) -> None:
        """Everything an edit changes: title, deck, standing, odds, playtest."""
        self.generation += 1
        self.show_title()
        self.show_deck()
        self.show_standing()
        self.start_odds()
        self.show_playtest()

    def show_title(self) -> None:
        s = self.session
        mark = " [modified]" if s.dirty else ""
        self.query_one("#title", Static).update(
            Text(f"{s.label} · {s.game} · {s.variant}{mark}", no_wrap=True, overflow="ellipsis")
        )

    def show_deck(self) -> None:
        table = self.query_one("#deck", DataTable)
        row = table.cursor_row
        table.clear()
        self.deck_cards = []
        lines = self.session.deck_lines()
        # the copies under each zone's and each type's heading
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
                    heading = Text(line.zone, style="bold underline")
                    table.add_row(Text(str(in_zone[line.zone]), style="bold"), heading)
                    self.deck_cards.append(None)
            if line.type_label != kind:
                kind = line.type_label
                heading = Text(line.type_label or "—", style="bold")
                total = of_kind[(line.zone, line.type_label)]
                table.add_row(Text(str(total), style="bold"), heading)
                self.deck_cards.append(None)
            table.add_row(str(line.count), Text(line.card.name, no_wrap=True))
            self.deck_cards.append((line.card, line.zone))
        loaded = self.session.opened.loaded
        noun = plural_noun(loaded.game.spec.game.card_noun, loaded.deck.size)
        self.query_one("#deck-title", Static).update(f"Deck · {loaded.deck.size} {noun}")
        if self.deck_cards:
            table.move_cursor(row=min(row, len(self.deck_cards) - 1))

    def show_standing(self) -> None:
        standing = self.session.standing()
        self.last_standing = standing
        report = standing.report
        status = report.status
        colour = {Status.LEGAL: "green", Status.ILLEGAL: "red", Status.UNVERIFIED: "yellow"}
        out = Text()
        out.append(f"{status.value.upper()}", style=f"bold {colour[status]}")
        out.append(f"  {standing.summary}\n")
        for hint in standing.hints:
            out.append(f"{hint}\n", style="italic")
        for rule in standing.rules:
            mark, style = ("✓", "green") if rule.ok else ("✗", "red")
            out.append(f"{mark} ", style=style)
            p = rule.progress
            # a rule that counts nothing is named (the mark says the rest)
            out.append(f"{p.text if p.count is not None and p.goal else p.name}\n")
            for finding in rule.findings:
                style = "red" if finding.severity is Severity.ERROR else "yellow"
                out.append(f"  {finding.severity.value}: ", style=style)
                out.append(f"{finding.message}\n")
        if report.unknown_lines:
            out.append(f"({report.partial})\n", style="yellow")
        self.query_one("#standing", Static).update(out)

    # --- odds -----------------------------------------------------------------------------------

    def start_odds(self) -> None:
        """Compute the odds in the background; wait a moment for them, else mark them
        pending and show them when they come."""
        generation = self.generation
        conditions = self.conditions
        # The deck as it is now: a later edit replaces the session's, never this one.
        future = self._pool.submit(self._odds_job, generation, conditions, self.session.opened)
        try:
            view = future.result(timeout=ODDS_WAIT)
        except concurrent.futures.TimeoutError:
            self.odds_pending = True
            self.show_odds(self.odds_view, pending=True)
            future.add_done_callback(
                lambda f: self.call_from_thread(self._odds_done, generation, f)
            )
            return
        self.odds_pending = False
        self.show_odds(view)

    def _odds_job(
        self, generation: int, conditions: tuple[str, ...], opened: OpenedText
    ) -> OddsView | None:
        """The odds of the deck at edit ``generation``; None (not computed) once a later edit
        has come: a queue of edits made during a long computation costs only the last."""
        if generation != self.generation:
            return None
        return self.session.odds(conditions, opened=opened)

    def _odds_done(self, generation: int, future: concurrent.futures.Future[OddsView]) -> None:
        if generation != self.generation or future.cancelled():
            return
        self.odds_pending = False
        self.show_odds(future.result())

    def show_odds(self, view: OddsView | None, *, pending: bool = False) -> None:
        self.odds_view = view
        out = Text()
        if pending:
            out.append("pending: computing…\n", style="italic yellow")
        if view is None:
            self.query_one("#odds", Static).update(out)
            return
        if view.message:
            out.append(view.message + "\n", style="red")
        else:
            out.append(f"{' and '.join(view.conditions)}\n", style="bold")
            out.append(f"mulligan: {view.mulligan}\n", style="dim")
            for turn, seen, p, exact in view.turns:
                filled = round(p * BAR)
                out.append(f"T{turn:<2} {seen:>3} ")
                out.append("█" * filled, style="green")
                out.append("░" * (BAR - filled), style="dim")
                out.append(f" {p:6.1%}{'' if exact else ' ~'}\n")
        self.query_one("#odds", Static).update(out)

    @on(Input.Submitted, "#conditions")
    def _conditions(self, event: Input.Submitted) -> None:
        texts = tuple(t.strip() for t in event.value.split(";") if t.strip())
        if not texts:
            texts = (self.session.opened.loaded.game.spec.game.example_condition,)
        self.conditions = texts
        self.say("")
        self.generation += 1  # odds still coming for the old conditions are dropped
        self.start_odds()
        self.show_playtest()

    # --- playtest -------------------------------------------------------------------------------

    def show_playtest(self) -> None:
        out = Text()
        try:
            view = deal(
                self.session.opened.loaded,
                self.seed,
                self.conditions,
                self.redraws,
                self.turns_drawn,
            )
        except DeckcheckError as exc:
            self.last_playtest = None
            out.append(exc.message, style="red")
            self.query_one("#playtest", Static).update(out)
            return
        self.last_playtest = view
        mode = "your mulligan" if view.manual else "optimal mulligan"
        out.append(f"seed {view.seed} · {mode}\n", style="bold")
        out.append("h new hand · m mulligan · o optimal · d draw\n", style="dim")
        if list(view.first) != list(view.kept):
            out.append("first: " + ", ".join(c.name for c in view.first) + "\n", style="dim")
        for decision in view.decisions:
            out.append(f"{decision}\n", style="italic")
        out.append("hand:\n", style="bold")
        for card in view.kept:
            out.append(f"  {card.name}\n")
        out.append(view.advice + "\n", style="cyan")
        for n, cards in enumerate(view.turns, start=2):
            out.append(f"turn {n}: " + ", ".join(c.name for c in cards) + "\n")
        self.query_one("#playtest", Static).update(out)

    def action_hand(self) -> None:
        """Deal a new playtest hand (a new seed)."""
        self.seed = new_seed()
        self.redraws = None
        self.turns_drawn = 0
        self._show_tab("playtest-tab")
        self.show_playtest()

    def action_mulligan(self) -> None:
        """Redraw the playtest hand yourself (as far as the rule allows)."""
        self.redraws = (self.redraws or 0) + 1
        self.turns_drawn = 0
        self._show_tab("playtest-tab")
        self.show_playtest()
        if self.last_playtest is not None and self.last_playtest.redraws < self.redraws:
            self.redraws = self.last_playtest.redraws
            self.say(self.last_playtest.decisions[-1])

    def action_optimal(self) -> None:
        """Let the exact optimal policy play the mulligan."""
        self.redraws = None
        self._show_tab("playtest-tab")
        self.show_playtest()

    def action_draw(self) -> None:
        """Draw the next turn's cards."""
        self.turns_drawn += 1
        self._show_tab("playtest-tab")
        self.show_playtest()

    def _show_tab(self, tab: str) -> None:
        self.query_one("#tabs", TabbedContent).active = tab

    # --- search ---------------------------------------------------------------------------------

    def overlays(self) -> list[str | Path]:
        """The catalog overlays the deck's header names, then the command line's."""
        return [*self.session.opened.source.catalogs, *self.session.context.overlays]

    def action_leave_box(self) -> None:
        """Escape from a text box: back to the results, where the single keys work again."""
        if isinstance(self.focused, Input):
            self.query_one("#results", DataTable).focus()

    def action_search(self) -> None:
        """Focus the search box, its text selected (typing replaces it)."""
        search = self.query_one("#search", Input)
        search.focus()
        search.select_all()

    @on(Input.Changed, "#search")
    def _search_changed(self, event: Input.Changed) -> None:
        self.run_search(event.value)

    @on(Input.Submitted, "#search")
    def _search_submitted(self, event: Input.Submitted) -> None:
        self.run_search(event.value)
        self.query_one("#results", DataTable).focus()

    def run_search(self, text: str) -> None:
        """Fill the results table; a bad search says why in the message line."""
        table = self.query_one("#results", DataTable)
        try:
            found, total = search(self.session.opened.loaded, text, self.overlays())
        except DeckcheckError as exc:
            self.say(brief(exc), error=True)
            return
        self.found = found
        table.clear()
        for card in found:
            table.add_row(Text(card.name, no_wrap=True), card.type_label)
        shown = f"{total} cards" if total == len(found) else f"{len(found)} of {total} cards"
        self.say(f"{shown} found" if text.strip() else "")
        self.show_details(found[0] if found else None)

    @on(DataTable.RowHighlighted, "#results")
    def _result_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if 0 <= event.cursor_row < len(self.found):
            self.show_details(self.found[event.cursor_row])

    @on(DataTable.RowSelected, "#results")
    def _result_selected(self, event: DataTable.RowSelected) -> None:
        if 0 <= event.cursor_row < len(self.found):
            self.edit(self.found[event.cursor_row], 1, None)

    def show_details(self, card: Card | None) -> None:
        out = Text()
        if card is not None:
            out.append(f"{card.name}", style="bold")
            out.append(f"  {card.id}\n", style="dim")
            out.append(f"{card.type_label}\n")
            for key, value in card.fields.items():
                shown = ", ".join(map(str, value)) if isinstance(value, list | tuple) else value
                out.append(f"{key}: {shown}\n")
            game = self.session.opened.loaded.game
            art = game.card_art(card) if game.card_art else None
            if art:
                out.append(art + "\n")
        self.query_one("#details", Static).update(out)

    # --- edits ----------------------------------------------------------------------------------

    def edit(self, card: Card, delta: int, zone: str | None) -> None:
        """Add (``delta`` > 0) or remove copies of ``card``; a refused edit says why."""
        try:
            self.session.add(card, delta, zone)
        except DeckcheckError as exc:
            self.say(brief(exc), error=True)
            return
        copies = self.session.opened.loaded.deck.counts().get(card.id, 0)
        verb = "added" if delta > 0 else "removed"
        self.say(f"{verb} {card.name}: {copies} in the deck")
        self.refresh_all()

    def _cursor_card(self) -> tuple[Card, str | None] | None:
        """The card under the cursor: the deck's row when the deck has focus, else the
        highlighted search result."""
        deck = self.query_one("#deck", DataTable)
        if self.focused is deck:
            if 0 <= deck.cursor_row < len(self.deck_cards):
                return self.deck_cards[deck.cursor_row]
            return None
        results = self.query_one("#results", DataTable)
        if 0 <= results.cursor_row < len(self.found):
            return self.found[results.cursor_row], None
        return None

    def action_more(self) -> None:
        """One more copy of the card under the cursor."""
        chosen = self._cursor_card()
        if chosen is None:
            self.say("no card under the cursor", error=True)
            return
        self.edit(chosen[0], 1, chosen[1])

    def action_less(self) -> None:
        """One copy fewer of the card under the cursor."""
        chosen = self._cursor_card()
        if chosen is None:
            self.say("no card under the cursor", error=True)
            return
        self.edit(chosen[0], -1, chosen[1])

    def action_undo(self) -> None:
        """Undo the last edit."""
        if self.session.undo():
            self.say("undone")
            self.refresh_all()
        else:
            self.say("nothing to undo")

    def action_redo(self) -> None:
        """Redo the edit undone last."""
        if self.session.redo():
            self.say("redone")
            self.refresh_all()
        else:
            self.say("nothing to redo")

    # --- saving and quitting --------------------------------------------------------------------

    def action_save(self) -> None:
        """Save in place; if the file changed on disk meanwhile, ask first."""
        try:
            self.session.save()
        except SaveConflict as exc:
            self.push_screen(
                Confirm(
                    f"{self.session.label} {exc.message}.",
                    [("reload", "Reload"), ("overwrite", "Overwrite"), ("cancel", "Cancel")],
                ),
                self._conflict_answered,
            )
            return
        except DeckcheckError as exc:
            self.say(f"not saved: {brief(exc)}", error=True)
            return
        self.say(f"saved {self.session.label}")
        self.show_title()

    def _conflict_answered(self, answer: str | None) -> None:
        if answer == "overwrite":
            try:
                self.session.save(overwrite=True)
            except DeckcheckError as exc:
                self.say(f"not saved: {brief(exc)}", error=True)
                return
            self.say(f"saved {self.session.label} over the other change")
        elif answer == "reload":
            self.action_reload()
            return
        else:
            self.say("not saved")
        self.show_title()

    def action_reload(self) -> None:
        """Read the file again (undo brings the edits back)."""
        try:
            self.session.reload()
        except DeckcheckError as exc:
            self.say(f"not reloaded: {brief(exc)}", error=True)
            return
        self.say(f"reloaded {self.session.label} (u brings your edits back)")
        self.refresh_all()

    def action_quit_app(self) -> None:
        """Quit, asking first when there are unsaved changes."""
        if not self.session.dirty:
            self.exit()
            return
        self.push_screen(
            Confirm(
                "The deck has unsaved changes.",
                [("save", "Save and quit"), ("quit", "Quit without saving"), ("cancel", "Cancel")],
            ),
            self._quit_answered,
        )

    def _quit_answered(self, answer: str | None) -> None:
        if answer == "save":
            self.action_save()
            if not self.session.dirty:
                self.exit()
        elif answer == "quit":
            self.exit()
