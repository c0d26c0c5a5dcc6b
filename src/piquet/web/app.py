"""The ASGI application: the HTTP API (documented by OpenAPI at ``/openapi.json``), the
WebSocket of live updates, and the browser table's static files.

Build it with :func:`create_app` from a :class:`WebConfig`; ``piquet serve`` runs it under
uvicorn.  Every error is a JSON object ``{"error": "..."}`` that says what was wrong.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import gc
import logging
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Final

from anyio import to_thread
from fastapi import Body, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, ConfigDict, Field, StrictBool
from sqlalchemy.exc import SQLAlchemyError
from starlette.exceptions import HTTPException as StarletteHTTPException

from piquet import __version__
from piquet.core.rules import DEFAULT_PRESET, PRESETS
from piquet.jobs import JobFailed, JobQueue, Kind, QuotaFull, Quotas
from piquet.jobs.shared import SharedQuotas
from piquet.jobs.work import HINT
from piquet.levels import LEVEL_LABELS, LEVEL_NAMES, LEVEL_NOTES, level_named
from piquet.levels import default_level as strongest_of
from piquet.notation import dump_text
from piquet.table.errors import Refusal, TableError
from piquet.table.summary import TITLES, format_label, rules_summary
from piquet.web.accounts import ACCOUNT_COOKIE, CsrfGuard, account_of, accounts_router
from piquet.web.acting import take
from piquet.web.ai import AiRunner
from piquet.web.clocks import ClockIn, Clocks, Sweeper, clocks_router
from piquet.web.evenmatch import evenmatch_router
from piquet.web.games import FRIEND, Entry, Games
from piquet.web.hub import Hub, RedisHub
from piquet.web.ids import Creds, GameId, client_of, token_of
from piquet.web.learn_routes import learn_router
from piquet.web.limits import BodyLimit, RateLimit, SecurityHeaders, SocketCap
from piquet.web.players import mount_docs, players_router
from piquet.web.practice import practice_router
from piquet.web.rated import (
    RATED_FORMATS,
    rated_game,
    rated_joiner,
    rated_router,
    settle_if_over,
    start_rated,
    start_rating,
    take_rated_seat,
)
from piquet.web.refusals import preset_named
from piquet.web.schema import Count, complete_schema
from piquet.web.server import Parts, Server
from piquet.web.store import Store, StoreError, plainly, reason_of, unavailable_words

__all__ = ["HTTP_STATUS", "WebConfig", "create_app"]

log = logging.getLogger("piquet.web")
STATIC = Path(__file__).parent / "static"
#: What a person at an address that is not a page of the table sees (the API keeps JSON).
_NOT_FOUND_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Piquet: no such page</title>
<link rel="icon" href="/static/favicon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/style.css"></head>
<body><header class="topbar"><a class="brand" href="/"><span class="brand-suit">♠</span>Piquet</a>
</header><main id="main" class="main"><div class="panel" id="not-found">
<h2>No such page</h2><p>There is nothing at this address: it may be mistyped.</p>
<p><a href="/">Go to the card table</a></p></div></main></body></html>
"""
HTTP_STATUS: dict[Refusal, int] = {
    Refusal.UNREADABLE: 400,
    Refusal.NO_TOKEN: 401,
    Refusal.NOT_FOUND: 404,
    Refusal.NOT_NOW: 409,
    Refusal.GONE: 410,
    Refusal.AGAINST_RULES: 422,
    Refusal.UNAVAILABLE: 503,
}
"""How each refusal is said in HTTP (here only: the rest of the code speaks of kinds)."""
RETRY: Final[dict[str, str]] = {"retry-after": "5"}
"""Every 503 says when to try again."""


def unavailable(said: str) -> dict[str, str]:
    """The body of a 503: the fault in plain words (see :func:`piquet.web.store.plainly`)."""
    return {"error": unavailable_words(said)}


HEALTH_WAIT = 3.0
"""Seconds the health check waits for the database."""
HEALTH_FRESH = 1.0
"""Seconds a probe of the database (a read and a write) serves the health checks that
follow (they may come often: a load balancer's, a monitor's); a write failed since is
said at once."""


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
    freeze_start_up: bool = True
    """At start-up, collect and then freeze what start-up made (modules, the AI's
    tables), keeping it out of the collector's full passes for the server's life.  False
    in a process that starts many short-lived servers (the tests): each full collection
    there walks everything the process holds, a sixth of a CPU-second a start."""


