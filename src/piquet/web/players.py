"""A browser's games, invitations, the rules in full, and the API's documentation offline.

- **Your games**: a browser gets a long random identity in a cookie (``piquet_id``,
  HttpOnly, only sent to ``/api/me``).  The table tells the server each seat it takes
  (``POST /api/me/games`` with the seat's token); ``GET /api/me/games`` lists them with
  their status, score and format.  Only the identity's SHA-256 is stored, and each seat's
  token is kept sealed with the identity itself (a keyed stream, HMAC-SHA256), so the
  database alone opens no seat; ``GET /api/me/games/{id}/seat`` gives it back to the
  browser that holds the cookie (a table whose local memory was cleared).
- **An invitation**, before a name is asked: who invites you, to which rules and format;
  a used or replaced link says so.
- **The rules**: every knob of a rule set with its meaning and source (as ``piquet rules
  NAME``), for the table's Rules panel.
- **/docs**: Swagger UI (version 5: it reads OpenAPI 3.1) from the files of the installed
  ``fastapi_offline`` package, no network.
"""

from __future__ import annotations

import base64
import functools
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, Final

import sqlalchemy as sa
from anyio import to_thread
from fastapi import APIRouter, Cookie, FastAPI, Request
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import BaseModel, Field
from sqlalchemy.exc import IntegrityError

from piquet.core.rules import KNOB_DOCS, Format, value_text
from piquet.core.sources import citation
from piquet.table.errors import Refusal, TableError
from piquet.table.summary import TITLES, format_label, rules_summary
from piquet.web.games import Entry, Games
from piquet.web.ids import ID_PATTERN, GameId
from piquet.web.practice import refusals
from piquet.web.refusals import hash_secret, preset_named
from piquet.web.server import Server, ServerOf

__all__ = ["IDENTITY_COOKIE", "mount_docs", "open_box", "router", "seal"]

