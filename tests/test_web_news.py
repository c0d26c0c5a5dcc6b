"""PostgreSQL's news of every write (LISTEN/NOTIFY, :mod:`piquet.web.pgnews`): a process
takes the games it holds as the truth between news, and reads a game's version only when
the news is down, was down since the game was read, is newer than memory, or when the
client has seen more than memory holds.

Two :class:`Games` over two stores of one schema stand for two server processes (each
store listens on a connection of its own, as each process does); two real ``piquet
serve`` processes play through a listener killed under them at the end.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import psycopg

from piquet.web.games import Entry, Games
from piquet.web.pgnews import NewsListener, _parse, payloads
from piquet.web.store import Store, database_url
from test_web_kit import accept, bearer, offer, pick, poster

LEVELS = ["random"]


def _until(what: Callable[[], bool], seconds: float = 30.0) -> None:
    """Wait for ``what`` (a condition, not a time: the machine may be slow)."""
    deadline = time.monotonic() + seconds
    while not what():
        assert time.monotonic() < deadline, "condition not met in time"
        time.sleep(0.01)


@contextmanager
def two_games(pg_url: str, tmp_path: Path) -> Iterator[tuple[Games, Games, list[str]]]:
    """(A, B, the reads of the database A made: ``version`` or ``game``) over one
    schema, each listening; both stores closed at the end."""
    url = database_url(pg_url, tmp_path)
    sa_, sb = Store.open(url), Store.open(url)
    reads: list[str] = []
    version, version_async, game = sa_.version, sa_.version_async, sa_.game

    def counted_version(game_id: str) -> Any:
        reads.append("version")
        return version(game_id)

    async def counted_version_async(game_id: str) -> Any:
        reads.append("version")
        return await version_async(game_id)

    def counted_game(game_id: str) -> Any:
        reads.append("game")
        return game(game_id)

    sa_.version = counted_version  # type: ignore[method-assign]
    sa_.version_async = counted_version_async  # type: ignore[method-assign]
    sa_.game = counted_game  # type: ignore[method-assign]
    try:
        a, b = Games(sa_), Games(sb)
        assert a.news is not None and b.news is not None
        assert a.news.wait_ready(30) and b.news.wait_ready(30)
        yield a, b, reads
    finally:
        sa_.close()
        sb.close()


def _new_game(games: Games) -> str:
    return games.create(rules="rubicon", format=None, opponents=["friend"], hints=False,
                        name=None, levels=LEVELS).id


def _move(games: Games, game_id: str, rng: random.Random) -> Entry:
    """One legal move of the game as ``games`` reads it, recorded through it."""
    entry = games.fresh(game_id, check=True)
    m = entry.live.match
    assert m.to_act is not None
    action = str(m.random_action(rng))
    return asyncio.run(games.act(game_id, m.to_act, action, expect=entry.n))


def _heard(news: NewsListener, game_id: str, n: int) -> bool:
    return news.heard.get(game_id, -1) >= n


def test_news_makes_memory_the_truth_and_a_write_elsewhere_is_read(
    pg_url: str, tmp_path: Path
) -> None:
    """A holds a game read once: further looks read nothing; B's move is heard, and A's
    next look reads the version (and the action it lacks), then nothing again."""
    rng = random.Random(3)
    with two_games(pg_url, tmp_path) as (a, b, reads):
        gid = _new_game(b)
        first = a.fresh(gid)
        assert reads == ["game"]
        reads.clear()
        for _ in range(3):  # known current: neither view nor action reads
            assert a.cached(gid) is first
            assert asyncio.run(a.fresh_async(gid)) is first
            assert a.current(gid) == (first, True)
        assert reads == []
        moved = _move(b, gid, rng)
        news_a, news_b = a.news, b.news
        assert news_a is not None and news_b is not None
        _until(lambda: _heard(news_a, gid, moved.n))
        assert a.cached(gid) is None  # the news is newer than memory
        assert a.current(gid) == (first, False)
        now = asyncio.run(a.fresh_async(gid))
        assert now.n == moved.n and now.live.state.log == moved.live.state.log
        assert reads and set(reads) <= {"version", "game"}
        reads.clear()
        assert a.cached(gid) is now and reads == []
        # A's own move: B hears it, A reads nothing to know its own game
        after = _move(a, gid, rng)  # (its ``fresh(check=True)`` reads once)
        reads.clear()
        assert a.cached(gid) is not None and a.cached(gid).n == after.n  # type: ignore[union-attr]
        _until(lambda: _heard(news_b, gid, after.n))
        assert b.cached(gid) is None
        assert asyncio.run(b.fresh_async(gid)).n == after.n
        assert reads == []


def test_late_news_never_hides_what_the_client_has_seen(pg_url: str, tmp_path: Path) -> None:
    """B's move is committed but its news is late at A: a client that saw it through B
    says so (``n``), and A reads the database; an action sent with that ``n`` is taken,
    not refused as from a game moved on."""
    rng = random.Random(4)
    with two_games(pg_url, tmp_path) as (a, b, reads):
        assert a.news is not None
        gid = _new_game(b)
        held = a.fresh(gid)
        a.news.pause.set()  # A's news is held: it comes late
        try:
            moved = _move(b, gid, rng)
            time.sleep(0.05)
            # without the client's word A cannot know (a look a moment earlier)
            assert a.cached(gid) is held
            reads.clear()
            assert a.cached(gid, moved.n) is None
            assert a.current(gid, moved.n) == (held, False)
            seen = asyncio.run(a.fresh_async(gid, moved.n))
            assert seen.n == moved.n and reads
            # an action chosen on B's answer, sent to A, with A's memory put back behind
            a._put(gid, live=held.live, replace=True)  # memory put back behind
            behind = a.cached(gid)
            assert behind is not None and behind.n == held.n
            m = moved.live.match
            assert m.to_act is not None
            text = str(m.random_action(rng))
            entry, known = a.current(gid)
            done = asyncio.run(a.act(gid, m.to_act, text, expect=moved.n, entry=entry,
                                     known=known))
            assert done.n == moved.n + 1
            news_b = b.news
            assert news_b is not None  # (B's news is not held)
            _until(lambda: _heard(news_b, gid, moved.n + 1))
            assert asyncio.run(b.fresh_async(gid)).n == moved.n + 1
        finally:
            a.news.pause.clear()


def test_a_gap_in_the_news_is_read_through_until_caught_up(pg_url: str, tmp_path: Path) -> None:
    """A's listening session is killed: while it is down every look reads, a move made
    meanwhile is seen, and once it is back each game held is read once more (news of the
    gap may be lost), then trusted again."""
    rng = random.Random(5)
    with two_games(pg_url, tmp_path) as (a, b, reads):
        news = a.news
        assert news is not None
        gid = _new_game(b)
        a.fresh(gid)
        epoch, pid = news.epoch, news.backend_pid()
        assert pid is not None
        news.retry = 2.0  # a gap long enough to write in (a condition is waited for)
        with psycopg.connect(pg_url, autocommit=True) as conn:
            conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
        _until(lambda: not news.up)
        moved = _move(b, gid, rng)
        reads.clear()
        assert a.cached(gid) is None
        assert asyncio.run(a.fresh_async(gid)).n == moved.n and reads
        reads.clear()
        assert a.cached(gid) is None  # read while down: not trusted past the read
        _until(lambda: news.up and news.epoch > epoch)
        assert a.cached(gid) is None  # read in an earlier epoch
        # trusted only once the new session proves itself alive (its ping's echo comes
        # back: on a loaded machine, a while after it connected)
        assert news.wait_ready(30)
        assert asyncio.run(a.fresh_async(gid)).n == moved.n and reads
        reads.clear()
        assert a.cached(gid) is not None and reads == []
        # a listener that stops proving itself alive is not trusted
        news.alive_until = 0.0
        assert a.cached(gid) is None


def test_news_of_a_seat_taken_is_read() -> None:
    """News of another kind than a longer log (a seat taken: ``-1``) makes memory
    untrusted until the game is read again; payloads stay under PostgreSQL's limit."""
    news = NewsListener.__new__(NewsListener)
    news.up, news.epoch, news.alive_until = True, 1, time.monotonic() + 60
    news.heard, news.vague = {}, {}
    token = news.token("g")
    assert news.current("g", 4, token)
    news.hear("g", 4)
    assert news.current("g", 4, token)
    news.hear("g", -1)
    assert not news.current("g", 4, token)
    assert news.current("g", 4, news.token("g"))
    many = payloads((f"{i:016d} :x", i) for i in range(2000))  # any id reads back
    assert len(many) > 1 and all(len(p.encode()) < 8000 for p in many)
    read = [item for p in many for item in _parse(p) or []]
    assert read == [(f"{i:016d} :x", i, True) for i in range(2000)]
    assert _parse("someone [[1, 2") is None  # unreadable: the listener forgets all
    news.forget()
    assert not news.current("g", 4, token) and news.heard == {}


