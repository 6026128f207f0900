"""Words for people: the one place that turns methods, facts and reasons into sentences."""

from __future__ import annotations

from deckcheck.draws.facts import Fact, FactKind, Method, OutOfReach, Reach


def method_text(method: Method, processes: int = 1) -> str:
    """The method as reports print it (a vectorised run says how many processes it used)."""
    if method is Method.SIMULATION_VECTORISED and processes > 1:
        return f"simulation (numpy, vectorised, {processes} processes)"
    return method.value


def _times(limit: int) -> str:
    return "once" if limit == 1 else f"{limit} times"


def reason_text(reason: OutOfReach) -> str:
    """Why an exact computation was out of reach."""
    if reason.reach is Reach.LOOKAHEAD_WRAPS:
        return (
            f"the look-ahead could run through the whole pile ({reason.seen} seen plus up to "
            f"{reason.looks} put under, from {reason.pile})"
        )
    if reason.reach is Reach.DIGITS:
        return (
            f"{reason.stage}: {reason.redraws:,} redraws make an exact fraction of about "
            f"{reason.work:,} digits, past Python's limit of {reason.limit:,}"
        )
    if reason.reach is Reach.POLICY:
        return "the look-ahead policy treats inert cards differently"
    if reason.reach is Reach.ESTIMATE:
        return (
            f"about {reason.work:,} steps estimated before starting, over the "
            f"{reason.limit:,} that answer within about a second"
        )
    if reason.reach is Reach.OTHER:
        return reason.text
    if reason.work:
        return (
            f"{reason.stage}: about {reason.work:,} steps, over the exact budget of "
            f"{reason.limit:,}"
        )
    return f"{reason.stage}: over the exact budget of {reason.limit:,}"


def fact_text(fact: Fact) -> str:
    """One fact as a sentence."""
    kind = fact.kind
    if kind is FactKind.LOOKAHEAD_HEURISTIC:
        return (
            "each turn's first draw looks at the top card first: a card that would break "
            "an upper bound goes under, one that advances an unmet condition is kept, any "
            "other is kept only while an upper bound is one card from breaking"
        )
    if kind is FactKind.LOOKAHEAD_OPTIMAL:
        return (
            "each turn's first draw looks at the top card first: it is kept or put under, "
            "whichever gives the better chance of this query (optimal play, exact)"
        )
    if kind is FactKind.LOOKAHEAD_HEURISTIC_INSTEAD:
        return (
            "the optimal look-ahead is out of reach here: the simulated player keeps or puts "
            "under the top card by a rule of thumb (a card that would break an upper bound "
            "goes under, one that advances an unmet condition is kept)"
        )
    if kind is FactKind.REDRAW_WHENEVER_ALLOWED:
        if fact.limit is None:
            return "redraw whenever allowed, as often as allowed"
        return f"redraw whenever allowed, at most {_times(fact.limit)}"
    if kind is FactKind.EVERY_HAND_REDRAWS:
        return "every hand allows a redraw: redrawing changes nothing"
    if kind is FactKind.REDRAW_OPTIMAL:
        return "redraw only when it raises the chance of this query"
    if kind is FactKind.OPTIMAL_REDRAW_LIMIT:
        if fact.limit is None:
            return "as many redraws as the rule allows (best stationary policy)"
        if fact.limit == 0:
            return "no redraw allowed (max_redraws = 0)"
        return (
            f"at most {_times(fact.limit)}; later decisions use the value of the redraws then left"
        )
    if kind is FactKind.REDRAW_INACTIVE:
        return "no redraw: the mulligan is off or the rule has no trigger"
    if kind is FactKind.EVERY_HAND_REDRAWS_OPTIMAL:
        return (
            "every hand allows a redraw: the value is that of redrawing until a best "
            "hand comes (max over hands of the chance of success if kept)"
        )
    if kind is FactKind.REDRAW_OPTIMAL_SIMULATED:
        return "each redraw decision is the exact optimum's for that hand"
    if kind is FactKind.REDRAW_UNLESS_MET:
        return (
            "the exact optimal redraw is out of reach here: the simulated player redraws "
            "an allowed hand unless it already meets every condition"
        )
    if kind is FactKind.RETURN_OPTIMAL:
        return "mulligan choice is optimal for this query"
    if kind is FactKind.RETURN_GREEDY:
        return (
            "the optimal return is out of reach here: the simulated player returns cards that "
            "advance no unmet condition"
        )
    if kind is FactKind.HAND_TOO_SMALL_TO_RETURN:
        return f"the hand is too small to return {fact.count} cards: no mulligan"
    if kind is FactKind.REDRAW_CAP_REACHED:
        return f"redraw limit of {fact.limit} reached in {fact.count} trials; hand kept"
    if kind is FactKind.WORKERS_UNAVAILABLE:
        return "worker processes unavailable; ran in one process"
    if kind is FactKind.SIMULATED_INSTEAD:
        why = reason_text(fact.reason) if fact.reason is not None else "too large"
        return f"exact computation out of reach ({why}): simulated, {fact.count:,} trials"
    if kind is FactKind.IMPOSSIBLE_FEW_IN_PILE:
        return (
            f"impossible: only {fact.count} cards of the pile match {fact.label}, and the "
            f"conditions need {fact.limit}"
        )
    if kind is FactKind.IMPOSSIBLE_FEW_SEEN:
        what = f" of {fact.label}" if fact.label else ""
        return (
            f"impossible: the conditions need at least {fact.limit} cards{what}, and only "
            f"{fact.count} are seen"
        )
    if kind is FactKind.IMPOSSIBLE_CONTRADICTION:
        return f"impossible: the conditions on {fact.label} contradict each other"
    if kind is FactKind.IMPOSSIBLE_FORCED:
        return (
            f"impossible: at least {fact.count} of the cards seen match {fact.label} (the pile "
            f"has too few others), and the conditions allow at most {fact.limit}"
        )
    raise AssertionError(f"no words for {kind}")  # every kind is worded above


def notes(facts: tuple[Fact, ...], *, said: frozenset[FactKind] = frozenset()) -> list[str]:
    """The facts as sentences, leaving out the kinds the caller ``said`` in its own terms."""
    return [fact_text(f) for f in facts if f.kind not in said]
