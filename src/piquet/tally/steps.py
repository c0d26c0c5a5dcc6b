"""The tally's entries as steps, and the match they fold to: each step replayed through the
engine on a pack rebuilt from what the entries have told so far (a mistake's penalty and a
correction as steps too), and a step read back from a record."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from piquet.core.actions import (
    Action,
    Discard,
    parse_action,
)
from piquet.core.cards import CardSet, mask_cards, pack_mask
from piquet.core.deal import Phase
from piquet.core.declarations import DeclClass
from piquet.core.errors import IllegalActionError, RecordError
from piquet.core.match import Match
from piquet.core.penalties import Mistake, Penalty
from piquet.core.penalties import counted as penalized
from piquet.core.penalties import verify as verify_penalty
from piquet.core.roles import ROLE_NAMES, Role
from piquet.core.rules import (
    Correction,
    Rules,
)
from piquet.core.transitions import pack_dealing

_ROLE_NAMES: Final = ROLE_NAMES
_SOME_CLASS: Final = {Mistake.FALSE_CLAIM: None, Mistake.RENOUNCE: None,
                      Mistake.NOT_SHOWN: None}


# ====================================================================== steps
@dataclass(frozen=True, slots=True)
class _Step:
    """One accepted entry, normalized: what the record holds and the replay folds."""

    kind: str
    """``dealer``, ``packet``, ``hand``, ``exchange``, ``take``, ``action``, ``penalty`` (a
    mistake of the table: ``text`` the mistake, ``value`` the class not shown or -1) or
    ``correct`` (``value`` the class whose words are taken back)."""
    role: int = -1
    value: int = 0
    cards: tuple[int, ...] = ()
    text: str = ""

    def to_json(self) -> list[Any]:
        if self.kind == "dealer" or self.kind == "packet":
            return [self.kind, self.value]
        if self.kind == "hand":
            return ["hand", _ROLE_NAMES[self.role], str(CardSet(self.value))]
        if self.kind == "exchange":
            out: list[Any] = ["exchange", _ROLE_NAMES[self.role], str(CardSet(self.value))]
            if self.cards:
                out.append(_order_text(self.cards))
            return out
        if self.kind == "take":
            return ["take", _ROLE_NAMES[self.role], _order_text(self.cards)]
        if self.kind == "penalty":
            out = ["penalty", _ROLE_NAMES[self.role], self.text]
            if self.value >= 0:
                out.append(DeclClass(self.value).label)
            return out
        if self.kind == "correct":
            return ["correct", _ROLE_NAMES[self.role], DeclClass(self.value).label]
        return ["action", self.text]


def _order_text(cards: Sequence[int]) -> str:
    return " ".join(str(CardSet(1 << c)) for c in cards)


def _ordered(text: str) -> tuple[int, ...]:
    """Cards in the order written (``CardSet.parse`` checks each and refuses repeats)."""
    text = text.strip()  # a refusal quotes the cards as entered, not the spaces around them
    CardSet.parse(text)
    from piquet.core.cards import Card

    tokens = [t for t in re.split(r"[\s,;]+", text.strip()) if t]
    out: list[int] = []
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        if len(tok) == 1 and i + 1 < len(tokens) and len(tokens[i + 1]) == 1:
            tok += tokens[i + 1]
            i += 1
        out.append(Card.parse(tok).index)
        i += 1
    return tuple(out)


# ====================================================================== the fold
@dataclass(frozen=True, slots=True)
class _Draft:
    """The current deal as entered: who deals, the hands, the cards taken, the actions."""

    dealer: int | None = None
    packet: int | None = None
    hands: tuple[int, int] = (0, 0)
    taken: tuple[tuple[int, ...] | None, tuple[int, ...] | None] = (None, None)
    actions: tuple[Action, ...] = ()
    started: bool = False
    penalties: tuple[Penalty, ...] = ()
    """The mistakes of the table recorded in this deal: its count follows them."""


def _deck(rules: Rules, draft: _Draft, packet: int) -> list[int]:
    """A pack order that deals the entered hands and puts the cards taken on top of the stock."""
    known = [c for t in draft.taken if t for c in t]
    rest = mask_cards(
        pack_mask(rules) & ~draft.hands[0] & ~draft.hands[1] & ~sum(1 << c for c in known)
    )
    # elder takes from the top, younger the next cards (elder's unused ones first);
    # cards not yet known to have been taken keep their places in any order
    stock = [*(draft.taken[0] or ()), *(draft.taken[1] or ()), *rest]
    return pack_dealing(draft.hands[0], draft.hands[1], stock, packet)


@dataclass(frozen=True, slots=True)
class _State:
    match: Match
    base: Match
    """The match as it stood when the current deal began."""
    draft: _Draft
    ended: _State | None = None
    """The deal that ended last, as it was entered (its base and draft): a penalty found
    after its end, before the next deal's cards are entered, is counted in it."""


