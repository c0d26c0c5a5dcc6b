"""Rated games between accounts: one Glicko-2 rating (:mod:`piquet.analysis.ratings`) per account
and format (a game, a partie); casual games are never rated.

A friend game made with ``rated: true`` by a logged-in player is rated once a logged-in
player (another account) takes its seat; its row in ``piquet_rated_games`` names the two
accounts.  When the game ends (played out, or resigned) :func:`settle` rates it, once:
in one transaction it marks the row settled (``UPDATE ... WHERE settled = false``: of two
processes settling the same game only one changes the row; the other finds it settled
and does nothing) and writes both new ratings, each against the other's rating before
the game (:func:`piquet.analysis.ratings.rate_game`).  The ratings are read under a row lock, so
two games of one account settled at once never lose an update.  A game ends committed
first (its last action is in the log); should the server die before the settlement,
the next look at the game's rating (``GET /api/games/{id}/rating``, which every table
makes at the end) settles it.
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter, Request
from sqlalchemy.exc import IntegrityError

from piquet.analysis.ratings import NEW_PLAYER, Rating, rate_game
from piquet.core.rules import Format
from piquet.table.errors import Refusal, TableError
from piquet.web.games import Entry, Games
from piquet.web.ids import Creds, GameId, token_of
from piquet.web.practice import refusals
from piquet.web.server import ServerOf

if TYPE_CHECKING:
    from piquet.web.accounts import Account

__all__ = [
    "RATED_FORMATS",
    "RatedGame",
    "rated_game",
    "rated_joiner",
    "router",
    "ratings_of",
    "ratings_t",
    "settle",
    "start_rated",
    "start_rating",
]

RATED_FORMATS: Final = frozenset({Format.GAME.value, Format.PARTIE.value})
"""The formats a rated game may have (a pool of three is not rated)."""

_meta: Final = sa.MetaData()
ratings_t: Final = sa.Table(
    "piquet_ratings",
    _meta,
    sa.Column("account_id", sa.String(32), primary_key=True),
    sa.Column("format", sa.String(16), primary_key=True),
    sa.Column("rating", sa.Float, nullable=False),
    sa.Column("deviation", sa.Float, nullable=False),
    sa.Column("volatility", sa.Float, nullable=False),
    sa.Column("games", sa.Integer, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
)
rated_games_t: Final = sa.Table(
    "piquet_rated_games",
    _meta,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("format", sa.String(16), nullable=False),
    sa.Column("account_0", sa.String(32), nullable=True),
    sa.Column("account_1", sa.String(32), nullable=True),
    sa.Column("settled", sa.Boolean, nullable=False),
    sa.Column("score_0", sa.Float, nullable=True),
    sa.Column("changes", sa.String(400), nullable=True),
    sa.Column("created_at", sa.Float, nullable=False),
)


@dataclass(frozen=True, slots=True, kw_only=True)
class RatedGame:
    """A rated game's row: its format, the account at each seat (None: not yet taken),
    whether it is settled, seat 0's score and the ratings before and after."""

    game_id: str
    format: str
    accounts: tuple[str | None, str | None]
    settled: bool
    score_0: float | None
    changes: list[dict[str, float]] | None


def start_rated(engine: sa.Engine, game_id: str, fmt: str, account_0: str) -> None:
    """Mark the new game ``game_id`` rated, with ``account_0`` at seat 0."""
    with engine.begin() as conn:
        conn.execute(rated_games_t.insert().values(
            game_id=game_id, format=fmt, account_0=account_0, account_1=None, settled=False,
            score_0=None, changes=None, created_at=time.time()))


def take_rated_seat(engine: sa.Engine, game_id: str, account_1: str) -> bool:
    """Put ``account_1`` at seat 1 of the rated game (once); whether it was set now."""
    with engine.begin() as conn:
        return bool(conn.execute(
            rated_games_t.update()
            .where(rated_games_t.c.game_id == game_id, rated_games_t.c.account_1.is_(None))
            .values(account_1=account_1)).rowcount == 1)


