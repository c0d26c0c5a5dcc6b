"""Helpers for the web tests: a server in-process, seats, random walks through the API.

Imported by the other ``test_web_*`` modules; its own tests check the helpers' footing
(the text of the static front end).
"""

from __future__ import annotations

import contextlib
import functools
import os
import random
import re
import shutil
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Callable, Iterator
from http.cookiejar import CookieJar, DefaultCookiePolicy
from pathlib import Path
from typing import Any
from urllib.parse import unquote

import anyio
import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.testclient import _TestClientTransport
from starlette.types import Message

from piquet.web.app import STATIC, WebConfig, create_app
from piquet.web.games import Games
from piquet.web.store import Store, database_url
from serverkit import migrated_file, migrated_pg

PG_URL = os.environ.get("PIQUET_TEST_PG", "postgresql://postgres@127.0.0.1:5432/test")
REDIS_URL = os.environ.get("PIQUET_TEST_REDIS", "redis://127.0.0.1:6379/0")
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"
CHROMIUM = HEADLESS_SHELL if os.path.exists(HEADLESS_SHELL) else "/usr/bin/chromium"
"""What the browser tests drive: Debian's headless shell of Chromium where it is installed
(``scripts/install-browser``), else the browser itself.  The shell is the same Blink
(layout, script, the same fonts) without the browser's windows, address bar and profile
services: over the browser tests it took 12% less CPU (297 against 338 CPU-s, the same
tests, one after the other on one machine, 2026-12-08)."""
# Chromium's features the tests turn off.  A second --disable-features replaces Playwright's
# own (the last one counts), so its list (Playwright 1.65, chromiumSwitches) is repeated
# here first; test_playwright_keeps_its_features_off checks it against the installed one.
PLAYWRIGHT_OFF = [
    "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades",
    "HttpsFirstBalancedModeAutoEnable", "LensOverlay", "MediaRouter", "PaintHolding",
    "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
    "TcpPortRandomizationWin", "OptimizationHints", "NetworkTimeServiceQuerying",
    "AimEnabled", "PreconnectToSearch", "msForceBrowserSignIn",
    "msEdgeUpdateLaunchServicesPreferredVersion",
]
CHROMIUM_OFF = [
    *PLAYWRIGHT_OFF,
    # the address bar's drop-down, a page of its own (two, with the "AI mode" one) in a
    # renderer of its own, made for every context's window although headless shows no
    # address bar: a fifth of the browser tests' CPU went into them
    "WebUIOmniboxPopup",
    "WebUIOmniboxAimPopup",
]
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-features=" + ",".join(CHROMIUM_OFF),
]
SCREENSHOTS = os.environ.get("PIQUET_SCREENSHOTS")
"""Where the browser tests' screenshots go (``scripts/screenshots`` sets it to regenerate
the docs' pictures); unset, none is taken: drawing and encoding them cost the browser
CPU that nothing reads."""


def screenshot(target: Any, name: str, *, full_page: bool = False) -> None:
    """``target`` (a page, or a locator of one element) as SCREENSHOTS/NAME.png when
    screenshots are asked for; else only what taking one waits for: the element
    visible (a page is always there)."""
    if SCREENSHOTS is None:
        if not hasattr(target, "goto"):  # a locator: the picture waits for it to show
            target.wait_for(state="visible")
        return
    Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
    if full_page:
        target.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"), full_page=True)
    else:
        target.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"))


START_CEILING = 300.0
"""Longest wait for a server to start, in seconds: a loaded machine is slow to import;
the wait ends as soon as the server answers."""
CARD = re.compile(r"(?<![A-Za-z0-9])([6-9TJQKA][SHDC])(?![A-Za-z0-9])")


def as_cards(text: str) -> str:
    """Card codes written as the pages write them: "shows AC TD" -> "shows A♣ 10♦"."""
    suits = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
    return re.sub(r"\b([AKQJT9876])([SHDC])\b",
                  lambda m: ("10" if m[1] == "T" else m[1]) + suits[m[2]], text)


