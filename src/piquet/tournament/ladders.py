"""The ladder: every pair of levels played, Bradley-Terry ratings fitted on an Elo scale
(``random`` at 0) with 95% intervals, and its figure."""

from __future__ import annotations

import math
import textwrap
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from piquet.core.errors import PiquetError
from piquet.core.rules import Format, Rules, get_rules
from piquet.tournament.matches import (
    FORMAT_WORDS,
    MatchTournamentResult,
    format_of,
    match_tournament,
)
from piquet.tournament.pairs import Progress, TournamentResult, tournament


# ------------------------------------------------------------------ the ladder
@dataclass(frozen=True, slots=True)
class LadderResult:
    """Ratings on an Elo scale (the first level, ``random``, at 0) with 95% intervals;
    an interval is None where the rating has no finite estimate (:func:`measurable`)."""

    rules: str
    levels: tuple[str, ...]
    ratings: tuple[float, ...]
    intervals: tuple[tuple[float, float] | None, ...]
    matches: tuple[TournamentResult, ...]
    format: Format | None = None
    """None: rated on first deals won (``matches``); else on whole matches of this format
    won, a drawn one half (``match_results``)."""
    match_results: tuple[MatchTournamentResult, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "format": None if self.format is None else self.format.value,
            "levels": list(self.levels),
            "ratings": {
                lv: None if ci is None else round(r, 1)
                for lv, r, ci in zip(self.levels, self.ratings, self.intervals, strict=True)
            },
            "ci95": {
                lv: None if ci is None else [round(ci[0], 1), round(ci[1], 1)]
                for lv, ci in zip(self.levels, self.intervals, strict=True)
            },
            "matches": [m.to_json() for m in self.matches]
            + [m.to_json() for m in self.match_results],
        }

    @property
    def anchor_scored(self) -> bool:
        """Whether the first level (the anchor, ``random``) won or tied any deal (or
        match)."""
        anchor = self.levels[0]
        if self.format is not None:
            return any(
                (m.a == anchor and m.won["a"] + m.won.get("drawn", 0) > 0)
                or (m.b == anchor and m.won["b"] + m.won.get("drawn", 0) > 0)
                for m in self.match_results
            )
        return any(
            (m.a == anchor and m.deals_won[0] + m.deals_won[2] > 0)
            or (m.b == anchor and m.deals_won[1] + m.deals_won[2] > 0)
            for m in self.matches
        )

    def why_unrated(self, i: int) -> str | None:
        """Why level ``i`` has no estimate, in words (None where it has one): the text,
        the JSON and the plot give this one reason."""
        if self.intervals[i] is not None:
            return None
        anchor = self.levels[0]
        what = "deal" if self.format is None else FORMAT_WORDS[self.format][0]
        if not self.anchor_scored:
            return f"{anchor} won no {what}"  # and the ratings are measured from it
        return f"a clean sweep between it and {anchor}'s side"


def fit_ratings(
    levels: Sequence[str], wins: dict[tuple[str, str], float], games: dict[tuple[str, str], float]
) -> tuple[list[float], list[tuple[float, float] | None]]:
    """Bradley-Terry by Newton's method; ``wins[(i, j)]`` is i's score against j (ties half)
    out of ``games[(i, j)]``.  The first level is anchored at 0; ratings are Elo points
    (400 log10 odds) and intervals come from the observed information."""
    import numpy as np

    n = len(levels)
    idx = {lv: i for i, lv in enumerate(levels)}
    theta = np.zeros(n)
    prior = 1e-3  # a whisper of regularisation keeps perfect records finite
    for _ in range(100):
        grad = -prior * theta
        hess = -prior * np.eye(n)
        for (i_name, j_name), g in games.items():
            if g <= 0:
                continue
            i, j = idx[i_name], idx[j_name]
            w = wins.get((i_name, j_name), 0.0)
            p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
            grad[i] += w - g * p
            grad[j] -= w - g * p
            h = g * p * (1 - p)
            hess[i, i] -= h
            hess[j, j] -= h
            hess[i, j] += h
            hess[j, i] += h
        free = list(range(1, n))
        if not free:
            break
        step = np.linalg.solve(hess[np.ix_(free, free)], grad[free])
        theta[free] -= step
        theta[0] = 0.0
        if float(np.max(np.abs(step))) < 1e-9:
            break
    free = list(range(1, n))
    se = np.zeros(n)
    if free:
        cov = np.linalg.inv(-hess[np.ix_(free, free)])
        se[free] = np.sqrt(np.clip(np.diag(cov), 0, None))
    scale = 400.0 / math.log(10.0)
    ratings = [float(t * scale) for t in theta]
    finite = measurable(levels, wins, games)
    intervals: list[tuple[float, float] | None] = [
        (float((t - 1.96 * s) * scale), float((t + 1.96 * s) * scale)) if ok else None
        for t, s, ok in zip(theta, se, finite, strict=True)
    ]
    return ratings, intervals


