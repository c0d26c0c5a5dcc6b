"""Clocks, optional, kept by the server: live (minutes each, plus seconds a move) or
correspondence (days a move), for a game between two people.

**A clock is read from the log.**  Nothing about a clock is stored but its settings
(``piquet_clocks``, made with the game): every entry of a game's log is stored with the
moment it was committed, so how long each player thought is the time between the entries,
charged to the player who was to act (:func:`run_clock`).  The clock starts at the first
entry (the first move is free, as the first move of a game is); after each of his moves a
player gets the increment.  Correspondence gives each move its days, not carried over.

**Running out is decided once.**  When a player's time is gone, the server writes the
table's entry ``timeout`` for him (:data:`piquet.table.state.TIMEOUT`): the game is over,
the other wins, and the record says so (the tag ``LostOnTime``).  Every server process
looks at the clocked games in play each second (:class:`Sweeper`); appending is the
optimistic write of every entry (at the log length read), so of several processes, or a
move racing the flag, exactly one entry stands.  A move sent once the mover's time is
gone is refused (the timeout is written first).  Because the time is read from the log,
a clock that ran out while no server was running (a crash, a restart) is found out at the
first look after it, and the game is lost by the right player at the moment it was.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated, Any, Final, Literal

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field, StrictInt

from piquet.table.errors import Refusal, TableError
from piquet.table.state import TIMEOUT, TableState, is_table_event
from piquet.web.games import Entry, Games
from piquet.web.ids import Creds, GameId, token_of
from piquet.web.practice import refusals
from piquet.web.schema import WHOLE
from piquet.web.server import ServerOf
from piquet.web.store import actions_t, games_t

__all__ = [
    "ClockIn",
    "ClockSpec",
    "ClockState",
    "Clocks",
    "Step",
    "Sweeper",
    "router",
    "clocks_t",
    "run_clock",
]

log = logging.getLogger("piquet.web")
TICK: Final = 1.0
"""Seconds between two looks of a process at the clocked games in play."""

_meta: Final = sa.MetaData()
clocks_t: Final = sa.Table(
    "piquet_clocks",
    _meta,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("kind", sa.String(16), nullable=False),
    sa.Column("base", sa.Float, nullable=False),
    sa.Column("increment", sa.Float, nullable=False),
    sa.Column("per_move", sa.Float, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockSpec:
    """A game's clock: ``live`` (``base`` seconds each, ``increment`` seconds after each
    of one's moves) or ``correspondence`` (``per_move`` seconds for each move)."""

    kind: Literal["live", "correspondence"]
    base: float = 0.0
    increment: float = 0.0
    per_move: float = 0.0

    def text(self) -> str:
        """The clock in a few characters, as a seek keeps it: ``live:300:5`` (seconds
        each, seconds a move) or ``days:86400`` (seconds a move)."""
        if self.kind == "live":
            return f"live:{self.base:g}:{self.increment:g}"
        return f"days:{self.per_move:g}"

    @staticmethod
    def from_text(text: str) -> ClockSpec:
        """The clock :meth:`text` wrote."""
        kind, _, rest = text.partition(":")
        if kind == "live":
            base, _, inc = rest.partition(":")
            return ClockSpec(kind="live", base=float(base), increment=float(inc))
        return ClockSpec(kind="correspondence", per_move=float(rest))

    def row(self, game_id: str) -> dict[str, Any]:
        """The game's row of ``piquet_clocks``."""
        return {"game_id": game_id, "kind": self.kind, "base": self.base,
                "increment": self.increment, "per_move": self.per_move,
                "created_at": time.time()}

    def words(self) -> str:
        if self.kind == "live":
            return f"{self.base / 60:g} minutes each + {self.increment:g} s a move"
        days = self.per_move / 86400
        return f"{days:g} day{'s' * (days != 1)} a move"


@dataclass(frozen=True, slots=True, kw_only=True)
class Step:
    """One entry of the log, for the clock: when it was committed, who was to act just
    before it (None: nobody), and who made a move of the rules by it (None: a table
    event: a takeback, a resignation)."""

    at: float
    to_act: int | None
    mover: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class ClockState:
    """The clocks at ``now``: each player's time left (seconds), whose clock runs (None:
    not started, or nobody to act), and who ran out and when (None: nobody)."""

    remaining: tuple[float, float]
    running: int | None
    flagged: tuple[int, float] | None
    now: float


