"""The player protocol and the registry of AI levels."""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, runtime_checkable

from piquet.core.actions import Action
from piquet.core.errors import PiquetError
from piquet.core.match import MatchView
from piquet.levels import LEVEL_NOTES, STRONGEST_FIRST, WEAKEST_FIRST

__all__ = [
    "LEVELS",
    "STRONGEST_FIRST",
    "default_level",
    "FAMILIES",
    "LEVEL_NOTES",
    "PLACES",
    "UNRANKED",
    "VARIANTS",
    "WEAKEST_FIRST",
    "Player",
    "make_player",
    "player_factory",
    "register_family",
    "register_level",
    "register_variant",
]


@runtime_checkable
class Player(Protocol):
    """Chooses an action from what one player may see.

    ``choose`` is called only when ``view.to_act == view.player``; it returns
    one of ``view.legal_actions`` or, in the exchange, a ``Discard`` within
    ``view.deal.discard_range``.  A player is seeded at construction, so the
    same seed and the same views give the same choices.
    """

    name: str

    def choose(self, view: MatchView) -> Action: ...


#: level name -> factory(seed, think_ms) -> Player, iterated weakest first
#: (the measured levels in :data:`WEAKEST_FIRST` order, then any others as registered).
LEVELS: dict[str, Callable[[int, int | None], Player]] = {}


#: Where a level registered with a ``place`` stands among :data:`WEAKEST_FIRST` (whose
#: places are 0, 1, 2, ...): ``nell`` at 0.5 comes between ``random`` and ``book``.
PLACES: dict[str, float] = {}


def _strength_key(item: tuple[int, str]) -> tuple[int, float, int]:
    arrival, name = item
    if name in WEAKEST_FIRST:
        return (0, WEAKEST_FIRST.index(name), 0)
    if name in PLACES:
        return (0, PLACES[name], arrival)
    return (1, 0, arrival)


def register_level(
    name: str, factory: Callable[[int, int | None], Player], *, place: float | None = None
) -> None:
    """Add (or replace) a level; the registry stays in weakest-first order, whatever the
    order in which the modules defining the levels were imported.  ``place`` puts it among
    the measured levels (:data:`PLACES`); without it, it comes after them."""
    LEVELS[name] = factory
    if place is not None:
        PLACES[name] = place
    order = sorted(enumerate(LEVELS), key=_strength_key)
    ordered = {n: LEVELS[n] for _, n in order}
    LEVELS.clear()
    LEVELS.update(ordered)


#: Unlisted players (the expert's parts alone, for measurement): ``make_player`` and the
#: tournaments accept their names; the ladder and the browser list only :data:`LEVELS`.
VARIANTS: dict[str, Callable[[int, int | None], Player]] = {}


def register_variant(name: str, factory: Callable[[int, int | None], Player]) -> None:
    """Add an unlisted player (see :data:`VARIANTS`)."""
    VARIANTS[name] = factory


#: Levels whose strength follows the person they play (``adaptive``): offered like any
#: level, but left out of the ladder's default list (they have no one rating).
UNRANKED: set[str] = set()


#: Families of parametrised names (``adaptive-480``): each takes a name and returns the
#: factory it names, or None.  ``make_player`` and the tournaments accept them; no list
#: shows them.
FAMILIES: list[Callable[[str], Callable[[int, int | None], Player] | None]] = []


def register_family(named: Callable[[str], Callable[[int, int | None], Player] | None]) -> None:
    """Add a family of parametrised names (see :data:`FAMILIES`)."""
    FAMILIES.append(named)


def player_factory(level: str) -> tuple[Callable[[int, int | None], Player], int | None]:
    """The factory of the player called ``level`` and the budget its name fixes, if any.

    ``LEVEL@MS`` (``expert@1000``) is ``LEVEL`` thinking ``MS`` milliseconds whatever the
    tournament's budget (for measuring what time buys).  Raises :class:`PiquetError` naming
    the levels for an unknown name, or for a budget that is not a positive whole number.
    """
    key = level.strip().lower()
    fixed: int | None = None
    if "@" in key:
        key, _, ms = key.partition("@")
        if not ms.isdigit() or int(ms) < 1:
            raise PiquetError(
                f"the budget in {level!r} must be a positive whole number of milliseconds "
                "(e.g. expert@1000)"
            )
        fixed = int(ms)
    factory = LEVELS.get(key) or VARIANTS.get(key)
    for named in FAMILIES:
        if factory is None:
            factory = named(key)
    if factory is None:
        raise PiquetError(f"unknown player level {level!r}; the levels are: {', '.join(LEVELS)}")
    return factory, fixed


def make_player(level: str, *, seed: int = 0, think_ms: int | None = None) -> Player:
    """The AI player called ``level`` (or ``LEVEL@MS``: see :func:`player_factory`);
    raises :class:`PiquetError` naming the levels."""
    factory, fixed = player_factory(level)
    return factory(seed, fixed if fixed is not None else think_ms)


def default_level() -> str:
    """The strongest registered level among expert, book and random (the default opponent)."""
    for name in STRONGEST_FIRST:
        if name in LEVELS:
            return name
    return next(iter(LEVELS))
