"""The coach of a guided first deal: at each of the player's decisions, what it is, what
the coach would do and why; after the choice, what it cost if it was weak.

A :class:`Coach` is given one seat's :class:`~piquet.core.match.MatchView` at a time and
nothing else, so it cannot see what the seat may not see.  It returns :class:`Note`
values: a short title, sentences, the glossary terms met for the first time (each
explained once: the coach remembers which it has explained), the suggested action and,
after a choice, its cost in points of the deal.  The suggestion and its reason come from
the advisor's hint (:func:`piquet.advisor.hints.hint_for`, the expert level's choice,
exact odds); the cost from the judge (:func:`piquet.learn.judge.judge`: both moves played
out in the same deals drawn from the seat's view).  What is particular to the rule set is
read from its knobs.  The words are made in :mod:`piquet.learn.words`.  Its words are made in
:mod:`piquet.learn.words`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from piquet.advisor.hints import Level, hint_for
from piquet.core.actions import Action
from piquet.core.match import MatchView
from piquet.learn.glossary import Term, terms_in
from piquet.learn.judge import JudgeError, judge
from piquet.learn.words import (
    action_label,
    choice_words,
    coach_title,
    decision_words,
    particulars,
)

__all__ = ["COST_WORTH_SAYING", "Coach", "Note", "particulars"]

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
    """The coach at one seat for a guided deal (see the module's docstring).  Keeps the
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

    def before(self, view: MatchView) -> Note:
        """What the seat's decision is, what the coach would do and why."""
        deal = view.deal
        if deal is None or view.to_act != view.player:
            return Note("Waiting", ("It is not your turn: the other player is choosing.",))
        rules = view.rule_set
        sentences = [decision_words(deal)]
        advice = hint_for(view, level=self.level)
        if advice.text:
            sentences.append(f"The coach would: {advice.text}")
        for point in particulars(rules, deal.phase):
            if point not in self.told:
                self.told.add(point)
                sentences.append(point)
        return Note(coach_title(deal), tuple(sentences), self._terms(sentences), advice.action)

    def after(self, view: MatchView, action: Action, suggested: Action | None) -> Note:
        """What the seat's ``action`` (taken at ``view``) cost against ``suggested`` (the
        coach's move there), judged in the same deals drawn from the view."""
        deal = view.deal
        if deal is None:
            return Note("Your choice", ("Done.",), cost=0.0)
        hand, rules = deal.hand.mask, view.rule_set
        mine = action_label(action, hand, rules)
        if suggested is None or suggested == action:
            text = [choice_words(mine, None)]
            return Note("Your choice", tuple(text), self._terms(text), cost=0.0)
        his = action_label(suggested, hand, rules)
        try:
            j = judge(deal, rules, [suggested, action], worlds=self.worlds,
                      seed=self.seed * 1_000 + len(deal.dialog) + len(deal.tricks))
        except JudgeError:
            text = [choice_words(mine, his)]
            return Note("Your choice", tuple(text), self._terms(text))
        cost, se = j.margin(0, 1)
        if cost < max(COST_WORTH_SAYING, 2 * se):
            text = [choice_words(mine, his, cost=0.0)]
            return Note("Your choice", tuple(text), self._terms(text), cost=0.0)
        text = [choice_words(mine, his, cost=cost, worlds=j.worlds)]
        return Note("What it cost", tuple(text), self._terms(text), cost=round(cost, 2))
