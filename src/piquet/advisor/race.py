"""The race of the candidate discards: each played out in the same sampled worlds, fast (the
solver's open-handed play-out) and exact (double-dummy) in the first worlds, and the
statistics that compare them (paired differences, the fast play-out's regression on the
exact, who stays in the race, the settling of a close call)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

import numpy as np

from piquet.advisor.deals import ELDER, YOUNGER, Setup, World, bits
from piquet.advisor.game import future_pool, game_chance
from piquet.analysis.drawtables import (
    PassResult,
)
from piquet.core.cards import CardSet
from piquet.core.declarations import COURTS, Claim, DeclClass, best_claim
from piquet.core.rules import Rules
from piquet.core.scoring import Tally
from piquet.fast.solver import RACE_BONUS, Mode, PlayState, Solver, objective_for
from piquet.players.common import book_discard
from piquet.players.search import declaration_tally

#: every DROP_EVERY worlds a leader clearly behind the best stops being valued exactly, and
#: a close call being settled is judged again (piquet.advisor.ranking says more)
DROP_EVERY: Final = 4
#: a close call is settled while the two are within SETTLE_Z paired standard errors
SETTLE_Z: Final = 2.0
#: the fewest worlds the leaders are valued exactly in, whatever it costs
MIN_EXACT: Final = 12
#: a leader stops being valued exactly when it is this many paired standard errors behind
#: the best, judged every DROP_EVERY worlds from MIN_EXACT on (the rest of the budget goes
#: to the close ones)
DROP_Z: Final = 2.5
#: rivals settled in one hand, each with its own ``settle_nodes``: the settling puts the
#: leaders on the footing of the two it valued, and another leader valued in fewer worlds
#: can come out first (in cotgrave hand 1926 of the measurement, with no budget left it
#: departed from the book's discard on 1.0 standard error of its 32 worlds, and was worse
#: than the book's by play)
SETTLE_RIVALS: Final = 2


# ------------------------------------------------------------------ the other's exchange
def _his_exchange(setup: Setup, world: World, k: int) -> tuple[int, int]:
    """(his discard, his hand after the exchange) by the book, when I lay out ``k``."""
    r = setup.rules
    if setup.role == ELDER:
        lo, hi = setup.younger_range(k)
        disc = book_discard(world.opp_dealt, lo, hi, r, role=YOUNGER)
        n = disc.bit_count()
        return disc, (world.opp_dealt & ~disc) | bits(world.stock[k : k + n])
    n_e = setup.elder_takes
    disc = book_discard(world.opp_dealt, n_e, n_e, r, role=ELDER)
    return disc, (world.opp_dealt & ~disc) | bits(world.stock[:n_e])


# ------------------------------------------------------------------ the declarations


class _Tallies:
    """The declarations' tally of final hands, as
    :func:`piquet.players.search.declaration_tally` counts it, for one rule set: each hand's
    best claims are found once (the other's hand after the exchange is the same for every
    candidate discard of a size, and a world is played out again when it is valued
    exactly), and the tally of a pair of hands once."""

    def __init__(self, rules: Rules) -> None:
        self.rules = rules
        self._best: dict[int, tuple[Claim | None, ...]] = {}
        self._tally: dict[tuple[int, int, bool, bool], Tally] = {}

    def best(self, hand: int) -> tuple[Claim | None, ...]:
        found = self._best.get(hand)
        if found is None:
            found = self._best[hand] = tuple(best_claim(hand, c, self.rules) for c in DeclClass)
        return found

    def __call__(self, elder: int, younger: int, blanche: tuple[bool, bool]) -> Tally:
        key = (elder, younger, blanche[0], blanche[1])
        tally = self._tally.get(key)
        if tally is None:
            tally = self._tally[key] = self._count(elder, younger, blanche)
        return tally

    def _count(self, elder: int, younger: int, blanche: tuple[bool, bool]) -> Tally:
        return declaration_tally(elder, younger, self.rules, blanche=blanche,
                                 claims=(self.best(elder), self.best(younger)))


# ------------------------------------------------------------------ the play-out
@dataclass(slots=True)
class _Played:
    """One discard's values in each world: fast, and exact in the first worlds.

    ``base`` is the part of both that the play does not change (the declarations' net
    points, known exactly in every world; empty, or 0 in every world, when the value is
    the chance of the game, which is not a sum): the regression estimator corrects only
    the play by the fast play-out's slope, and takes the declarations' mean over every
    world as it is."""

    fast: list[float]
    net: list[float]
    decl: list[float]
    exact: list[float] = field(default_factory=list)
    base: list[float] = field(default_factory=list)

    def play_fast(self) -> list[float]:
        """The fast values less the base: the fast play-out's part, world by world."""
        if not self.base:
            return list(self.fast)
        return [x - b for x, b in zip(self.fast, self.base, strict=True)]

    def play_exact(self) -> list[float]:
        """The exact values less the base, in the worlds valued exactly."""
        if not self.base:
            return list(self.exact)
        return [x - b for x, b in zip(self.exact, self.base, strict=False)]

    def base_or_zero(self) -> list[float]:
        return list(self.base) if self.base else [0.0] * len(self.fast)


