"""The browser's database as the table's :class:`~piquet.table.store.GameStore`: a front
end other than the browser (a bot, a lesson) plays over the same SQLite file or
PostgreSQL database through :class:`piquet.table.Tables`, with the same optimistic,
group-committed append."""

from __future__ import annotations

import sqlalchemy as sa

from piquet.core.errors import PiquetError
from piquet.core.match import Player
from piquet.core.rules import Format, preset
from piquet.table.seats import Seat, SeatKind
from piquet.table.state import Entry
from piquet.table.store import GameSpec, Stored
from piquet.web.store import NewSeat, Store, StoreError, games_t

__all__ = ["SqlGameStore"]


class SqlGameStore:
    """A :class:`~piquet.table.store.GameStore` over a :class:`~piquet.web.store.Store`.
    The browser's games name their rule set (a preset): a spec of house rules is refused
    with :class:`StoreError`."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def create(self, spec: GameSpec) -> None:
        if not spec.rules.is_preset:
            raise StoreError("the browser's database keeps games of a preset's rules; "
                             f"{spec.rules.name!r} is house rules")
        self.store.create_game(
            game_id=spec.game_id, rules=spec.rules.name, format=spec.format.value,
            seed=spec.seed, games_to_play=spec.games, hints=spec.hints,
            seats=[NewSeat(s.kind.value, s.level, s.name, None, None) for s in spec.seats],
        )

    def load(self, game_id: str) -> Stored | None:
        row = self.store.game(game_id)
        if row is None:
            return None
        try:
            rules = preset(row.rules)
        except PiquetError as exc:
            raise StoreError(f"game {game_id}: {exc}") from None
        seats = tuple(Seat(Player(s.seat), SeatKind(s.kind), s.name, s.level)
                      for s in row.seats)
        spec = GameSpec(row.id, rules, Format(row.format), row.seed, seats,
                        row.games_to_play, row.hints)
        log = tuple(Entry(a.player, a.action) for a in self.store.actions(game_id))
        return Stored(spec, log)

    def append(self, game_id: str, entry: Entry, *, expect: int, over: bool) -> bool:
        version = self.store.version(game_id)
        if version is None or version[0] != expect:
            return False
        return self.store.append(game_id, idx=expect, revision=version[1],
                                 player=entry.player, action=entry.text, finished=over)

    def games(self) -> list[str]:
        with self.store.engine.connect() as conn:
            rows = conn.execute(sa.select(games_t.c.id).order_by(games_t.c.created_at)).all()
        return [r.id for r in rows]