def config(db: Path, **changes: Any) -> WebConfig:
    base: dict[str, Any] = {
        "database": f"sqlite:///{db}",
        "rate": 0.0,
        "create_per_minute": 0.0,
        # every page of a module's browser tests connects from 127.0.0.1: the cap on one
        # client's sockets is tested on its own (test_web_faults_small)
        "sockets_per_client": 0,
        "ai_executor": "thread",
        "ai_workers": 2,
        "sqlite_sync": "normal",  # tests need no power-cut safety; the crash test uses full
        # the deals' analyses made only when asked for: the tests that play deals to their
        # end would otherwise spend the CPU on analyses they never read (the analysis as
        # the deals end is tested on its own: test_web_beyond, test_web_review_browser)
        "analyse_as_played": False,
        # a test process starts hundreds of servers over a large heap: a full collection
        # at each start cost a sixth of a CPU-second (the freeze is for long-lived servers)
        "freeze_start_up": False,
    }
    base.update(changes)
    return WebConfig(**base)


def migrated(db: Path, changes: dict[str, Any]) -> Path:
    """``db``, a new SQLite file, made a copy of an empty database migrated once a test
    process (:func:`serverkit.migrated_file`): the server's start finds its schema at the
    newest migration and skips Alembic, a sixth of the CPU a test server's start cost (the
    hundreds a test process starts).  A file that is there already (a server started again
    over it) or another database: left as it is."""
    if "database" in changes:
        return db
    return migrated_file(db)


def analyse_cheaply(app: Any, settings: Any = None) -> None:
    """Have a started app analyse finished deals on :func:`cheap_analysis`'s budget, and
    make its hints and the coach's notes on :data:`HINT_NODES`.

    Every test server does (:func:`client`, :class:`ThreadServer`) unless asked for the full
    analysis: a finished deal is analysed in the background whether or not the test reads
    the analysis (opening the replay viewer asks for a whole game's), about 20 CPU-seconds a
    game at full strength, which the suite's processes paid for tests that never looked."""
    from piquet.web.analysis import Analyses

    st = app.state.piquet
    st.analyses = Analyses(st.store.engine, st.jobs, settings or cheap_analysis())
    # and hints and the coach's notes: what the tests check is what they say, to whom and
    # when; how good the advisor's advice is, its own tests prove (test_advisor)
    st.hint_nodes = HINT_NODES


HINT_NODES = 200_000
"""The positions the advisor's exact search visits for a hint or the coach's note in a
test's server (its own: up to 10 million, a CPU-second and more at each exchange)."""