class _PlayOut:
    """Values discards of one hand in a fixed list of worlds (common random numbers)."""

    def __init__(self, setup: Setup, ws: list[World], score: tuple[int, int] | None) -> None:
        self.setup = setup
        self.worlds = ws
        self.score = score
        r = setup.rules
        self.start = (0, 0)
        self.target: int | None = None
        if score is not None:
            s = [0, 0]
            s[setup.role], s[1 - setup.role] = score
            self.start = (s[0], s[1])
            self.target = r.target if r.game_ends_mid_deal else None
        self.objective = objective_for(r, start=self.start, target=r.target if score else None)
        self.solver = Solver(r, self.objective)
        self._his: dict[tuple[int, int], tuple[int, int]] = {}
        self._tallies = _Tallies(r)
        self._play_points = 0.0
        if score is not None:
            pool = future_pool(r)
            self._play_points = sum(sum(p for _, p in t[-12:]) for t in pool) / max(len(pool), 1)

    def _state(self, w: int, discard: int) -> tuple[PlayState, tuple[int, int], int | None]:
        st, world = self.setup, self.worlds[w]
        k = discard.bit_count()
        key = (w, k if st.role == ELDER else -1)
        his = self._his.get(key)
        if his is None:
            his = self._his[key] = _his_exchange(st, world, k)
        take = 0 if st.role == ELDER else st.elder_takes
        mine = (st.hand & ~discard) | bits(world.stock[take : take + k])
        final = (mine, his[1]) if st.role == ELDER else (his[1], mine)
        dealt = (st.hand, world.opp_dealt) if st.role == ELDER else (world.opp_dealt, st.hand)
        blanche = (dealt[0] & COURTS == 0, dealt[1] & COURTS == 0)
        tally = self._tallies(final[0], final[1], blanche)
        reached = None
        if self.target is not None:
            for seat, a, b in _running(tally.events):
                if self.start[0] + a >= self.target or self.start[1] + b >= self.target:
                    reached = seat
                    break
        state = PlayState(
            hands=final, leader=ELDER, lead=None, won=(0, 0), totals=tally.totals, open=tally.open
        )
        return state, tally.totals, reached

    def run(self, discard: int, exact: int = 0, upto: int | None = None) -> _Played:
        """Play ``discard`` out in the first ``upto`` worlds (every one by default)."""
        out = _Played([], [], [])
        self.extend(discard, out, len(self.worlds) if upto is None else upto, exact)
        return out

    def extend(self, discard: int, out: _Played, upto: int, exact: int = 0) -> None:
        """Play ``discard`` out by the fast play-out in more worlds, up to ``upto``."""
        me = self.setup.role
        for w in range(len(out.fast), min(upto, len(self.worlds))):
            state, decl, reached = self._state(w, discard)
            est = self.solver.estimate(state) if reached is None else 0
            out.fast.append(self._score(w, decl, reached, est))
            out.net.append(self._net(decl, est))
            out.decl.append(float(decl[me] - decl[1 - me]))
            # the value is the declarations plus the play, in points (not with a score)
            out.base.append(out.decl[-1] if self.score is None else 0.0)
            if w < exact and w == len(out.exact):
                v = self.solver.value(state) if reached is None else 0
                assert v is not None
                out.exact.append(self._score(w, decl, reached, v))

    def refine(self, discard: int, played: _Played, exact: int) -> None:
        """Value the play exactly in the first ``exact`` worlds of a discard already run."""
        for w in range(len(played.exact), exact):
            state, decl, reached = self._state(w, discard)
            v = self.solver.value(state) if reached is None else 0
            assert v is not None
            played.exact.append(self._score(w, decl, reached, v))

    def _net(self, decl: tuple[int, int], play: int) -> float:
        if self.objective.mode is Mode.RACE and abs(play) > RACE_BONUS // 2:
            play -= RACE_BONUS if play > 0 else -RACE_BONUS
        v = decl[0] - decl[1] + play
        return float(v if self.setup.role == ELDER else -v)

    def _score(self, w: int, decl: tuple[int, int], reached: int | None, play: int) -> float:
        """This world's value: net points, or with a score the chance of the game."""
        if self.score is None:
            return self._net(decl, play)
        me = self.setup.role
        if self.objective.mode is Mode.RACE and reached is None and abs(play) > RACE_BONUS // 2:
            reached = ELDER if play > 0 else YOUNGER
        if reached is not None:
            return 1.0 if reached == me else 0.0
        half = self._play_points / 2
        e = self.start[0] + decl[0] + half + play / 2
        y = self.start[1] + decl[1] + half - play / 2
        mine, his = (e, y) if me == ELDER else (y, e)
        rng = random.Random(f"piquet-advise-race-{w}")
        return game_chance(round(mine), round(his), 1 - me, self.setup.rules, rng, races=8)


