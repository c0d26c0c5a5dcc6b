"""The lobby: open challenges that anyone may accept, next to the invitation link.

A player who starts a game against a friend may also post it in the lobby
(``POST /api/lobby`` with the seat's token and the invitation code the game came with):
the challenge shows the rule set, the format and the player's name to everyone
(``GET /api/lobby``), and the first to accept (``POST /api/lobby/{id}/accept``) takes the
seat, exactly as the invitation link would (:meth:`piquet.web.games.Games.join`): the
link and the challenge open the same seat, whichever comes first.  A challenge whose seat
is taken, or whose link was replaced, leaves the lobby; its poster may withdraw it
(``DELETE /api/lobby/{id}``).

The invitation code is kept with the challenge (the ``piquet_challenges`` table,
migration ``0004``) but never sent: accepting asks the server to use it.
"""

from __future__ import annotations

import functools
import math
import secrets
import time
from collections.abc import Callable
from typing import Annotated, Any, Final

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter, Body, Request
from pydantic import BaseModel, ConfigDict, Field
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from starlette.exceptions import HTTPException as StarletteHTTPException

from piquet.core.rules import PRESETS, Format
from piquet.table.errors import Refusal, TableError
from piquet.table.summary import TITLES, format_label
from piquet.web.games import Games
from piquet.web.ids import ID_PATTERN, ChallengeId, Creds, token_of
from piquet.web.limits import TokenBuckets
from piquet.web.refusals import hash_secret
from piquet.web.server import Server, ServerOf
from piquet.web.store import games_t, metadata, seats_t

__all__ = ["Lobby", "challenges_t", "router"]

MAX_OPEN: Final = 50
"""Challenges listed at most (the newest)."""
GONE: Final = "this challenge is no longer open: it was taken or withdrawn"

