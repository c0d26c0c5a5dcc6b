"""Why a table refuses a request: one :class:`TableError` carrying a :class:`Refusal`.

Only an interface's edge says a refusal in its own terms (the web an HTTP status, the
terminal a line on the screen); the message says what was wrong and what is allowed.
"""

from __future__ import annotations

import enum

from piquet.core.errors import PiquetError

__all__ = ["Refusal", "TableError"]


class Refusal(enum.Enum):
    """Why a request is refused."""

    UNREADABLE = "unreadable"
    """The request cannot be read: an unknown name, a malformed action."""
    NO_TOKEN = "no token"
    """It needs a seat's (or a tally's) token and has none."""
    NOT_FOUND = "not found"
    """No such game, or not for this token (the two are not told apart)."""
    NOT_NOW = "not now"
    """Not at this point of the game: not your turn, the game is over or moved on."""
    AGAINST_RULES = "against the rules"
    """The rules forbid it (the message says what is allowed)."""
    GONE = "gone"
    """It was there and is no more: an invitation used or replaced."""
    UNAVAILABLE = "unavailable"
    """The table cannot do it now (its store fails)."""


class TableError(PiquetError):
    """A request the table refuses: ``kind`` says why, ``message`` in words."""

    def __init__(self, kind: Refusal, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message
