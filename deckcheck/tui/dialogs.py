"""The builder's questions (a modal with a few answers) and saving, which may ask one."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import ClassVar, Protocol

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.events import Key
from textual.screen import ModalScreen
from textual.widgets import Button, Label

from deckcheck.commands.build import BuildSession, SaveConflict
from deckcheck.core.errors import DeckcheckError


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

    def on_key(self, event: Key) -> None:
        for answer, label in self.answers:
            if event.key == label[0].lower():
                self.dismiss(answer)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss((event.button.id or "answer-cancel").removeprefix("answer-"))

    def action_answer(self, answer: str) -> None:
        """Close with ``answer``."""
        self.dismiss(answer)


class Builder(Protocol):
    """What saving and quitting need of the app: the session, a message line, a refresh, a
    question, the way out."""

    session: BuildSession

    def say(self, text: str, *, error: bool = False) -> None: ...

    def refresh_all(self) -> None: ...

    def push_screen(self, screen: Confirm, callback: Callable[[str | None], None]) -> object: ...

    def exit(self) -> None: ...


def save(app: Builder) -> None:
    """Save the deck in place; if the file changed on disk meanwhile, ask first (reload it,
    overwrite it, or leave it)."""
    session = app.session
    try:
        session.save()
    except SaveConflict as exc:
        answers = [("reload", "Reload"), ("overwrite", "Overwrite"), ("cancel", "Cancel")]
        question = Confirm(f"{session.label} {exc.message}.", answers)
        app.push_screen(question, lambda answer: _conflict_answered(app, answer))
        return
    except DeckcheckError as exc:
        app.say(f"not saved: {brief(exc)}", error=True)
        return
    app.say(f"saved {session.label}")
    app.refresh_all()


def quit_asking(app: Builder) -> None:
    """Quit; with unsaved changes, ask first (save and quit, quit without saving, or stay)."""
    if not app.session.dirty:
        app.exit()
        return

    def answered(answer: str | None) -> None:
        if answer == "save":
            save(app)
        if answer == "quit" or (answer == "save" and not app.session.dirty):
            app.exit()

    answers = [("save", "Save and quit"), ("quit", "Quit without saving"), ("cancel", "Cancel")]
    app.push_screen(Confirm("The deck has unsaved changes.", answers), answered)


def _conflict_answered(app: Builder, answer: str | None) -> None:
    session = app.session
    try:
        if answer == "overwrite":
            session.save(overwrite=True)
            app.say(f"saved {session.label} over the other change")
        elif answer == "reload":
            session.reload()
            app.say(f"reloaded {session.label} (u brings your edits back)")
        else:
            app.say("not saved")
    except DeckcheckError as exc:
        app.say(f"not {'reloaded' if answer == 'reload' else 'saved'}: {brief(exc)}", error=True)
    app.refresh_all()


def brief(error: DeckcheckError) -> str:
    """An error in the message line: its message and its first hint (a suggestion)."""
    return error.message + (f" ({error.details[0].strip()})" if error.details else "")
