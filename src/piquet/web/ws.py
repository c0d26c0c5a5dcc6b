"""The WebSocket of live updates: ``/api/games/{id}/ws``.

The client's first message is ``{"token": TOKEN}``.  The server then sends ``{"type":
"view", "view": ...}`` (the same object as ``GET /api/games/{id}``) now and whenever the
game changes, from any server process; never the same view twice running, nor an older one
after a newer.  The first view also carries ``"socket": ID``, this connection's id: an
action posted over HTTP with it (``POST /api/games/{id}/actions``, ``"socket": ID``) is
answered there, and its view is not sent on this socket as well (:mod:`piquet.web.sockets`).
The client may send ``{"action": ID, "n": N}`` to act (``n``: the log
length of the view acted on).  The answer is the seat's next view, past ``n`` (sent once:
it is also the news every seat hears); a copy of an action already recorded is answered
with the view as it stands; a refusal is an error that says what it answers, ``{"type":
"error", "status": S, "error": "...", "answers": {"action": ID, "n": N}}``, with ``"game":
VIEW`` when the game moved on (409).  The client may also send ``{"type": "ping"}``
(answered ``{"type": "pong"}``) or ``{"type": "refresh"}``.  A chat message written in the
game is told as ``{"type": "talk"}``: the page asks for the chat again.  A message the
server cannot use gets ``{"type": "error", "error": "..."}`` and the connection stays
open; a bad token closes it with code 4404 (4401 without one), too many messages with 4429
(as is a socket over the rate limit, or one more than the sockets one client address may
hold open: :class:`~piquet.web.limits.Guards`).

A first message ``{"token": TOKEN, "presence": true}`` asks to be told who is at the
table: ``{"type": "presence", "here": [SEAT, ...]}`` (the seats with a socket open, on any
server process) after the first view and whenever that changes, ``"here": null`` while it
cannot be known (live updates between processes down).

When live updates between server processes fail (Redis), the server sends
``{"type": "live", "ok": false, "error": "..."}`` (also right after connecting while they
are down): the client then polls ``GET /api/games/{id}`` until ``{"type": "live",
"ok": true}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import json
import logging
from collections.abc import MutableMapping
from typing import Any

from anyio import to_thread
from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from piquet.table.errors import Refusal, TableError
from piquet.web.acting import take
from piquet.web.errors import HTTP_STATUS
from piquet.web.games import Entry, Games
from piquet.web.hub import PRESENCE_EVERY, live_message
from piquet.web.ids import ID_RE
from piquet.web.limits import TokenBuckets, too_deep
from piquet.web.server import Server, server_of
from piquet.web.store import StoreError, unavailable_words

__all__ = ["game_socket", "router"]

log = logging.getLogger("piquet.web")
MAX_MESSAGE = 4096
_HELP = 'send {"action": ID}, {"type": "ping"} or {"type": "refresh"}'


router = APIRouter()
"""The game's WebSocket route (the server read from the socket's application)."""


@router.websocket("/api/games/{game_id}/ws")
async def game_socket(websocket: WebSocket, game_id: str) -> None:
    await websocket.accept()
    try:
        await _Session(websocket, game_id, server_of(websocket)).run()
    except WebSocketDisconnect:
        return
    except StoreError as exc:  # the database fails: say so, the client comes back later
        with contextlib.suppress(Exception):
            await websocket.send_text(
                json.dumps({"type": "error", "error": unavailable_words(exc.said),
                            "status": 503})
            )
            await websocket.close(code=1013)
    except Exception:  # never let one socket take the server down
        log.exception("websocket for game %s failed", game_id)
        with contextlib.suppress(Exception):
            await websocket.close(code=1011)


_UNTOLD = object()  # who is at the table: nothing told yet
_NESTED_TRIES = 3  # refusals of too-deep JSON before the token, then the socket closes
def _message_text(msg: MutableMapping[str, Any]) -> str | None:
    text = msg.get("text")
    return text if isinstance(text, str) else None


class _Session:
    """One connected seat."""

    def __init__(self, websocket: WebSocket, game_id: str, state: Server) -> None:
        self.ws = websocket
        self.game_id = game_id
        self.games: Games = state.games
        self.hub = state.hub
        self.ai = state.ai
        self.sockets = state.sockets
        #: this connection's id (told in the first view), set once the seat is known
        self.sid = ""
        self.seat = -1
        #: the seat's view last sent, as JSON text (or held by the page: :meth:`hold`)
        self.last = ""
        #: the log length of the last view sent (-1: none yet)
        self.last_n = -1
        #: whether the client asked to be told who is at the table, and what it was told
        self.presence = False
        self.told: object = _UNTOLD
        self.lock = asyncio.Lock()
        self.sending: set[asyncio.Task[None]] = set()

    async def call(self, fn: Any, *args: Any, **kwargs: Any) -> Any:
        return await to_thread.run_sync(functools.partial(fn, *args, **kwargs))

    async def send_text(self, body: str) -> None:
        async with self.lock, asyncio.timeout(30):
            await self.ws.send_text(body)

    async def send(self, obj: dict[str, Any]) -> None:
        await self.send_text(json.dumps(obj))

    async def fail(self, message: str, code: int) -> None:
        await self.send({"type": "error", "error": message})
        await self.ws.close(code=code)

    async def push(
        self, *, force: bool = False, heard: int | None = None, first: bool = False
    ) -> None:
        """Send the seat's view if it changed since the last one sent.

        ``heard``: the log length the news announced (then memory may be new enough);
        ``first``: the first message, which tells the connection's id.
        """
        g = self.games
        held = g.cached(self.game_id) if heard is None else g.after_news(self.game_id, heard)
        entry = held or await self.call(g.fresh, self.game_id)
        await self.send_view(entry, force=force, first=first)
        if g.ai_turn(entry) is not None:
            self.ai.kick(self.game_id)

    async def send_view(self, entry: Entry, *, force: bool = False, first: bool = False
                        ) -> None:
        """Send the seat's view of ``entry`` unless it is the last one sent (or held:
        :meth:`hold`), or older."""
        if not force and entry.n < self.last_n:
            return  # a newer view went first (the log only grows)
        body = self.games.seat_body(entry, self.seat)
        if force or body != self.last:
            self.last, self.last_n = body, entry.n
            tail = ',"socket":' + json.dumps(self.sid) + "}" if first else "}"
            await self.send_text('{"type":"view","view":' + body + tail)

    def hold(self, entry: Entry) -> None:
        """The page has ``entry``'s view already (the answer to its action over HTTP, which
        named this socket): it is not sent again, unless it changes."""
        if entry.n > self.last_n:
            self.last, self.last_n = self.games.seat_body(entry, self.seat), entry.n

    async def tell_presence(self) -> None:
        """Send who is at the table, if the client asked and it changed since last told."""
        if not self.presence:
            return
        seats = self.hub.here(self.game_id)
        here = None if seats is None else sorted(seats)
        if here != self.told:
            self.told = here
            await self.send({"type": "presence", "here": here})

    def live_changed(self, ok: bool, error: str | None) -> None:
        """Redis failed or came back: tell the client (it polls while it is down)."""
        task = asyncio.create_task(self.send_live(ok, error))
        self.sending.add(task)
        task.add_done_callback(self.sending.discard)

    async def send_live(self, ok: bool, error: str | None) -> None:
        message = live_message(ok, error, "GET /api/games/{id}")
        with contextlib.suppress(Exception):  # the socket closed meanwhile
            await self.send(message)

    async def authenticate(self) -> bool:
        token = None
        deadline = asyncio.get_running_loop().time() + 30
        # JSON nested too deep is refused with words and the socket kept (a few times, within
        # the same 30 s); any other bad first message closes it
        for _ in range(_NESTED_TRIES + 1):
            left = deadline - asyncio.get_running_loop().time()
            try:
                first = await asyncio.wait_for(self.ws.receive(), max(left, 0.001))
            except TimeoutError:
                await self.fail('send {"token": TOKEN} first', 4401)
                return False
            if first["type"] == "websocket.disconnect":
                return False
            text = _message_text(first)
            if text is None or len(text) > MAX_MESSAGE:
                break
            if too_deep(text):
                await self.send(
                    {"type": "error", "error": 'JSON nested too deep: send {"token": TOKEN}'}
                )
                continue
            try:
                data = json.loads(text)
            except (ValueError, RecursionError):
                break
            if isinstance(data, dict) and isinstance(data.get("token"), str):
                token = data["token"]
                self.presence = data.get("presence") is True
            break
        if token is None:
            await self.fail('the first message must be {"token": TOKEN}', 4401)
            return False
        if not ID_RE.match(self.game_id):
            await self.fail("no such game (or not for this token)", 4404)
            return False
        try:
            seat = self.games.seat_cached(self.game_id, token)
            if seat is None:
                _entry, seat = await self.call(self.games.authenticate, self.game_id, token)
        except TableError as exc:
            await self.fail(exc.message, 4401 if exc.kind is Refusal.NO_TOKEN else 4404)
            return False
        self.seat = seat.seat
        return True

    async def run(self) -> None:
        if not await self.authenticate():
            return
        hub = self.hub
        with hub.watch(self.game_id) as watcher, hub.watch_live(self.live_changed), \
                hub.at_table(self.game_id, self.seat), self.sockets.opened(self) as sid:
            self.sid = sid
            # who is at the table is looked at again now and then: another process's word
            # lapses when it stops speaking
            every = PRESENCE_EVERY if self.presence else None

            closing = False

            async def pump() -> None:
                try:
                    with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                        while not closing:
                            await watcher.wait(every)
                            if closing:
                                return
                            await self.tell_presence()
                            if watcher.talked():  # a chat message: the page asks for it
                                await self.send({"type": "talk"})
                            if not watcher.news:
                                continue
                            try:
                                await self.push(heard=watcher.take())
                            except TableError as exc:
                                await self.send({"type": "error", "error": exc.message})
                            except StoreError as exc:
                                said = unavailable_words(exc.said)
                                await self.send({"type": "error", "error": said,
                                                 "status": 503})
                except Exception:
                    # a socket left open with no views would look live while the table
                    # stands still: closed, the page connects again (and asks over HTTP)
                    log.exception("the views of game %s stopped", self.game_id)
                    with contextlib.suppress(Exception):
                        await self.ws.close(code=1011)

            await self.push(first=True)
            await self.tell_presence()
            if hub.status == "down":
                await self.send_live(False, hub.error)
            pumping = asyncio.create_task(pump())
            limiter = TokenBuckets(20.0, 40.0)
            try:
                while True:
                    msg = await self.ws.receive()
                    if msg["type"] == "websocket.disconnect":
                        return
                    if limiter.take("c"):
                        await self.fail("too many messages: slow down", 4429)
                        return
                    await self.handle(_message_text(msg))
            finally:
                # the seat leaves the table only once the pump is done: never wait on it
                # for ever (it also stops at its next wake, should a cancel be lost)
                closing = True
                pumping.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await asyncio.wait({pumping}, timeout=5)

    async def handle(self, text: str | None) -> None:
        """Answer one client message."""
        if text is None:
            await self.send({"type": "error", "error": f"send JSON text: {_HELP}"})
            return
        if len(text) > MAX_MESSAGE:
            await self.send(
                {"type": "error", "error": f"message too long: at most {MAX_MESSAGE} characters"}
            )
            return
        if too_deep(text):
            await self.send({"type": "error", "error": f"JSON nested too deep: {_HELP}"})
            return
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            await self.send({"type": "error", "error": f"not JSON: {_HELP}"})
            return
        if not isinstance(data, dict):
            await self.send({"type": "error", "error": f"expected an object: {_HELP}"})
            return
        kind = data.get("type")
        action = data.get("action")
        if kind == "ping":
            await self.send({"type": "pong"})
        elif kind == "refresh":
            await self.push(force=True)
        elif isinstance(action, str) and kind in (None, "action"):
            await self.act(action, data.get("n"))
        else:
            await self.send({"type": "error", "error": f"unknown message: {_HELP}"})

    async def act(self, action: str, n: Any) -> None:
        """Apply the seat's ``action`` (chosen on the view of log length ``n``) and answer
        it: with the view past ``n`` (sent once: here, or by the pump if its news came
        first), or with an error that says what it answers (``"answers": {"action": ID,
        "n": N}``, as sent)."""

        answers = {"action": action[:200], "n": n}

        async def refuse(error: str, status: int) -> None:
            await self.send({"type": "error", "error": error, "status": status,
                             "answers": answers})

        if len(action) > 200:
            await refuse("action id too long", 400)
            return
        if type(n) is float and n.is_integer() and abs(n) < 2**53:
            n = int(n)  # a whole number, as over HTTP (JSON Schema's integer)
        if n is not None and (type(n) is not int or n < 0):
            await refuse("n must be the log length of the view acted on: an integer, 0 or "
                         "more", 400)
            return
        entry, known = self.games.current(self.game_id)
        try:
            done = await take(self.games, self.ai, self.game_id, self.seat, action,
                              expect=n, entry=entry, known=known)
        except StoreError as exc:
            await refuse(unavailable_words(exc.said), 503)
            return
        except TableError as exc:
            await refuse(exc.message, HTTP_STATUS[exc.kind])
            return
        if done.conflict is not None:
            # the game is not as the client saw it: the one 409 body, as HTTP sends it
            await self.send_text('{"type":"error","status":409,"answers":'
                                 + json.dumps(answers) + "," + done.conflict[1:])
            return
        if not done.applied:  # a copy of an action already recorded: as it stands
            await self.push(force=True)
        elif done.entry is not None and done.entry.n > self.last_n:
            # the answer, not left to the pump's news: the pump sends the same view only
            # if this has not (a view is sent once), and never an older one after it
            await self.send_view(done.entry)
