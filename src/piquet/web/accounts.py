"""Accounts, optional: a name and a password that keep a player's games (and ratings)
across devices.  Play needs no account.

- **Passwords** are hashed with Argon2id (``argon2-cffi``, its default parameters: RFC
  9106's second recommended setting, 64 MiB and 3 passes); the clear password is never
  stored nor logged, and is dropped as soon as it is hashed or checked.
- **Sessions** live in a cookie ``piquet_session`` (HttpOnly, SameSite=Lax, path ``/api``,
  ``Secure`` when the page is served over https); the server keeps only its SHA-256.
  Every login or registration makes a new session id (a session id set before, by anyone,
  is dropped and never becomes a login: no fixation).  Logout ends the session.
- **CSRF**: a second cookie ``piquet_csrf`` (readable by the page's script, not by another
  site's) holds a value derived from the session (HMAC-SHA256 keyed by the session id);
  every state-changing request to ``/api`` that carries the session cookie must send it
  back in the header ``X-CSRF-Token`` (:func:`csrf_refusal`), or it is refused (403) and
  nothing changes.  Login and registration, which carry no session yet, must be JSON
  (``Content-Type: application/json``: a form on another site cannot send it).
- **Throttle**: failed logins are counted in the database (so every server process sees
  them): 5 in 15 minutes for one account, 20 for one client address; beyond, 429 with
  ``Retry-After``.  Registrations: 10 an hour a client address.
- **Your games** follow the account: while logged in, ``/api/me/games`` keeps the seats
  under the account's own identity (a random secret kept in its row) instead of the
  browser's cookie, so they are listed on any device where the account is logged in.
- **Deleting the account** (its password asked again) deletes its row, its sessions, its
  list of games, its ratings, its seek, its presence and its lessons' progress; the games
  themselves stay for the other players in them.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import logging
import math
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from http.cookies import SimpleCookie
from typing import Any, Final

import sqlalchemy as sa
from anyio import to_thread
from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field
from sqlalchemy.exc import IntegrityError

from piquet.table.errors import Refusal, TableError
from piquet.web.ids import client_of
from piquet.web.limits import Scope
from piquet.web.practice import refusals
from piquet.web.refusals import clean_name, hash_secret
from piquet.web.server import Server, ServerOf

__all__ = [
    "ACCOUNT_COOKIE",
    "CSRF_COOKIE",
    "CSRF_HEADER",
    "Account",
    "account_of",
    "accounts_t",
    "csrf_of",
    "csrf_refusal",
    "router",
]

log = logging.getLogger("piquet.web")

ACCOUNT_COOKIE: Final = "piquet_session"
CSRF_COOKIE: Final = "piquet_csrf"
CSRF_HEADER: Final = "x-csrf-token"
SESSION_DAYS: Final = 30
MIN_PASSWORD: Final = 8
MAX_PASSWORD: Final = 128
THROTTLE_WINDOW: Final = 15 * 60.0
ACCOUNT_FAILURES: Final = 5
CLIENT_FAILURES: Final = 20
REGISTER_WINDOW: Final = 3600.0
CLIENT_REGISTRATIONS: Final = 10
_SAFE: Final = frozenset({"GET", "HEAD", "OPTIONS"})
_NO_SESSION_YET: Final = frozenset({"/api/account/login", "/api/account/register"})

_meta: Final = sa.MetaData()
accounts_t: Final = sa.Table(
    "piquet_accounts",
    _meta,
    sa.Column("id", sa.String(32), primary_key=True),
    sa.Column("name", sa.String(64), nullable=False),
    sa.Column("name_key", sa.String(64), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(256), nullable=False),
    sa.Column("identity", sa.String(64), nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
)
sessions_t: Final = sa.Table(
    "piquet_sessions",
    _meta,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("account_id", sa.String(32), nullable=False, index=True),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),
)
login_failures_t: Final = sa.Table(
    "piquet_login_failures",
    _meta,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("key_hash", sa.String(64), nullable=False, index=True),
    sa.Column("at", sa.Float, nullable=False),
)

_hasher: Final = PasswordHasher()
_DUMMY_HASH: Final = (
    # the hash of "not a password of anyone: evens out the time of a miss", made once with
    # the hasher's parameters (a test checks they are still its own, so that checking a
    # name no one has costs what checking a password does) rather than at every import,
    # where it cost every process that imports the web stack a third of a CPU-second
    "$argon2id$v=19$m=65536,t=3,p=4$tkFs5xVSblnHKAzupS3Ipg"
    "$VK5MExSfz3wnLCb8Kf2STmHmoLFIg28eaB8qmeMMVKE"
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Account:
    """A logged-in account: its id, display name and the secret its games are kept under."""

    id: str
    name: str
    identity: str
    created_at: float


def csrf_of(session: str) -> str:
    """The CSRF token that goes with a session id (HMAC-SHA256 keyed by it)."""
    return hmac.new(session.encode(), b"piquet-csrf", hashlib.sha256).hexdigest()


def name_key(name: str) -> str:
    """How two account names are compared: case and width folded."""
    return name.casefold()


def _cookies(scope: Scope) -> dict[str, str]:
    jar: SimpleCookie = SimpleCookie()
    for key, value in scope.get("headers", ()):
        if key == b"cookie":
            try:
                jar.load(value.decode("latin-1"))
            except Exception:
                continue
    return {k: m.value for k, m in jar.items()}


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", ()):
        if key == name:
            return bytes(value).decode("latin-1")
    return None


def csrf_refusal(scope: Scope) -> tuple[int, str] | None:
    """Why an HTTP request is refused before any route reads it, or None: 403 for a
    state-changing ``/api`` request that carries the session cookie without its CSRF token
    in ``X-CSRF-Token``; 415 for a login or registration not sent as JSON.  The check of
    the guards in front of the application (:class:`piquet.web.limits.Guards`)."""
    if scope.get("method", "GET") in _SAFE or not scope["path"].startswith("/api"):
        return None
    path = scope["path"].rstrip("/")
    if path in _NO_SESSION_YET:
        kind = (_header(scope, b"content-type") or "").split(";")[0].strip().lower()
        if kind != "application/json":
            return 415, ("a login or registration is sent as JSON "
                         "(Content-Type: application/json): refused, nothing changed")
        return None
    session = _cookies(scope).get(ACCOUNT_COOKIE)
    if session:
        sent = _header(scope, CSRF_HEADER.encode()) or ""
        if not hmac.compare_digest(sent.encode(), csrf_of(session).encode()):
            return 403, ("this request carries your login cookie but not its CSRF token "
                         "(the header X-CSRF-Token, the value of the piquet_csrf cookie): "
                         "refused, nothing changed. Reload the page and try again.")
    return None


# ---------------------------------------------------------------------- storage
def account_of(engine: sa.Engine, session: str | None) -> Account | None:
    """The account a session id opens, or None (no such session, or expired)."""
    if not session or len(session) > 200:
        return None
    with engine.connect() as conn:
        row = conn.execute(
            sa.select(accounts_t)
            .join(sessions_t, sessions_t.c.account_id == accounts_t.c.id)
            .where(sessions_t.c.token_hash == hash_secret(session),
                   sessions_t.c.expires_at > time.time())
        ).first()
    if row is None:
        return None
    return Account(id=row.id, name=row.name, identity=row.identity, created_at=row.created_at)


def _recent(conn: sa.Connection, key: str, window: float, now: float) -> list[float]:
    digest = hash_secret(key)
    conn.execute(login_failures_t.delete().where(
        login_failures_t.c.key_hash == digest, login_failures_t.c.at <= now - window))
    return sorted(conn.execute(
        sa.select(login_failures_t.c.at).where(login_failures_t.c.key_hash == digest)
    ).scalars())


def _count(conn: sa.Connection, key: str, now: float) -> None:
    conn.execute(login_failures_t.insert().values(key_hash=hash_secret(key), at=now))


def _throttled(times: list[float], limit: int, window: float, now: float) -> float:
    """Seconds until one more try is allowed (0: allowed now)."""
    if len(times) < limit:
        return 0.0
    return max(1.0, times[-limit] + window - now)


def _refuse_throttled(wait: float, what: str) -> JSONResponse:
    minutes = max(1, math.ceil(wait / 60))
    return JSONResponse(
        {"error": f"too many {what}: wait {minutes} minute{'s' * (minutes != 1)} and try "
                  "again"},
        status_code=429,
        headers={"retry-after": str(math.ceil(wait))},
    )


# ---------------------------------------------------------------------- the routes
class CredentialsIn(BaseModel):
    name: str = Field(max_length=64, description="The account's name (shown to others).")
    password: str = Field(
        max_length=MAX_PASSWORD, description=f"{MIN_PASSWORD} to {MAX_PASSWORD} characters."
    )


class PasswordIn(BaseModel):
    password: str = Field(max_length=MAX_PASSWORD, description="The account's password.")


router = APIRouter()
"""``/api/account``: who is logged in, register, login, logout, delete."""


def engine_of(state: Server) -> sa.Engine:
    """The server's database."""
    return state.store.engine


