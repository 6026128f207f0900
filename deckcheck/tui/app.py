"""``deckcheck build``: the deck builder's screen (Textual).

Three columns: Cards, Deck, and Standing / Odds / Playtest as tabs (a widget each, in
:mod:`deckcheck.tui.panes`). Every edit goes through :class:`BuildSession` (the library);
this module turns keys into its calls and hands each pane what it answers.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.events import Resize
from textual.widgets import DataTable, Input, Static, TabbedContent, TabPane, Tabs

from deckcheck.builder.playtest import (
    mulligan_name,
    search,
    search_example,
    shown_name,
)
from deckcheck.catalog.model import Card
from deckcheck.commands.build import BuildSession, Standing, new_seed
from deckcheck.core.errors import DeckcheckError
from deckcheck.core.text import plural_noun
from deckcheck.decks.load import LoadedDeck
from deckcheck.tui.dialogs import brief, quit_asking, save
from deckcheck.tui.panes import (
    CardsPane,
    DeckPane,
    KeyLine,
    OddsPane,
    PlaytestPane,
    StandingPane,
)

#: The smallest screen the three panes are readable on.
MIN_SIZE = (80, 24)
#: The panes by key: the widget that takes the keys, and the tab it sits on.
PANES = {
    "1": ("#results", None),
    "2": ("#deck", None),
    "3": ("#standing", "standing-tab"),
    "4": ("#odds-view", "odds-tab"),
    "5": ("#hand", "playtest-tab"),
}
#: The actions whose keys a text box takes as text.
TYPED = ("search", "change", "pane")
#: Where Esc goes from each box.
LEAVE = {"search": "#results", "conditions": "#odds-view"}


class BuildApp(App[None]):
    """The deck builder: search the game's cards, add and remove them, see the deck's
    standing, its odds and a playtest hand change with every edit, save in place."""

    CSS_PATH = "build.tcss"
    TITLE = "deckcheck build"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("slash", "search", "Search"),
        Binding("1", "pane('1')", "Panes", key_display="1-5"),
        *(Binding(k, f"pane('{k}')", show=False) for k in "2345"),
        Binding("plus", "change(1)", "+1"),
        Binding("minus", "change(-1)", "-1"),
        Binding("s", "save", "Save"),
        Binding("ctrl+s", "save", "Save", show=False, priority=True),
        Binding("u", "undo", "Undo"),
        Binding("ctrl+r", "undo(False)", "Redo", show=False, priority=True),  # in --help
        Binding("h", "hand", "Hand"),
        Binding("m", "mulligan", "Mulligan", show=False),
        Binding("o", "optimal", "Optimal", show=False),
        Binding("d", "draw", "Draw", show=False),
        Binding("escape", "leave_box", "Leave the box"),
        Binding("q", "quit_app", "Quit"),
        Binding("ctrl+q", "quit_app", "Quit", show=False, priority=True),
    ]

    def __init__(self, session: BuildSession, *, seed: int | None = None) -> None:
        super().__init__()
        self.session = session
        spec = session.opened.loaded.game.spec.game
        self.conditions: tuple[str, ...] = (spec.example_condition,)
        self.first_seed = seed if seed is not None else new_seed()
        self.too_small = False
        self.last_standing: Standing | None = None
        self.names: dict[str, str] = {}

    def compose(self) -> ComposeResult:
        loaded = self.session.opened.loaded
        condition = loaded.game.spec.game.example_condition
        mulligan = mulligan_name(loaded.game.spec.mulligan)
        yield Static(id="title")
        yield Static(id="too-small")
        with Horizontal(id="columns"):
            art = loaded.game.card_art or (lambda _card: "")
            yield CardsPane(search_example(loaded.catalog, loaded.game.spec), self.name_of, art)
            yield DeckPane()
            with TabbedContent(id="side"):
                with TabPane("3 Standing", id="standing-tab"):
                    yield StandingPane(id="standing")
                with TabPane("4 Odds", id="odds-tab"):
                    yield OddsPane("; ".join(self.conditions), condition, mulligan, id="odds")
                with TabPane("5 Playtest", id="playtest-tab"):
                    yield PlaytestPane(self.deck_now, self.name_of, self.first_seed, id="playtest")
        yield Static(id="message")
        yield KeyLine()

    def on_mount(self) -> None:
        self.query_one(Tabs).can_focus = False  # the pane keys (3, 4, 5) switch the tabs
        self.run_search("")
        self.refresh_all()
        self.query_one("#results").focus()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """A text box takes the printable keys: the footer offers Esc meanwhile, not them."""
        typing = isinstance(self.focused, Input)
        return typing if action == "leave_box" else not (typing and action in TYPED)

    def on_resize(self, event: Resize) -> None:
        width, height = event.size
        self.too_small = width < MIN_SIZE[0] or height < MIN_SIZE[1]
        self.screen.set_class(self.too_small, "-too-small")
        self.query_one("#too-small", Static).update(
            f"deckcheck build needs at least {MIN_SIZE[0]}x{MIN_SIZE[1]}; now {width}x{height}"
            "\nmake the terminal larger (q quits)",
            layout=False,  # it fills the screen whatever it says
        )

    # --- what the panes show ----------------------------------------------------------------

    def name_of(self, card: Card) -> str:
        """The card's name, with its id (and colour) where two cards share the name."""
        if card.id not in self.names:
            loaded = self.session.opened.loaded
            self.names[card.id] = shown_name(card, loaded.catalog, loaded.game.spec)
        return self.names[card.id]

    def deck_now(self) -> tuple[LoadedDeck, tuple[str, ...]]:
        """The deck and the conditions the playtest deals for."""
        return self.session.opened.loaded, self.conditions

    def say(self, text: str, *, error: bool = False) -> None:
        """A one-line message above the footer."""
        shown = Text(text, style="bold red" if error else "", no_wrap=True, overflow="ellipsis")
        self.query_one("#message", Static).update(shown, layout=False)

    def refresh_all(self) -> None:
        """Everything an edit changes: title, deck, standing, odds, playtest."""
        s = self.session
        loaded = s.opened.loaded
        mark = " [modified]" if s.dirty else ""
        self.query_one("#title", Static).update(
            Text(f"{s.label} · {s.game} · {s.variant}{mark}", no_wrap=True, overflow="ellipsis"),
            layout=False,  # one line, always
        )
        uncounted = {z.name for z in loaded.game.spec.zones if not z.counted}
        noun = plural_noun(loaded.game.spec.game.card_noun, loaded.deck.size)
        self.query_one(DeckPane).show(
            s.deck_lines(), self.name_of, uncounted, f"{loaded.deck.size} {noun}"
        )
        self.last_standing = s.standing()
        self.query_one(StandingPane).show(self.last_standing)
        self.query_one(OddsPane).start(s.odds, self.conditions, s.opened)
        self.query_one(PlaytestPane).deal_again()

    odds_pending = property(lambda self: self.query_one(OddsPane).pending, doc="Odds coming.")
    odds_view = property(lambda self: self.query_one(OddsPane).view, doc="The odds shown.")
    last_playtest = property(lambda self: self.query_one(PlaytestPane).view, doc="The hand.")

    @on(Input.Submitted, "#conditions")
    def _conditions(self, event: Input.Submitted) -> None:
        texts = tuple(t.strip() for t in event.value.split(";") if t.strip())
        self.conditions = texts or (self.session.opened.loaded.game.spec.game.example_condition,)
        self.say("")
        self.query_one(OddsPane).start(self.session.odds, self.conditions, self.session.opened)
        self.query_one(PlaytestPane).deal_again()
        self.query_one("#odds-view").focus()  # the next key is a command again

    # --- the playtest's keys ----------------------------------------------------------------

    def _playtest(self) -> PlaytestPane:
        self.query_one("#side", TabbedContent).active = "playtest-tab"
        return self.query_one(PlaytestPane)

    def action_hand(self) -> None:
        """Deal a new playtest hand (a new seed)."""
        self._playtest().new_hand(new_seed())

    def action_mulligan(self) -> None:
        """Take the mulligan yourself: a redraw, or the return of the cards marked."""
        self.say(self._playtest().mulligan())

    def action_optimal(self) -> None:
        """Let the exact optimal policy play the mulligan."""
        self._playtest().optimal()

    def action_draw(self) -> None:
        """Draw the next turn's cards."""
        self._playtest().next_turn()

    @on(DataTable.RowSelected, "#hand")
    def _mark(self, _event: DataTable.RowSelected) -> None:
        self.say(self.query_one(PlaytestPane).mark())

    # --- moving about and searching -----------------------------------------------------------

    def action_pane(self, key: str) -> None:
        """Go to a pane: 1 cards, 2 deck, 3 standing, 4 odds, 5 playtest."""
        target, tab = PANES[key]
        self.query_one(target).focus()
        if tab is not None:
            self.query_one("#side", TabbedContent).active = tab

    def action_leave_box(self) -> None:
        """Escape from a text box: back to its pane's list, where the single keys work."""
        if isinstance(self.focused, Input):
            self.query_one(LEAVE.get(self.focused.id or "", "#results")).focus()

    def action_search(self) -> None:
        """Focus the search box, its text selected (typing replaces it)."""
        box = self.query_one("#search", Input)
        box.focus()
        box.select_all()

    @on(Input.Changed, "#search")
    def _searched(self, event: Input.Changed) -> None:
        self.run_search(event.value)

    def run_search(self, text: str) -> None:
        """Fill the results; a bad search says why in the message line."""
        overlays = [*self.session.opened.source.catalogs, *self.session.context.overlays]
        try:
            self.query_one(CardsPane).show(*search(self.session.opened.loaded, text, overlays))
        except DeckcheckError as exc:
            self.say(brief(exc), error=True)
            return
        self.say("")

    # --- edits ------------------------------------------------------------------------------

    @on(CardsPane.Add)
    def _add(self, event: CardsPane.Add) -> None:
        self.edit(event.card, 1, None)

    @on(DataTable.RowSelected, "#deck")
    def _deck_enter(self, _event: DataTable.RowSelected) -> None:
        self.action_change(1)

    def edit(self, card: Card, delta: int, zone: str | None) -> None:
        """Add (``delta`` > 0) or remove copies of ``card``; a refused edit says why. None
        is made while the screen is too small to show it."""
        if self.too_small:
            self.bell()
            return
        try:
            self.session.add(card, delta, zone)
        except DeckcheckError as exc:
            self.say(brief(exc), error=True)
            return
        copies = self.session.opened.loaded.deck.counts().get(card.id, 0)
        verb = "added" if delta > 0 else "removed"
        self.say(f"{verb} {self.name_of(card)}: {copies} in the deck")
        self.refresh_all()

    def action_change(self, delta: int) -> None:
        """One copy more (or fewer) of the card under the cursor: the deck's row when the deck
        has the keys, else the highlighted search result."""
        if self.too_small:
            self.bell()
            return
        if self.focused is self.query_one("#deck"):
            chosen = self.query_one(DeckPane).under_cursor
        else:
            card = self.query_one(CardsPane).highlighted
            chosen = None if card is None else (card, None)
        if chosen is None:
            self.say("no card under the cursor", error=True)
        else:
            self.edit(chosen[0], delta, chosen[1])

    def action_undo(self, back: bool = True) -> None:
        """Undo the last edit (``back`` False: redo the edit undone last)."""
        done = not self.too_small and (self.session.undo() if back else self.session.redo())
        self.say(("undone" if back else "redone") if done else "nothing to do")
        if done:
            self.refresh_all()

    # --- saving and quitting ------------------------------------------------------------------

    def action_save(self) -> None:
        """Save in place; if the file changed on disk meanwhile, ask first."""
        save(self)

    def action_quit_app(self) -> None:
        """Quit, asking first when there are unsaved changes."""
        quit_asking(self)
