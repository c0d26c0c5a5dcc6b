"""Judging a choice from one role's view: every option valued in the same drawn deals.

The one estimator of the exercises (:mod:`piquet.learn.puzzles`) and the coach's "what it
cost" (:mod:`piquet.learn.coach`).  From a role's :class:`~piquet.core.view.DealView` it
draws ``worlds`` deals consistent with everything the role has seen, the dialog included
(:func:`piquet.analysis.sampling.sample_worlds`: the one sampler, with its weights), rebuilds each
as a :class:`~piquet.core.deal.Deal` (:func:`~piquet.analysis.sampling.world_deal`, checked to give
the same view), and values every option in every deal, from the role's side, in points of
the deal from this decision on:

- **a card** (the play): the exact double-dummy value of the rest of the play after it
  (:meth:`piquet.fast.solver.Solver.move_values`: both hands open, best play by both);
- **anything else** (a discard, a declaration, an answer, a sink): the option applied,
  the rest of the deal finished the way the advisor plays it (the other's exchange and
  every other choice by the book, declarations truthful: best holding declared, answers
  true), then the play valued by the solver's open-handed play-out
  (:meth:`~piquet.fast.solver.Solver.estimate`) or, with ``exact=True``, exactly.

The options are compared in the *same* deals (paired), so what differs is the option, not
the luck of the draw: :meth:`Judgement.margin` is the mean paired difference between two
options with its standard error.  Hidden cards are never read: the deals are drawn from the
view alone.  Every draw comes from ``seed``.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from piquet.analysis.sampling import SamplingError, sample_worlds, world_deal
from piquet.core.actions import PLAY, Action, Play
from piquet.core.deal import ELDER, Deal, Phase
from piquet.core.errors import PiquetError
from piquet.core.rules import Rules
from piquet.core.view import DealView, deal_view
from piquet.fast.solver import Solver, play_state
from piquet.players.book import book_action, book_lead
from piquet.players.common import truthful_choice

__all__ = ["JudgeError", "Judgement", "finish", "finish_declarations", "judge"]


class JudgeError(PiquetError):
    """The options cannot be judged here (no deal could be drawn, or an option is not legal
    now)."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """Each option's value in each drawn deal (the role's points of the deal from here)."""

    options: tuple[Action, ...]
    values: tuple[tuple[float, ...], ...]
    """``values[i][w]``: option ``i`` in deal ``w``."""
    weights: tuple[float, ...]
    """Each deal's weight (how well it fits the dialog)."""

    @property
    def worlds(self) -> int:
        return len(self.weights)

    def mean(self, i: int) -> float:
        total = sum(self.weights)
        return sum(w * v for w, v in zip(self.weights, self.values[i], strict=True)) / total

    def index(self, action: Action) -> int:
        try:
            return self.options.index(action)
        except ValueError:
            raise JudgeError(f"{action} was not judged; the options were "
                             f"{', '.join(map(str, self.options))}") from None

    def margin(self, better: int, worse: int) -> tuple[float, float]:
        """The weighted mean of ``values[better] - values[worse]`` over the deals, and its
        standard error (0 when they never differ)."""
        ws = self.weights
        diffs = [a - b for a, b in zip(self.values[better], self.values[worse], strict=True)]
        total = sum(ws)
        mean = sum(w * d for w, d in zip(ws, diffs, strict=True)) / total
        # the weighted variance over the effective number of deals (Kish)
        var = sum(w * (d - mean) ** 2 for w, d in zip(ws, diffs, strict=True)) / total
        n_eff = total * total / sum(w * w for w in ws)
        return mean, math.sqrt(var / max(n_eff - 1.0, 1.0))

    def share_best(self, i: int) -> float:
        """The weighted share of deals in which option ``i`` is (one of) the best."""
        total = sum(self.weights)
        hit = 0.0
        for w, k in enumerate(self.weights):
            best = max(v[w] for v in self.values)
            if self.values[i][w] >= best - 1e-9:
                hit += k
        return hit / total

    def ranking(self) -> list[int]:
        """The options' indices, best mean first."""
        return sorted(range(len(self.options)), key=lambda i: -self.mean(i))


