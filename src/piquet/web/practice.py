"""Undo, resign and rematch at the browser table.

- **Undo** (a practice game: every other seat is the computer): the game goes back to just
  before the seat's last action.  A game is its seed and its action log, so the log is cut
  there (an optimistic write on its length, as an append is) and the game is rebuilt by
  replaying what is left through :class:`~piquet.core.match.Match`.
- **Resign**: the game ends; the others win.  Kept in ``piquet_game_ends`` (the rules
  engine knows nothing of it); a resigned game takes no more actions.
- **Rematch**: a new game with the same rule set, format, opponents and hints, the seats
  moved round by one (two players swap).  The first player to ask makes it; each other
  person takes their seat in it from the old game's table with their old token.

:func:`attach` hooks :data:`Games.extras <piquet.web.games.Games.extras>`: every seat's
JSON then carries ``practice``, ``can_undo``, ``resigned`` (the seat that resigned, or
null), ``rematch`` (the new game's id, or null) and ``rematch_mine``.
"""

from __future__ import annotations

import functools
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any, Final

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter, Depends
from fastapi import Path as PathParam
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.exc import IntegrityError

from piquet.core.match import MAX_SEED, Match
from piquet.web.games import Entry, Games
from piquet.web.refusals import GameError, Refusal, hash_secret
from piquet.web.store import NewSeat, Store, actions_t, bump_revision, games_t

__all__ = ["Ends", "GameId", "attach", "practice_router", "refusals", "rotate", "truncate"]

