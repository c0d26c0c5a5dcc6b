"""Fixtures every test module may ask for, and the markers that sort the tests by kind.

Fixtures (ask for them by name; each skips, saying why, when what it needs is missing):

- ``browser``: Debian's Chromium driven by Playwright, one per module; a page's waits
  default to :data:`PATIENCE` (a wait ends when its condition holds, the ceiling is long).
- ``server``: a live server (uvicorn in a thread over a fresh SQLite file), one per
  module; a module that needs other settings overrides it (it may ask for this one).
- ``pg_url``: a fresh PostgreSQL schema, migrated, at 127.0.0.1:5432, database ``test``
  (``PIQUET_TEST_PG`` overrides), dropped after the test.
- ``redis_url``: the Redis at 127.0.0.1:6379 (``PIQUET_TEST_REDIS`` overrides).
- ``pg_servers``: two ``piquet serve`` processes over one fresh PostgreSQL schema.
- ``local_ray``: a local Ray cluster of one worker.
- ``match_of`` / ``deal_of``: the new match a preset and a seed give, or its first deal
  (made once a test process).

Markers (registered in pyproject.toml): a test that asks for ``browser`` is marked
``browser``, ``pg_url``, ``pg_empty_url`` or ``pg_servers`` ``postgres``, ``redis_url`` ``redis``,
``local_ray`` ``ray``; the modules ``test_tmux_*`` are ``tmux``; the modules and tests
named in :data:`SLOW_MODULES` and :data:`SLOW_TESTS` are ``slow``.  ``compile``,
``statistical`` and ``slow`` are also set by hand where a test builds compiled code,
samples many games to a statistical bound, or runs long.  ``scripts/test --quick`` leaves
all of them out.
"""

from __future__ import annotations

import gc
import json
import os
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any, ClassVar

import pytest

from ordering import load_durations, spread
from piquet.core.deal import Deal
from piquet.core.match import Match, new_match
from test_web_kit import (
    CHROMIUM,
    CHROMIUM_ARGS,
    REDIS_URL,
    Server,
    ThreadServer,
    cheap_hasher,
    cheap_miss,
    chromium_available,
    pg_available,
    pg_schema,
    redis_available,
    two_servers,
)


def _one_tls_context() -> None:
    """Every ``httpx`` client the tests make (``httpx.get`` makes one a call) builds a TLS
    context from the CA bundle first, some 20 ms of CPU, though every test speaks plain
    HTTP to this machine: the default context is built once a test process and shared
    (a context is made to be shared; any other ``verify`` is built as before)."""
    import httpx._transports.default as transports

    build = transports.create_ssl_context
    default: list[Any] = []

    def shared(verify: Any = True, cert: Any = None, trust_env: bool = True) -> Any:
        if verify is not True or cert is not None or not trust_env:
            return build(verify=verify, cert=cert, trust_env=trust_env)
        if not default:
            default.append(build())
        return default[0]

    transports.create_ssl_context = shared  # type: ignore[assignment]


_one_tls_context()


def _patient_httpx() -> None:
    """Every ``httpx.get``, ``post`` or ``Client`` of the tests that names no timeout uses
    httpx's one default object, five seconds to connect, to read, to write: a loaded
    machine's server (a move over PostgreSQL, a process still starting its workers) may
    take longer over one request, and the test failed on a timeout, not on what it
    checks.  The default is made a ceiling (120 s) for this test process; an answer is
    still taken as soon as it comes, and a test that names its own timeout keeps it."""
    import httpx._config as config

    default = config.DEFAULT_TIMEOUT_CONFIG
    default.connect = default.read = default.write = default.pool = 120.0


_patient_httpx()

PATIENCE = 300_000
"""A browser wait's ceiling, in milliseconds: long, so that a loaded machine is slow but
never fails; a wait ends as soon as its condition holds."""

POLL = 20
"""How often, in milliseconds, a test's ``wait_for_function`` looks at the page: not at
each animation frame (Playwright's default, "raf"), which keeps the page drawing 60 frames
a second for as long as the wait lasts: Chromium spent about 0.07 CPU-s a second of such a
wait on the table, and about a fifth of that looking every 20 ms (bench_render.browser_cpu)."""

#: fixture -> the marker every test using it gets
FIXTURE_MARKERS = {
    "browser": "browser",
    "pg_url": "postgres",
    "pg_empty_url": "postgres",
    "pg_servers": "postgres",
    "redis_url": "redis",
    "local_ray": "ray",
}

#: module name prefix -> marker
MODULE_MARKERS = {
    "test_tmux_": "tmux",
}


