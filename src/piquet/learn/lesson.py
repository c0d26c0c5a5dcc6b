"""A lesson: steps of text, positions shown from one role's view, and questions the engine
answers.

A :class:`Lesson` is data (see :mod:`piquet.learn.lessons` for the lessons themselves):
each :class:`Step` has its text, with glossary terms marked ``[[term]]`` (a tooltip in the
browser, a definition on first mention in the terminal), optionally a :class:`Position` (a
deal with chosen hands, moved on by chosen actions, shown from ``role``'s view: a
lesson never shows what that role may not see), and optionally a :class:`Question`.

A question's answer is never stored as the truth: the engine works it out from the
position (the point from :mod:`piquet.core.declarations`, the playable cards from
:meth:`piquet.core.deal.Deal.legal_actions`, the score from the deal's own count, ...).
The lesson's author writes the answer he expects beside it (``expected``), and
``tests/test_learn_lessons.py`` checks the engine accepts it, so a lesson cannot drift from
the rules it teaches.
"""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from typing import Final

from piquet.core.actions import Play, parse_action
from piquet.core.cards import Card, CardSet, pack
from piquet.core.deal import ELDER, ROLE_NAMES, YOUNGER, Deal, Phase
from piquet.core.declarations import (
    DeclClass,
    best_claim,
    counted,
    is_blanche,
    score_of,
    statement,
)
from piquet.core.errors import ParseError, PiquetError
from piquet.core.facts import MissingTold
from piquet.core.match import new_match
from piquet.core.roles import Role
from piquet.core.rules import PointMeasure, Rules, get_rules
from piquet.core.transitions import pack_dealing
from piquet.core.view import DealView, deal_view
from piquet.learn.glossary import Term, lookup

__all__ = [
    "Ask",
    "Checked",
    "Lesson",
    "LessonError",
    "Position",
    "Question",
    "Step",
    "marked_terms",
    "pieces",
    "plain",
]


class LessonError(PiquetError):
    """A lesson's data does not hold (a position that cannot be dealt, a question that
    does not fit its position)."""


_MARK: Final = re.compile(r"\[\[([^\]|]+)(?:\|([^\]]+))?\]\]")


def marked_terms(text: str) -> list[Term]:
    """The glossary terms marked ``[[term]]`` (or ``[[term|shown words]]``) in ``text``;
    raises :class:`LessonError` for a mark that names no term."""
    out = []
    for m in _MARK.finditer(text):
        term = lookup(m.group(1))
        if term is None:
            raise LessonError(f"[[{m.group(1)}]] is not in the glossary")
        out.append(term)
    return out


def pieces(text: str) -> list[tuple[str, Term | None]]:
    """``text`` in pieces: each its words as shown and the term it marks (None for plain
    words), in order (how a page shows a step: a marked term explained where it stands)."""
    out: list[tuple[str, Term | None]] = []
    at = 0
    for m in _MARK.finditer(text):
        if m.start() > at:
            out.append((text[at:m.start()], None))
        out.append((m.group(2) or m.group(1), lookup(m.group(1))))
        at = m.end()
    if at < len(text):
        out.append((text[at:], None))
    return out


def plain(text: str) -> str:
    """``text`` with its marks taken out (the words shown)."""
    return _MARK.sub(lambda m: m.group(2) or m.group(1), text)


@dataclass(frozen=True, slots=True)
class Position:
    """A deal under ``rules`` with chosen hands: ``elder`` and ``younger`` (twelve cards
    each), the ``stock`` top first (the rest of the pack, in pack order, when empty), then
    ``actions`` (ids, as a record writes them) applied in turn; with ``declared``, the
    declarations are then made as the advisor plays them (every holding declared, answers
    true; elder's first lead by the book where younger declares after it), and ``plays``
    applied after."""

    rules: str
    elder: str
    younger: str
    stock: str = ""
    actions: tuple[str, ...] = ()
    declared: bool = False
    plays: tuple[str, ...] = ()

    @property
    def rule_set(self) -> Rules:
        return get_rules(self.rules)

    def deal(self) -> Deal:
        """The deal at this position; raises :class:`LessonError` if it cannot be made."""
        r = self.rule_set
        try:
            e, y = CardSet.parse(self.elder).mask, CardSet.parse(self.younger).mask
            if self.stock:
                stock = [Card.parse(t).index for t in self.stock.split()]
            else:
                stock = [c for c in pack(r) if not (e | y) >> c & 1]
            size = r.packet_sizes[0]
            d = Deal.new(r, pack_dealing(e, y, stock, size))
            if d.phase is Phase.DEAL:
                d = d.apply(d.legal_actions()[0])
            for text in self.actions:
                d = d.apply(parse_action(text))
            if self.declared:
                d = _declared(d)
            for text in self.plays:
                d = d.apply(parse_action(text))
        except (ValueError, IndexError) as exc:
            raise LessonError(f"the position cannot be dealt: {exc}") from None
        return d

    def view(self, role: Role) -> DealView:
        return deal_view(self.deal(), role)


