"""The whole suite in several pytest processes at once, each on its own share of the test files.

``make test`` runs this file (``python tests/parallel.py -j N [PYTEST ARGS]``) instead of
pytest-xdist. xdist's workers each collect the whole suite (every test module imported, every
test made, three times over with three workers), and each test's start, three reports and end
travel to the process that hands out the tests, one message each, through a thread of its own:
about a millisecond of CPU per test besides the test (docs/performance.md, "The harness").
Here each process is a plain pytest run that collects only its share and prints its own
report; the shares are dealt from each file's measured time (:data:`COSTS`), the longest
first, each to the share with the least so far.

The processes collect, between them, exactly what one run collects: each is given the suite's
own paths (``testpaths``; the package, for its doctests, only where it is dealt) and ignores
(``--ignore``) the files dealt to the others, so collection, its hooks and its order stay
pytest's. A file not in :data:`COSTS` (a new one) is dealt as :data:`UNKNOWN` seconds. The
processes share the run's catalog cache (``conftest.RUN_CACHE``), made and removed here.

``--write-costs`` runs the suite the same way and writes :data:`COSTS` from each file's test
times (``make test-costs``, after tests are added or made faster).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from pathlib import Path

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
COSTS = TESTS / "file-costs.txt"
"""Each collected file's test time in seconds (``SECONDS PATH``, path from the checkout), or
``deckcheck`` for the package's doctests."""
UNKNOWN = 0.5
"""Seconds assumed for a test file that :data:`COSTS` does not list (a helper module: none)."""
PACKAGE = "deckcheck"
MEASURE = "DECKCHECK_TEST_COSTS_OUT"
"""Where a process of ``--write-costs`` writes its files' times (this module as a plugin)."""
RUN_CACHE = "DECKCHECK_TEST_RUN_CACHE"  # conftest.RUN_CACHE (this file runs without pytest)

HEADER = """\
# Seconds of tests per collected file, as tests/parallel.py deals them out to the processes of
# `make test`. Made by `make test-costs` (tests/parallel.py --write-costs); not by hand.
"""


def units() -> list[str]:
    """What a whole run collects from, as paths from the checkout: each module under
    ``tests/`` (a test file, or a helper collected for its doctests) and the package (its
    doctests). Each process collects the units dealt to it, and no other."""
    found = [
        p for p in TESTS.rglob("*.py") if "__pycache__" not in p.parts and p.name != "conftest.py"
    ]
    return [*sorted(p.relative_to(REPO).as_posix() for p in found), PACKAGE]


def read_costs(path: Path = COSTS) -> dict[str, float]:
    """The measured seconds of each file (none where the file is missing)."""
    costs: dict[str, float] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line and not line.startswith("#"):
                seconds, name = line.split(maxsplit=1)
                costs[name] = float(seconds)
    return costs


def deal(names: Sequence[str], costs: Mapping[str, float], parts: int) -> list[list[str]]:
    """``names`` dealt into ``parts`` shares: the costliest first, each to the share with the
    least so far (ties: the share made first). Every name in exactly one share.

    >>> deal(["a", "b", "c", "d"], {"a": 3, "b": 2, "c": 2, "d": 1}, 2)
    [['a', 'd'], ['b', 'c']]
    """

    def cost(name: str) -> float:
        return costs.get(name, UNKNOWN if Path(name).name.startswith("test_") else 0.0)

    shares: list[list[str]] = [[] for _ in range(parts)]
    totals = [0.0] * parts
    for name in sorted(names, key=lambda n: (-cost(n), n)):
        least = totals.index(min(totals))
        shares[least].append(name)
        totals[least] += cost(name)
    return shares


def command(share: Sequence[str], every: Sequence[str], args: Sequence[str]) -> list[str]:
    """The pytest command for one share: the suite's own paths (``testpaths``, the package
    only where it is in the share: a path given is collected whatever is ignored), the other
    shares' files ignored."""
    ignored = [f"--ignore={name}" for name in every if name not in share and name != PACKAGE]
    paths = ["tests", PACKAGE] if PACKAGE in share else ["tests"]
    return [sys.executable, "-m", "pytest", *ignored, *args, *paths]


