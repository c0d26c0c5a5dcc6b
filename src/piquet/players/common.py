"""What the AI levels share: the rule set of a view, the game situation, hand judgement.

Everything here reads only a :class:`~piquet.core.match.MatchView` (or its
:class:`~piquet.core.view.DealView`); nothing touches a match or a deal.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from piquet.core.actions import Action, Answer, Declare, Discard, Pass, Question, Reply
from piquet.core.cards import CardSet, mask_cards
from piquet.core.deal import ELDER
from piquet.core.declarations import SUIT_COUNT, SUIT_PIPS, SUIT_RUNS, claims
from piquet.core.errors import IllegalActionError
from piquet.core.match import MatchView
from piquet.core.rules import Format, PointMeasure, Rules
from piquet.core.view import DealView
from piquet.fast.solver import Mode, Objective, objective_for

__all__ = [
    "Situation",
    "book_discard",
    "card_values",
    "discard_action",
    "discard_candidates",
    "my_turn",
    "partie_deals_left",
    "rules_of",
    "situation",
    "truthful_declaration",
    "value_for",
]


def rules_of(view: MatchView, override: Rules | None = None) -> Rules:
    """The rule set a view is played under (every knob: ``view.rule_set``)."""
    if override is not None:
        return override
    return view.rule_set


def my_turn(view: MatchView) -> DealView:
    """The deal view, checking it is this player's turn (raises IllegalActionError)."""
    deal = view.deal
    if deal is None or view.to_act != view.player or deal.to_act != deal.role:
        raise IllegalActionError("it is not this player's turn")
    return deal


@dataclass(frozen=True, slots=True)
class Situation:
    """Where the game stands for this player: scores by role, and what the deal is worth."""

    start: tuple[int, int]
    """Game (or partie) score of (elder, younger) before this deal."""
    objective: Objective
    lead: int
    """This player's lead in the game (negative when behind)."""
    table: tuple[int, ...] | None = None
    """What each outcome of the deal is worth in the match (match-aware players only:
    :func:`piquet.players.matchvalue.deal_table`)."""


def partie_deals_left(deal_number: int, rules: Rules) -> int:
    """The deals of a partie still to come after deal ``deal_number`` (counted from 1 in
    the partie).  A partie level after its :attr:`~Rules.partie_deals` deals, where the
    rules say so, goes on for one more deal each (:class:`~piquet.core.match.Match`): the
    first of those two is not the partie's last."""
    n = rules.partie_deals
    if deal_number > n and rules.partie_tie_extra_deals:
        return max(0, n + 2 - deal_number)
    return max(0, n - deal_number)


def situation(view: MatchView, rules: Rules, *, match_aware: bool = False) -> Situation:
    """The game situation: RACE near the target, PARTIE on a partie's last deal, else DIFF.

    ``match_aware``: the value of the deal's outcomes in the match as it stands
    (:mod:`piquet.players.matchvalue`) is given as ``table``, and the objective is TABLE
    where it would have been DIFF and the table bends away from the points' difference by
    more than :data:`~piquet.players.matchvalue.LINEAR_TOLERANCE` (RACE and PARTIE stand:
    the solver plays a race card by card, and a partie's last deal exactly)."""
    deal = view.deal
    role = deal.role if deal is not None else ELDER
    me = view.player
    try:
        mine = view.scores[view.in_game.index(me)]
        theirs = view.scores[1 - view.in_game.index(me)]
    except (ValueError, IndexError):
        mine = theirs = 0
    start = (mine, theirs) if role == ELDER else (theirs, mine)
    target = None
    partie_last = False
    if view.format in (Format.GAME, Format.POOL) and rules.game_ends_mid_deal:
        target = rules.target
    left = partie_deals_left(view.deal_number, rules) if view.format is Format.PARTIE else 0
    if view.format is Format.PARTIE:
        partie_last = left == 0
    objective = objective_for(rules, start=start, target=target, partie_last=partie_last)
    table = None
    if match_aware and view.format in (Format.PARTIE, Format.GAME, Format.POOL):
        from piquet.players.matchvalue import LINEAR_TOLERANCE, bends, deal_table

        table = deal_table(rules, view.format, start, left)
        # where the match values points as points (a straight line in the difference),
        # DIFF is the same objective, and its search goes further in the same positions
        if objective.mode is Mode.DIFF and \
                bends(rules, view.format, start, left) > LINEAR_TOLERANCE:
            objective = Objective(mode=Mode.TABLE, table=table)
    return Situation(start, objective, mine - theirs, table)


def value_for(objective: Objective, role: int, totals: tuple[int, int], est: int) -> float:
    """Turn a play estimate (elder's side) plus declaration totals into this role's value."""
    if objective.mode is Mode.DIFF:
        v = totals[0] - totals[1] + est
    else:
        v = est
    return float(v if role == ELDER else -v)


# ------------------------------------------------------------------ hand judgement
_RANK_WORTH: Final = (0.2, 0.4, 0.6, 1.0, 2.0, 2.5, 4.0, 7.0, 10.0)  # 6 7 8 9 T J Q K A