_meta: Final = sa.MetaData()
ends_t: Final = sa.Table(
    "piquet_game_ends",
    _meta,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("resigned", sa.Integer, nullable=True),
    sa.Column("rematch", sa.String(32), nullable=True),
    sa.Column("rematch_by", sa.Integer, nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
)


@dataclass(frozen=True, slots=True)
class End:
    resigned: int | None = None
    rematch: str | None = None
    rematch_by: int | None = None


class _Over(Exception):
    """The game ended before the resignation could be written (the transaction is undone)."""


class Ends:
    """Resignations and rematches: the table, and all of it in memory (read once at
    start-up; rows are few: only games that ended by a resignation or had a rematch).

    Recording one raises the game's revision (:func:`~piquet.web.store.bump_revision`):
    another process sharing the database sees the new revision when it next checks the
    game and reads its end again (:meth:`refresh`, hooked as ``Games.revised``).
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._lock = threading.Lock()
        with store.engine.connect() as conn:
            rows = conn.execute(sa.select(ends_t)).all()
        self._ends: dict[str, End] = {
            r.game_id: End(r.resigned, r.rematch, r.rematch_by) for r in rows
        }

    def get(self, game_id: str) -> End | None:
        return self._ends.get(game_id)

    def refresh(self, game_id: str) -> None:
        """Read the end of ``game_id`` again (another process may have recorded it).  Blocks."""
        with self.store.engine.connect() as conn:
            r = conn.execute(sa.select(ends_t).where(ends_t.c.game_id == game_id)).first()
        with self._lock:
            if r is None:
                self._ends.pop(game_id, None)
            else:
                self._ends[game_id] = End(r.resigned, r.rematch, r.rematch_by)

    def resign(self, game_id: str, seat: int) -> bool:
        """Record that ``seat`` resigned ``game_id``; False (nothing written) if it already
        ended, by a resignation or by its last move (written meanwhile, perhaps by another
        process: the check and the write are one transaction).  Blocks."""
        try:
            with self._lock, self.store.engine.begin() as conn:
                # the revision first, and only while the game is not over: its row lock
                # orders this against a move being appended and another resignation
                bumped = conn.execute(
                    games_t.update()
                    .where(games_t.c.id == game_id, games_t.c.finished.is_(False))
                    .values(revision=games_t.c.revision + 1)
                )
                if bumped.rowcount != 1:
                    raise _Over
                res = conn.execute(
                    ends_t.update()
                    .where(ends_t.c.game_id == game_id, ends_t.c.resigned.is_(None))
                    .values(resigned=seat)
                )
                if res.rowcount != 1:
                    if conn.execute(
                        sa.select(ends_t.c.game_id).where(ends_t.c.game_id == game_id)
                    ).first():
                        raise _Over  # resigned already: the revision's raise is undone too
                    conn.execute(
                        ends_t.insert().values(
                            game_id=game_id, resigned=seat, created_at=time.time()
                        )
                    )
                old = self._ends.get(game_id, End())
                self._ends[game_id] = End(seat, old.rematch, old.rematch_by)
                return True
        except _Over:
            return False

    def claim_rematch(self, game_id: str, new_id: str, seat: int) -> str:
        """Make ``new_id`` the rematch of ``game_id`` unless one was made first: the
        rematch that stands.  Blocks."""
        with self._lock:
            try:
                with self.store.engine.begin() as conn:
                    res = conn.execute(
                        ends_t.update()
                        .where(ends_t.c.game_id == game_id, ends_t.c.rematch.is_(None))
                        .values(rematch=new_id, rematch_by=seat)
                    )
                    made = res.rowcount == 1
                    if not made:
                        row = conn.execute(
                            sa.select(ends_t).where(ends_t.c.game_id == game_id)
                        ).first()
                        made = row is None
                        if row is None:
                            conn.execute(
                                ends_t.insert().values(
                                    game_id=game_id,
                                    rematch=new_id,
                                    rematch_by=seat,
                                    created_at=time.time(),
                                )
                            )
                        else:
                            new_id, seat = row.rematch, row.rematch_by
                    if made:
                        bump_revision(conn, game_id)
            except IntegrityError:  # another process inserted it meanwhile
                with self.store.engine.connect() as conn:
                    row = conn.execute(sa.select(ends_t).where(ends_t.c.game_id == game_id)).one()
                new_id, seat = row.rematch, row.rematch_by
            old = self._ends.get(game_id, End())
            self._ends[game_id] = End(old.resigned, new_id, seat)
            return new_id


def resigned_result(m: Match, resigned: int) -> dict[str, Any]:
    """The result of a game ``resigned`` (a seat) resigned: the other player of the game
    wins; nobody, in a pool, if the one who resigned was standing out."""
    others = [p for p in m.in_game if p != resigned]
    return {"resigned": resigned, "winner": others[0] if len(others) == 1 else None}


def is_practice(entry: Entry, seat: int) -> bool:
    """Every other seat is the computer."""
    return all(s.kind == "ai" for s in entry.row.seats if s.seat != seat)


def extras(ends: Ends) -> Callable[[Entry, int], dict[str, Any]]:
    """What a seat's JSON gains (see the module's text)."""

    def more(entry: Entry, seat: int) -> dict[str, Any]:
        end = ends.get(entry.row.id) or End()
        m = entry.live.match
        practice = is_practice(entry, seat)
        out: dict[str, Any] = {
            "practice": practice,
            "can_undo": practice
            and end.resigned is None
            and m.takeback_index(seat) is not None,  # a move of this deal (not over)
            "resigned": end.resigned,
            "rematch": end.rematch,
            "rematch_mine": end.rematch is not None and end.rematch_by == seat,
        }
        if end.resigned is not None:
            out.update(
                finished=True,
                to_act=None,
                your_turn=False,
                legal_actions=[],
                result=resigned_result(m, end.resigned),
            )
        return out

    return more


def attach(games: Games, store: Store) -> Ends:
    """Read the ends and hook them into ``games``' seat views.  Blocks."""
    ends = Ends(store)
    games.extras = extras(ends)
    games.revised = ends.refresh
    return ends


def truncate(store: Store, game_id: str, n: int, keep: int) -> bool:
    """Cut the log of ``game_id`` (``n`` long) to its first ``keep`` actions; False (and
    nothing changed) when the log is not ``n`` long any more.  Blocks."""
    with store.engine.begin() as conn:
        res = conn.execute(
            games_t.update()
            .where(games_t.c.id == game_id, games_t.c.n_actions == n)
            .values(
                n_actions=keep,
                finished=False,
                updated_at=time.time(),
                revision=games_t.c.revision + 1,
            )
        )
        if res.rowcount != 1:
            return False
        conn.execute(
            actions_t.delete().where(actions_t.c.game_id == game_id, actions_t.c.idx >= keep)
        )
    return True


