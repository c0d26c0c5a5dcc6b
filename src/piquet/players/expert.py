"""``expert``: the reference search, with beliefs about how the other exchanges and plays.

It plays as :class:`~piquet.players.search.SearchPlayer` (the ``reference`` level: the
exchange by simulated outcome, declarations by simulation from 200 ms, the cards by the
exact solver over drawn worlds), with these changes, each measured in
``docs/strength.md``:

- **beliefs** (:mod:`piquet.players.beliefs`): every decision draws ``pool`` times the
  worlds it solves and keeps them by systematic resampling on a model of the other's
  exchange (which cards and how many he laid out) and of his play (following with the
  lowest card that wins, else the lowest of the suit), on top of the dialog's weights.
  The exchange is then evaluated in those worlds (when younger: elder's likely hands).
- **the exchange by play-outs** (:mod:`piquet.players.exchange`): every good discard is
  played out to the end of the deal by the compiled kernel (the book's policy for both)
  in 200 to 600 worlds drawn from the beliefs, the same worlds for every candidate; the
  book's discard stands unless another is :data:`SWITCH_MARGIN` better.  The reference's
  check by the exact solver on a few worlds is the variant ``expert-exact-check``.
- **the budget at the solver's measured speed** (:class:`ExpertBudget`,
  :func:`per_world_nodes`): :data:`EXPERT_NODES_PER_MS` positions a millisecond, worlds
  by their measured cost, up to ``think_ms / 2`` worlds a play decision (the reference
  stops at 40), so that a larger budget buys more worlds, not only deeper ones.
- **lookahead** (off by default; the variant ``expert-lookahead``): the best cards are
  compared by a search a trick deeper that avoids strategy fusion at the player's next
  card (:mod:`piquet.players.lookahead`).  Measured, it did not gain.

- **the play and declarations, measured and off by default** (variants):
  ``expert-consistent0.5`` / ``0.25`` weigh the worlds by whether the other's past cards
  were the exact solver's in them (:mod:`piquet.players.consistency`);
  ``expert-sink0.5`` / ``1`` / ``2`` sink a declaration where the points it risks, in drawn
  deals, are under that allowance (:mod:`piquet.players.sinking`);
  ``expert-first2`` ... ``16`` give the first trick's cards (the opening lead carries the
  largest part of the play's double-dummy regret) that many times the budget.  Sinking
  and consistency gained nothing measurable; ``expert-first4`` +0.18 a deal (+0.01 to
  +0.35, 500 ``rubicon`` pairs), too little for the budget it spends on the opening lead
  (``bench/sink_earnings.py``, ``bench/play_regret.py``; ``docs/strength.md``).

The budget stays a count (worlds, solver positions), so decisions repeat from a seed.
"""

from __future__ import annotations

import dataclasses
import math
import random
from dataclasses import dataclass
from typing import Any, Final

from piquet.analysis.sampling import SamplingError, World, sample_worlds
from piquet.core.actions import Action, Play
from piquet.core.errors import PiquetError
from piquet.core.rules import PlayScoring, Rules
from piquet.core.view import DealView
from piquet.fast.solver import Mode, Objective
from piquet.players.base import register_level, register_variant
from piquet.players.beliefs import EXCHANGE_BETA, BeliefModel
from piquet.players.common import Situation, truthful_declaration
from piquet.players.consistency import PlayConsistency
from piquet.players.exchange import (
    SOLVER_CANDIDATES,
    PlayoutWorld,
    all_playout_values,
    margin_choice,
    match_playout_values,
    playout_worlds,
    ranked,
    solver_rerank,
    solver_worlds,
    wide_candidates,
)
from piquet.players.lookahead import lookahead_values
from piquet.players.matchvalue import table_line
from piquet.players.search import (
    SearchPlayer,
    _blanche_flags,
    _Budget,
    _continue_value,
    _exchange_value,
    _play_action,
    _worlds_for,
)
from piquet.players.sinking import SINK_WORLDS, choose_sink, sink_options

__all__ = [
    "DEFAULT_POOL",
    "EXACT_CANDIDATES",
    "EXPERT_NODES_PER_MS",
    "LOOKAHEAD_CANDIDATES",
    "LOOKAHEAD_MIN_WORLDS",
    "SWITCH_MARGIN",
    "ExpertBudget",
    "ExpertPlayer",
    "exchange_candidates",
    "exchange_worlds",
    "per_world_nodes",
]