def _dealt(state: _State, rules: Rules) -> Match:
    """The match with the current deal freshly dealt from the draft's cards."""
    base = state.base
    draft = state.draft
    dealer = draft.dealer if draft.dealer is not None else base.dealer
    if dealer not in base.in_game:
        raise IllegalActionError(f"player {dealer + 1} is not in this game")
    packet = draft.packet if draft.packet is not None else rules.packet_sizes[0]
    return base.with_pack(_deck(rules, draft, packet), dealer=dealer, packet=packet)


def _install(state: _State, rules: Rules) -> _State:
    """Rebuild the current deal from the draft: a fresh pack, the actions replayed."""
    base = state.base
    draft = state.draft
    m = _dealt(state, rules)
    if not draft.penalties or m.deal is None:
        for action in draft.actions:
            m = m.apply(action)
        return _State(m, base, draft, state.ended)
    # the deal's count follows the penalties: played on the deal, counted again at its end
    deal = m.deal
    for action in draft.actions:
        deal = deal.apply(action)
    if deal.is_over:
        deal = deal.rescored(penalized(deal, draft.penalties))
    return _State(m.with_deal(deal), base, draft, state.ended)


def _fold(rules: Rules, start: Match, steps: Sequence[_Step]) -> _State:
    state = _State(start, start, _Draft())
    for step in steps:
        state = _apply_step(state, step, rules)
    return state


def _apply_step(state: _State, step: _Step, rules: Rules) -> _State:
    draft = state.draft
    if step.kind == "penalty":
        return _penalty_step(state, step, rules)
    if state.match.finished:
        raise IllegalActionError("the match is over: nothing more can be entered (undo, or save)")
    if step.kind in ("dealer", "packet", "hand"):
        if draft.started:
            raise IllegalActionError(
                f"the cards of this deal are already entered; a {step.kind} entry comes "
                "before them (undo to change them)"
            )
        if step.kind == "dealer":
            return replace(state, draft=replace(draft, dealer=step.value))
        if step.kind == "packet":
            if step.value not in rules.packet_sizes:
                raise IllegalActionError(
                    f"{rules.name} deals by {', '.join(map(str, rules.packet_sizes))}, "
                    f"not {step.value}"
                )
            return replace(state, draft=replace(draft, packet=step.value))
        hands = list(draft.hands)
        other = hands[1 - step.role]
        if step.value & other:
            raise IllegalActionError(
                f"{CardSet(step.value & other)} cannot be dealt to both players"
            )
        hands[step.role] = step.value
        draft = replace(draft, hands=(hands[0], hands[1]))
        if hands[0] and hands[1]:
            draft = replace(draft, started=True)
            # (a carte blanche shown as it is dealt may end the deal, and the game, here)
            return _after(_install(replace(state, draft=draft), rules))
        return replace(state, draft=draft)
    if not draft.started:
        raise IllegalActionError("enter the twelve cards dealt to elder and to younger first")
    deal = state.match.deal
    assert deal is not None
    if step.kind == "take":
        taken = list(draft.taken)
        taken[step.role] = step.cards
        draft = replace(draft, taken=(taken[0], taken[1]))
        return _after(_install(replace(state, draft=draft), rules))
    if step.kind == "exchange":
        taken = list(draft.taken)
        if step.cards:
            taken[step.role] = step.cards
        draft = replace(
            draft,
            taken=(taken[0], taken[1]),
            actions=(*draft.actions, Discard(CardSet(step.value))),
        )
        return _after(_install(replace(state, draft=draft), rules))
    if step.kind == "correct":
        return _correct_step(state, step, rules)
    action = parse_action(step.text)
    draft = replace(draft, actions=(*draft.actions, action))
    if draft.penalties:  # the deal's end is counted with them: entered again whole
        return _after(_install(replace(state, draft=draft), rules))
    new_match_state = state.match.apply(action)
    return _after(_State(new_match_state, state.base, draft, state.ended))


