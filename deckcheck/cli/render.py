"""Showing library results: :func:`show` prints a result as JSON or through its typed renderer
for people, and gives the exit code. Library code never prints; this module is the only place
that writes what a command answers."""

from __future__ import annotations

import inspect
import json
import math
import re
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from json.encoder import encode_basestring, encode_basestring_ascii
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from deckcheck.cli.fit import bullet
from deckcheck.core.result import Json, Result, WithErrors
from deckcheck.core.text import cut_long_words, plural
from deckcheck.core.values import frozen
from deckcheck.core.violations import Report, Severity, Status, Violation

# rich is imported by the renderers that use it, when they run: an answer in JSON never
# imports it (a fifth of a short command's start).
if TYPE_CHECKING:
    from rich.console import (
        Console,
        ConsoleOptions,
        ConsoleRenderable,
        JustifyMethod,
        RenderableType,
        RenderResult,
        RichCast,
    )
    from rich.measure import Measurement
    from rich.progress import Progress, TaskID
    from rich.segment import Segment
    from rich.table import Table
    from rich.text import Text

    from deckcheck.analysis.anyof import DistributionReport
    from deckcheck.analysis.deadlines import FirstTurns
    from deckcheck.analysis.mulligan import MulliganGuide
    from deckcheck.analysis.odds import OddsReport
    from deckcheck.analysis.stats import StatsReport
    from deckcheck.catalog.model import Card
    from deckcheck.commands.cards import CardSearch
    from deckcheck.commands.catalog_check import CatalogCheck
    from deckcheck.commands.catalog_template import CatalogTemplate
    from deckcheck.commands.collection import CollectionEdit
    from deckcheck.commands.deckfile import EditResult, NewDeck
    from deckcheck.commands.diff import DeckDiff
    from deckcheck.commands.export import ExportResult
    from deckcheck.commands.games import GameList
    from deckcheck.commands.hands import HandsReport
    from deckcheck.commands.legality import Legality
    from deckcheck.commands.optimize import OptimizeResult
    from deckcheck.commands.owned import OwnedReport
    from deckcheck.commands.tune import TuneReport
    from deckcheck.commands.validate import SuggestedValidation
    from deckcheck.decks.verdict import Missing, Validation
    from deckcheck.solve.changes import CountChanges
    from deckcheck.solve.nearest import FixResult

# What a terminal would act on rather than show: C0/C1 controls but tab and newline (escape
# sequences start with ESC), bidirectional overrides and isolates, zero-width marks, lone
# surrogates.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069"
    "\ufeff\ufff9-\ufffb\ud800-\udfff]"
)


def safe(text: str) -> str:
    """User text (names from deck files and catalogs, file names, messages quoting them) as it
    may be shown on a terminal: each control or bidi character written out (``\\x1b``,
    ``\\u202e``), so that no file can move the cursor, recolour or reorder the screen. Every
    console output passes through it (:class:`_Safe`); JSON and exported files stay exact."""
    return _UNSAFE.sub(lambda m: repr(m.group())[1:-1], text)


class _Safe:
    """A renderable shown through :func:`safe`: its text segments, never rich's own controls."""

    def __init__(self, inner: ConsoleRenderable | RichCast | str) -> None:
        self.inner = inner

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.segment import Segment

        def shown() -> Iterator[Segment]:
            for segment in console.render(self.inner, options):
                if segment.control or not _UNSAFE.search(segment.text):
                    yield segment
                else:
                    yield Segment(safe(segment.text), segment.style)

        yield from _trimmed(shown())


def _trimmed(segments: Iterable[Segment]) -> Iterator[Segment]:
    """Segments with each line's trailing spaces left out (a table pads every line to its
    width: a copied line, or one a test compares, should not end in blanks); a space with a
    background colour is kept, it shows."""
    from rich.segment import Segment

    line: list[Segment] = []
    for segment in segments:
        if segment.control:
            line.append(segment)
            continue
        for i, part in enumerate(segment.text.split("\n")):
            if i:
                yield from _without_trailing_blanks(line)
                yield Segment("\n")
                line = []
            if part:
                line.append(Segment(part, segment.style))
    yield from line


def _without_trailing_blanks(line: list[Segment]) -> list[Segment]:
    from rich.segment import Segment

    while line:
        last = line[-1]
        if last.control or (last.style is not None and last.style.bgcolor is not None):
            break
        text = last.text.rstrip(" ")
        if text:
            line[-1] = Segment(text, last.style)
            break
        line.pop()
    return line


#: What rich would read as an emoji code (``:name:``) in a string cell: such a table is left
#: to rich whole.
_EMOJI_LIKE = re.compile(r":\S*:")
#: A word as rich's wrapping reads one (the word and the blanks after it).
_WORD = re.compile(r"\s*\S+\s*")


class _WidthProbe:
    """A cell that takes no room and notes the width rich gives its column."""

    def __init__(self) -> None:
        self.width = 0

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        from rich.measure import Measurement

        return Measurement(0, 0)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        self.width = options.max_width
        return iter(())


class LongTable:
    """A borderless table (rich's ``Table(box=None)``) of many rows, shown exactly as rich shows
    it, at a small part of its cost: rich lays the columns out from a table of the header, the
    widest cell and the cell with the longest word of each column (the layout depends on
    nothing else), and renders the header and every cell it has to (a style, a word wider
    than its column, a character that is not one cell wide); the other cells are wrapped and
    padded here, as rich would, in plain text. ``columns``: each column's header and
    justification; ``rows``: strings or :class:`~rich.text.Text`."""

    def __init__(
        self,
        columns: Sequence[tuple[str, JustifyMethod]],
        rows: Sequence[Sequence[str | Text]],
    ) -> None:
        self.columns = tuple(columns)
        self.rows = [tuple(r) for r in rows]

    def table(self, rows: Iterable[Sequence[RenderableType]], widths: Sequence[int] = ()) -> Table:
        """The rich table of ``rows`` (of fixed content ``widths`` if given)."""
        from rich.table import Table

        table = Table(box=None)
        for i, (header, justify) in enumerate(self.columns):
            table.add_column(header, justify=justify, width=widths[i] if widths else None)
        for row in rows:
            table.add_row(*row)
        return table

    @staticmethod
    def _measured(cell: str | Text) -> str | None:
        """The text rich measures the cell by (None: one rich reads otherwise, an emoji code
        in a string, a tab, a line break or a control character)."""
        text = cell if isinstance(cell, str) else cell.plain
        if isinstance(cell, str) and _EMOJI_LIKE.search(text):
            return None
        if "\t" in text or "\n" in text or _UNSAFE.search(text):
            return None
        return text

    @staticmethod
    def _plain(cell: str | Text, text: str) -> bool:
        """Whether the cell may be laid out here: no style, a cell per character."""
        from rich.cells import cell_len

        if not isinstance(cell, str) and (
            cell.spans or cell.style or cell.justify or cell.overflow or cell.no_wrap
        ):
            return False
        return len(text) == cell_len(text)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        from rich.cells import cell_len
        from rich.padding import Padding
        from rich.segment import Segment

        n = len(self.columns)
        measured = [[self._measured(c) for c in row] for row in self.rows]
        if any(text is None for row in measured for text in row):
            yield self.table(self.rows)
            return
        texts = [[text or "" for text in row] for row in measured]
        plain = [
            [self._plain(cell, text) for cell, text in zip(row, trow, strict=True)]
            for row, trow in zip(self.rows, texts, strict=True)
        ]
        # What rich measures a cell by: its longest line and its longest word.
        widest = [-1] * n
        widest_row = [0] * n
        longest = [-1] * n
        longest_row = [0] * n
        for r, measured_row in enumerate(texts):
            for c, text in enumerate(measured_row):
                size = cell_len(text)
                if size > widest[c]:
                    widest[c], widest_row[c] = size, r
                word = max(map(cell_len, text.split()), default=size)
                if word > longest[c]:
                    longest[c], longest_row[c] = word, r
        probes = [_WidthProbe() for _ in range(n)]
        proxy: list[Sequence[RenderableType]] = [
            [self.rows[widest_row[c]][c] for c in range(n)] if self.rows else [],
            [self.rows[longest_row[c]][c] for c in range(n)] if self.rows else [],
            probes,
        ]
        for _ in console.render(self.table([p for p in proxy if p]), options):
            pass
        widths = [p.width for p in probes]
        yield self.table((), widths)
        justify = [j for _, j in self.columns]
        rendered: dict[tuple[object, ...], list[list[Segment]]] = {}
        for r, row in enumerate(self.rows):
            cells: list[list[str] | list[list[Segment]]] = []
            for c, cell in enumerate(row):
                wrapped = _wrapped(texts[r][c], widths[c], justify[c]) if plain[r][c] else None
                if wrapped is None:
                    key = (type(cell), str(cell), str(getattr(cell, "style", "")), c)
                    got = None if getattr(cell, "spans", None) else rendered.get(key)
                    if got is None:
                        got = rendered[key] = console.render_lines(
                            Padding(cell, (0, 1)),
                            options.update(
                                width=widths[c] + 2,
                                justify=justify[c],
                                no_wrap=False,
                                overflow="ellipsis",
                                height=None,
                                highlight=False,
                            ),
                        )
                    cells.append(got)
                else:
                    cells.append(wrapped)
            height = max(len(lines) for lines in cells)
            for i in range(height):
                parts: list[Segment] = []
                text_run: list[str] = []
                for c, lines in enumerate(cells):
                    if i >= len(lines):
                        text_run.append(" " * (widths[c] + 2))
                        continue
                    line = lines[i]
                    if isinstance(line, str):
                        text_run.append(line)
                        continue
                    if text_run:
                        parts.append(Segment("".join(text_run)))
                        text_run = []
                    parts.extend(line)
                text_run.append("\n")
                parts.append(Segment("".join(text_run)))
                yield from parts