def finish_declarations(deal: Deal, rules: Rules) -> Deal:
    """``deal`` moved on as the advisor plays it up to the play (or its end): every choice
    by the book, declarations truthful (the best holding declared, answers true), elder's
    first lead by the book where younger declares after it."""
    for _ in range(200):
        if deal.is_over:
            return deal
        role = deal.to_act
        assert role is not None
        if deal.phase is Phase.PLAY:
            # the declarations some rules leave until elder's first lead need the lead
            if role == ELDER and not deal.tricks and deal.trick_lead is None and deal.deferred:
                legal = [a.card.index for a in deal.legal_actions() if isinstance(a, Play)]
                deal = deal.apply(PLAY[book_lead(legal, deal.hands[role], deal.hands[1], 0)])
                continue
            return deal
        if deal.phase is Phase.DECLARE:
            # truthful_declaration(deal_view(deal, role), rules) without the whole view:
            # one of the legal actions, applied with no second proof of it
            deal = deal._apply_legal(truthful_choice(deal.legal_actions(), deal.hands[role],
                                                     rules))
        else:
            deal = deal.apply(book_action(deal_view(deal, role), rules))
    raise JudgeError("the deal did not reach its play")  # pragma: no cover (200 is plenty)


def finish(deal: Deal, rules: Rules, solver: Solver, *, exact: bool = False) -> int:
    """Elder's points minus younger's in the whole deal once ``deal`` is finished as the
    advisor plays it (:func:`finish_declarations`, then the play by the solver: its
    open-handed play-out, or exactly)."""
    deal = finish_declarations(deal, rules)
    e, y = deal.scores
    if deal.is_over:
        return e - y
    state = play_state(deal)
    if exact:
        v = solver.value(state)
        assert v is not None
    else:
        v = solver.estimate(state)
    return e - y + v


def judge(
    view: DealView,
    rules: Rules,
    options: Sequence[Action],
    *,
    worlds: int = 32,
    seed: int = 0,
    exact: bool = False,
    solver: Solver | None = None,
) -> Judgement:
    """Value each of ``options`` (legal now for ``view``'s role) in ``worlds`` deals drawn
    from the view (see the module's docstring).  Raises :class:`JudgeError` when no deal
    can be drawn or an option is not legal in the drawn deals."""
    if not options:
        raise JudgeError("there is nothing to judge: no options were given")
    if view.to_act != view.role:
        raise JudgeError("it is not this seat's turn: there is no choice to judge")
    rng = random.Random(f"piquet-judge-{seed}")
    try:
        drawn = sample_worlds(view, rules, rng, worlds)
    except PiquetError as exc:  # a SamplingError, or nothing dealt yet
        raise JudgeError(f"no deal fits this view: {exc}") from None
    solver = solver or Solver(rules)
    sign = 1 if view.role == ELDER else -1
    cards = all(isinstance(a, Play) for a in options)
    values: list[list[float]] = [[] for _ in options]
    weights: list[float] = []
    for w in drawn:
        try:
            d = world_deal(view, rules, w)
        except SamplingError:
            continue
        e, y = d.scores
        now = e - y
        if cards:
            moves = solver.move_values(play_state(d))
            row = [float(moves[a.card.index]) for a in options if isinstance(a, Play)]
        else:
            row = []
            for a in options:
                if not d.can(a):
                    raise JudgeError(f"{a} is not allowed here")
                row.append(float(sign * (finish(d.apply(a), rules, solver, exact=exact) - now)))
        for i, v in enumerate(row):
            values[i].append(v)
        weights.append(w.weight)
    if not weights or sum(weights) <= 0:
        raise JudgeError("no deal fits this view")
    return Judgement(tuple(options), tuple(tuple(v) for v in values), tuple(weights))
