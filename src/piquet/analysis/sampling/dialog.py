"""How well a hand of the other fits the dialog (part of :mod:`piquet.analysis.sampling`).

Hard facts ("not good", "equal", a named lead) veto a hand; free choices (a holding he
sank) make it less likely by :data:`~piquet.analysis.sampling.draw.SINK_WEIGHT`.
"""

from __future__ import annotations

from collections.abc import Sequence

from piquet.analysis.sampling.draw import SINK_WEIGHT
from piquet.core.actions import Reply
from piquet.core.deal import ELDER, YOUNGER, Utterance
from piquet.core.declarations import Claim, DeclClass, claims, counted, shape_of
from piquet.core.facts import (
    Declared,
    Fact,
    FurtherHeld,
    HoldingShown,
    LeadLacked,
    LeadNamed,
    Passed,
    PipsTold,
    Replied,
    Statement,
    said_shape,
    statement_of,
)
from piquet.core.rules import PointMeasure, Rules
from piquet.core.view import DealView

__all__ = ["dialog_weight"]

_SAID_CACHE: dict[int, tuple[Statement, Statement]] = {}
""":func:`_said_of` by the claim's :func:`~piquet.core.facts.said_shape` and whether points
are measured by pips (all that :func:`~piquet.core.facts.statement_of` reads)."""


def _said_of(claim: Claim, rules: Rules) -> tuple[Statement, Statement]:
    """What announcing ``claim`` tells, in full and (a point by cards) its first part."""
    key = said_shape(claim) << 1 | (rules.point_measure is PointMeasure.PIPS)
    found = _SAID_CACHE.get(key)
    if found is None:
        if len(_SAID_CACHE) > 16_384:
            _SAID_CACHE.clear()
        found = statement_of(claim, rules), statement_of(claim, rules, full=False)
        _SAID_CACHE[key] = found
    return found


def _talk_by_class(dialog: Sequence[Utterance]) -> list[tuple[DeclClass, list[Fact]]]:
    by: dict[DeclClass, list[Fact]] = {}
    for u in dialog:
        if u.cls is not None:
            by.setdefault(u.cls, []).append(u.fact)
    return sorted(by.items())


_FOUND: dict[tuple[int, int, Statement], tuple[Claim, ...]] = {}
""":func:`_find_claims` by the hand, the rule set's claim shape and point measure with the
class, and what was said: the seat's own hand and words are the same in every world drawn
for a view, and a drawn hand of the other's often comes again."""


def _find_claims(
    hand: int, cls: DeclClass, said: Statement, rules: Rules
) -> tuple[Claim, ...]:
    """The claims of ``hand`` whose announcement tells ``said`` (cached)."""
    by_pips = rules.point_measure is PointMeasure.PIPS
    key = (hand, (shape_of(rules).id << 3) | (by_pips << 2) | cls, said)
    found = _FOUND.get(key)
    if found is None:
        cache = _SAID_CACHE
        out: list[Claim] = []
        for c in claims(hand, cls, rules):
            told = cache.get(said_shape(c) << 1 | by_pips)  # _said_of(c, rules), inlined
            if said in (told if told is not None else _said_of(c, rules)):
                out.append(c)
        if len(_FOUND) > 16_384:
            _FOUND.clear()
        found = _FOUND[key] = tuple(out)
    return found


def _my_post_exchange(view: DealView) -> int:
    played = 0
    for t in view.tricks:
        played |= 1 << (t.lead if t.leader == view.role else t.follow)
    if view.trick_lead is not None and view.to_act != view.role:
        played |= 1 << view.trick_lead
    return view.hand.mask | played


def dialog_weight(opp_hand: int, view: DealView, rules: Rules) -> float:
    """How well a post-exchange hand of the other fits the dialog: 0 (impossible) to 1.

    ``opp_hand`` is his whole hand after the exchange (cards played included).
    """
    role = view.role
    other = 1 - role
    mine = _my_post_exchange(view)
    weight = 1.0
    for cls, facts in _talk_by_class(view.dialog):
        w = _class_weight(cls, facts, opp_hand, mine, role, rules)
        if w == 0.0:
            return 0.0
        weight *= w
    if other == ELDER and _lead_fits(opp_hand, view) == 0.0:
        return 0.0
    return weight


