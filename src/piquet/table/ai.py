"""The computer's turns at a table, with one seed formula.

The computer in seat ``p`` chooses its move from its view only, with a fresh player of its
level seeded by :func:`ai_seed` from the game's seed, the player and how many actions the
match holds.  So a computer's move depends on the position alone, never on what the
process did before: a game resumed from its record (the terminal's ``--resume``, a server
restarted, another process) gets the same moves as one played straight through, and any
process may drive a game's computer, they all choose the same action.  (This is the
formula the browser's games have always used; the terminal's older one, one player seeded
per seat for the whole match, gave a resumed game other moves.)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable

from piquet.core.actions import Action
from piquet.core.match import MAX_SEED, MatchView
from piquet.table.state import TableState

__all__ = ["Chooser", "ai_seed", "choose", "computer_action", "play_computers"]

Chooser = Callable[[str, int, MatchView], Action]
"""How a level chooses: ``(level, seed, view) -> action``."""


def ai_seed(seed: int, player: int, idx: int) -> int:
    """The seed of the computer in seat ``player`` choosing the match's action number
    ``idx`` (its history's length) of a game played with ``seed``.

    >>> ai_seed(3, 1, 0)
    3470287661098041204
    """
    digest = hashlib.sha256(f"piquet-ai:{seed}:{player}:{idx}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED


def choose(level: str, seed: int, view: MatchView, think_ms: int | None = None) -> Action:
    """The move of a fresh computer player of ``level`` seeded with ``seed``."""
    from piquet.players import make_player  # the players load the compiled code: lazily

    return make_player(level, seed=seed, think_ms=think_ms).choose(view)


def computer_action(state: TableState, chooser: Chooser = choose) -> tuple[int, Action] | None:
    """(player, action) the computer takes now, or None when no computer is to act."""
    seat = state.computer_turn()
    if seat is None:
        return None
    assert seat.level is not None
    m = state.match
    seed = ai_seed(m.seed, seat.player, len(m.history))
    return seat.player, chooser(seat.level, seed, m.view(seat.player))


def play_computers(state: TableState, chooser: Chooser = choose) -> TableState:
    """``state`` after every computer move due now (until a person is to act, or the end)."""
    while (move := computer_action(state, chooser)) is not None:
        player, action = move
        state = state.apply(player, str(action))
    return state
