"""The table: what every interface (the browser, the terminal, a bot, a lesson) needs
beyond the rules engine, transport-free and typed.

- :mod:`~piquet.table.state`: :class:`TableState`, a match, its seats and the table's
  own events (undo, resign, rematch) in one log that replays;
- :mod:`~piquet.table.service`: :class:`Tables`, games kept in a
  :class:`~piquet.table.store.GameStore`, one action path, commit first then memory;
- :mod:`~piquet.table.verdict`: :func:`judge`, what an entry chosen on an older version is
  (applied, a retry, stale, moved on), for every transport;
- :mod:`~piquet.table.menu`: the legal actions as one labelled menu;
- :mod:`~piquet.table.views`: what a seat is shown (:class:`SeatView`);
- :mod:`~piquet.table.summary`, :mod:`~piquet.table.dealend`: the rules and the end of
  a deal in words and facts;
- :mod:`~piquet.table.seats`: roles, players and seats; :mod:`~piquet.table.ai`: the
  computer's turns with one seed formula.

See ``docs/table.md``.
"""

from __future__ import annotations

from piquet.table.errors import Refusal, TableError
from piquet.table.seats import Seat, SeatKind, computer, person
from piquet.table.service import Tables
from piquet.table.state import Entry, TableState
from piquet.table.store import GameSpec, GameStore, MemoryStore, Stored, StoreError
from piquet.table.verdict import Judged, Verdict, judge
from piquet.table.views import SeatView, seat_view

__all__ = [
    "Entry",
    "GameSpec",
    "GameStore",
    "Judged",
    "MemoryStore",
    "Refusal",
    "Seat",
    "SeatKind",
    "SeatView",
    "Stored",
    "StoreError",
    "TableError",
    "TableState",
    "Tables",
    "Verdict",
    "computer",
    "judge",
    "person",
    "seat_view",
]
