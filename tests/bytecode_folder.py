"""The suite's private folder for compiled modules, where ``PYTHONDONTWRITEBYTECODE`` is set.

The suite starts deckcheck in a hundred child processes and each xdist worker imports every
test module: without bytecode, each of them would compile the whole package from source again.
The checkout stays as clean as its owner asked: the bytecode goes to one folder of this user
under the temporary directory, shared by the workers, their children and later runs. A folder
that is not this user's alone is not used (someone else's bytecode would run as ours).

The conftest points its process and its children at the folder; pytest's own process has
imported pytest, xdist and their plugins by then, compiled from source. ``make test`` runs this
file first: it prints the environment that sends that process's bytecode there too
(``PYTHONPYCACHEPREFIX=FOLDER PYTHONDONTWRITEBYTECODE=``), or nothing where bytecode is written
as usual or the folder cannot be used.
"""

from __future__ import annotations

import os
import stat
import sys
import tempfile
from pathlib import Path


def private_folder() -> Path | None:
    """The folder (made where missing), or None where it is not this user's alone."""
    uid = os.getuid() if hasattr(os, "getuid") else None
    folder = (
        Path(tempfile.gettempdir()) / f"deckcheck-test-bytecode-{'user' if uid is None else uid}"
    )
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        status = folder.lstat()
    except OSError:
        return None
    if not stat.S_ISDIR(status.st_mode) or status.st_mode & 0o022:
        return None
    if uid is not None and status.st_uid != uid:
        return None
    return folder


def wanted() -> bool:
    """Whether bytecode is kept from the usual ``__pycache__`` folders."""
    return bool(sys.dont_write_bytecode or os.environ.get("PYTHONDONTWRITEBYTECODE"))


if __name__ == "__main__":
    folder = private_folder() if wanted() else None
    if folder is not None and str(folder).isprintable() and " " not in str(folder):
        print(f"PYTHONPYCACHEPREFIX={folder} PYTHONDONTWRITEBYTECODE=")
