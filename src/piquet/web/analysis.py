"""The analysis after the deal, served to the seats: ``GET /api/games/{id}/analysis``.

For every deal of a game that is over, :func:`piquet.review.deal.review_deal` says where each
side gained or lost points against the strongest AI (the exchange against the advisor,
sinks and answers, the cards whose double-dummy value dropped).  It takes seconds, so it
is computed off the event loop, as jobs of the computer's workers (:mod:`piquet.jobs`: one
deal at a time per game, after every move and hint waiting, on at most all workers but one,
so the computer's moves never wait behind it; a client has at most its quota of games
being analysed at once), and stored with the game (the
``piquet_analyses`` table, migration ``0004``): it is computed once per deal, by whichever
server process is asked first.

A deal still being played is never analysed: its hands are its players' secret.  The
route answers only a seat of the game (its token), and only for the deals already over.
Between people, until the game is over, each seat is shown of a finished deal only what it
saw at the table (:func:`as_seen_by`): its own hand, discards and choices, and the deal's
points; the other person's dealt hand, discards, cards taken and choices stay face down
(a computer's are shown, as after the game).
"""

from __future__ import annotations

import asyncio
import functools
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from piquet.jobs import JobFailed, JobQueue, Kind, QuotaFull
from piquet.jobs.queue import ATTEMPTS, TIME_LIMITS
from piquet.jobs.shared import SharedFull
from piquet.jobs.work import ANALYSIS
from piquet.review.curve import game_curve
from piquet.review.version import ANALYSIS_VERSION
from piquet.table.errors import Refusal, TableError
from piquet.web.ai import cancel_all
from piquet.web.games import Entry, Games
from piquet.web.ids import Creds, GameId, client_of, token_of
from piquet.web.server import Server, ServerOf
from piquet.web.store import metadata

__all__ = ["Analyses", "AnalysisSettings", "analyses_of", "analyses_t", "router",
           "as_seen_by"]