#: modules whose every test is ``slow``: each plays whole games or matches, searches,
#: starts servers or processes (from ``--durations`` of the quick subset: over 30 s a
#: module on a loaded machine)
SLOW_MODULES = frozenset({
    "test_advice_ranking",
    "test_advisor",
    "test_batch",
    "test_beliefs",
    "test_drawtables_fast",
    "test_expert_play",
    "test_fast_differential",
    "test_fast_env",
    "test_observation_fast",
    "test_openspiel",
    "test_players",
    "test_properties",
    "test_views",
    "test_web_api",
    "test_web_beyond",
    "test_web_cluster",
    "test_web_faults_jobs",
    "test_web_faults_limits",
    "test_web_faults_commit",
    "test_web_faults_once",
    "test_web_faults_pgkill",
    "test_web_faults_process",
    "test_web_faults_small",
    "test_web_fuzz",
    "test_web_leaks",
    "test_web_practice",
    "test_web_schema_agreement",
    "test_web_tally",
    "test_web_accounts",
    "test_web_talk",
    "test_web_people",
    "test_web_clocks",
    "test_web_progress",
})

#: tests (every parametrization) that are ``slow`` in otherwise quick modules: over 1 s
#: each on a loaded machine.  ``scripts/test --quick --durations=15`` names the slowest
#: left in the quick subset; a test that takes long goes here (or gets its own mark).
SLOW_TESTS = frozenset({
    "test_actions::test_card_carrying_actions_round_trip",
    "test_advise_cli::test_advise_marks_exact_chances_as_exact_and_rounds_only_with_about",
    "test_advise_cli::test_advise_says_about_and_how_many_draws_when_the_chances_are_sampled",
    "test_advise_cli::test_advise_says_the_play_shares_come_from_simulated_deals",
    "test_cards::test_mask_cards_lists_each_card_once",
    "test_cli_cold::test_the_advise_command_loads_neither_the_web_stack_nor_numba",
    "test_cli_text::test_every_commands_prose_fits_the_width_and_breaks_no_word",
    "test_cli_text::test_wrapping_keeps_every_word_whole_and_in_order",
    "test_docs_examples::test_the_baselines_commands_run",
    "test_docs_examples::test_the_example_runs_as_written",
    "test_docs_examples::test_the_example_script_runs",
    "test_expert::test_expert_is_seeded",
    "test_expert::test_expert_records_its_lookahead_decisions",
    "test_expert::test_lookahead_never_values_a_card_above_the_mean_of_its_exact_values",
    "test_expert::test_reference_plays_as_the_2025_expert",
    "test_expert::test_the_expert_exchange_sees_no_hidden_card",
    "test_expert::test_the_playout_exchange_can_be_switched_off",
    "test_fast_adapters::test_a_seat_on_the_kernels_board_sees_only_what_it_may",
    "test_fast_book::test_kernel_book_agrees_with_the_book_player_at_every_step",
    "test_fast_game::test_the_pettingzoo_env_on_the_board_is_the_engines",
    "test_fast_game::test_whole_games_agree_with_the_engine_under_random_house_rules",
    "test_jobs_shared::test_two_web_processes_hold_a_client_to_one_quota_through_redis",
    "test_layers::test_analysis_and_the_ai_import_no_interface",
    "test_learn_coach::test_a_guided_deal_names_only_what_the_seat_may_see",
    "test_learn_coach::test_a_weak_choice_is_said_to_cost_and_the_coachs_own_costs_nothing",
    "test_learn_hints::test_a_point_his_words_left_beaten_is_certain_for_younger",
    "test_learn_hints::test_only_one_move_is_said_to_be_the_only_one",
    "test_learn_hints::test_the_exact_odds_agree_with_the_sampler_under_the_36_card_rules",
    "test_learn_hints::test_the_odds_a_hint_quotes_are_the_exact_odds_dialog_included",
    "test_learn_puzzles::test_a_sample_is_best_by_its_margin_in_fresh_deals",
    "test_learn_puzzles::test_a_sample_is_judged_again_to_the_same_figures",
    "test_learn_puzzles::test_the_first_puzzles_are_made_again_from_their_seeds",
    "test_learned::test_the_training_script_writes_weights_the_level_plays",
    "test_learned_whole::test_the_training_script_trains_on_the_whole_game",
    "test_notation::test_json_record_round_trips_exactly",
    "test_odds::test_vectorised_pass_equals_the_scalar_loop",
    "test_openspiel_board::test_board_true_is_the_same_game_node_for_node",
    "test_openspiel_board::test_board_true_passes_random_sim_test",
    "test_pettingzoo::test_the_raw_env_and_the_engine_path_pass_the_api_test",
    "test_pettingzoo::test_the_same_seed_plays_the_same_episode",
    "test_play_cli::test_a_pool_for_three_against_two_computers",
    "test_play_cli::test_a_whole_game_with_bad_input_at_every_prompt_changes_nothing",
    "test_play_cli::test_end_of_input_saves_and_resume_finishes",
    "test_play_cli::test_every_rule_set_plays_to_the_end_at_the_keyboard",
    "test_play_cli::test_hotseat_hands_over_between_players",
    "test_play_cli::test_undo_after_a_deal_and_pass_where_it_is_not_allowed_say_why",
    "test_play_cli::test_undo_takes_back_your_last_move",
    "test_play_cli_review2::test_no_number_at_any_prompt_stops_the_game",
    "test_play_cli_review2::test_undo_stays_within_the_deal_in_play",
    "test_play_cli_review2::test_what_was_typed_before_a_deal_ended_by_the_computer_is_forgotten",
    "test_readings::test_encyclopedia_silent_on_blanche_odds_and_advice_follow_the_knob",
    "test_replay_cli::test_refusal_in_a_real_process_has_no_traceback",
    "test_review::test_a_deal_that_dealing_ended_keeps_the_numbers_of_the_deals_after_it",
    "test_review::test_each_finding_is_said_in_words",
    "test_review::test_every_play_that_drops_the_double_dummy_value_is_named",
    "test_review::test_the_curve_follows_the_deal_to_its_score",
    "test_review::test_the_exchange_is_judged_against_the_advisor",
    "test_review::test_the_game_curve_runs_across_every_deal_to_the_game_score",
    "test_rules_value_keys::test_a_house_rule_set_named_as_a_preset_is_advised_under_its_own_knobs",
    "test_rules_value_keys::test_a_house_rule_set_renamed_from_a_preset_gets_a_hint",
    "test_score_cmd::test_real_process_answers_each_line_as_it_comes",
    "test_score_cmd::test_real_process_single_and_lines",
    "test_solver::test_pique_is_scored_while_open",
    "test_source_court_gamester_1754::test_a_record_of_several_games_written_before_the_reading_changed_still_replays",
    "test_source_du_coeur_1995::test_1995_tied_runs_of_nine_are_total_ties",
    "test_tally_penalties::test_a_deal_counted_again_with_no_penalty_is_counted_as_played",
    "test_tournament::test_ladder_and_its_plot",
    "test_tournament::test_the_ladder_ranks_the_reference",
    "test_tournament::test_workers_end_when_the_tournament_is_killed",
    "test_typed_state::test_mypy_rejects_a_misspelt_state_field_and_wrong_types",
    "test_web_cache::test_a_double_submission_is_recorded_once",
    "test_web_cache::test_a_move_reads_nothing_and_writes_one_short_transaction",
    "test_web_cache::test_a_restarted_server_rebuilds_the_game_from_the_log",
    "test_web_cache::test_a_write_memory_did_not_see_is_found_and_nothing_forks",
    "test_web_cache::test_shared_mode_sees_the_other_process_at_once",
    "test_web_cache::test_views_from_memory_equal_views_built_afresh",
    "test_web_crash::test_sigkill_mid_game_loses_nothing_acknowledged",
    "test_web_learn::test_a_guided_deal_for_each_rule_set_points_out_its_own_ways",
    "test_web_presence::test_a_seat_that_asks_is_told_who_comes_and_goes",
    "test_web_presence::test_a_socket_that_does_not_ask_is_told_nothing_new",
    "test_web_revision::test_two_rematches_asked_at_once_leave_one_game",
    "test_web_walkthrough::test_a_spectator_hears_of_a_resignation",
    "test_web_walkthrough::test_every_choice_offered_has_words_of_its_own",
    "test_web_walkthrough::test_two_tabs_acting_at_once_hear_it_in_a_players_words",
    "test_words::test_a_cached_declaration_line_is_the_line_its_fact_makes",
})


