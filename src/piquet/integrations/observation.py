"""Strings and tensors of what one seat knows, built from its view alone.

Everything here reads a :class:`~piquet.core.view.DealView` (the only thing a
seat may receive) plus what the adapters add that every seat knows or that is
the seat's own: the packet size the dealer dealt by (public), the cards the
seat has itself laid out for a discard it is making, and the game's score.
Nothing reads a :class:`~piquet.core.deal.Deal`, so nothing hidden can leak.

* :func:`information_state_string` / :func:`information_state_tensor`: all the
  seat has seen this deal (the whole dialog, every trick in order).
* :func:`observation_string` / :func:`observation_tensor`: the table as it
  stands (cards, counts, the current trick, the declarations so far), without
  the order of past tricks.

The dialog's lines are turned into numbers by :func:`said_of`, from each line's
fact (:mod:`piquet.core.facts`: a claim's size, top or rank and pips as far as they were
said, never a suit: a sequence is said by its length and top card); no sentence is read
back.  Tensor entries all lie in ``[0, 1]``;
:data:`INFO_PIECES` and :data:`OBS_PIECES` name their parts.
"""

from __future__ import annotations

import enum
from functools import lru_cache
from typing import Final, NamedTuple, cast

import numpy as np
import numpy.typing as npt

from piquet.core.actions import Reply
from piquet.core.cards import NamedLead
from piquet.core.deal import Phase, Utterance
from piquet.core.declarations import DeclClass
from piquet.core.facts import (
    BlancheCalled,
    BlancheDiscards,
    Declared,
    FurtherHeld,
    HoldingShown,
    MissingAsked,
    MissingTold,
    Passed,
    PipsTold,
    Replied,
    Statement,
)
from piquet.core.scoring import Kind
from piquet.core.view import DealView, played_by
from piquet.integrations.actions import DEAL_SIZES, Episode, EpisodeFormat
from piquet.integrations.board import CardRun, SeatParts
from piquet.integrations.knowledge import (
    SeatKnowledge,
    information_state_string,
    knowledge,
    observation_string,
)

__all__ = [
    "INFO_PIECES",
    "INFO_SIZE",
    "OBS_PIECES",
    "OBS_SIZE",
    "Said",
    "Saying",
    "SeatKnowledge",
    "episode_information_state_tensor",
    "episode_observation_tensor",
    "information_state_string",
    "information_state_tensor",
    "knowledge",
    "observation_string",
    "observation_tensor",
    "said_of",
]

Vector = npt.NDArray[np.float32]


# ====================================================================== reading the dialog


class Saying(enum.Enum):
    CLAIM = "claim"
    EXTRAS = "extras"
    PASS = "pass"
    GOOD = "good"
    NOT_GOOD = "not good"
    EQUAL = "equal"
    MAKING = "making?"
    PIPS = "pips"
    SHOWS = "shows"
    ASK = "ask"
    MISSING = "missing"
    BLANCHE = "blanche"
    OTHER = "other"


class Said(NamedTuple):
    """One dialog line read back: what kind, and the numbers it gave (0 / -1: not said)."""

    kind: Saying
    cls: DeclClass | None = None
    size: int = 0
    rank: int = 0
    """Sequence: top rank; set: the rank."""
    pips: int = 0
    card: int = -1
    extras: tuple[Said, ...] = ()


def _from_statement(said: Statement, cls: DeclClass) -> Said:
    return Said(Saying.CLAIM, cls, size=said.size, rank=said.rank, pips=said.pips)


_REPLY_SAYING: Final = {
    Reply.GOOD: Saying.GOOD,
    Reply.NOT_GOOD: Saying.NOT_GOOD,
    Reply.EQUAL: Saying.EQUAL,
    Reply.MAKING: Saying.MAKING,
}