def run_clock(spec: ClockSpec, steps: Sequence[Step], to_act: int | None, now: float
              ) -> ClockState:
    """The clocks of a game whose log is ``steps``, with ``to_act`` to act now."""
    per = spec.per_move if spec.kind == "correspondence" else spec.base
    remaining = [per, per]
    flagged: tuple[int, float] | None = None
    last: float | None = None
    for step in steps:
        if last is not None and step.to_act is not None and step.to_act in (0, 1):
            p = step.to_act
            used = step.at - last
            left = (per if spec.kind == "correspondence" else remaining[p]) - used
            if flagged is None and left < 0:
                flagged = (p, step.at + left)
            if spec.kind == "live":
                remaining[p] = left
        if (spec.kind == "live" and last is not None and step.mover is not None
                and step.mover in (0, 1)):
            remaining[step.mover] += spec.increment
        last = step.at
    running = to_act if last is not None and to_act in (0, 1) else None
    if running is not None and last is not None:
        base = per if spec.kind == "correspondence" else remaining[running]
        left = base - (now - last)
        if flagged is None and left < 0:
            flagged = (running, now + left)
        remaining[running] = left
    shown = (max(0.0, remaining[0]), max(0.0, remaining[1]))
    return ClockState(remaining=shown, running=running, flagged=flagged, now=now)


class ClockIn(BaseModel):
    """A new game's clock: ``minutes`` (and ``increment``) for a live clock, or ``days``
    for correspondence."""

    model_config = ConfigDict(extra="forbid")
    minutes: Annotated[StrictInt, Field(ge=1, le=180), WHOLE] | None = Field(
        None, description="Live: minutes each.")
    increment: Annotated[StrictInt, Field(ge=0, le=60), WHOLE] = Field(
        0, description="Live: seconds added after a move.")
    days: Annotated[StrictInt, Field(ge=1, le=14), WHOLE] | None = Field(
        None, description="Correspondence: days a move.")

    def spec(self) -> ClockSpec:
        """The clock asked for; raises :class:`TableError` unless exactly one kind is."""
        if (self.minutes is None) == (self.days is None):
            raise TableError(Refusal.UNREADABLE, "a clock is either live ({\"minutes\": 1 "
                             "to 180, \"increment\": 0 to 60 seconds}) or correspondence "
                             "({\"days\": 1 to 14})")
        if self.minutes is not None:
            return ClockSpec(kind="live", base=self.minutes * 60.0,
                             increment=float(self.increment))
        assert self.days is not None
        return ClockSpec(kind="correspondence", per_move=self.days * 86400.0)


