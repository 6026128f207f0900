"""Writing the user's files so that nothing they had is lost, in one place for every command
that writes (``new``, ``add``, ``remove``, ``fix --write`` and ``-o``, ``export -o``).

- A file is replaced atomically: the new bytes go to a temporary file beside it
  (``.deckcheck-XXXXXXXX.tmp``), synced, then renamed over it; a stop at any moment leaves the
  old bytes or the new ones. Temporary files a killed run left behind are removed by the next
  write in that folder once they are a minute old (:func:`remove_stale_temporaries`).
- A file is never replaced without ``force`` (the editors replace the file they edit).
- An edit (:func:`editing`) is a read-modify-write under an advisory lock on the file, so two
  deckcheck processes editing one deck at once take turns and no edit is lost.
- A symbolic link is written through: its target gets the new bytes, the link stays.
- A file the caller may not write (read-only, or another user's) is refused, never replaced
  by the caller's own file; a file that is replaced keeps its owner, group and mode.
- A name ending in ``/`` names a folder, and a folder, pipe or device is never replaced.
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from deckcheck.core import signals
from deckcheck.core.errors import InputFileError
from deckcheck.core.inputs import (
    MAX_INPUT_BYTES,
    check_readable_file,
    names_a_folder,
    read_bytes,
)

TEMP_PREFIX = ".deckcheck-"
TEMP_SUFFIX = ".tmp"
# mkstemp's eight characters; a short name, since the target's own may be as long as allowed.
_TEMP_NAME = re.compile(r"\.deckcheck-[a-z0-9_]{8}\.tmp")

STALE_AFTER = 60.0
"""Seconds after which a temporary file of deckcheck's is taken for one a killed run left:
a write takes milliseconds, and a live one keeps touching its file."""

LOCK_WAIT = 120.0
"""Seconds an edit waits for another deckcheck process editing the same file (each holds
the lock for the fraction of a second its edit takes)."""


def write_atomically(
    path: str | Path, text: str | bytes, *, force: bool = False, newline: str = ""
) -> None:
    """Write ``text`` (UTF-8; bytes as they are) to ``path``; an interrupted write leaves the
    old file intact. An existing file is replaced only with ``force`` (through a symbolic link,
    keeping its owner, group and mode, and never when the caller may not write it)."""
    label = str(path)
    if names_a_folder(label):
        raise InputFileError(
            "ends in '/', which names a folder; give a file name to write", source=label
        )
    path = Path(path)
    keep: os.stat_result | None = None
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
        if path.exists():
            path = _through_links(path)
            keep = path.stat()
            _check_replaceable(path, keep, label)
        directory = path.parent if str(path.parent) else Path(".")
        if not directory.is_dir():
            raise InputFileError(f"cannot be written: no directory {directory}", source=label)
    except OSError as exc:
        raise InputFileError(f"cannot be written: {exc.strerror or exc}", source=label) from None
    data = text if isinstance(text, bytes) else text.encode("utf-8")
    if not isinstance(text, bytes) and newline not in ("", "\n"):
        data = text.replace("\n", newline).encode("utf-8")
    remove_stale_temporaries(directory)
    _publish(path, data, keep, label, force=force)


def read_now(path: str | Path) -> bytes | None:
    """The file's bytes now, or None when it cannot be read (its loader then says why): taken
    before a deck is loaded for a long computation, so that ``--write`` replaces it only if it
    still holds them (:meth:`Editing.unchanged_since`)."""
    try:
        return read_bytes(path)
    except InputFileError:
        return None


def backup_file(path: Path) -> Path:
    """Keep the file's current bytes as ``PATH.bak`` (replaced atomically if it exists), with
    its owner, group and mode. (Under a lock, :meth:`Editing.backup` keeps the bytes read.)"""
    with editing(path) as held:
        return held.backup()


class Editing:
    """A file held for a read-modify-write (see :func:`editing`): its bytes as read under the
    lock, and the ways to replace it or keep a copy of them."""

    def __init__(self, path: Path, target: Path, data: bytes, held: os.stat_result) -> None:
        self.path = path  # as the user named it (a link stays a link)
        self.target = target  # the file itself
        self.data = data
        self._held = held
        self.label = str(path)

    def replace(self, data: bytes) -> None:
        """Replace the file with ``data`` atomically (owner, group and mode kept)."""
        try:
            now = os.stat(self.target)
        except OSError:
            now = None
        if now is None or _identity(now) != _identity(self._held):
            # Another program (not deckcheck, which takes the lock) wrote it meanwhile.
            raise InputFileError(
                "changed while deckcheck was editing it; nothing was written: run the "
                "command again",
                source=self.label,
            )
        _publish(self.target, data, self._held, self.label, force=True)

    def unchanged_since(self, read_before: bytes | None) -> None:
        """Refuse (nothing written) when the file no longer holds ``read_before``, the bytes
        an answer was computed from (:func:`read_now`)."""
        if self.data != read_before:
            raise InputFileError(
                "changed since it was read for this answer (another program wrote it); "
                "nothing was written: run the command again",
                source=self.label,
            )

    def backup(self, suffix: str = ".bak") -> Path:
        """Keep the bytes read as ``PATH`` + ``suffix`` beside the name the user gave (replaced
        atomically if it exists), with the file's owner, group and mode."""
        copy = self.path.with_name(self.path.name + suffix)
        try:
            if copy.is_dir() or (copy.exists() and not copy.is_file()):
                raise InputFileError(
                    f"cannot keep a backup: {copy} is not a regular file", source=self.label
                )
            _publish(copy, self.data, self._held, self.label, force=True, strict=False)
        except InputFileError as exc:
            message = exc.message
            if not message.startswith("cannot keep a backup"):
                message = "cannot keep a backup: " + message.removeprefix("cannot be written: ")
            raise InputFileError(message, source=self.label) from None
        except OSError as exc:
            raise InputFileError(
                f"cannot keep a backup: {exc.strerror or exc}", source=self.label
            ) from None
        return copy