def rated_joiner(engine: sa.Engine, game_id: str, request: Request) -> Account | None:
    """Who may take the open seat of ``game_id`` (by its link or its lobby challenge):
    None for a casual game (anyone); for a rated game the logged-in account, which must
    be another than the host's.  Raises :class:`TableError` (401: not logged in; 409: the
    host's own account).  Blocks."""
    from piquet.web.accounts import ACCOUNT_COOKIE, account_of

    rated = rated_game(engine, game_id)
    if rated is None:
        return None
    account = account_of(engine, request.cookies.get(ACCOUNT_COOKIE))
    if account is None:
        raise TableError(Refusal.NO_TOKEN, "this is a rated game: log in (or make an "
                         "account) to take its seat")
    if account.id == rated.accounts[0]:
        raise TableError(Refusal.NOT_NOW, "this rated game is yours: send the link to your "
                         "opponent, who logs in to their own account")
    return account


def rated_game(engine: sa.Engine, game_id: str) -> RatedGame | None:
    """The rated game's row, or None for a casual game."""
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(rated_games_t).where(rated_games_t.c.game_id == game_id)).first()
    if row is None:
        return None
    return RatedGame(
        game_id=row.game_id, format=row.format, accounts=(row.account_0, row.account_1),
        settled=bool(row.settled), score_0=row.score_0,
        changes=json.loads(row.changes) if row.changes else None)


def ratings_of(engine: sa.Engine, account_id: str) -> dict[str, Rating]:
    """The account's rating in each format it has played rated (none: a newcomer)."""
    with engine.connect() as conn:
        rows = conn.execute(
            sa.select(ratings_t).where(ratings_t.c.account_id == account_id)).all()
    return {r.format: Rating(rating=r.rating, deviation=r.deviation, volatility=r.volatility)
            for r in rows}


def start_rating(games: Games, account: Account, fmt: str) -> Rating:
    """The account's rating in ``fmt``, its first set now if it has none: from the deals
    it has played against rated computers under its account, carried to the accounts'
    scale (:func:`piquet.levels.scale.first_rating`; none: 1500, where the scale puts Nell),
    kept as a rating of 0 games.  Two processes setting it at once keep one.  Blocks."""
    held = ratings_of(games.store.engine, account.id).get(fmt)
    if held is not None:
        return held
    from piquet.levels.scale import first_rating
    from piquet.web.evenmatch import results_of

    first = first_rating(results_of(games, account.identity), fmt)
    try:
        with games.store.engine.begin() as conn:
            conn.execute(ratings_t.insert().values(
                account_id=account.id, format=fmt, rating=first.rating,
                deviation=first.deviation, volatility=first.volatility, games=0,
                updated_at=time.time()))
    except IntegrityError:  # set meanwhile by another request: that one stands
        pass
    return ratings_of(games.store.engine, account.id).get(fmt, first)


def games_rated(engine: sa.Engine, account_id: str) -> dict[str, int]:
    """How many rated games the account has played in each format."""
    with engine.connect() as conn:
        rows = conn.execute(sa.select(ratings_t.c.format, ratings_t.c.games)
                            .where(ratings_t.c.account_id == account_id)).all()
    return {r.format: r.games for r in rows}


def score_of_seat_0(entry: Entry) -> float | None:
    """Seat 0's score in a finished or resigned two-seat game: 1, 0.5 or 0; None for an
    aborted game (no result: not rated)."""
    state = entry.live.state
    if state.aborted is not None:
        return None
    if state.resigned is not None:
        return 0.0 if state.resigned == 0 else 1.0
    if state.timed_out is not None:
        return 0.0 if state.timed_out == 0 else 1.0
    winner = (entry.live.match.result() or {}).get("winner")
    return 0.5 if winner is None else (1.0 if winner == 0 else 0.0)


def settle(engine: sa.Engine, game_id: str, score_0: float | None) -> bool:
    """Rate the ended game ``game_id`` (seat 0 scored ``score_0``; None: aborted), once:
    whether this call rated it.  A casual game or one already settled is left as it is;
    an aborted one, or one whose second seat no account took, is marked settled,
    unrated."""
    for _attempt in range(3):
        try:
            return _settle_once(engine, game_id, score_0)
        except IntegrityError:  # a first rating of an account inserted meanwhile: again
            continue
    return False


