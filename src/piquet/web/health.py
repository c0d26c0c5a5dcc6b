"""The health check (``/api/health``): whether the server can serve, its database probed
(a read and a write) at most once a second, its live updates, its quotas and its job
workers."""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from anyio import to_thread
from fastapi import APIRouter
from fastapi.responses import JSONResponse

from piquet import __version__
from piquet.web.errors import RETRY
from piquet.web.models import HealthOut
from piquet.web.server import Server, ServerOf
from piquet.web.store import Store, plainly

__all__ = ["HEALTH_FRESH", "HEALTH_WAIT", "probe", "router"]

log = logging.getLogger("piquet.web")
HEALTH_WAIT = 3.0
"""Seconds the health check waits for the database."""
HEALTH_FRESH = 1.0
"""Seconds a probe of the database (a read and a write) serves the health checks that
follow (they may come often: a load balancer's, a monitor's); a write failed since is
said at once."""

router = APIRouter()


@router.get(
    "/api/health",
    response_model=HealthOut,
    responses={503: {"model": HealthOut}},
    tags=["server"],
)
async def health(state: ServerOf) -> JSONResponse:
    """Whether the server can serve: its database (503 when it fails) and its live
    updates through Redis (``off`` without Redis; ``down`` does not make it 503:
    moves still work, pages poll)."""
    store: Store = state.store
    problem = await probe(state, store)
    body: dict[str, Any] = {
        "ok": problem is None,
        "version": __version__,
        "database": "ok" if problem is None else "failing",
        "redis": state.hub.status,
        "quotas": "shared" if state.jobs.shared is not None and state.hub.status == "ok"
        and state.jobs.shared.status == "shared" else "per process",
        "workers": state.jobs.health(),
    }
    if problem is None and body["workers"]["status"] == "down":
        # no worker alive (each is being replaced): the computer cannot move now
        body["ok"] = False
        body["error"] = "the computer's workers are all down; new ones are starting"
        return JSONResponse(body, status_code=503, headers=RETRY)
    if problem is None:
        return JSONResponse(body)
    body["error"] = plainly(problem)  # the details (a path, a host) go to the log
    return JSONResponse(body, status_code=503, headers=RETRY)


async def probe(state: Server, store: Store) -> str | None:
    """The database as it is now: a read and a write probe (:meth:`Store.health`), at
    most one every ``HEALTH_FRESH`` seconds (the checks meanwhile share it), and a
    write failed since then said at once."""
    async with state.probing:  # health checks arriving together share one probe
        checked, before = state.health or (-HEALTH_FRESH, None)
        if time.monotonic() - checked < HEALTH_FRESH:
            # the probe just made, and any write since: a failed one (a move's, the
            # probe's) stands until a write succeeds
            return store.known_failure()
        lost = store.lost() or store.damaged
        if lost is not None:
            return lost
        try:
            problem = await asyncio.wait_for(to_thread.run_sync(store.health), HEALTH_WAIT)
        except TimeoutError:
            problem = f"the database did not answer within {HEALTH_WAIT:g} s"
            store.note_failure(problem)
        if problem != before:
            if problem is None:
                log.warning("piquet: health: the database answers again")
            else:
                log.warning("piquet: health: %s", problem)
        state.health = (time.monotonic(), problem)
        return problem