def _wrapped(text: str, width: int, justify: JustifyMethod) -> list[str] | None:
    """``text`` (one cell a character) word-wrapped to ``width`` and justified as rich does
    it in a table cell (with the cell's padding of one blank each side); None when a word is
    wider than ``width`` (rich cuts it)."""
    breaks: list[int] = []
    offset = 0
    end = 0
    while (word := _WORD.match(text, end)) is not None:
        start, end = word.span()
        length = len(word.group().rstrip())
        if width - offset >= length:
            offset += end - start
        elif length > width:
            return None
        elif offset and start:
            breaks.append(start)
            offset = end - start
    out = []
    for a, b in zip([0, *breaks], [*breaks, len(text)], strict=True):
        line = text[a:b]
        if len(line) > width:  # the blanks past the width go
            excess = len(line) - width
            line = line[: len(line) - min(excess, len(line) - len(line.rstrip()))]
        if justify == "right":
            line = line.rstrip()
            line = " " * (width - len(line)) + line
        else:
            line = line + " " * (width - len(line))
        out.append(f" {line} ")
    return out


def make_console(stderr: bool = False) -> Console:
    """A console for standard output (or error), set up by the environment as rich reads it
    (COLUMNS, NO_COLOR, FORCE_COLOR, whether it is a terminal)."""
    from rich.console import Console, RenderHook

    class SafeHook(RenderHook):
        def process_renderables(
            self, renderables: list[ConsoleRenderable]
        ) -> list[ConsoleRenderable]:
            return [_Safe(r) for r in renderables]

    # Markup off: user text (card names, file names, messages) may hold "[...]"; styles are
    # given explicitly with Text instead.
    console = Console(stderr=stderr, highlight=False, soft_wrap=False, markup=False)
    console.push_render_hook(SafeHook())
    return console


def stdout() -> Console:
    """The console of standard output (``out``), made on first use."""
    return _console("out")


def stderr() -> Console:
    """The console of standard error (``err``), made on first use."""
    return _console("err")


out: Console | None = None
"""The console of standard output once made (tests may put their own in its place)."""
err: Console | None = None
"""The console of standard error once made."""


def _console(name: str) -> Console:
    console: Console | None = globals()[name]
    if console is None:
        console = globals()[name] = make_console(stderr=name == "err")
    return console


def say(console: Console, *parts: str | tuple[str, str]) -> None:
    """Print plain and (text, style) parts; no markup is interpreted."""
    from rich.text import Text

    # A line for a file or a pipe is never wrapped: "file:line: message" must stay whole.
    console.print(Text.assemble(*parts), soft_wrap=not console.is_terminal)


def error(message: object) -> None:
    """The one way an error reaches the user: "error: " and the message, on standard error,
    unwrapped (the terminal wraps it; rich would break a long path in two)."""
    from rich.text import Text

    stderr().print(
        Text.assemble(("error:", "bold red"), " ", cut_long_words(str(message))), soft_wrap=True
    )


_STATUS_STYLE = {
    Status.LEGAL: "bold green",
    Status.ILLEGAL: "bold red",
    Status.UNVERIFIED: "bold yellow",
}
_SEVERITY_STYLE = {Severity.ERROR: "red", Severity.WARNING: "yellow", Severity.UNKNOWN: "magenta"}


F = TypeVar("F", bound=Callable[..., None])
_SHOWN: dict[str, Callable[..., None]] = {}


def renders(human: F) -> F:
    """Register ``human`` as the way a result of its first parameter's type is shown."""
    kind = next(iter(inspect.get_annotations(human).values()))
    assert isinstance(kind, str) and kind not in _SHOWN, kind
    _SHOWN[kind] = human
    return human


@frozen
class Verbose:
    """A result shown in full (``--verbose``): its renderer is called with ``verbose=True``;
    its JSON and exit code are the result's."""

    result: Result

    @property
    def exit_code(self) -> int:
        """The result's."""
        return self.result.exit_code

    def to_json(self) -> Json:
        """The result's."""
        return self.result.to_json()


@renders
def verbose(shown: Verbose) -> None:
    """The shown result's own renderer, with ``verbose=True``."""
    _SHOWN[type(shown.result).__name__](shown.result, verbose=True)


def show(result: Result, json_out: bool = False) -> int:
    """The one way a command answers: ``result.to_json()`` with ``--json`` (standard output
    then holds only the JSON), else the renderer of the result's type; returns the exit code
    to end with."""
    if json_out:
        emit_json(result.to_json())
        # A result shown in full carries its errors in the result it wraps.
        inner = result.result if isinstance(result, Verbose) else result
        if isinstance(inner, WithErrors):
            for problem in inner.errors:
                error(problem)
    else:
        _SHOWN[type(result).__name__](result)
    return result.exit_code


def emit_json(data: Json) -> None:
    """Standard output holds only the JSON: UTF-8 text, or on a stream in another encoding
    (a cp1252 console) plain ASCII with \\u escapes: the same JSON for any reader."""
    utf = (sys.stdout.encoding or "utf-8").lower().replace("-", "").startswith("utf")
    sys.stdout.write(json_text(data, ascii_only=not utf) + "\n")
    sys.stdout.flush()


def json_text(data: Json, *, ascii_only: bool = False) -> str:
    """The JSON of a result, exact and safe to show: every control character (C0 and C1, a
    one-byte CSI among them) and every bidirectional or invisible mark is written as a
    ``\\uXXXX`` escape, which any JSON reader turns back into the same character."""
    text = _indented(data, ascii_only)
    # Outside strings JSON holds only ASCII punctuation, digits, letters and whitespace, so
    # every such character found is inside a string, where an escape means the same.
    return _UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class _Unusual(Exception):
    """A value :func:`_indented` leaves to :func:`json.dumps`."""


def _indented(data: Json, ascii_only: bool) -> str:
    """``json.dumps(data, indent=2, ensure_ascii=ascii_only)``, the same text, written without
    the generators json uses for indented output whatever the value (a third of a short
    ``--json`` command): dicts with text keys, lists, tuples, texts, whole and finite numbers,
    booleans and None; anything else is left to json itself."""
    string = encode_basestring_ascii if ascii_only else encode_basestring

    def write(value: Any, pad: str) -> str:
        kind = type(value)
        if kind is str:
            return string(value)
        if kind is dict:
            if not value:
                return "{}"
            inner = pad + "  "
            items = []
            for key, item in value.items():
                if type(key) is not str:
                    raise _Unusual
                items.append(string(key) + ": " + write(item, inner))
            return "{\n" + inner + (",\n" + inner).join(items) + "\n" + pad + "}"
        if kind is list or kind is tuple:
            if not value:
                return "[]"
            inner = pad + "  "
            items = [write(item, inner) for item in value]
            return "[\n" + inner + (",\n" + inner).join(items) + "\n" + pad + "]"
        if value is None:
            return "null"
        if value is True:
            return "true"
        if value is False:
            return "false"
        if kind is int:
            return int.__repr__(value)
        if kind is float and math.isfinite(value):
            return float.__repr__(value)
        raise _Unusual

    try:
        return write(data, "")
    except (_Unusual, RecursionError):
        return json.dumps(data, indent=2, ensure_ascii=ascii_only)


def write_text(text: str) -> None:
    """A file's content on standard output (an export, a template): UTF-8, like the files
    deckcheck writes and reads, whatever the encoding of the terminal. On a terminal every
    control or bidi character but the line ends is shown written out (:func:`safe`), so that
    a deck's name cannot retitle or recolour the screen; a file or pipe gets the exact text."""
    if _on_terminal():
        text = "\r\n".join(safe(part) for part in text.split("\r\n"))
    if _encodable(text) or not hasattr(sys.stdout, "buffer"):
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    sys.stdout.flush()
    sys.stdout.buffer.write(text.encode("utf-8"))
    sys.stdout.buffer.flush()


def _on_terminal() -> bool:
    try:
        return sys.stdout.isatty()
    except (AttributeError, ValueError):
        return False