#: Worlds drawn per world solved, before resampling on the beliefs.
DEFAULT_POOL: Final = 4
#: The best cards by perfect-information Monte Carlo that the lookahead compares.
LOOKAHEAD_CANDIDATES: Final = 3
#: Worlds the lookahead must finish within its budget for its verdict to stand.
LOOKAHEAD_MIN_WORLDS: Final = 6
#: The best discards by play-outs that the exact solver checks.
EXACT_CANDIDATES: Final = 3
#: Points per deal by which a discard must beat the book's to be preferred (play-outs).
SWITCH_MARGIN: Final = 0.5


#: Solver positions per millisecond of budget for the expert: measured on the project's
#: machine in CPU time, 5,000 to 6,000 a millisecond in the first tricks (the reference
#: assumes 1,500); a little under, for the drawing of worlds.
EXPERT_NODES_PER_MS: Final = 4000


@dataclass(frozen=True, slots=True)
class ExpertBudget(_Budget):
    """The reference's budget with solver positions counted at the measured speed."""

    @property
    def nodes(self) -> int:
        return self.think_ms * EXPERT_NODES_PER_MS


def per_world_nodes(rules: Rules, cards: int) -> float:
    """Solver positions one world of the play costs with ``cards`` in hand (measured means
    at the first lead over a few deals: about 60,000 to 100,000 for the 32-card rule sets
    that count leads and wins, 200,000 for the 32-card tenth-card scoring, 150,000 for 36
    cards; about 0.4 times as many for each card fewer)."""
    if rules.deck_size == 36:
        base = 150_000.0
    elif rules.play_scoring is PlayScoring.LEADS_AND_WINS:
        base = 80_000.0
    else:
        base = 200_000.0
    return max(50.0, base * 0.4 ** (12 - cards))


#: The fewest worlds the exchange plays out, whatever the budget.
MIN_EXCHANGE_WORLDS: Final = 200


def exchange_worlds(budget: _Budget, per_ms: float = 2.0, cap: int = 600) -> int:
    """Worlds the exchange plays out: ``per_ms`` per millisecond of budget,
    :data:`MIN_EXCHANGE_WORLDS` to ``cap`` (``cap`` is at least that many)."""
    return max(MIN_EXCHANGE_WORLDS, min(cap, int(per_ms * budget.think_ms)))


