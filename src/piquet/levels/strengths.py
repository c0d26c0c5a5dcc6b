"""The levels' strengths on one scale, and a person's place on it (light: no player is
imported, so a web process may rate a person).

Every level and named opponent has a rating (:data:`SCALE`: Elo points on deals won,
``random`` at 0, measured by ``piquet ladder``; docs/strength.md, "Named opponents and one
scale").  A person's results against rated opponents (deals won, lost or tied) give their
rating on the same scale (:func:`estimate`: the most likely rating under the Elo model,
from a prior, with its standard error), and the opponent to offer is the one whose
rating is nearest (:func:`even_opponent`): a deal against it is about an even chance.
:func:`adaptive_levels` is what the adaptive opponent
(:class:`piquet.players.adaptive.AdaptivePlayer`) plays as in each deal of a match.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from piquet.core.errors import PiquetError
from piquet.core.match import MatchView

__all__ = [
    "ADAPTIVE_LADDER",
    "LEARNER_START",
    "PRIOR_SD",
    "SCALE",
    "DealResult",
    "Estimate",
    "adaptive_level",
    "adaptive_levels",
    "adaptive_start",
    "deal_results",
    "estimate",
    "even_opponent",
]

#: The ratings on one scale (Elo points on deals won, ``random`` = 0), rubicon, 100 ms,
#: from the ladder of docs/strength.md ("One scale"), rounded; ``club`` makes the
#: Colonel's choices (his style is the club's), so it has his rating.
SCALE: Final[dict[str, float]] = {
    "random": 0.0,
    "nell": 155.0,
    "toby": 297.0,
    "book": 353.0,
    "kitty": 356.0,
    "colonel": 432.0,
    "club": 432.0,
    "reference": 439.0,
    "expert": 445.0,
    "hoyle": 458.0,
}

#: The opponents the adaptive player chooses among, weakest first.
ADAPTIVE_LADDER: Final = ("random", "nell", "toby", "kitty", "colonel", "hoyle")

#: Where a person with no results starts: a newcomer, nearest Nell.
LEARNER_START: Final = 200.0

#: How uncertain a start is (Elo points, one standard deviation).
PRIOR_SD: Final = 250.0

_ELO: Final = 400.0 / math.log(10.0)


@dataclass(frozen=True, slots=True)
class DealResult:
    """One deal a person played against a rated opponent: ``score`` 1 won, 0.5 tied, 0
    lost (by the deal's points)."""

    opponent: str
    score: float


@dataclass(frozen=True, slots=True)
class Estimate:
    """A person's rating on :data:`SCALE` and its standard error (Elo points)."""

    rating: float
    sd: float
    deals: int


def estimate(results: Sequence[DealResult], *, start: float = LEARNER_START,
             prior_sd: float = PRIOR_SD) -> Estimate:
    """The most likely rating given ``results`` and a normal prior at ``start``.

    P(the person wins a deal against ``o``) = 1 / (1 + 10^((SCALE[o] - r) / 400)), ties
    counting half; Newton's method on the log posterior.  Raises :class:`PiquetError` for
    an opponent without a rating or a score other than 0, 0.5 or 1.
    """
    for res in results:
        if res.opponent not in SCALE:
            raise PiquetError(f"{res.opponent!r} has no rating; the rated opponents are: "
                              f"{', '.join(SCALE)}")
        if res.score not in (0.0, 0.5, 1.0):
            raise PiquetError(f"a deal's score is 1 (won), 0.5 (tied) or 0 (lost), not "
                              f"{res.score!r}")
    theta = start / _ELO
    mu, tau2 = start / _ELO, (prior_sd / _ELO) ** 2
    info = 1.0 / tau2
    for _ in range(50):
        grad = -(theta - mu) / tau2
        info = 1.0 / tau2
        for res in results:
            p = 1.0 / (1.0 + math.exp(SCALE[res.opponent] / _ELO - theta))
            grad += res.score - p
            info += p * (1.0 - p)
        step = grad / info
        theta += max(-2.0, min(2.0, step))
        if abs(step) < 1e-10:
            break
    return Estimate(theta * _ELO, math.sqrt(1.0 / info) * _ELO, len(results))


def even_opponent(rating: float, ladder: Sequence[str] = ADAPTIVE_LADDER) -> str:
    """The opponent of ``ladder`` whose rating is nearest ``rating`` (the weaker of two
    equally near): against it a deal is about an even chance."""
    return min(ladder, key=lambda o: (abs(SCALE[o] - rating), SCALE[o]))


def deal_results(view: MatchView, levels: Sequence[str]) -> list[DealResult]:
    """The finished deals of the match in ``view`` from the other in-game player's side,
    each against ``levels[k]`` (the level this seat played the ``k``-th deal as)."""
    me = view.player
    out: list[DealResult] = []
    for summary, level in zip(view.deals, levels, strict=False):
        if me not in summary.players:
            continue
        mine = summary.points[summary.players.index(me)]
        theirs = summary.points[1 - summary.players.index(me)]
        out.append(DealResult(level, 1.0 if theirs > mine else 0.5 if theirs == mine else 0.0))
    return out


def adaptive_levels(start: float, view: MatchView) -> list[str]:
    """The level the adaptive opponent starting at ``start``, seated as ``view.player``,
    played each deal of the match so far as, and the one it plays the current deal as:
    before each deal, the person's rating estimated again from the deals before it."""
    played: list[str] = [even_opponent(start)]
    for k in range(len(view.deals)):
        results = deal_results(view, played[: k + 1])
        played.append(even_opponent(estimate(results, start=start).rating))
    return played


_FAMILY: Final = re.compile(r"adaptive-(\d{1,4})")


def adaptive_level(start: float) -> str:
    """The level name of an adaptive opponent starting at ``start`` (``adaptive-480``)."""
    return f"adaptive-{round(max(0.0, min(3000.0, start)))}"


def adaptive_start(name: str) -> float | None:
    """The start of the adaptive level ``name`` (``adaptive``: a newcomer's; ``adaptive-R``:
    R from 0 to 3000), None for any other name."""
    key = name.strip().lower()
    if key == "adaptive":
        return LEARNER_START
    m = _FAMILY.fullmatch(key)
    if m is None or int(m.group(1)) > 3000:
        return None
    return float(m.group(1))
