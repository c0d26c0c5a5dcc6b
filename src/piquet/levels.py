"""The computer's levels by name, in a few words: what an interface lists, with nothing
of the players themselves imported.

A web process lists and checks the levels from here and never imports the players (their
compiled search, numpy): the computer's moves are chosen in the job workers
(:mod:`piquet.jobs`).  :mod:`piquet.players` registers each of these names with its
player (``tests/test_jobs.py`` checks that the two agree).
"""

from __future__ import annotations

from typing import Final

__all__ = ["LEVEL_NAMES", "LEVEL_NOTES", "STRONGEST_FIRST", "WEAKEST_FIRST", "default_level"]

#: The levels in the order measured by ``piquet tournament`` and ``piquet ladder``
#: (docs/strength.md): ``book`` beats ``random`` by 29 to 51 points a deal, the
#: search levels beat ``book``; ``reference`` is the expert of 2025 (``club`` with more of
#: the game simulated), kept unchanged for measurement; ``expert`` adds beliefs about the
#: other's exchange and play (docs/players.md).
WEAKEST_FIRST: Final = ("random", "book", "club", "reference", "expert")

#: What each measured level is, in a few words, for a player choosing an opponent.
LEVEL_NOTES: dict[str, str] = {
    "random": "any legal card, at random (to learn the moves)",
    "book": "the rules of thumb of the period books",
    "club": "searches the play of the cards; exchanges by the book",
    "reference": "the expert of 2025, kept unchanged to measure against",
    "expert": "the strongest: also infers your likely cards from how you exchange and play",
}

LEVEL_NAMES: Final = WEAKEST_FIRST
"""The levels an interface offers, weakest first (those :mod:`piquet.players` registers)."""

STRONGEST_FIRST: Final = ("expert", "book", "random")
"""The levels an interface offers first, strongest first: the first registered is the
default opponent of the terminal and the browser."""


def default_level(levels: tuple[str, ...] | list[str] = LEVEL_NAMES) -> str:
    """The strongest of ``levels`` among expert, book and random (the default opponent)."""
    for name in STRONGEST_FIRST:
        if name in levels:
            return name
    return next(iter(levels))
