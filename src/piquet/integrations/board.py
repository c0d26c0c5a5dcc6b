"""The play of the cards on the kernel's board: the adapters' fast path.

Once a deal's every decision but the cards is made (the exchange, the declarations, the
named lead, and where younger's declarations wait for elder's first lead, those too), an
:class:`~piquet.integrations.actions.Episode` plays the cards on the compiled kernel's
resumable board (:func:`piquet.fast.kernel.run_deal` with the deal's history as forced
choices, stopped at the next card; :func:`piquet.fast.kernel.resume` for each card): who
is to play, the legal cards, the cards played, the trick, the tricks won, the score events
and the points are read from the board's arrays.  A :class:`CardRun` is that board, held
immutable (each card plays on a copy), with the engine's deal where it began.

What a seat sees during the run (:meth:`CardRun.seat_view`) is the seat's
:class:`~piquet.core.view.DealView` at the run's start with the fields the play changes
read from the board: the hand is the seat's own, the other's cards only as played; nothing
hidden enters (the board's other hand and the stock are never read into a view).  The
events counted during the run carry no ``note`` (the adapters' strings and tensors do not
read it); :attr:`CardRun.deal` is the engine's deal at the same point (the run's cards
replayed through :meth:`~piquet.core.deal.Deal.apply`, worked out only when asked).

:func:`piquet.integrations.check.differ_episode` compares the run with the engine path at
every step.
"""

from __future__ import annotations

from typing import Final, NamedTuple

import numpy as np
import numpy.typing as npt

from piquet.core.actions import PLAY
from piquet.core.cards import CardSet, NamedLead, mask_cards
from piquet.core.deal import Deal, Phase, Utterance
from piquet.core.dealtypes import Trick
from piquet.core.roles import Role
from piquet.core.rules import Rules
from piquet.core.scoring import Event
from piquet.core.view import DealView, _stock_seen, deal_view, played_by
from piquet.fast import kernel as K
from piquet.fast.engine import (
    FLAT_EV,
    FLAT_INFO,
    FLAT_PS,
    FLAT_SIZE,
    KINDS,
    flat_resume,
    flat_start,
    trace_of,
)
from piquet.fast.params import compile_rules

__all__ = ["CardRun", "SeatParts", "can_run", "deal_parts"]

_ROLES: Final = tuple(Role)  # by number: the board writes a role as its number
_O_EV: Final = FLAT_EV
_O_PS: Final = FLAT_PS
_O_INFO: Final = FLAT_INFO
_SIZE: Final = FLAT_SIZE
assert (K.I_STATUS, K.I_SEAT, K.I_ALLOWED) == (0, 1, 2)
assert (K.PS_HALF, K.PS_LED, K.PS_LEADER, K.PS_WON0) == (6, 7, 8, 9)

Board = npt.NDArray[np.int64]


def can_run(deal: Deal) -> bool:
    """Only cards are left to decide in ``deal`` (its play has begun, and no declaration of
    younger's still waits for elder's first lead)."""
    if deal.phase is not Phase.PLAY:
        return False
    return not (deal.deferred and not deal.tricks and deal.trick_lead is None
                and deal.rules.younger_declares_after_lead)


class SeatParts(NamedTuple):
    """What the adapters' tensors read of a seat's :class:`~piquet.core.view.DealView`, the
    card sets as masks, made without the whole view (:func:`deal_parts`,
    :meth:`CardRun.seat_parts`): each field equals the view's field of the same name
    (``my_played``: the view's ``played_by`` of the seat itself; the events are ``events``
    and then ``board_events``, flat (seat, kind's index in :class:`Kind`, points) triples
    of the kernel's board)."""

    role: int
    phase: Phase
    to_act: int | None
    hand: int
    dealt: int
    discards: int
    taken: int
    stock_seen: int
    opponent_shown: int
    opponent_played: int
    my_played: int
    seen_by_opponent: int
    opponent_discard_count: int
    stock_count: int
    leftover_count: int
    dialog: tuple[Utterance, ...]
    tricks: tuple[Trick, ...]
    trick_lead: int | None
    events: tuple[Event, ...]
    board_events: list[int]
    scores: tuple[int, int]
    tricks_won: tuple[int, int]
    lead_rule: NamedLead | None
    discard_range: tuple[int, int] | None


def deal_parts(deal: Deal, role: int) -> SeatParts:
    """:class:`SeatParts` of ``deal_view(deal, role)``, read from the deal (as
    :func:`~piquet.core.view.deal_view` reads them, without the legal actions)."""
    other = 1 - role
    hands = deal.hands
    mine = played_by(deal, role)
    seen_by_opp = deal.shown[role] | _stock_seen(deal, other)
    to_act = deal.to_act
    return SeatParts(
        role, deal.phase, to_act, hands[role], deal.dealt[role], deal.discards[role],
        deal.taken[role], _stock_seen(deal, role), deal.shown[other], played_by(deal, other),
        mine, seen_by_opp & (hands[role] | deal.discards[role] | mine),
        deal.discards[other].bit_count(), len(deal.stock), deal.leftovers.bit_count(),
        deal.dialog, deal.tricks, deal.trick_lead, deal.events, [], deal.scores, deal.won,
        deal.lead_rule,
        deal.discard_range() if to_act == role and deal.phase is Phase.EXCHANGE else None)