def _running(events: Sequence[Any]) -> list[tuple[int, int, int]]:
    """(role, elder's total, younger's total) after each event, in counting order."""
    a = b = 0
    out = []
    for ev in events:
        if ev.role == ELDER:
            a += ev.points
        else:
            b += ev.points
        out.append((ev.role, a, b))
    return out


def _mean(xs: Sequence[float]) -> float:
    return sum(xs) / len(xs) if xs else 0.0


def _stderr(xs: Sequence[float]) -> float:
    n = len(xs)
    if n < 2:
        return 0.0
    m = _mean(xs)
    return float(np.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n))


# ------------------------------------------------------------------ the advice
def _calibration(x_sim: list[float], y_sim: list[float]) -> tuple[float, float]:
    """(intercept, slope) mapping pass estimates onto the played scale (slope >= 0)."""
    mx, my = float(np.mean(x_sim)), float(np.mean(y_sim))
    if len(x_sim) >= 3 and max(x_sim) > min(x_sim):
        slope = max(float(np.polyfit(np.array(x_sim), np.array(y_sim), 1)[0]), 0.0)
        return my - slope * mx, slope
    return my - mx, 1.0


def _candidates(result: PassResult, setup: Setup, n: int) -> tuple[list[int], int | None]:
    """The discards to play out (the best by estimate, by size, by class, and the book's),
    and the book's discard (None if the rules' range does not hold it)."""
    value = result.value
    order = np.argsort(-value, kind="stable")
    picked: list[int] = []

    def take(i: int) -> None:
        d = result.discards[int(i)]
        if d not in picked:
            picked.append(d)

    for i in order[:n]:
        take(int(i))
    sizes = np.array([d.bit_count() for d in result.discards])
    for k in range(setup.lo, setup.hi + 1):
        idx = np.flatnonzero(sizes == k)
        if len(idx):
            take(int(idx[np.argmax(value[idx])]))
    for arr in (result.decl_value, result.play_value):
        take(int(np.argmax(arr)))
    book = book_discard(setup.hand, setup.lo, setup.hi, setup.rules, role=setup.role)
    if book not in result.discards:
        return picked, None
    if book not in picked:
        picked.append(book)
    return picked, book


def _beta(played: Sequence[_Played], n: int) -> float:
    """The slope of the exact play's value on the fast play-out's, from the differences
    between the discards valued exactly in the first ``n`` worlds (pooled, each world's
    mean over them taken off, clipped to 0..1; 1 when it cannot be measured).

    The fast play-out is a control variate for the exact value: the exact mean over the
    ``n`` worlds is corrected by ``beta`` times how far the fast mean over those worlds
    is from its mean over every world.  Measured, the fast play-out's differences
    between two discards follow the exact ones only about half (slopes 0.1 to 0.8,
    correlation 0.2 to 0.7): with a slope of 1, as the control variate had before, the
    correction added noise, in some hands more than it took off."""
    if len(played) < 2 or n < 3:
        return 1.0
    f = np.array([p.play_fast()[:n] for p in played], dtype=float)
    e = np.array([p.play_exact()[:n] for p in played], dtype=float)
    f -= f.mean(axis=0)
    e -= e.mean(axis=0)
    f -= f.mean(axis=1, keepdims=True)
    e -= e.mean(axis=1, keepdims=True)
    den = float((f * f).sum())
    if den <= 1e-12:
        return 1.0
    return min(max(float((f * e).sum()) / den, 0.0), 1.0)


