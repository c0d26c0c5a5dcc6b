"""Who sits at a table: roles, players and seats are three things.

- A **role** (:class:`~piquet.core.roles.Role`: elder, younger) is a place inside one deal;
  it changes hands every deal.
- A **player** (:data:`~piquet.core.match.Player`, an index 0, 1 or 2) is a place in the
  match: whose score, whose name; the core's actions are taken by players.
- A **seat** (:class:`Seat`) is who holds a player's place at this table: a person
  (:attr:`SeatKind.PERSON`) or the computer at a level (:attr:`SeatKind.COMPUTER`), with a
  name.  The table maps seats to players one to one (seat ``n`` plays player ``n``).
"""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass

from piquet.core.errors import SetupError
from piquet.core.match import Player
from piquet.core.roles import Role

__all__ = ["Player", "Role", "Seat", "SeatKind", "computer", "person"]


class SeatKind(enum.Enum):
    """Who holds a seat; the value is the word stored (``human`` for a person)."""

    PERSON = "human"
    COMPUTER = "ai"


@dataclass(frozen=True, slots=True)
class Seat:
    """One seat: its player (the index in the match), who holds it, its name; ``level``
    the computer's level (None for a person)."""

    player: Player
    kind: SeatKind
    name: str
    level: str | None = None

    def __post_init__(self) -> None:
        if (self.kind is SeatKind.COMPUTER) != (self.level is not None):
            raise SetupError(f"seat {self.player}: the computer's seat names a level, and "
                             "only it")

    @property
    def computer(self) -> bool:
        return self.kind is SeatKind.COMPUTER


def person(player: int, name: str) -> Seat:
    return Seat(Player(player), SeatKind.PERSON, name)


def computer(player: int, level: str, name: str | None = None) -> Seat:
    return Seat(Player(player), SeatKind.COMPUTER, name or level.capitalize(), level)


def check_seats(seats: Sequence[Seat]) -> tuple[Seat, ...]:
    """The seats in player order; raises :class:`SetupError` unless seat ``n`` plays
    player ``n``."""
    out = tuple(seats)
    for n, s in enumerate(out):
        if s.player != n:
            raise SetupError(f"seat {n} plays player {s.player}: seat n plays player n")
    return out
