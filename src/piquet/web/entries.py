"""A game as a process of the server holds it: its state (:class:`Live`), its row and the
views already built (:class:`Entry`), and the steps of its log (an entry applied, a retry
recognised, a refusal of a move chosen on an older state said in words)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import orjson

from piquet.core.actions import Action, parse_action
from piquet.core.deal import Deal
from piquet.core.errors import ParseError
from piquet.core.match import Match, new_match
from piquet.table.seats import Player, Seat, SeatKind
from piquet.table.state import TableState, takes_back
from piquet.web.store import GameRow

__all__ = [
    "Created",
    "Entry",
    "Live",
    "already",
    "encode",
    "joined_count",
    "match_of",
    "moved_on",
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


def already(entry: Entry, idx: int, player: int, text: str) -> bool:
    """Whether entry ``idx`` of the game's log is ``text`` by ``player``, not taken back
    since by an undo."""
    log = entry.live.state.log
    if not 0 <= idx < len(log) or log[idx].player != player:
        return False
    if any(takes_back(e.text) for e in log[idx + 1:]):
        return False
    if log[idx].text == text:
        return True
    try:
        return str(parse_action(text)) == log[idx].text
    except ParseError:
        return False


def moved_on(entry: Entry, expect: int | None, player: int) -> str:
    """Why an entry chosen on the game as it stood ``expect`` entries in is refused, in a
    player's words (the answer carries the game as it stands)."""
    log = entry.live.state.log
    if expect is not None and expect > len(log):
        return "the game changed meanwhile: here it is as it stands"
    idx = len(log) - 1 if expect is None else expect
    if 0 <= idx < len(log):
        who = log[idx].player
        if any(takes_back(e.text) for e in log[idx + 1:]) and who == player:
            return ("that move was taken back since (an undo or a takeback): here is the "
                    "game as it stands")
        if who == player:
            return "your other tab (or a retry) already acted: here is the game as it stands"
        return f"{entry.row.seats[who].name} acted first: here is the game as it stands"
    return "the game changed meanwhile: here it is as it stands"


def encode(obj: Any) -> str:
    """``obj`` as compact JSON text (orjson: a seat's view in about 18 µs where the
    standard library took 147 µs)."""
    return orjson.dumps(obj, option=orjson.OPT_NON_STR_KEYS).decode()


def match_of(rules: str, fmt: str, seed: int, games: int, n_seats: int) -> Match:
    """A stored game's match as dealt (the seats named by their numbers)."""
    return new_match(
        rules, seed=seed, format=fmt, games=games, names=[f"seat {i}" for i in range(n_seats)]
    )
