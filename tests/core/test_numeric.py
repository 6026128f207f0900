"""numpy is loaded with its linear-algebra library on one thread, without touching the
environment a user or a child process sees."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, WATCHDOG

pytest.importorskip("numpy")

_PROBE = """
import os, sys
import deckcheck.draws.simulate.vectorised  # the simulator, as a query loads it
from deckcheck.core.numeric import THREAD_VARIABLES, np
a = np.ones((64, 64))
for _ in range(50):
    a = (a @ a) / 64.0  # a float product: the BLAS library's own threads would start here
threads = len(os.listdir("/proc/self/task"))
print(threads, *(os.environ.get(name, "-") for name in THREAD_VARIABLES))
"""


def _probe(env: dict[str, str]) -> list[str]:
    clean = {k: v for k, v in os.environ.items() if not k.endswith("_NUM_THREADS")}
    done = subprocess.run(
        [sys.executable, "-c", _PROBE],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**clean, **env},
        timeout=WATCHDOG,
        check=True,
    )
    return done.stdout.split()


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="threads counted through /proc")
def test_one_thread_and_the_environment_left_as_it_was() -> None:
    threads, *variables = _probe({})
    assert threads == "1"  # the main thread alone, after float matrix products
    assert variables == ["-", "-"]  # nothing set for child processes


def test_a_users_own_setting_wins() -> None:
    _, openblas, mkl = _probe({"OPENBLAS_NUM_THREADS": "2"})
    assert (openblas, mkl) == ("2", "-")