# ---------------------------------------------------------------------- schema models
class ErrorOut(BaseModel):
    error: str = Field(description="What was wrong, and what is allowed.")


class ConflictOut(BaseModel):
    error: str = Field(description="What was wrong, and what is allowed.")
    game: dict[str, Any] | None = Field(
        None, description="For an action: the seat's view as the game stands now."
    )


FORMATS = sorted({f.value for r in PRESETS.values() for f in r.formats})


def _opponent_enum(schema: dict[str, Any]) -> None:
    """The opponents allowed, listed in the schema (when it is written: the AI levels are
    imported then, not when this module is)."""
    schema["enum"] = [*_levels(), FRIEND]


class NewGameIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    rules: str = Field(
        DEFAULT_PRESET,
        max_length=64,
        description="A rule set (preset) name.",
        json_schema_extra={"enum": list(PRESETS)},
    )
    format: str | None = Field(
        None,
        max_length=16,
        description="game, partie or pool (default: the rule set's; which a rule set "
        "plays: /api/options).",
        json_schema_extra={"enum": [*FORMATS, None]},
    )
    opponent: str = Field(
        "random",
        max_length=32,
        description="An AI level (see /api/options) or 'friend'.",
        json_schema_extra=_opponent_enum,
    )
    opponents: (
        list[Annotated[str, Field(max_length=32, json_schema_extra=_opponent_enum)]] | None
    ) = Field(None, max_length=2, description="For a pool of three: the two other seats.")
    hints: StrictBool = Field(False, description="Offer the advisor's hints (when installed).")
    name: str | None = Field(None, max_length=100, description="Your name at the table.")
    clock: ClockIn | None = Field(
        None,
        description="A clock, for a game against a friend: live {minutes, increment} or "
        "correspondence {days}.  None: no clock.",
    )
    rated: StrictBool = Field(
        False,
        description="A rated game (Glicko-2, per format): you must be logged in, the "
        "opponent a friend who logs in to join, the format a game or a partie.",
    )


class InviteOut(BaseModel):
    seat: int
    invite: str = Field(description="The invitation code (a secret; share the link).")
    url: str = Field(description="The link to send: /join/ID#invite=CODE.")


class CreatedOut(BaseModel):
    id: str
    token: str = Field(description="The seat's secret: send it as Authorization: Bearer TOKEN.")
    seat: int
    invites: list[InviteOut] = []


class ActionIn(BaseModel):
    action: str = Field(
        max_length=200,
        description="An action id from legal_actions; in the exchange discard:CARDS "
        "(e.g. 'discard:7S 8S', or 'discard:-' for none).",
    )
    n: Count | None = Field(
        None,
        description="The log length (`n`) of the view acted on.  With it a retry is safe: if "
        "the action was already recorded the answer is 200 and the game as it stands, and "
        "if the game moved on otherwise, 409 with the game.  Without it (accepted for this "
        "release only) the action applies to the game as it stands, so a retry may apply "
        "it twice.",
    )


class JoinIn(BaseModel):
    invite: str = Field(max_length=200)
    name: str | None = Field(None, max_length=100)


class JoinedOut(BaseModel):
    id: str
    token: str
    seat: int


class LegalActionOut(BaseModel):
    """One item of the table's menu (:class:`piquet.table.menu.MenuItem`)."""

    id: str
    kind: str
    label: str = Field(description="In the period's words.")
    cards: list[str]
    offer: bool | None = Field(
        None, description="Whether the table offers it (every item but the exchange's).")
    min: int | None = Field(None, description="The exchange: the fewest cards to discard.")
    max: int | None = Field(None, description="The exchange: the most cards to discard.")


class FirstLeadOut(BaseModel):
    how: str = Field(description="named or appointed")
    held: bool | None = Field(description="Whether elder holds it (null: this seat cannot "
                              "know).")


class SeatOut(BaseModel):
    seat: int
    name: str
    kind: str
    level: str | None
    joined: bool


class TakebackOut(BaseModel):
    asked: int | None = Field(description="The seat whose takeback waits for an answer.")
    can_ask: bool = Field(description="This seat may ask to take back its last move.")


