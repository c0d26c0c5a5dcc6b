"""The coach of a guided first deal: at each of the player's decisions, what it is, what
the coach would do and why; after the choice, what it cost if it was weak.

A :class:`Coach` is given one player's :class:`~piquet.core.match.MatchView` at a time and
nothing else, so it cannot see what that player may not see.  It returns :class:`Note`
values: a short title, sentences, the glossary terms met for the first time (each
explained once: the coach remembers which it has explained), the suggested action and,
after a choice, its cost in points of the deal.  The suggestion and its reason come from
the advisor's hint (:func:`piquet.advisor.hints.hint_for`, the expert level's choice,
exact odds); the cost from the judge (:func:`piquet.learn.judge.judge`: both moves played
out in the same deals drawn from the player's view).  What is particular to the rule set is
read from its knobs.  The words are made in :mod:`piquet.learn.words`.

The two that compute, :func:`advise` and :func:`judged`, may run elsewhere (the web
server runs them as jobs of its workers, :mod:`piquet.jobs`, and never imports the
advisor itself): :meth:`Coach.before` and :meth:`Coach.after` take their results.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final, Literal

from piquet.core.actions import Action
from piquet.core.match import MatchView
from piquet.core.rules import Rules
from piquet.core.view import DealView
from piquet.learn.glossary import Term, terms_in
from piquet.learn.words import (
    action_label,
    choice_words,
    coach_title,
    decision_words,
    particulars,
)

__all__ = ["COST_WORTH_SAYING", "Advice", "Coach", "Judged", "Note", "advise", "judged",
           "particulars"]

Level = Literal["learner", "expert"]
Advice = tuple[str, Action | None]
"""The advisor's hint: its words and its action (:func:`advise`)."""
Judged = tuple[float, float, int] | None
"""Points the choice cost against the coach's, their standard error, the deals played
(:func:`judged`); None where the deal could not be judged."""


def advise(view: MatchView, level: Level = "learner", nodes: int | None = None) -> Advice:
    """The advisor's hint at ``view`` (:func:`piquet.advisor.hints.hint_for`; ``nodes``:
    its exact search's positions, None for its own)."""
    from piquet.advisor.hints import hint_for

    h = hint_for(view, level=level, nodes=nodes)
    return h.text, h.action


def judged(deal: DealView, rules: Rules, suggested: Action, action: Action, *,
           worlds: int, seed: int) -> Judged:
    """What ``action`` cost against ``suggested``, both played out in the same ``worlds``
    deals drawn from ``deal`` (:func:`piquet.learn.judge.judge`)."""
    from piquet.learn.judge import JudgeError, judge

    try:
        j = judge(deal, rules, [suggested, action], worlds=worlds, seed=seed)
    except JudgeError:
        return None
    cost, se = j.margin(0, 1)
    return cost, se, j.worlds

COST_WORTH_SAYING: Final = 0.5
"""Points of the deal below which a choice is not called weak."""


@dataclass(frozen=True, slots=True)
class Note:
    """What the coach says at one moment."""

    title: str
    sentences: tuple[str, ...]
    terms: tuple[Term, ...] = ()
    """Glossary terms used here for the first time: each is explained once."""
    action: Action | None = None
    """What the coach would do (before a choice)."""
    cost: float | None = None
    """After a choice: the points of the deal it gave up against the coach's (0: none)."""

    def lines(self) -> list[str]:
        """The note as plain lines (the terminal's form)."""
        out = [self.title, *self.sentences]
        out += [f"  ({t.name}: {t.definition})" for t in self.terms]
        return out


@dataclass
class Coach:
    """The coach of one player for a guided deal (see the module's docstring).  Keeps the
    terms it has explained and the rule-set points it has made; ``seed`` fixes its draws."""

    level: Level = "learner"
    seed: int = 0
    worlds: int = 16
    explained: set[str] = field(default_factory=set)
    told: set[str] = field(default_factory=set)

    def _terms(self, sentences: list[str]) -> tuple[Term, ...]:
        new: list[Term] = []
        for text in sentences:
            for t in terms_in(text):
                if t.key not in self.explained:
                    self.explained.add(t.key)
                    new.append(t)
        return tuple(new)

    def needs_advice(self, view: MatchView) -> bool:
        """Whether :meth:`before` at ``view`` uses the advisor's hint."""
        return view.deal is not None and view.to_act == view.player

    def before(self, view: MatchView, advice: Advice | None = None) -> Note:
        """What the player's decision is, what the coach would do and why (``advice``: the
        advisor's hint at ``view``, :func:`advise`, asked here when not given)."""
        deal = view.deal
        if deal is None or view.to_act != view.player:
            return Note("Waiting", ("It is not your turn: the other player is choosing.",))
        rules = view.rule_set
        sentences = [decision_words(deal)]
        text, action = advice if advice is not None else advise(view, self.level)
        if text:
            sentences.append(f"The coach would: {text}")
        for point in particulars(rules, deal.phase):
            if point not in self.told:
                self.told.add(point)
                sentences.append(point)
        return Note(coach_title(deal), tuple(sentences), self._terms(sentences), action)

    def judging(self, view: MatchView, action: Action, suggested: Action | None) -> dict[
            str, object] | None:
        """The arguments of :func:`judged` that :meth:`after` needs at ``view`` (None: it
        needs no judging)."""
        deal = view.deal
        if deal is None or suggested is None or suggested == action:
            return None
        return {"deal": deal, "rules": view.rule_set, "suggested": suggested,
                "action": action, "worlds": self.worlds,
                "seed": self.seed * 1_000 + len(deal.dialog) + len(deal.tricks)}

    def after(self, view: MatchView, action: Action, suggested: Action | None,
              verdict: Judged | bool = False) -> Note:
        """What the player's ``action`` (taken at ``view``) cost against ``suggested`` (the
        coach's move there), judged in the same deals drawn from the view (``verdict``:
        :func:`judged` of :meth:`judging`'s arguments, made here when not given)."""
        deal = view.deal
        if deal is None:
            return Note("Your choice", ("Done.",), cost=0.0)
        hand, rules = deal.hand.mask, view.rule_set
        mine = action_label(action, hand, rules)
        if suggested is None or suggested == action:
            text = [choice_words(mine, None)]
            return Note("Your choice", tuple(text), self._terms(text), cost=0.0)
        his = action_label(suggested, hand, rules)
        if verdict is False or verdict is True:
            verdict = judged(deal, rules, suggested, action, worlds=self.worlds,
                             seed=self.seed * 1_000 + len(deal.dialog) + len(deal.tricks))
        if verdict is None:
            text = [choice_words(mine, his)]
            return Note("Your choice", tuple(text), self._terms(text))
        cost, se, worlds = verdict
        if cost < max(COST_WORTH_SAYING, 2 * se):
            text = [choice_words(mine, his, cost=0.0)]
            return Note("Your choice", tuple(text), self._terms(text), cost=0.0)
        text = [choice_words(mine, his, cost=cost, worlds=worlds)]
        return Note("What it cost", tuple(text), self._terms(text), cost=round(cost, 2))
