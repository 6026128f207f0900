"""Reading the user's files: one place for paths, standard input, size limits and encodings."""

from __future__ import annotations

import codecs
import os
import sys
from pathlib import Path

from deckcheck.core.errors import InputFileError

MAX_INPUT_BYTES = 5 * 1024 * 1024
"""Largest deck, catalog or overlay file read (5 MiB): far above any real deck."""

STDIN = "-"
_CZECH_LETTERS = set("ěščřžýáíéůúňťďĚŠČŘŽÝÁÍÉŮÚŇŤĎ")


def source_label(path: str | Path) -> str:
    """How a file is named in messages (``<stdin>`` for ``-``)."""
    return "<stdin>" if str(path) == STDIN else str(path)


def read_bytes(path: str | Path) -> bytes:
    """The raw bytes of a file or of standard input (``-``), within :data:`MAX_INPUT_BYTES`."""
    label = source_label(path)
    if str(path) == STDIN:
        if sys.stdin is None:
            raise InputFileError("standard input is closed", source=label)
        try:
            data = sys.stdin.buffer.read(MAX_INPUT_BYTES + 1)
        except OSError as exc:
            raise InputFileError(f"cannot be read: {exc.strerror or exc}", source=label) from None
    else:
        p = Path(path)
        try:
            check_readable_file(p, label)
            with p.open("rb") as handle:
                data = handle.read(MAX_INPUT_BYTES + 1)
        except OSError as exc:
            raise InputFileError(f"cannot be read: {exc.strerror or exc}", source=label) from exc
    if len(data) > MAX_INPUT_BYTES:
        raise InputFileError(_too_large(len(data)), source=label)
    return data


def names_a_folder(path: str | Path) -> bool:
    """Whether a path as the user wrote it ends in a separator (``decks/x.txt/``): it names a
    folder, whatever is there (``Path`` would drop the separator and name the file)."""
    text = str(path)
    return len(text) > 1 and text.endswith(tuple(sep for sep in (os.sep, os.altsep) if sep))


def check_readable_file(path: Path, label: str) -> None:
    """Refuse what :func:`read_bytes` refuses before opening: no file, a folder, a pipe or
    device, a file beyond :data:`MAX_INPUT_BYTES` (``OSError`` is left to the caller)."""
    if names_a_folder(label) and not path.is_dir():
        raise InputFileError(
            "ends in '/', which names a folder, but it is not one; drop the '/' to name the file",
            source=label,
        )
    if not path.exists():
        raise InputFileError("no such file", source=label)
    if path.is_dir():
        raise InputFileError("is a directory, not a file", source=label)
    if not path.is_file():
        # A pipe or device could block forever or never end: read those through "-".
        raise InputFileError(
            "is not a regular file (a pipe or device); pipe it to standard input with - instead",
            source=label,
        )
    size = path.stat().st_size
    if size > MAX_INPUT_BYTES:
        raise InputFileError(_too_large(size), source=label)


def _too_large(size: int) -> str:
    return (
        f"is {size:,} bytes; deckcheck reads files of at most {MAX_INPUT_BYTES:,} bytes "
        "(a deck or catalog is far smaller: is this the right file?)"
    )


def decode(data: bytes, label: str) -> str:
    """Text from bytes: UTF-8 (with or without BOM) or UTF-16 with BOM; otherwise a clear error.

    Newlines are normalised to ``\\n``.
    """
    return decode_noted(data, label, legacy=False)[0]


def decode_noted(data: bytes, label: str, *, legacy: bool = True) -> tuple[str, str | None]:
    """:func:`decode`, and with ``legacy`` a file that is surely Windows-1250 (Czech Windows)
    is read too: the text and a note naming the encoding (None for UTF-8 or UTF-16). A file
    whose encoding cannot be told apart (Latin-1 or Windows-1250?) is still refused."""
    refuse_unreadable(data, label)
    if legacy and not data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            data.decode("utf-8")
        except UnicodeDecodeError as exc:
            czech = surely_cp1250(data)
            if czech is not None:
                line = data.count(b"\n", 0, exc.start) + 1
                note = (
                    f"read as Windows-1250 (Czech): the file is not UTF-8 (line {line}); "
                    "re-save it as UTF-8 to be sure"
                )
                return _text(czech, label), note
    return _text(_decoded(data, label), label), None