@lru_cache(maxsize=1 << 14)
def said_of(u: Utterance) -> Said:
    """The numbers one public dialog line gave (:class:`Said`), read from its fact; cached."""
    fact = u.fact
    match fact:
        case BlancheCalled():
            return Said(Saying.BLANCHE, size=0)
        case BlancheDiscards(count=n):
            return Said(Saying.BLANCHE, size=n)
        case Declared(said=said):
            return _from_statement(said, said.cls)
        case FurtherHeld(cls=cls, said=said):
            return Said(Saying.EXTRAS, cls, extras=tuple(_from_statement(x, cls) for x in said))
        case Passed(cls=cls):
            return Said(Saying.PASS, cls)
        case Replied(cls=cls, reply=reply):
            return Said(_REPLY_SAYING[reply], cls)
        case PipsTold(cls=cls, pips=pips):
            return Said(Saying.PIPS, cls, pips=pips)
        case HoldingShown(cls=cls):
            return Said(Saying.SHOWS, cls)
        case MissingAsked():
            return Said(Saying.ASK, DeclClass.SET)
        case MissingTold(rank=rank, card=card):
            # card -1: none of that rank was laid out; the fourth card is elsewhere
            return Said(Saying.MISSING, DeclClass.SET, rank=rank if card < 0 else 0, card=card)
    return Said(Saying.OTHER, u.cls)


# ====================================================================== what a seat knows


# ====================================================================== tensors

_CARD_PLANES: Final = (
    "hand",
    "dealt",
    "discards",
    "taken",
    "laid_out",
    "stock_seen",
    "other_shown",
    "other_played",
    "my_played",
    "seen_by_other",
    "trick_lead",
    "missing",
)
_DECL_WIDTH: Final = 2 + 13 + 9 + 1 + 4  # said, passed, size, rank, pips, replies
_KINDS: Final = tuple(Kind)
_POINT_SCALE: Final = 300.0

_COMMON: Final[tuple[tuple[str, int], ...]] = (
    ("role", 2),
    ("phase", len(Phase)),
    ("to_act", 2),
    ("packet", len(DEAL_SIZES)),
    *((name, 36) for name in _CARD_PLANES),
    ("counts", 9),
    ("lead_rule", 4 + 36),
    ("blanche", 4),
    ("declarations", 3 * 2 * _DECL_WIDTH),
    ("missing_asked", 2 + 9),
    ("counted", 2 * len(_KINDS) + 2),
    ("game", 5),
)
#: (name, size) of each part of the observation tensor, in order.
OBS_PIECES: Final = _COMMON
#: (name, size) of each part of the information-state tensor: the observation,
#: then every trick in order (who led, the lead, the follow).
INFO_PIECES: Final = (*_COMMON, ("tricks", 12 * (2 + 36 + 36)))
OBS_SIZE: Final = sum(n for _, n in OBS_PIECES)
INFO_SIZE: Final = sum(n for _, n in INFO_PIECES)
_OFFSETS: Final = {
    name: sum(n for _, n in INFO_PIECES[:i]) for i, (name, _) in enumerate(INFO_PIECES)
}
_PHASES: Final = tuple(Phase)


_SHIFTS: Final = np.arange(36, dtype=np.int64)
_PLANES_AT: Final = _OFFSETS[_CARD_PLANES[0]]
assert all(_OFFSETS[name] == _PLANES_AT + 36 * i for i, name in enumerate(_CARD_PLANES))


def _points(n: int) -> float:
    return min(n, _POINT_SCALE) / _POINT_SCALE


def _lead_slot(lead: NamedLead) -> int:
    """A named lead's entry in the lead's piece: its suit (0 to 3), or 4 + its card."""
    if lead.card is not None:
        return 4 + lead.card.index
    assert lead.suit is not None
    return int(lead.suit)


def _fill(out: Vector, k: SeatKnowledge) -> None:
    o = _OFFSETS
    g = o["game"]
    out[g] = float(k.game)
    out[g + 1] = _points(k.scores[0])
    out[g + 2] = _points(k.scores[1])
    out[g + 3] = _points(k.target)
    out[g + 4] = min(len(k.deals) / k.max_deals, 1.0)
    v = k.view
    if v is None:
        return
    me = v.role
    out[o["role"] + me] = 1.0
    out[o["phase"] + _PHASES.index(v.phase)] = 1.0
    if v.to_act is not None:
        out[o["to_act"] + (0 if v.to_act == me else 1)] = 1.0
    if k.packet in DEAL_SIZES:
        out[o["packet"] + DEAL_SIZES.index(k.packet)] = 1.0
    my_played = played_by(v, me)
    # the card planes are consecutive, in _CARD_PLANES's order: one shift for all of them
    masks = np.array(
        (
            v.hand.mask,
            v.dealt.mask,
            v.discards.mask,
            v.taken.mask,
            k.selected.mask,
            v.stock_seen.mask,
            v.opponent_shown.mask,
            v.opponent_played.mask,
            my_played,
            v.seen_by_opponent.mask,
            0 if v.trick_lead is None else 1 << v.trick_lead,
        ),
        dtype=np.int64,
    )
    out[_PLANES_AT : _PLANES_AT + 36 * len(masks)] = ((masks[:, None] >> _SHIFTS) & 1).ravel()
    _fill_counts(out, v, len(k.selected), me)
    if v.lead_rule is not None:
        out[o["lead_rule"] + _lead_slot(v.lead_rule)] = 1.0
    _fill_dialog(out, v)
    cnt = o["counted"]
    for e in v.events:
        side = 0 if e.role == me else 1
        out[cnt + side * len(_KINDS) + _KINDS.index(e.kind)] += e.points / _POINT_SCALE
    out[cnt + 2 * len(_KINDS)] = _points(v.scores[me])
    out[cnt + 2 * len(_KINDS) + 1] = _points(v.scores[1 - me])