def _regressed(p: _Played, n: int, beta: float) -> float:
    """A discard's value: the declarations' mean over every world (``base``), plus the
    play's exact mean over the first ``n`` worlds corrected by the fast play-out over
    every world (the regression estimator, slope ``beta``)."""
    pf, pe = p.play_fast(), p.play_exact()
    return _mean(p.base_or_zero()) + _mean(pe[:n]) + beta * (_mean(pf) - _mean(pf[:n]))


def _regressed_se(p: _Played, n: int, beta: float) -> float:
    """The standard error of :func:`_regressed`: the exact worlds' residual from the fast
    play-out, and every world's own noise in what all of them measure."""
    pf, pe = p.play_fast(), p.play_exact()
    n = min(n, len(pe))
    resid = [pe[i] - beta * pf[i] for i in range(n)]
    whole = [b + beta * f for b, f in zip(p.base_or_zero(), pf, strict=True)]
    return float(np.sqrt(_stderr(resid) ** 2 + _stderr(whole) ** 2))


def _paired(a: _Played, b: _Played, n: int, beta: float = 1.0) -> tuple[float, float]:
    """(value of a minus value of b, its standard error), both valued exactly in the
    first ``n`` worlds: the regression estimator of their paired difference (the exact
    difference over the ``n`` worlds, corrected by ``beta`` times the fast play-out's
    difference over every world less over those ``n``); over fewer worlds if one of the
    two left the race before ``n``."""
    n = min(n, len(a.exact), len(b.exact))
    fd = [x - y for x, y in zip(a.play_fast(), b.play_fast(), strict=True)]
    ed = [x - y for x, y in zip(a.play_exact()[:n], b.play_exact()[:n], strict=True)]
    bd = [x - y for x, y in zip(a.base_or_zero(), b.base_or_zero(), strict=True)]
    resid = [x - beta * y for x, y in zip(ed, fd[:n], strict=True)]
    # the exact worlds' residual, and the worlds' own noise in what every world measures
    # (the declarations and the fast play-out's share)
    whole = [x + beta * y for x, y in zip(bd, fd, strict=True)]
    se = float(np.sqrt(_stderr(resid) ** 2 + _stderr(whole) ** 2))
    return _mean(bd) + _mean(ed) + beta * (_mean(fd) - _mean(fd[:n])), se


def _on_reference(p: _Played, ref: _Played, beta: float) -> float:
    """A leader's value: the reference leader's (the one valued in the most exact worlds)
    plus the leader's paired difference from it over the worlds both were valued in.

    A leader that left the race early is so judged on the same worlds as the others: its
    own mean over its few worlds would keep their luck, which the pairing takes off (in a
    rubicon hand the book's discard, out of the race after 20 worlds of 64, kept a level
    10 points above what the later worlds showed, and came out first)."""
    level = _regressed(ref, len(ref.exact), beta)
    if p is ref:
        return level
    return level + _paired(p, ref, len(p.exact), beta)[0]


def _fast_se(a: _Played, b: _Played) -> float:
    """The standard error of the fast play-out's paired difference between two discards
    (over the worlds both were played in)."""
    return _stderr([x - y for x, y in zip(a.fast, b.fast, strict=False)])


def _distinct_leaders(
    played: dict[int, _Played], fast: dict[int, float], n: int, book: int | None
) -> list[int]:
    """The ``n`` best by the fast play-out, one of each group that plays alike in every
    world (laying out the nine or the eight of a suit often does: valuing both exactly
    would spend the budget twice on one question), and the book's discard."""
    out: list[int] = []
    seen: set[tuple[float, ...]] = set()
    for d in sorted(played, key=lambda d: (-fast[d], d)):
        if len(out) >= n:
            break
        key = tuple(played[d].fast)
        if key in seen:
            continue
        seen.add(key)
        out.append(d)
    if book is not None and book not in out:
        out.append(book)
    return out


def _race(active: list[int], played: dict[int, _Played], n: int, z: float) -> list[int]:
    """The leaders still in the race after ``n`` exact worlds: those not behind the best
    (by value) by more than ``z`` standard errors of their paired difference.  At least
    the best two stay."""
    ps = [played[d] for d in active]
    beta = _beta(ps, n)
    vals = {d: _regressed(played[d], n, beta) for d in active}
    best = max(active, key=lambda d: (vals[d], -d))
    keep = []
    for d in active:
        diff, se = _paired(played[d], played[best], n, beta)
        if d == best or diff + z * se >= 0:
            keep.append(d)
    if len(keep) < 2:
        keep = sorted(active, key=lambda d: (-vals[d], d))[:2]
    return [d for d in active if d in keep]