def _encodable(text: str) -> bool:
    try:
        text.encode(sys.stdout.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def tolerate_unencodable_output() -> None:
    """Characters the terminal's encoding lacks (a Czech name on a cp1252 console) are
    replaced when shown, never a crash: the exit code must stay the verdict's."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="replace")


WIDE = 100
"""Columns from which findings are laid out as a table; narrower, each finding is a block."""


Styled = tuple[tuple[str, str], ...]
"""A paragraph's parts, each (text, style)."""


def report(rep: Report, console: Console | None = None, expand: bool = False) -> None:
    """A validation report: the verdict in the panel's title (short, so never cut), the deck,
    then every finding with its rule code and the cards by name; side zones and notes under
    them. A partial verdict (some lines named no card) says so first. With ``expand`` the
    panel takes the whole width (several decks: panels of one width).

    Written to a pipe or a file, the same as plain lines, without rich
    (:mod:`deckcheck.cli.plain`)."""
    from deckcheck.cli.plain import piped_width, plain_lines

    title: Styled = ((rep.status.value.upper(), _STATUS_STYLE[rep.status]),)
    if rep.partial:
        title += ((" (partial)", "bold red"),)
    width = piped_width(sys.stdout) if console is None else None
    if width is not None:
        above, below = _report_body(rep, False, width)
        heading = safe("".join(t for t, _ in title))
        paragraphs = [
            (safe("".join(t for t, _ in parts)), indent) for parts, indent in above + below
        ]
        sys.stdout.write(plain_lines(heading, paragraphs, width))
        sys.stdout.flush()
        return
    console = console or stdout()
    table = bool(rep.violations) and console.width >= WIDE
    above, below = _report_body(rep, table, console.width)
    _rich_report(title, above, _findings_table(rep) if table else None, below, console, expand)


def _report_body(
    rep: Report, table: bool, width: int = 80
) -> tuple[list[tuple[Styled, int]], list[tuple[Styled, int]]]:
    """The panel's paragraphs, each with its indent: those above the findings and those below
    (the notes). The findings are the end of the first part, or with ``table`` left out (for
    :func:`_findings_table`). The deck's path is shortened from the left to fit ``width``,
    its file name whole."""
    from deckcheck.cli.fit import PANEL_FRAME, shorten_path

    info = f"{rep.game} · {rep.variant_noun} {rep.variant} · {plural(rep.card_count, 'card')}"
    if rep.deck_name:
        info = f"{rep.deck_name} · " + info
    body: list[tuple[Styled, int]] = []
    if rep.partial:
        body.append((((f"findings {rep.partial} (listed above)", "bold red"),), 0))
    body += [(((shorten_path(rep.deck, width - PANEL_FRAME), "bold"),), 0), (((info, "dim"),), 0)]
    if rep.side_zones:
        zones = ", ".join(f"{z} {n}" for z, n in rep.side_zones.items())
        body.append((((f"not counted: {zones}", "dim"),), 0))
    if not rep.violations:
        passed = (
            f"all {len(rep.rules_checked)} rules pass: "
            if len(rep.rules_checked) != 1
            else "the one rule passes: "
        )
        body.append((((passed + ", ".join(rep.rules_checked), "green"),), 0))
    elif not table:
        for v in rep.violations:
            severity = (v.severity.value, _SEVERITY_STYLE[v.severity])
            body.append(((severity, ("  ", ""), (v.code, "bold")), 0))
            body.append((((v.message, ""),), 2))
            if _cards_of(rep, v):
                body.append((((_cards_of(rep, v), "cyan"),), 2))
    below: list[tuple[Styled, int]] = [
        (((f"note: {note}", "dim"),), 0) for note in rep.notes[:MAX_NOTES]
    ]
    if rep.legal_under_hint:
        below.insert(0, (((rep.legal_under_hint, "yellow"),), 0))
    if len(rep.notes) > MAX_NOTES:
        more = f"… and {len(rep.notes) - MAX_NOTES} more notes (--json lists all)"
        below.append((((more, ""),), 0))
    return body, below


def _rich_report(
    title: Styled,
    above: list[tuple[Styled, int]],
    table: RenderableType | None,
    below: list[tuple[Styled, int]],
    console: Console,
    expand: bool = False,
) -> None:
    """The panel drawn by rich, with the findings ``table`` between the paragraphs."""
    from rich.console import Group
    from rich.padding import Padding
    from rich.panel import Panel
    from rich.text import Text

    def shown(paragraphs: list[tuple[Styled, int]]) -> list[RenderableType]:
        # One style is the text's own (it also colours the padding rich adds), several are
        # spans of an unstyled text.
        texts = [
            (Text(*parts[0], overflow="fold") if len(parts) == 1 else Text.assemble(*parts), n)
            for parts, n in paragraphs
        ]
        return [Padding(text, (0, 0, 0, n)) if n else text for text, n in texts]

    def hanging(paragraphs: list[tuple[Styled, int]]) -> list[RenderableType]:
        # A note wraps under its text, not under "note:".
        out: list[RenderableType] = []
        for parts, n in paragraphs:
            text, style = parts[0] if len(parts) == 1 else ("", "")
            if not n and text.startswith("note: "):
                out.append(bullet(text[len("note: ") :], "note:", style))
            else:
                out.extend(shown([(parts, n)]))
        return out

    body = [*shown(above), *([table] if table is not None else []), *hanging(below)]
    heading = Text(*title[0])
    for part, style in title[1:]:
        heading.append(part, style=style)
    console.print(Panel(Group(*body), title=heading, title_align="left", expand=expand))


def _cards_of(rep: Report, v: Violation) -> str:
    """The cards a finding names, by name; empty when its message names them all already
    ("Ragnar is in the party 2 times" is not followed by "Ragnar")."""
    names = [rep.card_names.get(c, c) for c in v.cards[:CARDS_SHOWN]]
    more = len(v.cards) - CARDS_SHOWN
    if more <= 0 and all(name in v.message for name in names):
        return ""
    return ", ".join(names) + (f" +{more}" if more > 0 else "")


def _findings_table(rep: Report) -> RenderableType:
    """Each finding in a row: rule code and severity (never wrapped), message and cards
    (wrapped at spaces)."""
    from rich.table import Table
    from rich.text import Text

    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("rule", no_wrap=True)
    table.add_column("", no_wrap=True)
    table.add_column("finding", ratio=3)
    table.add_column("cards", style="cyan", ratio=2)
    for v in rep.violations:
        severity = Text(v.severity.value, _SEVERITY_STYLE[v.severity])
        table.add_row(v.code, severity, v.message, _cards_of(rep, v))
    return table


CARDS_SHOWN = 8
"""Cards named per finding; more are counted."""


MAX_NOTES = 20
"""Notes shown under a report; JSON carries all of them."""


def hanging(console: Console, head: str | tuple[str, str], *parts: str | tuple[str, str]) -> None:
    """``head`` then ``parts`` on one line; on a terminal the wrapped lines hang under the
    parts, not under the head (for a pipe the line is never wrapped: :func:`say`)."""
    from rich.table import Table
    from rich.text import Text

    if not console.is_terminal:
        say(console, head, *parts)
        return
    grid = Table.grid()
    grid.add_column(no_wrap=True)
    grid.add_column()
    grid.add_row(Text.assemble(head), Text.assemble(*parts, overflow="fold"))
    console.print(grid)


def problem_lines(lines: Sequence[str], header: str) -> None:
    """A header and a bullet list on standard error."""
    say(stderr(), (header, "bold red"))
    for line in lines:
        if stderr().is_terminal:
            stderr().print(bullet(line, indent=2))
        else:  # "file:line: message" for a file or a pipe stays one whole line
            say(stderr(), f"  • {line}")


@renders
def validation(result: Validation) -> None:
    """Each deck's report, or the error that stopped it (and the verdict on the rest of a deck
    with unknown lines), in the order given; several decks get panels of one width and a
    summary line ("7 decks: 4 legal, 1 unverified, 2 illegal")."""
    several = len(result.outcomes) > 1
    for outcome in result.outcomes:
        if outcome.error is not None:
            error(outcome.error)
        if outcome.report is not None:
            report(outcome.report, expand=several)  # beside unknown lines: the rest's verdict
        if outcome.missing is not None and outcome.error is None:
            _missing(outcome.missing)
    if several:
        stdout().print(summary(result), markup=False)  # wrapped, as the reports are


def summary(result: Validation) -> str:
    """``7 decks: 4 legal, 1 unverified, 2 illegal`` (and those that could not be read)."""
    counts: Counter[str] = Counter()
    for outcome in result.outcomes:
        if outcome.error is not None and outcome.report is None:
            counts["unreadable"] += 1
        elif outcome.report is not None:
            counts[str(outcome.report.status)] += 1
    parts = [
        f"{counts[k]} {k}" for k in ("legal", "unverified", "illegal", "unreadable") if counts[k]
    ]
    return f"{len(result.outcomes)} decks: " + ", ".join(parts)


def _missing(missing: Sequence[Missing]) -> None:
    """What the collection lacks to build the deck, card by card."""
    from rich.text import Text

    console = stdout()
    if not missing:
        say(console, ("your collection holds every card of this deck", "green"))
        return
    total = sum(m.lacking for m in missing)
    say(
        console,
        ("your collection lacks ", "bold"),
        (f"{total} copy:" if total == 1 else f"{total} copies:"),
    )
    for m in missing:
        console.print(
            Text.assemble(
                (f"  −{m.lacking} ", "red"),
                m.name,
                (f"  {m.id} · {m.owned} of {m.needed} owned", "dim"),
            )
        )


SHORT_SHOWN = 3
"""Cards a deck lacks named in its row of the ``owned`` table, when it lacks no more (--json
lists them all)."""
CONTENDERS_SHOWN = 2
"""Decks named in a row of the ``owned`` acquire table before "…+N more" (--verbose and --json
list them all)."""


@frozen
class _Column:
    """A column of a table laid out to fit: its heading, cells, alignment, cell styles, and
    whether its cells may wrap (the last column, under --verbose)."""

    heading: str
    cells: tuple[str, ...]
    right: bool = False
    styles: tuple[str, ...] = ()
    wraps: bool = False


Layout = tuple[_Column, ...]


@renders
def owned(result: OwnedReport, verbose: bool = False) -> None:
    """The answer first (all at once: yes or no; the copies to acquire, proven minimal; with
    --most the largest set buildable at once), then the collection, a table of the decks (each
    on its own: buildable, or what it lacks), and a table of the cards to acquire with the
    decks contending for each (a count and the first names; --verbose: all of them). Tables
    never cut a deck's or a card's name: at a narrow width other columns shorten or go first,
    and only a name wider than the screen loses its middle. Piped: the same as plain lines."""
    from deckcheck.cli.plain import piped_width

    width = piped_width(sys.stdout)
    plain = width is not None
    console = None if plain else stdout()
    room = width if width is not None else stdout().width
    for row in result.decks:
        if row.error is not None:
            error(row.error)
    folders = {str(Path(row.deck).parent) for row in result.decks}
    one_folder = len(folders) == 1 and len(result.decks) > 1

    def shown(deck: str) -> str:
        return Path(deck).name if one_folder else deck

    blocks: list[Styled | Layout] = [*_owned_summary(result, shown, room)]
    held = result.collection
    products = ", ".join(f"{p.copies}× {p.name} ({p.game})" for p in held.products)
    blocks.append(
        (
            ("collection ", "bold"),
            (held.label, ""),
            (
                f" · {plural(held.size, 'card')}"
                + (f" · products: {products}" if products else ""),
                "dim",
            ),
        )
    )
    if one_folder:
        blocks.append((("decks in ", "bold"), (folders.pop(), "")))
    blocks.append(_fitted(_deck_layouts(result, shown), room))
    if result.short:
        blocks.append(((f"to acquire ({plural(len(result.short), 'card')}):", "bold"),))
        blocks.append(_fitted(_acquire_layouts(result, shown, verbose), room))
    for note in (*result.notes, *held.notes):
        blocks.append(((f"• {note}", "dim"),))
    if console is None:
        write_text(safe("".join(_plain_block(b, room) for b in blocks)))
    else:
        for block in blocks:
            _rich_block(console, block)


def _owned_summary(result: OwnedReport, shown: Callable[[str], str], width: int) -> list[Styled]:
    """The answer's lines: all at once or not and what to acquire; the largest set."""
    decks = len(result.decks)
    together = f"all {decks} decks at once" if decks > 1 else "the deck"
    lines: list[Styled] = []
    if result.all_at_once:
        lines.append(((f"{together}: yes", "bold green"),))
    elif result.short:
        lines.append(
            (
                (f"{together}: no", "bold red"),
                (
                    f" · acquire {plural(result.extra_copies, 'copy')} of "
                    f"{plural(len(result.short), 'card')} (proven minimal)",
                    "",
                ),
            )
        )
    else:
        lines.append(((f"{together}: not answered (a deck is unreadable)", "bold"),))
    if result.most is not None:
        most = result.most
        proof = "a proven maximum" if most.proven else "not proven"
        total = len(most.decks) + len(most.left_out)
        lines.append(
            (
                (f"most decks at once: {len(most.decks)} of {total}", "bold"),
                (f" ({proof} of {most.maximised}; ties: {most.ties})", ""),
            )
        )
        if most.decks and len(most.decks) < total:
            lines.append((("  " + ", ".join(shown(d) for d in most.decks), ""),))
    return lines


def _deck_layouts(result: OwnedReport, shown: Callable[[str], str]) -> list[Layout]:
    """The deck table from the fullest to the narrowest: the lacking cards named, then
    counted, the game and card columns left out, the count alone."""
    rows = result.decks
    styles = tuple("red" if r.error is not None or not r.buildable else "green" for r in rows)

    def standing(detail: int) -> _Column:
        texts: list[str] = []
        for r in rows:
            if r.error is not None:
                texts.append("unreadable")
            elif r.buildable:
                texts.append("✓ buildable" if detail else "✓")
            else:
                n = sum(m.short for m in r.missing)
                text = f"✗ lacks {plural(n, 'copy')}" if detail else f"✗ {n}"
                if detail == 2 and len(r.missing) <= SHORT_SHOWN:
                    text += ": " + ", ".join(f"{m.short}× {m.name}" for m in r.missing)
                elif detail:
                    text += f" of {plural(len(r.missing), 'card')}"
                texts.append(text)
        return _Column("on its own", tuple(texts), styles=styles)

    deck = _Column("deck", tuple(shown(r.deck) for r in rows))
    game = _Column("game", tuple(r.game or "" for r in rows))
    cards = _Column("cards", tuple(str(r.cards) if r.game else "" for r in rows), right=True)
    most: tuple[_Column, ...] = ()
    if result.most is not None:
        marks = tuple("" if r.in_most is None else "✓" if r.in_most else "–" for r in rows)
        most = (_Column("most", marks),)
    return [
        (deck, game, cards, standing(2), *most),
        (deck, game, cards, standing(1), *most),
        (deck, cards, standing(1), *most),
        (deck, standing(1), *most),
        (deck, standing(0), *most),
    ]


def _acquire_layouts(
    result: OwnedReport, shown: Callable[[str], str], verbose: bool
) -> list[Layout]:
    """The acquire table from the fullest to the narrowest: each card's name and id, copies
    needed, owned and to acquire, and the decks contending for it (their count and the first
    names; fewer names, then the count alone, need and own left out)."""
    short = result.short
    card = _Column("card", tuple(c.name for c in short))
    game = _Column("game", tuple(c.game for c in short))
    ids = _Column("id", tuple(c.id for c in short))
    need = _Column("need", tuple(str(c.needed) for c in short), right=True)
    own = _Column("own", tuple(str(c.held) for c in short), right=True)
    acquire = _Column(
        "acquire", tuple(f"+{c.short}" for c in short), right=True, styles=("red",) * len(short)
    )

    def contending(names: int | None) -> _Column:
        texts: list[str] = []
        for c in short:
            n = len(c.decks)
            if names is None:
                listed = [shown(d) + (f" ×{k}" if k > 1 else "") for d, k in c.decks]
                texts.append(f"{n}: " + ", ".join(listed))
            elif names == 0:
                texts.append(str(n))
            else:
                text = f"{n}: " + ", ".join(shown(d) for d, _ in c.decks[:names])
                texts.append(text + (f" …+{n - names} more" if n > names else ""))
        heading = "decks" if names == 0 else "decks contending"
        return _Column(heading, tuple(texts), wraps=names is None)

    # What goes first as the screen narrows: the game (a column of its own where cards of
    # several games are to acquire), then the second and the first contending deck's name,
    # then need and own; the card, its id, the copies to acquire and the count of decks stay.
    several = len({c.game for c in short}) > 1
    full: list[Layout] = [(card, game, ids, need, own, acquire)] if several else []
    full.append((card, ids, need, own, acquire))
    if verbose:
        return [(*shape, contending(None)) for shape in (*full, (card, ids, acquire))]
    layouts = [(*shape, contending(k)) for k in (CONTENDERS_SHOWN, 1, 0) for shape in full]
    return [*layouts, (card, ids, acquire, contending(1)), (card, ids, acquire, contending(0))]


WRAPPED_LEAST = 24
"""The fewest cells a column that may wrap (every contending deck) is given."""


def _least(column: _Column) -> int:
    """The cells a wrapping column needs: :data:`WRAPPED_LEAST`, or its longest item (a deck
    and its copies: never broken) and its heading if wider."""
    from deckcheck.cli.fit import cells

    items = (item for text in column.cells for item in text.split(", "))
    return max(WRAPPED_LEAST, cells(column.heading), *(cells(item) + 1 for item in items))


def _fitted(layouts: Sequence[Layout], width: int) -> Layout:
    """The first of ``layouts`` that fits ``width`` (a wrapping column counts for
    :func:`_least` cells); if none does, the last with the names of its first column
    shortened in the middle to the room left."""
    from deckcheck.cli.fit import middle_cut, table_width

    def needed(layout: Layout) -> int:
        fixed = [(c.heading, *c.cells) for c in layout if not c.wraps]
        return table_width(fixed) + sum(_least(c) + 2 for c in layout if c.wraps)

    for layout in layouts:
        if needed(layout) <= width:
            return layout
    last = layouts[-1]
    first, rest = last[0], last[1:]
    room = max(width - (needed(last) - table_width([(first.heading, *first.cells)])), 8)
    cut = tuple(middle_cut(c, room) for c in first.cells)
    return (_Column(first.heading, cut, first.right, first.styles, first.wraps), *rest)


def _plain_block(block: Styled | Layout, width: int) -> str:
    """A line wrapped at ``width`` (its later lines indented), or a table as plain lines."""
    import textwrap

    from deckcheck.cli.fit import cells, joined, row_lines, wrap

    if not block or not isinstance(block[0], _Column):
        text = "".join(part for part, _ in block)  # type: ignore[misc]
        indent = " " * (len(text) - len(text.lstrip(" ")) + 2)
        lines = textwrap.wrap(
            text,
            width,
            subsequent_indent=indent,
            break_long_words=False,
            break_on_hyphens=False,
        )
        return "\n".join(lines or [""]) + "\n"
    columns: list[_Column] = list(block)  # type: ignore[arg-type]
    widths = [max(cells(x) for x in (c.heading, *c.cells)) for c in columns]
    fixed = sum(w for c, w in zip(columns, widths, strict=True) if not c.wraps)
    for i, c in enumerate(columns):
        if c.wraps:
            widths[i] = min(widths[i], max(_least(c), width - fixed - 2 * (len(columns) - 1)))
    right = [c.right for c in columns]
    out: list[str] = []
    for r in range(len(columns[0].cells) + 1):
        parts = [
            wrap(c.cells[r - 1] if r else c.heading, w)
            if c.wraps
            else [c.cells[r - 1] if r else c.heading]
            for c, w in zip(columns, widths, strict=True)
        ]
        out += [joined(line) for line in row_lines(parts, widths, right)]
    return "\n".join(out) + "\n"


def _rich_block(console: Console, block: Styled | Layout) -> None:
    """A line, or a table whose columns never wrap (but a wrapping one)."""
    from rich.table import Table
    from rich.text import Text

    if not block or not isinstance(block[0], _Column):
        say(console, *block)  # type: ignore[arg-type]
        return
    columns: list[_Column] = list(block)  # type: ignore[arg-type]
    table = Table(box=None, pad_edge=False, header_style="bold")
    for c in columns:
        table.add_column(
            c.heading,
            justify="right" if c.right else "left",
            no_wrap=not c.wraps,
            overflow="fold" if c.wraps else "ellipsis",
            min_width=_least(c) if c.wraps else None,
        )
    for r in range(len(columns[0].cells)):
        table.add_row(*(Text(c.cells[r], style=c.styles[r] if c.styles else "") for c in columns))
    console.print(table)


@renders
def collection_edited(result: CollectionEdit) -> None:
    """``my-cards.txt: +2 POINT OF (ren-dhark I/25) · 3 copies now``."""
    sign = "+" if result.delta > 0 else "−"
    say(
        stdout(),
        f"{result.path}: {sign}{abs(result.delta)} {result.variant or result.card.name}",
        (f" ({result.game} {result.card.id}) · {plural(result.copies, 'copy')} now", "dim"),
    )


@renders
def suggested(result: SuggestedValidation) -> None:
    """Each deck's report, with the nearest legal deck under an illegal one (several decks:
    panels of one width and a summary line, as :func:`validation` prints them)."""
    several = len(result.validation.outcomes) > 1
    for outcome, fix in zip(result.validation.outcomes, result.fixes, strict=True):
        if outcome.report is not None:
            report(outcome.report, expand=several)
            if fix is not None:
                fixed(fix, heading=False)
        else:
            error(outcome.error)
    if several:
        stdout().print(summary(result.validation), markup=False)


def _answer_console(result: CountChanges) -> Console:
    """Where fix and optimize speak: standard error when the answer's own text goes to
    standard output (``-o -``), else standard output."""
    return stderr() if result.text is not None and result.written_to is None else stdout()


def _distance(result: CountChanges) -> str:
    """``4 changes (1 added, 3 removed)``: fix's and optimize's totals alike."""
    moved = sum(m.count for m in result.moved)
    return plural(result.distance, "change") + (
        f" ({result.added} added, {result.removed} removed"
        + (f", {moved} moved" if moved else "")
        + ")"
        if result.distance
        else ""
    )


def _changes(console: Console, result: CountChanges) -> None:
    """Each card's copies added or removed, before and after: fix's and optimize's alike."""
    from rich.text import Text

    for change in result.changes:
        sign = "+" if change.delta > 0 else "−"
        console.print(
            Text.assemble(
                (f"  {sign}{abs(change.delta)} ", "green" if change.delta > 0 else "red"),
                change.card.name,
                (f"  {change.card.id} · {change.before} → {change.after}", "dim"),
            )
        )
    for move in result.moved:
        console.print(
            Text.assemble(
                (f"  ↦{move.count} ", "yellow"),
                move.wording(),
                (f"  {move.card.id}", "dim"),
            )
        )


def _answer_end(console: Console, result: CountChanges) -> None:
    """How fix's and optimize's answers end: the notes, the answer's verdict, and where the
    answer went (its own text when it goes to standard output)."""
    for note in result.notes:
        console.print(bullet(note, "·", "dim", indent=2))
    if result.report is not None:
        verdict = str(result.report.status)
        say(
            console,
            ("  the answer is ", "dim"),
            (verdict, "green" if verdict == "legal" else "red"),
        )
    if result.written_to is not None:
        say(
            console,
            f"wrote {result.written_to}"
            + (f" (the old file: {result.backup})" if result.backup else ""),
        )
    elif result.text is not None:
        write_text(result.text)


@renders
def fixed(result: FixResult, heading: bool = True) -> None:
    """The changes that make the deck legal and the proof, or the rules no deck can meet;
    the answer's own text when it goes to standard output."""
    console = _answer_console(result)
    if result.status == "legal":
        say(console, (f"{result.deck}: already legal", "green"), " (nothing to change)")
        return
    if result.status == "unreachable":
        say(console, ("no legal deck is reachable", "bold red"), f" from {result.deck}:")
        for reason in result.reasons:
            console.print(bullet(reason, indent=2))
        for note in result.notes:
            console.print(bullet(note, "·", "dim", indent=2))
        return
    proof = (
        "minimal: the solver proved no legal deck is nearer"
        if result.proven
        else "not proven minimal"
    )
    from deckcheck.cli.fit import shorten_path

    deck = shorten_path(result.deck, max(console.width - 40, 20))
    title = f"{deck}: " if heading else "suggested fix: "
    hanging(console, (title, "bold"), _distance(result), (f" · {proof}", "dim"))
    _changes(console, result)
    _answer_end(console, result)


def _chance(p: float | None) -> str:
    return "—" if p is None else _percent(p)


@renders
def optimized(result: OptimizeResult) -> None:
    """The changes (as fix shows them), the chance before and after, the curve by turn, and
    the proof; the answer's own text when it goes to standard output."""
    console = _answer_console(result)
    when = f"by turn {result.turn}" if result.turn is not None else f"{result.cards_seen} seen"
    conditions = " and ".join(result.conditions)
    if result.status == "unreachable":
        say(console, ("no legal deck within the limits", "bold red"), f" for {result.deck}:")
        for note in result.notes:
            console.print(bullet(note, indent=2))
        return
    before = None if result.before is None else float(result.before)
    after = None if result.after is None else float(result.after)
    hanging(
        console,
        (f"{result.deck}: ", "bold"),
        f"{conditions} ({when}): ",
        (_chance(before), "dim"),
        " → ",
        (_chance(after), "bold green"),
    )
    say(console, f"  {_distance(result)}")
    _changes(console, result)
    if result.curve_after:
        old = {p.turn: p.probability for p in result.curve_before}
        cells = [
            f"T{p.turn} {_chance(old.get(p.turn))} → {_chance(p.probability)}"
            for p in result.curve_after
        ]
        hanging(console, ("  by turn: ", "dim"), (" · ".join(cells), "dim"))
    if result.status == "optimal":
        proof = (
            f"optimal: no legal deck within the limits does better ({result.candidates} "
            f"class mixes, {result.evaluated} scored exactly: {result.ruled_out} ruled out by "
            f"a bound, {result.unreachable} proven out of reach, {result.reached} reached, the "
            "last the answer's)"
        )
        hanging(console, ("  proof: ", "bold"), proof)
    else:
        gain = (
            ""
            if result.gain_bound is None
            else (f"; at most {100 * float(result.gain_bound):.2f} points more are possible")
        )
        hanging(console, ("  best found", "bold yellow"), f" (not proven optimal{gain})")
    _answer_end(console, result)


@renders
def games(result: GameList) -> None:
    """Each known game: its id (never cut: it is what users type), name and card count, then
    its variants and random piles, wrapped between names only."""
    from rich.text import Text

    say(stdout(), ("games deckcheck knows", "bold"))
    for g in result.games:
        variants = [f"{g.default_variant} (default)"]
        variants += [v for v in g.variants if v != g.default_variant]
        stdout().print(
            Text.assemble((g.id, "bold cyan"), "  ", g.name, ("  ·  ", "dim"), f"{g.cards} cards")
        )
        if g.aliases:
            stdout().print(bullet(", ".join(g.aliases), "also:", "", indent=2))
        stdout().print(bullet(", ".join(variants), "variants:", "", indent=2))
        if g.piles:
            stdout().print(bullet(", ".join(g.piles), "random piles:", "", indent=2))
        if g.settings:
            stdout().print(
                bullet(", ".join(g.settings), "settings (--set KEY=VALUE):", "", indent=2)
            )


@renders
def card_list(found: CardSearch) -> None:
    """Cards as a table; a single card in full, with its drawing when the game has one."""
    from rich import box
    from rich.table import Table
    from rich.text import Text

    for note in found.variant_notes:
        say(stderr(), (note, "dim"))
    if not found.cards:
        say(stderr(), cut_long_words(f"no {found.game.id} card matches {found.search!r}"))
        if found.suggestions:
            say(stderr(), f"did you mean: {', '.join(found.suggestions)}?")
        return
    if len(found.cards) == 1:
        card = found.cards[0]
        table = Table(
            show_header=False,
            box=None,
            title=Text.assemble(card.name, "  ", (card.id, "dim")),
            title_justify="left",
        )
        table.add_column(style="bold")
        table.add_column()
        table.add_row("type", card.type_label)
        if card.aliases:
            table.add_row("also", ", ".join(card.aliases))
        for key, value in card.fields.items():
            if found.game.field_specs.get(key) and found.game.field_specs[key].kind == "data":
                continue
            table.add_row(
                key, ", ".join(map(str, value)) if isinstance(value, list) else str(value)
            )
        stdout().print(table)
        if found.art:
            stdout().print(found.art, markup=False)
        _also(found)
        return
    fields = [f for f in found.fields if any(c.get(f) is not None for c in found.cards)]
    title = f"{len(found.cards)} {found.game.id} cards"
    if len(found.cards) > PLAIN_LISTING:
        _plain_listing(found.cards, fields, _headings(found, fields), title)
        return
    table = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, pad_edge=False)
    headers = ["id", "name", "type", *_headings(found, fields)]
    table.add_column("id", style="cyan", no_wrap=True)
    table.add_column("name", style="bold", min_width=14)
    table.add_column("type", min_width=5)
    for header in headers[3:]:
        table.add_column(header, min_width=min(len(header), 10))
    rows = [[c.id, c.name, c.type_label, *(_cell(c.get(f)) for f in fields)] for c in found.cards]
    if not _table_fits([headers, *rows], stdout().width):
        # Too narrow for every column without cutting a word: plain lines, which the terminal
        # wraps where it must.
        _plain_listing(found.cards, fields, headers[3:], title)
        return
    for row in rows:
        table.add_row(*row)
    stdout().print(table)