def _settle_once(engine: sa.Engine, game_id: str, score_0: float | None) -> bool:
    with engine.begin() as conn:
        claimed = conn.execute(
            rated_games_t.update()
            .where(rated_games_t.c.game_id == game_id, rated_games_t.c.settled.is_(False))
            .values(settled=True, score_0=score_0)).rowcount
        if claimed != 1 or score_0 is None:
            return False
        row = conn.execute(sa.select(rated_games_t)
                           .where(rated_games_t.c.game_id == game_id)).one()
        if row.account_0 is None or row.account_1 is None or row.account_0 == row.account_1:
            return False
        accounts = (row.account_0, row.account_1)
        held = {
            r.account_id: r for r in conn.execute(
                sa.select(ratings_t)
                .where(ratings_t.c.account_id.in_(accounts), ratings_t.c.format == row.format)
                .with_for_update()).all()
        }
        before = [
            Rating(rating=held[a].rating, deviation=held[a].deviation,
                   volatility=held[a].volatility) if a in held else NEW_PLAYER
            for a in accounts
        ]
        after = rate_game(before[0], before[1], first_score=score_0)
        now = time.time()
        for account, new in zip(accounts, after, strict=True):
            values = {"rating": new.rating, "deviation": new.deviation,
                      "volatility": new.volatility, "updated_at": now}
            if account in held:
                conn.execute(ratings_t.update().where(
                    ratings_t.c.account_id == account, ratings_t.c.format == row.format)
                    .values(games=held[account].games + 1, **values))
            else:
                conn.execute(ratings_t.insert().values(
                    account_id=account, format=row.format, games=1, **values))
        changes = [{"before": round(b.rating, 2), "after": round(a.rating, 2),
                    "deviation": round(a.deviation, 2)} for b, a in zip(before, after,
                                                                          strict=True)]
        conn.execute(rated_games_t.update().where(rated_games_t.c.game_id == game_id)
                     .values(changes=json.dumps(changes)))
        return True


async def settle_if_over(games: Games, entry: Entry) -> None:
    """Settle ``entry``'s game if it is rated and over (a casual game: nothing)."""
    if not games.over(entry) or len(entry.row.seats) != 2:
        return
    await to_thread.run_sync(settle, games.store.engine, entry.row.id, score_of_seat_0(entry))


router = APIRouter(tags=["games"])
"""``GET /api/games/{id}/rating``: whether a game is rated, and how it moved ratings."""


async def run(fn: Callable[..., Any], *args: Any) -> Any:
    return await to_thread.run_sync(functools.partial(fn, *args))


@router.get("/api/games/{game_id}/rating", summary="Whether the game is rated",
            responses=refusals(401, 404))
async def rating(game_id: GameId, creds: Creds, state: ServerOf) -> dict[str, Any]:
    """For a seat of the game: ``rated`` (false: a casual game), the format, each
    seat's rating (before the game, and after it once it is over: ``changes``)."""
    entry, _seat = await run(state.games.authenticate, game_id, token_of(creds))
    engine = state.games.store.engine
    found: RatedGame | None = await run(rated_game, engine, game_id)
    if found is None:
        return {"rated": False}
    if state.games.over(entry) and not found.settled:
        await settle_if_over(state.games, entry)
        found = await run(rated_game, engine, game_id)
        if found is None:  # pragma: no cover - a rated row is never deleted
            raise TableError(Refusal.NOT_FOUND, "no such game")
    now: list[float | None] = []
    for account in found.accounts:
        if account is None:
            now.append(None)
        else:
            mine = (await run(ratings_of, engine, account)).get(found.format, NEW_PLAYER)
            now.append(round(mine.rating, 2))
    return {
        "rated": True,
        "format": found.format,
        "settled": found.settled,
        "ratings": now,
        "changes": found.changes,
    }
