"""Play from here: a finished deal's position, replayed against the computer.

``POST /api/games/{id}/from/{step}`` (a seat's token of game ``id``) starts a new practice
game with the same rule set, format and seed as ``id``, whose log is ``id``'s first
``step`` actions: the same cards, dealt the same way, standing just where the decision
at ``step`` was taken (the analysis names decisions by their ``step``).  The caller takes
the seat of whoever decided there, the computer the other (the level that sat there, or
the expert), hints on; the new game's id and token come back, as when a game is created.

Nothing hidden comes out: the step's deal must be over (its cards are then public), and
while a game between people is still on, only a practice game's deals may be replayed
(the other people's cards of the game stay theirs until it ends).  A game of three
(a pool) is not replayed: its deals are between two of three.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Annotated, Any, Final

from anyio import to_thread
from fastapi import APIRouter
from fastapi import Path as PathParam

from piquet.table.errors import Refusal, TableError
from piquet.web.ids import Creds, GameId, token_of
from piquet.web.practice import refusals
from piquet.web.refusals import hash_secret
from piquet.web.server import ServerOf
from piquet.web.store import NewSeat

__all__ = ["REPLAY_OPPONENT", "router"]

REPLAY_OPPONENT: Final = "expert"
"""The computer of a replayed position where a person sat in the other seat."""


router = APIRouter()
"""``POST /api/games/{id}/from/{step}``."""


async def run(fn: Callable[..., Any], *args: Any) -> Any:
    return await to_thread.run_sync(fn, *args)


@router.post(
    "/api/games/{game_id}/from/{step}", status_code=201,
    responses=refusals(401, 404, 409), tags=["games"],
    summary="Play from here: a new practice game at a finished deal's position",
)
async def play_from_here(
    game_id: GameId,
    step: Annotated[int, PathParam(ge=0, le=100_000)],
    creds: Creds,
    state: ServerOf,
) -> dict[str, Any]:
    """A practice game against the computer with the same cards as game ``game_id``,
    standing before its action number ``step`` (0 is the first); you sit where the
    one who decided there sat.  409: the step is outside the game's finished deals,
    the game is a pool, or people are still playing it."""
    g = state.games
    token = token_of(creds)
    entry, _seat = await run(g.authenticate, game_id, token)
    row = entry.row
    m = entry.live.match
    history = m.history
    if len(row.seats) != 2:
        raise TableError(Refusal.NOT_NOW, "play from here is for a game of two; a pool's "
                         "deals are between two of its three players")
    if not 0 <= step < len(history):
        raise TableError(Refusal.NOT_NOW, f"there is no decision {step} in this game: "
                         f"its decisions are numbered 0 to {len(history) - 1}")
    over = g.over(entry)
    if not over and any(s.kind == "human" for s in row.seats if s.seat != _seat.seat):
        raise TableError(Refusal.NOT_NOW, "the other player's cards stay theirs until "
                         "the game is over: play from here once it has ended")

    def build() -> dict[str, Any]:
        # the position, replayed: the step's deal must be over (its cards public)
        before = g._new_match(row.rules, row.format, row.seed, row.games_to_play, 2)
        for player, action in history[:step]:
            before = before.apply(action, player)
        deals_before = len(before.deals)
        if len(m.deals) <= deals_before:
            raise TableError(Refusal.NOT_NOW, "that decision is in the deal still being "
                             "played: its cards are not yet public")
        decider = history[step][0]
        new_token = secrets.token_urlsafe(32)
        seats = []
        for s in row.seats:
            if s.seat == decider:
                seats.append(NewSeat("human", None, s.name, hash_secret(new_token), None))
            else:
                level = s.level if s.kind == "ai" and s.level else REPLAY_OPPONENT
                seats.append(NewSeat("ai", level, f"Computer ({level})", None, None))
        new_id = secrets.token_urlsafe(12)
        g.store.create_game(
            game_id=new_id, rules=row.rules, format=row.format, seed=row.seed,
            games_to_play=row.games_to_play, hints=True, seats=seats,
        )
        for idx, (player, action) in enumerate(history[:step]):
            ok = g.store.append(new_id, idx=idx, revision=0, player=player,
                                action=str(action), finished=False)
            if not ok:  # pragma: no cover - a new game's log is this process's alone
                raise TableError(Refusal.NOT_NOW, "the position could not be written")
        made = g.load(new_id)
        if g.ai_turn(made) is not None:  # pragma: no cover - the decider is to act
            state.ai.kick(new_id)
        return {"id": new_id, "token": new_token, "seat": decider, "step": step,
                "from": game_id, "rules": row.rules, "format": row.format}

    return await run(build)  # type: ignore[no-any-return]
