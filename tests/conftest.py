"""Shared helpers and fixtures for the test suite.

Helpers are plain functions, imported by the test modules (``from conftest import run_cli``):

- :func:`run_cli` runs ``deckcheck ARGS`` in process; :func:`run_json` also parses its JSON;
- :func:`run_module` runs ``python -m deckcheck ARGS`` in a child process under a watchdog
  whose only job is to turn a hang into a failure (no test asserts on wall-clock time);
- :func:`fold` and :func:`catalog_path` serve the data tests that check the bundled TOML
  without deckcheck's own code.

The suite runs in parallel (pytest-xdist, ``make test``): every test writes only under its own
``tmp_path``, and :func:`_private_catalog_cache` gives each run its own catalog cache, from
before collection (test modules read the catalogs to build their parameters), so no test reads
or writes the user's ``~/.cache/deckcheck``.

Markers show what a test costs, set here at collection (:func:`pytest_collection_modifyitems`)
from what the test's code calls: ``process`` (it starts a process: ``python -m deckcheck``,
another program), ``tui`` (it drives the terminal app), ``hypothesis``
(a property-based search), and ``slow`` (listed in :data:`SLOW`: it takes a tenth of a second
or more by itself, as measured).
``make test-fast`` leaves all four out. A test that starts a process without its marker fails
(:func:`_processes_only_where_marked`), so the marker cannot fall behind the code.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import importlib.util
import inspect
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, FrameType, ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

import bytecode_folder
import pytest

if TYPE_CHECKING:
    from typer.testing import Result

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
EXAMPLES = REPO / "examples"
PACKAGE = REPO / "deckcheck"

T = TypeVar("T")

WATCHDOG = 60.0
"""Seconds a child process may run before the test fails as a hang (never a speed limit)."""


def _private_bytecode_cache() -> None:
    """Cache compiled modules in the suite's private folder where PYTHONDONTWRITEBYTECODE is
    set (:mod:`bytecode_folder`): this process from here on, and the processes it starts."""
    if not bytecode_folder.wanted() or (folder := bytecode_folder.private_folder()) is None:
        return
    sys.pycache_prefix = str(folder)
    sys.dont_write_bytecode = False
    os.environ["PYTHONPYCACHEPREFIX"] = str(folder)
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)


_private_bytecode_cache()


# The shell running the tests must not leak into the output under test (xdist's workers even
# get COLUMNS=80, which rich reads once, when deckcheck's consoles are made): tests that care
# about width or colour set these for themselves.
for _variable in ("COLUMNS", "LINES", "NO_COLOR", "FORCE_COLOR", "TERM", "PYTHONIOENCODING"):
    os.environ.pop(_variable, None)


def _consoles_made_now() -> None:
    """deckcheck's consoles made in this clean environment, once, as a process makes them
    (on first use): else the first test to print would make them with its own COLUMNS or
    FORCE_COLOR, for every later test in the process."""
    from deckcheck.cli import render

    render.stdout()
    render.stderr()


RUN_CACHE = "DECKCHECK_TEST_RUN_CACHE"
"""The environment variable naming this run's catalog cache: set by the process that starts the
run, inherited by its xdist workers and their children."""


def _private_catalog_cache() -> bool:
    """One catalog cache for this run (shared by its workers; writes are atomic), never the
    user's: set as soon as this file is imported, before any test module reads a catalog, for
    in-process runs and child processes alike. True where it was made here (not inherited):
    :func:`pytest_unconfigure` then removes it."""
    made = not os.environ.get(RUN_CACHE)
    if made:
        os.environ[RUN_CACHE] = tempfile.mkdtemp(prefix="deckcheck-test-cache-")
    os.environ["DECKCHECK_CACHE"] = os.environ[RUN_CACHE]
    return made


_OWN_RUN_CACHE = _private_catalog_cache()


@pytest.hookimpl(tryfirst=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    """The run's catalog cache goes with the run (the process that made it removes it).

    And one of the cycle collector's last two passes saved: pytest collects twice as a process
    ends (to report what finalizers raise), each pass walking every object the tests left alive
    (catalogs, cached answers). One pass here collects what is garbage, finalizers and their
    reports included; the survivors are then set aside (``gc.freeze``), and pytest's passes
    find only what those finalizers left."""
    if _runs_tests(config):
        gc.collect()
        gc.freeze()
    if _OWN_RUN_CACHE:
        shutil.rmtree(os.environ.pop(RUN_CACHE, ""), ignore_errors=True)


# Property tests: a quick profile for every run, a thorough one on demand. No example database:
# it would be written into the checkout (.hypothesis/); a failure prints its example instead
# (and hypothesis's other files, a cache of constants, go to the temporary folder).
os.environ.setdefault(
    "HYPOTHESIS_STORAGE_DIRECTORY",
    str(Path(tempfile.gettempdir()) / f"deckcheck-test-hypothesis-{getattr(os, 'getuid', str)()}"),
)


def _hypothesis_profiles() -> None:
    """Imported here, after :func:`_private_bytecode_cache`: hypothesis's modules are compiled
    into the suite's bytecode folder, not again by every process."""
    from hypothesis import settings

    settings.register_profile("deckcheck", max_examples=100, deadline=None, database=None)
    settings.register_profile("thorough", max_examples=1000, deadline=None, database=None)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deckcheck"))