def pytest_configure(config: pytest.Config) -> None:
    """Under xdist, the byte code every test process would make is made once first, here
    in the process that starts them: without it, in a fresh checkout (CI's), each of them
    compiles the package and rewrites the asserts of every test module itself, all at
    once, each writing the same files (some 15 CPU-seconds a process, four processes).
    Only what is missing or stale is made; nothing when byte code is not to be written.
    A cache only: whatever fails here (a module that does not compile, pytest's own
    rewriting changed) is left for the test processes to meet as before."""
    if (hasattr(config, "workerinput") or not getattr(config.option, "numprocesses", None)
            or sys.dont_write_bytecode or config.getoption("assertmode") != "rewrite"):
        return
    import compileall

    import piquet

    compileall.compile_dir(Path(piquet.__file__).parent, quiet=2)
    for fn in sorted(Path(__file__).parent.glob("*.py")):
        if not fn.name.startswith("test_") and fn.name != "conftest.py":
            compileall.compile_file(fn, quiet=2)  # a helper: imported as it is
            continue
        try:
            _rewrite_ahead(config, fn)
        except Exception:
            continue


def _rewrite_ahead(config: pytest.Config, fn: Path) -> None:
    """The test module ``fn``'s rewritten byte code written where pytest reads it, as
    pytest's import hook writes it, unless it is there and fresh."""
    from _pytest.assertion import rewrite

    cache = rewrite.get_cache_dir(fn)
    pyc = cache / (fn.name[:-3] + rewrite.PYC_TAIL)
    if not rewrite.try_makedirs(cache) or rewrite._read_pyc(fn, pyc) is not None:
        return
    source_hash, co = rewrite._rewrite_test(fn, config)
    rewrite._write_pyc(config.stash[rewrite.assertstate_key], co, source_hash, pyc)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection made (every test module, the package, the test libraries) lives
    as long as the test process: frozen out of the collector's way, so that the full
    collections the tests' own objects set off do not walk it each time."""
    gc.collect()
    gc.freeze()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        for fixture, marker in FIXTURE_MARKERS.items():
            if fixture in names:
                item.add_marker(marker)
        if not isinstance(item, pytest.Function):
            continue
        module = item.module.__name__
        for prefix, marker in MODULE_MARKERS.items():
            if module.startswith(prefix):
                item.add_marker(marker)
        if module in SLOW_MODULES or f"{module}::{item.originalname}" in SLOW_TESTS:
            item.add_marker("slow")
    workers = int(getattr(config, "workerinput", {}).get("workercount", 1))
    if workers > 1:  # each test process arranges the same collection alike
        items[:] = _spread_by_duration(items, workers)


