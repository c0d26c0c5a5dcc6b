"""One deal of Piquet as an immutable state machine.

A :class:`Deal` is created from a rule set and a shuffled, cut pack
(:meth:`Deal.new`), and moves on by actions (:mod:`piquet.core.actions`): the deal
itself (packet size), carte blanche, the exchange, the leftovers of the stock,
the declarations dialog, the twelve tricks.  Seats inside a deal are roles:
``ELDER`` (0, the non-dealer, who exchanges, declares and leads first) and
``YOUNGER`` (1, the dealer).

Every action has ``verify`` (raises :class:`IllegalActionError` saying what is
wrong and what is allowed), ``can`` (bool) and ``apply`` (returns the new
deal; ``self`` is never changed).  :meth:`Deal.legal_actions` lists what the
seat to act may do, from what that seat may know.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache
from itertools import accumulate
from math import comb
from typing import Any, Final

from piquet.core import refusals
from piquet.core.actions import (
    PLAY,
    Action,
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
    declare_of,
    declare_options,
)
from piquet.core.cards import SUIT_CARDS as _SUIT_CARDS
from piquet.core.cards import SUIT_MASKS, Card, CardSet, NamedLead, Suit, mask_cards, pack
from piquet.core.dealtypes import (
    ELDER,
    P_APPOINT,
    P_BLANCHE,
    P_DEAL,
    P_DECLARE,
    P_EXCHANGE,
    P_LEFTOVERS,
    P_OVER,
    P_PLAY,
    ROLE_NAMES,
    S_ANSWER,
    S_ELDER,
    S_QUESTION,
    S_YOUNGER,
    YOUNGER,
    ClassResult,
    DealState,
    Deferred,
    ExchangeStep,
    HeldCount,
    Phase,
    Role,
    Step,
    Trick,
    Utterance,
)
from piquet.core.declarations import (
    Claim,
    DeclClass,
    claim_index,
    claims,
)
from piquet.core.errors import IllegalActionError
from piquet.core.rules import Leftovers, PointMeasure, Rules
from piquet.core.scoring import Event, Tally

__all__ = ["ELDER", "ROLE_NAMES", "YOUNGER", "ClassResult", "Deal", "Phase", "Step", "Trick",
           "Utterance"]


class Deal:
    """The state of one deal.  Immutable: every action returns a new ``Deal``.

    >>> from piquet.core.actions import parse_action
    >>> from piquet.core.cards import pack
    >>> from piquet.core.rules import PRESETS
    >>> d = Deal.new(PRESETS["rubicon"], pack(PRESETS["rubicon"]))  # an unshuffled pack
    >>> [str(a) for a in d.legal_actions()]
    ['deal:2', 'deal:3']
    >>> d.apply(parse_action("deal:2"))
    <Deal rubicon exchange elder to act | elder QS JS 8S 7S QH JH 8H 7H QD JD 8D 7D | ...>
    >>> d.apply(parse_action("play:QS"))
    Traceback (most recent call last):
    piquet.core.errors.IllegalActionError: QS: cards are not played yet; now younger ...
    """

    # The attributes, read-only; their meaning is documented on DealState (the same
    # fields, as the typed dict a transition fills; tests/test_typed_state.py keeps the two
    # lists equal, names and types).
    rules: Rules
    phase: Phase
    to_act: Role | None
    hands: tuple[int, int]
    dealt: tuple[int, int]
    discards: tuple[int, int]
    taken: tuple[int, int]
    stock: tuple[int, ...]
    deck: tuple[int, ...]
    packet: int | None
    start: tuple[int, int]
    target: int | None
    blanche: tuple[int, int]
    elder_leftovers: int
    leftovers: int
    leftover_look: tuple[bool, bool]
    lead_rule: NamedLead | None
    exchange_steps: tuple[ExchangeStep, ...]
    pending_take: int
    cls: DeclClass
    step: Step
    elder_claim: Claim | None
    revealed: bool
    asker: Role
    deferred: tuple[Deferred, ...]
    results: tuple[ClassResult | None, ClassResult | None, ClassResult | None]
    committed: int
    dialog: tuple[Utterance, ...]
    shown: tuple[int, int]
    tally: Tally
    held_play: tuple[HeldCount, ...]
    tricks: tuple[Trick, ...]
    trick_lead: int | None
    leader: Role
    won: tuple[int, int]
    _hist: tuple[Any, tuple[Role | None, Action]] | None
    pending_blanche: tuple[Role, ...]
    question_late: bool

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Deal is immutable; actions return a new Deal")

    # ------------------------------------------------------------------ create
    @classmethod
    def new(
        cls,
        rules: Rules,
        deck: Sequence[int],
        *,
        start: tuple[int, int] = (0, 0),
        target: int | None = None,
    ) -> Deal:
        """A deal about to be dealt from ``deck`` (card indices, top first).

        ``start`` is the game score of (elder, younger) before the deal and
        ``target`` the game's target (None: nothing ends the deal early).
        """
        deck_t = tuple(deck)
        if sorted(deck_t) != pack(rules):
            raise IllegalActionError(
                f"a {rules.deck_size}-card pack must hold each of its cards exactly once"
            )
        self = object.__new__(cls)
        d: DealState = _FRESH.copy()
        _SET_ATTR(self, "__dict__", d)
        d["rules"] = rules
        d["deck"] = deck_t
        d["start"] = start
        d["target"] = target if rules.game_ends_mid_deal else None
        if len(rules.packet_sizes) == 1:
            return self._deal_by(rules.packet_sizes[0])
        return self

    def _successor(self) -> tuple[Deal, DealState]:
        new = object.__new__(Deal)
        d = self._state().copy()
        d["_legal"] = None
        d["_play"] = None
        _SET_ATTR(new, "__dict__", d)
        return new, d

    def _state(self) -> DealState:
        """The attributes, as the typed record the transitions fill."""
        return self.__dict__  # type: ignore[return-value]  # a DealState, by construction

    def __repr__(self) -> str:
        """A short position line (every card, as a debugger wants it), e.g.
        ``<Deal rubicon play younger to act | elder AS KS QS | younger AH 9H 8H | stock 0 |
        tricks 9 (elder 5, younger 4) | points 41-17>``."""
        state = self._state()
        actor = "nobody to act" if state["to_act"] is None else (
            f"{ROLE_NAMES[state['to_act']]} to act")
        hands = " | ".join(
            f"{ROLE_NAMES[r]} {CardSet(state['hands'][r]) or '-'}" for r in (0, 1))
        won = state["won"]
        return (
            f"<Deal {state['rules'].name} {state['phase'].value} {actor} | {hands} | "
            f"stock {len(state['stock'])} | tricks {len(state['tricks'])} "
            f"(elder {won[0]}, younger {won[1]}) | points {self.scores[0]}-{self.scores[1]}>"
        )

    # ------------------------------------------------------------------ queries
    @property
    def history(self) -> tuple[tuple[Role | None, Action], ...]:
        """Every action taken in this deal, as (role, action), in order."""
        out: list[tuple[Role | None, Action]] = []
        node = self._hist
        while node is not None:
            node, entry = node
            out.append(entry)
        out.reverse()
        return tuple(out)

    @property
    def is_over(self) -> bool:
        return self.phase is P_OVER

    @property
    def scores(self) -> tuple[int, int]:
        """Points each role has counted in this deal so far (bonuses included)."""
        return self.tally.totals

    @property
    def events(self) -> tuple[Event, ...]:
        return self.tally.events

    @property
    def game_reached_by(self) -> Role | None:
        """The role that reached the game's target during this deal, if any."""
        reached = self.tally.reached
        return None if reached is None else _ROLES[reached]

    def rescored(self, tally: Tally) -> Deal:
        """This deal, over, counted as ``tally`` says instead of as it was played: a scorer's
        amendment at a real table, where a penalty of the texts that the engine does not
        model changes the count (:mod:`piquet.tally`).  The cards, the dialog and the play
        are unchanged.  Raises :class:`IllegalActionError` unless the deal is over."""
        if not self.is_over:
            raise IllegalActionError("only a deal that is over can be counted again")
        new, d = self._successor()
        d["tally"] = tally
        return new

    def hand(self, role: Role) -> CardSet:
        """The cards ``role`` holds now."""
        return CardSet(self.hands[role])

    # ------------------------------------------------------------------ legal actions
    def legal_actions(self) -> list[Action]:
        """Everything the seat to act may do now (empty when the deal is over)."""
        state: DealState = self.__dict__  # type: ignore[assignment]  # (no call: hot path)
        cached = state["_legal"]
        if cached is None:
            cached = self._legal_actions()
            state["_legal"] = cached  # the private cache of this state's legal actions
        return list(cached)

    def _legal_actions(self) -> list[Action]:
        phase = self.phase
        if phase is P_PLAY:
            return [PLAY[i] for i in self._playable()]
        if phase is P_OVER:
            return []
        if phase is P_DEAL:
            return [_DEAL_BY[n] for n in self.rules.packet_sizes]
        if phase is P_BLANCHE:
            lo, hi = self._blanche_range(self._actor())
            return [AnnounceBlanche(n) for n in range(lo, hi + 1)]
        if phase is P_EXCHANGE:
            lo, hi, fixed = self._discard_range()
            hand = mask_cards(self.hands[self._actor()])
            out: list[Action] = []
            from itertools import combinations

            sizes = [fixed] if fixed is not None else range(lo, hi + 1)
            for k in sizes:
                for combo in combinations(hand, k):
                    out.append(Discard(CardSet(sum(1 << i for i in combo))))
            return out
        if phase is P_LEFTOVERS:
            return self._leftover_actions()
        if phase is P_APPOINT:
            return self._appoint_actions()
        return self._declare_actions()

    def random_action(self, rng: random.Random) -> Action:
        """One legal action drawn uniformly at random (without listing discards)."""
        state: DealState = self.__dict__  # type: ignore[assignment]  # (no call: hot path)
        phase = state["phase"]
        if phase is P_PLAY:
            playable = state["_play"] or self._playable()
            n = len(playable)
            k = n.bit_length()
            r = rng.getrandbits(k)  # rng.randrange(n), drawn the same way
            while r >= n:
                r = rng.getrandbits(k)
            return PLAY[playable[r]]
        if phase is P_EXCHANGE:
            lo, hi, fixed = self._discard_range()
            hand = list(mask_cards(self.hands[self._actor()]))
            n = len(hand)
            if fixed is not None:
                k = fixed
            else:
                # each discard equally likely: a size in proportion to its number of discards
                bounds = _size_bounds(n, lo, hi)
                r = _below(rng, bounds[-1])
                k = lo
                while r >= bounds[k - lo]:
                    k += 1
            # the first k cards of a partial Fisher-Yates shuffle
            mask = 0
            for j in range(k):
                pick = j + _below(rng, n - j)
                hand[j], hand[pick] = hand[pick], hand[j]
                mask |= 1 << hand[j]
            return Discard(CardSet(mask))
        if phase is P_DECLARE and self.step is S_ELDER:
            mine = claims(self.hands[ELDER], self.cls, self.rules)
            k = _below(rng, len(mine) + 1)
            return _PASS if k == len(mine) else declare_of(mine[k])
        actions = self.__dict__["_legal"] or self.legal_actions()
        if not actions:
            raise IllegalActionError("the deal is over: there is nothing to do")
        return actions[_below(rng, len(actions))]

    def discard_range(self) -> tuple[int, int]:
        """(fewest, most) cards the seat to act may discard now (exchange phase)."""
        lo, hi, fixed = self._discard_range()
        return (fixed, fixed) if fixed is not None else (lo, hi)

    def _blanche_range(self, seat: int) -> tuple[int, int]:
        r = self.rules
        if seat == ELDER:
            return r.elder_min, r.elder_max
        lo = r.younger_min
        # up to what elder's announced number will leave, else what elder must leave
        elder_named = self.blanche[ELDER]
        hi = r.stock_size - (elder_named if elder_named >= 0 else r.elder_max)
        if r.younger_max:
            hi = min(hi, r.younger_max)
        return lo, hi

    def _discard_range(self) -> tuple[int, int, int | None]:
        r = self.rules
        seat = self._actor()
        fixed = self.blanche[seat] if self.blanche[seat] >= 0 else None
        if seat == ELDER:
            return r.elder_min, r.elder_max, fixed
        available = len(self.stock) - (self.blanche[ELDER] if self._younger_first() else 0)
        hi = min(available, r.younger_max) if r.younger_max else available
        return min(r.younger_min, hi), hi, fixed

    def _younger_first(self) -> bool:
        """Younger discards before elder (elder holds carte blanche)."""
        return self.blanche[ELDER] >= 0 and self.discards == (0, 0) and self.taken == (0, 0)

    def _leftover_actions(self) -> list[Action]:
        mode = self.rules.younger_leftovers
        decline = Leftover(LeftoverChoice.DECLINE)
        if mode is Leftovers.ELDER_NAMES_SUIT:
            return [NameLead(suit=s) for s in Suit] + [decline]
        if mode is Leftovers.ELDER_NAMES_CARD:
            deck = pack(self.rules)
            if not self.rules.appoint_if_card_lacked:
                # only a card he holds, or one of a suit he has none of (1754's case)
                hand = self.hands[ELDER]
                deck = [i for i in deck if hand >> i & 1 or not hand & SUIT_MASKS[i // 9]]
            return [NameLead(card=Card.from_index(i)) for i in deck] + [decline]
        return [Leftover(LeftoverChoice.LOOK), decline]

    def _appoint_actions(self) -> list[Action]:
        """What younger may appoint elder to lead: any suit, or any card but his own.  The
        texts restrict nothing ("he is obliged to play what Card the other shall appoint
        him", 1754; "that suit his opposite does appoint", Cotgrave), and records made
        with these choices replay; what elder may really hold, as far as younger knows,
        is :func:`piquet.core.view.appointable` (the book appoints only among it)."""
        if self.rules.younger_leftovers is Leftovers.ELDER_NAMES_SUIT:
            return [Appoint(suit=s) for s in Suit]
        own = self.hands[YOUNGER]
        deck = [i for i in pack(self.rules) if not own >> i & 1]
        return [Appoint(card=Card.from_index(i)) for i in deck]

    def _declare_actions(self) -> list[Action]:
        step = self.step
        cls = self.cls
        if step is S_QUESTION:
            return [_ASK, _NO_QUESTION]
        if step is S_ELDER:
            return [*declare_options(self.hands[ELDER], cls, self.rules), _PASS]
        if step is S_ANSWER:
            return [_ANSWERS[r._value_] for r in self._replies()]
        # younger declares
        beat, partial, may_pass = self._younger_terms()
        mine = claims(self.hands[YOUNGER], cls, self.rules)
        out: list[Action] = [declare_of(c) for c in mine if _beats(c.key, beat, partial)]
        if may_pass:
            out.append(_PASS)
        return out

    def _younger_terms(self) -> tuple[tuple[int, int] | None, bool, bool]:
        """What younger's declaration in the current class must beat, and if he may pass."""
        if self.phase is P_DECLARE and self.deferred and self._late():
            _, beat, partial = self.deferred[0]
            return beat, partial, beat is None
        claim = self.elder_claim
        if claim is None:
            return None, False, True
        return claim.key, self._partial(), False

    def _late(self) -> bool:
        """Younger is declaring after elder's first lead (deferred classes)."""
        return self.rules.younger_declares_after_lead and self.trick_lead is not None

    def _partial(self) -> bool:
        """Only the number of cards of elder's point is known (no "making" yet)."""
        return (
            self.cls is DeclClass.POINT
            and self.rules.point_measure is _BY_CARDS
            and not self.revealed
        )

    def _replies(self) -> list[Reply]:
        claim = self.elder_claim
        assert claim is not None
        # younger's claims come best first: the first tells "not good", the first not
        # better than elder's tells "equal" (or, before "making", the same number of cards)
        mine = claims(self.hands[YOUNGER], self.cls, self.rules)
        out = [Reply.GOOD]
        if self._partial():
            n = claim.key[0]
            if mine and mine[0].key[0] > n:
                out.append(Reply.NOT_GOOD)
            for c in mine:
                if c.key[0] <= n:
                    if c.key[0] == n:
                        out.append(Reply.MAKING)
                    break
            return out
        key = claim.key
        if mine and mine[0].key > key:
            out.append(Reply.NOT_GOOD)
        for c in mine:
            if c.key <= key:
                if c.key == key:
                    out.append(Reply.EQUAL)
                break
        return out

    def _playable(self) -> tuple[int, ...]:
        """The cards the seat to act may play (computed once per state)."""
        attrs: DealState = self.__dict__  # type: ignore[assignment]  # (no call: hot path)
        found = attrs["_play"]
        if found is not None:
            return found
        seat = attrs["to_act"]
        if seat is None:
            found = ()
        else:
            hand = attrs["hands"][seat]
            lead = attrs["trick_lead"]
            if lead is not None:
                suit = lead // 9
                cards = _SUIT_CARDS[suit][hand >> (9 * suit) & 0x1FF]
                found = cards if cards else mask_cards(hand)  # follow suit if you can
            elif not attrs["tricks"] and attrs["lead_rule"] is not None:
                named = attrs["lead_rule"].mask & hand  # bound to it if he holds it
                found = mask_cards(named if named else hand)
            else:
                found = mask_cards(hand)
        attrs["_play"] = found  # the private cache of this state's playable cards
        return found

    # ------------------------------------------------------------------ verify / can / apply
    def verify(self, action: Action) -> None:
        """Raise :class:`IllegalActionError` if ``action`` is not allowed now."""
        self._check(action)

    def can(self, action: Action) -> bool:
        try:
            self._check(action)
        except IllegalActionError:
            return False
        return True

    def apply(self, action: Action) -> Deal:
        """The deal after ``action`` by the seat to act (``self`` is unchanged)."""
        attrs: DealState = self.__dict__  # type: ignore[assignment]  # (no call: hot path)
        if not (type(action) is Play and attrs["phase"] is P_PLAY
                and action.card.index in (attrs["_play"] or self._playable())):
            self._check(action)
        return self._apply_legal(action)

    def _apply_legal(self, action: Action) -> Deal:
        """:meth:`apply` without the check, for an action of this state's
        :meth:`legal_actions` (allowed by construction): a caller that tries each of them
        in turn pays no second proof of it."""
        attrs: DealState = self.__dict__  # type: ignore[assignment]  # (no call: hot path)
        new = object.__new__(Deal)
        d = attrs.copy()  # a copy is far cheaper than filling a new object's dict
        d["_legal"] = None
        d["_play"] = None
        d["_hist"] = (attrs["_hist"], (attrs["to_act"], action))
        _SET_ATTR(new, "__dict__", d)
        HANDLERS[type(action)](self, d, action)
        return new

    # ------------------------------------------------------------------ checking
    def _actor(self) -> Role:
        """The role to act; refuses when nobody is (the deal is over)."""
        seat = self.to_act
        if seat is None:
            raise IllegalActionError("the deal is over: nobody is to act")
        return seat

    def _who(self) -> str:
        return ROLE_NAMES[self._actor()]

    def _check(self, action: Action) -> None:
        phase = self.phase
        if type(action) is Play and phase is P_PLAY and action.card.index in self._playable():
            return
        if phase is P_OVER:
            raise IllegalActionError("the deal is over: no more actions")
        if isinstance(action, Play):
            if phase is not P_PLAY:
                raise IllegalActionError(
                    f"{action.card}: cards are not played yet; now {self._doing()}"
                )
            playable = self._playable()
            if action.card.index not in playable:
                raise IllegalActionError(refusals.why_not_playable(self, action.card, playable))
            return
        if isinstance(action, Discard):
            if phase is not P_EXCHANGE:
                raise IllegalActionError(f"no discarding now; now {self._doing()}")
            lo, hi, fixed = self._discard_range()
            hand = self.hands[self._actor()]
            cards = action.cards.mask
            if cards & ~hand:
                missing = CardSet(cards & ~hand)
                raise IllegalActionError(
                    f"{self._who()} does not hold {missing}; the hand is {CardSet(hand)}"
                )
            n = cards.bit_count()
            if fixed is not None and n != fixed:
                raise IllegalActionError(
                    f"{self._who()} announced carte blanche with {fixed} to discard and is "
                    f"bound to that number, not {n}"
                )
            if not lo <= n <= hi:
                raise IllegalActionError(f"{self._who()} must discard {lo} to {hi} cards, not {n}")
            return
        if phase is P_EXCHANGE:
            # only a discard is allowed (and listing every discard would cost thousands)
            lo, hi = self.discard_range()
            raise IllegalActionError(
                f"{action}: not allowed now ({self._doing()}); "
                f"discard {lo} to {hi} cards, e.g. discard:7S 8S"
            )
        if phase is P_DECLARE:
            kind = type(action)
            if kind is Declare and self._declare_ok(action):  # type: ignore[arg-type]
                return
            if kind is Pass and (self.step is S_ELDER or (
                    self.step is S_YOUNGER and self._younger_terms()[2])):
                return
        legal = self.__dict__["_legal"] or self.legal_actions()
        if action in legal:
            return
        raise IllegalActionError(refusals.why_not(self, action, legal))

    def _declare_ok(self, action: Declare) -> bool:
        """A declaration the seat may make now (the quick check behind ``verify``)."""
        step = self.step
        if step is S_QUESTION or step is S_ANSWER or action.cls != self.cls:
            return False
        seat = ELDER if step is S_ELDER else YOUNGER
        claim = claim_index(self.hands[seat], action.cls, self.rules).get(action.cards.mask)
        if claim is None:
            return False
        if seat == ELDER:
            return True
        beat, partial, _ = self._younger_terms()
        return _beats(claim.key, beat, partial)

    def _doing(self) -> str:
        return refusals.doing(self)

    # ------------------------------------------------------------------ dealing
    def _deal_by(self, size: int) -> Deal:
        new, d = self._successor()
        do_deal(self, d, size)
        return new


_SET_ATTR: Final = object.__setattr__  # Deal's own __setattr__ refuses every change
_FRESH: Final = DealState(
    rules=Rules(),
    deck=(),
    start=(0, 0),
    target=None,
    _legal=None,
    _play=None,
    phase=P_DEAL,
    to_act=YOUNGER,
    hands=(0, 0),
    dealt=(0, 0),
    discards=(0, 0),
    taken=(0, 0),
    stock=(),
    packet=None,
    blanche=(-1, -1),
    elder_leftovers=0,
    leftovers=0,
    leftover_look=(False, False),
    lead_rule=None,
    exchange_steps=(),
    pending_take=0,
    cls=DeclClass.POINT,
    step=S_ELDER,
    elder_claim=None,
    revealed=False,
    asker=YOUNGER,
    deferred=(),
    results=(None, None, None),
    committed=0,
    dialog=(),
    shown=(0, 0),
    tally=Tally(),
    held_play=(),
    tricks=(),
    trick_lead=None,
    leader=ELDER,
    won=(0, 0),
    _hist=None,
    pending_blanche=(),
    question_late=False,
)
"""A new deal's attributes (the rule set, the pack, the start and the target are set by
:meth:`Deal.new`)."""
_ROLES: Final = tuple(Role)
_DEAL_BY: Final = {n: DealBy(n) for n in range(1, 13)}
_BY_CARDS: Final = PointMeasure.CARDS
_PASS: Final = Pass()
_ASK: Final = Question(True)
_NO_QUESTION: Final = Question(False)
_ANSWERS: Final = {r._value_: Answer(r) for r in Reply}
"""By value: an enum member's hash is a Python-level call."""
_CLASS: Final = tuple(DeclClass)
@cache
def _size_bounds(n: int, lo: int, hi: int) -> tuple[int, ...]:
    """Cumulative numbers of discards of ``lo`` .. ``hi`` cards from ``n``."""
    return tuple(accumulate(comb(n, k) for k in range(lo, hi + 1)))


def _below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n >= 1``, the same draws without its checks."""
    k = n.bit_length()
    r = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def _beats(key: tuple[int, int], beat: tuple[int, int] | None, partial: bool) -> bool:
    if beat is None:
        return True
    if partial:
        return key[0] > beat[0]
    return key > beat



from piquet.core.transitions import HANDLERS, do_deal  # noqa: E402  (they need Deal's types)
