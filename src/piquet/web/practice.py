"""Undo, resign and rematch at the browser table: entries of the game's log.

Each is one of the table's own events (:mod:`piquet.table.state`), written through the
one action path (:meth:`Games.act <piquet.web.games.Games.act>`): checked against the game
as it stands, committed first, then held in memory, so a write that fails changes
nothing anywhere (the seed of a game still in play is never given away by a resignation
that was not written).

- **Undo** (a practice game: every other seat is the computer): the entry ``undo``; the
  match goes back to just before the seat's last move of the deal in play.  The log only
  grows, so a retry of a move made before the undo is refused as stale.
- **Resign**: the entry ``resign``; the game is over, the others win.
- **Rematch**: a new game with the same rule set, format, opponents and hints, the seats
  moved round by one (two players swap), and the entry ``rematch:ID`` in the old game:
  the first one written stands.  Each other person takes their seat in it from the old
  game's table with their old token.

Every seat's JSON carries ``practice``, ``can_undo``, ``resigned`` (the seat that
resigned, or null), ``rematch`` (the new game's id, or null) and ``rematch_mine``.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable
from typing import Any

from anyio import to_thread
from fastapi import APIRouter
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials
from pydantic import BaseModel, ConfigDict, Field

from piquet.core.match import MAX_SEED
from piquet.table.errors import Refusal, TableError
from piquet.table.state import RESIGN, UNDO, rematch_entry
from piquet.web.games import Entry
from piquet.web.ids import Creds, GameId, token_of
from piquet.web.refusals import hash_secret
from piquet.web.schema import Count
from piquet.web.server import Server, ServerOf
from piquet.web.store import NewSeat, StoreError

__all__ = ["refusals", "rotate", "router"]


def rotate(seat: int, n_seats: int) -> int:
    """A seat's number in the rematch: moved round by one (two players swap)."""
    return (seat + 1) % n_seats


# ---------------------------------------------------------------------- the routes


class ErrorBody(BaseModel):
    error: str = Field(description="What was wrong, and what is allowed.")


def refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The error answers a route documents (every one is ``{"error": ...}``); 400, 413,
    422 and 429 come with any request (bad body, too big, invalid, too many)."""
    return {c: {"model": ErrorBody} for c in sorted({400, 413, 422, 429, *codes})}


class UndoIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    n: Count | None = Field(
        None, description="The log length of the game as you saw it (409 if it moved on)."
    )


class RematchOut(BaseModel):
    id: str
    token: str
    seat: int
    invites: list[dict[str, Any]] = []


router = APIRouter(tags=["games"])
"""``/api/games/{id}/undo``, ``/resign`` and ``/rematch``."""


async def run(fn: Callable[..., Any], *args: Any) -> Any:
    return await to_thread.run_sync(fn, *args)


async def seat_of(
    state: Server, game_id: str, creds: HTTPAuthorizationCredentials | None
) -> tuple[Entry, int]:
    """The game as it stands and the seat the token opens."""
    entry, seat = await run(state.games.authenticate, game_id, token_of(creds))
    return entry, seat.seat


def body(state: Server, entry: Entry, seat: int) -> Response:
    """The seat's view as the answer."""
    return Response(state.games.seat_body(entry, seat), media_type="application/json")


@router.post(
    "/api/games/{game_id}/undo",
    responses=refusals(401, 404, 409),
    summary="Take back your last move (practice games against the computer)",
)
async def undo_move(
    game_id: GameId, creds: Creds, state: ServerOf, data: UndoIn | None = None
) -> Response:
    """Back to just before your last action, in a game where every other seat is the
    computer (as the terminal's ``undo``).  409: not a practice game, the game is over,
    nothing of yours to take back, or the game moved on (``n``: the log length you saw)."""
    g = state.games
    entry, seat = await seat_of(state, game_id, creds)
    if data is not None and data.n is not None and data.n != entry.n:
        return JSONResponse(
            {
                "error": "the game changed meanwhile (your other tab, or the "
                "computer's answer): here it is as it stands",
                "game": g.seat_json(entry, seat),
            },
            status_code=409,
        )
    # on the game as it stands (the computer may have answered meanwhile), or as the
    # player saw it (``n``): the log only grows, so that is a version
    expect = data.n if data is not None else None
    after = await g.act(game_id, seat, UNDO, expect=expect, entry=entry, event=True)
    if g.computer_due(after):
        state.ai.kick(game_id)
    return body(state, after, seat)


@router.post(
    "/api/games/{game_id}/resign",
    responses=refusals(401, 404, 409),
    summary="Resign the game",
)
async def resign(game_id: GameId, creds: Creds, state: ServerOf) -> Response:
    """End the game now: the other side wins.  409 if it is already over."""
    g = state.games
    entry, seat = await seat_of(state, game_id, creds)
    after = await g.act(game_id, seat, RESIGN, entry=entry, event=True)
    return body(state, after, seat)


@router.post(
    "/api/games/{game_id}/rematch",
    status_code=201,
    response_model=RematchOut,
    responses=refusals(401, 404, 409),
    summary="A rematch: same settings, seats swapped",
)
async def rematch(game_id: GameId, creds: Creds, state: ServerOf) -> dict[str, Any]:
    """After a finished (or resigned) game: the first to ask makes a new game with the
    same rule set, format, opponents and hints, each seat moved round by one; the
    others take their seats in it here with their old tokens."""
    g = state.games
    entry, seat = await seat_of(state, game_id, creds)
    row = entry.row
    if not g.over(entry):
        raise TableError(Refusal.NOT_NOW, "a rematch follows the end of the game")
    made = entry.live.state.rematch
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
        try:
            stands = (await g.act(game_id, seat, rematch_entry(new_id), event=True)
                      ).live.state.rematch
        except TableError:  # another made the rematch first: that one stands
            stands = (await run(g.fresh, game_id)).live.state.rematch
        except StoreError:  # not written: the game made for it is nobody's
            with contextlib.suppress(StoreError):
                await run(g.store.drop_unplayed_game, new_id)
            raise
        if stands == new_id:
            await run(g.load, new_id)
            state.ai.kick(new_id)
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
        if stands is None:
            raise TableError(Refusal.NOT_NOW, "the rematch could not be made: try again")
        made = stands  # the other side asked first: take the seat it keeps for you
        entry = await run(g.fresh, game_id)
    if entry.live.state.rematch_by == seat:
        raise TableError(Refusal.NOT_NOW, "you made this rematch: it is among your games")
    to = rotate(seat, n)
    code = secrets.token_urlsafe(24)
    if not await run(g.store.set_invite, made, to, hash_secret(code)):
        raise TableError(Refusal.NOT_NOW, "your seat in the rematch is already taken")
    name = row.seats[seat].name
    token, taken = await run(g.join, made, code, name)
    await state.hub.publish(made, -1)
    return {"id": made, "token": token, "seat": taken, "invites": []}
