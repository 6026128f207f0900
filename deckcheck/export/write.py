"""Writing a file so that nothing the user had is lost: no overwrite without ``force``, and an
atomic replace (a temporary file in the same directory, then a rename)."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

from deckcheck.core import signals
from deckcheck.core.errors import InputFileError


def write_atomically(
    path: Path, text: str | bytes, *, force: bool = False, newline: str = ""
) -> None:
    """Write ``text`` (UTF-8; bytes as they are) to ``path``; an interrupted write leaves the
    old file intact."""
    label = str(path)
    try:
        if path.is_dir():
            raise InputFileError("is a directory; give a file name to write", source=label)
        if path.exists() and not path.is_file():
            # Replacing a pipe or a device with a regular file would break what the user had.
            raise InputFileError(
                "is not a regular file; deckcheck only replaces regular files", source=label
            )
        if path.exists() and not force:
            raise InputFileError("already exists; add --force to replace it", source=label)
        directory = path.parent if str(path.parent) else Path(".")
        if not directory.is_dir():
            raise InputFileError(f"cannot be written: no directory {directory}", source=label)
    except OSError as exc:
        raise InputFileError(f"cannot be written: {exc.strerror or exc}", source=label) from None
    # Held while the file is written and published: a stop then comes right after, with the
    # file whole or untouched and no temporary file left.
    with signals.held():
        _write_and_publish(path, directory, text, force=force, newline=newline)


def _write_and_publish(
    path: Path, directory: Path, text: str | bytes, *, force: bool, newline: str
) -> None:
    label = str(path)
    try:
        # A short name: the target's own name may already be as long as the system allows.
        fd, tmp = tempfile.mkstemp(prefix=".deckcheck-", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise InputFileError(f"cannot be written: {exc.strerror or exc}", source=label) from None
    try:
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        if not isinstance(text, bytes) and newline not in ("", "\n"):
            data = text.replace("\n", newline).encode("utf-8")
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if path.exists():
            with contextlib.suppress(OSError):
                os.chmod(tmp, path.stat().st_mode & 0o777)
        else:
            with contextlib.suppress(OSError):
                os.chmod(tmp, 0o666 & ~_umask())
        if force:
            os.replace(tmp, path)
        else:
            _link_without_clobbering(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(exc, OSError):
            raise InputFileError(
                f"cannot be written: {exc.strerror or exc}", source=label
            ) from None
        raise


def _link_without_clobbering(tmp: str, path: Path) -> None:
    """Publish ``tmp`` as ``path`` only if ``path`` still does not exist (a file created since
    the check is not replaced)."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise InputFileError(
            "already exists; add --force to replace it", source=str(path)
        ) from None
    except OSError:
        # Hard links unsupported here (some file systems): fall back to a checked rename.
        if path.exists():
            raise InputFileError(
                "already exists; add --force to replace it", source=str(path)
            ) from None
        os.replace(tmp, path)
        return
    os.unlink(tmp)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def backup_file(path: Path) -> Path:
    """Keep the file's current bytes as ``PATH.bak`` (replaced atomically if it exists)."""
    backup = path.with_name(path.name + ".bak")
    directory = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{backup.name}.", suffix=".tmp", dir=directory)
        os.close(fd)
        try:
            shutil.copy2(path, tmp)
            os.replace(tmp, backup)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as exc:
        raise InputFileError(
            f"cannot keep a backup: {exc.strerror or exc}", source=str(path)
        ) from None
    return backup
