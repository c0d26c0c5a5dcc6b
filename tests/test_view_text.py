"""A seat's view written the cheap way (:mod:`piquet.web.seattext`: its parts carried from
state to state as JSON text) is byte for byte what the plain way writes
(``encode(seat_json(...))``), for every seat at every step of random games of every preset
and format, the table's own events among the moves (undo, takebacks, resignation, abort,
rematch, a clock run out), people and the computer at the seats, names that JSON must
escape.  And the body a seat is sent carries the plain view of the last deal."""

from __future__ import annotations

import json
import random

import pytest

from piquet.core.errors import PiquetError
from piquet.core.rules import PRESETS
from piquet.table.errors import TableError
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
from piquet.web.seattext import seat_head
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


def _check(entry: Entry) -> None:
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
