"""The transitions of a deal: each fills the attribute dictionary of the new state.

:meth:`piquet.core.deal.Deal.apply` checks an action, copies the old state's attributes once
and hands them to the handler for the action's type (:data:`HANDLERS`).  A handler reads
the old state and writes the new one; nothing else ever changes a state.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final

from piquet.core.actions import (
    AnnounceBlanche,
    Answer,
    Appoint,
    DealBy,
    Declare,
    Discard,
    Leftover,
    LeftoverChoice,
    NameLead,
    Pass,
    Play,
    Question,
    Reply,
)
from piquet.core.cards import Card, mask_cards
from piquet.core.dealtypes import (
    ELDER,
    OTHER,
    P_APPOINT,
    P_BLANCHE,
    P_DECLARE,
    P_EXCHANGE,
    P_LEFTOVERS,
    P_OVER,
    P_PLAY,
    S_ANSWER,
    S_ELDER,
    S_QUESTION,
    S_YOUNGER,
    YOUNGER,
    ClassResult,
    DealState,
    Deferred,
    ExchangeKind,
    ExchangeStep,
    Role,
    Utterance,
)
from piquet.core.declarations import (
    Claim,
    DeclClass,
    claim_index,
    counted,
)
from piquet.core.facts import (
    BlancheCalled,
    BlancheDiscards,
    BlancheShown,
    Fact,
    LeadAppointed,
    LeadLacked,
    LeadNamed,
    LeftoverWay,
    MissingAsked,
    MissingTold,
    PipsTold,
)
from piquet.core.play import play as _h_play
from piquet.core.rules import Leftovers, PointMeasure, Rules
from piquet.core.scoring import Kind, Tally
from piquet.core.words import (
    claim_words,
    declared,
    exchanged,
    further_held,
    holding_shown,
    leftovers,
    passed,
    replied,
    utterance,
)

if TYPE_CHECKING:
    from piquet.core.deal import Deal

__all__ = ["HANDLERS", "do_deal", "pack_dealing"]

# Each handler takes the old deal and the new deal's attribute dict, and fills it.


def _do_deal(old: Deal, d: DealState, size: int) -> None:
    deck = old.deck
    hands = [0, 0]
    for seat, positions in enumerate(_DEALT_FROM[size]):
        mask = 0
        for pos in positions:
            mask |= 1 << deck[pos]
        hands[seat] = mask
    d["packet"] = size
    d["hands"] = (hands[0], hands[1])
    d["dealt"] = (hands[0], hands[1])
    d["stock"] = deck[24:]
    rules_now: Rules = d["rules"]
    blanche_holders = [s for s in (ELDER, YOUNGER) if rules_now.holds_blanche(hands[s])]
    d["pending_blanche"] = tuple(blanche_holders)
    if blanche_holders:
        # carte blanche is declared at once ("he is to declare that he has Carte-blanche");
        # the number to discard follows, each holder in turn, where the rules have one
        rules: Rules = d["rules"]
        d["dialog"] = (
            *d["dialog"],
            *(utterance(BlancheCalled(s), rules) for s in blanche_holders),
        )
        if old.rules.blanche_number:
            d["phase"] = P_BLANCHE
            d["to_act"] = blanche_holders[0]
            return
    _start_exchange(d)


_DEALT_FROM: Final[dict[int, tuple[tuple[int, ...], tuple[int, ...]]]] = {
    size: (
        tuple(pos for pos in range(24) if (pos // size) % 2 == ELDER),
        tuple(pos for pos in range(24) if (pos // size) % 2 == YOUNGER),
    )
    for size in (1, 2, 3, 4, 6, 12)
}
"""The places in the pack of each role's twelve cards: the dealer (younger) deals to elder
first, packet by packet."""


def pack_dealing(elder: int, younger: int, stock: Sequence[int], size: int) -> list[int]:
    """The pack order (top first) that deals the hands ``elder`` and ``younger`` (masks)
    by packets of ``size``, with ``stock`` (top first) below them: the inverse of the deal."""
    out = [0] * 24
    for places, hand in zip(_DEALT_FROM[size], (elder, younger), strict=True):
        for place, card in zip(places, mask_cards(hand), strict=True):
            out[place] = card
    return [*out, *stock]


def _h_deal(old: Deal, d: DealState, action: DealBy) -> None:
    _do_deal(old, d, action.size)


def _h_blanche(old: Deal, d: DealState, action: AnnounceBlanche) -> None:
    seat = old.to_act
    assert seat is not None, "a handler runs once the action is checked: someone is to act"
    b = list(old.blanche)
    b[seat] = action.discards
    d["blanche"] = (b[0], b[1])
    d["dialog"] = (*old.dialog, utterance(BlancheDiscards(seat, action.discards), old.rules))
    pending = tuple(s for s in d["pending_blanche"] if s != seat)
    d["pending_blanche"] = pending
    if pending:
        d["to_act"] = pending[0]
    else:
        _start_exchange(d)


def _start_exchange(d: DealState) -> None:
    b = d["blanche"]
    steps: list[ExchangeStep]
    if not d["rules"].blanche_number:
        # no number announced (Rubicon): a blanche is shown, and the exchange goes on as
        # usual; younger shows his once elder has exchanged, then takes what he will of the rest
        dealt = d["dealt"]
        holds = d["rules"].holds_blanche
        steps = [_SHOW_ELDER] if holds(dealt[ELDER]) else []
        steps.append(_PLAIN_EXCHANGE[0])
        if holds(dealt[YOUNGER]):
            steps.append(_SHOW_YOUNGER)
        steps.append(_PLAIN_EXCHANGE[1])
    elif b[ELDER] >= 0:
        # elder's blanche: the other discards first, then elder shows, discards, takes
        steps = [
            ExchangeStep(_DISCARD_ONLY, YOUNGER),
            ExchangeStep(_SHOW, ELDER),
            ExchangeStep(_DISCARD, ELDER),
        ]
        if b[YOUNGER] >= 0:
            steps.append(ExchangeStep(_SHOW, YOUNGER))
        steps.append(ExchangeStep(_TAKE, YOUNGER))
    elif b[YOUNGER] >= 0:
        steps = [
            ExchangeStep(_DISCARD, ELDER),
            ExchangeStep(_SHOW, YOUNGER),
            ExchangeStep(_DISCARD, YOUNGER),
        ]
    else:
        steps = list(_PLAIN_EXCHANGE)
    d["exchange_steps"] = tuple(steps)
    d["phase"] = P_EXCHANGE
    _run_exchange(d)


def _run_exchange(d: DealState) -> None:
    """Carry out automatic exchange steps until one needs a player."""
    while d["exchange_steps"]:
        kind, seat = d["exchange_steps"][0]
        if kind is _DISCARD or kind is _DISCARD_ONLY:
            d["to_act"] = seat
            return
        d["exchange_steps"] = d["exchange_steps"][1:]
        if kind is _SHOW:
            dealt = d["dealt"][seat]
            shown = list(d["shown"])
            shown[seat] |= dealt
            d["shown"] = (shown[0], shown[1])
            rules: Rules = d["rules"]
            d["dialog"] = (*d["dialog"], utterance(BlancheShown(seat, dealt), rules))
            counts = rules.blanche_counted(
                rules.holds_blanche(d["dealt"][0]), rules.holds_blanche(d["dealt"][1])
            )
            if counts[seat]:
                _count(d, seat, Kind.BLANCHE, rules.blanche_value, "carte blanche")
                if d["phase"] is P_OVER:
                    return
        elif kind is _TAKE:
            _take(d, seat, d["pending_take"])
    _end_exchange(d)


def _take(d: DealState, seat: int, n: int) -> None:
    stock = d["stock"]
    got = 0
    for i in stock[:n]:
        got |= 1 << i
    d["stock"] = stock[n:]
    hands = list(d["hands"])
    hands[seat] |= got
    d["hands"] = (hands[0], hands[1])
    taken = list(d["taken"])
    taken[seat] |= got
    d["taken"] = (taken[0], taken[1])


def _h_discard(old: Deal, d: DealState, action: Discard) -> None:
    kind, seat = old.exchange_steps[0]
    cards = action.cards.mask
    n = cards.bit_count()
    hands = list(old.hands)
    hands[seat] &= ~cards
    d["hands"] = (hands[0], hands[1])
    disc = list(old.discards)
    disc[seat] |= cards
    d["discards"] = (disc[0], disc[1])
    d["exchange_steps"] = old.exchange_steps[1:]
    rules = old.rules
    if kind is _DISCARD_ONLY:
        d["pending_take"] = n
        d["dialog"] = (*old.dialog, exchanged(seat, n, takes=False))
    else:
        _take(d, seat, n)
        d["dialog"] = (*old.dialog, exchanged(seat, n))
        if seat == ELDER:
            unused = rules.elder_max - n
            mask = 0
            for i in d["stock"][:unused]:
                mask |= 1 << i
            d["elder_leftovers"] = mask
    _run_exchange(d)


def _end_exchange(d: DealState) -> None:
    rules: Rules = d["rules"]
    left = 0
    for i in d["stock"]:
        left |= 1 << i
    d["leftovers"] = left
    mode = rules.younger_leftovers
    if left and mode in (Leftovers.ELDER_NAMES_SUIT, Leftovers.ELDER_NAMES_CARD):
        d["leftover_look"] = (False, True)
        d["phase"] = P_LEFTOVERS
        d["to_act"] = ELDER
        return
    if left and mode in (Leftovers.YOUNGER_TURNS_UP, Leftovers.YOUNGER_LOOKS):
        d["phase"] = P_LEFTOVERS
        d["to_act"] = YOUNGER
        return
    _start_declarations(d)


def _h_leftover(old: Deal, d: DealState, action: Leftover) -> None:
    seat = old.to_act
    assert seat is not None, "a handler runs once the action is checked: someone is to act"
    look = action.choice is LeftoverChoice.LOOK
    rules = old.rules
    mode = rules.younger_leftovers
    if seat == ELDER:
        line = leftovers(ELDER, LeftoverWay.ELDER_DECLINES)
    elif mode is Leftovers.YOUNGER_TURNS_UP:
        d["leftover_look"] = (look, look)
        if look:
            line = leftovers(YOUNGER, LeftoverWay.TURNED_UP, old.leftovers)
        else:
            line = leftovers(YOUNGER, LeftoverWay.FACE_DOWN)
    else:
        # younger looks; elder may look after playing his first card
        d["leftover_look"] = (False, look)
        line = leftovers(YOUNGER, LeftoverWay.LOOKED if look else LeftoverWay.UNSEEN)
    d["dialog"] = (*old.dialog, line)
    _start_declarations(d)


def _h_name(old: Deal, d: DealState, action: NameLead) -> None:
    rule = action.lead
    lacks = not old.hands[ELDER] & rule.mask
    d["lead_rule"] = rule
    d["leftover_look"] = (True, True)
    rules = old.rules
    lines = [utterance(LeadNamed(ELDER, rule), rules)]
    if lacks:
        lines.append(utterance(LeadLacked(ELDER, rule), rules))
        d["phase"] = P_APPOINT
        d["to_act"] = YOUNGER
        d["dialog"] = (*old.dialog, *lines)
        return
    d["dialog"] = (*old.dialog, *lines)
    _start_declarations(d)


def _h_appoint(old: Deal, d: DealState, action: Appoint) -> None:
    rule = action.lead
    d["lead_rule"] = rule
    d["dialog"] = (*old.dialog, utterance(LeadAppointed(YOUNGER, rule), old.rules))
    _start_declarations(d)


def _start_declarations(d: DealState) -> None:
    d["phase"] = P_DECLARE
    d["to_act"] = ELDER
    d["cls"] = DeclClass.POINT
    d["step"] = S_ELDER
    d["elder_claim"] = None
    d["revealed"] = False


def _claim_of(d: DealState, seat: int, cls: DeclClass, cards: int) -> Claim:
    return claim_index(d["hands"][seat], cls, d["rules"])[cards]


def _say(d: DealState, line: Utterance) -> None:
    d["dialog"] = (*d["dialog"], line)


def _tell(d: DealState, fact: Fact) -> None:
    d["dialog"] = (*d["dialog"], utterance(fact, d["rules"]))


def _h_declare(old: Deal, d: DealState, action: Declare) -> None:
    seat = old.to_act
    assert seat is not None, "a handler runs once the action is checked: someone is to act"
    cls = action.cls
    rules = old.rules
    claim = _claim_of(d, seat, cls, action.cards.mask)
    if seat == ELDER and old.step is S_ELDER:
        d["elder_claim"] = claim
        d["revealed"] = False
        partial = cls is DeclClass.POINT and rules.point_measure is PointMeasure.CARDS
        _say(d, declared(ELDER, claim, rules, full=not partial))
        d["step"] = S_ANSWER
        d["to_act"] = YOUNGER
        return
    # younger declares what wins the class
    _say(d, declared(YOUNGER, claim, rules))
    _win_class(d, YOUNGER, claim)


def _h_pass(old: Deal, d: DealState, action: Pass) -> None:
    seat = old.to_act
    assert seat is not None, "a handler runs once the action is checked: someone is to act"
    cls = old.cls
    _say(d, passed(seat, cls))
    rules = old.rules
    if seat == ELDER:
        d["elder_claim"] = None
        if rules.younger_declares_after_lead:
            d["deferred"] = (*old.deferred, _new_tuple(Deferred, (cls, None, False)))
            _next_class(d)
        else:
            d["step"] = S_YOUNGER
            d["to_act"] = YOUNGER
        return
    # younger passes a class elder passed: nobody counts it
    _set_result(d, ClassResult(None, (), 0))


def _h_answer(old: Deal, d: DealState, action: Answer) -> None:
    claim = old.elder_claim
    assert claim is not None
    cls = old.cls
    rules = old.rules
    reply = action.reply
    if reply is Reply.MAKING:
        _say(d, replied(YOUNGER, cls, reply))
        _tell(d, PipsTold(ELDER, cls, claim.pips))
        d["revealed"] = True
        return
    if reply is Reply.GOOD:
        _say(d, replied(YOUNGER, cls, reply))
        _win_class(d, ELDER, claim)
        return
    if reply is Reply.EQUAL:
        _say(d, replied(YOUNGER, cls, reply))
        _set_result(d, ClassResult(None, (), 0, True))
        return
    _say(d, replied(YOUNGER, cls, reply))
    partial = old._partial()
    if rules.younger_declares_after_lead:
        d["deferred"] = (*old.deferred, _new_tuple(Deferred, (cls, claim.key, partial)))
        _next_class(d)
    else:
        d["step"] = S_YOUNGER
        d["to_act"] = YOUNGER


def _win_class(d: DealState, seat: Role, claim: Claim) -> None:
    rules: Rules = d["rules"]
    held, points = counted(d["hands"][seat], claim, rules)
    cls = claim.cls
    show = (rules.show_point, rules.show_sequences, rules.show_sets)[cls]
    cards = 0
    for h in held:
        cards |= h.cards
    extras = [h for h in held if h.cards != claim.cards]
    if extras:
        _say(d, further_held(seat, cls, extras, rules))
    if show:
        shown = list(d["shown"])
        shown[seat] |= cards
        d["shown"] = (shown[0], shown[1])
        _say(d, holding_shown(seat, cls, cards))
    _set_result(d, ClassResult(seat, tuple(held), points))


def _set_result(d: DealState, result: ClassResult) -> None:
    rules: Rules = d["rules"]
    late = bool(d["deferred"]) and d["trick_lead"] is not None
    cls = d["deferred"][0].cls if late else d["cls"]
    r0, r1, r2 = d["results"]
    if cls is DeclClass.POINT:
        r0 = result
    elif cls is DeclClass.SEQUENCE:
        r1 = result
    else:
        r2 = result
    d["results"] = (r0, r1, r2)
    _commit(d)
    if d["phase"] is P_OVER:
        return
    if (
        cls == DeclClass.SET
        and rules.ask_missing
        and result.winner is not None
        and any(h.size == 3 for h in result.holdings)
    ):
        d["step"] = S_QUESTION
        d["asker"] = OTHER[result.winner]
        d["to_act"] = OTHER[result.winner]
        d["question_late"] = late
        return
    d["question_late"] = False
    _after_class(d, late)


def _after_class(d: DealState, late: bool) -> None:
    if late:
        d["deferred"] = d["deferred"][1:]
        if d["deferred"]:
            d["to_act"] = YOUNGER
            d["step"] = S_YOUNGER
            d["cls"] = d["deferred"][0].cls
            return
        _commit(d)
        if d["phase"] is P_OVER:
            return
        d["phase"] = P_PLAY
        d["to_act"] = YOUNGER
        return
    _next_class(d)


def _h_question(old: Deal, d: DealState, action: Question) -> None:
    asker = old.asker
    holder = OTHER[asker]
    result = old.results[DeclClass.SET]
    assert result is not None
    if action.ask:
        _tell(d, MissingAsked(asker))
        for h in result.holdings:
            if h.size != 3:
                continue
            rank = h.top
            missing = next(s for s in range(4) if not h.cards >> (9 * s + rank - 6) & 1)
            card = Card.from_index(9 * missing + rank - 6)
            if not old.discards[holder] & card.bit:
                # the rule is about a card laid out; none of this rank was
                _tell(d, MissingTold(holder, rank))
                continue
            if old.rules.show_missing:
                # 1754: "if he requires it, you must shew him which you laid out"
                shown = list(d["shown"])
                shown[holder] |= card.bit
                d["shown"] = (shown[0], shown[1])
                _tell(d, MissingTold(holder, rank, card.index, shown=True))
            else:
                _tell(d, MissingTold(holder, rank, card.index))
    _after_class(d, old.question_late)


def _next_class(d: DealState) -> None:
    d["elder_claim"] = None
    d["revealed"] = False
    cls = d["cls"]
    if cls is not DeclClass.SET:
        d["cls"] = _CLASSES[cls + 1]
        d["step"] = S_ELDER
        d["to_act"] = ELDER
        return
    d["phase"] = P_PLAY
    d["to_act"] = ELDER
    d["leader"] = ELDER
    _commit(d)


_CLASSES: Final = tuple(DeclClass)
_DISCARD: Final = ExchangeKind.DISCARD
_DISCARD_ONLY: Final = ExchangeKind.DISCARD_ONLY
_SHOW: Final = ExchangeKind.SHOW
_TAKE: Final = ExchangeKind.TAKE
_PLAIN_EXCHANGE: Final = (ExchangeStep(_DISCARD, ELDER), ExchangeStep(_DISCARD, YOUNGER))
_SHOW_ELDER: Final = ExchangeStep(_SHOW, ELDER)
_SHOW_YOUNGER: Final = ExchangeStep(_SHOW, YOUNGER)
_new_tuple: Final = tuple.__new__  # a named tuple without its constructor's Python-level call
_CLASS_KIND: Final = (Kind.POINT, Kind.SEQUENCES, Kind.SETS)


def _commit(d: DealState) -> None:
    """Count resolved classes in order, then any held play events."""
    rules: Rules = d["rules"]
    while d["committed"] < 3:
        res = d["results"][d["committed"]]
        if res is None:
            return
        if res.winner is not None and res.points:
            # as said aloud (no suit); a point not shown keeps its pips unless they were said
            note = "; ".join(claim_words(h, rules, full=rules.show_point) for h in res.holdings)
            _count(d, res.winner, _CLASS_KIND[d["committed"]], res.points, note)
            if d["phase"] is P_OVER:
                return
        d["committed"] += 1
    held = d["held_play"]
    if held:
        d["held_play"] = ()
        for seat, kind, pts, note in held:
            _count(d, seat, kind, pts, note)
            if d["phase"] is P_OVER:
                return


def _count(d: DealState, seat: Role, kind: Kind, points: int, note: str) -> None:
    tally: Tally = d["tally"]
    new = tally.add(seat, kind, points, note, d["rules"], d["start"], d["target"])
    d["tally"] = new
    if new.reached is not None:
        d["phase"] = P_OVER
        d["to_act"] = None


HANDLERS: Final[dict[type, Any]] = {
    DealBy: _h_deal,
    AnnounceBlanche: _h_blanche,
    Discard: _h_discard,
    Leftover: _h_leftover,
    NameLead: _h_name,
    Appoint: _h_appoint,
    Declare: _h_declare,
    Pass: _h_pass,
    Answer: _h_answer,
    Question: _h_question,
    Play: _h_play,
}


do_deal = _do_deal