@contextlib.contextmanager
def editing(path: str | Path) -> Iterator[Editing]:
    """Hold the file ``path`` for a read-modify-write: locked against other deckcheck
    processes editing it (an advisory lock, waited for up to :data:`LOCK_WAIT`), read, and
    checked to be a regular file the caller may replace. A symbolic link is followed: the
    target is edited, the link stays. The block calls :meth:`Editing.replace`, or leaves the
    file untouched by not calling it (raising, for instance)."""
    label = str(path)
    named = Path(path)
    for _ in range(100):
        try:
            check_readable_file(named, label)
            target = _through_links(named)
            fd = os.open(target, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC)
        except OSError as exc:
            raise InputFileError(f"cannot be read: {exc.strerror or exc}", source=label) from None
        try:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                raise InputFileError("is not a regular file", source=label)
            _lock(fd, label)
            held = os.fstat(fd)
            try:
                now = os.stat(target)
            except OSError:
                now = None
            if now is None or _identity(now)[:2] != _identity(held)[:2]:
                continue  # replaced while we waited: the next turn locks the file there now
            _check_replaceable(target, held, label)
            data = _read_all(fd, label)
            remove_stale_temporaries(target.parent)
            yield Editing(named, target, data, held)
            return
        finally:
            os.close(fd)  # and with it the lock
    raise InputFileError("keeps being replaced by another program; try again", source=label)


def remove_stale_temporaries(directory: Path) -> None:
    """Remove the temporary files of deckcheck's own name pattern in ``directory`` that are
    older than :data:`STALE_AFTER` (a killed run's; the caller's own files only). Best effort:
    anything unreadable is left alone."""
    me = _uid()
    cutoff = time.time() - STALE_AFTER
    try:
        entries = os.scandir(directory)
    except OSError:
        return
    with entries:
        for entry in entries:
            if not _TEMP_NAME.fullmatch(entry.name):
                continue
            try:
                found = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            mine = me is None or me == 0 or found.st_uid == me
            if stat.S_ISREG(found.st_mode) and mine and found.st_mtime < cutoff:
                with contextlib.suppress(OSError):
                    os.unlink(entry.path)