ALSO_NAMED = 5
"""Up to this many other cards an exact name's words are part of are named; more are counted."""


def _also(found: CardSearch) -> None:
    """The other cards an exact name is part of, named when few, else counted with the
    search that lists them."""
    for field, k in found.also_values:
        say(
            stdout(),
            (
                f"also: {plural(k, 'card')} of {field} {found.search}: deckcheck cards "
                f'{found.game.id} "{field}:{found.search}"',
                "dim",
            ),
        )
    if not found.also:
        return
    n = len(found.also)
    if n <= ALSO_NAMED:
        listed = ", ".join(f"{c.name} ({c.id})" for c in found.also)
        say(
            stdout(),
            (f"also: {plural(n, 'card')} {'matches' if n == 1 else 'match'}: ", "dim"),
            listed,
        )
    else:
        say(
            stdout(),
            (
                f"also: {n} cards match {found.search!r}: deckcheck cards {found.game.id} "
                f'"name:{found.search}"',
                "dim",
            ),
        )


def _table_fits(rows: Sequence[Sequence[str]], width: int) -> bool:
    """Whether a table of ``rows`` fits ``width`` with every id and name whole (the first two
    columns) and no other word broken: each column needs its longest word, plus padding
    between columns."""
    needed = [max(len(row[0]) for row in rows), max(len(row[1]) for row in rows)]
    for i in range(2, len(rows[0])):
        needed.append(max((len(word) for row in rows for word in row[i].split()), default=0))
    return sum(needed) + 3 * len(needed) + 2 <= width