def on_glicko_scale(
    result: LadderResult, anchor: str, at: float = 1500.0,
) -> dict[str, tuple[float, tuple[float, float]] | None]:
    """A ladder's ratings moved onto the accounts' Glicko-2 scale: ``anchor`` placed at
    ``at`` (the rating a new account starts with), each level's rating and 95% interval
    measured from it (the fit again with ``anchor`` first, so that the intervals are of
    the difference from the anchor); None for a level with no finite estimate.

    Glicko's scale is Elo's (the expected score against an opponent known exactly is
    1 / (1 + 10^(-d/400)) for a difference d), so a Bradley-Terry rating in Elo points
    moves across by a shift alone.  Raises :class:`PiquetError` if ``anchor`` is not one
    of the ladder's levels."""
    if anchor not in result.levels:
        raise PiquetError(f"the anchor {anchor!r} is not among the ladder's levels "
                          f"({', '.join(result.levels)})")
    wins: dict[tuple[str, str], float] = {}
    games: dict[tuple[str, str], float] = {}
    for w in result.match_results:
        drawn = w.won.get("drawn", 0)
        wins[(w.a, w.b)] = w.won["a"] + drawn / 2
        wins[(w.b, w.a)] = w.won["b"] + drawn / 2
        games[(w.a, w.b)] = w.matches
    for m in result.matches:
        aw, bw, tied = m.deals_won
        wins[(m.a, m.b)] = aw + tied / 2
        wins[(m.b, m.a)] = bw + tied / 2
        games[(m.a, m.b)] = aw + bw + tied
    order = [anchor, *(lv for lv in result.levels if lv != anchor)]
    ratings, intervals = fit_ratings(order, wins, games)
    out: dict[str, tuple[float, tuple[float, float]] | None] = {}
    for lv, r, ci in zip(order, ratings, intervals, strict=True):
        out[lv] = None if ci is None else (at + r, (at + ci[0], at + ci[1]))
    return out


def measurable(
    levels: Sequence[str], wins: dict[tuple[str, str], float], games: dict[tuple[str, str], float]
) -> list[bool]:
    """Whether each level's rating against the first has a finite estimate.

    Bradley-Terry has one only when each level can be reached from the first, and the
    first from it, along "scored something against": a level that won (or lost) every
    deal it played against the rest is rated only by the fit's whisper of
    regularisation, and its Wald interval means nothing (a clean sweep of 6 deals gave
    -2683 to +5040)."""
    n = len(levels)
    idx = {lv: i for i, lv in enumerate(levels)}
    beat = [[i == j for j in range(n)] for i in range(n)]
    for (a, b), g in games.items():
        if g <= 0:
            continue
        i, j = idx[a], idx[b]
        if wins.get((a, b), 0.0) > 0:
            beat[i][j] = True
        if wins.get((b, a), 0.0) > 0:
            beat[j][i] = True
    for k in range(n):  # reachability (levels are few)
        for i in range(n):
            if beat[i][k]:
                for j in range(n):
                    if beat[k][j]:
                        beat[i][j] = True
    return [beat[0][i] and beat[i][0] for i in range(n)]