def rotate(seat: int, n_seats: int) -> int:
    """A seat's number in the rematch: moved round by one (two players swap)."""
    return (seat + 1) % n_seats


# ---------------------------------------------------------------------- the routes
bearer: Final = HTTPBearer(auto_error=False, description="The seat's token.")
Creds = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]
GameId = Annotated[str, PathParam(pattern=r"^[A-Za-z0-9_-]{1,32}$", description="The game's id.")]


class ErrorBody(BaseModel):
    error: str = Field(description="What was wrong, and what is allowed.")


def refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The error answers a route documents (every one is ``{"error": ...}``); 400, 413,
    422 and 429 come with any request (bad body, too big, invalid, too many)."""
    return {c: {"model": ErrorBody} for c in sorted({400, 413, 422, 429, *codes})}


class UndoIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    n: int | None = Field(
        None, ge=0, description="The log length of the game as you saw it (409 if it moved on)."
    )


class RematchOut(BaseModel):
    id: str
    token: str
    seat: int
    invites: list[dict[str, Any]] = []


def practice_router(state: dict[str, Any]) -> APIRouter:
    """``/api/games/{id}/undo``, ``/resign`` and ``/rematch``; ``state`` is the app's
    (store, games, hub, ai)."""
    router = APIRouter(tags=["games"])

    def games() -> Games:
        g: Games = state["games"]
        return g

    async def run(fn: Callable[..., Any], *args: Any) -> Any:
        return await to_thread.run_sync(fn, *args)

    async def seat_of(
        game_id: str, creds: HTTPAuthorizationCredentials | None
    ) -> tuple[Entry, int]:
        token = creds.credentials if creds is not None else None
        entry, seat = await run(games().authenticate, game_id, token)
        return entry, seat.seat

    def body(entry: Entry, seat: int) -> Response:
        return Response(games().seat_body(entry, seat), media_type="application/json")

    def ended(game_id: str) -> End:
        ends: Ends = state["ends"]
        return ends.get(game_id) or End()

    @router.post(
        "/api/games/{game_id}/undo",
        responses=refusals(401, 404, 409),
        summary="Take back your last move (practice games against the computer)",
    )
    async def undo_move(game_id: GameId, creds: Creds, data: UndoIn | None = None) -> Response:
        """Back to just before your last action, in a game where every other seat is the
        computer (as the terminal's ``undo``).  409: not a practice game, the game is over,
        nothing of yours to take back, or the game moved on (``n``: the log length you saw)."""
        g = games()
        for _attempt in range(3):
            entry, seat = await seat_of(game_id, creds)
            m = entry.live.match
            if not is_practice(entry, seat):
                raise GameError(Refusal.NOT_NOW, "undo is for practice games against the computer")
            if m.finished or ended(game_id).resigned is not None:
                raise GameError(Refusal.NOT_NOW, "the game is over: nothing to take back")
            if data is not None and data.n is not None and data.n != entry.n:
                return JSONResponse(
                    {
                        "error": "the game changed meanwhile (your other tab, or the "
                        "computer's answer): here it is as it stands",
                        "game": g.seat_json(entry, seat),
                    },
                    status_code=409,
                )
            last = m.takeback_index(seat)
            if last is None:
                earlier = any(p == seat for p, _a in m.history)
                raise GameError(Refusal.NOT_NOW, (
                    "your moves of the deals before this one stay: this deal's cards are seen"
                    if earlier else "you have made no move to take back"))
            if await run(truncate, g.store, game_id, entry.n, last):
                after = await run(g.load, game_id)
                await state["hub"].publish(game_id, -1)
                if g.ai_turn(after) is not None:
                    state["ai"].kick(game_id)
                return body(after, seat)
            # the computer moved meanwhile: look again
            await to_thread.run_sync(functools.partial(g.fresh, game_id, check=True))
        raise GameError(Refusal.NOT_NOW, "the game moved on meanwhile: try again")

    @router.post(
        "/api/games/{game_id}/resign",
        responses=refusals(401, 404, 409),
        summary="Resign the game",
    )
    async def resign(game_id: GameId, creds: Creds) -> Response:
        """End the game now: the other side wins.  409 if it is already over."""
        g = games()
        entry, seat = await seat_of(game_id, creds)
        if entry.live.match.finished:
            raise GameError(Refusal.NOT_NOW, "the game is already over")
        if not await run(state["ends"].resign, game_id, seat):
            now = await run(functools.partial(g.fresh, game_id, check=True))
            why = "its last move was made" if now.live.match.finished else "a player resigned"
            raise GameError(Refusal.NOT_NOW, f"the game is already over: {why}")
        held = g.peek(game_id) or entry
        held.bodies.clear()  # built before the resignation
        entry.bodies.clear()
        await state["hub"].publish(game_id, -1)
        return body(held, seat)

    @router.post(
        "/api/games/{game_id}/rematch",
        status_code=201,
        response_model=RematchOut,
        responses=refusals(401, 404, 409),
        summary="A rematch: same settings, seats swapped",
    )
    async def rematch(game_id: GameId, creds: Creds) -> dict[str, Any]:
        """After a finished (or resigned) game: the first to ask makes a new game with the
        same rule set, format, opponents and hints, each seat moved round by one; the
        others take their seats in it here with their old tokens."""
        g = games()
        entry, seat = await seat_of(game_id, creds)
        row = entry.row
        if not entry.live.match.finished and ended(game_id).resigned is None:
            raise GameError(Refusal.NOT_NOW, "a rematch follows the end of the game")
        made = ended(game_id).rematch
        n = len(row.seats)
        if made is None:
            token = secrets.token_urlsafe(32)
            invites: list[tuple[int, str]] = []
            seats: list[NewSeat | None] = [None] * n
            for s in row.seats:
                to = rotate(s.seat, n)
                if s.seat == seat:
                    seats[to] = NewSeat("human", None, s.name, hash_secret(token), None)
                elif s.kind == "ai":
                    seats[to] = NewSeat("ai", s.level, s.name, None, None)
                else:
                    code = secrets.token_urlsafe(24)
                    invites.append((to, code))
                    seats[to] = NewSeat("human", None, s.name, None, hash_secret(code))
            new_id = secrets.token_urlsafe(12)

            def create() -> None:
                g.store.create_game(
                    game_id=new_id,
                    rules=row.rules,
                    format=row.format,
                    seed=secrets.randbelow(MAX_SEED),
                    games_to_play=row.games_to_play,
                    hints=row.hints,
                    seats=[s for s in seats if s is not None],
                )

            await run(create)
            stands = await run(state["ends"].claim_rematch, game_id, new_id, seat)
            if stands == new_id:
                await run(g.load, new_id)
                for held in (g.peek(game_id), entry):
                    if held is not None:
                        held.bodies.clear()
                await state["hub"].publish(game_id, -1)
                state["ai"].kick(new_id)
                return {
                    "id": new_id,
                    "token": token,
                    "seat": rotate(seat, n),
                    "invites": [
                        {"seat": s, "invite": c, "url": f"/join/{new_id}#invite={c}"}
                        for s, c in invites
                    ],
                }
            await run(g.store.drop_unplayed_game, new_id)  # the game made here does not stand
            made = stands  # the other side asked first: take the seat it keeps for you
        if ended(game_id).rematch_by == seat:
            raise GameError(Refusal.NOT_NOW, "you made this rematch: it is among your games")
        to = rotate(seat, n)
        code = secrets.token_urlsafe(24)
        if not await run(g.store.set_invite, made, to, hash_secret(code)):
            raise GameError(Refusal.NOT_NOW, "your seat in the rematch is already taken")
        name = row.seats[seat].name
        token, taken = await run(g.join, made, code, name)
        await state["hub"].publish(made, -1)
        return {"id": made, "token": token, "seat": taken, "invites": []}

    return router