class ViewOut(BaseModel):
    id: str
    seat: int
    n: int = Field(description="The log's length: actions and the table's own entries "
                   "(undo, resign, rematch) so far; the game's version, it only grows.")
    rules: str
    format: str
    finished: bool
    to_act: int | None
    your_turn: bool
    legal_actions: list[LegalActionOut]
    first_lead: FirstLeadOut | None = Field(
        description="How elder's first lead is bound, until the first trick.")
    seats: list[SeatOut]
    hints: bool
    view: dict[str, Any] = Field(description="The seat's view: exactly Match.view(seat).")
    result: dict[str, Any] | None
    practice: bool = Field(description="Every other seat is the computer (undo allowed).")
    can_undo: bool
    resigned: int | None = Field(description="The seat that resigned, or null.")
    rematch: str | None = Field(description="The rematch's game id, or null.")
    rematch_mine: bool = Field(description="This seat made the rematch.")
    last_deal: dict[str, Any] | None = Field(
        description="The seat's view of the deal just finished, as it stood at its end."
    )
    computer_problem: str | None = Field(
        None, description="Why the computer cannot move now, in words (only while so).")
    takeback: TakebackOut = Field(description="A takeback between two people.")
    aborted: int | None = Field(description="The seat that aborted the game, or null.")
    can_abort: bool = Field(description="This seat may abort (before its first move).")
    timed_out: int | None = Field(description="The seat whose clock ran out, or null.")


class HealthOut(BaseModel):
    ok: bool
    version: str
    database: str = Field(description="ok, or failing (then the answer is 503).")
    redis: str = Field(description="ok, down (live updates degraded: pages poll), or off.")
    quotas: str = Field(
        "per process", description="Where each client's quotas of hints and analyses are "
        "counted: shared (across the server's processes, through Redis), or per process "
        "(one process, or Redis down).")
    error: str | None = Field(None, description="What is failing.")
    workers: dict[str, Any] | None = Field(
        None, description="The computer's job workers: status (ok, degraded: some being "
        "replaced, down), how many and alive, replaced since start, jobs waiting and "
        "running by kind, done and failed.")


class InvitesOut(BaseModel):
    invites: list[InviteOut]


class HintOut(BaseModel):
    hint: str


class ReplayOut(BaseModel):
    id: str
    steps: int
    step: int
    action: dict[str, Any] | None = Field(
        description="the step's action: its player, its id and the dialog lines it added "
        "(lines: player, said, deed)")
    names: list[str]
    views: dict[str, dict[str, Any]]
    resigned: int | None = Field(
        None, description="at the last step of a resigned game, the seat that resigned")


class RuleSetOut(BaseModel):
    name: str
    title: str
    summary: list[str]
    summaries: dict[str, list[str]] = Field(
        description="the summary of a game in each format (``summary``: of the rule set)")
    formats: list[str]
    format_labels: dict[str, str]
    default_format: str
    partie_deals: int
    target: int


def _level_ratings(levels: list[str]) -> dict[str, dict[str, int]]:
    """The levels' ratings on the accounts' scale, per format (those the ladder placed)."""
    from piquet.scale import FORMATS, level_rating

    out: dict[str, dict[str, int]] = {}
    for name in levels:
        found = {fmt: r for fmt in FORMATS if (r := level_rating(name, fmt)) is not None}
        if found:
            out[name] = {fmt: round(r.rating) for fmt, r in found.items()}
    return out


class OptionsOut(BaseModel):
    rules: list[RuleSetOut]
    default_rules: str
    levels: list[str]
    default_level: str
    level_notes: dict[str, str]
    level_labels: dict[str, str]
    level_ratings: dict[str, dict[str, int]] = Field(
        description="Each computer level's rating on the accounts' Glicko-2 scale, per "
        "format (game, partie), where the ladder placed it (piquet.scale; a new account "
        "starts at 1500, Nell's rating); a level not placed is absent.")
    opponents: list[str]
    hints_available: bool
    record_formats: list[str]
    version: str




def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The documented error answers: ``codes``, and 503 (the database is failing)."""
    return {c: {"model": ErrorOut} for c in (*codes, 503)}


def _levels() -> list[str]:
    """The computer's levels (from the light :mod:`piquet.levels`: a web process never
    imports the players themselves)."""
    return list(LEVEL_NAMES)


def _with_families(opponents: list[str]) -> list[str]:
    """The AI levels a new game may name: the listed ones, and a parametrised name among
    ``opponents`` (``adaptive-480``: the adaptive opponent starting at a rating)."""
    levels = _levels()
    for o in opponents:
        key = o.strip().lower()
        if key not in levels and level_named(key):
            levels.append(key)
    return levels


def default_level() -> str:
    """The opponent a new game offers first: the terminal's default (the strongest)."""
    return strongest_of(LEVEL_NAMES)


