"""Finding people to play and to watch: who is online, seeks, the games in play.

- **Who is online**: each lobby page says it is open (``POST /api/presence`` with a random
  id of its tab, every 30 seconds); ``online`` lists the accounts whose page spoke in the
  last :data:`ONLINE_FOR` seconds (by name) and counts the guests.  Kept in the database
  (``piquet_presence``), so every server process answers alike.
- **Seeks** (logged in): ``POST /api/seeks`` asks for a rated game of a rule set and
  format against someone whose rating in that format is within ``range`` of yours (none:
  anyone).  If an open seek of another account fits (the same rule set and format, each
  rating within both ranges), the two are matched at once: a rated game is made between
  them (the one who waited at seat 0), put in both accounts' games, and the waiting page
  finds it at ``GET /api/seeks/mine``.  Else the seek waits (one per account), listed by
  ``GET /api/seeks``; ``DELETE /api/seeks/mine`` withdraws it.  Claiming a seek is one
  ``UPDATE ... WHERE game_id IS NULL AND taken = false``: two processes never match it
  twice.
- **Games in play** (``GET /api/games-in-play``): the rated games under way, each with its
  spectator link (the public view only: :mod:`piquet.web.watch`).  Rated games are public;
  a casual game stays private to its players and to whoever they give its link.
"""

from __future__ import annotations

import functools
import secrets
import time
from collections.abc import Callable
from typing import Annotated, Any, Final

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter, Request
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from sqlalchemy.exc import IntegrityError

from piquet.analysis.ratings import NEW_PLAYER
from piquet.core.rules import Format
from piquet.table.errors import Refusal, TableError
from piquet.table.summary import TITLES, format_label
from piquet.web.accounts import ACCOUNT_COOKIE, Account, account_of
from piquet.web.clocks import ClockIn, ClockSpec, clocks_t
from piquet.web.games import FRIEND
from piquet.web.ids import ChallengeId
from piquet.web.players import player_games_t, seal
from piquet.web.practice import refusals
from piquet.web.rated import RATED_FORMATS, rated_games_t, ratings_of, start_rating
from piquet.web.refusals import hash_secret, preset_named
from piquet.web.schema import WHOLE
from piquet.web.server import Server, ServerOf
from piquet.web.store import games_t, seats_t

__all__ = ["ONLINE_FOR", "list_seat", "presence_t", "router", "seeks_t"]

ONLINE_FOR: Final = 75.0
"""Seconds a lobby page counts as open after it last spoke (it speaks every 30)."""
MAX_LISTED: Final = 50

