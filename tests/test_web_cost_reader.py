"""A shared database's version check on the event loop (issue 39's cost of a move): the
reader thread's own connection answers what :meth:`Store.version` answers, and when that
connection dies (a backend killed, the handle broken) the check is made the plain way,
through the pool, and the next one on a new connection of the reader's."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from piquet.web.games import Games
from piquet.web.store import Store
from test_web_kit import DATABASES, two_processes


def _new(games: Games) -> str:
    return games.create(rules="rubicon", format="game", opponents=["random"], hints=False,
                        name="A", levels=["random"]).id


def _break(store: Store) -> None:
    """The reader's own connection made unusable under it, as a killed backend's is."""
    reader = store._reader
    assert reader is not None and reader._conn is not None
    raw = reader._conn.connection.dbapi_connection
    assert raw is not None
    raw.close()


@pytest.mark.parametrize("kind", DATABASES)
def test_versions_on_the_loop_agree_and_survive_a_dead_connection(
    kind: str, tmp_path: Path
) -> None:
    with two_processes(kind, tmp_path) as (a, b):
        ids = [_new(a) for _ in range(3)]

        async def check() -> None:
            # many at once (one batch), and one that is not there
            got = await asyncio.gather(*(a.store.version_async(g) for g in [*ids, "nope"]))
            assert got == [a.store.version(g) for g in [*ids, "nope"]]
            # the other process moves a game on: the loop's check sees it
            m = b.load(ids[0]).live.match
            assert m.to_act is not None
            await b.act(ids[0], m.to_act, str(m.legal_actions()[0]))
            assert await a.store.version_async(ids[0]) == b.store.version(ids[0])
            assert (await a.fresh_async(ids[0])).n == b.fresh(ids[0]).n
            # its connection dies: the check still answers (the plain way), then again
            # on a connection of its own
            _break(a.store)
            assert await a.store.version_async(ids[1]) == a.store.version(ids[1])
            assert a.store._reader is not None
            assert a.store._reader._conn is None
            assert await a.store.version_async(ids[2]) == a.store.version(ids[2])
            assert a.store._reader._conn is not None

        asyncio.run(check())
