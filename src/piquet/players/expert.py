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
- **time**: a play decision solves up to ``think_ms / 4`` worlds (the reference stops at
  40), so that a larger budget buys more worlds, not only deeper ones.
- **lookahead** (off by default; the variant ``expert-lookahead``): the best cards are
  compared by a search a trick deeper that avoids strategy fusion at the player's next
  card (:mod:`piquet.players.lookahead`).  Measured, it did not gain.

The budget stays a count (worlds, solver positions), so decisions repeat from a seed.
"""

from __future__ import annotations

import random
from typing import Final

from piquet.core.actions import Action, Play
from piquet.core.rules import Rules
from piquet.core.view import DealView
from piquet.players.base import register_level, register_variant
from piquet.players.beliefs import BeliefModel
from piquet.players.common import Situation, truthful_declaration
from piquet.players.lookahead import lookahead_values
from piquet.players.search import SearchPlayer, _Budget, _play_action, _worlds_for
from piquet.sampling import World, sample_worlds

__all__ = ["DEFAULT_POOL", "LOOKAHEAD_CANDIDATES", "LOOKAHEAD_MIN_WORLDS", "ExpertPlayer"]

#: Worlds drawn per world solved, before resampling on the beliefs.
DEFAULT_POOL: Final = 4
#: The best cards by perfect-information Monte Carlo that the lookahead compares.
LOOKAHEAD_CANDIDATES: Final = 3
#: Worlds the lookahead must finish within its budget for its verdict to stand.
LOOKAHEAD_MIN_WORLDS: Final = 6


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
        lookahead: bool = False,
        pool: int = DEFAULT_POOL,
        threads: int | None = None,
        rules: Rules | None = None,
        name: str = "expert",
    ) -> None:
        super().__init__(seed, think_ms, level="expert", threads=threads, rules=rules, name=name)
        self.beliefs = beliefs
        self.play_beliefs = play_beliefs
        self.more_worlds = more_worlds
        self.lookahead = lookahead
        self.pool = max(1, pool)
        #: how many play decisions the lookahead decided, and changed (for measurement)
        self.lookahead_stats = [0, 0]
        #: declarations chosen by simulation, and how many sank (not the truthful choice)
        self.declaration_stats = [0, 0]

    def _declare(
        self, deal: DealView, rules: Rules, sit: Situation, rng: random.Random, budget: _Budget
    ) -> Action:
        action = super()._declare(deal, rules, sit, rng, budget)
        self.declaration_stats[0] += 1
        self.declaration_stats[1] += action != truthful_declaration(deal, rules)
        return action

    def _play(
        self, deal: DealView, rules: Rules, sit: Situation, rng: random.Random, budget: _Budget
    ) -> Play:
        legal = [a.card.index for a in deal.legal_actions if isinstance(a, Play)]
        if len(legal) == 1:
            return _play_action(legal[0])
        found = self._play_means(deal, rules, sit, rng, budget, legal)
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

    def _worlds(self, deal: DealView, rules: Rules, rng: random.Random, n: int) -> list[World]:
        if not self.beliefs:
            return sample_worlds(deal, rules, rng, n)
        model = BeliefModel(deal, rules, play=self.play_beliefs)
        return sample_worlds(deal, rules, rng, n, weigh=model, pool=self.pool)

    def _play_worlds(self, deal: DealView, rules: Rules, budget: _Budget) -> int:
        n = _worlds_for(deal, rules, budget, self.threads)
        if not self.more_worlds or n < 40:
            return n
        cap = max(40, budget.think_ms // 4)
        # the reference's count, before its cap of 40
        cards = deal.hand.mask.bit_count()
        base = 300_000.0 if rules.deck_size == 36 else (
            60_000.0 if rules.play_scoring.value == "leads-and-wins" else 120_000.0)
        per_world = max(50.0, base * 0.4 ** (12 - cards))
        return min(cap, int(budget.nodes * min(self.threads, 2) / per_world) + 1)


register_level("expert", lambda seed, think_ms: ExpertPlayer(seed, think_ms))
# the parts of the expert alone, for measuring what each gains (not listed in the ladder)
register_variant(
    "expert-no-beliefs",
    lambda seed, think_ms: ExpertPlayer(seed, think_ms, beliefs=False, name="expert-no-beliefs"),
)
register_variant(
    "expert-exchange-beliefs",
    lambda seed, think_ms: ExpertPlayer(
        seed, think_ms, play_beliefs=False, name="expert-exchange-beliefs"
    ),
)
register_variant(
    "expert-lookahead",
    lambda seed, think_ms: ExpertPlayer(seed, think_ms, lookahead=True, name="expert-lookahead"),
)
register_variant(
    "expert-lookahead-no-beliefs",
    lambda seed, think_ms: ExpertPlayer(
        seed, think_ms, beliefs=False, lookahead=True, name="expert-lookahead-no-beliefs"
    ),
)
register_variant(
    "expert-40-worlds",
    lambda seed, think_ms: ExpertPlayer(seed, think_ms, more_worlds=False, name="expert-40-worlds"),
)