PLAIN_LISTING = 200
"""Longer listings are printed as plain aligned lines: a rich table of thousands of rows takes
seconds to lay out."""


def _cell(value: object) -> str:
    if value is None:
        return ""
    return ", ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)


def _headings(found: CardSearch, fields: Sequence[str]) -> list[str]:
    specs = found.game.field_specs
    return [specs[f].heading if f in specs else f.replace("_", " ") for f in fields]


def _plain_listing(
    cards: Sequence[Card], fields: Sequence[str], headings: Sequence[str], title: str
) -> None:
    from deckcheck.cli.fit import fit_columns, joined

    rows = [[c.id, c.name, c.type_label, *(_cell(c.get(f)) for f in fields)] for c in cards]
    header = ["id", "name", "type", *headings]
    # Columns as wide as their values, narrowed to the screen: a long value wraps at spaces
    # within its column, never cut; fields that cannot fit at all are left out (--json has
    # them) and said so.
    # Names stay whole while a column can be left out instead (a name one word a line is
    # hard to read); only where id, name and type alone do not fit are names wrapped.
    width = stdout().width
    laid = fit_columns([header, *rows], width, keep=3, whole=2)
    if max(len(joined(line)) for line in laid) > width:
        laid = fit_columns([header, *rows], width, keep=3)
    shown = len(laid[0])
    lines = [title, *(joined(line) for line in laid)]
    if shown < len(header):
        lines.append(f"(not shown at this width: {', '.join(header[shown:])}; --json has all)")
    write_text(safe("\n".join(lines)) + "\n")


