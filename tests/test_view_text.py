"""A seat's view written the cheap way (:mod:`piquet.web.seattext`: its parts carried from
state to state as JSON text) is byte for byte what the plain way writes
(``encode(seat_json(...))``), for every seat at every step of random games of every preset
and format, the table's own events among the moves (undo, takebacks, resignation, abort,
rematch, a clock run out), people and the computer at the seats, names that JSON must
escape.  And the body a seat is sent carries the plain view of the last deal.

:func:`~piquet.core.view.deal_view` (worked out for both roles at once) is checked against
the same view written out plainly from the oracles (``played_by``, ``_stock_seen``)."""

from __future__ import annotations

import json
import random

import orjson
import pytest

from piquet.core.actions import Action
from piquet.core.cards import CardSet
from piquet.core.deal import ELDER, Deal, Phase
from piquet.core.errors import PiquetError
from piquet.core.match import Match, MatchView
from piquet.core.roles import OTHER, Role
from piquet.core.rules import PRESETS
from piquet.core.view import DealView, _leftovers_seen, _stock_seen, deal_view, played_by
from piquet.table.errors import TableError
from piquet.table.menu import menu_json
from piquet.table.state import (
    ABORT,
    RESIGN,
    TAKEBACK,
    TAKEBACK_NO,
    TAKEBACK_YES,
    TIMEOUT,
    UNDO,
    TableState,
    rematch_entry,
)
from piquet.web.entries import Entry, Live, encode, match_of, seats_of, step
from piquet.web.seattext import _menu, seat_head
from piquet.web.showing import seat_body, seat_json
from piquet.web.store import GameRow, SeatRow

_NAMES = ('Ann "the \\ first"', "Bé\u00e9 \u2603 \U0001f0a1", "</script>\n\t\x01")


def _row(preset: str, fmt: str, seats: int, people: int, game: int) -> GameRow:
    return GameRow(
        f"g{game}", preset, fmt, game, 1, game % 2 == 0, 0, False, 0.0,
        tuple(
            SeatRow(i, "human", None, _NAMES[i], "t" if i % 2 == 0 else None, None)
            if i < people else SeatRow(i, "ai", "random", _NAMES[i], None, None)
            for i in range(seats)
        ),
    )


def _plain_deal_view(deal: Deal, role: Role) -> DealView:
    """``deal_view`` as it was written before it worked out both roles at once."""
    other = OTHER[role]
    seen_by_opp = deal.shown[role] | _stock_seen(deal, other)
    mine = deal.hands[role] | deal.discards[role] | played_by(deal, role)
    legal: tuple[Action, ...] = ()
    discard_range = None
    if deal.to_act == role:
        if deal.phase is Phase.EXCHANGE:
            discard_range = deal.discard_range()
        else:
            legal = tuple(deal.legal_actions())
    return DealView(
        role=role, phase=deal.phase, to_act=deal.to_act,
        hand=CardSet(deal.hands[role]), dealt=CardSet(deal.dealt[role]),
        discards=CardSet(deal.discards[role]), taken=CardSet(deal.taken[role]),
        stock_seen=CardSet(_stock_seen(deal, role)),
        elder_leftovers_seen=CardSet(
            deal.elder_leftovers if role == ELDER and deal.rules.elder_sees_unused else 0),
        leftovers_seen=CardSet(
            deal.leftovers if deal.leftovers and _leftovers_seen(deal, role) else 0),
        packet=deal.packet,
        declaring=deal.cls if deal.phase is Phase.DECLARE else None,
        opponent_shown=CardSet(deal.shown[other]),
        opponent_played=CardSet(played_by(deal, other)),
        seen_by_opponent=CardSet(seen_by_opp & mine),
        opponent_discard_count=deal.discards[other].bit_count(),
        stock_count=len(deal.stock), leftover_count=deal.leftovers.bit_count(),
        dialog=deal.dialog, tricks=deal.tricks, trick_lead=deal.trick_lead,
        events=deal.events, scores=deal.scores, tricks_won=deal.won,
        lead_rule=deal.lead_rule, legal_actions=legal,
        discard_range=discard_range, deferred=tuple(d.cls for d in deal.deferred),
    )


def _plain_match_view(m: Match, player: int) -> MatchView:
    """``Match.view`` as it was written before it filled the view as one dict."""
    role = None if m.finished else m.role_of(player)
    return MatchView(
        player=player, rules=m.rules.name, rule_set=m.rules, format=m.format,
        seed_public=False, players=tuple(range(m.n_players)), names=m.names,
        in_game=m.in_game, dealer=m.dealer, role=role, scores=m.scores,
        game_number=m.game_number, deal_number=m.deal_number, deals=m.deals,
        games=m.games,
        deal=_plain_deal_view(m.deal, role) if m.deal is not None and role is not None
        else None,
        to_act=m.to_act, finished=m.finished, ledger=m.ledger, pool=m.pool,
    )


def _check(entry: Entry) -> None:
    m = entry.live.match
    for player in range(m.n_players):
        assert m.view(player) == _plain_match_view(m, player)
    for player in range(m.n_players):
        view = m.view(player)
        fast = _menu(view)
        assert orjson.dumps(fast) == orjson.dumps(menu_json(view))
    for deal in (entry.live.match.deal, entry.live.last_deal):
        if deal is not None:
            for role in Role:
                assert deal_view(deal, role) == _plain_deal_view(deal, role)
    for seat in range(len(entry.row.seats)):
        plain = encode(seat_json(entry, seat, last_deal=False)).encode()
        assert seat_head(entry, seat) == plain
        body = seat_body(entry, seat, {})
        assert json.loads(body) == {**seat_json(entry, seat), "computer_problem": None}
        assert body.startswith(plain[:-1].decode())


_EVENTS = (UNDO, TAKEBACK, TAKEBACK_YES, TAKEBACK_NO, RESIGN, ABORT, TIMEOUT,
           rematch_entry("next-1"))


@pytest.mark.parametrize("fmt", [None, "pool"])
@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_the_cheap_view_text_is_the_plain_one(preset: str, fmt: str | None) -> None:
    rng = random.Random(f"{preset}:{fmt}")
    checked = 0
    for game in range(3):
        try:
            m = match_of(preset, fmt or PRESETS[preset].default_format.value,
                         rng.randrange(10**9), 1, 3 if fmt == "pool" else 2)
        except PiquetError:
            pytest.skip(f"{preset} does not play the {fmt}")
        seats = m.n_players
        # game 0: people only (takebacks, abort); 1: one person and the computer (undo)
        row = _row(preset, m.format.value, seats, seats if game != 1 else 1, game)
        live = Live(TableState.new(row.id, seats_of(row), m))
        steps = 0
        while steps < 600:
            # game 2: every third state only (its lists grow by several items between
            # two views, as a seat's do while the others move)
            if game != 2 or steps % 3 == 0:
                _check(Entry(row, live))
                checked += 1
            if live.state.over:
                if live.state.rematch is None:
                    live = step(live, 0, rematch_entry(f"next-{game}"))
                    continue
                break
            # now and then one of the table's own events (where the table allows it)
            if rng.random() < 0.04:
                try:
                    live = step(live, rng.randrange(seats), rng.choice(_EVENTS))
                    steps += 1
                    continue
                except TableError:
                    pass
            to_act = live.state.to_act
            assert to_act is not None
            live = step(live, to_act, live.match.random_action(rng))
            steps += 1
    assert checked > 50
