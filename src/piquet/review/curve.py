"""The curve over a game's deals: the deals' analyses (:mod:`piquet.review.deal`) joined into
one line across the whole game, the deals marked on it with each deal's score.

Alone, as :mod:`piquet.review.version` is: the web process draws the game's curve from the
stored analyses without importing the analysis itself (its solver is compiled code, run
only in the job workers).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from piquet.core.deal import ELDER, YOUNGER
from piquet.core.match import DealSummary

__all__ = ["game_curve"]


def game_curve(
    summaries: Sequence[DealSummary], analyses: Mapping[int, Mapping[str, Any]]
) -> dict[str, Any] | None:
    """The curve over the game's deals, JSON-ready: one line across every deal that is
    over, the deals marked on it, with each deal's score; None for a pool (its deals are
    between two of three, so no one margin runs through them).

    ``summaries`` are the match's settled deals (:attr:`Match.deals`, the first deal first;
    a deal's number is its place there, as the analysis numbers it), ``analyses`` deal
    number -> that deal's analysis (:func:`review_deal`'s body, or as a seat may see it)
    where there is one.  The margin is player 0's points less player 1's, the deals'
    points added up from the first deal (the bonuses at a game's end are not deals'
    points).  The line starts at 0; inside a deal with a curve it follows that curve
    (after each decision, the margin by the end of the deal with best play by both from
    there, every card known), shifted to the points scored before the deal and turned to
    player 0's side; each deal ends on the points it gave (a curve's last point, after the
    last card, is that score).  A deal without a curve (being analysed, ended as it was
    dealt, or with the other person's cards face down) has its end alone.  Each point
    says its ``deal`` and ``step`` (the decision it follows, None where there is none:
    the start, and a deal with no analysis); each deal its ``points`` by player, its
    ``change`` of the margin and where its points lie (``first``, ``last``).
    """
    if any(set(s.players) != {0, 1} for s in summaries):
        return None
    points: list[dict[str, Any]] = [
        {"deal": 0, "step": None, "player": None, "what": "before the first deal",
         "margin": 0}]
    deals: list[dict[str, Any]] = []
    totals = [0, 0]
    for number, s in enumerate(summaries, 1):
        elder, younger = s.players
        sign = 1 if elder == 0 else -1
        before = totals[0] - totals[1]
        totals[elder] += s.points[ELDER]
        totals[younger] += s.points[YOUNGER]
        after = totals[0] - totals[1]
        a = analyses.get(number) or {}
        first = len(points)
        players = a.get("players") or {}
        for p in a.get("curve") or []:
            points.append({
                "deal": number, "step": p["step"], "player": players.get(p["role"]),
                "what": p["what"], "margin": before + sign * p["margin"]})
        end = {"deal": number, "what": f"the end of deal {number}", "margin": after,
               "player": None,
               "step": a["start"] + a["steps"] - 1 if "start" in a and "steps" in a else None}
        if len(points) > first and points[-1]["margin"] == after:
            points[-1]["what"] += f" (the end of deal {number})"
        else:
            points.append(end)
        deals.append({
            "number": number, "game": s.game, "elder": elder, "younger": younger,
            "points": [s.points[ELDER] if elder == 0 else s.points[YOUNGER],
                       s.points[YOUNGER] if elder == 0 else s.points[ELDER]],
            "before": before, "after": after, "change": after - before,
            "totals": list(totals), "first": first, "last": len(points) - 1,
            "curve": bool(a.get("curve")),
        })
    return {"points": points, "deals": deals, "totals": totals}