class Clocks:
    """The clocks of a process's games: their settings (read once a game: they never
    change) and the clock read from a game's log (kept by log length)."""

    def __init__(self, games: Games) -> None:
        self.games = games
        self._specs: OrderedDict[str, ClockSpec | None] = OrderedDict()
        self._steps: OrderedDict[tuple[str, int], list[Step]] = OrderedDict()

    @property
    def engine(self) -> sa.Engine:
        return self.games.store.engine

    def start(self, game_id: str, spec: ClockSpec) -> None:
        """Give the new game ``game_id`` its clock."""
        with self.engine.begin() as conn:
            conn.execute(clocks_t.insert().values(**spec.row(game_id)))
        self._specs[game_id] = spec

    def spec(self, game_id: str) -> ClockSpec | None:
        """The game's clock settings, or None for a game without a clock.  Blocks."""
        if game_id in self._specs:
            return self._specs[game_id]
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(clocks_t).where(clocks_t.c.game_id == game_id)
                               ).first()
        spec = None if row is None else ClockSpec(
            kind=row.kind, base=row.base, increment=row.increment, per_move=row.per_move)
        self._specs[game_id] = spec
        while len(self._specs) > 16384:
            self._specs.popitem(last=False)
        return spec

    def steps(self, entry: Entry) -> list[Step]:
        """The log of ``entry``'s game as the clock reads it.  Blocks."""
        key = (entry.row.id, entry.n)
        held = self._steps.get(key)
        if held is not None:
            return held
        with self.engine.connect() as conn:
            times = [r.created_at for r in conn.execute(
                sa.select(actions_t.c.created_at).where(actions_t.c.game_id == entry.row.id)
                .order_by(actions_t.c.idx)).all()]
        state = entry.live.state
        replay = TableState.new(state.game_id, state.seats, state.start)
        out: list[Step] = []
        for e, at in zip(state.log, times, strict=False):
            before = replay.to_act
            replay = replay.apply(e.player, e.text)
            mover = None if is_table_event(e.text) else e.player
            out.append(Step(at=at, to_act=before, mover=mover))
        self._steps[key] = out
        while len(self._steps) > 1024:
            self._steps.popitem(last=False)
        return out

    def forget(self) -> None:
        """Read the log's times again (they never change once committed: only a database
        restored or edited under the server changes them)."""
        self._steps.clear()

    def read(self, entry: Entry, now: float | None = None) -> ClockState | None:
        """``entry``'s clocks now, or None without a clock.  Blocks."""
        spec = self.spec(entry.row.id)
        if spec is None:
            return None
        state = entry.live.state
        to_act = None if state.over else state.to_act
        return run_clock(spec, self.steps(entry), to_act, time.time() if now is None else now)

    async def enforce(self, game_id: str, entry: Entry | None = None) -> Entry | None:
        """If a clock of ``game_id`` ran out, write the timeout (once: a lost race means
        it, or a move in time, is already written); the game after it, or None."""
        if game_id in self._specs:  # known (the hot path of every move: no thread)
            spec = self._specs[game_id]
        else:
            spec = await to_thread.run_sync(self.spec, game_id)
        if spec is None:
            return None
        if entry is None or self.games.shared:
            entry = await to_thread.run_sync(self.games.fresh, game_id)
        if entry.live.state.over:
            return None
        clock = await to_thread.run_sync(self.read, entry)
        if clock is None or clock.flagged is None:
            return None
        loser, _when = clock.flagged
        try:
            done = await self.games.act(game_id, loser, TIMEOUT, expect=entry.n, entry=entry,
                                        event=True)
        except TableError:  # decided meanwhile (by another process, or a move in time)
            return None
        log.info("game %s: seat %d ran out of time", game_id, loser)
        return done


class Sweeper:
    """Each second, every clocked game in play that this process can see: a clock run out
    gets its timeout written (:meth:`Clocks.enforce`)."""

    def __init__(self, clocks: Clocks) -> None:
        self.clocks = clocks
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    def _in_play(self) -> list[str]:
        with self.clocks.engine.connect() as conn:
            return [r.game_id for r in conn.execute(
                sa.select(clocks_t.c.game_id)
                .join(games_t, games_t.c.id == clocks_t.c.game_id)
                .where(games_t.c.finished.is_(False))).all()]

    async def _run(self) -> None:
        while True:
            try:
                for game_id in await to_thread.run_sync(self._in_play):
                    await self.clocks.enforce(game_id)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                log.warning("the clocks could not be looked at: %s", exc.__class__.__name__)
            await asyncio.sleep(TICK)


def clock_json(spec: ClockSpec, clock: ClockState) -> dict[str, Any]:
    return {
        "kind": spec.kind,
        "words": spec.words(),
        "remaining": [round(x, 3) for x in clock.remaining],
        "running": clock.running,
        "now": clock.now,
        "flagged": None if clock.flagged is None else clock.flagged[0],
    }


router = APIRouter(tags=["games"])
"""``GET /api/games/{id}/clock``."""


async def run(fn: Callable[..., Any], *args: Any) -> Any:
    return await to_thread.run_sync(functools.partial(fn, *args))


@router.get("/api/games/{game_id}/clock", summary="The game's clocks",
            responses=refusals(401, 404))
async def clock(game_id: GameId, creds: Creds, state: ServerOf) -> dict[str, Any]:
    """For a seat: ``{"clock": null}`` without a clock, else its kind, each player's
    time left in seconds (``remaining``) as of the server's ``now``, whose clock runs,
    and who ran out (``flagged``; the game is then lost on time)."""
    g: Games = state.games
    entry, _seat = await run(g.authenticate, game_id, token_of(creds))
    c = state.clocks
    assert c is not None  # made at start-up
    after = await c.enforce(game_id, entry)
    if after is not None:
        entry = after
    spec = await run(c.spec, game_id)
    if spec is None:
        return {"clock": None}
    read = await run(c.read, entry)
    return {"clock": clock_json(spec, read)}
