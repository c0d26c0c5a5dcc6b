"""The one action path of the browser's table, for HTTP and the WebSocket alike.

:func:`take` applies a seat's action through :meth:`Games.act_once
<piquet.web.games.Games.act_once>` (checked, committed first, then held), answers a game
that moved on with one 409 body (:func:`conflict_body`: the error and the seat's view as
it stands), and kicks the computer once when it is to move.  ``POST
/api/games/{id}/actions`` and the socket's ``{"action": ...}`` both call it; they differ
only in how they send the answer.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from anyio import to_thread

from piquet.table.errors import Refusal, TableError
from piquet.web.ai import AiRunner
from piquet.web.games import Entry, Games

__all__ = ["Outcome", "conflict_body", "take"]


@dataclass(frozen=True, slots=True)
class Outcome:
    """What became of an action: the game after it (``applied`` now, or found already
    recorded: a retry), or ``conflict``, the 409 body when the game had moved on."""

    entry: Entry | None
    applied: bool = False
    conflict: str | None = None


def conflict_body(message: str, seat_body: str) -> str:
    """The one 409 body: ``{"error": ..., "game": the seat's view as it stands}``."""
    return '{"error":' + json.dumps(message) + ',"game":' + seat_body + "}"


async def take(
    games: Games,
    ai: AiRunner,
    game_id: str,
    seat: int,
    text: str,
    *,
    expect: int | None,
    entry: Entry | None,
    known: bool,
    on_commit: Callable[[Entry], None] | None = None,
) -> Outcome:
    """Apply ``text`` by ``seat`` (``on_commit``: as :meth:`Games.act_once
    <piquet.web.games.Games.act_once>`'s).  Raises :class:`TableError` for a refusal other than
    "not now" (unreadable, against the rules) and :class:`~piquet.web.store.StoreError`
    when the database cannot write (nothing changed)."""
    try:
        after, applied = await games.act_once(
            game_id, seat, text, expect=expect, entry=entry, known=known,
            on_commit=on_commit,
        )
    except TableError as exc:
        if exc.kind is not Refusal.NOT_NOW:
            raise
        # the game is not as the actor saw it: send it as it stands
        now = games.cached(game_id)
        if now is None:
            now = await to_thread.run_sync(games.fresh, game_id)
        return Outcome(None, conflict=conflict_body(exc.message, games.seat_body(now, seat)))
    if games.computer_due(after):
        ai.kick(game_id, after)
    return Outcome(after, applied)