class _OneHandOff(_TestClientTransport):
    """Starlette's test transport, each HTTP request made in one call into the app's event
    loop instead of eight or more (events, a stream, a cancel scope, the task, the wait
    for its start, each piece of the body, its end, each a hand-off between threads):
    about a millisecond of CPU a request less, a tenth of what the request cost, over
    the thousands a test of every step of a game makes.  The app sees the same scope and
    messages; the answer comes back whole (no test reads one piece by piece, and none is
    endless), an exception the app raised is raised again, as the TestClient does.  A
    WebSocket, or a request body sent in pieces, goes the TestClient's own way."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        body = request.read()
        if request.url.scheme not in ("http", "https") or not isinstance(body, bytes):
            upgraded: httpx.Response = super().handle_request(request)
            return upgraded
        url = request.url
        headers = [] if "host" in request.headers else [(b"host", url.netloc)]
        headers += [(k.lower().encode(), v.encode()) for k, v in request.headers.multi_items()]
        scope: dict[str, Any] = {
            "type": "http",
            "http_version": "1.1",
            "method": request.method,
            "path": unquote(url.path),
            "raw_path": url.raw_path.split(b"?", 1)[0],
            "root_path": self.root_path,
            "scheme": url.scheme,
            "query_string": url.query,
            "headers": headers,
            "client": self.client,
            "server": [url.raw_host.decode("ascii"), url.port or {"http": 80, "https": 443}[
                url.scheme]],
            "extensions": {"http.response.debug": {}, "http.response.trailers": {}},
            "state": self.app_state.copy(),
        }
        answer: dict[str, Any] = {"body": [], "trailers": []}

        async def call() -> None:
            complete = anyio.Event()
            sent = False

            async def receive() -> Message:
                nonlocal sent
                if not sent:
                    sent = True
                    return {"type": "http.request", "body": body}
                await complete.wait()
                return {"type": "http.disconnect"}

            async def send(message: Message) -> None:
                kind = message["type"]
                if kind == "http.response.start":
                    assert "status" not in answer, "two http.response.start"
                    answer["status"] = message["status"]
                    answer["headers"] = [(k.decode(), v.decode())
                                         for k, v in message.get("headers", [])]
                    answer["more"] = message.get("trailers", False)
                elif kind == "http.response.body":
                    assert "status" in answer, "a body before http.response.start"
                    answer["body"].append(bytes(message.get("body", b"")))
                    if not message.get("more_body", False) and not answer["more"]:
                        complete.set()
                elif kind == "http.response.trailers":
                    answer["trailers"].extend(message.get("headers", []))
                    if not message.get("more_trailers", False):
                        complete.set()
                elif kind == "http.response.debug":
                    answer["debug"] = message["info"]

            try:
                await self.app(scope, receive, send)
            finally:
                complete.set()

        with self.portal_factory() as portal:
            try:
                portal.call(call)
            except Exception:
                if self.raise_server_exceptions or "status" not in answer:
                    raise
        if "status" not in answer:
            if self.raise_server_exceptions:
                raise AssertionError("TestClient did not receive any response.")
            answer.update(status=500, headers=[])
        response = httpx.Response(answer["status"], headers=answer["headers"],
                                  stream=httpx.ByteStream(b"".join(answer["body"])),
                                  request=request)
        if answer["more"]:
            response.extensions["http.response.trailers"] = answer["trailers"]
        if "debug" in answer:
            response.extensions["http.response.debug"] = answer["debug"]
        return response


class _Cookies(httpx.Cookies):
    """A jar that reads only an answer that sets a cookie (httpx wraps every one in
    urllib's objects for the jar: a twentieth of a walk's CPU a request)."""

    def extract_cookies(self, response: httpx.Response) -> None:
        if "set-cookie" in response.headers:
            super().extract_cookies(response)


class LeanClient(TestClient):
    """A TestClient whose HTTP requests take :class:`_OneHandOff`'s one hand-off each."""

    def __init__(self, app: Any, **options: Any) -> None:
        super().__init__(app, **options)
        self._cookies = _Cookies(self._cookies)
        old = getattr(self, "_transport")  # noqa: B009 (httpx's, set by the TestClient)
        assert isinstance(old, _TestClientTransport)
        self._transport = _OneHandOff(
            old.app,
            portal_factory=old.portal_factory,
            raise_server_exceptions=old.raise_server_exceptions,
            root_path=old.root_path,
            app_state=old.app_state,
            client=old.client,
        )


@contextlib.contextmanager
def client(
    tmp_path: Path, *, full_analysis: bool = False, analysis: Any = None, **changes: Any
) -> Iterator[TestClient]:
    """A TestClient over a fresh server (SQLite under ``tmp_path``), started and stopped;
    its analyses on a test's budget (or on the settings ``analysis``) unless
    ``full_analysis``; each HTTP request one hand-off into the app's loop
    (:class:`LeanClient`)."""
    app = create_app(config(migrated(tmp_path / "games.sqlite3", changes), **changes))
    with LeanClient(app) as c:
        if not full_analysis:
            analyse_cheaply(app, analysis)
        yield c


