"""Spectators: a link that shows a game as the public sees it, and never a hand.

A seat asks for the game's spectator link (``POST /api/games/{id}/watch-link``); whoever
holds it may follow the game (``GET /api/games/{id}/watch``, the key in
``Authorization: Bearer KEY``) and hear of every move on the WebSocket
``/api/games/{id}/watch/ws`` (first message ``{"key": KEY}``).  What is sent is built by
the engine's public view (:meth:`piquet.core.match.Match.public_view`,
:func:`piquet.core.view.public_view`): the cards both players have shown or played, the dialog,
the score and the counts; never a hand, a discard or the stock, not even once the deal is
over.  Nothing here removes fields from a seat's view: a spectator's body is made from
the public view alone.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import hmac
import json
import logging
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from fastapi.responses import HTMLResponse, Response
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from piquet import __version__
from piquet.core.view import public_view
from piquet.table.errors import Refusal, TableError
from piquet.web.games import Entry, Games
from piquet.web.hub import live_message
from piquet.web.ids import ID_RE, Creds, GameId, token_of
from piquet.web.limits import TokenBuckets, too_deep
from piquet.web.server import Server, ServerOf, server_of
from piquet.web.showing import seats_json
from piquet.web.store import metadata

__all__ = ["WatchKeys", "public_body", "public_json", "router", "watch_keys_t"]

log = logging.getLogger("piquet.web")
STATIC: Final = Path(__file__).parent / "static"
NOT_FOUND: Final = "no such game (or not for this spectator link)"
watch_keys_t: Final = sa.Table(
    "piquet_watch_keys",
    metadata,
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("key", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)


def public_json(entry: Entry) -> dict[str, Any]:
    """What a spectator is sent: the engine's public view of the game, the seats' names,
    and the public view of the deal just finished, as it stood at its end.  A game a
    seat resigned is over: ``finished``, nobody to act, and ``result`` names who resigned
    and who won, as the seats' views say it."""
    row, live = entry.row, entry.live
    m = live.match
    view = m.public_view()
    view["names"] = [s.name for s in row.seats]
    last = None
    if live.last_deal is not None and m.deals:
        summary = m.deals[-1]
        last = public_view(live.last_deal).to_json()
        last["number"] = len(m.deals)
        last["elder"], last["younger"] = summary.players
    result = live.state.result()
    over = live.state.over
    return {
        "id": row.id,
        "spectator": True,
        "n": live.n,
        "rules": row.rules,
        "format": row.format,
        "finished": over,
        "to_act": None if over else m.to_act,
        "resigned": live.state.resigned,
        "aborted": live.state.aborted,
        "timed_out": live.state.timed_out,
        "seats": seats_json(row.seats),
        "view": view,
        "last_deal": last,
        "result": result,
    }


def public_body(entry: Entry) -> str:
    return json.dumps(public_json(entry), ensure_ascii=False, separators=(",", ":"))


class WatchKeys:
    """Each game's spectator key (one per game, made on the first request).  It opens
    only the public view, so it is kept as it is (a seat may ask for it again)."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._held: OrderedDict[str, str] = OrderedDict()
        self._lock = threading.Lock()

    def _remember(self, game_id: str, key: str) -> None:
        with self._lock:
            self._held[game_id] = key
            self._held.move_to_end(game_id)
            while len(self._held) > 4096:
                self._held.popitem(last=False)

    def key(self, game_id: str) -> str | None:
        """The game's key, or None if none was made.  Blocks on a miss."""
        with self._lock:
            held = self._held.get(game_id)
        if held is not None:
            return held
        t = watch_keys_t.c
        with self.engine.connect() as conn:
            found = conn.execute(sa.select(t.key).where(t.game_id == game_id)).scalar()
        if found is not None:
            self._remember(game_id, str(found))
        return None if found is None else str(found)

    def make(self, game_id: str) -> str:
        """The game's key, made now if there is none.  Blocks."""
        old = self.key(game_id)
        if old is not None:
            return old
        key = secrets.token_urlsafe(18)
        try:
            with self.engine.begin() as conn:
                conn.execute(
                    watch_keys_t.insert().values(game_id=game_id, key=key, created_at=time.time())
                )
        except IntegrityError:  # made meanwhile by another request
            other = self.key(game_id)
            assert other is not None
            return other
        self._remember(game_id, key)
        return key

    def opens(self, game_id: str, key: str | None) -> bool:
        """Whether ``key`` is ``game_id``'s spectator key.  Blocks on a miss."""
        if not key or len(key) > 100 or not ID_RE.match(game_id):
            return False
        real = self.key(game_id)
        return real is not None and hmac.compare_digest(real, key)


_ERRORS: Final[dict[int | str, dict[str, Any]]] = {
    c: {"description": 'An error: {"error": ...}'} for c in (401, 404, 429)
}


router = APIRouter()
"""The spectator link's routes and page (the server read through :data:`ServerOf`, or
from the socket's application)."""


@functools.cache
def _page_html() -> str:
    return (STATIC / "index.html").read_text(encoding="utf-8").replace("{{version}}", __version__)


def _keys(state: Server) -> WatchKeys:
    """The server's spectator keys (made anew over a store opened anew)."""
    held = state.watch_keys
    if held is None or held.engine is not state.store.engine:
        held = state.watch_keys = WatchKeys(state.store.engine)
    return held


async def _run(fn: Callable[..., Any], *args: Any) -> Any:
    return await to_thread.run_sync(functools.partial(fn, *args))


async def _current(state: Server, game_id: str) -> Entry:
    games: Games = state.games
    entry = games.cached(game_id)
    if entry is None:
        entry = await _run(games.fresh, game_id)
    return entry


