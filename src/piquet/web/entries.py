"""A game as a process of the server holds it: its state (:class:`Live`), its row and the
views already built (:class:`Entry`), and the steps of its log (an entry applied, a retry
applied; a retry or a move chosen on an older state is judged by the table,
:func:`piquet.table.verdict.judge`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from piquet.core.actions import Action
from piquet.core.deal import Deal
from piquet.core.match import Match, new_match
from piquet.table.seats import Player, Seat, SeatKind
from piquet.table.state import TableState
from piquet.web.store import GameRow

__all__ = [
    "Created",
    "Entry",
    "Live",
    "encode",
    "joined_count",
    "match_of",
    "seats_of",
    "step",
]


@dataclass(frozen=True, slots=True)
class Live:
    """A game's state: the table (the match, its seats and the table's own events: undo,
    resignation, rematch, all entries of the log)."""

    state: TableState
    last_views: dict[int, str] = field(default_factory=dict, compare=False, repr=False)
    """Seat -> the JSON text of its view of ``last_deal``: built once per finished deal
    (it is the same in every state until the next deal ends)."""

    @property
    def match(self) -> Match:
        return self.state.match

    @property
    def last_deal(self) -> Deal | None:
        """The deal that finished last, in its end state."""
        return self.state.match.last_deal

    @property
    def n(self) -> int:
        """The log's length, the game's version: it only grows (an undo is an entry)."""
        return self.state.version


def seats_of(row: GameRow) -> tuple[Seat, ...]:
    """The table's seats of a stored game (a person or the computer at a level)."""
    return tuple(Seat(Player(s.seat), SeatKind(s.kind), s.name, s.level) for s in row.seats)


def joined_count(row: GameRow) -> int:
    """Seats taken by a person: it only ever grows (a join), so it versions the seats."""
    return sum(1 for s in row.seats if s.token_hash is not None)


@dataclass(frozen=True, slots=True, eq=False)
class Entry:
    """A game as this process holds it: its row (the seats), its state, and the views of
    it already built (seat -> the JSON text), so that no view is built twice.

    ``row.n_actions`` is the length the row had when read; ``live.n`` is the truth.  An
    entry never changes: a move or a join makes a new one.
    """

    row: GameRow
    live: Live
    bodies: dict[int, str] = field(default_factory=dict, repr=False)

    @property
    def n(self) -> int:
        return self.live.n

    @property
    def joined(self) -> int:
        return joined_count(self.row)


@dataclass(frozen=True, slots=True)
class Created:
    id: str
    token: str
    seat: int
    invites: tuple[tuple[int, str], ...]
    """(seat, invite code) for each seat kept for a friend."""


def step(live: Live, player: int, text: str | Action) -> Live:
    """``live`` after the log entry ``text`` by ``player`` (an action id or a table event);
    raises :class:`TableError`."""
    state = live.state.apply(player, text)
    # the deal just finished is settled into the match, which keeps its end state
    if len(state.match.deals) != len(live.match.deals):
        return Live(state)
    return Live(state, live.last_views)


def encode(obj: Any) -> str:
    """``obj`` as compact JSON text (orjson: a seat's view in about 18 µs where the
    standard library took 147 µs)."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


def match_of(rules: str, fmt: str, seed: int, games: int, n_seats: int) -> Match:
    """A stored game's match as dealt (the seats named by their numbers)."""
    return new_match(
        rules, seed=seed, format=fmt, games=games, names=[f"seat {i}" for i in range(n_seats)]
    )
