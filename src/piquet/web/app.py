"""The ASGI application: the HTTP API (documented by OpenAPI at ``/openapi.json``), the
WebSocket of live updates, and the browser table's static files.

Build it with :func:`create_app` from a :class:`WebConfig`; ``piquet serve`` runs it under
uvicorn.  Every error is a JSON object ``{"error": "..."}`` that says what was wrong
(:mod:`piquet.web.errors`).  The routes are module-level routers (:mod:`piquet.web.game_routes`,
:mod:`piquet.web.health`, ...) that read the running :class:`~piquet.web.server.Server`
through one dependency (:data:`~piquet.web.server.ServerOf`); the API's shapes are in
:mod:`piquet.web.models`.
"""

from __future__ import annotations

import contextlib
import functools
import gc
import logging
import os
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

from anyio import to_thread
from fastapi import FastAPI
from fastapi._body_limit import AppBodyLimitMiddleware
from fastapi.telemetry._asgi import ExceptionTelemetryMiddleware
from starlette.middleware.errors import ServerErrorMiddleware

from piquet import __version__
from piquet.jobs import JobQueue, Quotas
from piquet.jobs.shared import SharedQuotas
from piquet.web import (
    accounts,
    clocks,
    evenmatch,
    game_routes,
    health,
    learn_routes,
    people,
    players,
    practice,
    progress,
    rated,
    talk,
)
from piquet.web.accounts import csrf_refusal
from piquet.web.ai import AiRunner
from piquet.web.clocks import Clocks, Sweeper
from piquet.web.errors import HTTP_STATUS, add_error_handlers
from piquet.web.game_routes import only_move_words
from piquet.web.games import Entry, Games
from piquet.web.hot import HotRoutes
from piquet.web.hub import Hub, RedisHub
from piquet.web.limits import Guards
from piquet.web.models import ConflictOut, LegalActionOut, ViewOut
from piquet.web.pages import STATIC, add_pages
from piquet.web.players import mount_docs
from piquet.web.rated import settle_if_over
from piquet.web.schema import complete_schema
from piquet.web.server import Parts, Server
from piquet.web.store import Store

__all__ = [
    "HTTP_STATUS",
    "STATIC",
    "ConflictOut",
    "LegalActionOut",
    "ViewOut",
    "WebConfig",
    "create_app",
    "only_move_words",
]

log = logging.getLogger("piquet.web")