def _runs_tests(config: pytest.Config) -> bool:
    """Whether this process runs tests: not the one that hands them to xdist's workers (it
    needs neither deckcheck's consoles nor hypothesis)."""
    return hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None)


# --- markers: what a test costs ------------------------------------------------------------

PROCESS_NAMES = frozenset(
    {
        "run_module",
        "subprocess",
        "Popen",
        "executable",
        "system",
        "fork",
        "forkpty",
        "pty",
    }
)
"""Names whose use in a test's code (or in a function or fixture of its module it calls) means
that it starts a process."""
TUI_NAMES = frozenset({"run_test", "pilot"})
"""Names whose use means that a test drives the terminal app (Textual's pilot)."""
PROCESS_EVENTS = frozenset(
    {"subprocess.Popen", "os.fork", "os.forkpty", "os.posix_spawn", "os.spawn", "os.system"}
)
"""Audit events (:func:`sys.addaudithook`) of a new process."""


SLOW = frozenset(
    line
    for line in (TESTS / "slow-tests.txt").read_text(encoding="utf-8").splitlines()
    if line and not line.startswith("#")
)
"""Tests that take about a tenth of a second or more each (``file::function`` under ``tests/``),
marked ``slow``: listed in ``tests/slow-tests.txt``, which ``make slow-tests`` remakes from a
whole run's own ``--durations=0`` figures (0.15 s or more with two workers)."""


@functools.cache
def _names(code: CodeType) -> frozenset[str]:
    """Every global, attribute and keyword name ``code`` uses, nested functions and lambdas
    included."""
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, CodeType):
            names |= _names(const)
        elif isinstance(const, tuple):  # the keywords of a call
            names |= {name for name in const if isinstance(name, str)}
    return frozenset(names)


@functools.cache
def _uses(function: Any, module: ModuleType | None) -> frozenset[str]:
    """The names ``function`` uses, and those of the functions and fixtures of its module (or
    of this file) that it uses in turn."""
    names: set[str] = set()
    seen: set[CodeType] = set()
    todo = [(function, module)]
    while todo:
        function, module = todo.pop()
        code = getattr(inspect.unwrap(function), "__code__", None)
        if code is None or code in seen:
            continue
        seen.add(code)
        used = _names(code)
        names |= used
        for home in (module, sys.modules[__name__]):
            own = _functions(home)
            todo += [(own[name], _home(own[name], home)) for name in used if name in own]
    return frozenset(names)


def _home(function: Any, default: ModuleType | None) -> ModuleType | None:
    """The module that defines ``function`` (a helper module of the suite, where a test module
    imported it from one), else ``default``."""
    return sys.modules.get(getattr(function, "__module__", ""), default)