def _fill_counts(out: Vector, v: DealView | SeatParts, selected: int, me: int) -> None:
    """The counts' piece of a fresh (zero) tensor, each ``min(n / 12, 1)``, from the seat's
    view or its :class:`~piquet.integrations.board.SeatParts` (the same fields): the other's
    discard, the stock, the leftovers, the discard's least and most, the cards laid out
    (``selected``), the tricks won by ``me`` and by the other, the tricks played.  The one
    copy :func:`_fill` and :func:`_fill_fast` both use (:func:`_run_kept` keeps the tricks'
    three up to date itself)."""
    lo, hi = v.discard_range or (0, 0)
    won = v.tricks_won
    c = _O_COUNTS
    for i, n in enumerate((v.opponent_discard_count, v.stock_count, v.leftover_count, lo, hi,
                           selected, won[me], won[1 - me], len(v.tricks))):
        if n:  # (a zero is there already)
            x = n / 12.0
            out[c + i] = x if x < 1.0 else 1.0


def _fill_dialog(out: Vector, v: DealView) -> None:
    o = _OFFSETS
    me = v.role
    b = o["blanche"]
    d = o["declarations"]
    last_claim: dict[tuple[int, int], int] = {}
    for u in v.dialog:
        said = said_of(u)
        side = 0 if u.role == me else 1
        if said.kind is Saying.BLANCHE:
            out[b + side] = 1.0
            out[b + 2 + side] = min(said.size / 12.0, 1.0)
            continue
        if said.kind is Saying.ASK:
            # who asked which card of a trio is missing (the answer may be "none")
            out[o["missing_asked"] + side] = 1.0
            continue
        if said.kind is Saying.MISSING:
            if said.card >= 0:
                out[o["missing"] + said.card] = 1.0
            else:  # none of that rank was laid out: the fourth is in the stock or unseen
                out[o["missing_asked"] + 2 + said.rank - 6] = 1.0
            continue
        if said.cls is None:
            continue
        base = d + (int(said.cls) * 2 + side) * _DECL_WIDTH
        if said.kind is Saying.CLAIM:
            out[base] = 1.0
            if said.size:
                out[base + 2 + min(said.size, 12)] = 1.0
            if said.rank:
                out[base + 15 + said.rank - 6] = 1.0
            if said.pips:
                out[base + 24] = min(said.pips / 100.0, 1.0)
            last_claim[(int(said.cls), side)] = base
        elif said.kind is Saying.PASS:
            out[base + 1] = 1.0
        elif said.kind is Saying.PIPS:
            claimed = last_claim.get((int(said.cls), side), base)
            out[claimed + 24] = min(said.pips / 100.0, 1.0)
        elif said.kind in _REPLY_SLOT:
            out[base + 25 + _REPLY_SLOT[said.kind]] = 1.0


_REPLY_SLOT: Final = {Saying.GOOD: 0, Saying.NOT_GOOD: 1, Saying.EQUAL: 2, Saying.MAKING: 3}


def observation_tensor(k: SeatKnowledge) -> Vector:
    """The observation as a flat ``float32`` vector of :data:`OBS_SIZE` entries in [0, 1]."""
    out = np.zeros(INFO_SIZE, np.float32)
    _fill(out, k)
    return out[:OBS_SIZE].copy()