@dataclass(frozen=True, slots=True, kw_only=True)
class WebConfig:
    """How a server runs.  Only ``database`` (a SQLAlchemy URL) is required."""

    database: str
    redis: str | None = None
    """Redis URL for fanning live updates out to other server processes."""
    redis_channel: str = "piquet:games"
    rate: float = 20.0
    """Requests a second per client address on /api (0: no limit)."""
    burst: int = 80
    create_per_minute: float = 30.0
    """New games a minute per client address (0: no limit)."""
    max_body: int = 16384
    ai_executor: str = "process"
    """``process``, ``thread`` or ``ray``: where the computer's jobs (moves, hints,
    analyses) run: worker processes, threads of the server (the tests), or the Ray
    cluster at ``ray_address`` (workers on other machines)."""
    ai_workers: int | None = None
    """Job workers (default: up to 4, one per core; with Ray, the cluster's CPUs)."""
    warm_workers: bool = field(
        default_factory=lambda: os.environ.get("PIQUET_WARM_WORKERS", "1").strip() != "0")
    """Each job worker process imports the levels and the advisor as it starts, so that
    the first move does not wait for them (about 0.3 CPU-s a worker).  Off
    (``PIQUET_WARM_WORKERS=0``): a worker imports them with its first job, as each job
    imports what it needs; a server that never runs one (the tests' many short-lived
    servers of games between people) never pays for them."""
    ray_address: str | None = None
    """The Ray cluster of ``ai_executor="ray"``: ``host:port``, ``auto`` or ``local``."""
    quotas: Quotas = field(default_factory=Quotas)
    """Jobs one client may have going at once, and the workers analyses may hold."""
    think_ms: int | None = None
    cache_size: int = 4096
    """Games held in memory (the most recently used)."""
    shared: bool | None = None
    """Other processes write to the same database: check a game held in memory against it
    before showing it.  None: shared for every database but SQLite."""
    db_news: bool = field(
        default_factory=lambda: os.environ.get("PIQUET_DB_NEWS", "1").strip() != "0")
    """PostgreSQL: hear every process's writes through the database's own news
    (LISTEN/NOTIFY, :mod:`piquet.web.pgnews`) and serve a game held in memory without
    reading its version while that news says it is current.  Off (``PIQUET_DB_NEWS=0``):
    every look at a shared game reads its version first, as before."""
    sqlite_sync: str = "full"
    """SQLite only: ``full`` (every commit on disk) or ``normal`` (survives a process crash)."""
    threads: int = 16
    """Worker threads for blocking work (database reads on a cache miss, records, hints)."""
    sockets_per_client: int = 16
    """WebSockets one client address may hold open at once (0: no cap); one more is
    closed with 4429, so one client cannot hold most of the connections."""
    analyse_as_played: bool = True
    """Analyse each deal of a game as it ends, while the next is played, so that the
    review is ready as the game ends (False: only when a seat asks for the analysis)."""
    freeze_start_up: bool = field(
        default_factory=lambda: os.environ.get("PIQUET_FREEZE_START_UP", "1").strip() != "0")
    """At start-up, collect and then freeze what start-up made (modules, the AI's
    tables), keeping it out of the collector's full passes for the server's life.  False
    in a process that starts many short-lived servers (the tests): each full collection
    there walks everything the process holds, a sixth of a CPU-second a start; and off
    (``PIQUET_FREEZE_START_UP=0``) for the tests' short-lived ``piquet serve`` processes,
    where the collection was a tenth of what starting one cost."""
    full_pass_every: int | None = 100
    """With ``freeze_start_up``: the collector's full pass (generation 2) comes after this
    many passes of generation 1 (Python's default 10), the young passes as Python makes
    them.  A served game's state holds no reference cycles: at 500 games the full passes
    freed nothing, where each walked every game in memory (up to 165 ms of CPU, the event
    loop stopped, every 5 to 6 s; docs/web.md).  None: Python's thresholds."""


