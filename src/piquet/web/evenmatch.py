"""``GET /api/me/opponent``: an opponent about as strong as this browser's player.

The browser's games (``/api/me/games``, kept under its identity cookie) are the person's
results: every finished deal they played against a computer with a rating
(:data:`piquet.levels.strengths.SCALE`; an adaptive opponent counts as the level it played
that deal as) is a deal won, tied or lost by the points.  From them
:func:`~piquet.levels.strengths.estimate` gives the person's rating, and the answer names
the adaptive level that starts there (``adaptive-480``), which the new-game form sends as
the opponent.  Nothing is stored beyond the games themselves; a browser with no games gets
a newcomer's start.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, Final

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter, Cookie
from pydantic import BaseModel, Field

from piquet.core.match import Match
from piquet.levels.strengths import (
    SCALE,
    DealResult,
    adaptive_level,
    adaptive_levels,
    adaptive_start,
    estimate,
    even_opponent,
)
from piquet.table.errors import TableError
from piquet.web.games import Entry, Games
from piquet.web.players import player_games_t
from piquet.web.refusals import hash_secret
from piquet.web.server import ServerOf

__all__ = ["EvenOut", "router", "results_in", "results_of"]

GAMES_READ: Final = 50
"""The newest games read for a person's results."""


class EvenOut(BaseModel):
    rating: int = Field(description="Your rating on the scale of the levels (random = 0).")
    sd: int = Field(description="Its standard error (Elo points).")
    deals: int = Field(description="The deals against rated computers it rests on.")
    opponent: str = Field(description="The named opponent nearest your rating.")
    level: str = Field(description="The adaptive opponent that starts at your rating: send "
                                   "it as a new game's opponent.")


def results_in(match: Match, seat: int, levels: dict[int, str]) -> list[DealResult]:
    """The deals of ``match`` that player ``seat`` played against a rated computer
    (``levels``: the computers' players and levels), from the person's side."""
    played: dict[int, list[str]] = {}
    for player, level in levels.items():
        if level in SCALE:
            played[player] = [level] * len(match.deals)
        else:
            start = adaptive_start(level)
            if start is not None:
                played[player] = adaptive_levels(start, match.view(player))
    out: list[DealResult] = []
    for k, summary in enumerate(match.deals):
        if seat not in summary.players:
            continue
        other = summary.players[1 - summary.players.index(seat)]
        if other not in played or k >= len(played[other]):
            continue
        mine = summary.points[summary.players.index(seat)]
        theirs = summary.points[summary.players.index(other)]
        out.append(DealResult(played[other][k],
                              1.0 if mine > theirs else 0.5 if mine == theirs else 0.0))
    return out


def results_of(games: Games, identity: str) -> list[DealResult]:
    """The person's deals against rated computers in the newest :data:`GAMES_READ` games
    kept under ``identity`` (a browser's or an account's).  Blocks."""
    with games.store.engine.connect() as conn:
        rows = list(conn.execute(
            sa.select(player_games_t.c.game_id, player_games_t.c.seat)
            .where(player_games_t.c.identity_hash == hash_secret(identity))
            .order_by(player_games_t.c.created_at.desc())
            .limit(GAMES_READ)
        ).all())
    out: list[DealResult] = []
    for game_id, seat in rows:
        try:
            entry: Entry = games.cached(game_id) or games.fresh(game_id)
        except TableError:
            continue  # the game is gone
        levels = {s.seat: s.level for s in entry.row.seats
                  if s.kind == "ai" and s.level is not None}
        out.extend(results_in(entry.live.match, seat, levels))
    return out


router = APIRouter()
"""``/api/me/opponent``."""


async def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return await to_thread.run_sync(functools.partial(fn, *args, **kwargs))


@router.get("/api/me/opponent", response_model=EvenOut, tags=["your games"],
            summary="An opponent about as strong as you")
async def even(state: ServerOf, piquet_id: str | None = Cookie(None)) -> dict[str, Any]:
    """Your rating from the deals of your games against rated computers, the named
    opponent nearest it, and the adaptive opponent that starts there (it then follows
    your results deal by deal)."""
    identity = piquet_id if piquet_id and 30 <= len(piquet_id) <= 100 else None
    results = await run(results_of, state.games, identity) if identity is not None else []
    est = estimate(results)
    return {"rating": round(est.rating), "sd": round(est.sd), "deals": est.deals,
            "opponent": even_opponent(est.rating), "level": adaptive_level(est.rating)}