def information_state_tensor(k: SeatKnowledge) -> Vector:
    """The information state as a flat ``float32`` vector of :data:`INFO_SIZE` entries."""
    out = np.zeros(INFO_SIZE, np.float32)
    _fill(out, k)
    v = k.view
    if v is not None:
        base = _OFFSETS["tricks"]
        for n, t in enumerate(v.tricks):
            at = base + n * 74
            out[at + (0 if t.leader == v.role else 1)] = 1.0
            out[at + 2 + t.lead] = 1.0
            out[at + 38 + t.follow] = 1.0
    return out


# ====================================================================== the adapters' fast path
#
# The same tensors as :func:`information_state_tensor` and :func:`observation_tensor` of
# ``knowledge(episode, player)``, bit for bit (tests/test_observation_fast.py compares them
# at every step of random episodes), made without a :class:`SeatKnowledge`: the game's part
# read from the episode, the deal's from the seat's view, the dialog's entries worked out
# once a dialog (a deal's dialog is one tuple until a line is added) and kept, and the
# whole tensor kept by the (immutable) episode.

_DialogEntries = tuple[npt.NDArray[np.intp], Vector]
_DIALOG_KEPT: dict[tuple[int, ...], tuple[tuple[Utterance, ...], _DialogEntries]] = {}
_DIALOG_KEEP: Final = 1 << 12
_KIND_AT: Final = {kind: i for i, kind in enumerate(_KINDS)}
_PHASE_AT: Final = {phase: i for i, phase in enumerate(_PHASES)}
_PACKET_AT: Final = {n: i for i, n in enumerate(DEAL_SIZES)}
_O_ROLE: Final = _OFFSETS["role"]
_O_PHASE: Final = _OFFSETS["phase"]
_O_TO_ACT: Final = _OFFSETS["to_act"]
_O_PACKET: Final = _OFFSETS["packet"]
_O_COUNTS: Final = _OFFSETS["counts"]
_O_LEAD_RULE: Final = _OFFSETS["lead_rule"]
_O_COUNTED: Final = _OFFSETS["counted"]
_O_GAME: Final = _OFFSETS["game"]
_O_TRICKS: Final = _OFFSETS["tricks"]
_N_PLANES: Final = len(_CARD_PLANES) - 1  # "missing" comes from the dialog


class _DialogOnly(NamedTuple):
    """What :func:`_fill_dialog` reads of a view."""

    role: int
    dialog: tuple[Utterance, ...]


def _dialog_entries(dialog: tuple[Utterance, ...], me: int) -> _DialogEntries:
    """The (index, value) entries :func:`_fill_dialog` writes for ``dialog`` seen by ``me``
    (the blanche, declarations and missing parts, which nothing else writes), kept by the
    identities of the dialog's lines (a deal's next dialog is a new tuple of the same lines
    and one more; the entry holds the lines, so their identities are not reused)."""
    key = (me, *map(id, dialog))
    kept = _DIALOG_KEPT.get(key)
    if kept is not None and all(a is b for a, b in zip(kept[0], dialog, strict=True)):
        return kept[1]
    scratch = np.zeros(INFO_SIZE, np.float32)
    _fill_dialog(scratch, _DialogOnly(me, dialog))  # type: ignore[arg-type]
    at = np.flatnonzero(scratch)
    entries = (at, scratch[at])
    if len(_DIALOG_KEPT) >= _DIALOG_KEEP:
        _DIALOG_KEPT.clear()
    _DIALOG_KEPT[key] = (dialog, entries)
    return entries