_meta: Final = sa.MetaData()
presence_t: Final = sa.Table(
    "piquet_presence",
    _meta,
    sa.Column("tab", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.String(32), nullable=True),
    sa.Column("name", sa.String(64), nullable=True),
    sa.Column("seen_at", sa.Float, nullable=False, index=True),
)
seeks_t: Final = sa.Table(
    "piquet_seeks",
    _meta,
    sa.Column("account_id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("rules", sa.String(64), nullable=False),
    sa.Column("format", sa.String(16), nullable=False),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("span", sa.Integer, nullable=True),
    sa.Column("taken", sa.Boolean, nullable=False),
    sa.Column("game_id", sa.String(32), nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("id", sa.String(32), nullable=True),
    sa.Column("clock", sa.String(32), nullable=True),
)


class PresenceIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    tab: str = Field(min_length=16, max_length=64, pattern=r"^[A-Za-z0-9_-]+$",
                     description="A random id of the page (made by the page).")


class SeekIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    rules: str = Field(max_length=64, description="A rule set.")
    format: str = Field(max_length=16, description="game or partie.")
    range: Annotated[StrictInt, Field(ge=50, le=2000), WHOLE] | None = Field(
        None, description="The most your ratings may differ (none: anyone).")
    clock: ClockIn | None = Field(
        None, description="The game's clock: live {minutes, increment} or correspondence "
        "{days}; matched only with a seek of the same clock.  None: no clock.")


def list_seat(conn: sa.Connection, who: Account, game_id: str, seat: int, token: str) -> None:
    """Put seat ``seat`` of ``game_id`` (its ``token`` sealed) in ``who``'s games."""
    conn.execute(player_games_t.insert().values(
        identity_hash=hash_secret(who.identity), game_id=game_id, seat=seat,
        token_box=seal(who.identity, game_id, seat, token), created_at=time.time()))


def _fits(mine: float, span: int | None, theirs: float, their_span: int | None) -> bool:
    gap = abs(mine - theirs)
    return (span is None or gap <= span) and (their_span is None or gap <= their_span)


def open_seeks(engine: sa.Engine) -> list[dict[str, Any]]:
    """The seeks waiting for an opponent, oldest first (at most :data:`MAX_LISTED`).
    Blocks."""
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(seeks_t).where(seeks_t.c.taken.is_(False))
            .order_by(seeks_t.c.created_at).limit(MAX_LISTED)).all()
    out = []
    now = time.time()
    for r in rows:
        rules = preset_named(r.rules)
        out.append({
            "id": r.id, "name": r.name, "rules": r.rules,
            "title": TITLES.get(r.rules, r.rules),
            "format": r.format, "format_label": format_label(rules, Format(r.format)),
            "rating": round(r.rating), "range": r.span,
            "clock": None if r.clock is None else ClockSpec.from_text(r.clock).words(),
            "age": max(0, round(now - r.created_at)),
        })
    return out


router = APIRouter(tags=["lobby"])
"""``/api/presence``, ``/api/seeks`` and ``/api/games-in-play``."""


def engine_of(state: Server) -> sa.Engine:
    """The server's database."""
    return state.store.engine


async def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return await to_thread.run_sync(functools.partial(fn, *args, **kwargs))


async def account(state: Server, request: Request) -> Account | None:
    found: Account | None = await run(account_of, engine_of(state),
                                      request.cookies.get(ACCOUNT_COOKIE))
    return found


async def logged_in(state: Server, request: Request, what: str) -> Account:
    found = await account(state, request)
    if found is None:
        raise TableError(Refusal.NO_TOKEN, f"{what} needs an account: log in first")
    return found


# ------------------------------------------------------------------ presence
def online(state: Server) -> dict[str, Any]:
    since = time.time() - ONLINE_FOR
    with engine_of(state).connect() as conn:
        rows = conn.execute(sa.select(presence_t.c.account_id, presence_t.c.name)
                            .where(presence_t.c.seen_at > since)).all()
    names = sorted({r.name for r in rows if r.account_id is not None},
                   key=str.casefold)
    guests = sum(r.account_id is None for r in rows)
    return {"online": names, "guests": guests}


@router.get("/api/presence", summary="Who is online", responses=refusals())
async def who_is_online(state: ServerOf) -> dict[str, Any]:
    """The accounts with a lobby page open (by name), and how many guests."""
    out: dict[str, Any] = await run(online, state)
    return out


@router.post("/api/presence", summary="This page is open", responses=refusals())
async def here(body: PresenceIn, request: Request, state: ServerOf) -> dict[str, Any]:
    """This lobby page is open (say it every 30 seconds); the answer is who is online."""
    who = await account(state, request)
    now = time.time()

    def put() -> None:
        with engine_of(state).begin() as conn:
            conn.execute(presence_t.delete().where(
                presence_t.c.seen_at < now - 4 * ONLINE_FOR))
            conn.execute(presence_t.delete().where(presence_t.c.tab == body.tab))
            conn.execute(presence_t.insert().values(
                tab=body.tab, account_id=who.id if who else None,
                name=who.name if who else None, seen_at=now))

    try:
        await run(put)
    except IntegrityError:  # the same tab at the same moment: it is here anyway
        pass
    out: dict[str, Any] = await run(online, state)
    return out


# ------------------------------------------------------------------ seeks
@router.get("/api/seeks", summary="Open seeks", responses=refusals())
async def seeks(state: ServerOf) -> dict[str, Any]:
    """The seeks waiting for an opponent: id, name, rule set, format, rating, range,
    clock (in words; null: none)."""
    return {"seeks": await run(open_seeks, engine_of(state))}


def account_by_id(state: Server, account_id: str) -> Account | None:
    from piquet.web.accounts import accounts_t

    with engine_of(state).connect() as conn:
        row = conn.execute(sa.select(accounts_t)
                           .where(accounts_t.c.id == account_id)).first()
    if row is None:
        return None
    return Account(id=row.id, name=row.name, identity=row.identity,
                   created_at=row.created_at)


def seek(state: Server, who: Account, rules: str, fmt: str, span: int | None,
         clock: str | None) -> dict[str, Any]:
    mine = ratings_of(engine_of(state), who.id).get(fmt, NEW_PLAYER).rating
    now = time.time()
    with engine_of(state).begin() as conn:
        conn.execute(seeks_t.delete().where(seeks_t.c.account_id == who.id))
        candidates = conn.execute(
            sa.select(seeks_t).where(
                seeks_t.c.taken.is_(False), seeks_t.c.rules == rules,
                seeks_t.c.format == fmt, seeks_t.c.account_id != who.id,
                seeks_t.c.clock.is_(None) if clock is None else seeks_t.c.clock == clock)
            .order_by(seeks_t.c.created_at)).all()
    for other in candidates:
        if not _fits(mine, span, other.rating, other.span):
            continue
        made = meet(state, who, other)
        if made is not None:
            return made
    with engine_of(state).begin() as conn:
        conn.execute(seeks_t.insert().values(
            id=secrets.token_urlsafe(9), account_id=who.id, name=who.name, rules=rules,
            format=fmt, rating=mine, span=span, clock=clock, taken=False, game_id=None,
            created_at=now))
    return {"matched": False, "game": None}


def meet(state: Server, who: Account, other: Any) -> dict[str, Any] | None:
    """Make the game of ``who`` and the waiting seek ``other``; None if another took
    the seek first.  The game is made first, out of sight (no list holds it, it is not
    yet rated nor clocked); then one transaction claims the seek and, with it, makes
    the game rated, gives it the seek's clock and puts it in both players' lists.  A
    process that dies before that transaction commits leaves the seek open, as it was
    (never claimed without its game)."""
    waiting = account_by_id(state, other.account_id)
    if waiting is None:
        return None
    created = state.games.create(rules=other.rules, format=other.format, opponents=[FRIEND],
                              hints=False, name=waiting.name, levels=[])
    token, seat = state.games.join(created.id, created.invites[0][1], who.name)
    with engine_of(state).begin() as conn:
        claimed = conn.execute(
            seeks_t.update().where(seeks_t.c.account_id == other.account_id,
                                   seeks_t.c.taken.is_(False),
                                   seeks_t.c.created_at == other.created_at)
            .values(taken=True, game_id=created.id)).rowcount
        if claimed == 1:
            conn.execute(rated_games_t.insert().values(
                game_id=created.id, format=other.format, account_0=waiting.id,
                account_1=who.id, settled=False, score_0=None, changes=None,
                created_at=time.time()))
            if other.clock is not None:
                conn.execute(clocks_t.insert().values(
                    **ClockSpec.from_text(other.clock).row(created.id)))
            list_seat(conn, waiting, created.id, 0, created.token)
            list_seat(conn, who, created.id, seat, token)
            conn.execute(seeks_t.delete().where(seeks_t.c.account_id == who.id))
    if claimed != 1:
        # matched meanwhile by another: the game made here is nobody's (no list holds
        # it, no one has moved in it), so it goes
        state.games.store.drop_unplayed_game(created.id)
        return None
    return {"matched": True, "game": created.id, "seat": seat, "token": token,
            "opponent": waiting.name}


@router.post("/api/seeks", summary="Seek a rated game", status_code=201,
             responses=refusals(401))
async def post_seek(body: SeekIn, request: Request, state: ServerOf) -> dict[str, Any]:
    """Seek a rated game (logged in), with a clock or none: matched at once with a
    fitting open seek (the same rule set, format and clock, each rating within the
    other's range; the answer then holds the game, your seat and its token), else it
    waits."""
    who = await logged_in(state, request, "a seek (a rated game)")
    rules = preset_named(body.rules)
    fmt = body.format.strip().lower()
    if fmt not in RATED_FORMATS or Format(fmt) not in rules.formats:
        allowed = [f.value for f in rules.formats if f.value in RATED_FORMATS]
        raise TableError(Refusal.UNREADABLE, f"a seek is for a rated game or partie: "
                         f"{rules.name} offers {', '.join(allowed) or 'neither'}")
    clock = None if body.clock is None else body.clock.spec().text()
    await run(start_rating, state.games, who, fmt)  # (a first rating: from the scale)
    out: dict[str, Any] = await run(seek, state, who, rules.name, fmt, body.range, clock)
    if out["matched"]:
        state.ai.kick(out["game"])
    return out


@router.post("/api/seeks/{seek_id}/accept", summary="Accept a seek", status_code=201,
             responses=refusals(401, 404, 409))
async def accept_seek(
    seek_id: ChallengeId, request: Request, state: ServerOf
) -> dict[str, Any]:
    """Accept this open seek (logged in, another account's, your rating within its
    range): the rated game is made at once, with the seek's clock; the answer holds
    the game, your seat and its token.  Your own seek, if any, is withdrawn."""
    who = await logged_in(state, request, "accepting a seek (a rated game)")

    def find() -> Any:
        with engine_of(state).connect() as conn:
            return conn.execute(sa.select(seeks_t).where(
                seeks_t.c.id == seek_id, seeks_t.c.taken.is_(False))).first()

    row = await run(find)
    if row is None:
        raise TableError(Refusal.NOT_FOUND, "this seek is no longer open: it was "
                         "matched or withdrawn")
    if row.account_id == who.id:
        raise TableError(Refusal.NOT_NOW, "this seek is yours: wait for someone to "
                         "accept it, or withdraw it")
    await run(start_rating, state.games, who, row.format)
    mine = (await run(ratings_of, engine_of(state), who.id)).get(row.format, NEW_PLAYER).rating
    if not _fits(mine, None, row.rating, row.span):
        raise TableError(Refusal.NOT_NOW, f"your rating ({mine:.0f}) is outside this "
                         f"seek's range ({row.rating:.0f} ± {row.span})")
    out: dict[str, Any] | None = await run(meet, state, who, row)
    if out is None:
        raise TableError(Refusal.NOT_FOUND, "this seek is no longer open: it was "
                         "matched or withdrawn")
    state.ai.kick(out["game"])
    return out


@router.get("/api/seeks/mine", summary="Your seek", responses=refusals(401))
async def my_seek(request: Request, state: ServerOf) -> dict[str, Any]:
    """Your seek: ``waiting`` (true while no one has matched it), and once matched the
    game (its seat token is in your games: ``/api/me/games/{id}/seat``)."""
    who = await logged_in(state, request, "a seek")

    def look() -> Any:
        with engine_of(state).connect() as conn:
            return conn.execute(sa.select(seeks_t)
                                .where(seeks_t.c.account_id == who.id)).first()

    row = await run(look)
    if row is None:
        return {"seek": None}
    return {"seek": {"rules": row.rules, "format": row.format, "range": row.span,
                     "clock": None if row.clock is None
                     else ClockSpec.from_text(row.clock).words(),
                     "waiting": not row.taken, "game": row.game_id}}


@router.delete("/api/seeks/mine", summary="Withdraw your seek", responses=refusals(401))
async def withdraw(request: Request, state: ServerOf) -> dict[str, Any]:
    """Withdraw your seek (a matched one is only forgotten: its game stands)."""
    who = await logged_in(state, request, "a seek")

    def drop() -> None:
        with engine_of(state).begin() as conn:
            conn.execute(seeks_t.delete().where(seeks_t.c.account_id == who.id))

    await run(drop)
    return {"seek": None}


# ------------------------------------------------------------------ games in play
def in_play(state: Server) -> list[dict[str, Any]]:
    from piquet.web.watch import WatchKeys

    with engine_of(state).connect() as conn:
        rows = conn.execute(
            sa.select(games_t.c.id, games_t.c.rules, games_t.c.format,
                      games_t.c.updated_at)
            .join(rated_games_t, rated_games_t.c.game_id == games_t.c.id)
            .where(games_t.c.finished.is_(False), rated_games_t.c.account_1.is_not(None))
            .order_by(games_t.c.updated_at.desc()).limit(MAX_LISTED)).all()
        ids = [r.id for r in rows]
        names: dict[str, list[str]] = {}
        if ids:
            for s in conn.execute(sa.select(seats_t.c.game_id, seats_t.c.seat,
                                            seats_t.c.name)
                                  .where(seats_t.c.game_id.in_(ids))
                                  .order_by(seats_t.c.seat)).all():
                names.setdefault(s.game_id, []).append(s.name)
    keys = WatchKeys(engine_of(state))
    out = []
    for r in rows:
        rules = preset_named(r.rules)
        key = keys.make(r.id)
        out.append({
            "id": r.id, "players": names.get(r.id, []), "rules": r.rules,
            "title": TITLES.get(r.rules, r.rules), "format": r.format,
            "format_label": format_label(rules, Format(r.format)),
            "updated": r.updated_at, "url": f"/watch/{r.id}#key={key}",
        })
    return out


@router.get("/api/games-in-play", summary="Games in play to watch", responses=refusals())
async def games_in_play(state: ServerOf) -> dict[str, Any]:
    """The rated games under way, newest move first, each with its spectator link
    (what both players have made public, never a hand).  Casual games are private."""
    return {"games": await run(in_play, state)}