def page() -> HTMLResponse:
    return HTMLResponse(_page_html(), headers={"cache-control": "no-cache"})


router.add_api_route("/watch/{game_id}", page, methods=["GET"], include_in_schema=False)


@router.post("/api/games/{game_id}/watch-link", responses=_ERRORS, tags=["spectators"])
async def watch_link(game_id: GameId, creds: Creds, state: ServerOf) -> dict[str, str]:
    """The game's spectator link (a seat's token opens it): whoever has the link sees
    what both players have made public, never a hand."""
    games: Games = state.games
    token = token_of(creds)
    if games.seat_cached(game_id, token) is None:
        await _run(games.authenticate, game_id, token)
    key = await _run(_keys(state).make, game_id)
    return {"key": key, "url": f"/watch/{game_id}#key={key}"}


@router.get("/api/games/{game_id}/watch", responses=_ERRORS, tags=["spectators"])
async def watch(game_id: GameId, creds: Creds, state: ServerOf) -> Response:
    """The game as a spectator sees it (the spectator key as the bearer token): the
    engine's public view, the seats, the deal just finished as the public saw it."""
    key = token_of(creds)
    if key is None:
        raise TableError(Refusal.NO_TOKEN, "send the spectator key: Authorization: Bearer KEY")
    if not await _run(_keys(state).opens, game_id, key):
        raise TableError(Refusal.NOT_FOUND, NOT_FOUND)
    return Response(public_body(await _current(state, game_id)), media_type="application/json")


@router.websocket("/api/games/{game_id}/watch/ws")
async def watch_socket(websocket: WebSocket, game_id: str) -> None:
    await websocket.accept()
    state = server_of(websocket)
    try:
        await _spectate(websocket, game_id, state, _keys(state),
                        functools.partial(_current, state), public_body)
    except WebSocketDisconnect:
        return
    except Exception:  # one socket must not take the server down
        log.exception("spectator socket for game %s failed", game_id)
        with contextlib.suppress(Exception):
            await websocket.close(code=1011)


async def _spectate(
    ws: WebSocket,
    game_id: str,
    state: Server,
    keys: WatchKeys,
    current: Callable[[str], Any],
    public: Callable[[Entry], str],
) -> None:
    """One spectator: ``{"key": KEY}`` first; then the public view now and at every change.
    ``{"type": "ping"}`` is answered ``pong``, ``{"type": "refresh"}`` sends the view
    again; anything else (an action) gets an error: spectators do not play."""
    try:
        first = await asyncio.wait_for(ws.receive(), 30)
    except TimeoutError:
        await _fail(ws, 'send {"key": KEY} first', 4401)
        return
    if first["type"] == "websocket.disconnect":
        return
    key = None
    text = first.get("text")
    if isinstance(text, str) and len(text) <= 4096 and not too_deep(text):
        with contextlib.suppress(ValueError, RecursionError):
            data = json.loads(text)
            if isinstance(data, dict) and isinstance(data.get("key"), str):
                key = data["key"]
    if key is None:
        await _fail(ws, 'the first message must be {"key": KEY}', 4401)
        return
    if not await to_thread.run_sync(keys.opens, game_id, key):
        await _fail(ws, NOT_FOUND, 4404)
        return
    lock = asyncio.Lock()
    last = {"body": ""}

    async def send(text: str) -> None:
        async with lock, asyncio.timeout(30):
            await ws.send_text(text)

    async def push(force: bool = False) -> None:
        try:
            body = '{"type":"view","view":' + public(await current(game_id)) + "}"
        except TableError as exc:
            await send(json.dumps({"type": "error", "error": exc.message}))
            return
        if force or body != last["body"]:
            last["body"] = body
            await send(body)

    hub = state.hub
    sending: set[asyncio.Task[None]] = set()

    async def send_live(ok: bool, error: str | None) -> None:
        # as the seats' socket says it; the spectator's page polls its own view
        message = live_message(ok, error, "GET /api/games/{id}/watch")
        with contextlib.suppress(Exception):  # the socket closed meanwhile
            await send(json.dumps(message))

    def live_changed(ok: bool, error: str | None) -> None:
        task = asyncio.create_task(send_live(ok, error))
        sending.add(task)
        task.add_done_callback(sending.discard)

    with hub.watch(game_id) as watcher, hub.watch_live(live_changed):

        async def pump() -> None:
            with contextlib.suppress(WebSocketDisconnect, RuntimeError):
                while True:
                    await watcher.wait()
                    if watcher.news:  # (not who is at the table: spectators are not told)
                        watcher.take()
                        await push()

        await push()
        if hub.status == "down":
            await send_live(False, hub.error)
        pumping = asyncio.create_task(pump())
        limiter = TokenBuckets(20.0, 40.0)
        try:
            while True:
                msg = await ws.receive()
                if msg["type"] == "websocket.disconnect":
                    return
                if limiter.take("c"):
                    await _fail(ws, "too many messages: slow down", 4429)
                    return
                kind = None
                text = msg.get("text") or ""
                # JSON nested too deep is no command (and never reaches the parser)
                with contextlib.suppress(ValueError, TypeError, RecursionError):
                    data = None if too_deep(text) else json.loads(text)
                    kind = data.get("type") if isinstance(data, dict) else None
                if kind == "ping":
                    await send('{"type":"pong"}')
                elif kind == "refresh":
                    await push(force=True)
                else:
                    await send(json.dumps({
                        "type": "error",
                        "error": 'a spectator only watches: send {"type": "ping"} or '
                        '{"type": "refresh"}',
                    }))
        finally:
            pumping.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await pumping


async def _fail(ws: WebSocket, message: str, code: int) -> None:
    await ws.send_text(json.dumps({"type": "error", "error": message}))
    await ws.close(code=code)
