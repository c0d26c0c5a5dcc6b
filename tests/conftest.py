"""Fixtures every test module may ask for, and the markers that sort the tests by kind.

Fixtures (ask for them by name; each skips, saying why, when what it needs is missing):

- ``browser``: Debian's Chromium driven by Playwright, one per module; a page's waits
  default to :data:`PATIENCE` (a wait ends when its condition holds, the ceiling is long).
- ``server``: a live server (uvicorn in a thread over a fresh SQLite file), one per
  module; a module that needs other settings overrides it (it may ask for this one).
- ``pg_url``: a fresh PostgreSQL schema at 127.0.0.1:5432, database ``test``
  (``PIQUET_TEST_PG`` overrides), dropped after the test.
- ``redis_url``: the Redis at 127.0.0.1:6379 (``PIQUET_TEST_REDIS`` overrides).
- ``pg_servers``: two ``piquet serve`` processes over one fresh PostgreSQL schema.
- ``local_ray``: a local Ray cluster of one worker.
- ``match_of`` / ``deal_of``: the new match a preset and a seed give, or its first deal
  (made once a test process).

Markers (registered in pyproject.toml): a test that asks for ``browser`` is marked
``browser``, ``pg_url`` or ``pg_servers`` ``postgres``, ``redis_url`` ``redis``,
``local_ray`` ``ray``; the modules ``test_tmux_*`` are ``tmux``.  ``compile``,
``statistical`` and ``slow`` are set by hand where a test compiles, samples many games
to a statistical bound, or runs long.  ``scripts/test --quick`` leaves all of them out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

import pytest

from piquet.core.deal import Deal
from piquet.core.match import Match, new_match
from test_web_kit import (
    CHROMIUM,
    CHROMIUM_ARGS,
    REDIS_URL,
    Server,
    ThreadServer,
    chromium_available,
    pg_available,
    pg_schema,
    redis_available,
    two_servers,
)

PATIENCE = 300_000
"""A browser wait's ceiling, in milliseconds: long, so that a loaded machine is slow but
never fails; a wait ends as soon as its condition holds."""

#: fixture -> the marker every test using it gets
FIXTURE_MARKERS = {
    "browser": "browser",
    "pg_url": "postgres",
    "pg_servers": "postgres",
    "redis_url": "redis",
    "local_ray": "ray",
}

#: module name prefix -> marker
MODULE_MARKERS = {
    "test_tmux_": "tmux",
}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        names = set(getattr(item, "fixturenames", ()))
        for fixture, marker in FIXTURE_MARKERS.items():
            if fixture in names:
                item.add_marker(marker)
        module = item.module.__name__ if isinstance(item, pytest.Function) else ""
        for prefix, marker in MODULE_MARKERS.items():
            if module.startswith(prefix):
                item.add_marker(marker)


# ---------------------------------------------------------------------------- the browser
class PatientBrowser:
    """A Playwright browser whose contexts (and so their pages) wait up to
    :data:`PATIENCE` by default; everything else is the browser's own."""

    def __init__(self, browser: Any) -> None:
        self._browser = browser

    def new_context(self, **options: Any) -> Any:
        ctx = self._browser.new_context(**options)
        ctx.set_default_timeout(PATIENCE)
        return ctx

    def new_page(self, **options: Any) -> Any:
        return self.new_context(**options).new_page()

    def __getattr__(self, name: str) -> Any:
        return getattr(self._browser, name)


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Debian's Chromium (``/usr/bin/chromium``, installed by ``scripts/install-browser``)
    driven by Playwright, for the whole module; its pages wait up to :data:`PATIENCE`."""
    if not chromium_available():
        pytest.skip(f"no {CHROMIUM} (scripts/install-browser installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield PatientBrowser(b)
        finally:
            b.close()


# ---------------------------------------------------------------------------- servers
@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ThreadServer]:
    """A live server: uvicorn in a thread of this process over a fresh SQLite file, for
    the whole module."""
    with ThreadServer(tmp_path_factory.mktemp("server")) as srv:
        yield srv


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A fresh PostgreSQL schema (a database URL whose search path is that schema),
    dropped after the test; skips when no PostgreSQL answers."""
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


@pytest.fixture
def local_ray() -> Iterator[None]:
    """A local Ray cluster of one worker, shut down after the test."""
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
    try:
        yield
    finally:
        ray.shutdown()


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