def cheap_analysis() -> Any:
    """The analysis's settings asked to work less hard (a test, not a review): the expert
    thinks 5 ms, the advisor plays 8 and 16 deals, its first pass values each discard
    in a sample of draws rather than all of them and its exact search stops at 200,000
    positions where its own goes to 10 million (what the tests check is who sees the
    analysis, when and how it is stored, not its figures)."""
    from piquet.web.analysis import AnalysisSettings

    return AnalysisSettings(think_ms=5, samples=8, verify=16, budget=200_000, nodes=200_000)


def least_analysis() -> Any:
    """The analysis on the least budget it runs on: the expert thinks 1 ms, the advisor
    plays 2 deals of 2 discards, its first pass draws 20,000 and its exact search visits
    20,000 positions, for the tests that check
    which deals an analysis covers, whose cards it shows and how it is stored and sent,
    never a figure (each deal's still made by the same code, its fields alike)."""
    from piquet.web.analysis import AnalysisSettings

    return AnalysisSettings(think_ms=1, samples=2, verify=2, budget=20_000, nodes=20_000)


MISS = "not a password of anyone: evens out the time of a miss"
"""What the server's hash for a login under an unknown name is the hash of."""


@functools.cache
def cheap_hasher() -> Any:
    """Argon2id at its least cost (8 KiB, one pass, one lane): a login checks a hash in
    microseconds, where the server's own parameters (64 MiB, three passes, four lanes)
    take a tenth of a CPU-second; conftest's ``cheap_passwords`` has the server use it."""
    from argon2 import PasswordHasher

    return PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)


