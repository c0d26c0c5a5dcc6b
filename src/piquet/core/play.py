"""The play of the twelve tricks: the handler of a card played, the one trick scorer of the
engine (what a lead, a trick, the last trick and the cards score under the rule set's
:class:`~piquet.core.rules.PlayScoring`), and every trick's winner in one table.  The
compiled copies (the kernel, the solver) are checked against this one by the differential
tests."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from piquet.core.actions import Play
from piquet.core.dealtypes import (
    _LEAD_NOTES,
    _TENTH,
    _WIN_NOTES,
    ELDER,
    OTHER,
    P_DECLARE,
    P_OVER,
    S_YOUNGER,
    YOUNGER,
    DealState,
    HeldCount,
    Role,
    Trick,
)
from piquet.core.rules import PlayScoring
from piquet.core.scoring import Kind, Tally

if TYPE_CHECKING:
    from piquet.core.deal import Deal

__all__ = ["follower_wins", "play"]

_new_tuple: Final = tuple.__new__  # a named tuple without its constructor's Python-level call


def _play_count(d: DealState, seat: Role, kind: Kind, points: int, note: str) -> None:
    if d["committed"] < 3:
        d["held_play"] = (*d["held_play"], _new_tuple(HeldCount, (seat, kind, points, note)))
        return
    tally: Tally = d["tally"].add(seat, kind, points, note, d["rules"], d["start"], d["target"])
    d["tally"] = tally
    if tally.reached is not None:
        d["phase"] = P_OVER
        d["to_act"] = None


def play(old: Deal, d: DealState, action: Play) -> None:
    """The handler of a card played (see :mod:`piquet.core.transitions`): it leads a trick
    or wins or loses it, and counts what the rule set scores for it."""
    seat = old.to_act
    assert seat is not None, "a handler runs once the action is checked: someone is to act"
    idx = action.card.index
    h0, h1 = old.hands
    d["hands"] = (h0 & ~(1 << idx), h1) if seat == 0 else (h0, h1 & ~(1 << idx))
    rules = old.rules
    scoring = rules.play_scoring
    lead = old.trick_lead
    if lead is None:
        d["trick_lead"] = idx
        d["leader"] = seat
        if rules.lead_value and (
                scoring is _LEADS_AND_WINS or (scoring is _TENTH_CARDS and idx in _TENTH)):
            _play_count(d, seat, _LEAD, rules.lead_value, _LEAD_NOTES[idx])
            if d["phase"] is P_OVER:
                return
        # younger's deferred declarations come after elder's first lead
        if old.deferred and not old.tricks and rules.younger_declares_after_lead:
            d["phase"] = P_DECLARE
            d["step"] = S_YOUNGER
            d["to_act"] = YOUNGER
            d["elder_claim"] = None
            d["cls"] = old.deferred[0].cls
            return
        d["to_act"] = OTHER[seat]
        return
    if not old.tricks and rules.pique_by_first_card:
        # younger plays to the first trick: a pique had to be made by now (Cotgrave: "by
        # playing his first Card up to said number of thirty, before the other has played")
        d["tally"] = d["tally"].closed()
    leader = old.leader
    trick = _TRICKS[(leader * 36 + lead) * 36 + idx]
    winner = trick.winner
    tricks = (*old.tricks, trick)
    d["tricks"] = tricks
    d["trick_lead"] = None
    w0, w1 = old.won
    won = (w0 + 1, w1) if winner == 0 else (w0, w1 + 1)
    d["won"] = won
    follower_wins = winner == seat
    value = rules.win_value
    if scoring is _LEADS_AND_WINS:
        if follower_wins and value:
            _play_count(d, seat, _TRICK, value, _WIN_NOTES[lead * 36 + idx])
    elif scoring is _TENTH_CARDS:
        if follower_wins and idx in _TENTH and value:
            _play_count(d, seat, _TRICK, value,
                        _WIN_NOTES[lead * 36 + idx] + " with a tenth card")
    else:
        n = ((lead in _TENTH) + (idx in _TENTH)) * value
        if n:
            _play_count(d, winner, _TRICK, n, _WIN_NOTES[lead * 36 + idx])
    if d["phase"] is P_OVER:
        return
    if len(tricks) < 12:
        d["to_act"] = winner
        d["leader"] = winner
        return
    win_card = idx if follower_wins else lead
    bonus = rules.last_trick_tenth_bonus if win_card in _TENTH else rules.last_trick_bonus
    _play_count(d, winner, Kind.LAST_TRICK, bonus, "the last trick")
    if d["phase"] is P_OVER:
        return
    mine, theirs = won[winner], won[OTHER[winner]]
    if mine == 12:
        _play_count(d, winner, Kind.CAPOT, rules.capot_bonus, "all twelve tricks")
    elif mine > theirs:
        _play_count(d, winner, Kind.CARDS, rules.cards_bonus, f"{mine} tricks")
    elif theirs > mine:
        _play_count(d, OTHER[winner], Kind.CARDS, rules.cards_bonus, f"{theirs} tricks")
    d["phase"] = P_OVER
    d["to_act"] = None


_LEAD: Final = Kind.LEAD
_TRICK: Final = Kind.TRICK
_LEADS_AND_WINS: Final = PlayScoring.LEADS_AND_WINS
_TENTH_CARDS: Final = PlayScoring.TENTH_CARDS
def follower_wins(lead: int, card: int) -> bool:
    """Whether ``card`` played to ``lead`` (card indices) wins the trick: a higher card of
    the suit led."""
    return card // 9 == lead // 9 and card > lead


_TRICKS: Final = tuple(
    Trick(leader, lead, follow, OTHER[leader] if follower_wins(lead, follow) else leader)
    for leader in (ELDER, YOUNGER)
    for lead in range(36)
    for follow in range(36)
)
"""Every trick by (leader * 36 + lead) * 36 + follow: the follower wins by a higher card of the
suit led."""