class Ask(enum.Enum):
    """What a question asks; the engine works out each answer."""

    POINT = "point"
    """The role's point: its number of cards (point by cards) or pips (point by pips)."""
    BEST = "best"
    """The cards of the role's best holding in ``cls``."""
    WINNER = "winner"
    """Who wins class ``cls`` if both declare their best: elder, younger or neither."""
    COUNT = "count"
    """What the role counts in ``cls`` if his best holding there is good."""
    PLAYABLE = "playable"
    """The cards the role to act may play."""
    EXCHANGE = "exchange"
    """How many cards the role to act may lay out: "1 to 5"."""
    BLANCHE = "blanche"
    """Whether the role was dealt carte blanche: yes or no."""
    TOTAL = "total"
    """The role's points in the deal once both have declared their best (truthfully)."""
    SCORE = "score"
    """The role's points in the deal at the position as it stands."""
    SETTLEMENT = "settlement"
    """What the winner of a seeded partie scores by its settlement (``seed``)."""
    LURCH = "lurch"
    """Whether a loser with ``value`` points is lurched: yes or no."""
    MISSING = "missing"
    """The card the role's opponent said he laid out of his set (the dialog's answer to
    "which one did you lay out?"), or none."""


@dataclass(frozen=True, slots=True)
class Checked:
    """A learner's answer judged: right or not, and the engine's answer in words."""

    correct: bool
    answer: str
    """The right answer, in words."""


@dataclass(frozen=True, slots=True)
class Question:
    """A question on a step's position (see :class:`Ask`); ``expected`` is the author's
    answer (checked against the engine by the suite); ``seed`` and ``value`` feed the
    questions that need them."""

    ask: Ask
    prompt: str
    expected: str
    cls: DeclClass | None = None
    seed: int = 0
    value: int = 0

    def answer(self, position: Position | None, role: Role) -> tuple[object, str]:
        """The engine's answer: a value to compare and the words to show."""
        ask = self.ask
        if ask is Ask.SETTLEMENT:
            return _settlement(position.rules if position else "rubicon", self.seed)
        if position is None:
            if ask is Ask.LURCH:
                r = get_rules("court-gamester-1754")
                lurched = bool(r.lurch_below and self.value < r.lurch_below)
                return lurched, f"{'yes' if lurched else 'no'}: the line is {r.lurch_below}"
            raise LessonError(f"a {ask.value} question needs a position")
        r = position.rule_set
        d = position.deal()
        if ask is Ask.LURCH:
            lurched = bool(r.lurch_below and self.value < r.lurch_below)
            return lurched, f"{'yes' if lurched else 'no'}: the line is {r.lurch_below}"
        hand = d.hands[role]
        if ask is Ask.BLANCHE:
            yes = is_blanche(d.dealt[role])
            return yes, "yes" if yes else "no: it holds a king, queen or knave"
        if ask is Ask.POINT:
            claim = best_claim(hand, DeclClass.POINT, r)
            if claim is None:
                return 0, "no point"
            n = claim.size if r.point_measure is PointMeasure.CARDS else claim.pips
            return n, f"{statement(claim, r)} ({score_of(claim, r)} if good)"
        if ask in (Ask.BEST, Ask.COUNT, Ask.WINNER):
            cls = self.cls
            if cls is None:
                raise LessonError(f"a {ask.value} question names a class")
            if ask is Ask.WINNER:
                return _winner(d, cls, r)
            claim = best_claim(hand, cls, r)
            if claim is None:
                return (0 if ask is Ask.COUNT else CardSet()), f"no {cls.label}"
            if ask is Ask.BEST:
                return CardSet(claim.cards), f"{statement(claim, r)}: {CardSet(claim.cards)}"
            held, total = counted(hand, claim, r)
            parts = " + ".join(f"{statement(h, r)} {score_of(h, r)}" for h in held)
            return total, f"{total} ({parts})"
        if ask is Ask.PLAYABLE:
            if d.phase is not Phase.PLAY or d.to_act != role:
                raise LessonError("a playable-cards question needs the seat to play")
            cards = CardSet(sum(1 << a.card.index for a in d.legal_actions()
                                if isinstance(a, Play)))
            return cards, str(cards)
        if ask is Ask.EXCHANGE:
            if d.phase is not Phase.EXCHANGE or d.to_act != role:
                raise LessonError("an exchange question needs the seat to exchange")
            lo, hi = d.discard_range()
            return (lo, hi), f"{lo} to {hi}"
        if ask is Ask.TOTAL:
            d = _declared(d)
            return d.scores[role], str(d.scores[role])
        if ask is Ask.SCORE:
            return d.scores[role], str(d.scores[role])
        if ask is Ask.MISSING:
            told = [u.fact for u in d.dialog if isinstance(u.fact, MissingTold)
                    and u.fact.role != role]
            if not told or told[-1].card < 0:
                return CardSet(), "none: he laid out none of that rank"
            card = CardSet(1 << told[-1].card)
            return card, f"{card}, as he told you"
        raise LessonError(f"unknown question {ask}")  # pragma: no cover

    def read(self, text: str) -> object:
        """A learner's answer as a value to compare; raises :class:`ParseError` saying how
        to answer."""
        raw = text.strip().lower()
        ask = self.ask
        try:
            if ask in (Ask.BEST, Ask.PLAYABLE, Ask.MISSING):
                return CardSet.parse(text) if raw not in ("", "none", "-") else CardSet()
            if ask in (Ask.BLANCHE, Ask.LURCH):
                if raw in ("y", "yes", "true"):
                    return True
                if raw in ("n", "no", "false"):
                    return False
                raise ParseError("answer yes or no")
            if ask is Ask.WINNER:
                if raw in ("elder", "younger", "neither"):
                    return raw
                raise ParseError("answer elder, younger or neither")
            if ask is Ask.EXCHANGE:
                nums = [int(x) for x in re.findall(r"\d+", raw)]
                if len(nums) != 2:
                    raise ParseError("answer with the fewest and the most, e.g. 1 to 5")
                return (nums[0], nums[1])
            nums = [int(x) for x in re.findall(r"-?\d+", raw)]
            if len(nums) != 1:
                raise ParseError("answer with one number")
            return nums[0]
        except ParseError:
            raise
        except ValueError as exc:
            raise ParseError(f"{text!r}: {exc}; write cards as QH 10S 7D") from None

    def check(self, position: Position | None, role: Role, text: str) -> Checked:
        """Judge a learner's answer (raises :class:`ParseError` for one that cannot be
        read, saying how to answer)."""
        value, words = self.answer(position, role)
        return Checked(self.read(text) == value, words)


