"""The server's parts, typed: one :class:`Server` object that the routes read, set once
at start-up (the database is opened then, not when the application is made).

Every route reads it through one dependency, :data:`ServerOf` (:func:`server_of`: the
application's ``state.piquet``), never through a closure."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated

from fastapi import Depends
from starlette.requests import HTTPConnection

from piquet.jobs import JobQueue
from piquet.web.ai import AiRunner
from piquet.web.games import Games
from piquet.web.hub import Hub
from piquet.web.sockets import OpenSockets
from piquet.web.store import Store

if TYPE_CHECKING:
    from piquet.web.analysis import Analyses
    from piquet.web.clocks import Clocks
    from piquet.web.learn_routes import Guidance
    from piquet.web.limits import TokenBuckets
    from piquet.web.lobby import Lobby
    from piquet.web.tally import Tallies
    from piquet.web.watch import WatchKeys

__all__ = ["Parts", "Server", "ServerOf", "server_of"]


@dataclass(frozen=True, slots=True)
class Parts:
    """What start-up makes: the store, the hub between processes, the games in memory,
    the computer's seats, and the job queue of the computer's work (moves, hints,
    analyses)."""

    store: Store
    hub: Hub
    games: Games
    ai: AiRunner
    jobs: JobQueue


@dataclass(slots=True)
class Server:
    """The running server's parts (:attr:`parts`, None until start-up), the health last
    measured (``(monotonic time, problem or None)``) and the analyses of finished deals
    (made at the first request; a test may set cheaper ones)."""

    parts: Parts | None = None
    health: tuple[float, str | None] | None = field(default=None)
    analyses: Analyses | None = None
    hint_nodes: int | None = None
    """The positions the advisor's exact search may visit for a hint or the coach's note
    at the exchange (None: the advisor's own; a test may set fewer)."""
    clocks: Clocks | None = None
    """The games' clocks (made at start-up)."""
    create_per_minute: float = 30.0
    """New games, tallies and challenges a minute per client address (0: no limit)."""
    probing: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while the database is probed: health checks arriving together share one probe."""
    tallies: tuple[Store, Tallies] | None = None
    """The tallies, over the store they were made on (made at the first tally request)."""
    tally_creates: TokenBuckets | None = None
    """New tallies a minute per client address (made at the first new tally)."""
    guidance: Guidance | None = None
    """The guided games' coaches (made at the first request that needs them)."""
    lobby: Lobby | None = None
    """The lobby's challenges (made at the first lobby request)."""
    lobby_posts: TokenBuckets | None = None
    """New challenges a minute per client address (made at the first challenge)."""
    watch_keys: WatchKeys | None = None
    """The spectator links' keys (made at the first spectator request)."""
    sockets: OpenSockets = field(default_factory=OpenSockets)
    """The game sockets open in this process, by the id each page is told (an HTTP action
    that names its page's socket is not sent to it again: :mod:`piquet.web.sockets`)."""

    def _started(self) -> Parts:
        if self.parts is None:  # pragma: no cover - a route runs only once started
            raise RuntimeError("the server is not started")
        return self.parts

    @property
    def store(self) -> Store:
        return self._started().store

    @property
    def hub(self) -> Hub:
        return self._started().hub

    @property
    def games(self) -> Games:
        return self._started().games

    @property
    def ai(self) -> AiRunner:
        return self._started().ai

    @property
    def jobs(self) -> JobQueue:
        return self._started().jobs


def server_of(connection: HTTPConnection) -> Server:
    """The server whose route is asked (a request's or a WebSocket's)."""
    server: Server = connection.app.state.piquet
    return server


async def _served(connection: HTTPConnection) -> Server:
    # a coroutine: FastAPI runs a plain function dependency in a worker thread, a round
    # trip between threads on every request for one attribute read
    return server_of(connection)


ServerOf = Annotated[Server, Depends(_served)]
"""A route's parameter that is the running :class:`Server`."""
