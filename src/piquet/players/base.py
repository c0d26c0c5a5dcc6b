"""The player protocol and the registry of AI levels."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from piquet.actions import Action
from piquet.errors import PiquetError
from piquet.match import MatchView

__all__ = ["Player", "LEVELS", "register_level", "make_player"]


@runtime_checkable
class Player(Protocol):
    """Chooses an action from what one seat may see.

    ``choose`` is called only when ``view.to_act == view.player``; it returns
    one of ``view.legal_actions`` or, in the exchange, a ``Discard`` within
    ``view.deal.discard_range``.  A player is seeded at construction, so the
    same seed and the same views give the same choices.
    """

    name: str

    def choose(self, view: MatchView) -> Action: ...


#: level name -> factory(seed, think_ms) -> Player
LEVELS: dict[str, Callable[[int, int | None], Player]] = {}


def register_level(name: str, factory: Callable[[int, int | None], Player]) -> None:
    LEVELS[name] = factory


def make_player(level: str, *, seed: int = 0, think_ms: int | None = None) -> Player:
    """The AI player called ``level``; raises :class:`PiquetError` naming the levels."""
    factory = LEVELS.get(level.strip().lower())
    if factory is None:
        raise PiquetError(f"unknown player level {level!r}; the levels are: {', '.join(LEVELS)}")
    return factory(seed, think_ms)