_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def _identity(st: os.stat_result) -> tuple[int, int, int, int]:
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


def _uid() -> int | None:
    geteuid = getattr(os, "geteuid", None)
    return geteuid() if geteuid is not None else None


def _through_links(path: Path) -> Path:
    """The file a symbolic link (or a chain of them) leads to; another path as it is."""
    return Path(os.path.realpath(path)) if path.is_symlink() else path


def _check_replaceable(target: Path, held: os.stat_result, label: str) -> None:
    """Refuse a file the caller may not write, and one whose owner a rewrite would change."""
    me = _uid()
    # The superuser may write anything: a file nobody may write was made read-only on
    # purpose, and stays so.
    writable = bool(held.st_mode & 0o222) if me == 0 else os.access(target, os.W_OK)
    if not writable:
        raise InputFileError(
            "is read-only: deckcheck replaces only files you may write (make it writable "
            "first, e.g. chmod u+w)",
            source=label,
        )
    if me not in (None, 0) and held.st_uid != me:
        # A rename would give the file to the caller: the owner would lose their own file.
        raise InputFileError(
            "belongs to another user; rewriting it would make it yours, so deckcheck leaves "
            "it alone (edit it as its owner)",
            source=label,
        )


def _lock(fd: int, label: str) -> None:
    """Take the advisory lock on the open file, waiting while another process holds it; where
    the system or file system has no locks, go on (a change is still noticed before the
    rename)."""
    try:
        import fcntl
    except ImportError:
        return
    deadline = time.monotonic() + LOCK_WAIT
    pause = 0.005
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return
        except BlockingIOError:
            if time.monotonic() > deadline:
                raise InputFileError(
                    "is being edited by another deckcheck process; try again", source=label
                ) from None
            time.sleep(pause)
            pause = min(pause * 2, 0.05)
        except OSError:
            return  # no locks here (some network file systems)


def _read_all(fd: int, label: str) -> bytes:
    chunks: list[bytes] = []
    size = 0
    while True:
        try:
            chunk = os.read(fd, 1 << 20)
        except OSError as exc:
            raise InputFileError(f"cannot be read: {exc.strerror or exc}", source=label) from None
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        size += len(chunk)
        if size > MAX_INPUT_BYTES:
            raise InputFileError(
                f"is more than {MAX_INPUT_BYTES:,} bytes; deckcheck reads no larger file",
                source=label,
            )


def _publish(
    path: Path,
    data: bytes,
    keep: os.stat_result | None,
    label: str,
    *,
    force: bool,
    strict: bool = True,
) -> None:
    """Write ``data`` to a temporary file beside ``path`` and publish it there (``force``:
    replacing what is there), the owner, group and mode of ``keep`` given to it first. Held
    against stopping signals: a stop comes right after, with the file whole or untouched and
    no temporary file left."""
    directory = path.parent if str(path.parent) else Path(".")
    with signals.held():
        try:
            fd, tmp = tempfile.mkstemp(prefix=TEMP_PREFIX, suffix=TEMP_SUFFIX, dir=directory)
        except OSError as exc:
            raise InputFileError(
                f"cannot be written: {exc.strerror or exc}", source=label
            ) from None
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                if keep is not None:
                    _keep_owner(handle.fileno(), keep, label, strict)
                os.fsync(handle.fileno())
            # After the owner: changing it clears the set-id bits of the mode.
            mode = (keep.st_mode & 0o7777) if keep is not None else (0o666 & ~_umask())
            with contextlib.suppress(OSError):
                os.chmod(tmp, mode)
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


def _keep_owner(fd: int, keep: os.stat_result, label: str, strict: bool) -> None:
    fchown = getattr(os, "fchown", None)
    now = os.fstat(fd)
    if fchown is None or (now.st_uid, now.st_gid) == (keep.st_uid, keep.st_gid):
        return
    try:
        fchown(fd, keep.st_uid, keep.st_gid)
    except OSError:
        if strict:
            raise InputFileError(
                "cannot be replaced keeping its owner and group; nothing was written",
                source=label,
            ) from None


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
