"""``export --to html``: a deck sheet to share or print, in one self-contained file.

No scripts, fonts or images are fetched: the charts are inline SVG and the styles inline CSS,
with a print layout (A4, no page breaks inside a section's charts). The sheet holds the list
grouped by zone (where the rules put a card before play) and type, the legality report, the
composition charts of ``stats`` and, for a deck that is drawn from, the odds-by-turn curve of
the game's example question.
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from pathlib import Path

from deckcheck.analysis.deadlines import ExpectedTurn, FirstTurns, with_expected_turn
from deckcheck.analysis.odds import OddsOptions, OddsReport, compute_odds
from deckcheck.analysis.setup import DrawSetup, deck_setup
from deckcheck.analysis.stats import PILE_ZONE, Dimension, StatsReport, build_stats
from deckcheck.catalog.model import Card
from deckcheck.core.errors import DeckcheckError
from deckcheck.core.text import plural
from deckcheck.core.violations import Report, Status
from deckcheck.decks.load import LoadedDeck
from deckcheck.decks.verdict import validate_loaded

CURVE_TURNS = 8
_STATUS_CLASS = {Status.LEGAL: "legal", Status.ILLEGAL: "illegal", Status.UNVERIFIED: "unverified"}

CSS = """
:root { --ink: #1d232b; --muted: #5f6b7a; --line: #d5dbe3; --accent: #2f6db5;
  --good: #1f8a4c; --bad: #c0392b; --warn: #b7791f; --bar: #4a86c8; --curve: #8e5ac8; }
* { box-sizing: border-box; }
body { margin: 0; color: var(--ink); background: #f4f6f9;
  font: 15px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif; }
main { max-width: 1180px; margin: 0 auto; padding: 28px 32px 40px; background: #fff; }
header { display: flex; justify-content: space-between; align-items: flex-start; gap: 24px;
  border-bottom: 3px solid var(--ink); padding-bottom: 12px; margin-bottom: 18px; }
h1 { font-size: 28px; margin: 0 0 4px; }
h2 { font-size: 19px; margin: 26px 0 10px; padding-bottom: 4px;
  border-bottom: 1px solid var(--line); }
h3 { font-size: 16px; margin: 14px 0 6px; }
h4 { font-size: 13px; margin: 10px 0 2px; color: var(--muted); text-transform: uppercase;
  letter-spacing: .04em; }
.meta { color: var(--muted); margin: 0; }
.badge { display: inline-block; padding: 6px 14px; border-radius: 6px; font-weight: 700;
  font-size: 16px; letter-spacing: .05em; color: #fff; white-space: nowrap; }
.badge.legal { background: var(--good); } .badge.illegal { background: var(--bad); }
.badge.unverified { background: var(--warn); }
.registration { display: grid; grid-template-columns: repeat(3, 1fr); gap: 8px 18px;
  margin: 0 0 6px; font-size: 13px; }
.registration div { border-bottom: 1px solid var(--ink); padding: 14px 0 2px; color: var(--muted); }
.columns { column-count: 3; column-gap: 28px; }
.zone { margin-bottom: 10px; }
.zone h3 { break-after: avoid; }
.typeblock { break-inside: avoid; }
table.cards { border-collapse: collapse; width: 100%; font-size: 13.5px; }
table.cards td { padding: 1px 4px; border-bottom: 1px dotted var(--line); vertical-align: top; }
table.cards td.n { width: 2.2em; text-align: right; font-weight: 700; }
table.cards td.id { color: var(--muted); font-size: 11.5px; text-align: right;
  white-space: nowrap; }
table.findings { border-collapse: collapse; width: 100%; font-size: 13.5px; }
table.findings th, table.findings td { text-align: left; padding: 4px 8px;
  border-bottom: 1px solid var(--line); vertical-align: top; }
.sev-error { color: var(--bad); font-weight: 700; } .sev-warning { color: var(--warn); }
.sev-unknown { color: var(--curve); font-weight: 700; }
.passed { color: var(--good); }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(500px, 1fr));
  gap: 14px 28px; }
figure { margin: 0; break-inside: avoid; }
figcaption { font-weight: 700; font-size: 14px; margin-bottom: 4px; }
figcaption small { font-weight: 400; color: var(--muted); }
svg { display: block; max-width: 100%; height: auto; }
svg text { font: 12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; fill: var(--ink); }
svg .muted { fill: var(--muted); }
svg .bar { fill: var(--bar); } svg .bar.curve { fill: var(--curve); }
svg .grid { stroke: var(--line); stroke-width: 1; }
svg .axis { stroke: var(--ink); stroke-width: 1; }
svg .with { fill: none; stroke: var(--accent); stroke-width: 2.5; }
svg .without { fill: none; stroke: var(--muted); stroke-width: 1.5; stroke-dasharray: 5 4; }
svg .dot { fill: var(--accent); }
.note { color: var(--muted); font-size: 12.5px; margin: 4px 0; }
.oddsgrid { display: grid; grid-template-columns: 560px 1fr; gap: 24px; align-items: start; }
table.turns { border-collapse: collapse; font-size: 13px; }
table.turns th, table.turns td { padding: 2px 10px; text-align: right;
  border-bottom: 1px solid var(--line); }
footer { margin-top: 28px; color: var(--muted); font-size: 12px; border-top: 1px solid var(--line);
  padding-top: 8px; }
@page { size: A4; margin: 12mm; }
@media print {
  body { background: #fff; font-size: 10.5pt; }
  main { max-width: none; padding: 0; }
  h2 { break-after: avoid; margin-top: 14px; }
  section { break-inside: auto; }
  .columns { column-count: 3; column-gap: 16px; }
  h3 { font-size: 10.5pt; margin: 6px 0 2px; }
  h4 { font-size: 8pt; margin: 4px 0 1px; }
  table.cards { font-size: 8.5pt; }
  table.cards td { padding: 0 3px; }
  table.cards td.id { font-size: 7pt; }
  .registration div { padding-top: 18px; }
  .charts { grid-template-columns: 1fr 1fr; }
  .oddsgrid { grid-template-columns: 1fr 1fr; }
  .badge { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  svg { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
  #stats { break-before: page; }
}
"""


def write_html(loaded: LoadedDeck, out_path: Path | None = None) -> str:
    """The deck sheet as one HTML document (see the module's note)."""
    report = validate_loaded(loaded)
    setup: DrawSetup | None
    try:
        setup = deck_setup(loaded)
    except DeckcheckError:
        setup = None
    counts = loaded.deck.counts()
    known = loaded.deck.cards()
    cards = [(known[i], n) for i, n in counts.items()]
    stats = build_stats(loaded.deck.label, loaded.game, loaded.variant.name, cards, setup)
    curve = _odds_curve(setup, loaded.game.spec.game.example_condition)
    title = loaded.deck.name or Path(loaded.deck.label).stem
    parts = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(title)} · deckcheck</title>",
        f"<style>{CSS}</style></head><body><main>",
        _header(loaded, report, title),
        _deck_list(loaded, cards, setup),
        _legality(report),
        _stats_section(stats),
        _odds_section(curve, setup, loaded),
        "<footer>Made by deckcheck from "
        + escape(loaded.deck.label)
        + ". Probabilities are exact (integer combinatorics) unless marked ~.</footer>",
        "</main></body></html>",
    ]
    return "\n".join(parts) + "\n"


def _header(loaded: LoadedDeck, report: Report, title: str) -> str:
    status = report.status
    noun = loaded.game.spec.game.deck_noun
    card_noun = loaded.game.spec.game.card_noun
    meta = (
        f"{escape(loaded.game.name)} · {escape(loaded.game.spec.game.variant_noun)} "
        f"{escape(loaded.variant.name)} · "
        f"{loaded.deck.size} {escape(card_noun)}s"
    )
    return (
        '<header><div><h1 id="title">'
        + escape(title)
        + f'</h1><p class="meta">{meta}</p></div>'
        + f'<div><span class="badge {_STATUS_CLASS[status]}">{status.value.upper()}</span></div>'
        + "</header>"
        + '<div class="registration"><div>Player</div><div>Event</div><div>Date</div></div>'
        + f'<p class="note">A {escape(noun)} registration sheet.</p>'
    )


def _zones_of(
    cards: Sequence[tuple[Card, int]], setup: DrawSetup | None, noun: str
) -> dict[str, list[tuple[Card, int]]]:
    """Zone → (card, copies): set-aside cards under the rule's reason, the rest in the pile."""
    zones: dict[str, list[tuple[Card, int]]] = {}
    aside: dict[str, list[tuple[str, int]]] = {}
    if setup is not None:
        for a in setup.set_aside:
            aside.setdefault(a.card.id, []).append((a.why or "set aside", a.count))
    main = PILE_ZONE if setup is not None else noun
    for card, n in cards:
        left = n
        for why, k in aside.get(card.id, []):
            zones.setdefault(why, []).append((card, k))
            left -= k
        if left > 0:
            zones.setdefault(main, []).append((card, left))
    # The pile first, then the set-aside zones in the order the rules list them.
    return dict(sorted(zones.items(), key=lambda kv: kv[0] != main))


def _deck_list(
    loaded: LoadedDeck, cards: Sequence[tuple[Card, int]], setup: DrawSetup | None
) -> str:
    out = ['<section id="list"><h2>Deck list</h2><div class="columns">']
    ordered = loaded.game.spec.ordered
    listed = _in_order(loaded) if ordered else cards
    zones = _zones_of(listed, setup, loaded.game.spec.game.deck_noun)
    # Side zones of the file (a side deck): listed, never counted.
    for entry in loaded.deck.side:
        zones.setdefault(f"{entry.zone or 'side'} (not counted)", []).append(
            (entry.card, entry.count)
        )
    for zone, members in zones.items():
        total = sum(n for _, n in members)
        out.append('<div class="zone">')
        groups: dict[str, list[tuple[Card, int]]] = {}
        for card, n in members:
            kind = "in order, top first" if ordered else card.type_label
            groups.setdefault(kind, []).append((card, n))
        for i, (kind, group) in enumerate(groups.items()):
            count = sum(n for _, n in group)
            # The zone's heading travels with its first block: never alone at a column's foot.
            head = f"<h3>{escape(zone)} ({total})</h3>" if i == 0 else ""
            out.append(f'<div class="typeblock">{head}<h4>{escape(kind)} ({count})</h4>')
            out.append('<table class="cards">')
            for card, n in group:
                out.append(
                    f'<tr><td class="n">{n}</td><td>{escape(card.name)}</td>'
                    f'<td class="id">{escape(card.id)}</td></tr>'
                )
            out.append("</table></div>")
        out.append("</div>")
    out.append("</div></section>")
    return "".join(out)


def _in_order(loaded: LoadedDeck) -> list[tuple[Card, int]]:
    return [(e.card, e.count) for e in loaded.deck]


def _legality(report: Report) -> str:
    status = report.status
    out = [
        '<section id="legality"><h2>Legality</h2>',
        f'<p><span class="badge {_STATUS_CLASS[status]}">{status.value.upper()}</span> ',
        f"&nbsp;{escape(report.game)} · {escape(report.variant_noun)} {escape(report.variant)} · "
        f"{report.card_count} cards</p>",
    ]
    if report.violations:
        out.append(
            '<table class="findings"><tr><th>rule</th><th>severity</th><th>finding</th>'
            "<th>cards</th></tr>"
        )
        for v in report.violations:
            names = ", ".join(report.card_names.get(c, c) for c in v.cards[:12])
            if len(v.cards) > 12:
                names += f" +{len(v.cards) - 12}"
            out.append(
                f"<tr><td><code>{escape(v.code)}</code></td>"
                f'<td class="sev-{escape(v.severity.value)}">{escape(v.severity.value)}</td>'
                f"<td>{escape(v.message)}</td><td>{escape(names)}</td></tr>"
            )
        out.append("</table>")
    else:
        checked = ", ".join(report.rules_checked)
        out.append(
            f'<p class="passed">All {len(report.rules_checked)} rules pass: {escape(checked)}</p>'
        )
    out.append("</section>")
    return "".join(out)


def _stats_section(stats: StatsReport) -> str:
    out = ['<section id="stats"><h2>Composition</h2>']
    if stats.cards_seen is not None:
        out.append(
            f'<p class="note">Opening hand: {plural(stats.cards_seen, "card")} from a pile of '
            f"{stats.pile_size}. Beside each bar: copies, share, and the chance of at least "
            "one in the opening hand"
            # A game without a mulligan (STCCG) is not told about one.
            + (" (with the game's mulligan aimed at it)" if stats.mulligan else "")
            + ".</p>"
        )
    out.append('<div class="charts">')
    for dim in stats.dimensions:
        out.append(_dimension_figure(dim))
    out.append("</div></section>")
    return "".join(out)


def _dimension_figure(dim: Dimension) -> str:
    caption = escape(dim.label)
    small = []
    if dim.scope:
        small.append(f"{dim.total} cards matching {dim.scope}")
    if dim.curve and dim.sum is not None:
        small.append(
            f"total {dim.sum}" + (f", mean {dim.mean:.2f}" if dim.mean is not None else "")
        )
    if small:
        caption += f" <small>({escape('; '.join(small))})</small>"
    rows = dim.buckets
    label_w, bar_w, tail_w = 170, 160, 170
    row_h = 22
    width = label_w + bar_w + tail_w
    height = row_h * len(rows) + 8
    top = max((b.count for b in rows), default=1) or 1
    parts = [
        f'<figure class="chart" data-dimension="{escape(dim.field)}">'
        f"<figcaption>{caption}</figcaption>",
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="{escape(dim.label)}">',
    ]
    for i, b in enumerate(rows):
        y = 4 + i * row_h
        length = max(1.0, bar_w * b.count / top)
        label = b.value if len(b.value) <= 24 else b.value[:23] + "…"
        tail = f"{b.count} · {100 * b.share:.0f}%"
        if b.hand is not None:
            tail += f" · ≥1: {_pct(b.hand.p_at_least_one)}"
        elif b.in_pile == 0:
            tail += " · set aside"
        parts.append(
            f'<text x="{label_w - 6}" y="{y + 15}" text-anchor="end">{escape(label)}</text>'
            f'<rect class="bar{" curve" if dim.curve else ""}" x="{label_w}" y="{y + 3}" '
            f'width="{length:.1f}" height="{row_h - 7}" rx="2"><title>{escape(b.value)}: '
            f"{b.count}</title></rect>"
            f'<text class="muted" x="{label_w + length + 6:.1f}" y="{y + 15}">'
            f"{escape(tail)}</text>"
        )
    parts.append("</svg></figure>")
    return "".join(parts)


def _pct(p: float) -> str:
    if 0.999 < p < 1:
        return ">99.9%"
    if 0 < p < 0.001:
        return "<0.1%"
    return f"{100 * p:.1f}%"


def _odds_curve(setup: DrawSetup | None, condition: str) -> OddsReport | None:
    if setup is None or setup.builtin_pile:
        return None
    turns = CURVE_TURNS
    procedure = setup.procedure()
    while turns > 1 and procedure.seen_by_turn(turns) > setup.pile_size:
        turns -= 1
    try:
        report = compute_odds(setup, [condition], OddsOptions(by_turn=turns))
    except DeckcheckError:
        return None
    return with_expected_turn(setup, [condition], OddsOptions(by_turn=turns), report)


def _odds_section(curve: OddsReport | None, setup: DrawSetup | None, loaded: LoadedDeck) -> str:
    out = ['<section id="odds"><h2>Odds by turn</h2>']
    if curve is None or not curve.by_turn:
        noun = loaded.game.spec.game.deck_noun
        out.append(
            f'<p class="note">This {escape(noun)} is not drawn from, so there is no curve.</p>'
            if setup is None or setup.builtin_pile
            else '<p class="note">The curve is out of exact reach for this deck.</p>'
        )
        out.append("</section>")
        return "".join(out)
    cond = " and ".join(curve.conditions)
    mulligan = setup is not None and setup.mulligan is not None
    out.append(
        f'<p class="note">P({escape(cond)}) by the start of each turn'
        + ("; solid: with the game's mulligan, dashed: without.</p>" if mulligan else ".</p>")
    )
    out.append('<div class="oddsgrid"><figure class="chart" data-chart="odds-by-turn">')
    out.append(_line_chart(curve, mulligan))
    out.append("</figure>")
    out.append(
        '<table class="turns"><tr><th>turn</th><th>cards seen</th><th>P</th>'
        + ("<th>no mulligan</th>" if mulligan else "")
        + "</tr>"
    )
    for row in curve.by_turn:
        mark = "" if row.exact else "~"
        plain = f"<td>{_pct(row.probability_without_mulligan)}{mark}</td>" if mulligan else ""
        out.append(
            f"<tr><td>{row.turn}</td><td>{row.cards_seen}</td>"
            f"<td>{_pct(row.probability)}{mark}</td>{plain}</tr>"
        )
    out.append("</table></div>")
    if isinstance(curve.expected_turn, ExpectedTurn):
        out.append(f'<p class="note">{escape(_first_turn_text(curve.expected_turn))}</p>')
    # The list above shows what is set aside; the other assumptions say how it is dealt.
    for note in curve.assumptions:
        if not note.startswith("set aside:") and (mulligan or not note.startswith("mulligan:")):
            out.append(f'<p class="note">• {escape(note)}</p>')
    out.append("</section>")
    return "".join(out)


def _first_turn_text(got: ExpectedTurn) -> str:
    """When the condition first holds, on the play and on the draw, in one sentence."""

    def side(first: FirstTurns, who: str) -> str:
        if first.mean is not None:
            mean = f"on average turn {float(first.mean):.2f}"
        elif first.mean_when_held is not None:
            mean = f"on average turn {float(first.mean_when_held):.2f} when by turn {got.horizon}"
        else:
            mean = f"not by turn {got.horizon}"
        median = f"median {first.median}" if first.median is not None else "median later"
        return f"{who}: {mean}, {median}"

    return (
        "First turn it holds (exact) — "
        + side(got.play, "on the play")
        + "; "
        + side(got.draw, "on the draw")
        + "."
    )


def _line_chart(curve: OddsReport, mulligan: bool = True) -> str:
    rows = curve.by_turn
    width, height = 540, 280
    left, right, top, bottom = 48, 16, 14, 40
    plot_w, plot_h = width - left - right, height - top - bottom
    n = len(rows)

    def x(i: int) -> float:
        return left + (plot_w * i / (n - 1) if n > 1 else plot_w / 2)

    def y(p: float) -> float:
        return top + plot_h * (1 - p)

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" role="img" aria-label="odds by turn">'
    ]
    for tick in (0, 0.25, 0.5, 0.75, 1.0):
        parts.append(
            f'<line class="grid" x1="{left}" x2="{width - right}" y1="{y(tick):.1f}" '
            f'y2="{y(tick):.1f}"/><text class="muted" x="{left - 6}" y="{y(tick) + 4:.1f}" '
            f'text-anchor="end">{int(tick * 100)}%</text>'
        )
    parts.append(
        f'<line class="axis" x1="{left}" x2="{width - right}" y1="{y(0):.1f}" y2="{y(0):.1f}"/>'
    )
    for i, row in enumerate(rows):
        parts.append(
            f'<text class="muted" x="{x(i):.1f}" y="{height - bottom + 18}" '
            f'text-anchor="middle">{row.turn}</text>'
        )
    parts.append(
        f'<text class="muted" x="{left + plot_w / 2:.1f}" y="{height - 6}" '
        'text-anchor="middle">turn</text>'
    )
    without = " ".join(
        f"{x(i):.1f},{y(r.probability_without_mulligan):.1f}" for i, r in enumerate(rows)
    )
    with_m = " ".join(f"{x(i):.1f},{y(r.probability):.1f}" for i, r in enumerate(rows))
    if mulligan:
        parts.append(f'<polyline class="without" points="{without}"/>')
    parts.append(f'<polyline class="with" points="{with_m}"/>')
    for i, r in enumerate(rows):
        parts.append(
            f'<circle class="dot" cx="{x(i):.1f}" cy="{y(r.probability):.1f}" r="3.5">'
            f"<title>turn {r.turn}: {_pct(r.probability)}</title></circle>"
        )
    parts.append("</svg>")
    return "".join(parts)