@functools.cache
def cheap_miss() -> str:
    """The hash a login under an unknown name is checked against, made by
    :func:`cheap_hasher` (the server's own is made by its hasher)."""
    return str(cheap_hasher().hash(MISS))


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def create(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def view(c: TestClient, game_id: str, token: str, wait: float = 0) -> dict[str, Any]:
    r = c.get(f"/api/games/{game_id}", headers=bearer(token), params={"wait": wait})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def pick(game: dict[str, Any], rng: random.Random) -> str:
    """A random legal action id for the seat whose view ``game`` is (its turn)."""
    legal = game["legal_actions"]
    assert legal, game
    if legal[0]["kind"] == "discard":
        lo, hi = legal[0]["min"], legal[0]["max"]
        hand = game["view"]["deal"]["hand"]
        k = rng.randint(lo, hi)
        cards = rng.sample(hand, k)
        return "discard:" + (" ".join(cards) if cards else "-")
    return str(rng.choice(legal)["id"])


def walk(
    c: TestClient,
    game_id: str,
    tokens: dict[int, str],
    rng: random.Random,
    *,
    check: Callable[[int, dict[str, Any]], None] | None = None,
    max_steps: int = 5000,
) -> dict[str, Any]:
    """Play ``game_id`` to its end at random through the API; the last view of seat 0.

    Human seats are those in ``tokens``; the AI plays the others (the walk waits for it).
    ``check(seat, response)`` sees every response.
    """
    first = next(iter(tokens))
    game = view(c, game_id, tokens[first])
    for _ in range(max_steps):
        if game["finished"]:
            break
        p = game["to_act"]
        if p not in tokens:
            # the computer is to act: wait for it (the wait ends at this seat's turn)
            game = view(c, game_id, tokens[first], wait=0.5)
            if check:
                check(first, game)
            continue
        mine = view(c, game_id, tokens[p])
        if check:
            check(p, mine)
        if not mine["your_turn"]:
            continue
        r = c.post(
            f"/api/games/{game_id}/actions",
            json={"action": pick(mine, rng)},
            headers=bearer(tokens[p]),
        )
        assert r.status_code == 200, r.text
        game = r.json()
        if check:
            check(p, game)
    else:  # pragma: no cover
        raise AssertionError("the game did not end")
    return view(c, game_id, tokens[first])


net = httpx.Client(
    cookies=CookieJar(DefaultCookiePolicy(allowed_domains=[])),  # type: ignore[arg-type]
    limits=httpx.Limits(max_connections=None, max_keepalive_connections=0),
)
"""Requests to a server at a URL as ``httpx.get`` sends them (a connection each, no cookie
kept), without its new client and TLS context each time: some 20 ms of CPU a request."""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def pg_available() -> bool:
    try:
        import psycopg

        with psycopg.connect(PG_URL, connect_timeout=3) as conn:
            conn.execute("select 1")
        return True
    except Exception:
        return False


def redis_available() -> bool:
    try:
        import redis

        r = redis.Redis.from_url(REDIS_URL, socket_connect_timeout=3)
        ok = bool(r.ping())
        r.close()
        return ok
    except Exception:
        return False


@contextlib.contextmanager
def pg_schema(*, migrated: bool = False) -> Iterator[str]:
    """A fresh PostgreSQL schema; yields a database URL whose search_path is that schema.
    ``migrated``: at the newest revision already (:func:`serverkit.migrated_pg`), as a
    database is on every server start but its first."""
    import psycopg

    name = "piquet_test_" + uuid.uuid4().hex[:12]
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{name}"')
    try:
        url = f"{PG_URL}?options=-csearch_path%3D{name}"
        yield migrated_pg(PG_URL, url) if migrated else url
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{name}" CASCADE')


class Server:
    """A ``piquet serve`` process on a free port.

    Unless ``args`` say otherwise it has one job worker (``--ai-workers 1``) and analyses
    a game's deals when a seat asks for them (``--analysis-on-request``), not as each
    ends: each further worker's start and each deal's analysis as played cost the
    machine CPU-seconds that a test which never reads them would pay in every server it
    starts (a test of the analyses as played passes ``as_played=True``).  Its workers
    import the levels at their first job (``PIQUET_WARM_WORKERS=0``: most servers here
    never ask the computer, and the imports cost 0.3 CPU-s a worker), and it neither
    collects nor freezes its start-up's objects (``PIQUET_FREEZE_START_UP=0``); with
    ``start_up="as served"`` it starts as a real server does (both on)."""

    def __init__(
        self, args: list[str], *, cwd: Path, port: int | None = None, as_played: bool = False,
        start_up: str = "lean",
    ) -> None:
        assert start_up in ("lean", "as served"), start_up
        self.start_up = start_up
        self.port = port or free_port()
        lean = []
        if not as_played and "--analysis-on-request" not in args:
            lean.append("--analysis-on-request")
        if "--ai-workers" not in args and "--jobs-ray" not in args:
            lean += ["--ai-workers", "1"]
        self.args = [*args, *lean]
        self.cwd = cwd
        self.proc: subprocess.Popen[bytes] | None = None
        self.log = cwd / f"server-{self.port}.log"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Server:
        exe = [sys.executable, "-m", "piquet", "serve", "--port", str(self.port), *self.args]
        env = {**os.environ, "PIQUET_FREEZE_START_UP": "0", "PIQUET_WARM_WORKERS": "0"}
        if self.start_up == "as served":
            env = {k: v for k, v in os.environ.items()
                   if k not in ("PIQUET_FREEZE_START_UP", "PIQUET_WARM_WORKERS")}
        self.proc = subprocess.Popen(
            exe, cwd=self.cwd, stdout=self.log.open("ab"), stderr=subprocess.STDOUT, env=env
        )
        deadline = time.monotonic() + START_CEILING
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise AssertionError(f"server exited: {self.log.read_text()}")
            try:
                if net.get(self.url + "/api/health", timeout=5).status_code == 200:
                    return self
            except httpx.HTTPError:
                pass
            time.sleep(0.1)
        self.kill()  # not left running by a test that never got to stop it
        raise AssertionError(f"server did not start: {self.log.read_text()}")

    def kill(self) -> None:
        """SIGKILL: no goodbye, no flush."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(10)


def health_when_redis(url: str, status: str, timeout: float = START_CEILING) -> httpx.Response:
    """The server at ``url``'s health answer once it says Redis is ``status`` (``"ok"``,
    ``"down"``); the test fails if it does not within ``timeout`` seconds.  Each process
    finds out through its own connections: a loaded machine's server may answer before it
    has subscribed, and another process having said so first is no sign that this one has."""
    deadline = time.monotonic() + timeout
    while True:
        health = net.get(url + "/api/health", timeout=30)
        if health.json()["redis"] == status:
            return health
        assert time.monotonic() < deadline, f"{url}: Redis never {status}: {health.text}"
        time.sleep(0.1)


@contextlib.contextmanager
def two_servers(tmp: Path, database: str, *options: str) -> Iterator[tuple[Server, Server]]:
    """Two ``piquet serve`` processes over one ``database`` (``options``: more of the
    command's options, such as ``--redis URL``), no rate limit; both stopped at the end.
    With Redis, each is handed over once its live updates are subscribed there (health's
    ``redis`` is ``ok``): a loaded machine's server may answer before (its quotas then
    said "per process", its sockets "live: false", and tests that read them failed)."""
    common = ["--database", database, "--rate-limit", "0", *options]
    a = Server(common, cwd=tmp).start()
    b = Server(common, cwd=tmp)
    try:
        b.start()
        if "--redis" in options:
            deadline = time.monotonic() + START_CEILING
            for s in (a, b):
                health_when_redis(s.url, "ok", deadline - time.monotonic())
        yield a, b
    finally:
        a.stop()
        b.stop()


Post = Callable[..., Any]
"""A POST to a path of one server: a test client's ``post``, an ``httpx.Client``'s, or
:func:`poster`'s for a server at a URL."""