def _fill_fast(out: Vector, episode: Episode, player: int, v: SeatParts | None,
               tricks: bool) -> None:
    """:func:`_fill` (and with ``tricks`` the tricks' part) of ``knowledge(episode, player)``,
    from the seat's :class:`~piquet.integrations.board.SeatParts`."""
    g = _O_GAME
    match = episode.match
    if episode.format is not EpisodeFormat.DEAL:
        out[g] = 1.0
    if match is not None:  # (else the scores are 0)
        scores = match.scores
        out[g + 1] = _points(scores[player])
        out[g + 2] = _points(scores[1 - player])
        done = len(match.deals)  # (len(episode.deals))
    else:
        done = len(episode.deals)
    out[g + 3] = _points(episode.rules.target)
    if done:
        out[g + 4] = min(done / episode.max_deals, 1.0)
    if v is None:
        return
    me = v.role
    to_act = v.to_act
    out[_O_ROLE + me] = 1.0
    out[_O_PHASE + _PHASE_AT[v.phase]] = 1.0
    if to_act is not None:
        out[_O_TO_ACT + (0 if to_act == me else 1)] = 1.0
    packet = episode.packet
    if packet in _PACKET_AT:
        out[_O_PACKET + _PACKET_AT[packet]] = 1.0
    selected = episode.selected_by(player).mask
    past = v.tricks
    lead = v.trick_lead
    masks = np.array(
        (
            v.hand,
            v.dealt,
            v.discards,
            v.taken,
            selected,
            v.stock_seen,
            v.opponent_shown,
            v.opponent_played,
            v.my_played,
            v.seen_by_opponent,
            0 if lead is None else 1 << lead,
        ),
        dtype="<u8",
    )
    bits = np.unpackbits(masks.view(np.uint8), bitorder="little").reshape(_N_PLANES, 64)
    out[_PLANES_AT : _PLANES_AT + 36 * _N_PLANES].reshape(_N_PLANES, 36)[:] = bits[:, :36]
    _fill_counts(out, v, selected.bit_count(), me)
    rule = v.lead_rule
    if rule is not None:
        out[_O_LEAD_RULE + _lead_slot(rule)] = 1.0
    if v.dialog:
        at, values = _dialog_entries(v.dialog, me)
        out[at] = values
    cnt = _O_COUNTED
    other_at = cnt + len(_KINDS)
    first: dict[int, float] = {}
    again: list[tuple[int, float]] = []
    for e in v.events:
        i = (cnt if e.role == me else other_at) + _KIND_AT[e.kind]
        if i in first:
            again.append((i, e.points / _POINT_SCALE))
        else:
            first[i] = e.points / _POINT_SCALE
    flat = v.board_events
    for j in range(0, len(flat), 3):
        i = (cnt if flat[j] == me else other_at) + flat[j + 1]
        if i in first:
            again.append((i, flat[j + 2] / _POINT_SCALE))
        else:
            first[i] = flat[j + 2] / _POINT_SCALE
    for i, x in first.items():
        out[i] = x
    for i, x in again:
        out[i] += x
    pts = v.scores
    out[cnt + 2 * len(_KINDS)] = _points(pts[me])
    out[cnt + 2 * len(_KINDS) + 1] = _points(pts[1 - me])
    if tricks and past:
        ones: list[int] = []
        at_ = _O_TRICKS
        for t in past:
            ones += (at_ + (0 if t.leader == me else 1), at_ + 2 + t.lead, at_ + 38 + t.follow)
            at_ += 74
        out[ones] = 1.0


_PLANE_HAND: Final = _PLANES_AT
_PLANE_LAID_OUT: Final = _PLANES_AT + 36 * _CARD_PLANES.index("laid_out")
_PLANE_OTHER_PLAYED: Final = _PLANES_AT + 36 * _CARD_PLANES.index("other_played")
_PLANE_MY_PLAYED: Final = _PLANES_AT + 36 * _CARD_PLANES.index("my_played")
_PLANE_LEAD: Final = _PLANES_AT + 36 * _CARD_PLANES.index("trick_lead")
_AT_PLAY: Final = _O_PHASE + _PHASE_AT[Phase.PLAY]
_AT_OVER: Final = _O_PHASE + _PHASE_AT[Phase.OVER]


class _RunKept(NamedTuple):
    """A seat's tensor on the kernel's board, kept by the run, with what the next card
    changes: the hand, the cards played, the card led, the events counted so far."""

    tensor: Vector
    masks: tuple[int, int, int, int]
    """hand, the other's cards played, the seat's own, the card led (a mask)."""
    events: int
    tricks: int
    led: bool
    """The run's view is the one after elder's first card (:meth:`CardRun.seat_parts`)."""


_RUN_BACK: Final = 4


