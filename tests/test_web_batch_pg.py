"""PostgreSQL's group commit writes the first append of each game of a batch in one
statement: each append still succeeds exactly when the log had its length and the game
its revision, a copy sent twice in one batch is written once, and a game's next entry
after it in the same batch is written too, as on SQLite one by one."""

from __future__ import annotations

import time
from concurrent.futures import Future
from pathlib import Path

from piquet.web.groupcommit import Append, append_all
from piquet.web.store import NewSeat, Store, database_url


def _game(store: Store, game_id: str) -> None:
    store.create_game(game_id=game_id, rules="rubicon", format="partie", seed=1,
                      games_to_play=1, hints=False,
                      seats=[NewSeat("human", None, "A", None, None),
                             NewSeat("human", None, "B", None, None)])


def _item(game_id: str, idx: int, action: str, *, revision: int = 0) -> Append:
    return Append(game_id, idx, revision, idx % 2, action, False, Future())


def test_a_batch_on_postgresql_writes_as_one_by_one(pg_url: str, tmp_path: Path) -> None:
    for dialect_url in (database_url(pg_url, tmp_path), f"sqlite:///{tmp_path}/g.sqlite3"):
        store = Store.open(dialect_url)
        try:
            for g in ("a", "b", "c", "d"):
                _game(store, g)
            with store.engine.begin() as conn:
                assert append_all(conn, [_item("c", 0, "x0")], time.time()) == [True]
            batch = [
                _item("a", 0, "a0"),
                _item("b", 0, "b0"),
                _item("a", 0, "a0-copy"),  # the same index again: refused
                _item("c", 0, "c-late"),  # c is 1 long already: refused
                _item("a", 1, "a1"),  # a's next entry, after its first: written
                _item("d", 0, "d0", revision=3),  # another revision: refused
                _item("zz", 0, "none"),  # no such game: refused
            ]
            with store.engine.begin() as conn:
                got = append_all(conn, batch, time.time())
            assert got == [True, True, False, False, True, False, False], dialect_url
            assert [(x.idx, x.action) for x in store.actions("a")] == [(0, "a0"), (1, "a1")]
            assert [x.action for x in store.actions("b")] == ["b0"]
            assert [x.action for x in store.actions("c")] == ["x0"]
            assert store.actions("d") == []
            assert [store.version(g) for g in "abcd"] == [(2, 0, 0), (1, 0, 0), (1, 0, 0),
                                                            (0, 0, 0)]
        finally:
            store.close()
