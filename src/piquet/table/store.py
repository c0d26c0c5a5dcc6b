"""Where a table keeps its games: the :class:`GameStore` protocol, and one in memory.

A stored game is its :class:`GameSpec` (rule set, format, seed, games to play, seats) and
its log of :class:`~piquet.table.state.Entry`; replaying the log rebuilds the table.  An
append is optimistic: it names the log's length the writer saw (``expect``) and succeeds
only if the log still has it, so two writers (two processes over one database) can never
fork a game; it returns False, writing nothing, when the log moved on.  A store that
cannot write raises :class:`StoreError` and has written nothing: the table changes its
memory only once the store said yes (commit first, then memory).

:class:`MemoryStore` keeps games in a dictionary (tests, a lesson); :class:`FileStore` in
a folder, one JSON-lines file a game (a bot, a front end without a database); the
browser's server keeps them in SQLite or PostgreSQL (:mod:`piquet.web.store`).
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from piquet.core.errors import PiquetError
from piquet.core.match import Match, Player, new_match
from piquet.core.rules import Format, Rules, preset, rules_from_mapping
from piquet.table.seats import Seat, SeatKind
from piquet.table.state import Entry

__all__ = ["FileStore", "GameSpec", "GameStore", "MemoryStore", "StoreError", "Stored"]


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

    def to_json(self) -> dict[str, Any]:
        r = self.rules
        return {
            "id": self.game_id,
            "rules": r.name if r.is_preset else r.knobs_json(),
            "format": self.format.value,
            "seed": self.seed,
            "games": self.games,
            "hints": self.hints,
            "seats": [[s.kind.value, s.name, s.level] for s in self.seats],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameSpec:
        """Raises :class:`StoreError` for data that is not a game's spec."""
        try:
            raw = data["rules"]
            rules = preset(raw) if isinstance(raw, str) else rules_from_mapping(raw)
            seats = tuple(Seat(Player(n), SeatKind(kind), name, level)
                          for n, (kind, name, level) in enumerate(data["seats"]))
            return cls(str(data["id"]), rules, Format(data["format"]), int(data["seed"]),
                       seats, int(data["games"]), bool(data["hints"]))
        except (KeyError, TypeError, ValueError, PiquetError) as exc:
            raise StoreError(f"not a game's description: {exc}") from None


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


class FileStore:
    """A :class:`GameStore` in a folder: ``ID.jsonl``, the spec on its first line, then
    one log entry a line (``[player, "text"]``).  An append is one line written and
    synced; a line cut short by a crash is not a line (it is ignored, and the next append
    writes over it)."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        self.folder.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()

    def _path(self, game_id: str) -> Path:
        if not game_id or not all(c.isalnum() or c in "-_" for c in game_id):
            raise StoreError(f"{game_id!r} is not a game id (letters, digits, - and _)")
        return self.folder / f"{game_id}.jsonl"

    def _read(self, path: Path) -> tuple[GameSpec, list[Entry], int] | None:
        """(spec, log, the offset where the whole lines end), or None."""
        try:
            data = path.read_bytes()
        except FileNotFoundError:
            return None
        except OSError as exc:
            raise StoreError(f"cannot read {path.name}: {exc.strerror}") from None
        whole = data[: data.rfind(b"\n") + 1]
        lines = whole.decode("utf-8").splitlines()
        if not lines:
            return None
        spec = GameSpec.from_json(json.loads(lines[0]))
        log = [Entry(int(p), str(t)) for p, t in map(json.loads, lines[1:])]
        return spec, log, len(whole)

    def _write(self, path: Path, text: str, *, at: int | None = None) -> None:
        try:
            with open(path, "r+b" if at is not None else "xb") as f:
                if at is not None:
                    f.seek(at)
                    f.truncate()
                f.write(text.encode("utf-8"))
                f.flush()
                os.fsync(f.fileno())
        except FileExistsError:
            raise StoreError(f"a game {path.stem!r} is already kept") from None
        except OSError as exc:
            raise StoreError(f"cannot write {path.name}: {exc.strerror}") from None

    def create(self, spec: GameSpec) -> None:
        with self._lock:
            self._write(self._path(spec.game_id), json.dumps(spec.to_json()) + "\n")

    def load(self, game_id: str) -> Stored | None:
        with self._lock:
            read = self._read(self._path(game_id))
        return None if read is None else Stored(read[0], tuple(read[1]))

    def append(self, game_id: str, entry: Entry, *, expect: int, over: bool) -> bool:
        path = self._path(game_id)
        with self._lock:
            read = self._read(path)
            if read is None or len(read[1]) != expect:
                return False
            self._write(path, json.dumps([entry.player, entry.text]) + "\n", at=read[2])
            return True

    def games(self) -> list[str]:
        paths = sorted(self.folder.glob("*.jsonl"), key=lambda p: p.stat().st_mtime)
        return [p.stem for p in paths]