def _class_weight(
    cls: DeclClass, facts: list[Fact], opp_hand: int, mine: int, role: int, rules: Rules
) -> float:
    """How well the other's hand fits what was said in one class (0: it cannot)."""
    partial = cls is DeclClass.POINT and rules.point_measure is PointMeasure.CARDS
    my_claim: Claim | None = None
    my_said: Statement | None = None
    his: Sequence[Claim] = ()
    """The claims of his hand that his words may stand for."""
    his_said: Statement | None = None
    revealed = False
    won = False
    """He won the class: I answered "good" to his claim, or he declared as younger."""
    weight = 1.0
    his_claims = claims(opp_hand, cls, rules)
    for fact in facts:
        if fact.role == role:
            if isinstance(fact, PipsTold):
                revealed = True
                if my_said is not None:
                    mine_now = _claims_with(mine, cls, my_said, fact.pips, rules)
                    my_claim = mine_now[0] if mine_now else my_claim
            elif isinstance(fact, Declared) and my_claim is None:
                my_said = fact.said
                found = _find_claims(mine, cls, my_said, rules)
                my_claim = found[0] if found else None
            elif isinstance(fact, Replied) and fact.reply is Reply.GOOD:
                won = bool(his)
            continue
        if isinstance(fact, Replied):
            reply = fact.reply
            if reply is Reply.NOT_GOOD:
                if my_claim is None:
                    return 0.0
                if partial and not revealed:
                    if not any(c.key[0] > my_claim.key[0] for c in his_claims):
                        return 0.0
                elif not any(c.key > my_claim.key for c in his_claims):
                    return 0.0
            elif reply is Reply.EQUAL:
                if my_claim is None or not any(c.key == my_claim.key for c in his_claims):
                    return 0.0
            elif reply is Reply.MAKING:
                if my_claim is None or not any(
                    c.key[0] == my_claim.key[0] for c in his_claims
                ):
                    return 0.0
            elif my_claim is not None and any(c.key > my_claim.key for c in his_claims):
                weight *= SINK_WEIGHT  # "good" to a worse claim than his
        elif isinstance(fact, Passed):
            if his_claims:
                weight *= SINK_WEIGHT
        elif isinstance(fact, Declared):
            his_said = fact.said
            his = _find_claims(opp_hand, cls, his_said, rules)
            if not his:
                return 0.0
            if his_claims and his_claims[0].key > his[0].key:
                weight *= SINK_WEIGHT
            if fact.role == YOUNGER:
                won = True  # younger declares only what wins the class
        elif isinstance(fact, PipsTold):
            revealed = True
            if his_said is None:
                return 0.0
            his = _claims_with(opp_hand, cls, his_said, fact.pips, rules)
            if not his:
                return 0.0
        elif isinstance(fact, FurtherHeld):
            his = [c for c in his if _extras(opp_hand, c, rules) == fact.said]
            if not his:
                return 0.0
        elif isinstance(fact, HoldingShown):
            his = [c for c in his if _counted_cards(opp_hand, c, rules) == fact.cards]
            if not his:
                return 0.0
        # "which one is missing?" and its answer: see Knowledge.sets and not_laid_out
    if won and not any(isinstance(f, FurtherHeld) for f in facts):
        # he counted no further holding: his hand holds none beside the claim
        his = [c for c in his if not _extras(opp_hand, c, rules)]
        if not his:
            return 0.0
    return weight


def _extras(hand: int, claim: Claim, rules: Rules) -> tuple[Statement, ...]:
    """What the winner of a class announces beside ``claim`` ("And three kings")."""
    held, _ = counted(hand, claim, rules)
    return tuple(statement_of(h, rules) for h in held if h.cards != claim.cards)


def _counted_cards(hand: int, claim: Claim, rules: Rules) -> int:
    held, _ = counted(hand, claim, rules)
    cards = 0
    for h in held:
        cards |= h.cards
    return cards


def _claims_with(
    hand: int, cls: DeclClass, said: Statement, pips: int, rules: Rules
) -> list[Claim]:
    """The claims announced by ``said`` (the first words of a point) that make ``pips``."""
    return [c for c in _find_claims(hand, cls, said, rules) if c.pips == pips]


def _lead_fits(hand: int, view: DealView) -> float:
    named = 0
    lacked = False
    for u in view.dialog:
        fact = u.fact
        if isinstance(fact, LeadNamed):
            named = fact.lead.mask
        elif isinstance(fact, LeadLacked):
            lacked = True
    if not named:
        return 1.0
    holds = bool(hand & named)
    return 1.0 if holds != lacked else 0.0