def refuse_unreadable(data: bytes, label: str) -> None:
    """Refuse bytes without a byte-order mark that are no text deckcheck reads: UTF-16 without
    its mark, or binary data (a program, an image). Every reader of the user's files asks
    this first, so that one file gets one message whatever command reads it."""
    if data.startswith((codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        return
    if _utf16_without_bom(data):
        raise InputFileError(
            "looks like UTF-16 without a byte-order mark; re-save it as UTF-8 (or as UTF-16 "
            "with a BOM)",
            source=label,
        )
    if _binary(data):
        raise InputFileError(NOT_TEXT, source=label)


NOT_TEXT = "is not a text file (binary data); deckcheck reads UTF-8 or UTF-16 text"
"""What every reader says of a file of binary data."""


def _utf16_without_bom(data: bytes) -> bool:
    """Text in UTF-16 has a zero byte in nearly every other place (its ASCII letters) and few
    in the others; a binary file's zeros fall anywhere."""
    if len(data) < 4:
        return False
    even, odd = data[0::2], data[1::2]
    zeros = sorted((even.count(0) / len(even), odd.count(0) / len(odd)))
    return zeros[1] >= 0.6 and zeros[0] <= 0.05


_PRINTABLE = bytes([9, 10, 12, 13, *range(32, 256)])
"""The bytes text is made of: the rest are control characters."""


def _binary(data: bytes) -> bool:
    """Bytes that are no text: control characters (NUL among them) in a large share of the
    first 4 KiB, or a NUL amid bytes that are not UTF-8."""
    head = data[:4096]
    if not head:
        return False
    printable = len(head) - len(head.translate(None, _PRINTABLE))
    if printable / len(head) < 0.9:
        return True
    if 0 in head:
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            return True
    return False


def _decoded(data: bytes, label: str) -> str:
    refuse_unreadable(data, label)
    if data.startswith(codecs.BOM_UTF8):
        text = _strict(data[3:], "utf-8", label)
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        text = _strict(data, "utf-16", label)
    else:
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputFileError(_undecodable_message(data, exc), source=label) from None
    return text


def refuse_nul(text: str, label: str) -> None:
    """Refuse decoded text that holds NUL bytes (not a text file): the reader and the editors
    refuse the same files."""
    if "\x00" in text:
        raise InputFileError(
            "holds NUL bytes: this is not a text file (UTF-16 needs a byte-order mark)",
            source=label,
            line=text.count("\n", 0, text.index("\x00")) + 1,
        )


def _text(text: str, label: str) -> str:
    """Decoded text checked for NUL bytes, with its newlines normalised."""
    refuse_nul(text, label)
    return text.replace("\r\n", "\n").replace("\r", "\n")


_CZECH_ONLY = set("ěščřžťďňůĚŠČŘŽŤĎŇŮ")
"""Letters Windows-1250 has and Latin-1 has not (there, their bytes are other letters or
control characters)."""


def surely_cp1250(data: bytes) -> str | None:
    """The text when the bytes are surely Czech Windows-1250: they decode so, and either use
    the bytes 0x80–0x9F (control characters in Latin-1) for Czech letters, or hold two or more
    different Czech-only letters. Otherwise None: Latin-1 cannot be ruled out."""
    try:
        text = data.decode("cp1250")
    except UnicodeDecodeError:
        return None
    if any(ord(ch) < 32 and ch not in "\t\r\n" for ch in text):
        return None  # control characters: binary data, not a Czech text
    czech = {ch for ch in text if ch in _CZECH_ONLY}
    high = {bytes([b]).decode("cp1250") for b in set(data) if 0x80 <= b <= 0x9F}
    czech_high = bool(high) and high <= _CZECH_ONLY | set("„“”‚‘’–—…") and bool(high & czech)
    return text if czech_high or len(czech) >= 2 else None


def _strict(data: bytes, encoding: str, label: str) -> str:
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as exc:
        raise InputFileError(
            f"starts like {encoding.upper()} but byte {exc.start} does not decode: the file is "
            "damaged or not text",
            source=label,
        ) from None


def _undecodable_message(data: bytes, exc: UnicodeDecodeError) -> str:
    line = data.count(b"\n", 0, exc.start) + 1
    try:
        as_1250 = data.decode("cp1250")
    except UnicodeDecodeError:
        as_1250 = ""
    if as_1250 and any(ch in _CZECH_LETTERS for ch in as_1250):
        return (
            f"is not UTF-8 (line {line}); it looks like Windows-1250 (Czech). Re-save it as "
            "UTF-8, e.g. `iconv -f cp1250 -t utf-8 OLD > NEW` or 'Save as… UTF-8' in your editor"
        )
    printable = sum(32 <= b < 127 or b in (9, 10, 13) for b in data[:4096])
    if data and printable / min(len(data), 4096) < 0.75:
        return NOT_TEXT
    return (
        f"is not UTF-8 (first bad byte on line {line}); re-save it as UTF-8 "
        "(UTF-16 with a byte-order mark also works)"
    )


def read_text(path: str | Path) -> str:
    """Decoded text of a file or of standard input, with every failure as an input error."""
    return decode(read_bytes(path), source_label(path))