class CardRun:
    """The cards of one deal played on the kernel's board, from the engine's ``base`` deal.

    Immutable by use: nothing changes a run once it is made (its board included);
    :meth:`play` returns the next run (the board copied, then played on).  Build one with
    :meth:`start`.  (A plain slotted class, not a frozen dataclass: one is made a card, and a
    frozen dataclass's ``__init__`` cost more than the card.)
    """

    __slots__ = ("_cache", "_legal", "_trick", "allowed", "base", "board", "cards", "params",
                 "previous", "rules", "seat", "shared", "tricks", "waiting")

    rules: Rules
    params: npt.NDArray[np.int64]
    base: Deal
    """The engine's deal where the run began."""
    board: Board
    """The kernel's board (never written after the run is made)."""
    cards: tuple[int, ...]
    """The cards played since ``base``, in order."""
    tricks: tuple[Trick, ...]
    """Every trick of the deal so far (those of ``base`` first)."""
    previous: CardRun | None
    shared: dict[str, DealView]
    """The seats' engine views (one dict for the whole run)."""
    waiting: bool
    """The board waits for a card (else the deal is over)."""
    seat: int
    """The role (0 elder, 1 younger) to play."""
    allowed: int
    """The mask of the cards the seat to play may play."""

    def __init__(self, rules: Rules, params: npt.NDArray[np.int64], base: Deal, board: Board,
                 cards: tuple[int, ...], tricks: tuple[Trick, ...], previous: CardRun | None,
                 shared: dict[str, DealView]) -> None:
        self.rules = rules
        self.params = params
        self.base = base
        self.board = board
        self.cards = cards
        self.tricks = tricks
        self.previous = previous
        self.shared = shared
        status, self.seat, self.allowed = board[_O_INFO:_O_INFO + 3].tolist()
        self.waiting = status == K.STOPPED
        # the trick as it stands: half, the card led, the leader, the tricks elder won
        self._trick: list[int] = board[_O_PS + K.PS_HALF:_O_PS + K.PS_WON0 + 1].tolist()
        self._legal: list[int] | None = None
        self._cache: dict[str, object] = {}

    @classmethod
    def start(cls, deal: Deal) -> CardRun | None:
        """The run from ``deal`` (see :func:`can_run`), or None where the board cannot
        take the deal on (then the engine goes on alone)."""
        if not can_run(deal):
            return None
        history = [a for _, a in deal.history]
        board = np.zeros(_SIZE, dtype=np.int64)
        p = compile_rules(deal.rules)
        flat_start(p, np.asarray(deal.deck, dtype=np.int64), deal.start[0], deal.start[1],
               deal.target or 0, trace_of(history), len(history), board)
        run = cls(deal.rules, p, deal, board, (), deal.tricks, None, {})
        n = len(history)
        if (not run.waiting or run.seat != deal.to_act
                or int(board[K.T_FI]) != n or int(board[K.T_NTR]) != n):
            # the board must stop at a card having taken every forced choice and made none
            # of its own (the differential check says this never happens)
            return None
        return run

    # ------------------------------------------------------------------ the board
    @property
    def scores(self) -> tuple[int, int]:
        """Points elder and younger have counted in the deal so far."""
        tl = self.board
        return (int(tl[K.T0]), int(tl[K.T1]))

    def legal_ids(self) -> list[int]:
        """The ids of the legal cards (a card's id is its index), increasing."""
        ids = self._legal
        if ids is None:
            ids = self._legal = sorted(mask_cards(self.allowed))
        return list(ids)

    def play(self, card: int) -> CardRun:
        """The run after the seat to play plays ``card`` (one of :attr:`allowed`; the caller
        checks)."""
        half, led, leader, won0 = self._trick
        new = self.board.copy()
        flat_resume(self.params, new, card)
        run = CardRun(self.rules, self.params, self.base, new, (*self.cards, card), self.tricks,
                      self, self.shared)
        if half:
            winner = 0 if run._trick[3] > won0 else 1
            run.tricks = (*self.tricks, Trick(leader, led, card, winner))  # type: ignore[arg-type]
        return run

    # ------------------------------------------------------------------ the engine's deal
    @property
    def deal(self) -> Deal:
        """The engine's deal at this point (the run's cards applied to ``base``)."""
        d = self._cache.get("deal")
        if d is None:
            prev = self.previous
            d = self.base if prev is None else prev.deal.apply(PLAY[self.cards[-1]])
            self._cache["deal"] = d
        return d  # type: ignore[return-value]

    # ------------------------------------------------------------------ what a seat sees
    def seat_view(self, role: int) -> DealView:
        """What ``role`` sees now: its view at the run's start, with what the play changed
        read from the board (its own hand; the other's cards only as played)."""
        key = "view1" if role else "view0"
        v = self._cache.get(key)
        if v is not None:
            return v  # type: ignore[return-value]
        start = self._cache_base_view(role)
        b = self.board
        ps = _O_PS
        tl = b[:_O_EV]
        open_trick = bool(b[ps + K.PS_HALF])
        to_act = self.seat if self.waiting else None
        other = 1 - role
        played_other = 0  # (view.played_by, on the board's tricks)
        for t in self.tricks:
            played_other |= 1 << (t.lead if t.leader == other else t.follow)
        lead = int(b[ps + K.PS_LED]) if open_trick else None
        if lead is not None and to_act != other:
            played_other |= 1 << lead
        n_base = len(self.base.events)
        nev = int(tl[K.T_NEV])
        ev = b[_O_EV:_O_EV + 3 * nev]
        events = self.base.events + tuple(
            Event(_ROLES[int(ev[3 * i])], KINDS[int(ev[3 * i + 1])], int(ev[3 * i + 2]))
            for i in range(n_base, nev))
        won0 = int(b[ps + K.PS_WON0])
        v = DealView(
            role=start.role,
            phase=Phase.PLAY if self.waiting else Phase.OVER,
            to_act=to_act,  # type: ignore[arg-type]
            hand=CardSet(int(b[ps + K.PS_HAND + role])),
            dealt=start.dealt,
            discards=start.discards,
            taken=start.taken,
            stock_seen=start.stock_seen,
            elder_leftovers_seen=start.elder_leftovers_seen,
            leftovers_seen=start.leftovers_seen,
            packet=start.packet,
            declaring=None,
            opponent_shown=start.opponent_shown,
            opponent_played=CardSet(played_other),
            seen_by_opponent=start.seen_by_opponent,
            opponent_discard_count=start.opponent_discard_count,
            stock_count=start.stock_count,
            leftover_count=start.leftover_count,
            dialog=start.dialog,
            tricks=self.tricks,
            trick_lead=lead,
            events=events,
            scores=(int(tl[K.T0]), int(tl[K.T1])),
            tricks_won=(won0, len(self.tricks) - won0),
            lead_rule=start.lead_rule,
            legal_actions=tuple(PLAY[i] for i in mask_cards(self.allowed))
            if role == to_act else (),
            discard_range=None,
        )
        self._cache[key] = v
        return v

    def seat_parts(self, role: int) -> SeatParts:
        """:class:`SeatParts` of :meth:`seat_view` (``role``), read from the board without
        building the view."""
        start = self._cache_base_view(role)
        half, led, _leader, won0 = self._trick
        to_act = self.seat if self.waiting else None
        other = 1 - role
        lead = led if half else None
        played_other = 0
        mine = 0
        for t in self.tricks:
            if t.leader == other:
                played_other |= 1 << t.lead
                mine |= 1 << t.follow
            else:
                played_other |= 1 << t.follow
                mine |= 1 << t.lead
        if lead is not None:
            if to_act != other:
                played_other |= 1 << lead
            if to_act != role:
                mine |= 1 << lead
        b = self.board
        tl = b[:_O_EV]
        n_base = len(self.base.events)
        nev = int(tl[K.T_NEV])
        return SeatParts(
            start.role, Phase.PLAY if self.waiting else Phase.OVER, to_act,
            int(b[_O_PS + K.PS_HAND + role]), start.dealt.mask, start.discards.mask,
            start.taken.mask, start.stock_seen.mask, start.opponent_shown.mask, played_other,
            mine, start.seen_by_opponent.mask, start.opponent_discard_count,
            start.stock_count, start.leftover_count, start.dialog, self.tricks, lead,
            self.base.events, b[_O_EV + 3 * n_base:_O_EV + 3 * nev].tolist(),
            (int(tl[K.T0]), int(tl[K.T1])), (won0, len(self.tricks) - won0),
            start.lead_rule, None)

    def _cache_base_view(self, role: int) -> DealView:
        """The seat's engine view at some point of the run, for what the play does not
        change: one before elder's first card and one after (elder may then see the cards
        younger left, where younger looked at them), each worked out once a run."""
        led = bool(self.tricks) or bool(self.board[_O_PS + K.PS_HALF])
        key = f"base{role}{int(led)}"
        v = self.shared.get(key)
        if v is None:
            v = self.shared[key] = deal_view(self.deal, role)
        return v