def card_values(hand: int, rules: Rules, *, role: int, lead: int = 0) -> dict[int, float]:
    """How much each card of a hand is worth keeping, by the period advice.

    Trick-winning cards (aces, guarded kings and queens), the point suit, cards
    in sequences, and high sets are worth keeping; low trios (queens, knaves,
    tens) count little (Particular Rule II).  ``lead`` is the player's lead in
    the game: far behind, combinations count more (a pulling game, Rule I);
    far ahead, the cards (Rule XI).
    """
    combo_w = 1.5 if lead <= -30 else 1.0
    trick_w = 1.3 if lead >= 30 else 1.0
    values: dict[int, float] = {}
    # the point suit
    best_suit = max(
        range(4),
        key=lambda s: (
            (SUIT_COUNT[hand >> (9 * s) & 0x1FF], SUIT_PIPS[hand >> (9 * s) & 0x1FF])
            if rules.point_measure is PointMeasure.CARDS
            else (SUIT_PIPS[hand >> (9 * s) & 0x1FF], 0)
        ),
    )
    rank_counts = [sum(hand >> (9 * s + r) & 1 for s in range(4)) for r in range(9)]
    aces = rank_counts[8]
    for c in mask_cards(hand):
        s, r = divmod(c, 9)
        suit = hand >> (9 * s) & 0x1FF
        n_suit = SUIT_COUNT[suit]
        v = _RANK_WORTH[r] * trick_w
        if r == 7:  # king: guarded or not
            v += 2.0 if n_suit >= 2 else -2.0
        if r == 6 and (n_suit >= 3 or suit >> 7 & 1):  # queen guarded
            v += 1.5
        if s == best_suit:
            v += 3.0 * combo_w
        # sequences
        for top, length in SUIT_RUNS[suit]:
            if top - length < r <= top:
                if length >= 5:
                    v += 6.0 * combo_w
                elif length >= 3:
                    v += (1.5 + length - 3) * combo_w
                elif length == 2:
                    v += 0.5
        # sets
        if r + 6 >= rules.set_min_rank:
            n = rank_counts[r]
            if n == 4:
                v += 4.0 * combo_w
            elif n == 3:
                v += (2.0 if r >= 7 else 0.7) * combo_w  # Rule II: low trios count little
        # younger guards his queen-suit (Rule VIII)
        if role != ELDER and (suit >> 6 & 1) and r < 6 and n_suit <= 3:
            v += 1.5
        # younger with three aces discards the fourth suit (Rule VII)
        if role != ELDER and aces == 3 and not suit >> 8 & 1:
            v -= 1.5
        values[c] = v
    return values


def discard_candidates(
    hand: int,
    lo: int,
    hi: int,
    rules: Rules,
    *,
    role: int,
    lead: int = 0,
    limit: int = 8,
) -> list[int]:
    """Good discards (masks), best first by :func:`card_values`: the lowest cards for each
    number allowed, then near variants (one card swapped)."""
    values = card_values(hand, rules, role=role, lead=lead)
    order = sorted(values, key=lambda c: (values[c], c))
    out: list[int] = []
    seen: set[int] = set()

    def add(mask: int) -> None:
        if mask not in seen and lo <= mask.bit_count() <= hi:
            seen.add(mask)
            out.append(mask)

    # the book's choice first, then one card swapped, then fewer cards
    add(sum(1 << c for c in order[:hi]))
    for i in range(hi - 1, -1, -1):
        for j in range(hi, min(len(order), hi + 4)):
            add(sum(1 << c for c in [*order[:i], *order[i + 1 : hi], order[j]]))
    for k in range(hi - 1, lo - 1, -1):
        add(sum(1 << c for c in order[:k]))
    limit = max(limit, 1)
    if len(out) > limit:
        # keep a couple of the "fewer cards" options among the first ones
        fewer = [m for m in out if m.bit_count() < hi][:2]
        same = [m for m in out if m.bit_count() == hi][: limit - len(fewer)]
        out = same + fewer
    return out


def book_discard(hand: int, lo: int, hi: int, rules: Rules, *, role: int, lead: int = 0) -> int:
    """The book's discard: the least useful cards; elder takes in all he may unless his
    worst cards are good ones (Rule III), younger likewise (Rule XIV)."""
    values = card_values(hand, rules, role=role, lead=lead)
    order = sorted(values, key=lambda c: (values[c], c))
    k = hi
    keep_threshold = 9.0 if role == ELDER else 7.5
    while k > lo and values[order[k - 1]] >= keep_threshold:
        k -= 1
    return sum(1 << c for c in order[:k])


def truthful_declaration(deal: DealView, rules: Rules) -> Action:
    """Declare the best holding, answer truly, ask which card of a trio is missing."""
    return truthful_choice(deal.legal_actions, deal.hand.mask, rules)


def truthful_choice(legal: Sequence[Action], hand: int, rules: Rules) -> Action:
    """:func:`truthful_declaration` from what it needs: the legal actions and the hand."""
    declares = [a for a in legal if isinstance(a, Declare)]
    if declares:
        best = max(
            declares,
            key=lambda a: _claim_key(hand, a, rules),
        )
        return best
    answers = {a.reply: a for a in legal if isinstance(a, Answer)}
    if answers:
        for reply in (Reply.NOT_GOOD, Reply.EQUAL, Reply.MAKING, Reply.GOOD):
            if reply in answers:
                return answers[reply]
    if Question(True) in legal:
        return Question(True)
    if Pass() in legal:
        return Pass()
    return legal[0]


def _claim_key(hand: int, action: Declare, rules: Rules) -> tuple[int, int, int]:
    for c in claims(hand, action.cls, rules):
        if c.cards == action.cards.mask:
            return (*c.key, c.cards.bit_count())
    return (-1, -1, -1)


def discard_action(mask: int) -> Discard:
    return Discard(CardSet(mask))
