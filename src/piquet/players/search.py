"""``club`` and ``reference``: determinized search over worlds drawn from the player's view.

Both levels play the cards by *perfect-information Monte Carlo*: worlds are
drawn from what the player knows (:mod:`piquet.analysis.sampling`: the other's hand fits
the dialog, the voids shown and the exchange, each world weighted by how likely
the other's declarations were), every card is valued exactly in each world by
the double-dummy solver (:mod:`piquet.fast.solver`), and the card with the best
weighted mean wins.

``club`` exchanges as the book does (:mod:`piquet.players.book`) and declares
truthfully (its best holding, true answers).
``reference`` (the expert of 2025, kept unchanged as the fixed reference of measurement;
:mod:`piquet.players.expert` builds the ``expert`` level on it) also chooses its discard
(and the number it announces with carte
blanche) by simulated outcome: for each good candidate and each drawn world it
takes in the stock, lets the other exchange by the book, counts both hands'
declarations (repique included) and estimates the play open-handed.  With a
budget of 200 ms or more it chooses its declarations and answers by
simulation too, replaying whole drawn deals.  It is aware of the game score:
near the target, reaching it first is worth :data:`~piquet.fast.solver.RACE_BONUS`
points; on the last deal of a partie, the settlement (a rubiconed loser's
total counts for the winner) is what it maximizes.

The thinking budget (``think_ms``) is turned into a number of worlds and a
number of solver positions, never into a clock reading, so that the same seed
gives the same decisions.  ``threads=2`` (or ``PIQUET_AI_THREADS=2`` in the
environment) solves the worlds on two threads (the compiled solver releases the GIL) with the
same result.
"""

from __future__ import annotations

import os
import random
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Final

from piquet.analysis.sampling import SamplingError, World, sample_deals, sample_worlds
from piquet.core.actions import Action, AnnounceBlanche, Declare, Pass, Play
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.declarations import Claim, DeclClass, best_claim, counted
from piquet.core.errors import PiquetError
from piquet.core.facts import BlancheCalled, BlancheDiscards, Exchanged
from piquet.core.match import MatchView
from piquet.core.rules import PlayScoring, Rules
from piquet.core.scoring import Kind, Tally
from piquet.core.view import DealView, deal_view, played_by
from piquet.fast.solver import Mode, Objective, PlayState, Solver, play_state
from piquet.players.base import register_level
from piquet.players.book import book_action, book_lead
from piquet.players.common import (
    Situation,
    book_discard,
    discard_action,
    discard_candidates,
    my_turn,
    rules_of,
    situation,
    truthful_declaration,
    value_for,
)
from piquet.players.sinking import sink_options

__all__ = ["DEFAULT_THINK_MS", "SearchPlayer", "declaration_tally"]

#: The expert's default budget per decision (it stays under one second on two cores).
DEFAULT_THINK_MS: Final = 500
#: Solver positions per millisecond of budget (calibrated on this machine's class).
NODES_PER_MS: Final = 1500
_MIN_WORLDS: Final = 2
_MAX_WORLDS: Final = 40
_TT_BITS: Final = 18
#: Points per deal by which a simulated discard must beat the book's to be preferred.
_SWITCH_MARGIN: Final = 1.0


