"""Rich views of the analysis results: ``stats`` bar charts, ``tune`` tables, distributions."""

from __future__ import annotations

from typing import Any

from rich import box
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from deckcheck.cli.fit import bullet, command_line, fit_title
from deckcheck.core.text import plural

BAR_WIDTH = 20
_BLOCKS = " ▏▎▍▌▋▊▉█"


def bar(value: float, scale: float, width: int = BAR_WIDTH) -> str:
    """A horizontal bar of ``value`` out of ``scale`` in eighth-block steps."""
    if scale <= 0 or value <= 0:
        return ""
    eighths = round(8 * width * min(value, scale) / scale)
    return "█" * (eighths // 8) + (_BLOCKS[eighths % 8] if eighths % 8 else "")


def percent(p: float | None) -> str:
    """A probability as a percentage with one decimal (tiny ones kept visible)."""
    if p is None:
        return ""
    if 0 < p < 0.001:
        return "<0.1 %"
    if 0.999 < p < 1:
        return ">99.9 %"
    return f"{100 * p:.1f} %"


def stats(rep: Any, console: Console) -> None:
    """Each dimension as a bar chart, with the opening-hand figures per value."""
    head = fit_title(
        rep.deck,
        [rep.game, f"{rep.variant_noun} {rep.variant}" if rep.variant else ""],
        console.width,
    )
    info = [plural(rep.size, "card")]
    if rep.pile_size is not None:
        info.append(f"{rep.pile_size} in the pile drawn from")
    if rep.cards_seen is not None:
        who = " (second player)" if rep.second else ""
        info.append(f"opening hand {rep.cards_seen}{who}")
    lines: list[Any] = [Text(" · ".join(info), style="dim")]
    if rep.mulligan:
        lines.append(Text(f"mulligan: {rep.mulligan}", style="dim"))
    console.print(Panel(Group(*lines), title=head, title_align="left", expand=False))
    dims = [*rep.dimensions, *([rep.categories] if rep.categories else [])]
    for dim in dims:
        console.print(_dimension_table(dim, rep.cards_seen, console.width))
    has_odds = any(b.hand for d in dims for b in d.buckets)
    if has_odds:
        seen = rep.cards_seen
        plain = any(
            abs(b.hand.p_at_least_one - b.hand.p_at_least_one_without_mulligan) > 5e-4
            for d in dims
            for b in d.buckets
            if b.hand is not None
        )
        # A game without a mulligan (STCCG) is not told about one.
        legend = (
            f"in hand: expected copies among the {seen} opening cards (before any mulligan); "
            "≥1: chance of at least one, with the game's mulligan aimed at it"
            + ("; ≥1 plain: without the mulligan" if plain else "")
            if rep.mulligan
            else f"in hand: expected copies among the {seen} opening cards; ≥1: chance of "
            "at least one"
        )
        console.print(Text(legend + "; all exact", style="dim"))
    for note in rep.notes:
        console.print(bullet(note, style="dim"))


def _dimension_table(dim: Any, seen: int | None, width: int = 80) -> Table:
    """One dimension's values with bars; the figures never wrap (``>99.9 %`` stays on one
    line), a long value wraps at spaces (never cut), the bars shorten to fit ``width``."""
    title = dim.label
    if dim.scope:
        title += f" (of {dim.total} cards matching {dim.scope})"
    if dim.curve and dim.sum is not None:
        mean = f", mean {dim.mean:.2f}" if dim.mean is not None else ""
        title += f" · total {dim.sum}{mean}"
    table = Table(
        title=title,
        title_justify="left",
        title_style="bold",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        padding=(0, 1),
    )
    odds = [b.hand for b in dim.buckets if b.hand is not None]
    with_pile = any(b.in_pile is not None for b in dim.buckets)
    mulligan = any(abs(h.p_at_least_one - h.p_at_least_one_without_mulligan) > 5e-4 for h in odds)
    # value, cards, share, then the figures: what the bar may take of the width
    label = min(max((len(str(b.value)) for b in dim.buckets), default=5), 24)

    def room_for_bar() -> int:
        figures = [5, 5] + ([7, 9] + ([8] if mulligan else []) if odds else [])
        columns = 2 + len(figures) + 1
        # two spaces between columns and one at each edge of the box
        return width - label - sum(figures) - 2 * (columns - 1) - 2

    room = room_for_bar()
    if room < 6 and mulligan:
        mulligan = False  # too narrow: the figure without the mulligan goes, never a cut cell
        room = room_for_bar()
    bar_width = max(6, min(BAR_WIDTH, room))
    table.add_column("value", style="bold", min_width=min(label, 12))
    table.add_column("cards", justify="right", no_wrap=True)
    table.add_column("share", justify="right", no_wrap=True)
    table.add_column("", no_wrap=True, min_width=bar_width, max_width=bar_width)
    if odds:
        table.add_column("in hand", justify="right", no_wrap=True)
        table.add_column("≥1", justify="right", no_wrap=True)
        if mulligan:
            table.add_column("≥1 plain", justify="right", style="dim", no_wrap=True)
    top = max((b.count for b in dim.buckets), default=0)
    style = "magenta" if dim.curve else "cyan"
    for b in dim.buckets:
        row: list[Any] = [
            b.value,
            str(b.count),
            f"{100 * b.share:.0f} %",
            Text(bar(b.count, top, bar_width), style),
        ]
        if odds:
            if b.hand is not None:
                row += [f"{float(b.hand.expected):.2f}", percent(b.hand.p_at_least_one)]
                if mulligan:
                    row.append(percent(b.hand.p_at_least_one_without_mulligan))
            elif with_pile and b.in_pile == 0:
                row += ["", Text("set aside", style="dim")]
            else:
                row += ["", ""]
        table.add_row(*row)
    return table


def target_percent(p: float) -> str:
    """A target as the user gave it: ``90.0 %``, ``99.9 %``, ``99.95 %`` (never ``>99.9 %``,
    which :func:`percent` says of a probability)."""
    for places in range(1, 5):
        text = f"{100 * p:.{places}f}"
        if abs(float(text) - 100 * p) < 1e-9:
            break
    return f"{text} %"


def tune(rep: Any, console: Console) -> None:
    """The answer in one line, then the table of probability by count with bars."""
    when = f"turn {rep.turn}" if rep.turn else "the opening hand"
    who = " (second player)" if rep.second else ""
    goal = f"P({rep.condition}) ≥ {target_percent(rep.target)} by {when}{who}"
    best = getattr(rep, "best_legal", None)
    best_line = (
        f"; the best legal count is {best}: {percent(rep.best_legal_probability)}"
        if best is not None
        else ""
    )
    if rep.answer is None:
        verdict = Text.assemble(
            ("no count reaches ", "bold red"), goal, f" in a deck of {rep.deck_size}", best_line
        )
    else:
        change = rep.answer - rep.current
        delta = "as many as now" if change == 0 else f"{change:+d} from the {rep.current} now"
        illegal = getattr(rep, "answer_legal", None) is False
        verdict = Text.assemble(
            (f"{rep.answer} cards of {rep.category}", "bold red" if illegal else "bold green"),
            f" for {goal} ({delta}; deck of {rep.deck_size})",
            (" — illegal: no legal deck of this size holds that many" if illegal else "", "red"),
            best_line,
        )
    console.print(
        Panel(
            verdict,
            title=fit_title(rep.deck, [rep.game], console.width),
            title_align="left",
            expand=False,
        )
    )
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    table.add_column(f"{rep.category} in deck", justify="right")
    table.add_column("probability", justify="right")
    table.add_column("", no_wrap=True, min_width=BAR_WIDTH)
    table.add_column("no mulligan", justify="right", style="dim")
    table.add_column("")
    for row in rep.rows:
        met = row.probability >= rep.target
        marks = []
        if row.count == rep.answer:
            marks.append("← answer")
        if row.count == rep.current:
            marks.append("now")
        if getattr(row, "legal", None) is False:
            marks.append("illegal")
        if row.count == getattr(rep, "legal_answer", None):
            marks.append("← nearest legal")
        if row.count == best:
            marks.append("← best legal")
        table.add_row(
            str(row.count),
            f"{100 * row.probability:.2f} %" + ("" if row.exact else "~"),
            Text(bar(row.probability, 1.0), "green" if met else "red"),
            f"{100 * row.probability_without_mulligan:.2f} %",
            Text(", ".join(marks), style="bold" if row.count == rep.answer else "dim"),
        )
    console.print(table)
    for line in getattr(rep, "rules", ()):
        said, colon, command = line.partition(": deckcheck ")
        if colon:  # a command to paste: on its own line, never broken
            console.print(bullet(said + ":", style="yellow"))
            command_line(console, "deckcheck " + command)
        else:
            console.print(bullet(line, style="yellow"))
    for note in rep.assumptions:
        console.print(bullet(note, style="dim"))


def distribution(rep: Any, console: Console) -> None:
    """Exactly k and at least k, as bars, with the mean."""
    when = f"turn {rep.turn}" if rep.turn else f"{plural(rep.cards_seen, 'card')} seen"
    head = Text.assemble(
        (f"{rep.selector}", "bold"),
        f": {rep.in_pile} of {rep.pile_size} in the pile · {when} · expected ",
        (f"{float(rep.mean):.3f}", "bold green"),
    )
    title = fit_title(rep.deck, [rep.game], console.width)
    console.print(Panel(head, title=title, title_align="left", expand=False))
    with_m = any(r.at_least_with_mulligan is not None for r in rep.rows)
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False, padding=(0, 1))
    table.add_column("k", justify="right")
    table.add_column("exactly k", justify="right")
    table.add_column("", no_wrap=True, min_width=BAR_WIDTH)
    table.add_column("at least k", justify="right")
    if with_m:
        table.add_column("≥k with mulligan", justify="right")
    top = max((r.exactly for r in rep.rows), default=0)
    for r in rep.rows:
        row: list[Any] = [
            str(r.k),
            percent(r.exactly),
            Text(bar(r.exactly, top), "cyan"),
            percent(r.at_least),
        ]
        if with_m:
            row.append(percent(r.at_least_with_mulligan))
        table.add_row(*row)
    console.print(table)
    for note in rep.assumptions:
        console.print(bullet(note, style="dim"))
