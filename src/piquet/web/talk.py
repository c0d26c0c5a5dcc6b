"""Between the players of a game: the chat, a takeback asked of the other, an abort.

- **Chat**: the seats of a game (their tokens) write to each other, at most
  :data:`MAX_CHAT` characters a message (control characters removed, spaces folded) and
  :data:`MAX_MESSAGES` a game.  Spectators neither read nor write it (a spectator key opens
  no seat).  The messages are kept with the game (table ``piquet_chat``).  A seat may mute
  the others: their messages are then left out of what it is sent (``piquet_chat_mutes``).
  The page shows every message as text, never as markup.  A new message is news of the
  game for every server process (the hub's :data:`~piquet.web.hub.TALK`), and each socket
  of the game is told ``{"type": "talk"}``: the page asks for the chat again.
- **Takeback** (two people): ``POST /api/games/{id}/takeback`` asks the other to let you
  take back your last move of the deal (``{"answer": "yes"}`` or ``"no"`` answers a
  question asked of you); entries of the game's log (``takeback``, ``takeback:yes``,
  ``takeback:no``: :mod:`piquet.table.state`), so they are game state, committed first.
- **Abort**: ``POST /api/games/{id}/abort`` before your first move ends the game with no
  result (a rated game is not rated).
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any, Final, Literal

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field, StrictBool

from piquet.table.errors import Refusal, TableError
from piquet.table.state import ABORT, TAKEBACK, TAKEBACK_NO, TAKEBACK_YES
from piquet.web.games import Games
from piquet.web.hub import TALK
from piquet.web.ids import Creds, GameId, token_of
from piquet.web.practice import refusals
from piquet.web.refusals import CONTROL_CHARS
from piquet.web.schema import Count
from piquet.web.server import ServerOf

__all__ = ["MAX_CHAT", "MAX_MESSAGES", "chat_t", "clean_message", "router"]

MAX_CHAT: Final = 280
"""The most characters of one chat message."""
MAX_MESSAGES: Final = 500
"""The most messages of one game's chat."""

