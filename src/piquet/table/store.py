"""Where a table keeps its games: the :class:`GameStore` protocol, and one in memory.

A stored game is its :class:`GameSpec` (rule set, format, seed, games to play, seats) and
its log of :class:`~piquet.table.state.Entry`; replaying the log rebuilds the table.  An
append is optimistic: it names the log's length the writer saw (``expect``) and succeeds
only if the log still has it, so two writers (two processes over one database) can never
fork a game; it returns False, writing nothing, when the log moved on.  A store that
cannot write raises :class:`StoreError` and has written nothing: the table changes its
memory only once the store said yes (commit first, then memory).

:class:`MemoryStore` keeps games in a dictionary (tests, a bot, a lesson);
:mod:`piquet.table.sqlstore` keeps them in SQLite or PostgreSQL.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from piquet.core.match import Match, new_match
from piquet.core.rules import Format, Rules
from piquet.table.seats import Seat
from piquet.table.state import Entry

__all__ = ["GameSpec", "GameStore", "MemoryStore", "StoreError", "Stored"]


class StoreError(Exception):
    """The store cannot be read or written; nothing was written.  Not a
    :class:`~piquet.core.errors.PiquetError`: a failing database is not bad input."""


@dataclass(frozen=True, slots=True)
class GameSpec:
    """What a game is before its first move: its id, the rule set, the format, the seed,
    the games to play, the seats, and whether hints are on."""

    game_id: str
    rules: Rules
    format: Format
    seed: int
    seats: tuple[Seat, ...]
    games: int = 1
    hints: bool = False

    def start(self) -> Match:
        """The match as dealt (every replay of the game begins here)."""
        return new_match(self.rules, seed=self.seed, format=self.format,
                         names=[s.name for s in self.seats], games=self.games)


@dataclass(frozen=True, slots=True)
class Stored:
    """A game as stored: its spec and its log."""

    spec: GameSpec
    log: tuple[Entry, ...]

    @property
    def version(self) -> int:
        return len(self.log)


class GameStore(Protocol):
    """What a table needs of a store (every method may raise :class:`StoreError`)."""

    def create(self, spec: GameSpec) -> None:
        """Keep a new game (its log empty)."""

    def load(self, game_id: str) -> Stored | None:
        """The game with its whole log, or None if there is no such game."""

    def append(self, game_id: str, entry: Entry, *, expect: int, over: bool) -> bool:
        """Add ``entry`` as log entry number ``expect``; False (nothing written) when the
        log is not ``expect`` long.  ``over``: the game is over after it."""

    def games(self) -> Sequence[str]:
        """The ids of the games kept, oldest first."""


@dataclass
class MemoryStore:
    """A :class:`GameStore` in a dictionary; ``fail`` (a test's hook) is raised, before
    anything is written, by the next write while it is set."""

    _specs: dict[str, GameSpec] = field(default_factory=dict)
    _logs: dict[str, list[Entry]] = field(default_factory=dict)
    _over: dict[str, bool] = field(default_factory=dict)
    fail: StoreError | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def create(self, spec: GameSpec) -> None:
        with self._lock:
            if self.fail is not None:
                raise self.fail
            if spec.game_id in self._specs:
                raise StoreError(f"a game {spec.game_id!r} is already kept")
            self._specs[spec.game_id] = spec
            self._logs[spec.game_id] = []
            self._over[spec.game_id] = False

    def load(self, game_id: str) -> Stored | None:
        with self._lock:
            spec = self._specs.get(game_id)
            return None if spec is None else Stored(spec, tuple(self._logs[game_id]))

    def append(self, game_id: str, entry: Entry, *, expect: int, over: bool) -> bool:
        with self._lock:
            if self.fail is not None:
                raise self.fail
            log = self._logs.get(game_id)
            if log is None or len(log) != expect:
                return False
            log.append(entry)
            self._over[game_id] = over
            return True

    def games(self) -> list[str]:
        with self._lock:
            return list(self._specs)

    def over(self, game_id: str) -> bool:
        """Whether the game was over after its last entry (as the writer said)."""
        return self._over[game_id]
