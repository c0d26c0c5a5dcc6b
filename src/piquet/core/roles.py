"""Who is who, in three words that are never mixed (issue 34):

- a **role** (:class:`Role`) is elder or younger inside one deal: the engine's facts, events
  and dialog lines name a role (``Event.role``, ``Utterance.role``, ``HeldCount.role``,
  ``Deal.hand(role)``, ``DealView.role``);
- a **player** (:data:`Player`) is one of the people of a match, by index (0, 1; 2 in a
  pool), mapped to a role deal by deal (``Match.role_of``, ``Match.player_of``);
- a **seat** is a chair at a table of the web or the table layer, held by a person or the
  computer (``piquet.table``; the web's seats and their tokens).

The wire JSON keeps the key ``"seat"`` for a dialog line's or an event's role (records and
the browser read it), with the role's name as its value.  The names of the roles are defined
here once.
"""

from __future__ import annotations

import enum
from typing import Final, NewType

__all__ = ["ELDER", "OTHER", "ROLE_NAMES", "YOUNGER", "Player", "Role"]


class Role(enum.IntEnum):
    """A role inside a deal: elder (the non-dealer, who exchanges, declares and leads
    first) or younger (the dealer).  Not a player: :class:`piquet.core.match.Match` maps
    players to roles deal by deal."""

    ELDER = 0
    YOUNGER = 1

    @property
    def label(self) -> str:
        return ROLE_NAMES[self]


ELDER: Final = Role.ELDER
YOUNGER: Final = Role.YOUNGER
OTHER: Final = (Role.YOUNGER, Role.ELDER)
"""The other role, by role: ``OTHER[role]``."""
ROLE_NAMES: Final = ("elder", "younger")
"""The roles' names, by role (the one definition)."""

Player = NewType("Player", int)
"""A player's index in a match (0, 1; 2 in a pool): not a :class:`Role` (elder or younger
inside one deal), nor a seat (a chair at a table of the table layer or the web)."""