async def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return await to_thread.run_sync(functools.partial(fn, *args, **kwargs))


def logged_in(resp: Response, request: Request, session: str) -> Response:
    secure = request.url.scheme == "https"
    resp.set_cookie(ACCOUNT_COOKIE, session, max_age=SESSION_DAYS * 86400, path="/api",
                    httponly=True, samesite="lax", secure=secure)
    resp.set_cookie(CSRF_COOKIE, csrf_of(session), max_age=SESSION_DAYS * 86400, path="/",
                    httponly=False, samesite="lax", secure=secure)
    return resp


def logged_out(resp: Response, request: Request) -> Response:
    secure = request.url.scheme == "https"
    resp.delete_cookie(ACCOUNT_COOKIE, path="/api", httponly=True, samesite="lax",
                       secure=secure)
    resp.delete_cookie(CSRF_COOKIE, path="/", samesite="lax", secure=secure)
    return resp


def new_session(conn: sa.Connection, account_id: str, old: str | None) -> str:
    """A fresh session id for ``account_id``; the one the request carried (if any) is
    dropped whoever it belonged to."""
    if old:
        conn.execute(sessions_t.delete().where(sessions_t.c.token_hash == hash_secret(old)))
    session = secrets.token_urlsafe(32)
    now = time.time()
    conn.execute(sessions_t.insert().values(
        token_hash=hash_secret(session), account_id=account_id, created_at=now,
        expires_at=now + SESSION_DAYS * 86400))
    return session


