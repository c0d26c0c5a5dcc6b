"""The analysis after the deal, served to the seats: ``GET /api/games/{id}/analysis``.

For every deal of a game that is over, :func:`piquet.review.review_deal` says where each
side gained or lost points against the strongest AI (the exchange against the advisor,
sinks and answers, the cards whose double-dummy value dropped).  It takes seconds, so it
is computed off the event loop, in the server's AI workers (one deal at a time per game,
so that the computer's moves never wait long behind it), and stored with the game (the
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
import hashlib
import json
import logging
import time
from collections.abc import Callable
from concurrent.futures import BrokenExecutor, Executor
from dataclasses import dataclass
from typing import Any, Final

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter
from fastapi.responses import JSONResponse
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from piquet.core.actions import parse_action
from piquet.core.match import new_match
from piquet.core.rules import get_rules
from piquet.review import ANALYSIS_VERSION, finished_deals, review_deal
from piquet.table.errors import Refusal, TableError
from piquet.web.ai import cancel_all
from piquet.web.games import Entry, Games
from piquet.web.ids import Creds, GameId
from piquet.web.server import Server
from piquet.web.store import metadata

__all__ = [
    "Analyses",
    "AnalysisSettings",
    "analyses_t",
    "analysis_router",
    "analyse_deal",
    "as_seen_by",
]

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

    think_ms: int = 500
    samples: int = 160
    verify: int = 200  # deals the advisor plays out whole (double-dummy play both sides)


def _seed(game_seed: int, deal: int) -> int:
    digest = hashlib.sha256(f"piquet-analysis:{game_seed}:{deal}".encode()).digest()
    return int.from_bytes(digest[:4], "big")


def analyse_deal(
    rules: str,
    fmt: str,
    seed: int,
    games_to_play: int,
    n_seats: int,
    history: list[tuple[int, str]],
    number: int,
    settings: AnalysisSettings,
) -> str:
    """The analysis of deal ``number`` (1-based) of a stored game, as JSON text.

    ``history`` is the game's log up to (at least) that deal's end.  Runs in a worker.
    """
    first = new_match(
        rules, seed=seed, format=fmt, games=games_to_play,
        names=[f"seat {i}" for i in range(n_seats)],
    )
    actions = [(p, parse_action(a)) for p, a in history]
    fd = next((d for d in finished_deals(first, actions) if d.number == number), None)
    if fd is None:  # a deal that dealing ended: nobody chose anything in it
        return json.dumps({
            "version": ANALYSIS_VERSION,
            "number": number,
            "note": "this deal ended as it was dealt (a carte blanche reached the target): "
                    "there was no choice to analyse",
        })
    r = get_rules(rules)
    body = review_deal(fd, r, seed=_seed(seed, number), think_ms=settings.think_ms,
                       samples=settings.samples, verify=settings.verify)
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


def as_seen_by(body: dict[str, Any], seat: int, face_down: frozenset[int]) -> dict[str, Any]:
    """One deal's analysis as ``seat`` may see it while the players ``face_down`` keep
    their cards to themselves (the other people of a game in play): of a role held by
    one of them, the hand (dealt, discarded, taken), the choices (exchange, declarations,
    play) and the losses are left out, and ``hidden`` names the roles left out.  A deal
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
    out["hidden"] = hide
    return out


class Analyses:
    """Stored analyses and the jobs that make the missing ones."""

    def __init__(
        self, engine: Engine, executor: Executor, settings: AnalysisSettings | None = None
    ) -> None:
        self.engine = engine
        self.executor = executor
        self.settings = settings or AnalysisSettings()
        self._jobs: dict[str, asyncio.Task[None]] = {}

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

    def start(self, entry: Entry, missing: list[int]) -> None:
        """Make the analyses of deals ``missing`` of ``entry``'s game, one after another."""
        game_id = entry.row.id
        if not missing or self.busy(game_id):
            return
        self._jobs[game_id] = asyncio.create_task(self._run(entry, missing))

    async def _run(self, entry: Entry, missing: list[int]) -> None:
        row, m = entry.row, entry.live.match
        history = [(p, str(a)) for p, a in m.history]
        loop = asyncio.get_running_loop()
        try:
            for number in missing:
                job = loop.run_in_executor(
                    self.executor,
                    analyse_deal,
                    row.rules,
                    row.format,
                    row.seed,
                    row.games_to_play,
                    len(row.seats),
                    history,
                    number,
                    self.settings,
                )
                try:
                    body = await job
                except (BrokenExecutor, RuntimeError):
                    raise  # the workers are gone (shutting down): try again on a later request
                except Exception as exc:  # the analysis itself failed: say so, once
                    log.exception("analysis of deal %s of game %s failed", number, row.id)
                    body = json.dumps({
                        "version": ANALYSIS_VERSION,
                        "number": number,
                        "error": f"this deal could not be analysed ({type(exc).__name__})",
                    })
                await to_thread.run_sync(self.save, row.id, number, body)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("analysis of game %s failed", row.id)
        finally:
            if self._jobs.get(row.id) is asyncio.current_task():
                del self._jobs[row.id]

    async def stop(self) -> None:
        await cancel_all(self._jobs)

    # ------------------------------------------------------------------ the answer
    async def answer(
        self,
        entry: Entry,
        *,
        ended: bool | None = None,
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
        for number in range(1, over + 1):
            body = stored.get(number)
            if body is None:
                missing.append(number)
                deals.append({"number": number, "status": "pending", "analysis": None})
            else:
                shown = json.loads(body)
                if face_down and seat is not None:
                    shown = as_seen_by(shown, seat, face_down)
                deals.append({"number": number, "status": "ready", "analysis": shown})
        self.start(entry, missing)
        return {
            "id": entry.row.id,
            "n": entry.live.n,
            # played to its end or resigned (``ended``, the games' word; else the match's)
            "finished": m.finished if ended is None else ended,
            "deals_over": over,
            "pending": len(missing),
            "names": [s.name for s in entry.row.seats],
            "deals": deals,
        }


# ---------------------------------------------------------------------- the route


def analysis_router(state: Server) -> APIRouter:
    """``GET /api/games/{id}/analysis``; ``state`` is the app's (games, store, executor),
    filled at start-up.  The :class:`Analyses` is kept in ``state.analyses``."""
    router = APIRouter()

    def analyses() -> Analyses:
        held = state.analyses
        if held is None or held.engine is not state.store.engine:
            held = state.analyses = Analyses(state.store.engine, state.executor)
        a: Analyses = held
        return a

    async def run(fn: Callable[..., Any], *args: Any) -> Any:
        return await to_thread.run_sync(functools.partial(fn, *args))

    @router.get(
        "/api/games/{game_id}/analysis",
        responses={c: {"description": "An error: {\"error\": ...}"} for c in (401, 404, 429)},
        tags=["games"],
    )
    async def analysis(game_id: GameId, creds: Creds) -> JSONResponse:
        """Where each side gained or lost points against the strongest AI, for every deal
        of the game that is over: the exchange (the advisor's best against the discard
        made, the difference verified in the same simulated deals), sinks and answers
        (the expert's choice, both valued in this deal), and the cards whose double-dummy
        value dropped.  Deals still being analysed are ``pending``: ask again.  Nothing of
        the deal being played is ever sent."""
        games: Games = state.games
        token = creds.credentials if creds is not None else None
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
        return JSONResponse(await analyses().answer(
            entry, ended=over, seat=seat.seat, face_down=face_down))

    return router