def exchange_candidates(budget: _Budget) -> int:
    """Discards the exchange plays out: 24 to 40 (a tenth of the budget in milliseconds)."""
    return max(24, min(40, budget.think_ms // 10))


class ExpertPlayer(SearchPlayer):
    """The ``expert`` level (see the module docstring).

    ``beliefs`` weighs worlds by the exchange and play models; ``more_worlds`` lets a play
    decision solve up to ``think_ms / 4`` worlds; ``pool`` worlds are drawn per world kept.
    """

    def __init__(
        self,
        seed: int = 0,
        think_ms: int | None = None,
        *,
        beliefs: bool = True,
        play_beliefs: bool = True,
        more_worlds: bool = True,
        calibrated: bool = True,
        lookahead: bool = False,
        playout_exchange: bool = True,
        exact_check: bool = False,
        pool: int = DEFAULT_POOL,
        worlds_per_ms: float = 2.0,
        max_worlds: int = 600,
        switch_margin: float = SWITCH_MARGIN,
        sink_allowance: float | None = None,
        consistency: float | None = None,
        first_trick_boost: float = 1.0,
        solver_exchange: bool = False,
        solver_candidates: int = SOLVER_CANDIDATES,
        solver_worlds_per_ms: float = 0.4,
        exact_cards: int = 12,
        exchange_ms: int | None = None,
        belief_beta: float = EXCHANGE_BETA,
        threads: int | None = None,
        rules: Rules | None = None,
        name: str = "expert",
        match_aware: bool = False,
    ) -> None:
        if not (math.isfinite(worlds_per_ms) and worlds_per_ms > 0):
            raise PiquetError(f"worlds_per_ms must be a positive number, not {worlds_per_ms!r}")
        if max_worlds < MIN_EXCHANGE_WORLDS:
            raise PiquetError(
                f"max_worlds must be at least {MIN_EXCHANGE_WORLDS}, not {max_worlds!r}")
        if not (math.isfinite(switch_margin) and switch_margin >= 0):
            raise PiquetError(f"switch_margin must be a number of points >= 0, not "
                              f"{switch_margin!r}")
        if solver_candidates < 1 or not (math.isfinite(solver_worlds_per_ms)
                                         and solver_worlds_per_ms > 0):
            raise PiquetError("solver_candidates must be at least 1 and solver_worlds_per_ms "
                              "a positive number")
        if exchange_ms is not None and (isinstance(exchange_ms, bool)
                                        or not isinstance(exchange_ms, int) or exchange_ms < 1):
            raise PiquetError(f"exchange_ms must be a whole positive number of ms, not "
                              f"{exchange_ms!r}")
        if sink_allowance is not None and not (math.isfinite(sink_allowance)
                                               and sink_allowance >= 0):
            raise PiquetError(f"sink_allowance must be a number of points >= 0 (or None: no "
                              f"sinking), not {sink_allowance!r}")
        if consistency is not None and not (math.isfinite(consistency) and consistency > 0):
            raise PiquetError(f"consistency must be a positive number (its lambda; None: "
                              f"off), not {consistency!r}")
        if not (math.isfinite(first_trick_boost) and first_trick_boost > 0):
            raise PiquetError(f"first_trick_boost must be a positive number (1: none), not "
                              f"{first_trick_boost!r}")
        if not (math.isfinite(belief_beta) and belief_beta >= 0):
            raise PiquetError(f"belief_beta must be a number >= 0, not {belief_beta!r}")
        if not 0 <= exact_cards <= 12:
            raise PiquetError(f"exact_cards must be 0 to 12, not {exact_cards!r}")
        super().__init__(seed, think_ms, level="reference", threads=threads, rules=rules,
                         name=name)
        self.beliefs = beliefs
        self.play_beliefs = play_beliefs
        self.more_worlds = more_worlds
        self.calibrated = calibrated
        self.lookahead = lookahead
        self.playout_exchange = playout_exchange
        self.exact_check = exact_check
        self.pool = max(1, pool)
        self.worlds_per_ms = worlds_per_ms
        self.max_worlds = max_worlds
        self.switch_margin = switch_margin
        self.solver_exchange = solver_exchange
        self.solver_candidates = solver_candidates
        self.solver_worlds_per_ms = solver_worlds_per_ms
        self.exact_cards = exact_cards
        #: the exchange's own budget (ms), whatever the player's (None: the player's)
        self.exchange_ms = exchange_ms
        #: how sharply the beliefs discount a discard worse than the advice's
        self.belief_beta = belief_beta
        #: exchanges re-ranked by the solver, how many changed the play-outs' choice, and
        #: the first leads solved exactly / valued in all (for measurement)
        self.solver_stats = [0, 0, 0, 0]
        #: how many play decisions the lookahead decided, and changed (for measurement)
        self.lookahead_stats = [0, 0]
        #: declarations chosen by simulation, and how many sank (not the truthful choice)
        self.declaration_stats = [0, 0]
        #: points a sink is credited for what it hides (None: the reference's declarations)
        self.sink_allowance = sink_allowance
        #: each sink made: (role, the action, the truthful one, points it was expected to cost)
        self.sinks: list[tuple[int, str, str, float]] = []
        #: the play's inference by consistency with the solver: its LAMBDA (None: off)
        self.consistency = consistency
        #: (play decisions weighed by consistency, positions solved for it)
        self.consistency_stats = [0, 0]
        #: (his cards read, his cards that could have been read), summed over decisions
        self.consistency_depth = [0, 0]
        self._reading: tuple[Objective, _Budget] | None = None
        #: the budget of the first trick's cards, times the budget (the opening lead decides
        #: most of the play's double-dummy regret)
        self.first_trick_boost = first_trick_boost
        self.match_aware = match_aware

    def _declares_by_search(self, budget: _Budget) -> bool:
        return self.sink_allowance is not None or super()._declares_by_search(budget)

    def _declare(
        self, deal: DealView, rules: Rules, sit: Situation, rng: random.Random, budget: _Budget
    ) -> Action:
        if self.sink_allowance is None:
            action = super()._declare(deal, rules, sit, rng, budget)
        else:
            action = self._sink_or_declare(deal, rules, sit, rng, self.sink_allowance)
        self.declaration_stats[0] += 1
        self.declaration_stats[1] += action != truthful_declaration(deal, rules)
        return action

    def _sink_or_declare(
        self, deal: DealView, rules: Rules, sit: Situation, rng: random.Random, allowance: float
    ) -> Action:
        """Declare all, or sink where the points it risks are under ``allowance``
        (:mod:`piquet.players.sinking`)."""
        default = truthful_declaration(deal, rules)
        if not sink_options(deal, default):
            return default
        try:
            worlds = self._worlds(deal, rules, rng, SINK_WORLDS)
        except SamplingError:
            return default
        solver = self._solver(rules, sit.objective, 8)
        role = deal.role
        choice = choose_sink(
            deal, rules, default, worlds,
            lambda d: _continue_value(d, rules, sit, solver, role), allowance=allowance,
        )
        if choice.sank:
            assert choice.cost is not None
            self.sinks.append((deal.role, str(choice.action), str(default), choice.cost))
        return choice.action

    def _play(
        self, deal: DealView, rules: Rules, sit: Situation, rng: random.Random, budget: _Budget
    ) -> Play:
        legal = [a.card.index for a in deal.legal_actions if isinstance(a, Play)]
        if len(legal) == 1:
            return _play_action(legal[0])
        if self.first_trick_boost != 1.0 and not deal.tricks:
            budget = dataclasses.replace(
                budget, think_ms=max(1, round(budget.think_ms * self.first_trick_boost)))
        self._reading = (sit.objective, budget) if self.consistency is not None else None
        try:
            found = self._play_means(deal, rules, sit, rng, budget, legal)
        finally:
            self._reading = None
        if found is None:
            return _play_action(legal[0])
        means, states, weights = found
        order = sorted(legal, key=lambda c: (-round(means.get(c, -1e9), 6), c))
        best = order[0]
        if not self.lookahead:
            return _play_action(best)
        # one card of each value (equivalent cards share their values in every world)
        candidates: list[int] = []
        seen: set[float] = set()
        for c in order:
            v = round(means.get(c, -1e9), 6)
            if v not in seen:
                seen.add(v)
                candidates.append(c)
            if len(candidates) == LOOKAHEAD_CANDIDATES:
                break
        if len(candidates) < 2:
            return _play_action(best)
        solver = self._solver(rules, sit.objective, 6)
        solver.reset()
        values, used = lookahead_values(
            solver, states, weights, candidates, nodes=budget.nodes
        )
        if used < min(LOOKAHEAD_MIN_WORLDS, len(states)) or not values:
            return _play_action(best)
        chosen = max(candidates, key=lambda c: (round(values[c], 6), -c))
        self.lookahead_stats[0] += 1
        self.lookahead_stats[1] += chosen != best
        return _play_action(chosen)

    def _exchange(
        self, deal: DealView, rules: Rules, sit: Situation, rng: random.Random, budget: _Budget
    ) -> int:
        if self.exchange_ms is not None:
            budget = type(budget)(self.exchange_ms)
        # the match's table where it bends from the points (the objective is then not
        # DIFF); where it is straight the exchange is today's, so that a deal the match
        # leaves to points is played exactly as `expert` plays it
        match = (sit.table is not None and sit.objective.mode is not Mode.DIFF
                 and not self.solver_exchange and not self.exact_check)
        if not self.playout_exchange or (sit.objective.mode is not Mode.DIFF and not match):
            return super()._exchange(deal, rules, sit, rng, budget)
        assert deal.discard_range is not None
        lo, hi = deal.discard_range
        hand = deal.hand.mask
        role = deal.role
        cands = wide_candidates(
            hand, lo, hi, rules, role=role, lead=sit.lead, limit=exchange_candidates(budget)
        )
        if len(cands) == 1:
            return cands[0]
        try:
            worlds = self._worlds(
                deal, rules, rng, exchange_worlds(budget, self.worlds_per_ms, self.max_worlds)
            )
        except SamplingError:
            return cands[0]
        ready = playout_worlds(deal, rules, worlds)
        if not ready:
            return super()._exchange(deal, rules, sit, rng, budget)
        seed = rng.randrange(2**31)
        wsum = sum(pw.weight for pw in ready)
        values: dict[int, list[float]] = {}
        scores: dict[int, float] = {}
        if match:
            # the play-outs' outcomes valued by what they are worth in the match
            assert sit.table is not None
            for i, got in enumerate(match_playout_values(rules, role, ready, cands, seed,
                                                         sit.table)):
                if got is None:
                    continue
                values[i] = got
                scores[i] = sum(pw.weight * v for pw, v in zip(ready, got, strict=True)) / wsum
            # the margin is in points: in the table's units, times what a point is worth
            slope, _ = table_line(rules, sit.table)
            margin = self.switch_margin * (slope if slope > 0 else 1.0)
            return cands[margin_choice(scores, margin)] if scores else cands[0]
        for i, got in enumerate(all_playout_values(rules, role, ready, cands, seed)):
            if got is None:
                continue
            values[i] = got
            scores[i] = sum(pw.weight * v for pw, v in zip(ready, got, strict=True)) / wsum
        if not scores:
            return cands[0]
        if self.solver_exchange:
            solver = self._solver(rules, sit.objective, 8)
            solver.reset()
            i = solver_rerank(
                rules, role, ready, cands, scores, seed, solver,
                candidates=self.solver_candidates,
                worlds=solver_worlds(budget.think_ms, self.solver_worlds_per_ms, len(ready)),
                exact_cards=self.exact_cards, switch_margin=self.switch_margin,
                stats=self.solver_stats,
            )
            return cands[i]
        top = ranked(scores)[:EXACT_CANDIDATES]
        if self.exact_check and len(top) > 1:
            if 0 in scores and 0 not in top:
                top.append(0)  # the book's discard is judged on the same (corrected) footing
            self._exact_correction(deal, rules, sit, budget, ready, cands, top, values, scores)
        return cands[margin_choice(scores, self.switch_margin, among=top)]

    def _exact_correction(
        self,
        deal: DealView,
        rules: Rules,
        sit: Situation,
        budget: _Budget,
        ready: list[PlayoutWorld],
        cands: list[int],
        top: list[int],
        values: dict[int, list[float]],
        scores: dict[int, float],
    ) -> None:
        """Add to the best candidates' scores the mean of (exact - play-out) over the first
        worlds, within the budget (a control variate, as the reference does)."""
        exact = self._solver(rules, sit.objective, 7)
        exact.reset()
        start = exact.nodes
        blanche = _blanche_flags(deal)
        corr = dict.fromkeys(top, 0.0)
        wsum = 0.0
        for j, pw in enumerate(ready[: budget.exact_worlds(rules)]):
            w = pw.world
            left = budget.exact_nodes - (exact.nodes - start)
            if left <= 0:
                break
            diffs = {}
            for i in top:
                e = _exchange_value(deal, rules, sit, w, cands[i], exact, blanche, exact=True,
                                    nodes=left)
                if e is None:
                    break
                diffs[i] = e - values[i][j]
            if len(diffs) < len(top):
                break
            for i, dv in diffs.items():
                corr[i] += ready[j].weight * dv
            wsum += ready[j].weight
        if wsum:
            for i in top:
                scores[i] += corr[i] / wsum

    def _worlds(self, deal: DealView, rules: Rules, rng: random.Random, n: int) -> list[World]:
        if not self.beliefs:
            return sample_worlds(deal, rules, rng, n)
        model = BeliefModel(deal, rules, play=self.play_beliefs, beta=self.belief_beta)
        if self._reading is None or self.consistency is None:
            return sample_worlds(deal, rules, rng, n, weigh=model, pool=self.pool)
        objective, budget = self._reading
        solver = self._solver(rules, objective, 5)
        solver.reset()
        reader = PlayConsistency(deal, solver, budget.nodes, lam=self.consistency)

        def read(drawn: list[World]) -> list[World]:
            # the other's past cards, read between the weighing and the resampling
            if not reader.cards:
                return drawn
            drawn = reader.weigh(drawn)
            self.consistency_stats[0] += 1
            self.consistency_stats[1] += reader.solved
            self.consistency_depth[0] += reader.depth
            self.consistency_depth[1] += len(reader.cards)
            return drawn

        return sample_worlds(deal, rules, rng, n, weigh=model, pool=self.pool, reweigh=read)

    def _budget(self) -> _Budget:
        if self.calibrated:
            return ExpertBudget(self.think_ms)
        return _Budget(self.think_ms)

    def _play_worlds(self, deal: DealView, rules: Rules, budget: _Budget) -> int:
        if self.calibrated:
            cap = max(40, budget.think_ms // 2) if self.more_worlds else 40
            per = per_world_nodes(rules, deal.hand.mask.bit_count())
            n = int(budget.nodes * min(self.threads, 2) / per) + 1
            return max(3, min(cap, n))
        n = _worlds_for(deal, rules, budget, self.threads)
        if not self.more_worlds or n < 40:
            return n
        cap = max(40, budget.think_ms // 4)
        # the reference's count, before its cap of 40
        cards = deal.hand.mask.bit_count()
        base = 300_000.0 if rules.deck_size == 36 else (
            60_000.0 if rules.play_scoring is PlayScoring.LEADS_AND_WINS else 120_000.0)
        per_world = max(50.0, base * 0.4 ** (12 - cards))
        return min(cap, int(budget.nodes * min(self.threads, 2) / per_world) + 1)


register_level("expert", lambda seed, think_ms: ExpertPlayer(seed, think_ms))


def _register(name: str, **settings: Any) -> None:
    """Register the unlisted variant ``name``: the expert with ``settings``."""
    register_variant(
        name, lambda seed, think_ms: ExpertPlayer(seed, think_ms, name=name, **settings))


# the parts of the expert alone, for measuring what each gains (not listed in the ladder)
_register("expert-no-beliefs", beliefs=False)
_register("expert-exchange-beliefs", play_beliefs=False)
_register("expert-lookahead", lookahead=True)
_register("expert-lookahead-no-beliefs", beliefs=False, lookahead=True)
_register("expert-book-exchange", playout_exchange=False)
_register("expert-exact-check", exact_check=True)
_register("expert-uncalibrated", calibrated=False)
# more worlds for the exchange (the compiled play-outs make them cheap), a smaller margin
for _per_ms, _cap, _margin in ((6.0, 4000, 0.5), (6.0, 4000, 0.25), (2.0, 600, 0.25)):
    _register(f"expert-x{_per_ms:g}-m{_margin:g}", worlds_per_ms=_per_ms, max_worlds=_cap,
              switch_margin=_margin)
_register("expert-pool8", pool=8)
for _beta in (0.7, 1.0):
    _register(f"expert-beta{_beta:g}", belief_beta=_beta)
_register("expert-40-worlds", more_worlds=False)
# the play and declarations (issue 16, sinking): the expert sinking where what it risks is
# under an allowance of points (piquet.players.sinking)
for _allow in (0.5, 1.0, 2.0):
    _register(f"expert-sink{_allow:g}", sink_allowance=_allow)
# the play's inference by consistency with the solver (piquet.players.consistency)
for _lam in (0.5, 0.25):
    _register(f"expert-consistent{_lam:g}", consistency=_lam)
# more of the budget for the first trick's cards
for _boost in (2.0, 4.0, 8.0, 16.0):
    _register(f"expert-first{_boost:g}", first_trick_boost=_boost)
# the exchange's best discards valued again with the play of the cards by the solver
# (greedy open-handed down to ``exact_cards`` cards, exact from there), in ``per_ms``
# worlds a millisecond of budget
for _ec, _wpm in ((6, 1.0), (9, 0.2), (0, 2.0), (12, 0.2)):
    _register(f"expert-solx-e{_ec}-w{_wpm:g}", solver_exchange=True, exact_cards=_ec,
              solver_worlds_per_ms=_wpm)
# the exchange alone given ten times the budget (the rest of the player at its own)
_register("expert-match", match_aware=True)
_register("expert-x1000", exchange_ms=1000)
_register("expert-solx-e6-w1-x1000", solver_exchange=True, exact_cards=6,
          solver_worlds_per_ms=1.0, exchange_ms=1000)
_register("expert-solx-e12-x1000", solver_exchange=True, exact_cards=12,
          solver_worlds_per_ms=0.1, exchange_ms=1000)
