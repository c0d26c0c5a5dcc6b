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
from typing import Any, Final

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
_dumps: Final = orjson.dumps


def _kept(obj: Any) -> Any:
    """``obj`` as JSON, a fragment to keep: its text copied to bytes of its own size
    (``orjson.dumps`` answers bytes that hold a 4 KB buffer, however short the text:
    kept as they come, a few thousand card lists held 30 MB more at 100 games)."""
    return Fragment(memoryview(_dumps(obj)).tobytes())


_Held = dict[int, tuple[Any, Any]]
"""``id(obj)`` -> (``obj``, its JSON): an object kept from state to state is encoded once.
Holding the object keeps its id from being reused while it is here; cleared when full."""


def _held(held: _Held, size: int, obj: Any, value: Any) -> Any:
    if len(held) >= size:
        held.clear()
    held[id(obj)] = (obj, value)
    return value


_DIALOG, _EVENTS, _TRICKS, _DEALS, _GAMES = range(5)
_Carried = list[tuple[tuple[Any, ...], bytes, Any]]
_CARRIED: dict[str, _Carried] = {}
"""Game id -> for each of its lists (the deal's dialog, events and tricks, the match's
deals and games), the last tuple written, its JSON and that as a fragment: the game's next
state holds the same tuple, or that tuple with items added (written on to it).  Only
the tuples decide the text; the game's id only keeps each game's last few apart."""
_GAMES_CARRIED: Final = 8192


def _carried(game_id: str) -> _Carried:
    carried = _CARRIED.get(game_id)
    if carried is None:
        if len(_CARRIED) >= _GAMES_CARRIED:
            _CARRIED.clear()
        carried = _CARRIED[game_id] = [((), b"[]", _NO_ITEMS)] * 5
    return carried


def _list(carried: _Carried, which: int,
          make: Callable[[Any], bytes], seq: tuple[Any, ...]) -> Any:
    """``seq``'s JSON list as a fragment (``make``: an item's JSON text): the one carried
    if ``seq`` is the tuple last written, that one written on if ``seq`` begins with it,
    else written afresh."""
    last, text, fragment = carried[which]
    if seq is last:
        return fragment
    n = len(last)
    if n and len(seq) > n and seq[:n] == last:  # (items compared by identity first)
        text = text[:-1] + b"," + b",".join([make(x) for x in seq[n:]]) + b"]"
    else:
        text = b"[" + b",".join([make(x) for x in seq]) + b"]"
    fragment = Fragment(text)
    carried[which] = (seq, text, fragment)  # one store: a reader sees these or the last
    return fragment


def _said(u: Utterance) -> bytes:
    return _dumps(dialog_json((u,))[0])


def _event(e: Event) -> bytes:
    return _dumps(events_json((e,))[0])


def _trick(t: Trick) -> bytes:
    return _dumps(t.to_json())


def _summary(d: DealSummary) -> bytes:
    return _dumps(d.to_json())


def _game(g: GameResult) -> bytes:
    return _dumps(g.to_json())


_SEATS: Final[_Held] = {}


def _seats(seats: Sequence[Any]) -> Any:
    """The game's seats (``seats_json``) and their names, as two fragments."""
    hit = _SEATS.get(id(seats))
    if hit is not None and hit[0] is seats:
        return hit[1]
    from piquet.web.showing import seats_json

    return _held(_SEATS, 1024, seats, (
        _kept(seats_json(seats)), _kept([s.name for s in seats])))


_CARDS: dict[int, Any] = {}
"""Card mask -> its JSON list as a fragment (the cards as text, in a view's order)."""


def _cards(mask: int) -> Any:
    fragment = _CARDS.get(mask)
    if fragment is None:
        if len(_CARDS) >= 1 << 13:
            _CARDS.clear()
        fragment = _CARDS[mask] = _kept(mask_texts(mask))
    return fragment


_EMPTY: Final = _cards(0)


def _deal_json(v: DealView, carried: _Carried) -> dict[str, Any]:
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
        "dialog": _list(carried, _DIALOG, _said, v.dialog),
        "tricks": _list(carried, _TRICKS, _trick, v.tricks),
        "trick_lead": None if trick_lead is None else CARD_TEXTS[trick_lead],
        "events": _list(carried, _EVENTS, _event, v.events),
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
                if len(_PLAYS) >= 1 << 11:
                    _PLAYS.clear()
                items = _PLAYS[cards] = _kept([PLAYS_JSON[i] for i in cards])
            return items
    return menu_json(view)


def _view_json(view: MatchView, names: Any, carried: _Carried) -> dict[str, Any]:
    """``view.to_json()`` as a seat is sent it (the seats' ``names``; the deal without its
    legal actions), its lists as fragments."""
    deal = view.deal
    return {
        "player": view.player,
        "rules": view.rules,
        "format": view.format.value,
        "players": list(view.players),
        "names": names,
        "in_game": list(view.in_game),
        "dealer": view.dealer,
        "role": None if view.role is None else ROLE_NAMES[view.role],
        "scores": list(view.scores),
        "game_number": view.game_number,
        "deal_number": view.deal_number,
        "deals": _list(carried, _DEALS, _summary, view.deals),
        "games": _list(carried, _GAMES, _game, view.games),
        "deal": None if deal is None else _deal_json(deal, carried),
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
    seats, names = _seats(row.seats)
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
        "seats": seats,
        "hints": row.hints,
        "view": _view_json(view, names, _carried(row.id)),
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