@contextlib.asynccontextmanager
async def _lifespan(config: WebConfig, state: Server) -> AsyncIterator[None]:
    """Open the database, start the hub, the job workers, the games and their clocks;
    stop them all at the end."""
    store = await to_thread.run_sync(
        functools.partial(Store.open, config.database, sqlite_sync=config.sqlite_sync)
    )
    hub: Hub = RedisHub(config.redis, channel=config.redis_channel) if config.redis else Hub()
    await hub.start()
    # few threads: with the games in memory only misses and rare requests block
    to_thread.current_default_thread_limiter().total_tokens = config.threads
    # the computer's workers start importing the levels now, not waited for
    # with Redis, each client's quotas are counted across the processes
    shared = SharedQuotas(config.redis) if config.redis else None
    jobs = JobQueue(config.ai_workers, mode=config.ai_executor, quotas=config.quotas,
                    ray_address=config.ray_address, shared=shared,
                    warm=config.warm_workers)
    if config.ai_executor == "ray":  # joins the cluster first (seconds)
        await to_thread.run_sync(jobs.start)
    else:
        jobs.start()
    games = Games(
        store, cache_size=config.cache_size, shared=config.shared, announce=hub.publish,
        news=config.db_news,
    )
    # PostgreSQL's news of the other processes' writes wakes the watchers here
    games.hear_news(hub.deliver, hub.wake_all)
    ai = AiRunner(games, hub, jobs, think_ms=config.think_ms)

    async def on_over(entry: Entry) -> None:
        try:
            await settle_if_over(games, entry)
        except Exception as exc:
            log.warning("rating the game %s failed (%s): it is settled at the next "
                        "look", entry.row.id, exc.__class__.__name__)

    games.on_over = on_over
    if config.analyse_as_played:
        from piquet.web.analysis import analyses_of

        async def on_deal_over(entry: Entry) -> None:
            # a deal is over: its analysis is made now, while the next is played
            try:
                await analyses_of(state).after_deal(entry)
            except Exception as exc:
                log.warning("the analysis of game %s was not started (%s): it is made "
                            "when asked for", entry.row.id, exc.__class__.__name__)

        games.on_deal_over = on_deal_over
    clocks = Clocks(games)
    state.clocks = clocks
    games.before_move = clocks.enforce
    sweeper = Sweeper(clocks)
    state.parts = Parts(store=store, hub=hub, games=games, ai=ai, jobs=jobs)
    # What start-up made (modules, the AI's tables) lives as long as the server: keep
    # it out of the collector's full passes, which otherwise stall every request.
    thresholds = gc.get_threshold()
    if config.freeze_start_up:
        gc.collect()
        gc.freeze()
        if config.full_pass_every is not None:
            gc.set_threshold(thresholds[0], thresholds[1], config.full_pass_every)
    sweeper.start()
    try:
        yield
    finally:
        await sweeper.stop()
        if config.freeze_start_up:
            gc.set_threshold(*thresholds)
            gc.unfreeze()
        await ai.stop()
        await hub.stop()
        await to_thread.run_sync(jobs.stop)
        if shared is not None:
            await shared.close()
        store.close()


class _Api(FastAPI):
    """FastAPI, with a request for one of the two routes a game is played by (the seat's
    view, an action: :meth:`HotRoutes.claims <piquet.web.hot.HotRoutes.claims>`) handed
    straight to the guards (:class:`~piquet.web.limits.Guards`, which hand it on to the
    short way), inside an error middleware of its own made as FastAPI makes its outer
    one (the same handler: a bug is said the same way), past the layers between: FastAPI's
    telemetry (off here: :func:`create_app`) and its body limit (none set: the guards
    limit the body).  Every other request, the lifespan and the sockets go FastAPI's way
    through every layer; so does every request when the layers are not as expected."""

    _front: tuple[Any, HotRoutes] | None = None
    _no_front = False

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        front = self._front
        if front is None and not self._no_front and scope["type"] == "http":
            front = self._front = self._front_way()
            self._no_front = front is None
        if (front is not None and scope["type"] == "http" and not self.root_path
                and front[1].claims(scope)):
            scope["app"] = self
            await front[0](scope, receive, send)
            return
        await super().__call__(scope, receive, send)

    def _front_way(self) -> tuple[Any, HotRoutes] | None:
        """(the error middleware over the guards, the short way) or None when FastAPI's
        layers are not those this was made for (telemetry on, a body limit set)."""
        if self.middleware_stack is None:
            self.middleware_stack = self.build_middleware_stack()
        outer = self.middleware_stack
        hot = getattr(self.state, "hot", None)
        if not isinstance(outer, ServerErrorMiddleware) or not isinstance(hot, HotRoutes):
            return None  # pragma: no cover - FastAPI builds its stack so
        layer = outer.app
        between = (ExceptionTelemetryMiddleware, AppBodyLimitMiddleware)
        while isinstance(layer, between):
            if isinstance(layer, AppBodyLimitMiddleware) and self.max_body_size is not None:
                return None  # pragma: no cover - none is set
            layer = layer.app
        if not isinstance(layer, Guards) or self._native_telemetry.enabled():
            return None  # pragma: no cover
        return ServerErrorMiddleware(layer, handler=outer.handler, debug=outer.debug), hot


