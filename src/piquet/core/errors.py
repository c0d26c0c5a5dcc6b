"""The exception tree: every error the engine raises for bad input.

``PiquetError`` derives from ``ValueError`` (as in python-chess), so callers
that only care about "bad value" can catch that.  Each message says what was
wrong and, where it helps, what is allowed.
"""

from __future__ import annotations

__all__ = [
    "IllegalActionError",
    "ParseError",
    "PiquetError",
    "RecordError",
    "RulesError",
    "SetupError",
]


class PiquetError(ValueError):
    """Root of every error raised by the ``piquet`` package for bad input."""


class ParseError(PiquetError):
    """Text that should name a card, a hand, a suit or an action does not."""


class RulesError(PiquetError):
    """An unknown rule set, an unknown knob, or a knob given a bad value."""


class IllegalActionError(PiquetError):
    """An action that the rules do not allow here; the state is unchanged."""


class RecordError(PiquetError):
    """A game record that is malformed or does not replay."""


class SetupError(PiquetError):
    """A match asked for with a bad option: a seed out of range, a format the rule set
    does not play, the wrong number of players, fewer than one game."""