def test_two_processes_through_a_killed_listener_show_what_was_seen(pg_servers: Any) -> None:
    """Two ``piquet serve`` over one schema, no Redis: moves through B, views through A
    (carrying the ``n`` of B's answer: at least that new, at once; without it, the move
    within the news's delay); A's listening session killed twice on the way changes
    nothing of it."""
    with pg_servers() as (a, b):
        made = offer(poster(a.url))
        gid = made["id"]
        tokens = {0: made["token"], 1: accept(poster(b.url), made, "Far")}
        ha = httpx.Client(base_url=a.url, timeout=20)
        hb = httpx.Client(base_url=b.url, timeout=20)
        rng = random.Random(8)
        schema = _schema(a)
        for k in range(30):
            if k in (5, 15):
                with psycopg.connect(_plain(a), autocommit=True) as conn:
                    def listening() -> list[Any]:
                        return conn.execute(
                            "SELECT pid FROM pg_stat_activity WHERE application_name = %s",
                            (f"piquet-news:{schema}",)).fetchall()

                    _until(lambda: len(listening()) == 2)  # both processes' listeners
                    for (pid,) in listening():
                        conn.execute("SELECT pg_terminate_backend(%s)", (pid,))
            state = hb.get(f"/api/games/{gid}", headers=bearer(tokens[0])).json()
            if state["finished"]:
                break
            seat = state["to_act"]
            mine = hb.get(f"/api/games/{gid}", headers=bearer(tokens[seat])).json()
            done = hb.post(f"/api/games/{gid}/actions", json={"action": pick(mine, rng)},
                           headers=bearer(tokens[seat]))
            assert done.status_code == 200, done.text
            n = done.json()["n"]
            for token in tokens.values():
                seen = ha.get(f"/api/games/{gid}", params={"n": n}, headers=bearer(token))
                assert seen.status_code == 200 and seen.json()["n"] == n
            # and the other seat's long poll at A returns it
            other = ha.get(f"/api/games/{gid}", params={"wait": 5},
                           headers=bearer(tokens[1 - seat])).json()
            assert other["n"] == n
        ha.close()
        hb.close()


def _schema(server: Any) -> str:
    """The schema of a server's database URL (``...?options=-csearch_path%3DNAME``)."""
    url = _database_of(server)
    return url.rsplit("%3D", 1)[1]


def _plain(server: Any) -> str:
    return _database_of(server).split("?", 1)[0]


def _database_of(server: Any) -> str:
    args = list(server.args)
    return str(args[args.index("--database") + 1])