@functools.cache  # asked for every callable every test module holds
def _suite_module(name: str | None) -> bool:
    """Whether the module named ``name`` is one of the suite's own files (a helper module such
    as ``tests/tui/build_pilot.py``), not deckcheck's or a library's."""
    path = getattr(sys.modules.get(name or ""), "__file__", None)
    return path is not None and Path(path).resolve().is_relative_to(TESTS)


@functools.cache
def _functions(module: ModuleType | None) -> dict[str, Any]:
    """The functions (and fixtures) defined in ``module``, or imported by it from a helper
    module of the suite (a test that drives the app through a helper is marked too), by
    name."""
    own = getattr(module, "__name__", None)
    return {
        name: value
        for name, value in vars(module or object).items()
        if callable(value)
        and (
            getattr(value, "__module__", None) == own
            or _suite_module(getattr(value, "__module__", None))
        )
    }


def pytest_configure(config: pytest.Config) -> None:
    """The markers of cost (see the module's docstring); the package's modules collected for
    their doctests only where they have one (:class:`_DoctestModulesOnly`); in a process that
    runs tests, before any test module is imported, the consoles and hypothesis's profiles (an
    xdist worker loads the profiles as its collection starts: :func:`pytest_collection`)."""
    if _runs_tests(config):
        _consoles_made_now()
        if _worker_share() is None:
            _hypothesis_profiles()  # else as the worker's collection starts (pytest_collection)
    for line in (
        "process: starts a process (python -m deckcheck, another program)",
        "tui: drives the terminal app (Textual's pilot)",
        "hypothesis: a property-based search",
        "slow: a tenth of a second or more by itself (listed in tests/slow-tests.txt)",
    ):
        config.addinivalue_line("markers", line)
    config.pluginmanager.register(_DoctestModulesOnly(), "deckcheck-doctest-modules-only")


class _DoctestModulesOnly:
    """``--doctest-modules`` imports every module of the package to look for examples, in every
    xdist worker: Textual, numpy and scipy with them (most of a second of CPU a worker), for the
    few modules that hold one. A module without ``>>>`` holds no doctest: it is not collected,
    and the collected tests are the same. (A plugin, not this file's hook: a conftest's hooks
    only see the paths under its folder.)"""

    @staticmethod
    def pytest_ignore_collect(collection_path: Path) -> bool | None:
        if collection_path.suffix != ".py" or not collection_path.is_relative_to(PACKAGE):
            return None
        return ">>>" not in collection_path.read_text(encoding="utf-8") or None


def _test_modules(config: pytest.Config) -> list[Path]:
    """The suite's test files this run collects (its arguments' ``test_*.py``, ignored paths
    left out), in the order in which pytest collects them. Files under a folder with a
    conftest of its own are left out: pytest loads that conftest before their import."""
    patterns = config.getini("python_files")
    found: list[Path] = []

    def walk(path: Path) -> None:
        if path.is_dir():
            if path != TESTS and (path / "conftest.py").exists():
                return
            if not config.hook.pytest_ignore_collect(collection_path=path, config=config):
                for entry in sorted(path.iterdir(), key=lambda p: p.name):
                    walk(entry)
        elif (
            path.suffix == ".py"
            and path.is_file()
            and any(map(path.match, patterns))
            and not config.hook.pytest_ignore_collect(collection_path=path, config=config)
        ):
            found.append(path)

    for arg in config.args:
        path = (config.invocation_params.dir / arg.split("::")[0]).resolve()
        if path.is_relative_to(TESTS) and not any(
            (folder / "conftest.py").exists()
            for folder in path.parents
            if folder != TESTS and folder.is_relative_to(TESTS)
        ):
            walk(path)
    return found