def create_app(config: WebConfig) -> FastAPI:
    """The application for ``config``; the database is opened (and migrated) at start-up."""
    state = Server(create_per_minute=config.create_per_minute)
    app = _Api(
        title="Piquet",
        version=__version__,
        description=(
            "Play Piquet against the computer or a friend.  A seat's token (from creating "
            "or joining a game) goes in `Authorization: Bearer TOKEN`.  Every error is "
            '`{"error": "..."}`.  Live updates: the WebSocket `/api/games/{id}/ws` (send '
            '`{"token": TOKEN}` first).'
        ),
        lifespan=lambda _app: _lifespan(config, state),
        docs_url=None,  # served from the installed Swagger UI files: mount_docs
        redoc_url=None,
        # no OpenTelemetry here: without this FastAPI asks, on every request, whether a
        # tracer, a meter or a logger was set up (the environment, the providers)
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    mount_docs(app)
    complete_schema(app)  # the answers every route may give, listed on every route
    app.state.piquet = state  # the server's parts (store, games, hub, ai): every route's
    add_error_handlers(app)
    add_pages(app)
    app.include_router(health.router)
    app.include_router(game_routes.router)  # options, games, actions, hints, records
    _include_routers(app, state)
    # the seat's view and its action: a short way, behind the guards
    app.state.hot = hot = HotRoutes()
    # every guard in one layer: security headers, rate, sockets, body size, CSRF
    app.add_middleware(
        Guards,
        rate=config.rate,
        burst=config.burst,
        create_per_minute=config.create_per_minute,
        max_body=config.max_body,
        sockets_per_client=config.sockets_per_client,
        csrf=csrf_refusal,
        hot=hot,
    )
    _flatten_routes(app)
    return app


def _flatten_routes(app: FastAPI) -> None:
    """Each included router's routes put in the application's own list, in their place,
    where the router was included as it is (no prefix, tags, dependencies or answers
    added by the inclusion: ours are).  FastAPI 0.165 keeps an included router as one
    entry that it matches by matching its routes, after asking each router whether its
    routes changed, at every request: a request that goes FastAPI's way (any but the
    view and the action) cost more the later its router was included (``GET
    /api/games/{id}/clock``, the twelfth, about 1 ms of CPU where the games' creation,
    in the first, cost half that).  The routes and their order are the same, so is the
    OpenAPI schema (``tests/test_web_cost_answer.py``)."""
    from fastapi.routing import _IncludedRouter, _RouterIncludeContext

    routes: list[Any] = []
    for route in app.router.routes:
        if isinstance(route, _IncludedRouter):
            plain = _RouterIncludeContext.for_include(
                parent_router=app.router, included_router=route.original_router)
            if route.include_context == plain and not any(
                    isinstance(r, _IncludedRouter) for r in route.original_router.routes):
                routes.extend(route.original_router.routes)
                continue
        routes.append(route)
    app.router.routes[:] = routes
    app.router._mark_routes_changed()


def _include_routers(app: FastAPI, state: Server) -> None:
    """The rest of the API, in the order its description lists it."""
    from piquet.web import ws  # the game's WebSocket

    app.include_router(ws.router)
    from piquet.web import tally  # the tally of games played with real cards

    app.include_router(tally.router)
    app.include_router(practice.router)  # undo, resign, rematch
    app.include_router(learn_routes.router)  # the glossary, lessons, puzzles, guided deal
    app.include_router(players.router)  # your games, invitations, the rules
    app.include_router(accounts.router)
    app.include_router(progress.router)  # the lessons' progress, kept
    app.include_router(rated.router)
    app.include_router(talk.router)  # the chat, takebacks, abort
    app.include_router(clocks.router)
    app.include_router(people.router)  # who is online, seeks, games in play
    from piquet.web import review_routes  # play from here (the analysis)

    app.include_router(review_routes.router)
    app.include_router(evenmatch.router)  # /api/me/opponent
    from piquet.web.beyond import add_beyond  # the analysis, the lobby, spectators

    add_beyond(app, state)
