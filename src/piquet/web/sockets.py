"""This process's open game sockets by id, so that a seat's view goes once to a page that
acts over HTTP while its socket is open.

Each game socket (:mod:`piquet.web.ws`) is given an id, told to the page in its first
message (``{"type": "view", ..., "socket": ID}``).  A page that acts by ``POST
/api/games/{id}/actions`` may send that id (``"socket": ID`` in the body): once the action
is committed, and before the game's watchers hear of it, the socket is marked as already
holding the view that the HTTP answer carries, so it does not send that view again.  An id
this process does not know (another process's, a socket closed since, a made-up one), or
one of another game or seat, marks nothing: the view is then merely sent twice, as without
an id.  The seat's other sockets (another tab) and every later view (the computer's
reply) are sent as ever.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Callable, Iterator
from typing import Protocol

from piquet.web.entries import Entry

__all__ = ["Holder", "OpenSockets"]


class Holder(Protocol):
    """An open game socket: its game, its seat, and :meth:`hold`."""

    game_id: str
    seat: int

    def hold(self, entry: Entry) -> None:
        """The page has ``entry``'s view (the HTTP answer carries it): never send it."""


class OpenSockets:
    """The game sockets open in this process, by id."""

    def __init__(self) -> None:
        self._open: dict[str, Holder] = {}

    @contextlib.contextmanager
    def opened(self, socket: Holder) -> Iterator[str]:
        """While inside, ``socket`` is open under the id given (a new random one)."""
        sid = secrets.token_urlsafe(12)
        self._open[sid] = socket
        try:
            yield sid
        finally:
            self._open.pop(sid, None)

    def holder(self, sid: str | None, game_id: str, seat: int) -> Callable[[Entry], None] | None:
        """What marks the socket ``sid`` as holding a view of ``game_id`` for ``seat``, or
        None when no such socket is open here (or it is another game's or seat's)."""
        if sid is None:
            return None
        socket = self._open.get(sid)
        if socket is None or socket.game_id != game_id or socket.seat != seat:
            return None
        return socket.hold

    def __len__(self) -> int:
        return len(self._open)