def _settle(
    sim: _PlayOut, played: dict[int, _Played], rival: int, book: int, beta: float, nodes: int
) -> dict[str, Any]:
    """A close call between ``rival`` (the best by value) and the book's discard: both
    valued exactly in more worlds (the same worlds for both, up to every world the leaders
    were played in) while their paired difference is within SETTLE_Z standard errors
    (either way: the best by value is judged on the common footing, their difference
    over the worlds both were valued in) and the solver has searched fewer than ``nodes``
    more positions.  Returns the figures: ``rival``, ``worlds_before``, ``z_before``,
    and ``worlds`` and ``positions`` when it valued them in more worlds."""
    a, b = played[rival], played[book]
    before = min(len(a.exact), len(b.exact))
    diff, se = _paired(a, b, before, beta)
    z0 = diff / se if se > 0 else float("inf")
    info: dict[str, Any] = {
        "rival": str(CardSet(rival)),
        "worlds_before": before,
        "z_before": round(z0, 3) if z0 != float("inf") else None,
    }
    if not abs(z0) < SETTLE_Z or nodes <= 0:
        return info
    start = sim.solver.nodes
    n = max(len(a.exact), len(b.exact))
    upto = min(len(a.fast), len(b.fast))
    sim.refine(rival, a, n)
    sim.refine(book, b, n)
    while n < upto and sim.solver.nodes - start < nodes:
        n += 1
        sim.refine(rival, a, n)
        sim.refine(book, b, n)
        if n % DROP_EVERY == 0:
            diff, se = _paired(a, b, n, beta)
            if se > 0 and abs(diff / se) >= SETTLE_Z:
                break
    if n > before:
        info.update(worlds=n, positions=sim.solver.nodes - start)
    return info