log = logging.getLogger("piquet.web")
analyses_t: Final = sa.Table(
    "piquet_analyses",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("deal", sa.Integer, primary_key=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("body", sa.Text, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)


@dataclass(frozen=True, slots=True)
class AnalysisSettings:
    """How hard the analysis works: the expert's budget and the advisor's deals."""

    # review.py's defaults (bench/bench_review.py: a three-deal game's analysis in a few
    # seconds, and how often its verdicts agree with version 3's 500 ms, 160 and 200)
    think_ms: int = 200
    samples: int = 40
    verify: int = 48  # deals the advisor plays out whole (double-dummy play both sides)
    budget: int | None = None  # the advisor's first pass's draws (None: its own, all)
    nodes: int | None = None  # its exact search's positions in all (None: its own, 10 M)


ANALYSIS_LAPSE: Final = TIME_LIMITS[Kind.ANALYSIS] * ATTEMPTS
"""Seconds a client's hold on a game's analysis, counted across the processes, lasts per
deal to analyse, if the process that took it dies before giving it back."""


def _too_many(held: int, limit: int) -> QuotaFull:
    return QuotaFull(
        f"you already have {held} games being analysed (at most {limit} at once): ask "
        "for this one again when one of them is ready",
        retry_after=10,
    )


def as_seen_by(body: dict[str, Any], seat: int, face_down: frozenset[int]) -> dict[str, Any]:
    """One deal's analysis as ``seat`` may see it while the players ``face_down`` keep
    their cards to themselves (the other people of a game in play): of a role held by
    one of them, the hand (dealt, discarded, taken), the choices (exchange, declarations,
    play) and the losses are left out, and the curve (valued with both hands open) is
    emptied; ``hidden`` names the roles left out.  A deal
    with nothing of the kind (a note, an error) is as it is."""
    players = body.get("players")
    if not isinstance(players, dict):
        return body
    hide = sorted(role for role, p in players.items() if p != seat and p in face_down)
    if not hide:
        return body
    out = dict(body)
    out["hands"] = {r: None if r in hide else h for r, h in body.get("hands", {}).items()}
    out["losses"] = {r: None if r in hide else v for r, v in body.get("losses", {}).items()}
    for part in ("exchange", "declarations", "play"):
        out[part] = [e for e in body.get(part, []) if e.get("role") not in hide]
    # the curve is valued with both hands open: it would tell of the hidden hand
    if "curve" in body:
        out["curve"] = []
    out["hidden"] = hide
    return out


class Analyses:
    """Stored analyses and the jobs that make the missing ones."""

    def __init__(
        self, engine: Engine, jobs: JobQueue, settings: AnalysisSettings | None = None
    ) -> None:
        self.engine = engine
        self.jobs = jobs
        self.settings = settings or AnalysisSettings()
        self._jobs: dict[str, asyncio.Task[None]] = {}
        self._by: dict[str, str] = {}
        """Game id -> the client whose request started its analysis (the quota's count)."""
        self._later: dict[str, Entry] = {}
        """Game id -> the game as it stood when more of its deals were due while its
        analysis was being made: they are made next, in the same run."""

    # ------------------------------------------------------------------ the table
    def stored(self, game_id: str) -> dict[int, str]:
        """Deal number -> the analysis (JSON text) of the current version.  Blocks."""
        t = analyses_t.c
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(t.deal, t.body).where(
                    t.game_id == game_id, t.version == ANALYSIS_VERSION
                )
            ).all()
        return {int(r.deal): str(r.body) for r in rows}

    def has(self, game_id: str, deal: int) -> bool:
        """Whether deal ``deal``'s analysis of the current version is stored.  Blocks."""
        t = analyses_t.c
        with self.engine.connect() as conn:
            found = conn.execute(
                sa.select(t.deal).where(t.game_id == game_id, t.deal == deal,
                                        t.version == ANALYSIS_VERSION)
            ).first()
        return found is not None

    def save(self, game_id: str, deal: int, body: str) -> None:
        """Keep one deal's analysis (a copy made meanwhile by another process wins)."""
        values = {"game_id": game_id, "deal": deal, "version": ANALYSIS_VERSION,
                  "body": body, "created_at": time.time()}
        with self.engine.begin() as conn:
            conn.execute(
                analyses_t.delete().where(
                    analyses_t.c.game_id == game_id,
                    analyses_t.c.deal == deal,
                    analyses_t.c.version != ANALYSIS_VERSION,
                )
            )
            try:
                with conn.begin_nested():
                    conn.execute(analyses_t.insert().values(**values))
            except IntegrityError:
                pass

    # ------------------------------------------------------------------ the jobs
    def busy(self, game_id: str) -> bool:
        task = self._jobs.get(game_id)
        return task is not None and not task.done()

    async def start(self, entry: Entry, missing: list[int], client: str | None = None) -> None:
        """Make the analyses of deals ``missing`` of ``entry``'s game, one after another.

        Raises :class:`QuotaFull` if ``client`` already has its quota of games being
        analysed (the game's own analysis going on is no new one): counted in this
        process, and across the processes too where the job queue's quotas are shared
        (:class:`~piquet.jobs.shared.SharedQuotas`)."""
        game_id = entry.row.id
        if not missing:
            return
        if self.busy(game_id):
            self._later[game_id] = entry  # made next, in the run going on
            return
        limit = self.jobs.quotas.analysis
        token: str | None = None
        if client is not None and limit is not None:
            held = sum(1 for g, c in self._by.items() if c == client and self.busy(g))
            if held >= limit:
                raise _too_many(held, limit)
            shared = self.jobs.shared
            if shared is not None:
                try:  # a game's deals may take minutes each: the hold lapses after them all
                    token = await shared.take(client, "games", limit,
                                              ANALYSIS_LAPSE * max(1, len(missing)))
                except SharedFull as full:
                    raise _too_many(full.held, limit) from None
                if self.busy(game_id):  # started meanwhile (another request of it)
                    await shared.give(client, "games", token)
                    return
        self._by[game_id] = client or "-"
        self._jobs[game_id] = asyncio.create_task(self._run(entry, missing, client, token))

    async def after_deal(self, entry: Entry) -> None:
        """A deal of ``entry``'s game is over: make the analyses it lacks now, while the
        next deal is played, so that the review is ready as the game ends.  The server's
        own work, counted against no client's quota (it comes at most once a deal
        played); as every analysis, it waits behind every move and hint."""
        stored = await to_thread.run_sync(self.stored, entry.row.id)
        missing = [n for n in range(1, len(entry.live.match.deals) + 1) if n not in stored]
        await self.start(entry, missing)

    async def _run(self, entry: Entry, missing: list[int], client: str | None = None,
                   token: str | None = None) -> None:
        game_id = entry.row.id
        try:
            while True:
                await self._deals(entry, missing)
                # more deals ended meanwhile (or were asked for): made in this run
                later = self._later.pop(entry.row.id, None)
                if later is None:
                    break
                entry = later
                stored = await to_thread.run_sync(self.stored, entry.row.id)
                missing = [n for n in range(1, len(entry.live.match.deals) + 1)
                           if n not in stored]
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("analysis of game %s failed", entry.row.id)
        finally:
            if self._jobs.get(game_id) is asyncio.current_task():
                del self._jobs[game_id]
                self._by.pop(game_id, None)
                self._later.pop(game_id, None)
            if token is not None and client is not None and self.jobs.shared is not None:
                await self.jobs.shared.give(client, "games", token)

    async def _deals(self, entry: Entry, missing: list[int]) -> None:
        """Make and store the analyses of deals ``missing`` of ``entry``'s game, one after
        another (one stored meanwhile by another run or process is not made again)."""
        row, m = entry.row, entry.live.match
        history = [(p, str(a)) for p, a in m.history]
        st = self.settings
        for number in missing:
            if await to_thread.run_sync(self.has, row.id, number):
                continue
            try:
                body = await self.jobs.run(
                    Kind.ANALYSIS, ANALYSIS, row.rules, row.format, row.seed,
                    row.games_to_play, len(row.seats), history, number,
                    st.think_ms, st.samples, st.verify, st.budget, st.nodes,
                )
            except JobFailed as exc:
                if self.jobs.stopping:
                    raise  # the server stops: made on a later request
                # the analysis itself failed (twice): say so, once
                log.warning("analysis of deal %s of game %s failed: %s",
                            number, row.id, exc.message)
                body = json.dumps({
                    "version": ANALYSIS_VERSION,
                    "number": number,
                    "error": "this deal could not be analysed ("
                             + _reason(exc.message) + ")",
                })
            await to_thread.run_sync(self.save, row.id, number, body)

    async def stop(self) -> None:
        await cancel_all(self._jobs)

    # ------------------------------------------------------------------ the answer
    async def answer(
        self,
        entry: Entry,
        *,
        ended: bool | None = None,
        client: str | None = None,
        seat: int | None = None,
        face_down: frozenset[int] = frozenset(),
    ) -> dict[str, Any]:
        """What ``seat`` is sent: the analysis of every deal that is over (or that it is
        being made), and never anything of the deal being played; of the players
        ``face_down`` (the other people, while the game is on) only what ``seat`` saw
        at the table (:func:`as_seen_by`)."""
        m = entry.live.match
        over = len(m.deals)
        stored = await to_thread.run_sync(self.stored, entry.row.id) if over else {}
        deals: list[dict[str, Any]] = []
        missing: list[int] = []
        ready: dict[int, dict[str, Any]] = {}
        for number in range(1, over + 1):
            body = stored.get(number)
            if body is None:
                missing.append(number)
                deals.append({"number": number, "status": "pending", "analysis": None})
            else:
                shown = json.loads(body)
                if face_down and seat is not None:
                    shown = as_seen_by(shown, seat, face_down)
                ready[number] = shown
                deals.append({"number": number, "status": "ready", "analysis": shown})
        await self.start(entry, missing, client)
        return {
            "id": entry.row.id,
            "n": entry.live.n,
            # played to its end or resigned (``ended``, the games' word; else the match's)
            "finished": m.finished if ended is None else ended,
            "deals_over": over,
            "pending": len(missing),
            "names": [s.name for s in entry.row.seats],
            "deals": deals,
            # one line across every deal that is over (None for a pool): the deals' points,
            # and inside each deal its curve as this seat may see it
            "game_curve": game_curve(m.deals, ready)
            if over and len(entry.row.seats) == 2 else None,
        }


def _reason(message: str) -> str:
    """The reason of a failed job's message, for the analysis's own words: the
    exception's name ("the analysis could not be computed (ValueError: ...)")."""
    inner = message[message.find("(") + 1:message.rfind(")")] if "(" in message else message
    return inner.split(":", 1)[0]


# ---------------------------------------------------------------------- the route


def analyses_of(state: Server) -> Analyses:
    """The app's :class:`Analyses` (``state.analyses``), made on first use."""
    held = state.analyses
    if held is None or held.engine is not state.store.engine:
        held = state.analyses = Analyses(state.store.engine, state.jobs)
    a: Analyses = held
    return a


router = APIRouter()
"""``GET /api/games/{id}/analysis``; the :class:`Analyses` is kept in the server's
``analyses`` (:func:`analyses_of`)."""


async def run(fn: Callable[..., Any], *args: Any) -> Any:
    return await to_thread.run_sync(functools.partial(fn, *args))


@router.get(
    "/api/games/{game_id}/analysis",
    responses={c: {"description": "An error: {\"error\": ...}"} for c in (401, 404, 429, 503)},
    tags=["games"],
)
async def analysis(
    request: Request, game_id: GameId, creds: Creds, state: ServerOf
) -> JSONResponse:
    """Where each side gained or lost points against the strongest AI, for every deal
    of the game that is over: the exchange (the advisor's best against the discard
    made, the difference verified in the same simulated deals), sinks and answers
    (the expert's choice, both valued in this deal), and the cards whose double-dummy
    value dropped.  Deals still being analysed are ``pending``: ask again.  Nothing of
    the deal being played is ever sent."""
    games: Games = state.games
    token = token_of(creds)
    seat = games.seat_cached(game_id, token)
    if seat is None:
        entry, seat = await run(games.authenticate, game_id, token)
    else:
        entry = games.cached(game_id) or await run(games.fresh, game_id)
    if entry is None:  # pragma: no cover - fresh raises instead
        raise TableError(Refusal.NOT_FOUND, "no such game")
    over = games.over(entry)
    # between people, until the game is over, the others' cards stay face down
    face_down = frozenset() if over else frozenset(
        s.seat for s in entry.row.seats if s.kind == "human" and s.seat != seat.seat)
    return JSONResponse(await analyses_of(state).answer(
        entry, ended=over, client=client_of(request), seat=seat.seat,
        face_down=face_down))
