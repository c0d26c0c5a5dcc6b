"""A seat's view as JSON text, made cheaply: exactly the bytes of
``encode(seat_json(entry, seat, last_deal=False))`` (:mod:`piquet.web.showing`;
``tests/test_view_text.py`` compares the two over whole games of every preset and format),
with what one state of a game shares with the next encoded once and carried over as
:class:`orjson.Fragment` (JSON text that ``orjson.dumps`` writes as it is):

- a list of cards, by its mask (a hand, the cards dealt, the discards: the same from
  move to move);
- a deal's dialog, score events and tricks, by the tuple that holds them (a deal's next
  state keeps the same tuple until a line, an event or a trick is added), each line,
  event and trick by itself;
- the match's finished deals and games (by their tuples), the game's seats and names (by
  the row's tuple of seats).

Nothing here decides what a seat may see: every card comes from the seat's
:class:`~piquet.core.matchtypes.MatchView` (``Match.view``, :func:`~piquet.core.view.deal_view`),
field for field as its ``to_json`` writes it; only the writing is shared.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, Generic, TypeVar

import orjson

from piquet.core.actions import Play
from piquet.core.deal import Trick, Utterance
from piquet.core.matchtypes import DealSummary, GameResult, MatchView
from piquet.core.roles import ROLE_NAMES
from piquet.core.scoring import Event
from piquet.core.view import CARD_TEXTS, DealView, dialog_json, events_json, mask_texts
from piquet.table.menu import PLAYS_JSON, first_lead, menu_json
from piquet.web.entries import Entry

__all__ = ["seat_head"]

Fragment: Final = orjson.Fragment
_T = TypeVar("_T")
_dumps: Final = orjson.dumps


class _ByIdentity(Generic[_T]):
    """``id(obj)`` -> (``obj``, its JSON text): an object kept from state to state (a
    tuple, a named tuple) is encoded once.  Holding the object keeps its id from being
    reused while it is here; cleared when full."""

    __slots__ = ("_held", "_make", "_size")

    def __init__(self, make: Callable[[_T], bytes], size: int) -> None:
        self._held: dict[int, tuple[_T, bytes]] = {}
        self._make = make
        self._size = size

    def __call__(self, obj: _T) -> bytes:
        hit = self._held.get(id(obj))
        if hit is not None and hit[0] is obj:
            return hit[1]
        text = self._make(obj)
        if len(self._held) >= self._size:
            self._held.clear()
        self._held[id(obj)] = (obj, text)
        return text


def _list_of(item: Callable[[Any], bytes]) -> Callable[[tuple[Any, ...]], bytes]:
    """A tuple's JSON list, from each item's JSON text."""

    def make(items: tuple[Any, ...]) -> bytes:
        return b"[" + b",".join([item(x) for x in items]) + b"]"

    return make


_said: Final = _ByIdentity[Utterance](lambda u: _dumps(dialog_json((u,))[0]), 16384)
_event: Final = _ByIdentity[Event](lambda e: _dumps(events_json((e,))[0]), 16384)
_trick: Final = _ByIdentity[Trick](lambda t: _dumps(t.to_json()), 16384)
_summary: Final = _ByIdentity[DealSummary](lambda d: _dumps(d.to_json()), 4096)
_game: Final = _ByIdentity[GameResult](lambda g: _dumps(g.to_json()), 4096)
_dialog: Final = _ByIdentity[tuple[Utterance, ...]](_list_of(_said), 4096)
_events: Final = _ByIdentity[tuple[Event, ...]](_list_of(_event), 4096)
_tricks: Final = _ByIdentity[tuple[Trick, ...]](_list_of(_trick), 4096)
_deals: Final = _ByIdentity[tuple[DealSummary, ...]](_list_of(_summary), 4096)
_games: Final = _ByIdentity[tuple[GameResult, ...]](_list_of(_game), 4096)


def _seats_text(seats: Sequence[Any]) -> bytes:
    from piquet.web.showing import seats_json

    return _dumps(seats_json(seats))


_seats: Final = _ByIdentity[Sequence[Any]](_seats_text, 4096)
_names: Final = _ByIdentity[Sequence[Any]](lambda seats: _dumps([s.name for s in seats]), 4096)

_CARDS: dict[int, Any] = {}
"""Card mask -> its JSON list as a fragment (the cards as text, in a view's order)."""


def _cards(mask: int) -> Any:
    fragment = _CARDS.get(mask)
    if fragment is None:
        if len(_CARDS) >= 1 << 16:
            _CARDS.clear()
        fragment = _CARDS[mask] = Fragment(_dumps(mask_texts(mask)))
    return fragment


_EMPTY: Final = _cards(0)


def _deal_json(v: DealView) -> dict[str, Any]:
    """``v.to_json()`` without ``legal_actions`` (the menu says them), its lists as
    fragments."""
    cards = _cards
    lead_rule = v.lead_rule
    trick_lead = v.trick_lead
    scores = v.scores
    won = v.tricks_won
    return {
        "role": ROLE_NAMES[v.role],
        "phase": v.phase.value,
        "to_act": None if v.to_act is None else ROLE_NAMES[v.to_act],
        "hand": cards(v.hand.mask),
        "dealt": cards(v.dealt.mask),
        "discards": cards(v.discards.mask),
        "taken": cards(v.taken.mask),
        "stock_seen": cards(v.stock_seen.mask),
        "unused_seen": cards(v.elder_leftovers_seen.mask),
        "leftovers_seen": cards(v.leftovers_seen.mask),
        "packet": v.packet,
        "declaring": None if v.declaring is None else v.declaring.label,
        "opponent_shown": cards(v.opponent_shown.mask),
        "opponent_played": cards(v.opponent_played.mask),
        "seen_by_opponent": cards(v.seen_by_opponent.mask),
        "opponent_discard_count": v.opponent_discard_count,
        "stock_count": v.stock_count,
        "leftover_count": v.leftover_count,
        "dialog": Fragment(_dialog(v.dialog)),
        "tricks": Fragment(_tricks(v.tricks)),
        "trick_lead": None if trick_lead is None else CARD_TEXTS[trick_lead],
        "events": Fragment(_events(v.events)),
        "scores": {"elder": scores[0], "younger": scores[1]},
        "tricks_won": {"elder": won[0], "younger": won[1]},
        "lead_rule": None
        if lead_rule is None
        else {"kind": lead_rule.kind, "value": str(lead_rule)},
        "discard_range": None if v.discard_range is None else list(v.discard_range),
        "deferred": [c.label for c in v.deferred],
    }


_PLAYS: dict[tuple[int, ...], Any] = {}
"""The cards one may play, in the menu's order -> the menu's JSON as a fragment."""
_NO_ITEMS: Final = Fragment(b"[]")


def _menu(view: MatchView) -> Any:
    """``menu_json(view)``; the play of the cards (most turns) as one fragment, by the
    cards playable."""
    deal = view.deal
    if deal is None or view.to_act != view.player:
        return _NO_ITEMS
    legal = deal.legal_actions
    if deal.discard_range is None and legal:
        cards = tuple([a.card.index for a in legal if type(a) is Play])
        if len(cards) == len(legal):
            items = _PLAYS.get(cards)
            if items is None:
                if len(_PLAYS) >= 1 << 14:
                    _PLAYS.clear()
                items = _PLAYS[cards] = Fragment(_dumps([PLAYS_JSON[i] for i in cards]))
            return items
    return menu_json(view)


def _view_json(view: MatchView, seats: Sequence[Any]) -> dict[str, Any]:
    """``view.to_json()`` as a seat is sent it (the seats' names; the deal without its
    legal actions), its lists as fragments."""
    deal = view.deal
    return {
        "player": view.player,
        "rules": view.rules,
        "format": view.format.value,
        "players": list(view.players),
        "names": Fragment(_names(seats)),
        "in_game": list(view.in_game),
        "dealer": view.dealer,
        "role": None if view.role is None else ROLE_NAMES[view.role],
        "scores": list(view.scores),
        "game_number": view.game_number,
        "deal_number": view.deal_number,
        "deals": Fragment(_deals(view.deals)),
        "games": Fragment(_games(view.games)),
        "deal": None if deal is None else _deal_json(deal),
        "to_act": view.to_act,
        "finished": view.finished,
        "ledger": list(view.ledger),
        "pool": view.pool,
    }


def seat_head(entry: Entry, seat: int) -> bytes:
    """What ``seat`` is sent, without the view of the last deal: the bytes of
    ``encode(seat_json(entry, seat, last_deal=False))``."""
    row, live = entry.row, entry.live
    state = live.state
    view = live.match.view(seat)
    to_act = state.to_act
    bound = first_lead(view)
    rematch = state.rematch
    return _dumps({
        "id": row.id,
        "seat": seat,
        "n": live.n,
        "rules": row.rules,
        "format": row.format,
        "finished": state.over,
        "to_act": to_act,
        "your_turn": to_act == seat,
        "legal_actions": _NO_ITEMS if state.ended_early else _menu(view),
        "first_lead": None if bound is None else bound.to_json(),
        "seats": Fragment(_seats(row.seats)),
        "hints": row.hints,
        "view": _view_json(view, row.seats),
        "result": state.result(),
        "practice": state.practice(seat),
        "can_undo": state.can_undo(seat),
        "resigned": state.resigned,
        "rematch": rematch,
        "rematch_mine": rematch is not None and state.rematch_by == seat,
        "takeback": {"asked": state.takeback_asked,
                     "can_ask": state.can_ask_takeback(seat)},
        "aborted": state.aborted,
        "can_abort": state.can_abort(seat),
        "timed_out": state.timed_out,
    }, option=orjson.OPT_NON_STR_KEYS)