def digits(p: float, places: int) -> str:
    """``p`` with at least ``places`` decimals, and more where fewer would round a
    probability that is not 0 or 1 to one that is (0.99996 is never shown as 1.0000)."""
    shown = f"{p:.{places}f}"
    while 0 < p < 1 and float(shown) in (0.0, 1.0) and places < 15:
        places += 1
        shown = f"{p:.{places}f}"
    return shown


def _percent(p: float) -> str:
    if 0 < p < 0.0001:
        return f"{p:.2e}"
    places = len(digits(p, 4).partition(".")[2]) - 2  # as many as the fraction needs
    return f"{100 * p:.{places}f} %"


@renders
def odds(rep: OddsReport, verbose: bool = False) -> None:
    """The odds panel: the probability in bold, the assumptions beneath (with ``verbose``,
    each card set aside too)."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.table import Table
    from rich.text import Text

    from deckcheck.cli.fit import fit_title

    colour = "green" if rep.probability >= 0.8 else "yellow" if rep.probability >= 0.5 else "red"
    # The figure in plain bold type: large segment digits were harder to read.
    head = Text(_percent(rep.probability), style=f"bold {colour}")
    lines: list[RenderableType] = [head, Text("")]
    what = " and ".join(rep.conditions)
    lines.append(
        Text.assemble(
            ("P(", "dim"), (what, "bold"), (")", "dim"), f"  = {digits(rep.probability, 6)}"
        )
    )
    if rep.probability_exact and rep.exact:
        frac = rep.probability_exact
        lines.append(
            Text(f"exactly {frac}" if len(frac) < 70 else "exact fraction in --json", style="dim")
        )
    if rep.ci95:
        lo, hi = rep.ci95
        lines.append(
            Text(
                f"95% interval (Wilson) {lo:.6f} – {hi:.6f} · {rep.trials:,} trials · "
                f"seed {rep.seed}",
                style="dim",
            )
        )
    if rep.mulligan == "rules" and rep.probability != rep.probability_without_mulligan:
        lines.append(Text(f"without the mulligan: {digits(rep.probability_without_mulligan, 6)}"))
    kind = "exact" if rep.exact else "estimate"
    # The method often says "exact (…)" itself: the kind is not said twice.
    said = rep.method if rep.method.startswith(kind) else f"{kind} · {rep.method}"
    lines.append(Text(said, style="cyan"))
    lines.append(Text(""))
    lines.extend(bullet(a, style="dim") for a in rep.assumptions)
    if verbose and rep.set_aside:
        lines.append(Text("set aside, card by card:", style="dim"))
        lines.extend(
            bullet(f"{a.count}× {a.card.name}: {a.why}", style="dim", indent=2)
            for a in rep.set_aside
        )
    title = fit_title(rep.deck, [rep.game], stdout().width)
    stdout().print(Panel(Group(*lines), title=title, title_align="left", expand=False))
    if rep.by_turn:
        table = Table(title="by turn", title_justify="left", box=None)
        table.add_column("turn", justify="right")
        table.add_column("seen", justify="right")
        table.add_column("probability", justify="right")
        table.add_column("")
        for row in rep.by_turn:
            bar = "█" * round(30 * row.probability)
            table.add_row(
                str(row.turn),
                str(row.cards_seen),
                digits(row.probability, 4) + ("" if row.exact else "~"),
                Text(bar, style=colour),
            )
        stdout().print(table)
        _simulated_rows(rep, verbose)
    if rep.expected_turn is not None:
        _expected_turn(rep)


def _simulated_rows(rep: OddsReport, verbose: bool) -> None:
    """Under a table of turns with simulated rows (``~``): with ``verbose``, why each was
    simulated and how its player decides (consecutive rows saying the same as one line),
    else a pointer to that."""
    rows = [row for row in rep.by_turn if row.simulation is not None]
    if not rows:
        return
    if not verbose:
        stdout().print(
            bullet(
                "~ simulated: --verbose (or --json) says why and how the simulated player decides",
                style="dim",
            )
        )
        return
    sims = {row.turn: row.simulation for row in rows if row.simulation is not None}

    def by_seed(turns: list[int]) -> bool:
        return all(sims[t].seed == t for t in turns)

    said: list[tuple[list[int], str]] = []
    for row in rows:
        sim = row.simulation
        assert sim is not None
        what = f"{sim.why}; {sim.player.detail}"
        # Rows said as one share the words and are each seeded by their turn.
        own_seed = sim.seed == row.turn
        if (
            said
            and said[-1][1] == what
            and said[-1][0][-1] == row.turn - 1
            and own_seed
            and by_seed(said[-1][0])
        ):
            said[-1][0].append(row.turn)
        else:
            said.append(([row.turn], what))
    for turns, what in said:
        first = sims[turns[0]]
        if len(turns) == 1:
            interval = (
                f"95% interval {first.ci95[0]:.6f} – {first.ci95[1]:.6f}"
                if first.ci95 is not None
                else "no interval"
            )
            head = (
                f"turn {turns[0]} ~ simulated, {first.trials:,} trials, seed {first.seed}, "
                f"{interval}"
            )
        else:
            trials = sorted({sims[t].trials for t in turns})
            many = f"{trials[0]:,}" if len(trials) == 1 else f"{trials[0]:,}–{trials[-1]:,}"
            head = (
                f"turns {turns[0]}–{turns[-1]} ~ simulated, {many} trials each, seeded by "
                "their turn"
            )
        stdout().print(bullet(f"{head}: {what}", style="dim"))


def _expected_turn(rep: OddsReport) -> None:
    """The first turn the conditions hold, on the play and on the draw, side by side."""
    from rich.table import Table

    from deckcheck.analysis.deadlines import POLICY_TEXT, ExpectedTurn

    got = rep.expected_turn
    assert isinstance(got, ExpectedTurn)
    table = Table(title="first turn the conditions hold", title_justify="left", box=None)
    table.add_column("turn", justify="right")
    table.add_column("on the play", justify="right")
    table.add_column("on the draw", justify="right")
    for t, (a, b) in enumerate(zip(got.play.probabilities, got.draw.probabilities, strict=True)):
        table.add_row(str(t + 1), digits(float(a), 4), digits(float(b), 4))
    table.add_row("later", digits(float(got.play.later), 4), digits(float(got.draw.later), 4))

    def mean(side: FirstTurns) -> str:
        if side.mean is not None:
            return f"{float(side.mean):.3f}"
        if side.mean_when_held is not None:
            return f"{float(side.mean_when_held):.3f} when by turn {got.horizon}"
        return "—"

    def median(side: FirstTurns) -> str:
        return str(side.median) if side.median is not None else f"later than {got.horizon}"

    table.add_row("mean", mean(got.play), mean(got.draw))
    table.add_row("median", median(got.play), median(got.draw))
    stdout().print(table)
    stdout().print(bullet(POLICY_TEXT.format(horizon=got.horizon), style="dim"))
    if got.wanted > got.horizon:
        stdout().print(
            bullet(
                f"turns 1…{got.horizon} only: {got.wanted} turns are out of exact reach here "
                "(--turn T asks for T)",
                style="dim",
            )
        )


@renders
def mulligan(guide: MulliganGuide) -> None:
    """The mulligan guide: the chance with the guide's play, the rule of thumb, the table."""
    from rich.text import Text

    from deckcheck.analysis.mulligan import row_line

    out = stdout()
    what = " and ".join(guide.conditions)
    out.print(
        Text.assemble(
            (f"{guide.deck} · {guide.game}\n", "bold"),
            ("P(", "dim"),
            (what, "bold"),
            (")", "dim"),
            f" = {_percent(float(guide.probability))} with the guide's play",
            (
                f", {_percent(float(guide.probability_without_mulligan))} without the mulligan",
                "dim",
            ),
        )
    )
    if guide.rule_of_thumb:
        out.print(Text.assemble(("rule of thumb: ", "cyan"), guide.rule_of_thumb))
    rows = []
    for row in guide.rows[: guide.shown]:
        play = row.decision
        if row.decision == "return":
            play = f"return {guide.describe(row.returned)}"
        rows.append(
            (
                guide.describe(row.hand),
                _percent(float(row.frequency)),
                Text(play, style="bold" if row.decision in ("redraw", "return") else ""),
                _percent(float(row.keep)),
                "" if row.alternative is None else _percent(float(row.alternative)),
                "" if row.margin is None else f"{row.margin:+.1f} pp",
            )
        )
    # --all shows thousands of rows: laid out as rich would, written without its per-cell work.
    headers = ("hand", "dealt", "play", "kept", "otherwise", "margin")
    table = LongTable([(h, "left" if h in ("hand", "play") else "right") for h in headers], rows)
    out.print(table)
    hidden = guide.rows[guide.shown :]
    if hidden:
        share = sum(float(r.frequency) for r in hidden)
        out.print(
            Text(
                f"{len(hidden):,} more hand classes ({_percent(share)} of deals): --all shows them",
                style="dim",
            )
        )
    if guide.rows and guide.kind != "none":
        out.print(Text(f"most often dealt: {row_line(guide, guide.rows[0])}", style="dim"))
    for line in guide.assumptions:
        out.print(bullet(line, style="dim"))