def _run_kept(episode: Episode, run: CardRun, player: int) -> _RunKept:
    """The seat's tensor on the kernel's board: from the previous card's (kept by the run
    before) by what the card changed, or made whole (:func:`_fill_fast`)."""
    role = episode.role_of(player)
    key = "tensor1" if role else "tensor0"
    kept = cast("_RunKept | None", run._cache.get(key))
    if kept is not None:
        return kept
    parts = run.seat_parts(role)
    led = bool(run.tricks) or parts.trick_lead is not None
    lead = 0 if parts.trick_lead is None else 1 << parts.trick_lead
    masks = (parts.hand, parts.opponent_played, parts.my_played, lead)
    events = len(parts.events) + len(parts.board_events) // 3
    # the seat's tensor kept at one of the last few cards (the seat is observed when it is
    # to play, so usually two cards before)
    before = None
    prev = run.previous
    for _ in range(_RUN_BACK):
        if prev is None:
            break
        before = cast("_RunKept | None", prev._cache.get(key))
        if before is not None:
            break
        prev = prev.previous
    if before is None or before.led != led:
        out = np.zeros(INFO_SIZE, np.float32)
        _fill_fast(out, episode, player, parts, True)
    else:
        out = before.tensor.copy()
        me = role
        if parts.phase is not Phase.PLAY:
            out[_AT_PLAY] = 0.0
            out[_AT_OVER] = 1.0
            # (a deal episode's deal is over: it counts among the deals played)
            out[_O_GAME + 4] = min(len(episode.deals) / episode.max_deals, 1.0)
        to_act = parts.to_act
        out[_O_TO_ACT] = 0.0
        out[_O_TO_ACT + 1] = 0.0
        if to_act is not None:
            out[_O_TO_ACT + (0 if to_act == me else 1)] = 1.0
        for plane, old, new in zip((_PLANE_HAND, _PLANE_OTHER_PLAYED, _PLANE_MY_PLAYED,
                                    _PLANE_LEAD), before.masks, masks, strict=True):
            diff = old ^ new
            while diff:
                low = diff & -diff
                out[plane + low.bit_length() - 1] = 1.0 if new & low else 0.0
                diff ^= low
        c = _O_COUNTS
        won = parts.tricks_won
        past = parts.tricks
        out[c + 6] = min(won[me] / 12.0, 1.0)
        out[c + 7] = min(won[1 - me] / 12.0, 1.0)
        out[c + 8] = min(len(past) / 12.0, 1.0)
        cnt = _O_COUNTED
        other_at = cnt + len(_KINDS)
        flat = parts.board_events
        for j in range(3 * (before.events - len(parts.events)), len(flat), 3):
            # (added in turn in float32, as _fill adds them)
            out[(cnt if flat[j] == me else other_at) + flat[j + 1]] += flat[j + 2] / _POINT_SCALE
        pts = parts.scores
        out[cnt + 2 * len(_KINDS)] = _points(pts[me])
        out[cnt + 2 * len(_KINDS) + 1] = _points(pts[1 - me])
        for n in range(before.tricks, len(past)):
            t = past[n]
            at = _O_TRICKS + n * 74
            out[at + (0 if t.leader == me else 1)] = 1.0
            out[at + 2 + t.lead] = 1.0
            out[at + 38 + t.follow] = 1.0
    kept = _RunKept(out, masks, events, len(parts.tricks), led)
    run._cache[key] = kept
    return kept


def episode_information_state_tensor(episode: Episode, player: int) -> Vector:
    """``information_state_tensor(knowledge(episode, player))``, bit for bit, made faster
    (and kept by the episode: each call returns a fresh copy the caller may keep)."""
    run = episode.run
    if run is not None:
        return _run_kept(episode, run, player).tensor.copy()
    key = "info1" if player else "info0"
    cache = episode._cache
    out = cast("Vector | None", cache.get(key))
    if out is None:
        before = cast("Vector | None", cache.get("laid1" if player else "laid0"))
        if before is not None:
            # the tensor before the player laid out one more card for its discard
            # (Episode._apply_discard_step): that card and the count are all that changed
            out = before.copy()
            selected = episode.selected_by(player).mask
            out[_PLANE_LAID_OUT : _PLANE_LAID_OUT + 36] = 0.0
            for card in range(selected.bit_length()):
                if selected >> card & 1:
                    out[_PLANE_LAID_OUT + card] = 1.0
            out[_O_COUNTS + 5] = min(selected.bit_count() / 12.0, 1.0)
        else:
            out = np.zeros(INFO_SIZE, np.float32)
            _fill_fast(out, episode, player, episode.seat_parts(player), True)
        cache[key] = out
    return out.copy()


def episode_observation_tensor(episode: Episode, player: int) -> Vector:
    """``observation_tensor(knowledge(episode, player))``, bit for bit, made faster."""
    out = np.zeros(INFO_SIZE, np.float32)
    _fill_fast(out, episode, player, episode.seat_parts(player), False)
    return out[:OBS_SIZE].copy()
