"""The coach of a guided first deal: at each of the player's decisions, what it is, what
the coach would do and why; after the choice, what it cost if it was weak.

A :class:`Coach` is given one seat's :class:`~piquet.core.match.MatchView` at a time and
nothing else, so it cannot see what the seat may not see.  It returns :class:`Note`
values: a short title, sentences, the glossary terms met for the first time (each
explained once: the coach remembers which it has explained), the suggested action and,
after a choice, its cost in points of the deal.  The suggestion and its reason come from
the advisor's hint (:func:`piquet.advisor.hints.hint_for`, the expert level's choice,
exact odds); the cost from the judge (:func:`piquet.learn.judge.judge`: both moves played
out in the same deals drawn from the seat's view).  The words are made here and in
:mod:`piquet.learn.words`; what is particular to the rule set is read from its knobs.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from piquet.advisor.hints import Level, hint_for
from piquet.core.actions import Action, Answer, Declare, Discard, Pass, Play
from piquet.core.deal import ELDER, Phase
from piquet.core.declarations import DeclClass
from piquet.core.match import MatchView
from piquet.core.rules import Leftovers, PointMeasure, Rules
from piquet.learn.glossary import Term, terms_in
from piquet.learn.judge import JudgeError, judge
from piquet.learn.words import action_label

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


_TITLES: Final = {
    Phase.DEAL: "The deal",
    Phase.BLANCHE: "Carte blanche",
    Phase.EXCHANGE: "The exchange",
    Phase.LEFTOVERS: "The cards left in the stock",
    Phase.APPOINT: "Appointing the lead",
    Phase.PLAY: "The play",
}
_CLASS_TITLES: Final = {DeclClass.POINT: "the point", DeclClass.SEQUENCE: "sequences",
                        DeclClass.SET: "sets"}


def particulars(rules: Rules, phase: Phase) -> list[str]:
    """What this rule set does its own way at this moment of a deal (read from its knobs)."""
    out = []
    if phase is Phase.EXCHANGE:
        out.append(f"Under these rules elder may take up to {rules.elder_max} of the "
                   f"{rules.stock_size} stock cards.")
        if rules.younger_min == 0:
            out.append("Younger may even take none.")
    if phase is Phase.LEFTOVERS and rules.younger_leftovers in (Leftovers.ELDER_NAMES_SUIT,
                                                                Leftovers.ELDER_NAMES_CARD):
        what = "suit" if rules.younger_leftovers is Leftovers.ELDER_NAMES_SUIT else "card"
        out.append(f"Under these rules elder sees the cards younger left only by naming the "
                   f"{what} he will lead, and he is then bound to lead it.")
    if phase is Phase.DECLARE:
        if rules.point_measure is PointMeasure.PIPS:
            out.append("Here the point is counted by pips (the ruff): ace 11, court cards 10, "
                       "one point for every ten.")
        if not rules.sequences_same_suit:
            out.append("Here a sequence may run across suits; each card counts in one "
                       "sequence only.")
        if rules.younger_declares_after_lead:
            out.append("Here elder declares everything and leads his first card before "
                       "younger declares.")
    if phase is Phase.PLAY and rules.game_ends_mid_deal:
        out.append("A game can end in the middle of this deal: the count goes in order, "
                   "card by card.")
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
        role = deal.role
        title = _TITLES.get(deal.phase, "")
        if deal.phase is Phase.DECLARE and deal.declaring is not None:
            title = f"Declaring {_CLASS_TITLES[deal.declaring]}"
        if deal.phase is Phase.PLAY:
            title = f"The play: trick {len(deal.tricks) + 1}"
        you = "elder (you did not deal)" if role == ELDER else "younger (you dealt)"
        sentences = [f"You are {you}. {_decision(view)}"]
        advice = hint_for(view, level=self.level)
        if advice.text:
            sentences.append(f"The coach would: {advice.text}")
        for point in particulars(rules, deal.phase):
            if point not in self.told:
                self.told.add(point)
                sentences.append(point)
        return Note(title, tuple(sentences), self._terms(sentences), advice.action)

    def after(self, view: MatchView, action: Action, suggested: Action | None) -> Note:
        """What the seat's ``action`` (taken at ``view``) cost against ``suggested`` (the
        coach's move there), judged in the same deals drawn from the view."""
        deal = view.deal
        if deal is None:
            return Note("Your choice", ("Done.",), cost=0.0)
        if suggested is None or suggested == action:
            text = [f"You chose {action_label(action)}: the coach's choice too."]
            return Note("Your choice", tuple(text), self._terms(text), cost=0.0)
        try:
            j = judge(deal, view.rule_set, [suggested, action], worlds=self.worlds,
                      seed=self.seed * 1_000 + len(deal.dialog) + len(deal.tricks))
        except JudgeError:
            text = [f"You chose {action_label(action)}; the coach would have chosen "
                    f"{action_label(suggested)}."]
            return Note("Your choice", tuple(text), self._terms(text))
        cost, se = j.margin(0, 1)
        mine, his = action_label(action), action_label(suggested)
        if cost < max(COST_WORTH_SAYING, 2 * se):
            text = [f"You chose {mine}. The coach preferred {his}, but in the deals that fit "
                    "what you have seen the two come out about the same."]
            return Note("Your choice", tuple(text), self._terms(text), cost=0.0)
        text = [f"You chose {mine}. {his[:1].upper() + his[1:]} was better: about "
                f"{cost:.1f} points of the deal more, over {j.worlds} deals that fit what you "
                "have seen."]
        return Note("What it cost", tuple(text), self._terms(text), cost=round(cost, 2))


def _decision(view: MatchView) -> str:
    """The decision the seat faces, in plain words."""
    deal = view.deal
    assert deal is not None
    legal = deal.legal_actions
    if deal.phase is Phase.EXCHANGE and deal.discard_range is not None:
        lo, hi = deal.discard_range
        return (f"You lay out {lo} to {hi} cards and take as many from the stock: keep what "
                "scores (a long suit, cards in a row, three or four of a rank) and high cards.")
    if deal.phase is Phase.DECLARE:
        if any(isinstance(a, Answer) for a in legal):
            return ("He has declared: answer good (yours is not better), not good (yours is "
                    "better) or equal.")
        if any(isinstance(a, Declare) for a in legal):
            return "Declare your best holding in this class, or sink it (say nothing)."
        if legal == (Pass(),):
            return "You have nothing to declare in this class."
    if deal.phase is Phase.PLAY:
        if deal.trick_lead is None:
            return "You lead: any card may be played."
        return "He has led: follow suit if you can; the higher card of the suit led wins."
    if deal.phase is Phase.DEAL:
        return "You deal: choose how many cards to give at a time (a packet)."
    if deal.phase is Phase.BLANCHE:
        return "You hold carte blanche: say how many cards you will lay out."
    if any(isinstance(a, Discard | Play) for a in legal):
        return "Choose your move."
    return "Choose what to do."