def _spread_by_duration(items: list[pytest.Item], workers: int) -> list[pytest.Item]:
    by_module: dict[str, list[pytest.Item]] = {}
    for item in items:
        by_module.setdefault(item.nodeid.split("::", 1)[0], []).append(item)
    durations = load_durations()
    seconds = {item: durations[item.nodeid] for item in items if item.nodeid in durations}
    return spread(list(by_module.items()), seconds, workers)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: pytest.Item | None) -> Iterator[None]:
    """With ``PIQUET_DURATIONS_OUT`` set (``scripts/test-durations``), each test's wall time,
    set-up and tear-down included, appended to that file as a JSON line."""
    out = os.environ.get("PIQUET_DURATIONS_OUT")
    start = time.monotonic()
    yield
    if out:
        line = json.dumps({"id": item.nodeid, "seconds": round(time.monotonic() - start, 2)})
        with open(out, "a", encoding="utf-8") as fh:
            fh.write(line + "\n")


# ---------------------------------------------------------------------------- the browser
class PatientBrowser:
    """A Playwright browser whose contexts (and so their pages) wait up to
    :data:`PATIENCE` by default; everything else is the browser's own.

    The contexts a test opens are closed when it ends (:func:`_pages_closed`): the
    browser serves the whole test process, and a table left open would keep its socket,
    its polls and its attempts to reach a server long stopped going for the rest of it."""

    live: ClassVar[list[PatientBrowser]] = []

    def __init__(self, browser: Any) -> None:
        self._browser = browser
        self._contexts: list[Any] = []

    def new_context(self, **options: Any) -> Any:
        # the pages' own "less motion" (style.css): no animation keeps the browser drawing
        # frames while a test waits; a test that wants the motion passes "no-preference"
        options.setdefault("reduced_motion", "reduce")
        ctx = self._browser.new_context(**options)
        ctx.set_default_timeout(PATIENCE)
        self._contexts.append(ctx)
        return ctx

    def close_contexts(self) -> None:
        """Close every context opened since the last call (one a test closed itself is
        closed already: closing it again does nothing)."""
        opened, self._contexts = self._contexts, []
        for ctx in opened:
            ctx.close()

    def new_page(self, **options: Any) -> Any:
        return self.new_context(**options).new_page()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium (its headless shell, else ``/usr/bin/chromium``: ``CHROMIUM``,
    installed by ``scripts/install-browser``) driven by Playwright, for the whole module;
    its pages wait up to :data:`PATIENCE`."""
    if not chromium_available():
        pytest.skip(f"no {CHROMIUM} (scripts/install-browser installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        patient = PatientBrowser(b)
        PatientBrowser.live.append(patient)
        try:
            yield patient
        finally:
            PatientBrowser.live.remove(patient)
            b.close()


@pytest.fixture(autouse=True)
def _pages_closed() -> Iterator[None]:
    """After each test, the browser pages it opened are closed (see :class:`PatientBrowser`)."""
    yield
    for patient in PatientBrowser.live:
        patient.close_contexts()


# ---------------------------------------------------------------------------- servers
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A live server: uvicorn in a thread of this process over a fresh SQLite file, for
    the whole module."""
    with ThreadServer(tmp_path_factory.mktemp("server")) as srv:
        yield srv


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL schema (a database URL whose search path is that schema) at the
    newest migration, dropped after the test; skips when no PostgreSQL answers."""
    if not pg_available():
        pytest.skip("no PostgreSQL at 127.0.0.1:5432, database test (PIQUET_TEST_PG)")
    with pg_schema(migrated=True) as url:
        yield url


@pytest.fixture
def pg_empty_url() -> Iterator[str]:
    """A fresh PostgreSQL schema with nothing in it, dropped after the test: the first
    store or server opened over it runs the migrations (two at once take turns under the
    migration lock); skips when no PostgreSQL answers."""
    if not pg_available():
        pytest.skip("no PostgreSQL at 127.0.0.1:5432, database test (PIQUET_TEST_PG)")
    with pg_schema() as url:
        yield url


@pytest.fixture
def redis_url() -> str:
    """The shared Redis (never stopped by a test: an outage test starts its own)."""
    if not redis_available():
        pytest.skip("no Redis at 127.0.0.1:6379 (PIQUET_TEST_REDIS)")
    return REDIS_URL


@pytest.fixture
def pg_servers(
    pg_url: str, tmp_path: Any
) -> Callable[..., AbstractContextManager[tuple[Server, Server]]]:
    """Two ``piquet serve`` processes over one fresh PostgreSQL schema:
    ``with pg_servers("--redis", url) as (a, b):`` (the arguments: more options)."""
    return lambda *options: two_servers(tmp_path, pg_url, *options)


@pytest.fixture(scope="module")
def local_ray(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A local Ray cluster of two CPUs for a module's tests, shut down after its last:
    starting one costs about two and a half CPU-seconds, and the tests check what Ray
    computes and says, which needs no fresh cluster (a job queue or ``--ray local`` joins
    the one running; nothing in piquet shuts it down).  Two CPUs, not one: a worker killed
    from outside while it holds Ray's lease of a CPU between two tasks can keep that CPU
    taken for good (Ray 2's raylet, seen once in this suite: the next task then waited for
    a CPU that never came back); the other CPU keeps the cluster working, as a real
    cluster's other CPUs do.  One test process at a time runs a local cluster (a lock
    file shared by the run's processes): two at once on one machine share its ``/tmp/ray``."""
    ray = pytest.importorskip("ray")
    import fcntl

    lock = tmp_path_factory.getbasetemp().parent / "piquet-local-ray.lock"
    with lock.open("w") as held:
        fcntl.flock(held, fcntl.LOCK_EX)
        ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
        try:
            yield
        finally:
            ray.shutdown()