def _after(state: _State) -> _State:
    """Start a new draft when the deal just ended."""
    m = state.match
    if m.finished:
        return state
    if len(m.deals) > len(state.base.deals):
        # the deal is over and settled: the next deal begins from here (the deal kept, for
        # a mistake found after it)
        return _State(m, m, _Draft(), replace(state, ended=None))
    return state


def _penalty_step(state: _State, step: _Step, rules: Rules) -> _State:
    """Record a mistake of the table in the deal in play, or in the deal that ended last
    while nothing of the next is entered (or the match is over): its count follows."""
    draft = state.draft
    if draft.started and not state.match.finished:
        target = state  # the deal in play
    elif state.match.finished and draft.started:
        target = state  # the match ended in this deal
    elif draft == _Draft() and state.ended is not None:
        target = state.ended  # found out after the deal, before the next deal's cards
    else:
        raise IllegalActionError(
            "a mistake is recorded in its deal, or after it before the next deal's cards "
            "are entered: " + ("no deal has been entered yet" if state.ended is None
                              else "the next deal's entries have begun (undo them first)")
        )
    penalty = Penalty(Mistake(step.text), Role(step.role),
                      DeclClass(step.value) if step.value >= 0 else None)
    deal = target.match.deal if target is state and not state.match.finished else None
    if deal is None:
        deal = target.match.last_deal
    assert deal is not None, "a deal was entered"
    verify_penalty(deal, penalty, target.draft.penalties)
    draft = replace(target.draft, penalties=(*target.draft.penalties, penalty))
    return _after(_install(replace(target, draft=draft), rules))


def _correct_step(state: _State, step: _Step, rules: Rules) -> _State:
    """Take back the words of a class of the declarations (and all after them), to be said
    again: where the text lets a word be recalled, by a player who has played no card."""
    deal = state.match.deal
    assert deal is not None
    cls = DeclClass(step.value)
    who = _ROLE_NAMES[step.role]
    if rules.call_correction is Correction.NONE:
        raise IllegalActionError(
            f"under {rules.name} the first word stands: a call is not corrected "
            "(call_correction)"
        )
    played_any = bool(deal.tricks) or deal.trick_lead is not None
    played_his = bool(deal.tricks) or (deal.trick_lead is not None and deal.leader == step.role)
    if played_his or (played_any and rules.call_correction is Correction.BEFORE_ANY_CARD):
        raise IllegalActionError(
            f"{'' if played_his else 'a card is played: '}{who}'s words stand"
            + (" (he has played a card)" if played_his else "")
        )
    # the first action of the class's declarations, replayed from the deal's start
    d = _dealt(state, rules).deal
    assert d is not None
    start = None
    spoke = False
    for i, action in enumerate(state.draft.actions):
        if d.phase is Phase.DECLARE and d.cls == cls:
            if start is None:
                start = i
            spoke = spoke or d.to_act == step.role
        d = d.apply(action)
    if start is None or not spoke:
        raise IllegalActionError(f"{who} has said nothing in the {cls.label} to take back")
    draft = replace(state.draft, actions=state.draft.actions[:start])
    return _install(replace(state, draft=draft), rules)