class _Progress:
    """A rich progress bar on standard error, shown only for work longer than about a second.

    Called as ``progress(done, total)``; ``total`` may change between calls (a table of turns,
    an exact computation's work limit).
    """

    def __init__(self, total: int, label: str) -> None:
        import time

        self.total = total
        self.label = label
        self.started = time.monotonic()
        self.bar: Progress | None = None
        self.task: TaskID | None = None

    def __call__(self, done: int, total: int) -> None:
        import time

        if self.bar is None:
            # A bar is for a person watching: never drawn into a file or a pipe.
            if not stderr().is_terminal or time.monotonic() - self.started < 1.0 or done >= total:
                return
            from rich.progress import BarColumn, Progress, TaskProgressColumn, TimeRemainingColumn

            self.bar = Progress(
                self.label,
                BarColumn(),
                TaskProgressColumn(),
                TimeRemainingColumn(),
                console=stderr(),
                transient=True,
            )
            self.bar.start()
            self.task = self.bar.add_task(self.label, total=total)
        if self.task is not None:
            self.bar.update(self.task, completed=done, total=total)

    def __enter__(self) -> _Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        if self.bar is not None:
            self.bar.stop()


def progress_bar(total: int = 0, label: str = "working") -> _Progress:
    """A progress callback ``(done, total)`` usable as a context manager."""
    return _Progress(total, label)


def _grouped(cards: Sequence[Card], labels: Mapping[str, str]) -> list[Text]:
    """Cards by type, most first; copies of one card together ("2× POINT OF")."""
    from rich.text import Text

    by_type: dict[str, Counter[str]] = {}
    for card in cards:
        by_type.setdefault(card.type_label, Counter())[labels.get(card.id, card.name)] += 1
    lines = []
    for kind, names in sorted(by_type.items(), key=lambda kv: (-kv[1].total(), kv[0])):
        shown = ", ".join(f"{n}× {name}" if n > 1 else name for name, n in names.items())
        lines.append(Text.assemble((f"{kind} ({names.total()}): ", "bold"), shown))
    return lines


