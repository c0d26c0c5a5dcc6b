"""The two seats of a deal, elder and younger, as a type of their own.

A :class:`Role` is a seat inside one deal; a player is a seat at the table
(:data:`piquet.core.match.Player`), mapped to a role deal by deal.  The names of the
roles are defined here once.
"""

from __future__ import annotations

import enum
from typing import Final

__all__ = ["ELDER", "OTHER", "ROLE_NAMES", "YOUNGER", "Role"]


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