def _winner(d: Deal, cls: DeclClass, r: Rules) -> tuple[str, str]:
    mine = best_claim(d.hands[ELDER], cls, r)
    his = best_claim(d.hands[YOUNGER], cls, r)
    ke = mine.key if mine else (-1, -1)
    ky = his.key if his else (-1, -1)
    if ke == ky:
        return "neither", "neither: they are equal" if mine else "neither: nobody holds one"
    who = ELDER if ke > ky else YOUNGER
    win, lose = (mine, his) if who == ELDER else (his, mine)
    assert win is not None
    beaten = f" beats {statement(lose, r)}" if lose is not None else " (the other has none)"
    return ROLE_NAMES[who], f"{ROLE_NAMES[who]}: {statement(win, r)}{beaten}"


def _declared(d: Deal) -> Deal:
    """``d`` once both have declared their best and answered truly (the first lead by the
    book where younger declares after it)."""
    from piquet.learn.judge import finish_declarations

    return finish_declarations(d, d.rules)


def _settlement(preset: str, seed: int) -> tuple[int, str]:
    """Play a seeded partie to its end (the book both sides) and read its settlement."""
    from piquet.players import make_player

    m = new_match(preset, seed=seed, format="partie")
    players = [make_player("book", seed=seed + i) for i in range(2)]
    while not m.finished:
        p = m.to_act
        assert p is not None
        m = m.apply(players[p].choose(m.view(p)), p)
    g = m.games[-1]
    how = "rubiconed: 100 + both totals" if g.rubiconed else "100 + the difference"
    return g.settled, f"{g.settled} ({g.scores[0]} to {g.scores[1]}; the loser is {how})"


@dataclass(frozen=True, slots=True)
class Step:
    """One step of a lesson (see the module's docstring)."""

    text: str
    position: Position | None = None
    role: Role = ELDER
    question: Question | None = None


@dataclass(frozen=True, slots=True)
class Lesson:
    """A short lesson: a ``key``, a ``title``, the rule set it plays (``rules``), what it
    teaches (``summary``) and its steps, the last ones exercises."""

    key: str
    title: str
    rules: str
    summary: str
    steps: tuple[Step, ...] = field(default=())

    @property
    def questions(self) -> list[Step]:
        return [s for s in self.steps if s.question is not None]

    def terms(self) -> list[Term]:
        """Every glossary term the lesson marks, once, in order."""
        seen: dict[str, Term] = {}
        for s in self.steps:
            for t in marked_terms(s.text):
                seen.setdefault(t.key, t)
        return list(seen.values())
