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
or more by itself).
``make test-fast`` leaves all four out. A test that starts a process without its marker fails
(:func:`_processes_only_where_marked`), so the marker cannot fall behind the code.
"""

from __future__ import annotations

import functools
import importlib.util
import inspect
import json
import os
import shutil
import stat
import subprocess
import sys
import tempfile
import unicodedata
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import CodeType, FrameType, ModuleType
from typing import TYPE_CHECKING, Any, TypeVar

import pytest

if TYPE_CHECKING:
    from typer.testing import Result

TESTS = Path(__file__).resolve().parent
REPO = TESTS.parent
EXAMPLES = REPO / "examples"

T = TypeVar("T")

WATCHDOG = 60.0
"""Seconds a child process may run before the test fails as a hang (never a speed limit)."""


def _private_bytecode_cache() -> None:
    """Cache compiled modules in a private folder where PYTHONDONTWRITEBYTECODE is set.

    The suite starts deckcheck in a hundred child processes and each xdist worker imports every
    test module: without bytecode, each of them compiles the whole package from source again
    (about half a second of CPU per child process). The checkout stays as clean as its owner
    asked: the bytecode goes to one folder of this user under the temporary directory, shared
    by the workers, their children and later runs. A folder that is not this user's alone is
    not used (someone else's bytecode would run as ours).
    """
    if not (sys.dont_write_bytecode or os.environ.get("PYTHONDONTWRITEBYTECODE")):
        return  # bytecode goes to the usual __pycache__ folders
    uid = os.getuid() if hasattr(os, "getuid") else None
    folder = (
        Path(tempfile.gettempdir()) / f"deckcheck-test-bytecode-{'user' if uid is None else uid}"
    )
    try:
        folder.mkdir(mode=0o700, exist_ok=True)
        status = folder.lstat()
    except OSError:
        return
    if not stat.S_ISDIR(status.st_mode) or status.st_mode & 0o022:
        return
    if uid is not None and status.st_uid != uid:
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


_consoles_made_now()


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


def pytest_unconfigure(config: pytest.Config) -> None:
    """The run's catalog cache goes with the run (the process that made it removes it)."""
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
    """Imported here, after :func:`_private_bytecode_cache`: pytest rewrites the asserts of
    hypothesis's modules (a plugin's package), and caches the result only where bytecode may be
    written."""
    from hypothesis import settings

    settings.register_profile("deckcheck", max_examples=100, deadline=None, database=None)
    settings.register_profile("thorough", max_examples=1000, deadline=None, database=None)
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "deckcheck"))


