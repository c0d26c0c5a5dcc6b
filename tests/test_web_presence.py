"""Who is at the table: a friend who closes the page is shown away, on one server process
and across two (through Redis).

The seat's socket asks with ``{"token": T, "presence": true}`` and is told
``{"type": "presence", "here": [SEAT, ...]}`` whenever that changes; a socket that does not
ask is told nothing new (the protocol of before).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from websockets.sync.client import connect

from piquet.web.hub import PRESENCE_LAPSE, Hub, RedisHub, Watcher

if TYPE_CHECKING:
    from starlette.testclient import TestClient

from test_web_kit import (
    accept,
    client,
    friend_game,
    offer,
    poster,
)


def _friend_game(c: TestClient) -> tuple[str, str, str]:
    gid, tokens = friend_game(c.post, name="Ann", guest="Gus")
    return gid, tokens[0], tokens[1]


def _presence(ws: Any) -> list[int] | None:
    """The next presence message on a test client's socket (views skipped)."""
    while True:
        msg = ws.receive_json()
        if msg["type"] == "presence":
            here: list[int] | None = msg["here"]
            return here


def test_a_seat_that_asks_is_told_who_comes_and_goes(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, ann, gus = _friend_game(c)
        with c.websocket_connect(f"/api/games/{gid}/ws") as a:
            a.send_text(json.dumps({"token": ann, "presence": True}))
            assert a.receive_json()["type"] == "view"
            assert _presence(a) == [0]  # Gus has no page open
            with c.websocket_connect(f"/api/games/{gid}/ws") as g:
                g.send_text(json.dumps({"token": gus, "presence": True}))
                assert g.receive_json()["type"] == "view"
                assert _presence(g) == [0, 1]
                assert _presence(a) == [0, 1]
                # a second tab of Gus: nothing changes for Ann
                with c.websocket_connect(f"/api/games/{gid}/ws") as g2:
                    g2.send_text(json.dumps({"token": gus}))
                    assert g2.receive_json()["type"] == "view"
                    g2.send_text(json.dumps({"type": "ping"}))
                    assert g2.receive_json() == {"type": "pong"}  # (no presence: not asked)
                a.send_text(json.dumps({"type": "ping"}))
                assert a.receive_json() == {"type": "pong"}  # one tab of two closed: no news
            assert _presence(a) == [0]  # Gus closed his last page


def test_a_socket_that_does_not_ask_is_told_nothing_new(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        gid, ann, gus = _friend_game(c)
        with c.websocket_connect(f"/api/games/{gid}/ws") as a:
            a.send_text(json.dumps({"token": ann}))
            assert a.receive_json()["type"] == "view"
            with c.websocket_connect(f"/api/games/{gid}/ws") as g:
                g.send_text(json.dumps({"token": gus}))
                assert g.receive_json()["type"] == "view"
            a.send_text(json.dumps({"type": "ping"}))
            assert a.receive_json() == {"type": "pong"}
            # and a presence flag that is not exactly true asks nothing
        with c.websocket_connect(f"/api/games/{gid}/ws") as a:
            a.send_text(json.dumps({"token": ann, "presence": "yes"}))
            assert a.receive_json()["type"] == "view"
            a.send_text(json.dumps({"type": "ping"}))
            assert a.receive_json() == {"type": "pong"}


def test_the_hub_counts_sockets_by_seat_and_wakes_watchers_without_news() -> None:
    async def main() -> None:
        hub = Hub()
        assert hub.here("g") == frozenset()
        with hub.watch("g") as w:
            with hub.at_table("g", 1):
                assert await w.wait(1) and not w.news  # who is here changed, not the game
                with hub.at_table("g", 1):
                    assert not await w.wait(0.01)  # a second socket of the seat: no change
                    assert hub.here("g") == {1}
                assert hub.here("g") == {1}
            assert await w.wait(1) and not w.news
            assert hub.here("g") == frozenset()
            hub.deliver("g", 3)
            assert await w.wait(1) and w.news and w.take() == 3 and not w.news
        assert hub._here == {}

    asyncio.run(main())


def test_another_process_s_word_on_its_seats_lapses_and_is_unknown_while_redis_is_down(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async def main() -> None:
        hub = RedisHub("redis://127.0.0.1:1")  # never started: messages handed in by hand
        hub.status = "ok"
        clock = [1000.0]
        monkeypatch.setattr("piquet.web.hub._clock", lambda: clock[0])

        def hear(**data: Any) -> None:
            hub._receive({"type": "message", "data": json.dumps({"game": "g", **data})})

        with hub.watch("g") as w:
            hear(**{"here": [1], "from": "other"})
            assert await w.wait(1) and not w.news
            assert hub.here("g") == {1}
            hear(**{"here": [1], "from": "other"})  # the same again (a reminder): no wake
            assert not await w.wait(0.01)
            hear(**{"here": [1, "x", True, -1, 99], "from": "third"})  # junk is ignored
            assert hub.here("g") == {1}
            clock[0] += PRESENCE_LAPSE + 1  # both fell silent: killed, say
            assert hub.here("g") == frozenset()
            hear(**{"here": [0], "from": "other"})
            assert hub.here("g") == {0}
            hear(**{"here": [], "from": "other"})  # its last socket closed
            assert hub.here("g") == frozenset()
            hub.status = "down"
            assert hub.here("g") is None  # not known
        # a game nobody watches here is not remembered
        hear(**{"here": [1], "from": "other"})
        assert hub._remote == {}

    asyncio.run(main())


def test_two_processes_tell_each_other_who_is_at_the_table(
    pg_servers: Any, redis_url: str
) -> None:
    with pg_servers("--redis", redis_url) as (a, b):
        made = offer(poster(a.url))
        gid = made["id"]
        far_token = accept(poster(b.url), made, "Far")

        def told(ws: Any, want: list[int], timeout: float = 120) -> list[int]:
            """The presence messages until ``want`` (each process learns the other's
            seats a moment after its own; a "here": null, while a loaded machine's Redis
            misses a ping, is passed over); ``timeout`` only bounds a hang."""
            deadline = time.monotonic() + timeout
            while True:
                msg = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
                if msg["type"] == "presence" and msg["here"] == want:
                    return want

        with connect(a.url.replace("http", "ws") + f"/api/games/{gid}/ws") as near:
            near.send(json.dumps({"token": made["token"], "presence": True}))
            assert told(near, [0]) == [0]
            with connect(b.url.replace("http", "ws") + f"/api/games/{gid}/ws") as far:
                far.send(json.dumps({"token": far_token, "presence": True}))
                assert told(far, [0, 1]) == [0, 1]  # B asked A, which answered
                assert told(near, [0, 1]) == [0, 1]  # A heard B
            # the far seat closed its page: at once, or (should B's word be lost) when
            # what B said lapses
            assert told(near, [0], PRESENCE_LAPSE + 120) == [0]


def test_a_seat_that_left_while_redis_was_down_is_said_gone_when_it_is_back() -> None:
    """The last socket of a game closed while Redis was down: once it is back, the other
    processes are told the seat is gone (not left to the lapse)."""
    sent: list[dict[str, Any]] = []

    async def main() -> None:
        hub = RedisHub("redis://127.0.0.1:1")

        def spawn(message: str) -> None:
            sent.append(json.loads(message))

        hub._spawn_message = spawn  # type: ignore[method-assign]
        hub._ready.set()
        hub._set(True)
        with hub.at_table("g", 1):
            pass  # arrived and left while up: both said
        assert [m["here"] for m in sent] == [[1], []]
        sent.clear()
        with hub.at_table("g", 1):
            sent.clear()
            hub._set(False, "refused")
        assert sent == []  # the leave could not be said
        hub._set(True)
        assert [(m["game"], m["here"], m.get("ask", False)) for m in sent] == [("g", [], False)]

    asyncio.run(main())


def test_a_pump_waiting_with_a_timeout_ends_when_cancelled_as_news_comes() -> None:
    """The race of Python 3.11's ``wait_for``: a cancel that comes as the event is set must
    not be swallowed (a socket's pump would never end, its seat never leave the table)."""

    async def main() -> None:
        for _ in range(200):
            w = Watcher("g")
            task = asyncio.create_task(w.wait(10))
            await asyncio.sleep(0)  # the task waits on the event
            w.notify(1)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task

    asyncio.run(main())


def test_reminders_go_in_a_few_messages_and_are_heard() -> None:
    sent: list[dict[str, Any]] = []

    async def main() -> None:
        hub = RedisHub("redis://127.0.0.1:1")
        hub._spawn_message = lambda m: sent.append(json.loads(m))  # type: ignore[method-assign]
        hub.status = "ok"
        for i in range(1200):
            hub._here[f"g{i}"] = Counter({i % 2: 1})
        hub._remind()
        assert len(sent) == 3 and sum(len(m["seats"]) for m in sent) == 1200
        # another process hears them, for the games it watches
        other = RedisHub("redis://127.0.0.1:1")
        other.status = "ok"
        with other.watch("g7"):
            for m in sent:
                other._receive({"type": "message", "data": json.dumps(m)})
            assert other.here("g7") == {1}
            assert set(other._remote) == {"g7"}

    asyncio.run(main())


def test_live_updates_come_back_by_themselves_after_a_failed_publish(redis_url: str) -> None:
    """A publish that failed (a burst, a blip) marks live updates down; the subscriber,
    still answered by Redis, marks them up again within a couple of seconds."""

    async def main() -> None:
        # a long bound on each Redis call: a loaded machine's publishes, waiting their
        # turn for a connection, took over the default second and marked live updates
        # down; the default pool would still refuse the burst at once, whatever the bound
        hub = RedisHub(redis_url, channel=f"piquet:test-{time.time_ns()}", timeout=60.0)
        await hub.start()
        try:
            assert hub.status == "ok"
            hub._set(False, "too many connections")
            deadline = time.monotonic() + 60
            while hub.status != "ok" and time.monotonic() < deadline:
                await asyncio.sleep(0.1)
            assert hub.status == "ok"
            # and a burst of publishes, beyond the pool's size, is sent, not refused
            for i in range(400):
                await hub.publish(f"burst{i}", i)
            assert hub._sending  # sent from tasks of their own: wait for them (not 1.5 s)
            deadline = time.monotonic() + 120
            while hub._sending and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            assert not hub._sending and not hub._missed
            assert hub.status == "ok"
        finally:
            await hub.stop()

    asyncio.run(main())


def test_stopping_ends_a_task_whose_first_cancellation_was_lost() -> None:
    """On Python 3.11 ``asyncio.wait_for`` can swallow a cancellation that comes as the call
    inside it ends; a listener's loop then runs on.  The hub's stop cancels again until the
    task has ended (it hung a whole test run once, waiting on such a task)."""
    from piquet.web.hub import _end

    async def main() -> None:
        lost = 0

        async def listener() -> None:
            nonlocal lost
            while True:
                try:
                    await asyncio.sleep(0.05)
                except asyncio.CancelledError:
                    if lost:
                        raise
                    lost += 1  # the first one is lost, as wait_for may lose it

        task = asyncio.create_task(listener())
        await asyncio.sleep(0.01)
        await asyncio.wait_for(_end(task), 10)
        assert task.cancelled() and lost == 1

    asyncio.run(main())