IDENTITY_COOKIE: Final = "piquet_id"
_YEARS_2: Final = 2 * 365 * 24 * 3600
_meta: Final = sa.MetaData()
player_games_t: Final = sa.Table(
    "piquet_player_games",
    _meta,
    sa.Column("identity_hash", sa.String(64), primary_key=True),
    sa.Column("game_id", sa.String(32), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("token_box", sa.String(256), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)
MAX_LISTED: Final = 40


# ---------------------------------------------------------------------- sealing a token
def _stream(identity: str, game_id: str, seat: int, size: int) -> bytes:
    out = b""
    block = 0
    while len(out) < size:
        msg = f"piquet-seat:{game_id}:{seat}:{block}".encode()
        out += hmac.new(identity.encode(), msg, hashlib.sha256).digest()
        block += 1
    return out[:size]


def seal(identity: str, game_id: str, seat: int, token: str) -> str:
    """``token`` sealed with ``identity`` (each (game, seat) has its own key stream)."""
    raw = token.encode()
    key = _stream(identity, game_id, seat, len(raw))
    return base64.urlsafe_b64encode(bytes(a ^ b for a, b in zip(raw, key, strict=True))).decode()


def open_box(identity: str, game_id: str, seat: int, box: str) -> str:
    """The token :func:`seal` sealed."""
    raw = base64.urlsafe_b64decode(box.encode())
    key = _stream(identity, game_id, seat, len(raw))
    return bytes(a ^ b for a, b in zip(raw, key, strict=True)).decode("utf-8", "replace")


# ---------------------------------------------------------------------- what a game is now
def game_line(games: Games, entry: Entry, seat: int) -> dict[str, Any]:
    """One row of "Your games": the game, its state in words, the score."""
    row, m = entry.row, entry.live.match
    body = games.seat_json(entry, seat, last_deal=False)
    rules = preset_named(row.rules)
    v = body["view"]
    # a seat nobody has taken yet has a placeholder name ("Friend 1"): not shown
    names = [s.name if s.kind != "human" or s.token_hash is not None
             else "(seat not taken yet)" for s in row.seats]
    resigned = entry.live.state.resigned
    if resigned is not None:
        state, status = (
            "over",
            ("You resigned" if resigned == seat else f"{names[resigned]} resigned"),
        )
    elif m.finished:
        res = m.result() or {}
        w = res.get("winner")
        state = "over"
        status = "Finished: " + (
            "drawn" if w is None else ("you won" if w == seat else f"{names[w]} won")
        )
        if res.get("settled"):  # a partie: what it was settled for
            status += f", settled at {res['settled']}" + (
                " (the loser rubiconed)" if res.get("rubiconed") else "")
    elif any(s.kind == "human" and s.token_hash is None for s in row.seats):
        state, status = "waiting", "Waiting for a friend to take the seat"
    elif m.to_act == seat:
        state, status = "yours", "Your turn"
    elif m.to_act is None:
        state, status = "waiting", "—"
    else:
        state, status = "theirs", f"{names[m.to_act]} to play"
    # the caller's own score first
    shown = sorted(enumerate(v["in_game"]), key=lambda ip: ip[1] != seat)
    score = " · ".join(
        ("You" if p == seat else names[p]) + f" {v['scores'][i]}" for i, p in shown)
    fmt = Format(row.format)
    if fmt is Format.PARTIE and not m.finished and resigned is None:
        score += f" (deal {v['deal_number']} of {rules.partie_deals})"
    return {
        "id": row.id,
        "seat": seat,
        "rules": row.rules,
        "format": row.format,
        "format_label": format_label(rules, fmt),
        "opponents": ", ".join(n for i, n in enumerate(names) if i != seat),
        "score": score,
        "state": state,
        "status": status,
        "finished": bool(m.finished or resigned is not None),
        "replay": bool(m.finished or resigned is not None),
        "created": row.created_at,
    }


# ---------------------------------------------------------------------- the routes
class SeatIn(BaseModel):
    id: str = Field(max_length=32, pattern=ID_PATTERN)
    token: str = Field(max_length=200)


class InvitationIn(BaseModel):
    invite: str = Field(max_length=200)


router = APIRouter()
"""``/api/me/...``, ``/api/games/{id}/invitation`` and ``/api/rules/{name}``."""


async def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return await to_thread.run_sync(functools.partial(fn, *args, **kwargs))


def engine_of(state: Server) -> sa.Engine:
    """The server's database."""
    return state.games.store.engine


def identity_of(value: str | None) -> str | None:
    return value if value and 30 <= len(value) <= 100 else None


async def account_identity(state: Server, request: Request) -> str | None:
    """The logged-in account's identity (its games are kept under it), or None."""
    from piquet.web.accounts import ACCOUNT_COOKIE, account_of

    session = request.cookies.get(ACCOUNT_COOKIE)
    if not session:
        return None
    account = await run(account_of, engine_of(state), session)
    return account.identity if account is not None else None


async def whose(state: Server, request: Request, piquet_id: str | None) -> str | None:
    """Whose games: the logged-in account's, else this browser's (its cookie)."""
    return await account_identity(state, request) or identity_of(piquet_id)


def with_cookie(resp: Response, identity: str, request: Request) -> Response:
    resp.set_cookie(
        IDENTITY_COOKIE,
        identity,
        max_age=_YEARS_2,
        path="/api/me",
        httponly=True,
        samesite="lax",
        secure=request.url.scheme == "https",
    )
    return resp


@router.post(
    "/api/me/games",
    tags=["your games"],
    summary="Add a seat to your games",
    responses=refusals(401, 404, 409),
)
async def add_game(
    body: SeatIn, request: Request, state: ServerOf, piquet_id: str | None = Cookie(None)
) -> Response:
    """Remember the seat ``token`` opens in game ``id`` under the logged-in account,
    else this browser's identity cookie (made here if it has none).  404 if the token
    opens no seat of that game."""
    account = await account_identity(state, request)
    identity = account or identity_of(piquet_id) or secrets.token_urlsafe(32)
    _entry, seat = await run(state.games.authenticate, body.id, body.token)

    def put() -> None:
        values = {
            "identity_hash": hash_secret(identity),
            "game_id": body.id,
            "seat": seat.seat,
            "token_box": seal(identity, body.id, seat.seat, body.token),
            "created_at": time.time(),
        }
        try:
            with engine_of(state).begin() as conn:
                conn.execute(
                    player_games_t.delete().where(
                        player_games_t.c.identity_hash == values["identity_hash"],
                        player_games_t.c.game_id == body.id,
                        player_games_t.c.seat == seat.seat,
                    )
                )
                conn.execute(player_games_t.insert().values(**values))
        except IntegrityError:
            # the same seat remembered by a request at the same moment (two tabs, a
            # retry): PostgreSQL lets both delete nothing, and the other's row stands
            pass

    await run(put)
    answer = JSONResponse({"ok": True, "seat": seat.seat, "account": account is not None})
    return answer if account is not None else with_cookie(answer, identity, request)


def rows_of(engine: sa.Engine, identity: str) -> list[Any]:
    with engine.connect() as conn:
        return list(
            conn.execute(
                sa.select(player_games_t)
                .where(player_games_t.c.identity_hash == hash_secret(identity))
                .order_by(player_games_t.c.created_at.desc())
                .limit(MAX_LISTED)
            ).all()
        )


@router.get("/api/me/games", tags=["your games"], summary="Your games", responses=refusals())
async def list_games(
    request: Request, state: ServerOf, piquet_id: str | None = Cookie(None)
) -> dict[str, Any]:
    """Your games (the logged-in account's, on any device; else this browser's), newest
    first: rules, format, opponents, score, status (``state``: yours, theirs, waiting,
    over) and whether a replay is open."""
    identity = await whose(state, request, piquet_id)
    if identity is None:
        return {"games": []}
    out = []
    for r in await run(rows_of, engine_of(state), identity):
        try:
            entry = state.games.cached(r.game_id) or await run(state.games.fresh, r.game_id)
        except TableError:
            continue  # the game is gone
        out.append(game_line(state.games, entry, r.seat))
    return {"games": out}


@router.get(
    "/api/me/games/{game_id}/seat",
    tags=["your games"],
    summary="Your seat's token",
    responses=refusals(404),
)
async def my_seat(
    game_id: GameId, request: Request, state: ServerOf, piquet_id: str | None = Cookie(None)
) -> dict[str, Any]:
    """The token of this browser's seat at ``game_id``; ``seat`` and ``token`` null if
    it holds none there (an answer, not a fault: a page asks before it offers to join);
    404 if there is no such game."""
    if await run(state.games.store.game, game_id) is None:
        raise TableError(
            Refusal.NOT_FOUND, "no such game: the link may be mistyped or cut short"
        )
    identity = await whose(state, request, piquet_id)
    none = {"id": game_id, "seat": None, "token": None}
    if identity is None:
        return none

    def find() -> Any:
        with engine_of(state).connect() as conn:
            return conn.execute(
                sa.select(player_games_t).where(
                    player_games_t.c.identity_hash == hash_secret(identity),
                    player_games_t.c.game_id == game_id,
                )
            ).first()

    r = await run(find)
    if r is None:
        return none
    return {
        "id": game_id,
        "seat": r.seat,
        "token": open_box(identity, game_id, r.seat, r.token_box),
    }


@router.delete(
    "/api/me/games/{game_id}",
    tags=["your games"],
    summary="Forget a game",
    responses=refusals(),
)
async def forget(
    game_id: GameId, request: Request, state: ServerOf, piquet_id: str | None = Cookie(None)
) -> dict[str, Any]:
    """Take ``game_id`` off your list (the game itself goes on)."""
    identity = await whose(state, request, piquet_id)
    if identity is not None:

        def drop() -> None:
            with engine_of(state).begin() as conn:
                conn.execute(
                    player_games_t.delete().where(
                        player_games_t.c.identity_hash == hash_secret(identity),
                        player_games_t.c.game_id == game_id,
                    )
                )

        await run(drop)
    return {"ok": True}


@router.post(
    "/api/games/{game_id}/invitation",
    tags=["games"],
    summary="What an invitation opens",
    responses=refusals(404, 410),
)
async def invitation(game_id: GameId, body: InvitationIn, state: ServerOf) -> dict[str, Any]:
    """Before joining: who invites you, to which rule set and format.  404: no such
    game or link; 410: the invitation was used (the seat is taken) or replaced, or the
    game is over."""
    row = await run(state.games.store.game, game_id)
    if row is None:
        raise TableError(
            Refusal.NOT_FOUND, "no such game: the link may be mistyped or cut short"
        )
    digest = hash_secret(body.invite)
    seat = next(
        (
            s
            for s in row.seats
            if s.token_hash is None
            and s.invite_hash is not None
            and hmac.compare_digest(s.invite_hash, digest)
        ),
        None,
    )
    if seat is None:
        if sum(s.kind == "human" for s in row.seats) < 2:
            raise TableError(
                Refusal.NOT_FOUND,
                "this game has no seat for a friend: the link is none of its invitations",
            )
        if not any(s.kind == "human" and s.token_hash is None for s in row.seats):
            raise TableError(
                Refusal.GONE,
                "this invitation has been used: its seat is taken. Ask whoever sent it "
                "for a new game.",
            )
        raise TableError(
            Refusal.GONE,
            "this invitation link has been replaced by a newer one: ask for the new link",
        )
    if state.games.over(await run(state.games.fresh, game_id)):
        raise TableError(
            Refusal.GONE, "this game is over: ask whoever sent the link for a new game"
        )
    rules = preset_named(row.rules)
    from piquet.web.rated import rated_game

    rated = await run(rated_game, engine_of(state), game_id) is not None
    hosts = [s.name for s in row.seats if s.kind == "human" and s.token_hash is not None]
    others = [s.name for s in row.seats if s.seat != seat.seat and s.name not in hosts[:1]]
    return {
        "id": game_id,
        "seat": seat.seat,
        "host": hosts[0] if hosts else "A player",
        "others": others,
        "rules": row.rules,
        "title": TITLES.get(row.rules, row.rules),
        "format": row.format,
        "format_label": format_label(rules, Format(row.format)),
        "summary": rules_summary(rules, Format(row.format)),
        "rated": rated,
    }


@router.get(
    "/api/rules/{name}",
    tags=["games"],
    summary="Every rule of a rule set",
    responses=refusals(404),
)
async def rules_in_full(name: str) -> dict[str, Any]:
    """Each knob of the rule set: its value, what it means, and its source passage."""
    r = preset_named(name)
    return {
        "name": r.name,
        "title": TITLES.get(r.name, r.name),
        "knobs": [
            {
                "knob": k,
                "value": value_text(v),
                "meaning": KNOB_DOCS.get(k, ""),
                "source": citation(r.name, k),
            }
            for k, v in r.knobs().items()
            if k != "name"
        ],
    }


# ---------------------------------------------------------------------- /docs, offline
def mount_docs(app: FastAPI) -> None:
    """Serve Swagger UI at ``/docs`` from the files of the installed ``fastapi_offline``
    (under ``/docs/assets``; only its files are used): the page needs no network.  Create
    the app with ``docs_url=None``."""
    import fastapi_offline

    assets = Path(fastapi_offline.__file__).parent / "static"
    app.mount("/docs/assets", StaticFiles(directory=assets), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title}: the API",
            swagger_js_url="/docs/assets/swagger-ui-bundle.js",
            swagger_css_url="/docs/assets/swagger-ui.css",
            swagger_favicon_url="/static/favicon.svg",
            swagger_ui_parameters={"defaultModelsExpandDepth": 0},
        )