# ------------------------------------------------------------------ the leaders
@dataclass(slots=True, eq=False)
class _Leaders:
    """The advice's private, mutable state while its leaders are valued exactly (steps 3 and
    4 of :mod:`piquet.advisor.ranking`): every candidate's play-out, its value and error,
    the leaders, the reference leader and the regression's slope."""

    sim: _PlayOut
    played: dict[int, _Played]
    fast: dict[int, float]
    value: dict[int, float]
    err: dict[int, float]
    leaders: list[int]
    chance: bool
    """Whether a value is the chance of winning the game (kept within 0 and 1)."""
    many: int
    """Worlds the leaders are played in by the fast play-out."""
    exact_nodes: int
    start_nodes: int = 0
    exact_n: int = 0
    beta: float = 1.0
    ref: int = -1

    def exact_value(self, d: int) -> float:
        v = _on_reference(self.played[d], self.played[self.ref], self.beta)
        return min(max(v, 0.0), 1.0) if self.chance else v

    def refine_one(self, d: int) -> None:
        p = self.played[d]
        self.sim.extend(d, p, self.many)
        self.sim.refine(d, p, self.exact_n)
        self.value[d] = self.exact_value(d)

    def race(self, exact_n: int, book: int | None) -> None:
        """The leaders valued world by world, until the solver's budget of positions is
        spent (never fewer than MIN_EXACT worlds): the positions searched, not the clock, so
        the same seed gives the same advice.  Every DROP_EVERY worlds a leader clearly
        behind the best (by DROP_Z paired standard errors) stops there, and the budget goes
        to the close ones."""
        sim, played = self.sim, self.played
        self.start_nodes = sim.solver.nodes
        active = list(self.leaders)
        reached = 0
        for w in range(exact_n):
            for d in active:
                sim.refine(d, played[d], w + 1)
            reached = w + 1
            if reached == 1 and len(active) > 2:
                # where the solver is dear (36 cards, many laid out), only as many leaders as
                # the budget can value in MIN_EXACT worlds, judged by the first world's cost:
                # the best by the fast play-out first, and the book's discard
                cost = max(sim.solver.nodes - self.start_nodes, 1) / len(active)
                fit = max(int(self.exact_nodes / (cost * MIN_EXACT)), 2)
                if fit < len(active):
                    keep = active[:fit]
                    if book is not None and book in active and book not in keep:
                        keep[-1] = book
                    for d in active:
                        if d not in keep:
                            played[d].exact.clear()
                    self.leaders, active = list(keep), keep
            if reached >= MIN_EXACT and sim.solver.nodes - self.start_nodes >= self.exact_nodes:
                break
            if reached >= MIN_EXACT and reached % DROP_EVERY == 0 and len(active) > 2:
                active = _race(active, played, reached, DROP_Z)
        self.exact_n = reached if self.leaders else exact_n
        for d in self.leaders:  # the leaders the budget kept, in more worlds
            sim.extend(d, played[d], self.many)
        if self.leaders:
            self.beta = _beta([played[d] for d in active], self.exact_n)

    def shift_others(self) -> None:
        """The fast play-out's error is much the same for every discard of a hand: the
        leaders' mean correction is applied to the others (a shared control variate)."""
        value, fast = self.value, self.fast
        shift = _mean([value[d] - fast[d] for d in self.leaders])
        for d in self.played:
            if d not in self.leaders:
                value[d] = fast[d] + shift
                if self.chance:
                    value[d] = min(max(value[d], 0.0), 1.0)

    def value_late(self) -> None:
        """One valued only by the fast play-out may still come out first: it is valued
        exactly, and so, while the budget lasts (twice the leaders'), is one close behind
        the best (within a paired standard error of the fast play-out)."""
        value, played, leaders = self.value, self.played, self.leaders
        for _ in range(len(played)):
            best = max(leaders, key=lambda d: (value[d], -d))
            spare = self.sim.solver.nodes - self.start_nodes < 2 * self.exact_nodes
            late = [
                d
                for d in played
                if d not in leaders
                and (
                    # above it in the ranking's order (a tie goes to the lower mask)
                    (value[d], -d) > (value[best], -best)
                    or (spare and value[d] >= value[best] - _fast_se(played[d], played[best]))
                )
            ]
            if not late:
                break
            top = max(late, key=lambda d: (value[d], -d))
            leaders.append(top)
            self.refine_one(top)

    def refoot(self) -> None:
        """The leaders on the footing of the one valued in the most exact worlds, the
        others shifted to them, and one that comes out first valued exactly."""
        played, fast = self.played, self.fast
        self.ref = max(self.leaders, key=lambda d: (len(played[d].exact), fast[d], -d))
        for d in self.leaders:
            self.value[d] = self.exact_value(d)
        self.shift_others()
        self.value_late()

    def settle(
        self, book: int | None, settle_nodes: int, total_nodes: int
    ) -> tuple[dict[str, Any], list[tuple[str, int]]]:
        """A close call between the best and the book's discard valued in more worlds (the
        margin's misses were such calls, decided by the noise of a few exact worlds), and
        again for another rival the settling puts first (SETTLE_RIVALS, a budget each).
        Returns the figures and each (rival, worlds) settled."""
        settled: dict[str, Any] = {}
        settle_start = self.sim.solver.nodes
        rivals: list[int] = []
        pairs: list[tuple[str, int]] = []
        value = self.value
        while book is not None and book in self.leaders and len(rivals) < SETTLE_RIVALS:
            # settled once more if the settling put another discard first (a budget each)
            best = max(self.leaders, key=lambda d: (value[d], -d))
            if best == book or best in rivals:
                break
            rivals.append(best)
            left = total_nodes - (self.sim.solver.nodes - self.start_nodes)
            got = _settle(self.sim, self.played, best, book, self.beta, min(settle_nodes, left))
            if "worlds" not in got:
                settled = settled or got
                break
            # the first call's figures (what the ranking had before), the last pair's worlds
            settled = {**(settled or got), "worlds": got["worlds"]}
            pairs.append((got["rival"], got["worlds"]))
            if len(pairs) > 1:
                settled["rivals"] = [r for r, _ in pairs]
            self.refoot()  # on the footing of the two valued in the most worlds
        if "worlds" in settled:
            settled["positions"] = self.sim.solver.nodes - settle_start
        return settled, pairs

    def leader_errors(self) -> None:
        """A leader's value is the reference's, plus its paired difference from it: its
        error is theirs (the fast play-out's alone understated it)."""
        if self.ref < 0:
            return
        played, ref, beta = self.played, self.ref, self.beta
        ref_se = _regressed_se(played[ref], len(played[ref].exact), beta)
        for d in self.leaders:
            paired_se = 0.0 if d == ref else _paired(
                played[d], played[ref], len(played[d].exact), beta)[1]
            self.err[d] = float(np.hypot(ref_se, paired_se))
