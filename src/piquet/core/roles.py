"""The two seats of a deal, elder and younger, as a type of their own.

A :class:`Role` is a seat inside one deal; a player is a seat at the table
(:data:`Player`), mapped to a role deal by deal.  The names of the
roles are defined here once.
"""

from __future__ import annotations

import enum
from typing import Final, NewType

__all__ = ["ELDER", "OTHER", "ROLE_NAMES", "YOUNGER", "Player", "Role"]


class Role(enum.IntEnum):
    """A seat inside a deal: elder (the non-dealer, who exchanges, declares and leads
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
"""The other role, by role: ``OTHER[seat]``."""
ROLE_NAMES: Final = ("elder", "younger")
"""The roles' names, by role (the one definition)."""

Player = NewType("Player", int)
"""A player's index at the table (0, 1; 2 in a pool): not a :class:`~piquet.core.roles.Role`,
which is a seat inside one deal."""