def poster(url: str) -> Post:
    """POST to the server at ``url``."""
    return lambda path, **kw: net.post(url + path, **kw)


def offer(post: Post, **body: Any) -> dict[str, Any]:
    """A game against a friend made through ``post`` (``body``: more of the request), as
    the server answered it: its id, the maker's token and the invitation."""
    r = post("/api/games", json={"opponent": "friend", **body})
    assert r.status_code == 201, r.text
    made: dict[str, Any] = r.json()
    return made


def accept(post: Post, made: dict[str, Any], name: str | None = None) -> str:
    """The friend takes the seat offered in ``made`` through ``post``: the seat's token."""
    join = {"invite": made["invites"][0]["invite"]}
    if name is not None:
        join["name"] = name
    r = post(f"/api/games/{made['id']}/join", json=join)
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    return token


def friend_game(
    post: Post, *, guest: str | None = None, **body: Any
) -> tuple[str, dict[int, str]]:
    """A game between two people (no computer), made and joined through ``post``: its id
    and each seat's token (``body``: more of the request that makes it; ``guest``: the
    name of the one who joins)."""
    made = offer(post, **body)
    return made["id"], {0: made["token"], 1: accept(post, made, guest)}


def at_once(k: int, fn: Callable[[int], Any]) -> list[Any]:
    """``fn(i)`` from ``k`` threads released together; the results in order (the first
    exception raised in a thread is raised here)."""
    barrier = threading.Barrier(k)
    out: list[Any] = [None] * k
    failed: list[BaseException] = []

    def run(i: int) -> None:
        barrier.wait()
        try:
            out[i] = fn(i)
        except BaseException as exc:  # the test's thread, not this one, must fail
            failed.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(k)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if failed:
        raise failed[0]
    return out


