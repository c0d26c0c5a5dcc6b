"""The computer's levels and named opponents on the accounts' Glicko-2 scale, per format
(light: no player is imported, so a web process may use it).

People's rated games are rated with Glicko-2 (:mod:`piquet.analysis.ratings`), one rating per
format (a game, a partie), a new account starting at 1500.  This table places the
computer's levels on that scale, so that a rating means something: a ladder of whole
games (and of whole parties) among the levels, :data:`MEASURED`, fitted by Bradley-Terry
on matches won (a drawn partie half) and moved onto the accounts' scale with
:data:`SCALE_ANCHOR_LEVEL` at 1500 (``piquet ladder --format FORMAT`` prints the same;
``piquet ladder --scale`` prints this table).

**The anchor.**  1500, where a new account starts, is Nell, the beginner: the level
:data:`piquet.levels.strengths.LEARNER_START` already offers a newcomer ("nearest Nell").  A
person with no results is taken for a beginner, and a rating above 1500 says "plays better
than Nell".

**A first rating.**  An account's first rating in a format (:func:`first_rating`) is set
when it first seeks, offers or takes a rated game of that format: from the deals it has
played against rated computers (the even-match estimate of :mod:`piquet.levels.strengths`, on
the levels' deal scale), carried across to this scale through the levels themselves
(:func:`from_deal_scale`), with the newcomer's deviation (350: the deals are another
measure than whole games, so the start is a place, not a certainty); without such deals,
1500 (Nell).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from piquet.analysis.ratings import NEW_PLAYER, Rating
from piquet.core.errors import PiquetError
from piquet.levels.strengths import SCALE, DealResult, estimate

__all__ = [
    "ALIASES",
    "FORMATS",
    "MEASURED",
    "SCALE_ANCHOR",
    "SCALE_ANCHOR_LEVEL",
    "LevelRating",
    "first_rating",
    "from_deal_scale",
    "glicko_scale",
    "level_rating",
]

SCALE_ANCHOR_LEVEL: Final = "nell"
"""The level placed at 1500, where a new account starts."""

SCALE_ANCHOR: Final = ("1500, where a new account starts, is Nell (the beginner, whom a "
                       "newcomer is offered first)")

FORMATS: Final = ("game", "partie")

MEASURED: Final = (
    "piquet ladder --rules rubicon --format FORMAT --think 20 --seed 2026 --deals 25 "
    "--pairings random:nell nell:toby toby:kitty kitty:colonel colonel:hoyle toby:book "
    "book:colonel colonel:expert random:toby nell:book book:kitty expert:hoyle "
    "(FORMAT game, then partie; 50 matches a pairing), run a pairing at a time as piquet "
    "tournament --format FORMAT --players A B with the same options; 2026-12-06, 3.6 "
    "CPU-minutes for the games and 6.3 for the parties (docs/strength.md, \"The accounts' "
    "scale\")"
)
"""The command that measured :data:`_TABLE`, when, and what it cost."""

#: level -> (rating, 95% low, 95% high) on the accounts' scale, per format; None: no
#: finite rating (it won no match: below every other level).
_TABLE: Final[dict[str, dict[str, tuple[float, float, float] | None]]] = {
    "game": {
        "random": (1059, 882, 1236),
        "nell": (1500, 1500, 1500),
        "toby": (1926, 1780, 2071),
        "book": (2080, 1926, 2234),
        "kitty": (2077, 1918, 2237),
        "colonel": (2226, 2056, 2396),
        "expert": (2282, 2094, 2470),
        "hoyle": (2296, 2108, 2484),
    },
    "partie": {
        "random": (1007, 805, 1209),
        "nell": (1500, 1500, 1500),
        "toby": (1936, 1778, 2094),
        "book": (2171, 2000, 2342),
        "kitty": (2105, 1931, 2279),
        "colonel": (2262, 2078, 2446),
        "expert": (2358, 2157, 2558),
        "hoyle": (2381, 2180, 2583),
    },
}

ALIASES: Final = {"club": "colonel"}
"""Levels not played in the ladder that make another's choices (``club`` is the
Colonel's style: :data:`piquet.levels.strengths.SCALE` gives it his rating too)."""


@dataclass(frozen=True, slots=True)
class LevelRating:
    """A level's rating on the accounts' scale, its 95% interval, and the deviation that
    interval implies (half its width / 1.96), as Glicko-2 reads a rating's certainty."""

    rating: float
    ci95: tuple[float, float]

    @property
    def deviation(self) -> float:
        return max(1.0, (self.ci95[1] - self.ci95[0]) / (2 * 1.96))


def glicko_scale() -> dict[str, dict[str, LevelRating | None]]:
    """The table: format -> level -> its rating (None: no finite rating)."""
    return {fmt: {lv: None if v is None else LevelRating(v[0], (v[1], v[2]))
                  for lv, v in rows.items()} for fmt, rows in _TABLE.items()}


def level_rating(level: str, fmt: str) -> LevelRating | None:
    """``level``'s rating in ``fmt`` (an alias as the level it plays like); None for a
    level the ladder did not place, or placed with no finite rating.  Raises
    :class:`PiquetError` for a format other than game or partie."""
    if fmt not in _TABLE:
        raise PiquetError(f"the computer's ratings are for a game or a partie, not {fmt!r}")
    found = _TABLE[fmt].get(ALIASES.get(level, level))
    return None if found is None else LevelRating(found[0], (found[1], found[2]))


def from_deal_scale(rating: float, fmt: str) -> float:
    """A rating on the levels' deal scale (:data:`piquet.levels.strengths.SCALE`, random = 0)
    carried to the accounts' scale in ``fmt``: through the levels rated on both, by
    straight lines between neighbours, no further than the weakest and the strongest."""
    points = sorted(
        (SCALE[lv], r.rating) for lv in SCALE
        if lv not in ALIASES and (r := level_rating(lv, fmt)) is not None
    )
    if not points:
        return NEW_PLAYER.rating
    # the match ratings as a rising function of the deal ratings (a dip within the
    # intervals is flattened: a stronger level on one scale is never below on the other)
    xs: list[float] = []
    ys: list[float] = []
    for x, y in points:
        if xs and x == xs[-1]:
            ys[-1] = max(ys[-1], y)
            continue
        xs.append(x)
        ys.append(max(y, ys[-1]) if ys else y)
    if rating <= xs[0]:
        return ys[0]
    if rating >= xs[-1]:
        return ys[-1]
    for k in range(1, len(xs)):
        if rating <= xs[k]:
            t = (rating - xs[k - 1]) / (xs[k] - xs[k - 1])
            return ys[k - 1] + t * (ys[k] - ys[k - 1])
    return ys[-1]  # pragma: no cover - the loop returns


def first_rating(results: Sequence[DealResult], fmt: str) -> Rating:
    """A new account's first rating in ``fmt``: from its deals against rated computers
    (none: 1500, Nell), with a newcomer's deviation and volatility."""
    if not results:
        return NEW_PLAYER
    deal = estimate(results).rating
    placed = from_deal_scale(deal, fmt)
    if not math.isfinite(placed):  # pragma: no cover - the table's numbers are finite
        return NEW_PLAYER
    return Rating(rating=placed, deviation=NEW_PLAYER.deviation,
                  volatility=NEW_PLAYER.volatility)