_hypothesis_profiles()


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
    {
        "analysis/test_queries.py::test_distribution_cli_json_for_every_game",
        "analysis/test_queries.py::test_named_category_in_conditions",
        "analysis/test_stats.py::test_stats_cli_json_for_every_game",
        "builder/test_builder_logic.py::test_stccg_deck_built_from_nothing_in_the_session",
        "catalog/test_catalog_cache.py::test_a_selector_makes_one_card_and_an_absent_value_is_still_refused",
        "catalog/test_catalog_cache.py::test_damaged_entry_ignored_and_rewritten",
        "draws/test_any_of_exact.py::test_classes_alike_by_name_share_states_only_where_the_alternatives_allow",
        "draws/test_any_of_exact.py::test_return_mulligan_and_look_ahead_match_brute_force",
        "catalog/test_catalog_cache.py::test_entry_of_another_user_is_ignored",
        "catalog/test_catalog_cache.py::test_every_example_same_output_off_cold_warm",
        "catalog/test_catalog_cache.py::test_huge_sparse_entry_is_not_read",
        "catalog/test_catalog_cache.py::test_other_commands_same_output_off_cold_warm",
        "catalog/test_catalog_cache.py::test_symlink_to_a_device_is_not_followed",
        "catalog/test_catalog_cache.py::test_symlink_to_a_good_entry_is_not_followed",
        "catalog/test_catalog_cache.py::test_value_index_is_what_selectors_match",
        "catalog/test_catalog_cache.py::test_value_missing_from_the_index_is_found_card_by_card",
        "catalog/test_field_synonyms.py::test_a_synonym_does_not_widen_other_values",
        "catalog/test_field_synonyms.py::test_neutral_and_non_aligned_select_the_same_cards",
        "catalog/test_field_synonyms.py::test_neutral_in_a_condition_on_a_federation_deck",
        "cli/test_cli.py::test_help_reads_as_written",
        "cli/test_conventions.py::test_a_named_command_builds_alone_and_everything_else_gets_the_whole_app",
        "cli/test_output.py::test_hands_name_cards_and_tell_apart_shared_names",
        "cli/test_plain_report.py::test_piped_reports_are_plain_lines_saying_what_the_panels_say",
        "commands/test_cards_listing.py::test_whole_stccg_catalog_lists_every_card_as_plain_lines",
        "commands/test_legality.py::test_validate_says_which_other_variant_a_failing_deck_passes",
        "commands/test_odds_cli.py::test_many_set_aside_cards_are_summed_up_and_listed_in_json",
        "commands/test_owned.py::test_owned_agrees_with_brute_force",
        "commands/test_tune.py::test_no_mulligan_matches_the_hypergeometric_formula",
        "commands/test_tune.py::test_planetary_conquerors_return_mulligan_agrees_with_brute_force",
        "commands/test_tune.py::test_ren_dhark_ships_by_turn_two_agrees_with_brute_force",
        "commands/test_tune.py::test_tune_cli_json_for_every_game",
        "commands/test_tune.py::test_upper_bound_gives_the_most_cards",
        "decks/test_deck_building.py::test_several_cards_in_one_call_with_every_rules_progress",
        "decks/test_edit.py::test_a_card_in_two_zones_needs_the_zone",
        "decks/test_edit.py::test_add_and_remove_commands",
        "decks/test_edit.py::test_card_is_read_like_a_deck_line",
        "decks/test_edit.py::test_dek_copies_and_removes_card_elements",
        "decks/test_edit.py::test_lackey_text_keeps_crlf_tabs_and_zones",
        "decks/test_edit.py::test_new_writes_a_deck_to_fill_in",
        "decks/test_editor_safety.py::test_every_new_deck_reads_back_and_takes_add",
        "decks/test_editor_safety.py::test_optimize_write_goes_through_the_same_writer",
        "decks/test_interchange.py::test_builder_reproduces_the_name_table",
        "decks/test_interchange.py::test_every_plugin_name_with_an_id_resolves_to_that_card",
        "decks/test_interchange.py::test_side_zones_in_text_and_json_report",
        "decks/test_pasted_lists.py::test_headings_and_title_are_notes_and_the_game_is_found",
        "decks/test_pasted_lists.py::test_the_headings_never_become_cards",
        "decks/test_pasted_lists.py::test_the_own_export_with_its_hashes_stripped_reads_back",
        "draws/test_draws_capped.py::test_a_table_partly_in_reach_computes_its_exact_rows_once",
        "draws/test_draws_capped.py::test_many_conditions_agree_with_a_seeded_simulation",
        "draws/test_draws_capped.py::test_optimal_redraw_turns_read_one_table_of_hands",
        "draws/test_draws_capped.py::test_ten_conditions_match_an_independent_enumeration",
        "draws/test_draws_capped.py::test_ten_conditions_on_any_deck_are_exact_within_the_work_limit",
        "draws/test_draws_exact.py::test_intractable_budget",
        "draws/test_draws_exact.py::test_lookahead_matches_oracle",
        "draws/test_draws_exact.py::test_return_with_lookahead_matches_oracle",
        "draws/test_draws_fallback.py::test_a_known_row_leaves_the_budget_to_the_others",
        "draws/test_draws_fallback.py::test_a_table_out_of_reach_from_its_first_row_says_so_for_the_query",
        "draws/test_draws_fallback.py::test_a_table_stops_estimating_after_the_first_turn_out_of_reach",
        "draws/test_draws_fallback.py::test_by_turn_rows_come_with_a_simulated_answer",
        "draws/test_draws_fallback.py::test_long_deals_from_many_groups_use_the_marginal_method",
        "draws/test_draws_fallback.py::test_simulated_rows_of_a_table_share_one_budget",
        "draws/test_draws_fallback.py::test_the_array_greedy_return_is_the_policy",
        "draws/test_draws_fallback.py::test_the_lookahead_engine_reports_progress",
        "draws/test_draws_fallback.py::test_the_rows_of_a_table_never_hash_their_problem",
        "draws/test_draws_fallback.py::test_twenty_conditions_on_a_huge_deck_simulate_within_the_budget",
        "draws/test_draws_simulate.py::test_a_few_cards_from_hundreds_of_groups_are_dealt_by_position",
        "draws/test_draws_simulate.py::test_dealing_positions_gives_the_hypergeometric_distribution",
        "draws/test_draws_simulate.py::test_fixed_pile_sampler_distribution",
        "draws/test_draws_simulate.py::test_lookahead_reaching_cards_put_under",
        "draws/test_draws_simulate.py::test_optimal_return_against_exact_engine",
        "draws/test_draws_simulate.py::test_plain_draw_against_math_comb",
        "draws/test_draws_simulate.py::test_redraw_cap_terminates",
        "draws/test_draws_simulate.py::test_same_seed_same_result",
        "draws/test_draws_simulate.py::test_simulators_agree_with_enumeration",
        "draws/test_exact_alike.py::test_ren_dhark_optimal_redraw_agrees_without_sharing",
        "draws/test_exact_alike.py::test_twelve_named_conditions_agree_with_the_engine_without_sharing",
        "draws/test_lookahead_optimal.py::test_a_four_condition_query_at_turn_5_is_within_reach",
        "draws/test_lookahead_optimal.py::test_issue_19_simulate_plays_the_same_decisions",
        "draws/test_lookahead_optimal.py::test_optimal_lookahead_matches_expectimax",
        "draws/test_lookahead_optimal.py::test_the_keep_decision_reaches_the_optimum",
        "draws/test_optimal_redraw.py::test_look_ahead_matches_brute_force",
        "draws/test_optimal_redraw.py::test_matches_brute_force",
        "draws/test_optimal_redraw.py::test_ren_dhark_realistic_work_is_bounded",
        "draws/test_query_limits.py::test_ten_conditions_are_simulated_without_running_the_engine",
        "draws/test_query_limits.py::test_the_estimate_bounds_the_states_visited",
        "draws/test_redraw_policy_cli.py::test_hand_keeps_a_redrawable_hand_that_meets_the_goal_under_the_optimal_policy",
        "draws/test_redraw_table_budget.py::test_a_by_turn_table_shares_one_table",
        "draws/test_redraw_table_budget.py::test_a_table_out_of_reach_stops_early",
        "draws/test_redraw_table_budget.py::test_a_table_within_its_budget_is_never_refused",
        "draws/test_redraw_table_budget.py::test_the_query_is_simulated_and_says_why",
        "export/test_html.py::test_decks_drawn_from_have_the_odds_curve",
        "export/test_html.py::test_illegal_deck_sheet_lists_the_findings",
        "games/test_pc_dorn_drake_rules.py::test_second_player_sixth_card_says_two_players",
        "games/test_ren_dhark_turns_redraw.py::test_simulated_optimal_policy_agrees_with_the_exact_figure",
        "games/test_rules_as_data.py::test_constraints_agree_with_the_check",
        "games/test_rules_as_data.py::test_holds_is_exact",
        "games/test_stccg_catalog.py::test_catalog_header",
        "games/test_stccg_catalog.py::test_script_reproduces_committed_file",
        "games/test_stccg_formats.py::test_fix_keeps_the_files_seed_zone_and_seeds_what_it_adds",
        "games/test_stccg_formats.py::test_fix_under_modern_is_proven_minimal",
        "games/test_stccg_formats.py::test_fix_under_warp_speed_is_proven_minimal",
        "games/test_stccg_formats.py::test_the_plugins_lackey_decks_are_legal_under_modern",
        "games/test_stccg_formats.py::test_the_stdeck_sample_reads",
        "games/test_stccg_formats.py::test_warp_speed_three_ten_twenty_and_one_outpost",
        "games/test_stccg_rules.py::test_lackey_files_mostly_resolve",
        "hostile/test_hostile_cli.py::test_hundred_kb_card_name_with_a_game",
        "hostile/test_hostile_cli.py::test_ten_thousand_unknown_lines_cost_a_hundred_lookups",
        "hostile/test_hostile_cli.py::test_ten_thousand_unknown_lines_without_game",
        "hostile/test_input_bounds.py::test_deck_of_8000_card_keys_costs_linear_work",
        "hostile/test_input_bounds.py::test_header_naming_one_overlay_200000_times",
        "hostile/test_input_bounds.py::test_too_many_keys_refused_before_parsing",
        "project/test_architecture.py::test_layers_import_only_downwards",
        "project/test_benches.py::test_the_scaling_bench_builds_its_decks_and_times_a_query",
        "project/test_benches.py::test_the_simulation_bench_times_every_sampling_method",
        "solve/test_exact_ties.py::test_a_seeded_card_is_moved_rather_than_removed",
        "solve/test_exact_ties.py::test_fix_chooses_the_best_nearest_deck_by_the_stated_order",
        "solve/test_exact_ties.py::test_optimize_with_seeded_and_drawn_outposts_is_proven_optimal",
        "solve/test_exact_ties.py::test_stccg_clean_forms_agree_with_the_checks",
        "solve/test_fix.py::test_alike_cards_solved_as_one_variable_give_the_same_nearest_decks",
        "solve/test_fix.py::test_keep_moves_the_removal_elsewhere",
        "solve/test_fix.py::test_minimal_stccg",
        "solve/test_fix.py::test_minimal_the_drake_standard_stack_in_its_order",
        "solve/test_fix.py::test_prefer_chooses_among_the_nearest",
        "solve/test_fix.py::test_unreachable_names_the_rule_and_exits_1",
        "solve/test_fix_prefer.py::test_prefer_finds_the_most_matching_copies",
        "solve/test_optimize.py::test_a_collection_limits_the_answer",
        "solve/test_optimize.py::test_dorn_random_party_and_drake_random_stack",
        "solve/test_optimize.py::test_json_and_limits",
        "solve/test_optimize.py::test_k4_an_outpost_of_two_affiliations",
        "solve/test_optimize.py::test_k4_drake_exactly_and_at_most",
        "solve/test_optimize.py::test_k4_planetary_conquerors_second_player_two_conditions",
        "solve/test_optimize.py::test_k4_ren_dhark_an_upper_bound_condition",
        "solve/test_optimize.py::test_keep_is_never_removed",
        "solve/test_optimize.py::test_planetary_conquerors_return_three_and_look_ahead",
        "solve/test_optimize.py::test_ren_dhark_redraw_taking_cards_out_beats_adding_ships",
        "solve/test_optimize.py::test_ren_dhark_two_conditions_with_a_collection",
        "solve/test_optimize.py::test_seed_rules_constraints_agree_with_the_check_on_outposts_of_two_affiliations",
        "solve/test_optimize.py::test_stccg_community_formats_and_zoned_files",
        "solve/test_optimize.py::test_stccg_seed_cards_move_cards_out_of_the_draw_deck",
        "solve/test_optimize.py::test_tune_marks_the_counts_the_rules_forbid",
        "solve/test_optimize.py::test_unreachable_and_bad_input",
        "solve/test_optimize.py::test_write_and_time_limit",
    }
)
"""Tests that take about a tenth of a second or more each on their own, in process (0.15 s or
more as ``pytest --durations=0`` measured them on a busy two-core machine): marked ``slow``.
A test that starts a process, drives the terminal app or searches properties is marked for
that already."""


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
    """The markers of cost (see the module's docstring)."""
    for line in (
        "process: starts a process (python -m deckcheck, another program)",
        "tui: drives the terminal app (Textual's pilot)",
        "hypothesis: a property-based search",
        "slow: a tenth of a second or more by itself (listed in SLOW in tests/conftest.py)",
    ):
        config.addinivalue_line("markers", line)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with what it costs (see the module's docstring)."""
    for item in items:
        function = getattr(item, "function", None)
        if function is None:
            continue  # a doctest
        module = getattr(item, "module", None)
        where = item.path.relative_to(TESTS).as_posix()
        if f"{where}::{getattr(item, 'originalname', item.name)}" in SLOW:
            item.add_marker(pytest.mark.slow)
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