_meta: Final = sa.MetaData()
chat_t: Final = sa.Table(
    "piquet_chat",
    _meta,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("game_id", sa.String(32), nullable=False, index=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("text", sa.String(1200), nullable=False),
    sa.Column("at", sa.Float, nullable=False),
)
mutes_t: Final = sa.Table(
    "piquet_chat_mutes",
    _meta,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
)


def clean_message(text: str) -> str:
    """A chat message as kept: control and direction characters removed, runs of spaces
    folded (line breaks too).  Raises :class:`TableError` for an empty or too long one."""
    cleaned = " ".join(CONTROL_CHARS.sub(" ", text).split())
    if not cleaned:
        raise TableError(Refusal.UNREADABLE, "an empty message: write something to send")
    if len(cleaned) > MAX_CHAT:
        raise TableError(Refusal.UNREADABLE, f"a message has at most {MAX_CHAT} characters "
                         f"(this one has {len(cleaned)})")
    return cleaned


class ChatIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    text: str = Field(max_length=4 * MAX_CHAT, description=f"At most {MAX_CHAT} characters.")


class MuteIn(BaseModel):
    muted: StrictBool = Field(description="True: leave the other players' messages out.")


class TakebackIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    answer: Literal["yes", "no"] | None = Field(
        None, description="Answer the takeback asked of you; none: ask one.")
    n: Count | None = Field(None, description="The log length of the game as you saw it.")


router = APIRouter(tags=["games"])
"""``/api/games/{id}/chat``, ``/chat/mute``, ``/takeback`` and ``/abort``."""


async def run(fn: Callable[..., Any], *args: Any) -> Any:
    return await to_thread.run_sync(functools.partial(fn, *args))


def chat_of(engine: sa.Engine, game_id: str, seat: int) -> dict[str, Any]:
    with engine.connect() as conn:
        muted = conn.execute(sa.select(mutes_t.c.seat).where(
            mutes_t.c.game_id == game_id, mutes_t.c.seat == seat)).first() is not None
        query = sa.select(chat_t).where(chat_t.c.game_id == game_id)
        if muted:
            query = query.where(chat_t.c.seat == seat)
        rows = conn.execute(query.order_by(chat_t.c.id)).all()
    return {"messages": [{"seat": r.seat, "text": r.text, "at": r.at} for r in rows],
            "muted": muted, "max": MAX_CHAT}


@router.get("/api/games/{game_id}/chat", summary="The players' chat",
            responses=refusals(401, 404))
async def read_chat(game_id: GameId, creds: Creds, state: ServerOf) -> dict[str, Any]:
    """The chat of the game, oldest first (``seat``, ``text``, ``at``), for a seat of
    it (a spectator key opens none: 404); ``muted``: the others' messages left out."""
    _entry, seat = await run(state.games.authenticate, game_id, token_of(creds))
    out: dict[str, Any] = await run(chat_of, state.store.engine, game_id, seat.seat)
    return out


@router.post("/api/games/{game_id}/chat", summary="Write to the other players",
             status_code=201, responses=refusals(401, 404, 409))
async def write_chat(
    game_id: GameId, body: ChatIn, creds: Creds, state: ServerOf
) -> dict[str, Any]:
    """Send a message to the other players of the game (kept with the game).  400: an
    empty or too long message; 409: the chat of this game is full, or no other person
    sits at the table."""
    entry, seat = await run(state.games.authenticate, game_id, token_of(creds))
    text = clean_message(body.text)
    if not any(s.kind == "human" and s.seat != seat.seat for s in entry.row.seats):
        raise TableError(Refusal.NOT_NOW, "the chat is between players: the computer "
                         "does not read it")

    def put() -> None:
        with state.store.engine.begin() as conn:
            count = conn.execute(sa.select(sa.func.count()).select_from(chat_t).where(
                chat_t.c.game_id == game_id)).scalar_one()
            if count >= MAX_MESSAGES:
                raise TableError(Refusal.NOT_NOW, f"this game's chat is full ("
                                 f"{MAX_MESSAGES} messages)")
            conn.execute(chat_t.insert().values(game_id=game_id, seat=seat.seat,
                                                text=text, at=time.time()))

    await run(put)
    await state.hub.publish(game_id, TALK)
    out: dict[str, Any] = await run(chat_of, state.store.engine, game_id, seat.seat)
    return out


@router.post("/api/games/{game_id}/chat/mute", summary="Mute or unmute the chat",
             responses=refusals(401, 404))
async def mute(
    game_id: GameId, body: MuteIn, creds: Creds, state: ServerOf
) -> dict[str, Any]:
    """Leave the other players' messages out of what this seat is sent (or bring them
    back)."""
    _entry, seat = await run(state.games.authenticate, game_id, token_of(creds))

    def put() -> None:
        with state.store.engine.begin() as conn:
            conn.execute(mutes_t.delete().where(mutes_t.c.game_id == game_id,
                                                mutes_t.c.seat == seat.seat))
            if body.muted:
                conn.execute(mutes_t.insert().values(game_id=game_id, seat=seat.seat))

    await run(put)
    out: dict[str, Any] = await run(chat_of, state.store.engine, game_id, seat.seat)
    return out


def body_of(games_: Games, entry: Any, seat: int) -> Response:
    return Response(games_.seat_body(entry, seat), media_type="application/json")


@router.post("/api/games/{game_id}/takeback", summary="Ask or answer a takeback",
             responses=refusals(401, 404, 409))
async def takeback(
    game_id: GameId, creds: Creds, state: ServerOf, data: TakebackIn | None = None
) -> Response:
    """Without ``answer``: ask the other player to let you take back your last move
    of the deal in play.  With ``answer`` (yes or no): answer the question asked of
    you; yes takes the move back (and what followed it).  409 with the reason: not a
    game of two people, nothing to take back, no question to answer, the game over or
    moved on (``n``)."""
    g = state.games
    entry, seat = await run(g.authenticate, game_id, token_of(creds))
    answer = data.answer if data is not None else None
    text = TAKEBACK if answer is None else (TAKEBACK_YES if answer == "yes" else TAKEBACK_NO)
    expect = data.n if data is not None else None
    after = await g.act(game_id, seat.seat, text, expect=expect, entry=entry, event=True)
    return body_of(g, after, seat.seat)


@router.post("/api/games/{game_id}/abort", summary="Abort the game before your first move",
             responses=refusals(401, 404, 409))
async def abort(game_id: GameId, creds: Creds, state: ServerOf) -> Response:
    """End the game with no result, before your first move (after it, resign).  A
    rated game is not rated.  409: you have moved, or the game is over."""
    g = state.games
    entry, seat = await run(g.authenticate, game_id, token_of(creds))
    after = await g.act(game_id, seat.seat, ABORT, entry=entry, event=True)
    return body_of(g, after, seat.seat)
