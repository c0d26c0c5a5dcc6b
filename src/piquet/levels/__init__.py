"""The computer's levels by name, in a few words: what an interface lists, with nothing
of the players themselves imported.

A web process lists and checks the levels from here and never imports the players (their
compiled search, numpy): the computer's moves are chosen in the job workers
(:mod:`piquet.jobs`).  :mod:`piquet.players` registers each of these names with its
player (``tests/test_jobs.py`` checks that the two agree).

The package holds what else a web process needs of the levels, as light: the level
``random`` itself (:mod:`~piquet.levels.quick`), the levels' strengths on one scale and a
person's place on it (:mod:`~piquet.levels.strengths`), and the levels on the accounts'
Glicko-2 scale (:mod:`~piquet.levels.scale`).
"""

from __future__ import annotations

from typing import Final

__all__ = [
    "LEVEL_LABELS",
    "LEVEL_NAMES",
    "LEVEL_NOTES",
    "OPPONENT_WORDS",
    "STRONGEST_FIRST",
    "WEAKEST_FIRST",
    "default_level",
    "level_named",
]

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

#: The named opponents (:mod:`piquet.players.opponents`), weakest first: the words a
#: newcomer reads, (title, strength, how it plays).
OPPONENT_WORDS: Final[dict[str, tuple[str, str, str]]] = {
    "nell": ("Nell", "a beginner",
             "often keeps poor cards, forgets to declare, and leaves her kings and queens "
             "unprotected"),
    "toby": ("Toby", "a cautious learner",
             "exchanges few cards, declares everything, and sometimes slips"),
    "kitty": ("Kitty", "a bold player",
              "exchanges every card she may, hides small holdings, and leads her longest "
              "suit"),
    "colonel": ("The Colonel", "a steady club player",
                "exchanges by the book, declares all he holds, thinks through the play"),
    "hoyle": ("Mr Hoyle", "an expert",
              "plays as the expert does, and hides a holding when that costs him little"),
}

for _name, (_title, _strength, _about) in OPPONENT_WORDS.items():
    LEVEL_NOTES[_name] = f"{_title}, {_strength}: {_about}"
LEVEL_NOTES["learned"] = ("plays its cards with a small neural network that taught itself by "
                          "playing against itself; exchanges and declares by the book")
LEVEL_NOTES["adaptive"] = ("Your match: plays each deal as the opponent nearest your "
                           "strength, judged from your results, for an even game")

#: How the browser's form names a level that is more than a level's name.
LEVEL_LABELS: Final[dict[str, str]] = {
    **{name: f"{title}, {strength}" for name, (title, strength, _) in OPPONENT_WORDS.items()},
    "adaptive": "An even match: adapts to you",
}

LEVEL_NAMES: Final = ("random", "nell", "toby", "book", "kitty", "learned", "colonel", "club",
                      "reference", "expert", "hoyle", "adaptive")
"""The levels an interface offers, weakest first, then ``adaptive`` (whose strength follows
the person's; those :mod:`piquet.players` registers)."""


def level_named(name: str) -> bool:
    """Whether ``name`` is a level a game may be given: one of :data:`LEVEL_NAMES`, or
    ``adaptive-R``, the adaptive opponent starting at a rating R from 0 to 3000."""
    key = name.strip().lower()
    if key in LEVEL_NAMES:
        return True
    head, dash, tail = key.partition("-")
    return head == "adaptive" and bool(dash) and tail.isdigit() and len(tail) <= 4 \
        and int(tail) <= 3000

STRONGEST_FIRST: Final = ("expert", "book", "random")
"""The levels an interface offers first, strongest first: the first registered is the
default opponent of the terminal and the browser."""


def default_level(levels: tuple[str, ...] | list[str] = LEVEL_NAMES) -> str:
    """The strongest of ``levels`` among expert, book and random (the default opponent)."""
    for name in STRONGEST_FIRST:
        if name in levels:
            return name
    return next(iter(levels))