DATABASES = ["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)]
"""The two databases a test of the store is parametrized over (``kind``)."""


@contextlib.contextmanager
def two_processes(kind: str, tmp_path: Path, *, news: bool = False
                  ) -> Iterator[tuple[Games, Games]]:
    """Two processes' :class:`Games` over one database of ``kind`` (``sqlite`` under
    ``tmp_path``, or a fresh PostgreSQL schema; skips when none answers), closed after.
    Without PostgreSQL's ``news`` unless asked: each look at a game then checks its
    version, so that a write through one is seen by the next look through the other at
    once (with the news, a look that names no log length may come a few milliseconds
    before the news does: tests/test_web_news.py)."""
    if kind == "postgresql":
        if not pg_available():
            pytest.skip("no PostgreSQL at 127.0.0.1:5432/test")
        with pg_schema(migrated=True) as url:
            yield from _two_opened(database_url(url, tmp_path), news)
    else:
        yield from _two_opened(database_url(None, tmp_path), news)


def _two_opened(url: str, news: bool) -> Iterator[tuple[Games, Games]]:
    a_store, b_store = Store.open(url), Store.open(url)
    try:
        yield Games(a_store, shared=True, news=news), Games(b_store, shared=True, news=news)
    finally:
        a_store.close()
        b_store.close()


class ThreadServer:
    """uvicorn in a thread of this process, on a free port, over a fresh SQLite file."""

    def __init__(self, tmp: Path, *, full_analysis: bool = False, **changes: Any) -> None:
        """Over ``tmp``; its analyses on a test's budget unless ``full_analysis``."""
        import uvicorn

        self.full_analysis = full_analysis
        self.port = free_port()
        self.app = create_app(config(migrated(tmp / "games.sqlite3", changes), **changes))
        self.server = uvicorn.Server(
            uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="error")
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> ThreadServer:
        self.thread.start()
        deadline = time.monotonic() + START_CEILING
        while not self.server.started and time.monotonic() < deadline:
            time.sleep(0.05)
        assert self.server.started
        if not self.full_analysis:
            analyse_cheaply(self.app)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


def chromium_available() -> bool:
    return os.path.exists(CHROMIUM) and shutil.which(CHROMIUM) is not None


# ---------------------------------------------------------------------- tests of the footing
def test_front_end_never_writes_markup_from_data() -> None:
    """Names and every server text reach the page as text nodes, never as HTML."""
    for f in STATIC.glob("*.js"):
        text = f.read_text(encoding="utf-8")
        for sink in ("innerHTML", "outerHTML", "insertAdjacentHTML", "document.write", "eval("):
            assert sink not in text, f"{f.name} uses {sink}"


def test_front_end_needs_no_build_step() -> None:
    """The page loads its script and style straight from the package."""
    index = (STATIC / "index.html").read_text(encoding="utf-8")
    assert 'src="/static/app.js' in index and 'href="/static/style.css' in index
    for name in ("app.js", "cards.js", "style.css", "favicon.svg"):
        assert (STATIC / name).is_file()


@pytest.mark.parametrize("text", ["QH", "TD 7C", "play:AS"])
def test_card_pattern_finds_cards(text: str) -> None:
    assert CARD.findall(text)


def test_playwright_keeps_its_features_off() -> None:
    """CHROMIUM_ARGS's --disable-features replaces Playwright's own: every feature the
    installed Playwright turns off is in it (PLAYWRIGHT_OFF copied again when it changes)."""
    playwright = pytest.importorskip("playwright")
    bundle = Path(playwright.__file__).parent / "driver/package/lib/coreBundle.js"
    if not bundle.is_file():
        pytest.skip(f"no {bundle}")
    found = re.search(r"disabledFeatures = \[(.*?)\]\.filter\(Boolean\)",
                      bundle.read_text(encoding="utf-8"), re.DOTALL)
    assert found, f"Playwright's list of features turned off not found in {bundle}"
    code = "\n".join(line.split("//")[0] for line in found.group(1).splitlines())
    theirs = set(re.findall(r'"(\w+)"', code))
    assert theirs and theirs <= set(CHROMIUM_OFF), sorted(theirs - set(CHROMIUM_OFF))