def _worker_share() -> tuple[int, int] | None:
    """This xdist worker's number and the number of workers, where there are several."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "").removeprefix("gw")
    count = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    return (int(worker) % count, count) if count > 1 and worker.isdigit() else None


def pytest_collection(session: pytest.Session) -> None:
    """Each xdist worker imports the test modules in its own order before collecting them.

    The workers start together and each imports every test module; from a fresh clone each
    would rewrite the asserts of all of them (pytest's assertion rewriting, most of a cold
    collection's CPU) and compile what they import, the same modules at the same moment. Worker
    *k* of *n* starts at the *k*-th *n*-th of the list and goes round: each rewrites about its
    own share, and by the time it reaches the others' share it finds their rewritten modules
    cached (pytest's cache of rewritten modules and Python's bytecode are written atomically).
    Hypothesis (a large package to compile) comes first in the list, so that the first
    worker imports it at once; the others import it, and load its profiles, just before the
    first test module that names it. Likewise the second worker starts with
    ``scipy.optimize`` where a test module imports it (some 200 modules to compile, which two
    or three workers used to compile at once). The modules are the same and collection then
    imports them from ``sys.modules``: the collected tests are the same. A module that fails to
    import here is imported again by collection, which reports the error as it always does.
    """
    share = _worker_share()
    if share is None:
        return
    modules: list[Path | None] = [None, *_test_modules(session.config)]  # None: hypothesis
    start = len(modules) * share[0] // share[1]
    if share[0] == 1 and any(
        "import scipy" in path.read_text(encoding="utf-8") for path in modules if path
    ):
        with contextlib.suppress(ImportError):
            importlib.import_module("scipy.optimize")
    profiles = False
    for path in modules[start:] + modules[:start]:
        if not profiles and (
            path is None
            or "hypothesis" in sys.modules  # imported by something else: loaded, so at once
            or "hypothesis" in path.read_text(encoding="utf-8")
        ):
            _hypothesis_profiles()
            profiles = True
        if path is None:
            continue
        folder = str(path.parent)
        if sys.path[0] != folder:  # as pytest's default import mode ("prepend") does
            sys.path.insert(0, folder)
        with contextlib.suppress(Exception, pytest.skip.Exception):
            importlib.import_module(path.stem)


def pytest_collection_finish(session: pytest.Session) -> None:
    """The cycle collector told what the run holds from here on: every worker keeps thousands
    of collected items, loaded modules and cached catalogs alive to the end, and the collector's
    full passes would walk them again and again (a tenth of the suite's CPU). Passes come less
    often (a few full ones a worker); cycles the tests make are still collected.

    They are not set aside (``gc.freeze``): ``odds`` run in process asks how many objects are
    set aside (``cli/app.py``), and the interpreter counts them one by one, some 200,000 after
    collection, for each of the few hundred in-process runs of ``odds``: more than the few full
    passes that now walk them too (docs/performance.md, "The test suite")."""
    gc.collect()
    gc.set_threshold(50_000, 20, 20)


@functools.cache
def _under_tests(path: Path) -> str:
    """A test file's path under ``tests/``, as :data:`SLOW` names it."""
    return path.relative_to(TESTS).as_posix()


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with what it costs (see the module's docstring); with several xdist
    workers, each worker's share of the list starts with its slow modules
    (:func:`_slow_modules_first`)."""
    tests: dict[Path, int] = {}
    slow: dict[Path, int] = {}
    for item in items:
        tests[item.path] = tests.get(item.path, 0) + 1
        function = getattr(item, "function", None)
        if function is None:
            continue  # a doctest
        module = getattr(item, "module", None)
        where = _under_tests(item.path)
        if f"{where}::{getattr(item, 'originalname', item.name)}" in SLOW:
            item.add_marker(pytest.mark.slow)
            slow[item.path] = slow.get(item.path, 0) + 1
        names = set(_uses(function, module))
        for fixture in getattr(item, "fixturenames", ()):
            for home in (module, sys.modules[__name__]):
                if fixture in _functions(home):
                    names |= _uses(_functions(home)[fixture], home)
        if names & PROCESS_NAMES:
            item.add_marker(pytest.mark.process)
        if names & TUI_NAMES:
            item.add_marker(pytest.mark.tui)
        if getattr(function, "is_hypothesis_test", False):
            item.add_marker(pytest.mark.hypothesis)
    share = _worker_share()
    if share is not None:
        _slow_modules_first(
            items, {path: slow.get(path, 0) / n for path, n in tests.items()}, share[1]
        )


def _slow_modules_first(items: list[pytest.Item], slow: Mapping[Path, float], workers: int) -> None:
    """In each worker's first share of the list, the modules in decreasing share of slow
    tests, each whole and in its own order; those without a slow test as collected. The same
    tests in every worker, in the same order (xdist checks), only in another order.

    xdist's ``worksteal`` gives each worker an equal run of the list (by count: the shares
    below), and a worker that runs out takes the last half of the longest queue: what runs last
    is the end of those runs. In the collected order the third run ended with the terminal
    app's tests, a test of a few seconds running alone after the other workers had finished.
    Slow modules first within each run, every run ends with quick tests, and each worker keeps
    its share of the work; a module stays whole within a share, so that its fixtures are set up
    once (docs/performance.md, "The harness")."""
    start = 0
    for part in range(workers):
        end = start + (len(items) - start) // (workers - part)  # as xdist deals them out
        items[start:end] = sorted(items[start:end], key=lambda item: -slow[item.path])
        start = end


_RUNNING: list[pytest.Item] = []


def _audit(event: str, args: tuple[object, ...]) -> None:
    if event in PROCESS_EVENTS and _RUNNING and _RUNNING[-1].get_closest_marker("process") is None:
        raise RuntimeError(
            f"{_RUNNING[-1].nodeid} starts a process ({event}) without the process marker: "
            "name what starts it in tests/conftest.py's PROCESS_NAMES"
        )


sys.addaudithook(_audit)


@pytest.fixture(autouse=True)
def _processes_only_where_marked(request: pytest.FixtureRequest) -> Iterator[None]:
    """A test starts a process only if it carries the ``process`` marker."""
    _RUNNING.append(request.node)
    try:
        yield
    finally:
        _RUNNING.pop()


@functools.cache
def _command() -> Any:
    """The command behind deckcheck's app, built once: typer's ``CliRunner.invoke`` builds it
    anew on every call, which is most of the cost of an in-process run."""
    import typer.main

    from deckcheck.cli.app import app

    return typer.main.get_command(app)


def invoke(
    args: Sequence[str | Path],
    stdin: str | bytes | None = None,
    *,
    env: Mapping[str, str | None] | None = None,
) -> Result:
    """``CliRunner().invoke(app, ARGS)`` with the command built once: the same isolation (its
    public ``isolation``), the same result, exceptions caught into ``result.exception``."""
    from typer.testing import CliRunner, Result

    runner = CliRunner()
    exception: BaseException | None = None
    exc_info: Any = None
    code = 0
    with runner.isolation(input=stdin, env=env) as streams:
        try:
            _command().main(args=[str(a) for a in args], prog_name="deckcheck")
        except SystemExit as exit_:
            code = exit_.code if isinstance(exit_.code, int) else 0 if exit_.code is None else 1
            if code:
                exception, exc_info = exit_, sys.exc_info()
        except Exception as error:
            exception, exc_info, code = error, sys.exc_info(), 1
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            stdout, stderr, output = (stream.getvalue() for stream in streams)
    return Result(
        runner=runner,
        stdout_bytes=stdout,
        stderr_bytes=stderr,
        output_bytes=output,
        return_value=None,
        exit_code=code,
        exception=exception,
        exc_info=exc_info,
    )


def run_cli(
    args: Sequence[str | Path],
    stdin: str | bytes | None = None,
    *,
    env: Mapping[str, str | None] | None = None,
) -> Result:
    """Run ``deckcheck ARGS`` in process; the result has ``exit_code``, ``stdout``, ``stderr``
    and ``exception``. Fails the test on a traceback or any exception but ``SystemExit``."""
    result = invoke(args, stdin, env=env)
    assert result.exception is None or isinstance(result.exception, SystemExit), (
        f"deckcheck {' '.join(map(str, args))[:200]} raised {result.exception!r}\n{result.output}"
    )
    assert "Traceback" not in result.stdout + result.stderr, result.output
    return result


def run_json(args: Sequence[str | Path], code: int = 0) -> Any:
    """Run ``deckcheck ARGS`` in process, expect exit ``code`` and return its parsed JSON."""
    result = run_cli(args)
    assert result.exit_code == code, (result.exit_code, result.output)
    return json.loads(result.stdout)


@dataclass(frozen=True)
class Finished:
    """What a child process printed (decoded as UTF-8, replacing what is not) and returned."""

    code: int
    stdout: str
    stderr: str

    @property
    def text(self) -> str:
        return self.stdout + "\n" + self.stderr


def run_module(
    args: Sequence[str | Path],
    stdin: bytes | None = None,
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path = REPO,
    executable: Sequence[str] | None = None,
) -> Finished:
    """Run ``python -m deckcheck ARGS`` (or ``executable ARGS``) in a child process.

    Standard output is UTF-8 unless ``env`` says otherwise. A run outliving :data:`WATCHDOG`
    is killed and fails the test as a hang.
    """
    command = [*(executable or (sys.executable, "-m", "deckcheck")), *map(str, args)]
    try:
        proc = subprocess.run(
            command,
            input=stdin,
            stdin=None if stdin is not None else subprocess.DEVNULL,
            capture_output=True,
            cwd=cwd,
            env={**os.environ, "PYTHONIOENCODING": "utf-8", **(env or {})},
            timeout=WATCHDOG,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"{' '.join(command)[:200]} hung (still running after {WATCHDOG:.0f} s)")
    return Finished(
        proc.returncode,
        proc.stdout.decode("utf-8", "replace"),
        proc.stderr.decode("utf-8", "replace"),
    )


def fold(text: str) -> str:
    """Case, accents and spacing folded: the data tests' own comparison key (independent of
    deckcheck's, so that they check the data and not the code)."""
    text = unicodedata.normalize("NFKD", text)
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return " ".join(text.casefold().split())


def catalog_path(game: str, name: str = "cards.toml") -> Path:
    """A bundled catalog file, in a checkout (``catalogs/``) or an unpacked wheel."""
    for candidate in (
        REPO / "catalogs" / game / name,
        REPO / "deckcheck" / "catalogs" / game / name,
    ):
        if candidate.exists():
            return candidate
    raise AssertionError(f"catalogs/{game}/{name} not found")


def lines_run(call: Callable[[], T]) -> tuple[T, int]:
    """``call()``'s result and how many lines of Python it ran: a measure of work that, unlike
    a stopwatch, does not depend on the machine or on what else it is doing."""
    count = 0

    def tracer(frame: FrameType, event: str, arg: object) -> Any:
        nonlocal count
        if event == "line":
            count += 1
        return tracer

    previous = sys.gettrace()
    sys.settrace(tracer)
    try:
        result = call()
    finally:
        sys.settrace(previous)
    return result, count


def load_script(name: str, path: Path) -> ModuleType:
    """The script at ``path`` loaded as module ``name`` (the bench scripts and the corpus
    maker are not a package)."""
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: The ten overlapping conditions on Planetary Conquerors' legal-80.txt from the reliability
#: review (a query that used to run for minutes), and the ten on Ren Dhark's terra-custom.txt:
#: the benchmarks' own (``bench/cases.py``).
_CASES = load_script("bench_cases", REPO / "bench" / "cases.py")
PC_TEN_CONDITIONS: list[str] = _CASES.PC_CONDITIONS[:10]
RD_TEN_CONDITIONS: list[str] = list(_CASES.RD_CONDITIONS)
#: The twelve overlapping attribute conditions the frontier bench asks of Planetary Conquerors.
PC_ATTRIBUTE_CONDITIONS: list[str] = list(_CASES.ATTRIBUTE_CONDITIONS["planetary-conquerors"])