@pytest.fixture
def cheap_passwords(monkeypatch: pytest.MonkeyPatch) -> None:
    """The in-process server hashes and checks passwords with Argon2id at its least cost
    (:func:`test_web_kit.cheap_hasher`): for the tests that register and log in, not
    the tests of the hasher's parameters."""
    from piquet.web import accounts

    monkeypatch.setattr(accounts, "_hasher", cheap_hasher())
    monkeypatch.setattr(accounts, "_DUMMY_HASH", cheap_miss())


# ---------------------------------------------------------------------------- games by seed
@pytest.fixture(scope="session")
def match_of() -> Callable[[str, int], Match]:
    """``match_of(preset, seed)``: the new match that preset and seed give (cached)."""
    made: dict[tuple[str, int], Match] = {}

    def get(preset: str, seed: int) -> Match:
        if (preset, seed) not in made:
            made[preset, seed] = new_match(preset, seed=seed)
        return made[preset, seed]

    return get


@pytest.fixture(scope="session")
def deal_of(match_of: Callable[[str, int], Match]) -> Callable[[str, int], Deal]:
    """``deal_of(preset, seed)``: the first deal of that match, as it begins (the dealer
    about to deal)."""

    def get(preset: str, seed: int) -> Deal:
        deal = match_of(preset, seed).deal
        assert deal is not None
        return deal

    return get
