"""Quotas that hold across web processes: each client's jobs counted in Redis.

With several web processes (``--redis``), a client's hints and analyses are counted in
Redis, so its quota holds whichever process it asks: each job held is a member of a
sorted set ``PREFIX:CLIENT:WHAT`` whose score is the moment it lapses (by Redis's own
clock), so the holds of a process killed mid-job lapse by themselves after their time
limit instead of locking the client out.  Taking a hold is one Lua script (count the
live holds, refuse at the limit, else add one): two processes asked at once cannot both
pass the last place.

While Redis does not answer (within ``timeout`` seconds; it is asked again
:data:`AGAIN` seconds later) each process counts on its own, as without Redis
(:attr:`SharedQuotas.status` says ``per process``; ``/api/health`` reports it); once
Redis answers again the counting is shared again.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from typing import Any, Final

__all__ = ["SharedFull", "SharedQuotas"]

log = logging.getLogger("piquet.jobs")

AGAIN: Final = 5.0
"""Seconds after Redis failed to answer before it is asked again (meanwhile each process
counts on its own)."""
_TAKE: Final = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
local n = redis.call('ZCARD', KEYS[1])
if n >= tonumber(ARGV[1]) then return -n end
redis.call('ZADD', KEYS[1], now + tonumber(ARGV[2]), ARGV[3])
redis.call('EXPIRE', KEYS[1], math.ceil(tonumber(ARGV[2])) + 1)
return n + 1
"""


class SharedFull(Exception):
    """The client already holds ``held`` of its quota, counted across the processes."""

    def __init__(self, held: int) -> None:
        super().__init__(held)
        self.held = held


class SharedQuotas:
    """The clients' holds in Redis at ``url``; :meth:`take` and :meth:`give` a hold."""

    def __init__(
        self, url: str, *, prefix: str = "piquet:quota", timeout: float = 0.5
    ) -> None:
        self.url = url
        self.prefix = prefix
        self.timeout = timeout
        self.status = "shared"
        """``shared`` while Redis answers, ``per process`` after it failed to."""
        self._redis: Any = None
        self._script: Any = None
        self._quiet_until = 0.0
        """After a failure, Redis is not asked again before this (loop time): a request
        does not wait on a dead Redis each time."""

    def _client(self) -> Any:
        if self._redis is None:
            import redis.asyncio as aioredis

            self._redis = aioredis.Redis.from_url(
                self.url,
                socket_timeout=self.timeout,
                socket_connect_timeout=self.timeout,
                retry_on_timeout=False,
            )
            self._script = self._redis.register_script(_TAKE)
        return self._redis

    def _failed(self, exc: BaseException) -> None:
        self._quiet_until = asyncio.get_running_loop().time() + AGAIN
        if self.status == "shared":
            log.warning("piquet: Redis failed (%s): quotas are counted per process until "
                        "it is back", exc.__class__.__name__)
        self.status = "per process"

    def _answered(self) -> None:
        if self.status != "shared":
            log.warning("piquet: Redis is back: quotas are counted across processes again")
        self.status = "shared"

    async def take(self, client: str, what: str, limit: int, lapse: float) -> str | None:
        """Hold one of ``client``'s ``limit`` places of ``what`` for at most ``lapse``
        seconds; its token (for :meth:`give`), or None when Redis does not answer (the
        caller counts on its own).  Raises :class:`SharedFull` at the limit."""
        if asyncio.get_running_loop().time() < self._quiet_until:
            return None
        token = secrets.token_hex(8)
        try:
            self._client()
            n = await asyncio.wait_for(
                self._script(keys=[f"{self.prefix}:{client}:{what}"],
                             args=[limit, lapse, token]),
                2 * self.timeout,
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._failed(exc)
            return None
        self._answered()
        if int(n) <= 0:
            raise SharedFull(-int(n))
        return token

    async def give(self, client: str, what: str, token: str | None) -> None:
        """Give back a hold (nothing if it was not taken in Redis, or Redis fails: it
        lapses then by itself)."""
        if token is None:
            return
        try:
            await asyncio.wait_for(
                self._client().zrem(f"{self.prefix}:{client}:{what}", token),
                2 * self.timeout,
            )
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._failed(exc)

    async def close(self) -> None:
        if self._redis is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._redis.aclose(), self.timeout)
            self._redis = None