@renders
def hands(rep: HandsReport) -> None:
    """Sample hands, cards grouped by type, with the mulligan decision under each."""
    from rich.console import Group
    from rich.panel import Panel
    from rich.text import Text

    for note in rep.notes:
        say(stderr(), (note, "dim"))
    labels = rep.card_names
    for h in rep.hands:
        # In the order of the game: the hand dealt, what the mulligan did, the hand kept.
        changed = list(h.first) != list(h.kept)
        body: list[RenderableType] = []
        if changed:
            body.append(Text("dealt:", style="dim"))
            body += [Text.assemble("  ", line) for line in _grouped(h.first, labels)]
        else:
            body += _grouped(h.kept, labels)
        for d in h.decisions:
            style = "yellow" if d.startswith(("redraw", "returned")) else "dim"
            body.append(bullet(d, "→", style))
        if changed:
            body.append(Text("kept:", style="bold"))
            body += [Text.assemble("  ", line) for line in _grouped(h.kept, labels)]
        if h.satisfied is not None:
            body.append(
                Text(
                    "goal met" if h.satisfied else "goal not met",
                    style="green" if h.satisfied else "red",
                )
            )
        stdout().print(
            Panel(
                Group(*body),
                title=f"hand {h.number} of {len(rep.hands)}",
                title_align="left",
                expand=False,
            )
        )
    say(
        stdout(),
        (
            f"{rep.deck} · {rep.game} · {plural(rep.hand_size, 'card')} from a pile of "
            f"{rep.pile_size} · seed {rep.seed} (repeat with --seed {rep.seed})",
            "dim",
        ),
    )


@renders
def deck_diff(d: DeckDiff) -> None:
    """Changes grouped by type, then the totals with their change."""
    from rich.table import Table
    from rich.text import Text

    from deckcheck.cli.fit import shorten_path

    room = stdout().width - 20
    same_name = Path(d.deck_a).name == Path(d.deck_b).name
    for mark, path, status, broken in (
        ("A", d.deck_a, d.status_a, d.broken_a),
        ("B", d.deck_b, d.status_b, d.broken_b),
    ):
        verdict = status.upper() + (f" ({', '.join(broken)})" if broken else "")
        style = _STATUS_STYLE.get(Status(status), "") if status else ""
        say(stdout(), (f"{mark}: ", "bold"), shorten_path(path, room), "  ", (verdict, style))
    if d.status_a == "legal" and d.status_b == "illegal":
        say(stdout(), ("B became illegal", "bold red"), f": it breaks {', '.join(d.broken_b)}")
    elif d.status_a == "illegal" and d.status_b == "legal":
        say(stdout(), ("B is legal again", "bold green"))
    if not d.changes:
        say(stdout(), ("no card differs", "green"), " between A and B")
    for kind, changes in d.by_type().items():
        table = Table(title=kind, title_justify="left", box=None, show_header=False)
        table.add_column(justify="right")
        table.add_column()
        table.add_column(style="dim")
        for c in changes:
            delta = c.after - c.before
            sign = Text(f"{delta:+d}", style="green" if delta > 0 else "red")
            table.add_row(sign, c.card.name, f"{c.card.id} · {c.before} → {c.after} ({c.kind})")
        stdout().print(table)
    totals = Table(title="totals", title_justify="left")
    totals.add_column("")
    # Two files of one name are told apart by the A and B above.
    totals.add_column("A" if same_name else f"A: {Path(d.deck_a).name}", justify="right")
    totals.add_column("B" if same_name else f"B: {Path(d.deck_b).name}", justify="right")
    totals.add_column("change", justify="right")
    for t in d.totals:
        before = str(t.before) if t.before is not None else f"≥{t.before_known_part} (unknown)"
        after = str(t.after) if t.after is not None else f"≥{t.after_known_part} (unknown)"
        change = "" if t.before is None or t.after is None else f"{t.after - t.before:+d}"
        totals.add_row(t.label, before, after, change)
    stdout().print(totals)


@renders
def new_deck(result: NewDeck) -> None:
    """Where the new deck went and what it holds."""
    what = f", the {result.starter} starter ({result.cards} cards)" if result.starter else ""
    say(stderr(), f"wrote {result.path} ({result.game}, variant {result.variant}{what})")


@renders
def edited(result: EditResult) -> None:
    """The changes made, every rule's progress in one line, and the findings that changed (a
    rule that was already unmet and still is is not called new: its numbers are in the
    progress line)."""
    from deckcheck.cli.fit import shorten_path

    verb = "added" if result.delta > 0 else "removed"
    edits = result.edits or ()
    path = shorten_path(str(result.path), max(stdout().width - 40, 20))
    if len(edits) > 1:
        what = ", ".join(
            f"{'+' if e.delta > 0 else '−'}{abs(e.delta)} {e.card.name} ({e.copies} now)"
            for e in edits
        )
        say(stdout(), (f"{len(edits)} cards changed", "bold"), f": {what} · {path}")
    else:
        where = f" ({result.zone})" if result.zone else ""
        say(
            stdout(),
            (f"{verb} {abs(result.delta)} {result.card.name}{where}", "bold"),
            f": {result.copies} in the deck now · {path}",
        )
    say(stdout(), ("standing: ", "dim"), result.standing)
    for v in result.brought:
        say(stdout(), ("  new ", _SEVERITY_STYLE[v.severity]), f"{v.code}: {v.message}")
    counted = {p.code for p in result.progress if p.count is not None}
    for v in result.reworded:
        if v.code not in counted:
            say(stdout(), ("  still ", _SEVERITY_STYLE[v.severity]), f"{v.code}: {v.message}")
    for v in result.cleared:
        say(stdout(), ("  gone ", "green"), f"{v.code}: {v.message}")
    for note in result.notes:
        say(stdout(), (f"  note: {note}", "dim"))


@renders
def exported(result: ExportResult) -> None:
    """The exported text on standard output, or where it was written; warnings on standard
    error, and an illegal deck's report when it was refused."""
    rep = result.report
    if result.refused:
        say(
            stderr(),
            ("not exported:", "bold red"),
            " the deck is illegal (--allow-illegal exports it anyway)",
        )
        report(rep, console=stderr())
        return
    if rep.status is Status.UNVERIFIED:
        undecided = [v.message for v in rep.violations if v.severity is Severity.UNKNOWN]
        say(stderr(), ("warning:", "yellow"), " the deck is unverified: " + "; ".join(undecided))
    elif rep.status is Status.ILLEGAL:
        say(stderr(), ("warning:", "yellow"), " exporting an illegal deck (--allow-illegal)")
    for note in result.notes:
        say(stderr(), ("note:", "yellow"), " " + note)
    if result.written_to is None:
        write_text(result.text or "")
    else:
        say(stderr(), f"wrote {result.written_to} ({result.format})")


@renders
def catalog_template(result: CatalogTemplate) -> None:
    """The template text, as it is (it is a file to save)."""
    write_text(result.text)


@renders
def catalog_check(result: CatalogCheck) -> None:
    """ "ok" with the counts, or every problem with its line on standard error."""
    if not result.ok:
        problem_lines(
            [p.describe(result.label) for p in result.problems],
            f"{result.label}: {plural(len(result.problems), 'problem')}",
        )
        return
    if result.unfilled and not result.changed and not result.added:
        say(
            stdout(),
            ("not filled in", "yellow"),
            f": {result.label} ({result.game}) changes nothing yet: "
            f"{plural(result.unfilled, 'card')} with every value commented out (remove the '#' "
            "and write the values)",
        )
        return
    unfilled = f"; {result.unfilled} not filled in yet" if result.unfilled else ""
    say(
        stdout(),
        ("ok", "green"),
        f": {result.label} ({result.game}): {plural(result.changed, 'card')} changed, "
        f"{result.added} added{unfilled}",
    )


@renders
def legality(result: Legality) -> None:
    """One row per variant: the verdict and the codes of its findings (the deck's own
    variant marked)."""
    from rich.table import Table
    from rich.text import Text

    table = Table(title=f"{result.deck} · {result.game}", title_justify="left")
    table.add_column("variant")
    table.add_column("verdict")
    table.add_column("findings", overflow="fold")
    styles = {str(s): style for s, style in _STATUS_STYLE.items()}
    for row in result.variants:
        name = row.variant + (" (the deck's)" if row.own else "")
        verdict = Text(row.status, style=styles.get(row.status, "dim"))
        table.add_row(name, verdict, ", ".join(row.codes) or "-")
    stdout().print(table)


@renders
def stats(result: StatsReport) -> None:
    """A deck's composition as bar charts (:func:`deckcheck.cli.charts.stats`)."""
    from deckcheck.cli import charts

    charts.stats(result, stdout())


@renders
def distribution(result: DistributionReport) -> None:
    """How many of a kind are seen, as a chart (:func:`deckcheck.cli.charts.distribution`)."""
    from deckcheck.cli import charts

    charts.distribution(result, stdout())


@renders
def tune(result: TuneReport) -> None:
    """The probability by count, as a chart (:func:`deckcheck.cli.charts.tune`)."""
    from deckcheck.cli import charts

    charts.tune(result, stdout())