_SHAPES: Final = {
    "penalty": '["penalty", "elder" or "younger", "false-claim", "not-shown" or "renounce", '
    'and for not-shown "point", "sequence" or "set"]',
    "correct": '["correct", "elder" or "younger", "point", "sequence" or "set"]',
    "hand": '["hand", "elder" or "younger", "CARDS"]',
    "exchange": '["exchange", "elder" or "younger", "CARDS LAID OUT", "CARDS TAKEN"]',
    "take": '["take", "elder" or "younger", "CARDS"]',
    "action": '["action", "ACTION"] (such as "play:QH")',
}


def _step_from_json(entry: Any) -> _Step:
    if not isinstance(entry, list) or not entry or not isinstance(entry[0], str):
        raise RecordError(f'an entry is a list such as ["action", "play:QH"], not {entry!r:.80}')
    kind = entry[0]
    if kind in ("dealer", "packet"):
        if len(entry) != 2 or type(entry[1]) is not int:
            raise RecordError(f'a {kind} entry is ["{kind}", NUMBER], not {entry!r:.80}')
        if kind == "dealer" and entry[1] not in (0, 1):
            shown = f"{entry[1]!r:.12}"
            raise RecordError(f"the dealer is player 0 or 1 (of the tally's two), not {shown}")
        return _Step(kind, value=entry[1])
    shape = _SHAPES.get(kind)
    if shape is None:
        raise RecordError(f"unknown entry kind {kind!r:.40}; the kinds are dealer, packet, "
                          f"{', '.join(_SHAPES)}")
    lengths = {"exchange": (3, 4), "action": (2,), "penalty": (3, 4)}.get(kind, (3,))
    if (
        len(entry) not in lengths
        or not all(isinstance(x, str) for x in entry[1:])
        or (kind != "action" and entry[1] not in _ROLE_NAMES)
    ):
        article = "an" if kind[0] in "aeiou" else "a"
        raise RecordError(f"{article} {kind} entry is {shape}, not {entry!r:.80}")
    if kind == "hand":
        return _Step("hand", role=_ROLE_NAMES.index(entry[1]), value=CardSet.parse(entry[2]).mask)
    if kind == "exchange":
        cards = _ordered(entry[3]) if len(entry) > 3 else ()
        return _Step(
            "exchange",
            role=_ROLE_NAMES.index(entry[1]),
            value=CardSet.parse(entry[2]).mask if entry[2].strip() not in ("", "-") else 0,
            cards=cards,
        )
    if kind == "take":
        return _Step("take", role=_ROLE_NAMES.index(entry[1]), cards=_ordered(entry[2]))
    if kind in ("penalty", "correct"):
        mistakes = [m.value for m in Mistake]
        label = entry[-1] if kind == "correct" or len(entry) == 4 else None
        bad = (kind == "penalty" and (entry[2] not in mistakes or (
            (entry[2] == Mistake.NOT_SHOWN.value) != (len(entry) == 4))))
        if bad or (label is not None and label not in _CLASSES):
            raise RecordError(f"a {kind} entry is {shape}, not {entry!r:.80}")
        cls = int(_CLASSES[label]) if label is not None else -1
        role = _ROLE_NAMES.index(entry[1])
        if kind == "correct":
            return _Step("correct", role=role, value=cls)
        return _Step("penalty", role=role, value=cls, text=entry[2])
    if kind == "action":
        parse_action(entry[1])
        return _Step("action", text=entry[1])
    raise RecordError(f"unknown entry kind {kind!r}")

_CLASSES: Final = {"point": DeclClass.POINT, "sequence": DeclClass.SEQUENCE, "set": DeclClass.SET}