challenges_t: Final = sa.Table(
    "piquet_challenges",
    metadata,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("game_id", sa.String(32), nullable=False, unique=True),
    sa.Column("seat", sa.Integer, nullable=False),
    sa.Column("invite", sa.String(64), nullable=False),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("rules", sa.String(64), nullable=False),
    sa.Column("format", sa.String(16), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)


class Lobby:
    """The open challenges over the server's engine.  Every method blocks."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def post(
        self, *, game_id: str, seat: int, invite: str, name: str, rules: str, fmt: str
    ) -> str:
        """Post (or post again) ``game_id``'s open ``seat``; the challenge's id."""
        cid = secrets.token_urlsafe(9)
        try:
            with self.engine.begin() as conn:
                conn.execute(challenges_t.delete().where(challenges_t.c.game_id == game_id))
                conn.execute(
                    challenges_t.insert().values(
                        id=cid, game_id=game_id, seat=seat, invite=invite, name=name[:64],
                        rules=rules, format=fmt, created_at=time.time(),
                    )
                )
        except IntegrityError:
            # posted by another request at the same moment (a double click, two tabs):
            # PostgreSQL let both delete nothing; that one's challenge stands, and is this
            with self.engine.connect() as conn:
                found = conn.execute(
                    sa.select(challenges_t.c.id).where(challenges_t.c.game_id == game_id)
                ).scalar()
            if found is None:  # withdrawn meanwhile: post it again
                return self.post(
                    game_id=game_id, seat=seat, invite=invite, name=name, rules=rules, fmt=fmt
                )
            return str(found)
        return cid

    def open(self) -> list[dict[str, Any]]:
        """The challenges whose seat is still waiting for this very invitation, in a game
        not over (nor resigned), newest first, each ``rated`` or not (casual) and with its
        clock in words (``clock``; null: none); the others are dropped."""
        from piquet.web.clocks import ClockSpec, clocks_t
        from piquet.web.rated import rated_games_t

        c, s, g = challenges_t.c, seats_t.c, games_t.c
        k, rg = clocks_t.c, rated_games_t.c
        with self.engine.begin() as conn:
            rows = conn.execute(
                sa.select(c.id, c.game_id, c.invite, c.name, c.rules, c.format, c.created_at,
                          s.token_hash, s.invite_hash, g.finished, rg.game_id.label("rated"),
                          k.kind, k.base, k.increment, k.per_move)
                .join_from(challenges_t, seats_t,
                           sa.and_(s.game_id == c.game_id, s.seat == c.seat), isouter=True)
                .join_from(challenges_t, games_t, g.id == c.game_id, isouter=True)
                .join_from(challenges_t, rated_games_t, rg.game_id == c.game_id, isouter=True)
                .join_from(challenges_t, clocks_t, k.game_id == c.game_id, isouter=True)
                .order_by(c.created_at.desc())
            ).all()
            # a game over (resigned: an entry of its log) has no seat to offer
            stale = [r.id for r in rows
                     if r.token_hash is not None or r.invite_hash != hash_secret(r.invite)
                     or bool(r.finished)]
            if stale:
                conn.execute(challenges_t.delete().where(c.id.in_(stale)))
        now = time.time()
        out = []
        for r in rows:
            if r.id in stale:
                continue
            preset = PRESETS.get(r.rules)
            try:
                label = format_label(preset, Format(r.format)) if preset else r.format
            except ValueError:
                label = r.format
            out.append({
                "id": r.id,
                "name": r.name,
                "rules": r.rules,
                "title": TITLES.get(r.rules, r.rules),
                "format": r.format,
                "format_label": label,
                "age": max(0, round(now - r.created_at)),
                "kind": "challenge",
                "rated": r.rated is not None,
                "clock": None if r.kind is None else ClockSpec(
                    kind=r.kind, base=r.base, increment=r.increment,
                    per_move=r.per_move).words(),
            })
            if len(out) >= MAX_OPEN:
                break
        return out

    def take(self, cid: str) -> tuple[str, str] | None:
        """Remove challenge ``cid``: its (game id, invitation code), or None if gone."""
        with self.engine.begin() as conn:
            row = conn.execute(
                sa.select(challenges_t.c.game_id, challenges_t.c.invite)
                .where(challenges_t.c.id == cid)
            ).first()
            if row is None:
                return None
            res = conn.execute(challenges_t.delete().where(challenges_t.c.id == cid))
            if res.rowcount != 1:
                return None
        return str(row.game_id), str(row.invite)

    def game_of(self, cid: str) -> str | None:
        with self.engine.connect() as conn:
            found = conn.execute(
                sa.select(challenges_t.c.game_id).where(challenges_t.c.id == cid)
            ).scalar()
        return None if found is None else str(found)

    def withdraw(self, cid: str) -> bool:
        with self.engine.begin() as conn:
            res = conn.execute(challenges_t.delete().where(challenges_t.c.id == cid))
        return bool(res.rowcount == 1)


def open_and_seeks(lobby: Lobby) -> list[dict[str, Any]]:
    """The open challenges and the open seeks (``kind``: ``challenge`` or ``seek``),
    newest first, at most :data:`MAX_OPEN`.  Blocks."""
    from piquet.web.people import open_seeks

    seeks = [{**sk, "kind": "seek", "rated": True}
             for sk in open_seeks(lobby.engine) if sk["id"] is not None]
    return sorted(lobby.open() + seeks, key=lambda x: x["age"])[:MAX_OPEN]


# ---------------------------------------------------------------------- the routes
class PostIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    game: str = Field(max_length=32, pattern=ID_PATTERN,
                      description="The game to offer (you hold a seat at it).")
    invite: str = Field(max_length=200, description="The invitation code of its open seat.")


class AcceptIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    name: str | None = Field(None, max_length=100, description="Your name at the table.")


_ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    c: {"description": 'An error: {"error": ...}'} for c in (400, 401, 404, 409, 422, 429)
}


router = APIRouter()
"""The lobby's routes; the server's ``create_per_minute`` limits new challenges per
client address (0: no limit)."""


def lobby_of(state: Server) -> Lobby:
    """The server's lobby, over its store's engine (made at the first request)."""
    if state.lobby is None or state.lobby.engine is not state.store.engine:
        state.lobby = Lobby(state.store.engine)
    return state.lobby


def posts_of(state: Server) -> TokenBuckets:
    """The server's buckets of new challenges, per client address."""
    if state.lobby_posts is None:
        per_minute = state.create_per_minute
        state.lobby_posts = TokenBuckets(per_minute / 60.0, max(1.0, per_minute / 3))
    return state.lobby_posts


async def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return await to_thread.run_sync(functools.partial(fn, *args, **kwargs))


@router.get("/api/lobby", tags=["lobby"])
async def open_challenges(state: ServerOf) -> dict[str, Any]:
    """The open challenges, newest first: who offers, the rule set, the format,
    ``rated`` (else casual) and the clock in words (null: none).  ``kind`` says how to
    accept one: a ``challenge`` (a friend game's seat offered) at
    ``/api/lobby/{id}/accept``, a ``seek`` (a rated game sought, logged in) at
    ``/api/seeks/{id}/accept``."""
    return {"challenges": await run(open_and_seeks, lobby_of(state))}


@router.post("/api/lobby", status_code=201, responses=_ERRORS, tags=["lobby"])
async def post_challenge(
    body: Annotated[PostIn, Body()], creds: Creds, request: Request, state: ServerOf
) -> dict[str, Any]:
    """Offer your game's open seat to anyone: the seat's token, and the invitation
    code the game was created with (the link keeps working too)."""
    if state.create_per_minute > 0:
        client = request.client
        wait = posts_of(state).take(client.host if client else "?")
        if wait:
            raise StarletteHTTPException(
                429, "too many challenges: slow down and try again",
                headers={"retry-after": str(max(1, math.ceil(wait)))},
            )
    games: Games = state.games
    token = token_of(creds)
    entry, seat = await run(games.authenticate, body.game, token)
    if games.over(entry):
        raise TableError(Refusal.NOT_NOW, "the game is over: there is no seat to offer")
    digest = hash_secret(body.invite)
    # the seats as stored: a new link (maybe made through another process) replaced
    # the invitation this process may still hold
    row = await run(games.refresh_row, body.game)
    seats = entry.row.seats if row is None else row.seats
    open_seat = next(
        (s for s in seats
         if s.kind == "human" and s.token_hash is None and s.invite_hash == digest),
        None,
    )
    if open_seat is None:
        raise TableError(
            Refusal.NOT_FOUND,
            "that invitation opens no waiting seat of this game: make a new link",
        )
    n_seats = len(entry.row.seats)
    if n_seats != 2:
        raise TableError(Refusal.UNREADABLE, "only a game of two may be offered in the lobby")
    cid = await run(
        lobby_of(state).post, game_id=body.game, seat=open_seat.seat, invite=body.invite,
        name=seat.name, rules=entry.row.rules, fmt=entry.row.format,
    )
    return {"id": cid, "game": body.game}


@router.post("/api/lobby/{challenge_id}/accept", status_code=201, responses=_ERRORS,
             tags=["lobby"])
async def accept(
    challenge_id: ChallengeId,
    body: Annotated[AcceptIn, Body()],
    request: Request,
    state: ServerOf,
) -> dict[str, Any]:
    """Accept a challenge: you take its seat (the answer holds your token), and the
    challenge leaves the lobby.  A rated game's seat needs a login to another account
    than the host's (401, 409): the game is then rated between the two accounts."""
    from piquet.web.rated import rated_game, rated_joiner, start_rating, take_rated_seat

    game_id_seen = await run(lobby_of(state).game_of, challenge_id)
    if game_id_seen is None:
        raise TableError(Refusal.NOT_FOUND, GONE)
    engine = state.store.engine
    account = await run(rated_joiner, engine, game_id_seen, request)
    taken = await run(lobby_of(state).take, challenge_id)
    if taken is None:
        raise TableError(Refusal.NOT_FOUND, GONE)
    game_id, invite = taken
    games: Games = state.games
    try:
        token, seat = await run(games.join, game_id, invite,
                                body.name if account is None else account.name)
    except TableError:
        raise TableError(Refusal.NOT_FOUND, GONE) from None
    if account is not None:
        await run(take_rated_seat, engine, game_id, account.id)
        found = await run(rated_game, engine, game_id)
        if found is not None:
            await run(start_rating, games, account, found.format)
    await state.hub.publish(game_id, -1)
    return {"id": game_id, "token": token, "seat": seat}


@router.delete("/api/lobby/{challenge_id}", responses=_ERRORS, tags=["lobby"])
async def withdraw(
    challenge_id: ChallengeId, creds: Creds, state: ServerOf
) -> dict[str, Any]:
    """Withdraw your challenge (a seat's token of its game); the link still works."""
    game_id = await run(lobby_of(state).game_of, challenge_id)
    if game_id is None:
        raise TableError(Refusal.NOT_FOUND, GONE)
    games: Games = state.games
    token = token_of(creds)
    await run(games.authenticate, game_id, token)
    await run(lobby_of(state).withdraw, challenge_id)
    return {"withdrawn": challenge_id}
