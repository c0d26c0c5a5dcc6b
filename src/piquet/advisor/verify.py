"""Verification by play: candidate discards played out over the same deals, compared pairwise.

:func:`verify` plays every candidate discard in the same ``deals`` worlds
(common random numbers: the same hand dealt to the other, the same stock in
the same order, for every candidate), each deal whole through the engine with
the strongest play both sides (:mod:`piquet.advisor.playout`).  The result of
each candidate is its mean net points a deal (my points minus his) and, with
a game score, the chance of reaching the game first; each candidate is
compared with the best by the *paired* difference over the same deals, with
a 95% interval (the mean difference ± 1.96 standard errors of the paired
differences).  A candidate whose interval holds 0 is within the noise of the
best.

The deals are split into chunks played by worker processes (``workers``,
default 2, or any :class:`concurrent.futures.Executor`); the results do not
depend on how they are split, only on ``seed``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, as_completed
from dataclasses import dataclass, field
from typing import Any, Final

from piquet.advisor.deals import Asked, Setup, World, check_score, worlds
from piquet.advisor.explain import Z95
from piquet.advisor.game import game_chance
from piquet.advisor.playout import DEFAULT_THINK_MS, Table, exchanger, play_out
from piquet.core.cards import CardSet
from piquet.core.errors import PiquetError
from piquet.core.rules import Rules
from piquet.util.workers import process_pool

__all__ = ["DEFAULT_DEALS", "Verification", "Verified", "paired", "verify"]

#: deals each candidate is played in by default
DEFAULT_DEALS: Final = 200
#: the normal quantile of a two-sided 95% interval

Progress = Callable[[int, int], None]


@dataclass(frozen=True, slots=True)
class Verified:
    """One candidate discard and what it made over the deals."""

    discard: CardSet
    label: str
    """Where it came from: ``advisor #1`` ..., or ``named``."""
    mean: float
    """Mean net points a deal (mine minus his)."""
    stderr: float
    diff: float
    """Mean paired difference from the best (0 for the best)."""
    low: float
    high: float
    """The 95% interval of ``diff``."""
    hand_points: float
    """Mean net points of carte blanche and the declarations alone."""
    chance: float | None = None
    """With a game score: the chance of reaching the game first."""
    chance_diff: float | None = None
    chance_low: float | None = None
    chance_high: float | None = None
    nets: tuple[float, ...] = field(default=(), repr=False, compare=False)
    """The net points of every deal, in the order of the deals (for other pairings)."""

    @property
    def within_noise(self) -> bool:
        """Not significantly worse than the best (its interval holds 0)."""
        if self.chance_high is not None:
            return self.chance_high >= 0.0
        return self.high >= 0.0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "discard": [str(c) for c in self.discard],
            "label": self.label,
            "mean": round(self.mean, 3),
            "stderr": round(self.stderr, 3),
            "diff": round(self.diff, 3),
            "interval": [round(self.low, 3), round(self.high, 3)],
            "declarations_net": round(self.hand_points, 3),
            "within_noise": self.within_noise,
        }
        if self.chance is not None:
            assert self.chance_low is not None and self.chance_high is not None
            out["chance"] = round(self.chance, 4)
            out["chance_diff"] = round(self.chance_diff or 0.0, 4)
            out["chance_interval"] = [round(self.chance_low, 4), round(self.chance_high, 4)]
        return out