def run(parts: int, args: Sequence[str], measure: Path | None = None) -> int:
    """Run the shares at once; print each one's report as it ends; the first failure's exit
    code (pytest's 5, no test collected, only where no share ran a test)."""
    every = units()
    shares = [share for share in deal(every, read_costs(), max(1, parts)) if share]
    env = dict(os.environ)
    made = RUN_CACHE not in env
    if made:
        env[RUN_CACHE] = tempfile.mkdtemp(prefix="deckcheck-test-cache-")
    extra: list[str] = []
    if measure is not None:
        env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(TESTS), env.get("PYTHONPATH")]))
        extra = ["-p", "parallel"]
    started = time.monotonic()
    running = []
    codes = []
    with contextlib.ExitStack() as stack:
        if made:
            stack.callback(shutil.rmtree, env[RUN_CACHE], ignore_errors=True)
        for k, share in enumerate(shares):
            out = stack.enter_context(tempfile.TemporaryFile())
            part_env = env if measure is None else {**env, MEASURE: f"{measure}.{k}"}
            proc = subprocess.Popen(
                command(share, every, [*extra, *args]),
                cwd=REPO,
                env=part_env,
                stdout=out,
                stderr=subprocess.STDOUT,
            )
            stack.callback(proc.kill)  # an interrupted run leaves no process behind
            running.append((k, proc, out))
        while running:
            ended = [entry for entry in running if entry[1].poll() is not None]
            if not ended:
                time.sleep(0.05)
            for entry in ended:
                k, proc, out = entry
                running.remove(entry)
                out.seek(0)
                print(f"== part {k + 1} of {len(shares)} ({len(shares[k])} files) ==", flush=True)
                shutil.copyfileobj(out, sys.stdout.buffer)
                sys.stdout.buffer.flush()
                codes.append(proc.returncode)
    failed = [code for code in codes if code not in (0, 5)]
    code = failed[0] if failed else 0 if 0 in codes else 5
    print(f"== {len(shares)} processes, {time.monotonic() - started:.1f} s, exit code {code} ==")
    return code


def write_costs(parts: int, args: Sequence[str]) -> int:
    """Run the suite with each file's test time measured; write :data:`COSTS` (on a quiet
    machine: a loaded one stretches each file's time by how much it computes, not by how
    long it waits)."""
    with tempfile.TemporaryDirectory() as folder:
        measure = Path(folder) / "costs"
        code = run(parts, args, measure)
        if code:
            return code
        spent: dict[str, float] = {}
        for path in Path(folder).glob("costs.*"):
            for name, seconds in json.loads(path.read_text(encoding="utf-8")).items():
                spent[name] = spent.get(name, 0.0) + seconds
    known = set(units())  # a file that ran nothing (deselected) keeps its time
    kept = {name: s for name, s in read_costs().items() if name in known and name not in spent}
    lines = [f"{seconds:.2f} {name}" for name, seconds in sorted({**kept, **spent}.items())]
    COSTS.write_text(HEADER + "\n".join(lines) + "\n", encoding="utf-8")
    return 0


# --- the plugin of --write-costs (``-p parallel`` in its processes) ---------------------------

_SPENT: dict[str, float] = {}


def pytest_runtest_logreport(report: object) -> None:
    """Each test's setup, call and teardown, added to its file's time."""
    path = str(getattr(report, "nodeid", "")).split("::")[0]
    name = PACKAGE if path.startswith(f"{PACKAGE}/") else path
    _SPENT[name] = _SPENT.get(name, 0.0) + float(getattr(report, "duration", 0.0))


def pytest_unconfigure(config: object) -> None:
    """This process's files' times, where ``--write-costs`` asked for them."""
    if out := os.environ.get(MEASURE):
        Path(out).write_text(json.dumps(_SPENT), encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    """``parallel.py [-j N] [--write-costs] [PYTEST ARGS...]``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--write-costs", action="store_true")
    known, rest = parser.parse_known_args(argv)
    if known.write_costs:
        return write_costs(known.jobs, rest)
    return run(known.jobs, rest)


if __name__ == "__main__":
    sys.exit(main())