def described(engine: sa.Engine, account: Account | None) -> dict[str, Any]:
    if account is None:
        return {"account": None}
    from piquet.web.rated import games_rated, ratings_of

    counts = games_rated(engine, account.id)
    return {"account": {
        "name": account.name,
        "created": account.created_at,
        "ratings": {
            fmt: {"rating": round(r.rating, 2), "deviation": round(r.deviation, 2),
                  "games": counts.get(fmt, 0)}
            for fmt, r in ratings_of(engine, account.id).items()
        },
    }}


@router.get("/api/account", tags=["accounts"], summary="Who is logged in",
            responses=refusals())
async def who(request: Request, state: ServerOf) -> dict[str, Any]:
    """The account this browser is logged in to (``account``: its name and its
    rating in each format it has played rated), or ``{"account": null}``: playing
    needs no account."""
    account = await run(account_of, engine_of(state), request.cookies.get(ACCOUNT_COOKIE))
    out: dict[str, Any] = await run(described, engine_of(state), account)
    return out


@router.post("/api/account/register", tags=["accounts"], summary="Make an account",
             status_code=201, responses=refusals(409, 415))
async def register(body: CredentialsIn, request: Request, state: ServerOf) -> Response:
    """Make an account and log in to it.  400: a name or password not allowed (the
    message says what is); 409: the name is taken; 429: too many registrations from
    this address."""
    name = clean_name(body.name, "")
    if len(name) < 2:
        raise TableError(Refusal.UNREADABLE,
                         "an account's name needs 2 to 30 visible characters")
    if not MIN_PASSWORD <= len(body.password) <= MAX_PASSWORD:
        raise TableError(Refusal.UNREADABLE,
                         f"a password needs {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    if body.password.strip() != body.password or not body.password.strip():
        raise TableError(Refusal.UNREADABLE,
                         "a password may not begin or end with a space")
    client = "register:" + client_of(request)
    now = time.time()

    def check() -> float:
        with engine_of(state).begin() as conn:
            return _throttled(_recent(conn, client, REGISTER_WINDOW, now),
                              CLIENT_REGISTRATIONS, REGISTER_WINDOW, now)

    wait = await run(check)
    if wait:
        return _refuse_throttled(wait, "new accounts from this address")
    digest = await run(_hasher.hash, body.password)
    account_id = secrets.token_urlsafe(12)
    old = request.cookies.get(ACCOUNT_COOKIE)

    def put() -> str | None:
        try:
            with engine_of(state).begin() as conn:
                conn.execute(accounts_t.insert().values(
                    id=account_id, name=name, name_key=name_key(name),
                    password_hash=digest, identity=secrets.token_urlsafe(32),
                    created_at=now))
                _count(conn, client, now)
                return new_session(conn, account_id, old)
        except IntegrityError:
            return None

    session = await run(put)
    if session is None:
        raise TableError(Refusal.NOT_NOW,
                         f"the name {name!r} is taken: choose another")
    log.info("account registered: %s", account_id)
    resp = JSONResponse({"account": {"name": name, "created": now}}, status_code=201)
    return logged_in(resp, request, session)


@router.post("/api/account/login", tags=["accounts"], summary="Log in",
             responses=refusals(401, 415))
async def login(body: CredentialsIn, request: Request, state: ServerOf) -> Response:
    """Log in: a new session (any session this browser had is ended).  401: the name
    or the password is wrong (not told apart); 429: too many failed logins for this
    account or from this address (``Retry-After`` says how long to wait)."""
    key = "account:" + name_key(clean_name(body.name, ""))
    client = "client:" + client_of(request)
    now = time.time()

    def look() -> tuple[float, float, Any]:
        with engine_of(state).begin() as conn:
            by_account = _throttled(_recent(conn, key, THROTTLE_WINDOW, now),
                                    ACCOUNT_FAILURES, THROTTLE_WINDOW, now)
            by_client = _throttled(_recent(conn, client, THROTTLE_WINDOW, now),
                                   CLIENT_FAILURES, THROTTLE_WINDOW, now)
            row = conn.execute(sa.select(accounts_t).where(
                accounts_t.c.name_key == name_key(clean_name(body.name, "")))).first()
        return by_account, by_client, row

    by_account, by_client, row = await run(look)
    if by_account:
        return _refuse_throttled(by_account, "failed logins for this account")
    if by_client:
        return _refuse_throttled(by_client, "failed logins from this address")

    def verify(stored: str) -> bool:
        try:
            return _hasher.verify(stored, body.password)
        except (VerificationError, InvalidHashError):
            return False

    good = await run(verify, row.password_hash if row is not None else _DUMMY_HASH)
    if row is None or not good:
        def fail() -> None:
            with engine_of(state).begin() as conn:
                _count(conn, key, now)
                _count(conn, client, now)

        await run(fail)
        raise TableError(Refusal.NO_TOKEN, "wrong name or password")
    old = request.cookies.get(ACCOUNT_COOKIE)
    rehash = _hasher.check_needs_rehash(row.password_hash)
    fresh_hash = await run(_hasher.hash, body.password) if rehash else None

    def start() -> str:
        with engine_of(state).begin() as conn:
            conn.execute(login_failures_t.delete().where(
                login_failures_t.c.key_hash == hash_secret(key)))
            if fresh_hash is not None:
                conn.execute(accounts_t.update().where(accounts_t.c.id == row.id)
                             .values(password_hash=fresh_hash))
            return new_session(conn, row.id, old)

    session = await run(start)
    resp = JSONResponse({"account": {"name": row.name, "created": row.created_at}})
    return logged_in(resp, request, session)


@router.post("/api/account/logout", tags=["accounts"], summary="Log out",
             responses=refusals(403))
async def logout(request: Request, state: ServerOf) -> Response:
    """End this browser's session (the account and its games stay)."""
    session = request.cookies.get(ACCOUNT_COOKIE)

    def end() -> None:
        if session:
            with engine_of(state).begin() as conn:
                conn.execute(sessions_t.delete().where(
                    sessions_t.c.token_hash == hash_secret(session)))

    await run(end)
    return logged_out(JSONResponse({"account": None}), request)


@router.post("/api/account/delete", tags=["accounts"], summary="Delete your account",
             responses=refusals(401, 403))
async def delete(body: PasswordIn, request: Request, state: ServerOf) -> Response:
    """Delete the account this browser is logged in to, and its data: its sessions on
    every device, its list of games, its ratings.  The password is asked again (401
    if wrong, counted as a failed login).  The games stay for the other players."""
    session = request.cookies.get(ACCOUNT_COOKIE)
    account = await run(account_of, engine_of(state), session)
    if account is None:
        raise TableError(Refusal.NO_TOKEN, "you are not logged in: log in first")
    key = "account:" + name_key(account.name)
    now = time.time()

    def stored() -> tuple[str, float]:
        with engine_of(state).begin() as conn:
            wait = _throttled(_recent(conn, key, THROTTLE_WINDOW, now), ACCOUNT_FAILURES,
                              THROTTLE_WINDOW, now)
            digest = conn.execute(sa.select(accounts_t.c.password_hash)
                                  .where(accounts_t.c.id == account.id)).scalar_one()
        return digest, wait

    digest, wait = await run(stored)
    if wait:
        return _refuse_throttled(wait, "failed logins for this account")

    def verify() -> bool:
        try:
            return _hasher.verify(digest, body.password)
        except (VerificationError, InvalidHashError):
            return False

    if not await run(verify):
        def fail() -> None:
            with engine_of(state).begin() as conn:
                _count(conn, key, now)

        await run(fail)
        raise TableError(Refusal.NO_TOKEN, "wrong password: the account is not deleted")
    await run(delete_account, engine_of(state), account)
    log.info("account deleted: %s", account.id)
    return logged_out(JSONResponse({"account": None, "deleted": True}), request)


def delete_account(engine: sa.Engine, account: Account) -> None:
    """Delete ``account`` and everything kept for it, in one transaction."""
    from piquet.web.people import presence_t, seeks_t
    from piquet.web.players import player_games_t
    from piquet.web.progress import delete_progress
    from piquet.web.rated import ratings_t

    with engine.begin() as conn:
        conn.execute(player_games_t.delete().where(
            player_games_t.c.identity_hash == hash_secret(account.identity)))
        conn.execute(ratings_t.delete().where(ratings_t.c.account_id == account.id))
        conn.execute(sessions_t.delete().where(sessions_t.c.account_id == account.id))
        conn.execute(login_failures_t.delete().where(
            login_failures_t.c.key_hash == hash_secret("account:" + name_key(account.name))))
        conn.execute(seeks_t.delete().where(seeks_t.c.account_id == account.id))
        conn.execute(presence_t.delete().where(presence_t.c.account_id == account.id))
        delete_progress(conn, account.id)
        conn.execute(accounts_t.delete().where(accounts_t.c.id == account.id))