@dataclass(frozen=True, slots=True)
class Verification(Asked):
    """Candidates played out over the same deals, best first."""

    deals: int
    candidates: tuple[Verified, ...]
    method: dict[str, Any] = field(default_factory=dict)

    @property
    def best(self) -> Verified:
        return self.candidates[0]

    def get(self, discard: CardSet | int) -> Verified:
        m = discard.mask if isinstance(discard, CardSet) else discard
        return next(c for c in self.candidates if c.discard.mask == m)

    def to_json(self) -> dict[str, Any]:
        return {
            **self.asked_json(),
            "deals": self.deals,
            "ranked_by": "chance of the game" if self.score is not None else "net points a deal",
            "candidates": [c.to_json() for c in self.candidates],
            "method": self.method,
        }

    def lines(self) -> list[str]:
        m = self.method
        out = [
            f"Verified by play{self.score_words}: {len(self.candidates)} discards in the same "
            f"{self.deals} deals ({m['play']}; the other exchanging as {m['opponent']}).",
        ]
        width = max(len(str(c.discard)) for c in self.candidates)
        for i, c in enumerate(self.candidates, 1):
            pts = f"{c.mean:+6.2f} ±{Z95 * c.stderr:4.2f} a deal"
            if i == 1:
                cmp = "best"
            else:
                cmp = f"{c.diff:+.2f} [{c.low:+.2f}, {c.high:+.2f}]"
                cmp += "  within the noise" if c.high >= 0 else "  worse"
            if c.chance is not None:
                game = f"game {c.chance:6.1%}"
                if i > 1:
                    assert c.chance_low is not None and c.chance_high is not None
                    cmp = (
                        f"{(c.chance_diff or 0.0):+.1%} [{c.chance_low:+.1%}, "
                        f"{c.chance_high:+.1%}]"
                        + ("  within the noise" if c.chance_high >= 0 else "  worse")
                        + f"; points {c.diff:+.2f}"
                    )
                pts = f"{game}  {pts}"
            out.append(f"{i:>2}. {c.discard!s:<{width}}  {pts}  {cmp}  ({c.label})")
        return out


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """Mean of a - b over the same deals and its 95% interval (normal approximation)."""
    n = len(a)
    d = [x - y for x, y in zip(a, b, strict=True)]
    mean = sum(d) / n
    if n < 2:
        return mean, mean, mean
    var = sum((x - mean) ** 2 for x in d) / (n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def _mean_err(xs: Sequence[float]) -> tuple[float, float]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, 0.0
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


# one result of a candidate in one world: (net, chance of the game, net of the declarations)
_Row = tuple[float, float, float]


def _chunk(
    setup: Setup,
    discards: tuple[int, ...],
    jobs: list[tuple[int, World]],
    opponent: str,
    think_ms: int,
    seed: int,
    score: tuple[int, int] | None,
) -> list[tuple[int, list[_Row]]]:
    """Play every discard in each (world id, world): a worker process's share."""
    rules = setup.rules
    table = Table(rules, exchanger(opponent, seed=seed, think_ms=think_ms))
    me = setup.role
    out = []
    for wid, world in jobs:
        rows: list[_Row] = []
        for disc in discards:
            res = play_out(setup, disc, world, table, world_id=wid, score=score)
            chance = 0.0
            if score is not None:
                if res.reached is not None:
                    chance = 1.0 if res.reached == me else 0.0
                else:
                    # the same games played on for every candidate (common random numbers)
                    rng = random.Random(f"piquet-verify-race-{seed}-{wid}")
                    chance = game_chance(
                        score[0] + res.totals[me],
                        score[1] + res.totals[1 - me],
                        1 - me,
                        rules,
                        rng,
                    )
            hand = res.hand_points[me] - res.hand_points[1 - me]
            rows.append((float(res.net(me)), chance, float(hand)))
        out.append((wid, rows))
    return out


def _checked(setup: Setup, discards: Sequence[CardSet | int], rules: Rules, deals: int,
             workers: int, opponent: str, score: tuple[int, int] | None) -> list[int]:
    """The discards to verify as masks, each once, in order; raises :class:`PiquetError`
    for a discard, count, opponent or score the rules do not allow."""
    masks: list[int] = []
    for d in discards:
        m = setup.check_discard(d)
        if m not in masks:
            masks.append(m)
    if not masks:
        raise PiquetError("nothing to verify: give at least one discard")
    if deals < 2:
        raise PiquetError(f"--deals must be at least 2 (to measure the noise), not {deals}")
    if workers < 1:
        raise PiquetError(f"workers must be at least 1, not {workers}")
    if opponent not in ("expert", "book"):
        raise PiquetError(f"the other exchanges as expert or book, not {opponent!r}")
    check_score(score, rules)
    return masks


def verify(
    hand: CardSet | int,
    discards: Sequence[CardSet | int],
    rules: Rules,
    *,
    role: int,
    deals: int = DEFAULT_DEALS,
    labels: Sequence[str] | None = None,
    score: tuple[int, int] | None = None,
    stock: int | None = None,
    seed: int = 0,
    opponent: str = "expert",
    think_ms: int = DEFAULT_THINK_MS,
    workers: int = 2,
    executor: Executor | None = None,
    progress: Progress | None = None,
) -> Verification:
    """Play ``discards`` of ``hand`` (dealt to ``role``) out over the same ``deals`` deals.

    ``score`` (mine, his) before the deal ranks by the chance of the game.
    ``opponent`` is how the other exchanges (``expert`` at ``think_ms``, or
    ``book``).  ``workers`` processes share the deals (1: in this process),
    unless an ``executor`` is given; ``progress(done, total)`` is called as
    deals are finished.  Raises :class:`PiquetError` for a hand, discard,
    score or count the rules do not allow.
    """
    setup = Setup.of(hand, rules, role, stock)
    masks = _checked(setup, discards, rules, deals, workers, opponent, score)
    names = list(labels) if labels is not None else [f"#{i + 1}" for i in range(len(masks))]
    rng = random.Random(f"piquet-verify-{seed}")
    ws = list(enumerate(worlds(setup.unseen, rules, deals, rng)))
    size = max(1, min(10, math.ceil(deals / (4 * workers))))
    chunks = [ws[i : i + size] for i in range(0, len(ws), size)]
    args = (setup, tuple(masks))
    results: dict[int, list[_Row]] = {}
    done = 0
    if executor is None and workers == 1:
        for part in chunks:
            for wid, rows in _chunk(*args, part, opponent, think_ms, seed, score):
                results[wid] = rows
            done += len(part)
            if progress is not None:
                progress(done, deals)
    else:
        pool = executor if executor is not None else process_pool(workers)
        try:
            futures = {
                pool.submit(_chunk, *args, part, opponent, think_ms, seed, score): len(part)
                for part in chunks
            }
            for fut in as_completed(futures):
                for wid, rows in fut.result():
                    results[wid] = rows
                done += futures[fut]
                if progress is not None:
                    progress(done, deals)
        finally:
            if executor is None:
                pool.shutdown()
    order = sorted(results)
    nets = [[results[w][i][0] for w in order] for i in range(len(masks))]
    chances = [[results[w][i][1] for w in order] for i in range(len(masks))]
    hands = [[results[w][i][2] for w in order] for i in range(len(masks))]
    key = chances if score is not None else nets
    means = [sum(x) / len(x) for x in key]
    best = max(range(len(masks)), key=lambda i: (round(means[i], 9), -i))
    out = []
    for i, m in enumerate(masks):
        mean, err = _mean_err(nets[i])
        diff, low, high = paired(nets[i], nets[best])
        c = cd = cl = ch = None
        if score is not None:
            c = sum(chances[i]) / deals
            cd, cl, ch = paired(chances[i], chances[best])
        out.append(
            Verified(
                CardSet(m),
                names[i],
                mean,
                err,
                diff,
                low,
                high,
                sum(hands[i]) / deals,
                c,
                cd,
                cl,
                ch,
                tuple(nets[i]),
            )
        )
    # the best first (the one the differences are taken from), then by value, ties in the
    # order the candidates were given
    rank = {v.discard.mask: i for i, v in enumerate(out)}
    out.sort(
        key=lambda v: (
            v.discard.mask != masks[best],
            -round(v.chance or 0.0, 9) if score is not None else 0.0,
            -round(v.mean, 9),
            rank[v.discard.mask],
        )
    )
    method = {
        "play": "double-dummy play through the engine, both sides",
        "opponent": "the expert" + f" ({think_ms} ms)" if opponent == "expert" else "the book",
        "declarations": "both declare all they hold and answer truly",
        "interval": "paired 95% interval of the difference from the best",
        "seed": seed,
        "deals": deals,
    }
    return Verification(rules.name, role, CardSet(setup.hand), score, deals, tuple(out), method)
