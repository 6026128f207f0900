"""``validate``: every rule of each deck's variant, all findings reported together; with
``--suggest`` each illegal deck's nearest legal deck (:mod:`deckcheck.solve.nearest`)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from deckcheck.core.errors import DeckcheckError
from deckcheck.core.result import Json
from deckcheck.core.values import frozen
from deckcheck.core.violations import Status
from deckcheck.decks.load import load_deck
from deckcheck.decks.resolve import PartlyResolvedError
from deckcheck.decks.verdict import Outcome, Validation, judge, validate_partly
from deckcheck.games.context import NO_CONTEXT, Context

if TYPE_CHECKING:
    from deckcheck.solve.nearest import FixResult


@frozen
class ValidateRequest:
    """The decks to check in ``context``; ``owned`` a deck file listing a collection (each
    outcome lists the copies it lacks); ``suggest`` the nearest legal deck of each illegal one."""

    decks: tuple[str | Path, ...]
    context: Context = NO_CONTEXT
    owned: str | Path | None = None
    suggest: bool = False


def run(request: ValidateRequest) -> Validation | SuggestedValidation:
    """Validate the decks of ``request``; a broken file does not stop the others."""
    validation = validate_paths(request.decks, request.context, owned=request.owned)
    if not request.suggest:
        return validation
    return SuggestedValidation(validation, suggest_fixes(validation.outcomes, request.context))


def validate_paths(
    paths: Sequence[str | Path], context: Context = NO_CONTEXT, *, owned: str | Path | None = None
) -> Validation:
    """Validate several deck files, each opened in ``context``; a broken file does not stop the
    others. With ``owned`` (a collection file, read as ``owned`` reads one), each deck's
    outcome lists the copies the collection lacks to build it (an unreadable collection is an
    input error of that deck)."""
    outcomes = []
    collections: dict[str, dict[str, int]] = {}  # by game: read once
    for path in paths:
        try:
            loaded = load_deck(path, context)
            if owned is not None and loaded.game.id not in collections:
                from deckcheck.decks.collection import owned_copies  # only with --owned

                collections[loaded.game.id] = owned_copies(owned, loaded.game, context)
            outcomes.append(judge(str(path), loaded, collections.get(loaded.game.id)))
        except PartlyResolvedError as exc:
            outcomes.append(Outcome(str(path), report=validate_partly(exc), error=exc))
        except DeckcheckError as exc:
            outcomes.append(Outcome(str(path), error=exc))
    return Validation(tuple(outcomes))


@frozen
class SuggestedValidation:
    """``validate --suggest``: the validation, and for each illegal deck its nearest fix."""

    validation: Validation
    fixes: tuple[FixResult | None, ...]

    @property
    def exit_code(self) -> int:
        """The validation's exit code (a suggestion changes nothing)."""
        return self.validation.exit_code

    @property
    def errors(self) -> tuple[DeckcheckError, ...]:
        """The decks that could not be read."""
        return self.validation.errors

    def to_json(self) -> Json:
        """Each deck's report with ``"fix"`` beside it (null when legal or unreadable)."""
        items: list[Json] = []
        for outcome, fixed in zip(self.validation.outcomes, self.fixes, strict=True):
            data = outcome.to_json()
            if isinstance(data, dict):
                data["fix"] = None if fixed is None else fixed.to_json()
            items.append(data)
        return items[0] if len(items) == 1 else items


def suggest_fixes(
    outcomes: Sequence[Outcome], context: Context = NO_CONTEXT
) -> tuple[FixResult | None, ...]:
    """For each outcome, the nearest legal deck where it is illegal (None otherwise)."""
    from deckcheck.solve.nearest import nearest_legal

    fixes: list[FixResult | None] = []
    for outcome in outcomes:
        illegal = outcome.report is not None and outcome.report.status is Status.ILLEGAL
        if not illegal or outcome.path == "-":  # standard input cannot be read twice
            fixes.append(None)
            continue
        loaded = load_deck(outcome.path, context)
        fixes.append(nearest_legal(loaded))
    return tuple(fixes)