@dataclass(frozen=True, slots=True)
class _Budget:
    think_ms: int

    @property
    def nodes(self) -> int:
        return self.think_ms * NODES_PER_MS

    @property
    def exchange_worlds(self) -> int:
        return max(24, min(120, self.think_ms // 2))

    @property
    def exact_nodes(self) -> int:
        """Solver positions for the exact check of the best discards."""
        return min(2 * self.nodes, 300_000 + self.nodes // 2)

    @property
    def exchange_candidates(self) -> int:
        return 8 if self.think_ms < 300 else 10

    def exact_worlds(self, rules: Rules) -> int:
        """Worlds on which the best discards are compared by the exact solver."""
        leads_and_wins = rules.play_scoring is PlayScoring.LEADS_AND_WINS
        per = 80 if rules.deck_size == 36 else (20 if leads_and_wins else 40)
        return max(2, min(12, self.think_ms // per + 1))

    @property
    def declare_worlds(self) -> int:
        return max(4, min(16, self.think_ms // 40))


#: each level's key of its generator: the reference keeps the key it had in 2025, when it
#: was called expert, so that it plays move for move as it did then
_RNG_KEYS: Final = {"club": "club", "reference": "expert"}


class SearchPlayer:
    """A determinized-search player (``club`` or ``reference``; see the module docstring)."""

    def __init__(
        self,
        seed: int = 0,
        think_ms: int | None = None,
        *,
        level: str = "reference",
        threads: int | None = None,
        rules: Rules | None = None,
        name: str | None = None,
    ) -> None:
        if level not in _RNG_KEYS:
            raise PiquetError(f"a search player's level is club or reference, not {level!r}")
        self.name = name or level
        self.level = level
        self.seed = seed
        self.think_ms = DEFAULT_THINK_MS if think_ms is None else max(1, think_ms)
        self.threads = max(1, min(2, threads if threads is not None else _env_threads()))
        self.rules = rules
        self._decisions = 0
        self.match_aware = False
        """Value each deal's outcomes by what they are worth in the match (the expert's
        ``match_aware``; :mod:`piquet.players.matchvalue`)."""
        self._solvers: dict[tuple[Rules, Objective, int], Solver] = {}
        self._pool: ThreadPoolExecutor | None = None

    # ------------------------------------------------------------------ entry
    def choose(self, view: MatchView) -> Action:
        """The chosen action; raises IllegalActionError when it is not this player's turn."""
        deal = my_turn(view)
        rules = rules_of(view, self.rules)
        sit = situation(view, rules, match_aware=self.match_aware)
        self._decisions += 1
        rng = random.Random(f"{_RNG_KEYS[self.level]}:{self.seed}:{view.game_number}:"
                            f"{view.deal_number}:{len(deal.dialog)}:{len(deal.tricks)}:"
                            f"{deal.trick_lead}:{deal.phase.value}")
        budget = self._budget()
        phase = deal.phase
        searches = self.level == "reference"
        if phase is Phase.PLAY:
            return self._play(deal, rules, sit, rng, budget)
        if phase is Phase.EXCHANGE and searches:
            return discard_action(self._exchange(deal, rules, sit, rng, budget))
        if phase is Phase.BLANCHE and searches:
            return self._blanche(deal, rules, sit, rng, budget)
        if phase is Phase.DECLARE and searches and self._declares_by_search(budget):
            return self._declare(deal, rules, sit, rng, budget)
        if phase is Phase.DECLARE:
            return truthful_declaration(deal, rules)
        return book_action(deal, rules, lead=sit.lead)

    def _budget(self) -> _Budget:
        """What this player's ``think_ms`` buys (the expert calibrates it anew)."""
        return _Budget(self.think_ms)

    def _declares_by_search(self, budget: _Budget) -> bool:
        """Whether the declarations are chosen by simulation (from 200 ms), not truthfully."""
        return budget.think_ms >= 200

    # ------------------------------------------------------------------ worlds
    def _worlds(self, deal: DealView, rules: Rules, rng: random.Random, n: int) -> list[World]:
        """Up to ``n`` worlds drawn to fit the view (raises SamplingError if none can be)."""
        return sample_worlds(deal, rules, rng, n)

    def _play_worlds(self, deal: DealView, rules: Rules, budget: _Budget) -> int:
        """How many worlds a play decision draws."""
        return _worlds_for(deal, rules, budget, self.threads)

    # ------------------------------------------------------------------ the play
    def _solver(self, rules: Rules, objective: Objective, slot: int) -> Solver:
        key = (rules, objective, slot)
        s = self._solvers.get(key)
        if s is None:
            if len(self._solvers) > 8:
                self._solvers.clear()
            s = Solver(rules, objective, tt_bits=_TT_BITS)
            self._solvers[key] = s
        return s

    def _play(
        self, deal: DealView, rules: Rules, sit: Situation, rng: random.Random, budget: _Budget
    ) -> Play:
        legal = [a.card.index for a in deal.legal_actions if isinstance(a, Play)]
        if len(legal) == 1:
            return _play_action(legal[0])
        found = self._play_means(deal, rules, sit, rng, budget, legal)
        if found is None:
            return _play_action(legal[0])
        means, _, _ = found
        best = max(legal, key=lambda c: (round(means.get(c, -1e9), 6), -c))
        return _play_action(best)

    def _play_means(
        self,
        deal: DealView,
        rules: Rules,
        sit: Situation,
        rng: random.Random,
        budget: _Budget,
        legal: list[int],
    ) -> tuple[dict[int, float], list[PlayState], list[float]] | None:
        """Each card's weighted mean value over the drawn worlds (perfect-information Monte
        Carlo), with the worlds' positions and weights; None if no world could be drawn or
        valued."""
        try:
            worlds = self._worlds(deal, rules, rng, self._play_worlds(deal, rules, budget))
        except SamplingError:
            return None
        states = [self._state(deal, rules, w) for w in worlds]
        weights = [w.weight for w in worlds]
        n_threads = min(self.threads, 2)
        if n_threads > 1:
            if self._pool is None:
                self._pool = ThreadPoolExecutor(max_workers=2)
            parts = [
                self._pool.submit(self._solve_part, rules, sit.objective, states, weights, t, 2,
                                  budget)
                for t in range(2)
            ]
            results = [p.result() for p in parts]
        else:
            results = [self._solve_part(rules, sit.objective, states, weights, 0, 1, budget)]
        totals: dict[int, float] = {}
        weight_sum = 0.0
        for part_totals, part_weight in results:
            weight_sum += part_weight
            for c, v in part_totals.items():
                totals[c] = totals.get(c, 0.0) + v
        if not totals or weight_sum <= 0:
            return None
        return {c: v / weight_sum for c, v in totals.items()}, states, weights

    def _solve_part(
        self,
        rules: Rules,
        objective: Objective,
        states: list[PlayState],
        weights: list[float],
        part: int,
        parts: int,
        budget: _Budget,
    ) -> tuple[dict[int, float], float]:
        solver = self._solver(rules, objective, part)
        solver.reset()
        start = solver.nodes
        totals: dict[int, float] = {}
        weight_sum = 0.0
        done = 0
        for i in range(part, len(states), parts):
            state = states[i]
            used = solver.nodes - start
            # the first world may take twice the budget; later ones what is left
            limit = 2 * budget.nodes - used if done == 0 else budget.nodes - used
            if limit <= 0:
                break
            values = solver.move_values(state, nodes=limit)
            if solver.aborted:
                break
            w = weights[i]
            for c, v in values.items():
                totals[c] = totals.get(c, 0.0) + w * v
            weight_sum += w
            done += 1
        if done == 0:
            # no world could be solved within the budget: greedy playouts instead
            for i in range(part, len(states), parts):
                w = weights[i]
                for c, v in solver.estimate_moves(states[i]).items():
                    totals[c] = totals.get(c, 0.0) + w * v
                weight_sum += w
        return totals, weight_sum

    def _state(self, deal: DealView, rules: Rules, world: World) -> PlayState:
        role = deal.role
        mine = deal.hand.mask
        hands = (mine, world.opp_hand) if role == ELDER else (world.opp_hand, mine)
        if deal.trick_lead is not None:
            leader = 1 - role
        else:
            leader = role
        totals = deal.scores
        opened = tally_open(deal, rules)
        if (
            rules.younger_declares_after_lead
            and role == ELDER
            and not deal.tricks
            and deal.trick_lead is None
            and deal.deferred  # younger still declares after the lead
        ):
            full = (mine | played_by(deal, ELDER), world.opp_hand)
            tally = declaration_tally(full[0], full[1], rules)
            totals = tally.totals
            opened = tally.open
        return PlayState(
            hands=hands,
            leader=leader,
            lead=deal.trick_lead,
            won=deal.tricks_won,
            totals=totals,
            open=opened,
        )

    # ------------------------------------------------------------------ the exchange
    def _exchange(
        self, deal: DealView, rules: Rules, sit: Situation, rng: random.Random, budget: _Budget
    ) -> int:
        assert deal.discard_range is not None
        lo, hi = deal.discard_range
        return self._best_discard(deal, rules, sit, rng, budget, lo, hi)

    def _blanche(
        self, deal: DealView, rules: Rules, sit: Situation, rng: random.Random, budget: _Budget
    ) -> Action:
        sizes = [a.discards for a in deal.legal_actions if isinstance(a, AnnounceBlanche)]
        mask = self._best_discard(deal, rules, sit, rng, budget, min(sizes), max(sizes))
        return AnnounceBlanche(mask.bit_count())

    def _best_discard(
        self,
        deal: DealView,
        rules: Rules,
        sit: Situation,
        rng: random.Random,
        budget: _Budget,
        lo: int,
        hi: int,
    ) -> int:
        hand = deal.hand.mask
        role = deal.role
        book = book_discard(hand, lo, hi, rules, role=role, lead=sit.lead)
        cands = [book] + [
            c
            for c in discard_candidates(
                hand, lo, hi, rules, role=role, lead=sit.lead, limit=budget.exchange_candidates
            )
            if c != book
        ]
        if len(cands) == 1:
            return cands[0]
        try:
            worlds = self._worlds(deal, rules, rng, budget.exchange_worlds)
        except SamplingError:
            return cands[0]
        solver = self._solver(rules, sit.objective, 9)
        blanche = _blanche_flags(deal)
        scores = []
        for cand in cands:
            total = 0.0
            wsum = 0.0
            for w in worlds:
                v = _exchange_value(deal, rules, sit, w, cand, solver, blanche)
                if v is None:
                    continue
                total += w.weight * v
                wsum += w.weight
            scores.append(total / wsum if wsum else -1e9)
        # the best few again: the exact solver on the first worlds corrects the estimate
        # (a control variate: same worlds, exact minus estimate), within the budget
        top = sorted(range(len(cands)), key=lambda i: (-round(scores[i], 6), i))[:3]
        exact_worlds = worlds[: budget.exact_worlds(rules)]
        if len(top) > 1 and exact_worlds:
            exact = self._solver(rules, sit.objective, 7)
            exact.reset()
            start = exact.nodes
            corr = dict.fromkeys(top, 0.0)
            wsum = 0.0
            for w in exact_worlds:
                left = budget.exact_nodes - (exact.nodes - start)
                if left <= 0:
                    break
                diffs = {}
                for i in top:
                    e = _exchange_value(
                        deal, rules, sit, w, cands[i], exact, blanche, exact=True, nodes=left
                    )
                    g = _exchange_value(deal, rules, sit, w, cands[i], solver, blanche)
                    if e is None or g is None:
                        break
                    diffs[i] = e - g
                if len(diffs) < len(top):
                    break
                for i, dv in diffs.items():
                    corr[i] += w.weight * dv
                wsum += w.weight
            if wsum:
                for i in top:
                    scores[i] += corr[i] / wsum
            best_i = max(top, key=lambda i: (round(scores[i], 6), -i))
            # the book's discard stands unless a rival is clearly better (the estimate is noisy)
            if 0 in top and scores[best_i] - scores[0] < _SWITCH_MARGIN:
                return cands[0]
            return cands[best_i]
        best = max(range(len(cands)), key=lambda i: (round(scores[i], 6), -i))
        return cands[best]

    # ------------------------------------------------------------------ declarations
    def _declare(
        self, deal: DealView, rules: Rules, sit: Situation, rng: random.Random, budget: _Budget
    ) -> Action:
        legal = deal.legal_actions
        default = truthful_declaration(deal, rules)
        options = _declaration_options(deal, rules, default)
        if len(options) <= 1:
            return default
        try:
            deals = sample_deals(deal, rules, rng, budget.declare_worlds)
        except SamplingError:
            return default
        if not deals:
            return default
        solver = self._solver(rules, sit.objective, 8)
        best = default
        best_v = -1e18
        for a in options:
            if a not in legal:
                continue
            total = 0.0
            wsum = 0.0
            for d, w in deals:
                v = _continue_value(d.apply(a), rules, sit, solver, deal.role)
                total += w * v
                wsum += w
            mean = total / wsum if wsum else -1e18
            if mean > best_v + 1e-9 or (abs(mean - best_v) <= 1e-9 and a == default):
                best_v = mean
                best = a
        return best


def _env_threads() -> int:
    """``PIQUET_AI_THREADS`` (1 or 2): how many threads a search level uses by default.

    Raises :class:`PiquetError` for anything but a whole number.
    """
    raw = os.environ.get("PIQUET_AI_THREADS", "1").strip() or "1"
    try:
        return max(1, int(raw))
    except ValueError:
        raise PiquetError(f"PIQUET_AI_THREADS must be 1 or 2, not {raw!r}") from None


def _worlds_for(deal: DealView, rules: Rules, budget: _Budget, threads: int) -> int:
    """How many worlds the budget affords: solver positions per world fall about 2.5-fold
    with each trick played."""
    cards = deal.hand.mask.bit_count()
    if rules.deck_size == 36:
        base = 300_000.0
    elif rules.play_scoring is PlayScoring.LEADS_AND_WINS:
        base = 60_000.0
    else:
        base = 120_000.0
    per_world = max(50.0, base * 0.4 ** (12 - cards))
    n = int(budget.nodes * min(threads, 2) / per_world) + 1
    return max(_MIN_WORLDS + 1, min(_MAX_WORLDS, n))


def _play_action(card: int) -> Play:
    from piquet.core.actions import PLAY

    return PLAY[card]


# ------------------------------------------------------------------ helpers
def tally_open(deal: DealView, rules: Rules) -> bool:
    """Whether a pique or repique can still be won, from the counted events."""
    tally = Tally()
    for e in deal.events:
        if e.kind in (Kind.PIQUE, Kind.REPIQUE):
            continue
        tally = tally.add(e.role, e.kind, e.points, e.note, rules, (0, 0), None)
    return tally.open


def declaration_tally(
    elder: int,
    younger: int,
    rules: Rules,
    *,
    blanche: tuple[bool, bool] = (False, False),
    claims: tuple[Sequence[Claim | None], Sequence[Claim | None]] | None = None,
) -> Tally:
    """The tally after both declare all they hold (carte blanche first, repique judged).

    ``claims``: each hand's best claim of each class (in :class:`DeclClass`'s order), where
    the caller has them already (the advisor's play-outs, which meet a hand many times);
    else they are found here."""
    tally = Tally()
    counts = rules.blanche_counted(blanche[0], blanche[1])
    for role in (ELDER, YOUNGER):
        if counts[role]:
            tally = tally.add(role, Kind.BLANCHE, rules.blanche_value, "", rules, (0, 0), None)
    hands = (elder, younger)
    for i, (cls, kind) in enumerate(
            zip(DeclClass, (Kind.POINT, Kind.SEQUENCES, Kind.SETS), strict=True)):
        if claims is None:
            e, y = best_claim(elder, cls, rules), best_claim(younger, cls, rules)
        else:
            e, y = claims[0][i], claims[1][i]
        if e is None and y is None:
            continue
        if y is None or (e is not None and e.key > y.key):
            winner = ELDER
        elif e is None or y.key > e.key:
            winner = YOUNGER
        else:
            continue
        best = e if winner == ELDER else y
        assert best is not None
        _, pts = counted(hands[winner], best, rules)
        tally = tally.add(winner, kind, pts, "", rules, (0, 0), None)
    return tally


def _blanche_flags(deal: DealView) -> tuple[bool, bool]:
    flags = [False, False]
    for u in deal.dialog:
        if isinstance(u.fact, (BlancheCalled, BlancheDiscards)):
            flags[u.role] = True
    if deal.phase is Phase.BLANCHE:
        flags[deal.role] = True
    return flags[0], flags[1]


def _exchange_value(
    deal: DealView,
    rules: Rules,
    sit: Situation,
    world: World,
    discard: int,
    solver: Solver,
    blanche: tuple[bool, bool],
    *,
    exact: bool = False,
    nodes: int | None = None,
) -> float | None:
    """The discarding role's value of discarding ``discard`` in one world (None if impossible).

    The play is estimated open-handed (:meth:`Solver.estimate`), or solved
    exactly with ``exact``.
    """
    role = deal.role
    hand = deal.hand.mask
    stock = world.stock
    k = discard.bit_count()
    if role == ELDER:
        mine = (hand & ~discard) | _mask(stock[:k])
        opp_dealt = world.opp_dealt
        available = len(stock) - k
        y_hi = min(available, rules.younger_max) if rules.younger_max else available
        y_lo = min(rules.younger_min, y_hi)
        opp_keep = opp_dealt & ~world.opp_discards if world.opp_discards else opp_dealt
        if world.opp_discards:
            ky = world.opp_discards.bit_count()
            opp = opp_keep | _mask(stock[k : k + ky])
        else:
            y_disc = book_discard(opp_dealt, y_lo, y_hi, rules, role=YOUNGER)
            ky = y_disc.bit_count()
            opp = (opp_dealt & ~y_disc) | _mask(stock[k : k + ky])
        elder, younger = mine, opp
    else:
        ke = _elder_count(deal)
        if ke < 0:
            return None
        mine = (hand & ~discard) | _mask(stock[ke : ke + k])
        elder, younger = world.opp_hand, mine
    if elder.bit_count() != 12 or younger.bit_count() != 12:
        return None
    tally = declaration_tally(elder, younger, rules, blanche=blanche)
    state = PlayState(
        hands=(elder, younger),
        leader=ELDER,
        lead=None,
        won=(0, 0),
        totals=tally.totals,
        open=tally.open,
    )
    if exact:
        found = solver.value(state, nodes=nodes)
        if found is None:
            return None
        est = found
    else:
        est = solver.estimate(state)
    return value_for(sit.objective, role, tally.totals, est)


def _elder_count(deal: DealView) -> int:
    for u in deal.dialog:
        if isinstance(u.fact, Exchanged) and u.fact.role == ELDER:
            return u.fact.count
    return -1


def _mask(cards: tuple[int, ...] | list[int]) -> int:
    out = 0
    for c in cards:
        out |= 1 << c
    return out


def _declaration_options(deal: DealView, rules: Rules, default: Action) -> list[Action]:
    """The truthful choice, plus sinking: passing, or the best lesser claim of another size
    (:func:`~piquet.players.sinking.sink_options`)."""
    if isinstance(default, Declare):
        return [default, *sink_options(deal, default, sizes=1)]
    legal = deal.legal_actions
    declares = [a for a in legal if isinstance(a, Declare)]
    if isinstance(default, Pass) and declares:
        return [default, declares[0]]
    return [default, *(a for a in legal if a != default)]


def _continue_value(d: Deal, rules: Rules, sit: Situation, solver: Solver, role: int) -> float:
    """Finish the dialog truthfully (elder leading by the book if he must first), then
    estimate the play; this role's value."""
    for _ in range(60):
        if d.is_over:
            break
        if d.phase is Phase.PLAY and not (
            d.to_act == ELDER and not d.tricks and d.trick_lead is None and d.deferred
        ):
            break
        mover = d.to_act
        assert mover is not None
        view = deal_view(d, mover)
        if d.phase is Phase.PLAY:
            legal = [a.card.index for a in view.legal_actions if isinstance(a, Play)]
            card = book_lead(legal, d.hands[mover], d.hands[1 - mover], 0)
            d = d.apply(_play_action(card))
        else:
            d = d.apply(truthful_declaration(view, rules))
    if d.is_over:
        totals = d.scores
        if sit.objective.mode is Mode.DIFF:
            v = float(totals[0] - totals[1])
        else:
            v = float(solver.estimate(PlayState(hands=(0, 0), leader=ELDER, lead=None,
                                                won=(6, 6), totals=totals)))
        return v if role == ELDER else -v
    state = play_state(d)
    est = solver.estimate(state)
    return value_for(sit.objective, role, d.scores, est)


register_level("club", lambda seed, think_ms: SearchPlayer(seed, think_ms, level="club"))
#: The expert of 2025 (issue #16), kept unchanged as the fixed reference of measurement.
register_level("reference", lambda seed, think_ms: SearchPlayer(seed, think_ms))