def only_move_words(view: Any) -> str:
    """What a hint says where the advisor has no advice: the one move there is, or that
    any choice will do."""
    deal = view.deal
    legal: tuple[Any, ...] = tuple(deal.legal_actions) if deal is not None else ()
    if len(legal) == 1:
        from piquet.learn.words import action_label

        return f"Only one move here: {action_label(legal[0], deal.hand.mask, view.rule_set)}."
    return "Any of these will do here: no choice is better than another."


# ---------------------------------------------------------------------- the app
def create_app(config: WebConfig) -> FastAPI:
    """The application for ``config``; the database is opened (and migrated) at start-up."""
    state = Server()

    @contextlib.asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
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
                        ray_address=config.ray_address, shared=shared)
        if config.ai_executor == "ray":  # joins the cluster first (seconds)
            await to_thread.run_sync(jobs.start)
        else:
            jobs.start()
        games = Games(
            store, cache_size=config.cache_size, shared=config.shared, announce=hub.publish
        )
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
        if config.freeze_start_up:
            gc.collect()
            gc.freeze()
        sweeper.start()
        try:
            yield
        finally:
            await sweeper.stop()
            if config.freeze_start_up:
                gc.unfreeze()
            await ai.stop()
            await hub.stop()
            await to_thread.run_sync(jobs.stop)
            if shared is not None:
                await shared.close()
            store.close()

    app = FastAPI(
        title="Piquet",
        version=__version__,
        description=(
            "Play Piquet against the computer or a friend.  A seat's token (from creating "
            "or joining a game) goes in `Authorization: Bearer TOKEN`.  Every error is "
            '`{"error": "..."}`.  Live updates: the WebSocket `/api/games/{id}/ws` (send '
            '`{"token": TOKEN}` first).'
        ),
        lifespan=lifespan,
        docs_url=None,  # served from the installed Swagger UI files: mount_docs
        redoc_url=None,
        # no OpenTelemetry here: without this FastAPI asks, on every request, whether a
        # tracer, a meter or a logger was set up (the environment, the providers)
        telemetry={"tracing": False, "metrics": False, "logs": False},
    )
    mount_docs(app)
    complete_schema(app)  # the answers every route may give, listed on every route
    app.state.piquet = state  # the server's parts (store, games, hub, ai), for tests and tools
    index_html = (
        (STATIC / "index.html").read_text(encoding="utf-8").replace("{{version}}", __version__)
    )

    def games() -> Games:
        g: Games = state.games
        return g

    def the_clocks() -> Clocks:
        assert state.clocks is not None
        return state.clocks

    async def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return await to_thread.run_sync(functools.partial(fn, *args, **kwargs))

    # ------------------------------------------------------------------ errors
    @app.exception_handler(TableError)
    async def _game_error(_r: Request, exc: TableError) -> JSONResponse:
        status = HTTP_STATUS[exc.kind]
        return JSONResponse({"error": exc.message}, status_code=status,
                            headers=RETRY if status == 503 else None)

    @app.exception_handler(StoreError)
    async def _store_error(_r: Request, exc: StoreError) -> JSONResponse:
        # the message (a path, a host, the database's words) is the log's; the client
        # hears the fault in plain words
        return JSONResponse(unavailable(exc.said), status_code=503, headers=RETRY)

    @app.exception_handler(QuotaFull)
    async def _quota(_r: Request, exc: QuotaFull) -> JSONResponse:
        return JSONResponse({"error": exc.message}, status_code=429,
                            headers={"retry-after": str(exc.retry_after)})

    @app.exception_handler(JobFailed)
    async def _job_failed(_r: Request, exc: JobFailed) -> JSONResponse:
        return JSONResponse({"error": exc.message + "; try again in a moment"},
                            status_code=503, headers={"retry-after": "5"})

    @app.exception_handler(SQLAlchemyError)
    async def _database_error(_r: Request, exc: SQLAlchemyError) -> JSONResponse:
        # the routers that reach the database directly (lobby, analysis, spectators, your
        # games): their failures are the database's too, said as the store's are
        why = reason_of(exc)
        log.warning("piquet: database error: %s", why)
        return JSONResponse(unavailable(plainly(why)), status_code=503, headers=RETRY)

    @app.exception_handler(Exception)
    async def _bug(_r: Request, exc: Exception) -> JSONResponse:
        log.error("request failed", exc_info=exc)
        return JSONResponse({"error": "internal error: the server failed (see its log)"}, 500)

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(r: Request, exc: StarletteHTTPException) -> Response:
        path = r.url.path
        if (exc.status_code == 404 and r.method == "GET"
                and "text/html" in r.headers.get("accept", "")
                and not path.startswith(("/api/", "/static/", "/docs", "/openapi", "/ws"))):
            # a person at a mistyped address gets a page, not the API's JSON
            return HTMLResponse(_NOT_FOUND_PAGE, status_code=404)
        return JSONResponse(
            {"error": str(exc.detail)}, status_code=exc.status_code, headers=exc.headers
        )

    @app.exception_handler(RequestValidationError)
    async def _invalid(_r: Request, exc: RequestValidationError) -> JSONResponse:
        parts = []
        for err in exc.errors()[:5]:
            where = ".".join(str(x) for x in err.get("loc", ()) if x != "body")
            parts.append(f"{where or 'body'}: {err.get('msg', 'invalid')}")
        return JSONResponse({"error": "bad request: " + "; ".join(parts)}, status_code=422)

    # ------------------------------------------------------------------ pages
    def page() -> HTMLResponse:
        return HTMLResponse(index_html, headers={"cache-control": "no-cache"})

    for route in ("/", "/play/{game_id}", "/join/{game_id}", "/replay/{game_id}", "/learn",
                  "/learn/{page:path}"):
        app.add_api_route(route, page, methods=["GET"], include_in_schema=False)
    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # ------------------------------------------------------------------ API
    @app.get(
        "/api/health",
        response_model=HealthOut,
        responses={503: {"model": HealthOut}},
        tags=["server"],
    )
    async def health() -> JSONResponse:
        """Whether the server can serve: its database (503 when it fails) and its live
        updates through Redis (``off`` without Redis; ``down`` does not make it 503:
        moves still work, pages poll)."""
        store: Store = state.store
        problem = await probe(store)
        body: dict[str, Any] = {
            "ok": problem is None,
            "version": __version__,
            "database": "ok" if problem is None else "failing",
            "redis": state.hub.status,
            "quotas": "shared" if state.jobs.shared is not None and state.hub.status == "ok"
            and state.jobs.shared.status == "shared" else "per process",
            "workers": state.jobs.health(),
        }
        if problem is None and body["workers"]["status"] == "down":
            # no worker alive (each is being replaced): the computer cannot move now
            body["ok"] = False
            body["error"] = "the computer's workers are all down; new ones are starting"
            return JSONResponse(body, status_code=503, headers=RETRY)
        if problem is None:
            return JSONResponse(body)
        body["error"] = plainly(problem)  # the details (a path, a host) go to the log
        return JSONResponse(body, status_code=503, headers=RETRY)

    probing = asyncio.Lock()

    async def probe(store: Store) -> str | None:
        """The database as it is now: a read and a write probe (:meth:`Store.health`), at
        most one every ``HEALTH_FRESH`` seconds (the checks meanwhile share it), and a
        write failed since then said at once."""
        async with probing:  # health checks arriving together share one probe
            checked, before = state.health or (-HEALTH_FRESH, None)
            if time.monotonic() - checked < HEALTH_FRESH:
                # the probe just made, and any write since: a failed one (a move's, the
                # probe's) stands until a write succeeds
                return store.known_failure()
            lost = store.lost() or store.damaged
            if lost is not None:
                return lost
            try:
                problem = await asyncio.wait_for(to_thread.run_sync(store.health), HEALTH_WAIT)
            except TimeoutError:
                problem = f"the database did not answer within {HEALTH_WAIT:g} s"
                store.note_failure(problem)
            if problem != before:
                if problem is None:
                    log.warning("piquet: health: the database answers again")
                else:
                    log.warning("piquet: health: %s", problem)
            state.health = (time.monotonic(), problem)
            return problem

    @app.get("/api/options", response_model=OptionsOut, tags=["games"])
    async def options() -> dict[str, Any]:
        """What a new game may be: rule sets (with their short summaries), AI levels (with
        a few words on each, and the one offered first)."""
        levels = _levels()
        return {
            "rules": [
                {
                    "name": name,
                    "title": TITLES.get(name, name),
                    "summary": rules_summary(r),
                    "summaries": {f.value: rules_summary(r, f) for f in r.formats},
                    "formats": [f.value for f in r.formats],
                    "format_labels": {f.value: format_label(r, f) for f in r.formats},
                    "default_format": r.default_format.value,
                    "partie_deals": r.partie_deals,
                    "target": r.target,
                }
                for name, r in PRESETS.items()
            ],
            "default_rules": DEFAULT_PRESET,
            "levels": levels,
            "default_level": default_level(),
            "level_notes": {name: LEVEL_NOTES.get(name, "") for name in levels},
            "level_labels": {name: LEVEL_LABELS.get(name, f"The computer: {name}")
                             for name in levels},
            "level_ratings": _level_ratings(levels),
            "opponents": [*levels, FRIEND],
            "hints_available": True,
            "record_formats": ["text", "json"],
            "version": __version__,
        }

    def invites_out(game_id: str, invites: Any) -> list[dict[str, Any]]:
        return [
            {"seat": seat, "invite": code, "url": f"/join/{game_id}#invite={code}"}
            for seat, code in invites
        ]

    @app.post(
        "/api/games",
        status_code=201,
        response_model=CreatedOut,
        responses=_errors(400, 401, 413, 422, 429),
        tags=["games"],
    )
    async def create_game(body: Annotated[NewGameIn, Body()], request: Request) -> dict[str, Any]:
        """Start a game: you take seat 0; the opponent is an AI level or a friend.

        For a friend, the answer holds an invitation link for the other seat.  A rated
        game (``rated``) needs a login; the name at the table is then the account's.
        """
        opponents = body.opponents or [body.opponent]
        name = body.name
        account = None
        spec = body.clock.spec() if body.clock is not None else None
        if spec is not None and [o.strip().lower() for o in opponents] != [FRIEND]:
            raise TableError(Refusal.UNREADABLE, "a clock is for a game against a friend "
                             "(the computer needs none)")
        if body.rated:
            account = await run(account_of, state.store.engine,
                                request.cookies.get(ACCOUNT_COOKIE))
            if account is None:
                raise TableError(Refusal.NO_TOKEN, "a rated game needs an account: log in "
                                 "first (or play a casual game, which needs none)")
            if [o.strip().lower() for o in opponents] != [FRIEND]:
                raise TableError(Refusal.UNREADABLE, "a rated game is played against a "
                                 "friend with an account: choose 'friend' as the opponent")
            fmt_value = (body.format or preset_named(body.rules).default_format.value)
            if fmt_value.strip().lower() not in RATED_FORMATS:
                raise TableError(Refusal.UNREADABLE, "a rated game is a game or a partie "
                                 "(a pool of three is not rated)")
            name = account.name
        created = await run(
            games().create,
            rules=body.rules,
            format=body.format,
            opponents=opponents,
            hints=body.hints,
            name=name,
            levels=_with_families(opponents),
        )
        if spec is not None:
            await run(the_clocks().start, created.id, spec)
        if account is not None:
            made = games().peek(created.id)
            fmt_value = made.row.format if made is not None else fmt_value.strip().lower()
            await run(start_rating, games(), account, fmt_value)
            await run(start_rated, state.store.engine, created.id, fmt_value, account.id)
        state.ai.kick(created.id)
        return {
            "id": created.id,
            "token": created.token,
            "seat": created.seat,
            "invites": invites_out(created.id, created.invites),
        }

    async def seat_entry(game_id: str, creds: Any) -> tuple[Entry, int]:
        """The game as it stands and the seat the token opens: from memory when it can."""
        g = games()
        seat = g.seat_cached(game_id, token_of(creds))
        if seat is None:
            entry, seat = await run(g.authenticate, game_id, token_of(creds))
            return entry, seat.seat
        return g.cached(game_id) or await run(g.fresh, game_id), seat.seat

    def view_response(entry: Entry, seat: int) -> Response:
        return Response(games().seat_body(entry, seat), media_type="application/json")

    @app.get(
        "/api/games/{game_id}",
        response_model=ViewOut,
        responses=_errors(401, 403, 404, 409, 422, 429),
        tags=["games"],
    )
    async def get_game(
        game_id: GameId,
        creds: Creds,
        wait: Annotated[
            float,
            Query(ge=0, le=30, description="Wait up to this many seconds for your turn."),
        ] = 0,
    ) -> Response:
        """The seat's view of the game, its legal actions, and whether it is finished."""
        g = games()
        if wait <= 0:
            entry, seat = await seat_entry(game_id, creds)
            if g.ai_turn(entry) is not None:
                state.ai.kick(game_id)
            return view_response(entry, seat)
        deadline = time.monotonic() + wait
        # watch first: no news between reading the game and waiting is missed
        with state.hub.watch(game_id) as watcher:
            entry, seat = await seat_entry(game_id, creds)
            # the game over (played to its end, or resigned) or the seat to act: answer now
            if not g.over(entry) and entry.live.match.to_act != seat:
                state.ai.kick(game_id)
                while True:
                    woke = await watcher.wait(deadline - time.monotonic())
                    if woke and not watcher.news:
                        continue  # who is at the table changed, not the game
                    # on news, memory may already hold it; at the deadline, look once more
                    held = g.after_news(game_id, watcher.take()) if woke else g.cached(game_id)
                    entry = held or await run(g.fresh, game_id)
                    if (g.over(entry) or entry.live.match.to_act == seat or not woke
                            or game_id in g.problems):  # the computer cannot move: say so
                        break
        return view_response(entry, seat)

    @app.post(
        "/api/games/{game_id}/actions",
        response_model=ViewOut,
        responses={**_errors(400, 401, 403, 404, 413, 422, 429), 409: {"model": ConflictOut}},
        tags=["games"],
    )
    async def act(game_id: GameId, body: ActionIn, creds: Creds) -> Response:
        """Take an action (an id from ``legal_actions``); the answer is the new view.

        Send ``n``, the log length of the view acted on: a retry of an action already
        recorded then answers 200 with the game as it stands and applies nothing.
        400: the id cannot be read; 409: not your turn, the game is over or moved on
        (the body's ``game`` is the view as it stands); 422: the rules forbid it (the
        error says what is allowed).  The game is unchanged then.
        """
        g = games()
        seat = g.seat_cached(game_id, token_of(creds))
        if seat is None:
            entry, seat = await run(g.authenticate, game_id, token_of(creds))
            known = True
        else:
            entry, known = g.current(game_id)  # checked against the database if need be
        done = await take(g, state.ai, game_id, seat.seat, body.action, expect=body.n,
                          entry=entry, known=known)
        if done.conflict is not None:
            return Response(done.conflict, status_code=409, media_type="application/json")
        assert done.entry is not None
        return view_response(done.entry, seat.seat)

    @app.post(
        "/api/games/{game_id}/invite",
        response_model=InvitesOut,
        responses=_errors(401, 403, 404, 429),
        tags=["games"],
    )
    async def invite(game_id: GameId, creds: Creds) -> dict[str, Any]:
        """New invitation links for the seats still waiting for a friend (old links stop)."""
        entry, _seat = await run(games().authenticate, game_id, token_of(creds))
        return {"invites": invites_out(game_id, await run(games().reinvite, entry))}

    @app.post(
        "/api/games/{game_id}/join",
        status_code=201,
        response_model=JoinedOut,
        responses=_errors(400, 401, 404, 409, 413, 422, 429),
        tags=["games"],
    )
    async def join(game_id: GameId, body: JoinIn, request: Request) -> dict[str, Any]:
        """Take the seat an invitation opens; the answer holds that seat's own token.
        404: no such invitation (or it was used or replaced); 409: the game is over.  A
        rated game's seat needs a login to another account than the host's (401, 409)."""
        engine = state.store.engine
        account = await run(rated_joiner, engine, game_id, request)
        name = body.name if account is None else account.name
        token, seat = await run(games().join, game_id, body.invite, name)
        if account is not None:
            await run(take_rated_seat, engine, game_id, account.id)
            found = await run(rated_game, engine, game_id)
            if found is not None:
                await run(start_rating, games(), account, found.format)
        await state.hub.publish(game_id, -1)
        return {"id": game_id, "token": token, "seat": seat}

    @app.get(
        "/api/games/{game_id}/hint",
        response_model=HintOut,
        responses=_errors(401, 403, 404, 409, 422, 429),
        tags=["games"],
    )
    async def hint(
        request: Request,
        game_id: GameId,
        creds: Creds,
        level: Annotated[
            str, Query(pattern="^(learner|expert)$", description="Words for a learner or expert.")
        ] = "expert",
    ) -> dict[str, Any]:
        """The advisor's suggestion, and why (only in games started with hints on).
        429: this client already has its quota of hints being made; 503: the hint could
        not be made (the error says why)."""
        entry, seat = await seat_entry(game_id, creds)
        live = entry.live
        if not entry.row.hints:
            raise TableError(Refusal.NOT_NOW, "hints are off in this game")
        if live.match.to_act != seat:
            raise TableError(Refusal.NOT_NOW, "a hint is for your turn")
        view = live.match.view(seat)
        text = await state.jobs.run(Kind.HINT, HINT, view, level, client=client_of(request))
        return {"hint": text or only_move_words(view)}

    @app.get(
        "/api/games/{game_id}/record",
        responses={
            200: {
                "content": {"application/json": {}, "text/plain": {}},
                "description": "The record, as a file.",
            },
            **_errors(401, 403, 404, 409, 422, 429),
        },
        tags=["games"],
    )
    async def record(
        game_id: GameId,
        creds: Creds,
        as_: Annotated[str, Query(alias="as", pattern="^(text|json)$")] = "json",
    ) -> Response:
        """The finished game's record: its seed and every action (``as=text`` or ``json``)."""
        entry, _seat = await seat_entry(game_id, creds)
        rec = games().record(entry)
        if as_ == "text":
            named = entry.live.match.named(rec["players"])
            text = await run(functools.partial(dump_text, named, tags=rec.get("tags")))
            return Response(
                str(text),
                media_type="text/plain; charset=utf-8",
                headers={"content-disposition": f'attachment; filename="piquet-{game_id}.txt"'},
            )
        return JSONResponse(
            rec,
            headers={"content-disposition": f'attachment; filename="piquet-{game_id}.json"'},
        )

    @app.get(
        "/api/games/{game_id}/replay",
        response_model=ReplayOut,
        responses=_errors(400, 401, 403, 404, 409, 422, 429),
        tags=["games"],
    )
    async def replay(
        game_id: GameId,
        creds: Creds,
        step: Annotated[int, Query(ge=0, le=100000)] = 0,
    ) -> JSONResponse:
        """A finished game after ``step`` actions, with every seat's view (for the viewer)."""
        entry, _seat = await seat_entry(game_id, creds)
        return JSONResponse(await run(games().replay_step, entry, step))

    from piquet.web.ws import add_websocket

    add_websocket(app, state)
    from piquet.web.tally import tally_router

    tallies = tally_router(lambda: state.store, create_per_minute=config.create_per_minute)
    app.include_router(tallies)
    app.include_router(practice_router(state))
    app.include_router(learn_router(state))  # the glossary, lessons, puzzles, guided deal
    app.include_router(players_router(state))
    app.include_router(accounts_router(state))
    from piquet.web.progress import progress_router  # the lessons' progress, kept

    app.include_router(progress_router(state))
    app.include_router(rated_router(state))
    from piquet.web.talk import talk_router  # the chat, takebacks, abort

    app.include_router(talk_router(state))
    app.include_router(clocks_router(state, the_clocks))
    from piquet.web.people import people_router  # who is online, seeks, games in play

    app.include_router(people_router(state))
    from piquet.web.review_routes import review_router  # play from here (the analysis)

    app.include_router(review_router(state))
    app.include_router(evenmatch_router(state))  # /api/me/opponent
    from piquet.web.beyond import add_beyond  # the analysis, the lobby, spectators

    add_beyond(app, state, create_per_minute=config.create_per_minute)

    app.add_middleware(CsrfGuard)
    app.add_middleware(BodyLimit, limit=config.max_body)
    app.add_middleware(SocketCap, per_client=config.sockets_per_client)
    app.add_middleware(
        RateLimit,
        rate=config.rate,
        burst=config.burst,
        create_per_minute=config.create_per_minute,
    )
    app.add_middleware(SecurityHeaders)
    return app