def ladder(
    rules: Rules | str,
    levels: Sequence[str],
    *,
    pairs: int = 50,
    seed: int = 0,
    think_ms: int | None = None,
    workers: int = 1,
    ray_address: str | None = None,
    progress: Progress | None = None,
    pairings: Sequence[tuple[str, str]] | None = None,
    format: Format | str | None = None,
) -> LadderResult:
    """Play every pair of ``levels`` (or only ``pairings``, each a pair of them) and fit
    ratings on deals won (ties count half), or with ``format`` on whole matches of that
    format won (:func:`match_tournament`, ``pairs`` mirrored pairs of matches a pairing; a
    drawn partie counts half).

    ``pairings`` places many levels on one scale for less than every pair: a chain of
    neighbours is enough for the fit, a level linked to ``random`` by no chain of played
    matches being left unrated.  Raises :class:`PiquetError` for a level named twice, a
    pairing of a level with itself, named twice or naming a level not in ``levels``.
    """
    r = rules if isinstance(rules, Rules) else get_rules(rules)
    fmt = None if format is None else format_of(r, format)
    if fmt is Format.POOL:
        raise PiquetError("a ladder rates two players a match: --format may be game or "
                          "partie, not pool (three players)")
    if len(levels) < 2:
        raise PiquetError("a ladder needs at least two levels")
    named: set[str] = set()
    for lv in levels:
        if lv in named:
            raise PiquetError(f"a ladder names each level once; {lv!r} is named twice")
        named.add(lv)
    if pairings is None:
        pairings = [(a, b) for i, a in enumerate(levels) for b in levels[i + 1:]]
    seen: set[frozenset[str]] = set()
    for a, b in pairings:
        for lv in (a, b):
            if lv not in named:
                raise PiquetError(f"the pairing {a}:{b} names {lv!r}, which is not among the "
                                  f"ladder's levels ({', '.join(levels)})")
        if a == b:
            raise PiquetError(f"the pairing {a}:{b} sets a level against itself")
        if frozenset((a, b)) in seen:
            raise PiquetError(f"the pairing {a}:{b} is named twice: name each pairing once")
        seen.add(frozenset((a, b)))
    matches: list[TournamentResult] = []
    whole: list[MatchTournamentResult] = []
    wins: dict[tuple[str, str], float] = {}
    games: dict[tuple[str, str], float] = {}
    for a, b in pairings:
        if fmt is not None:
            played = match_tournament(
                r, a, b, format=fmt, pairs=pairs, seed=seed, think_ms=think_ms,
                workers=workers, ray_address=ray_address, progress=progress,
            )
            whole.append(played)
            drawn = played.won.get("drawn", 0)
            wins[(a, b)] = played.won["a"] + drawn / 2
            wins[(b, a)] = played.won["b"] + drawn / 2
            games[(a, b)] = played.matches
            continue
        res = tournament(
            r, a, b, pairs=pairs, seed=seed, think_ms=think_ms, workers=workers,
            ray_address=ray_address, progress=progress,
        )
        matches.append(res)
        aw, bw, tied = res.deals_won
        wins[(a, b)] = aw + tied / 2
        wins[(b, a)] = bw + tied / 2
        games[(a, b)] = aw + bw + tied
    ratings, intervals = fit_ratings(levels, wins, games)
    return LadderResult(r.name, tuple(levels), tuple(ratings), tuple(intervals), tuple(matches),
                        fmt, tuple(whole))


def ladder_figure(result: LadderResult) -> Any:
    """The ratings with their 95% intervals as a matplotlib figure: only the ratings that
    are estimated are drawn; the others are named under the axis with the reason
    (:meth:`LadderResult.why_unrated`).  Needs piquet[plot] (matplotlib).

    Raises :class:`PiquetError` if matplotlib is missing.
    """
    try:
        # a Figure of its own, not pyplot's: no global state, no backend to choose
        from matplotlib.figure import Figure
    except ImportError:
        raise PiquetError("drawing the ladder needs matplotlib: install piquet[plot]") from None
    # a rating with no finite estimate is a number the fit's regularisation made up: it is
    # not drawn, but named below the axis with the reason
    shown = [i for i, ci in enumerate(result.intervals) if ci is not None]
    notes = [
        textwrap.fill(f"{result.levels[i]}: no estimate ({result.why_unrated(i)}); "
                      "play more deals", 90, subsequent_indent="    ")
        for i, ci in enumerate(result.intervals) if ci is None
    ]
    note_lines = sum(1 + n.count("\n") for n in notes) + 1 if notes else 0
    below = 0.17 * note_lines  # inches of notes under the axis
    height = 0.6 * len(shown) + 1.5 + below
    fig = Figure(figsize=(6, height))
    ax = fig.subplots()
    ys = list(range(len(shown)))
    lows = []
    highs = []
    for i in shown:
        ci = result.intervals[i]
        assert ci is not None
        lows.append(result.ratings[i] - ci[0])
        highs.append(ci[1] - result.ratings[i])
    ax.errorbar([result.ratings[i] for i in shown], ys, xerr=[lows, highs], fmt="o",
                capsize=4)
    ax.set_yticks(ys)
    ax.set_yticklabels([result.levels[i] for i in shown])
    ax.set_xlabel(f"rating (Elo scale, {result.levels[0]} = 0), 95% interval")
    ax.set_title(f"Piquet AI ladder: {result.rules}")
    ax.grid(axis="x", alpha=0.3)
    if notes:
        fig.text(0.02, 0.02 / height, "Not drawn:\n" + "\n".join(notes), fontsize="small",
                 va="bottom")
        fig.tight_layout(rect=(0, (below + 0.1) / height, 1, 1))
    else:
        fig.tight_layout()
    return fig


def plot_ladder(result: LadderResult, path: str) -> None:
    """Draw the ratings as a PNG (:func:`ladder_figure`; needs piquet[plot]: matplotlib).

    Raises :class:`PiquetError` if matplotlib is missing or the file cannot be written.
    """
    fig = ladder_figure(result)
    try:
        fig.savefig(path, dpi=120)
    except OSError as exc:
        raise PiquetError(f"cannot write {path!r}: {exc.strerror}") from None
