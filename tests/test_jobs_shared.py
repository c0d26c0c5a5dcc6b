"""Quotas that hold across web processes (piquet.jobs.shared): a client's hints counted in
Redis, whichever process's queue it asks; each process counting on its own while Redis
does not answer; a hold of a process that died lapses by itself.

Each "process" here is a :class:`JobQueue` with its own Redis connection, as each web
process has (what they share is Redis alone); the tasks are those of ``test_jobs``.
"""

from __future__ import annotations

import asyncio
import secrets
import socket
import time
from typing import Any

import httpx
import pytest

from piquet.jobs import JobQueue, Kind, QuotaFull, Quotas
from piquet.jobs.shared import SharedQuotas
from test_jobs import GATE, wait_for
from test_web_kit import bearer, net

SLOW = 30.0
"""The bound on each Redis call of the quotas a test counts in the shared Redis: the
default half a second, passed by a loaded machine, counts per process from then on (the
third hint is not refused, fewer than five of twenty takes pass); what a silent Redis
does is tested with a dead one, which refuses at once."""


def _dead_redis() -> str:
    """The address of a port where nothing listens."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return f"redis://127.0.0.1:{s.getsockname()[1]}/0"


def test_a_clients_quota_holds_across_two_processes(redis_url: str) -> None:
    GATE.clear()
    prefix = f"piquet:test:{secrets.token_hex(6)}"

    async def main() -> None:
        a = JobQueue(1, mode="thread", quotas=Quotas(hint=2),
                     shared=SharedQuotas(redis_url, prefix=prefix, timeout=SLOW))
        b = JobQueue(1, mode="thread", quotas=Quotas(hint=2),
                     shared=SharedQuotas(redis_url, prefix=prefix, timeout=SLOW))
        a.start()
        b.start()
        try:
            # one hint of ann's on each process: two in all, her quota
            one = asyncio.ensure_future(a.run(Kind.HINT, "test_jobs:held", "a", client="ann"))
            two = asyncio.ensure_future(b.run(Kind.HINT, "test_jobs:held", "b", client="ann"))
            await asyncio.to_thread(wait_for, lambda: a.health()["running"]["hint"] == 1
                                    and b.health()["running"]["hint"] == 1)
            for q in (a, b):  # a third is refused by either, in the same words
                with pytest.raises(QuotaFull) as refused:
                    await q.run(Kind.HINT, "test_jobs:held", "c", client="ann")
                assert refused.value.message == (
                    "you already have 2 hints being made (at most 2 at once): ask again "
                    "when one is ready")
            # another client is not held by ann's quota
            other = asyncio.ensure_future(b.run(Kind.HINT, "test_jobs:note", "x", client="bob"))
            assert a.shared is not None and a.shared.status == "shared"
            GATE.set()
            await asyncio.gather(one, two, other)
            # given back: she may ask again, on either
            assert await a.run(Kind.HINT, "test_jobs:note", "d", client="ann") == "d"
            assert await b.run(Kind.HINT, "test_jobs:note", "e", client="ann") == "e"
        finally:
            GATE.set()
            a.stop()
            b.stop()
            for q in (a, b):
                assert q.shared is not None
                await q.shared.close()

    asyncio.run(main())


def test_without_redis_each_process_counts_on_its_own_and_says_so() -> None:
    GATE.clear()

    async def main() -> None:
        url = _dead_redis()
        a = JobQueue(1, mode="thread", quotas=Quotas(hint=1), shared=SharedQuotas(url))
        b = JobQueue(1, mode="thread", quotas=Quotas(hint=1), shared=SharedQuotas(url))
        a.start()
        b.start()
        try:
            one = asyncio.ensure_future(a.run(Kind.HINT, "test_jobs:held", "a", client="ann"))
            await asyncio.to_thread(wait_for, lambda: a.health()["running"]["hint"] == 1)
            # this process still holds her to her quota ...
            with pytest.raises(QuotaFull):
                await a.run(Kind.HINT, "test_jobs:held", "b", client="ann")
            # ... the other, not knowing of it, runs hers: the moves and hints go on
            two = asyncio.ensure_future(b.run(Kind.HINT, "test_jobs:held", "c", client="ann"))
            await asyncio.to_thread(wait_for, lambda: b.health()["running"]["hint"] == 1)
            assert a.shared is not None and a.shared.status == "per process"
            GATE.set()
            assert await asyncio.gather(one, two) == ["a", "c"]
        finally:
            GATE.set()
            a.stop()
            b.stop()
            for q in (a, b):
                assert q.shared is not None
                await q.shared.close()

    asyncio.run(main())


def test_a_dead_processs_holds_lapse_and_two_takers_never_pass_the_last_place(
    redis_url: str,
) -> None:
    prefix = f"piquet:test:{secrets.token_hex(6)}"

    async def main() -> None:
        shared = SharedQuotas(redis_url, prefix=prefix, timeout=SLOW)
        try:
            # twenty asks at once for five places: five pass, whatever the interleaving
            got = await asyncio.gather(
                *(shared.take("ann", "hint", 5, 60.0) for _ in range(20)),
                return_exceptions=True)
            assert sum(1 for g in got if isinstance(g, str)) == 5
            # a process that took one and died never gives it back: it lapses by itself
            await shared.take("bob", "hint", 1, 0.2)
            await asyncio.sleep(0.5)
            assert await shared.take("bob", "hint", 1, 60.0) is not None
        finally:
            await shared.close()

    asyncio.run(main())


def test_two_web_processes_hold_a_client_to_one_quota_through_redis(
    pg_servers: Any, redis_url: str
) -> None:
    """Two ``piquet serve`` processes over PostgreSQL and Redis: a client whose quota of
    hints is taken up in Redis (as by a hint it asked of the other process, still being
    made) is refused by either process in words; once given back, it gets its hint."""
    client = "127.0.0.239"  # an address of its own: its count is this test's alone
    with pg_servers("--redis", redis_url, "--quota-hints", "1") as (a, b):
        for server in (a, b):
            # a process counts per process until its live updates have reached Redis,
            # which a loaded machine may take longer than the start's own wait for
            deadline = time.monotonic() + 120
            while (quotas := net.get(server.url + "/api/health").json()["quotas"]) != "shared" \
                    and time.monotonic() < deadline:
                time.sleep(0.2)
            assert quotas == "shared"
        def at(server: Any) -> httpx.Client:
            return httpx.Client(base_url=server.url, timeout=120,
                                transport=httpx.HTTPTransport(local_address=client))

        http = at(a)
        made = http.post("/api/games", json={"opponent": "random", "hints": True}).json()
        gid, token = made["id"], made["token"]
        # its turn (the computer may open the deal)
        # (waiting for the condition: a fresh server's worker may be slow to start)
        deadline = time.monotonic() + 300
        while True:
            view = http.get(f"/api/games/{gid}", params={"wait": 20},
                            headers=bearer(token)).json()
            if view["your_turn"]:
                break
            assert time.monotonic() < deadline, view

        async def hold() -> str | None:
            shared = SharedQuotas(redis_url, timeout=SLOW)
            try:
                return await shared.take(client, "hint", 1, 120.0)
            finally:
                await shared.close()

        async def give(token: str | None) -> None:
            shared = SharedQuotas(redis_url, timeout=SLOW)
            try:
                await shared.give(client, "hint", token)
            finally:
                await shared.close()

        held = asyncio.run(hold())
        assert held is not None
        try:
            for server in (a, b):
                r = at(server).get(f"/api/games/{gid}/hint", headers=bearer(token))
                assert r.status_code == 429 and r.headers["retry-after"], r.text
                assert r.json()["error"] == (
                    "you already have 1 hint being made (at most 1 at once): ask again when "
                    "one is ready")
        finally:
            asyncio.run(give(held))
        r = at(b).get(f"/api/games/{gid}/hint", headers=bearer(token))
        assert r.status_code == 200 and r.json()["hint"], r.text
