"""The tally in the browser: the HTTP API and the page for games played with real cards.

Players at a real table, with their own pack, tell the server each deal's hands,
exchanges, declarations and cards as they go (the entry language of
:mod:`piquet.tally`, the same as ``piquet tally``); the server keeps the score under their
rule set with the engine, refuses what the rule set forbids, and keeps the game as a
record to download.  Nothing here decides a rule: every entry goes through
:meth:`~piquet.tally.TallySession.enter`, and a stored tally is rebuilt with
:meth:`~piquet.tally.TallySession.from_record`.

Mount its :data:`router`; tallies live in the server's database
(:mod:`piquet.web.tallystore`).  A tally's token (from creating it) goes in
``Authorization: Bearer TOKEN``; every error is ``{"error": "..."}``.
"""

from __future__ import annotations

import functools
import json
import logging
import math
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, Final, ParamSpec, TypeVar

from anyio import to_thread
from fastapi import APIRouter, Body, Request
from fastapi.responses import HTMLResponse, JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from piquet import __version__
from piquet.core.errors import IllegalActionError, ParseError, PiquetError
from piquet.core.rules import Format, Rules
from piquet.table.errors import Refusal, TableError
from piquet.tally import TallySession, new_tally
from piquet.web.ids import Creds, TallyId, token_of
from piquet.web.limits import TokenBuckets
from piquet.web.refusals import clean_name, hash_secret, preset_named
from piquet.web.server import Server, ServerOf
from piquet.web.store import StoreError, unavailable_words
from piquet.web.tally_schemas import (
    MAX_GAMES,
    EntryIn,
    NewTallyIn,
    TallyCreatedOut,
    TallyOut,
    UndoIn,
    errors_doc,
)
from piquet.web.tally_view import speak, tally_json
from piquet.web.tallystore import MAX_ENTRY, TallyRow, TallyStore

__all__ = ["MAX_GAMES", "MAX_STEPS", "Tallies", "router", "tally_json", "tallies_of"]

log = logging.getLogger("piquet.web")
STATIC: Final = Path(__file__).parent / "static"
MAX_STEPS: Final = 4000
"""Entries a tally may hold (a game of many deals takes a few hundred)."""
NOT_FOUND: Final = "no such tally, or its key is not this one: open the tally by its own link"
_P = ParamSpec("_P")
_R = TypeVar("_R")


# ====================================================================== the tallies
def _db(fn: Callable[_P, _R], *args: _P.args, **kwargs: _P.kwargs) -> _R:
    """``fn(...)``, a database failure answered as 503."""
    try:
        return fn(*args, **kwargs)
    except StoreError as exc:  # the details are the log's; the client hears plain words
        log.warning("piquet: tally: %s", exc)
        raise TableError(Refusal.UNAVAILABLE, unavailable_words(exc.said)) from None


def _format(rules: Rules, text: str | None) -> Format:
    allowed = [f for f in rules.formats if f is not Format.POOL]
    if not allowed:
        raise TableError(
            Refusal.UNREADABLE, f"{rules.name} plays only the pool, which the tally does not keep"
        )
    choices = ", ".join(f.value for f in allowed)
    if not text:
        fmt = rules.default_format
        return fmt if fmt is not Format.POOL else allowed[0]
    try:
        fmt = Format(text.strip().lower())
    except ValueError:
        raise TableError(
            Refusal.UNREADABLE, f"unknown format {text!r}; {rules.name} plays: {choices}"
        ) from None
    if fmt is Format.POOL:
        raise TableError(
            Refusal.UNREADABLE, "the tally keeps two-player games and parties, not the pool"
        )
    if (why := rules.format_refusal(fmt, offered=tuple(allowed))) is not None:
        raise TableError(Refusal.UNREADABLE, why)
    return fmt


@dataclass(frozen=True, slots=True)
class Created:
    id: str
    token: str
    version: int
    session: TallySession


class Tallies:
    """Every tally of this server, over one :class:`TallyStore`.

    Keeps the sessions of recent tallies in memory by ``(id, version)``; a tally changed
    by another process has another version and is replayed from the database.  Every
    method blocks (call it from a worker thread).
    """

    def __init__(self, store: TallyStore, *, cache_size: int = 1024) -> None:
        self.store = store
        self.cache_size = cache_size
        self._cache: OrderedDict[str, tuple[int, TallySession]] = OrderedDict()
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ creating
    def create(self, *, rules: str, names: list[str], format: str | None, games: int) -> Created:
        """A new tally.  Raises :class:`TableError` (400) saying what is allowed."""
        r = preset_named(rules)
        fmt = _format(r, format)
        if not 1 <= games <= MAX_GAMES:
            raise TableError(Refusal.UNREADABLE, f"games must be 1 to {MAX_GAMES}")
        clean = [clean_name(n, f"Player {i}") for i, n in enumerate(names, 1)]
        try:
            session = new_tally(r, names=clean, format=fmt, games=games)
        except PiquetError as exc:
            raise TableError(Refusal.UNREADABLE, str(exc)) from None
        tally_id = secrets.token_urlsafe(12)
        token = secrets.token_urlsafe(32)
        _db(
            self.store.create,
            tally_id=tally_id,
            token_hash=hash_secret(token),
            rules=r.name,
            format=fmt.value,
            games_to_play=games,
            names=session.names,
        )
        self._put(tally_id, 0, session)
        return Created(tally_id, token, 0, session)

    # ------------------------------------------------------------------ reading
    def _put(self, tally_id: str, version: int, session: TallySession) -> None:
        with self._lock:
            old = self._cache.get(tally_id)
            if old is None or old[0] <= version:
                self._cache[tally_id] = (version, session)
            self._cache.move_to_end(tally_id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def authenticate(self, tally_id: str, token: str | None) -> TallyRow:
        """The tally ``token`` opens.  Raises :class:`TableError`: 401 without a token, 404
        for an unknown tally or a token of another (the two are not told apart)."""
        if not token:
            raise TableError(
                Refusal.NO_TOKEN, "this needs the tally's token: Authorization: Bearer TOKEN"
            )
        if len(token) > 200:
            raise TableError(Refusal.NOT_FOUND, NOT_FOUND)
        row = _db(self.store.tally, tally_id)
        if row is None or not secrets.compare_digest(row.token_hash, hash_secret(token)):
            raise TableError(Refusal.NOT_FOUND, NOT_FOUND)
        return row

    def session(self, row: TallyRow) -> tuple[TallyRow, TallySession]:
        """The tally's session at the version ``row`` read (or newer).

        Raises :class:`TableError` (409) if the stored entries no longer replay.
        """
        with self._lock:
            cached = self._cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return row, cached[1]
        snap = _db(self.store.snapshot, row.id)
        if snap is None:
            raise TableError(Refusal.NOT_FOUND, NOT_FOUND)
        row, texts = snap
        # a step stored as {"with_previous": STEP} was entered on the line of the one before
        steps: list[Any] = []
        sizes: list[int] = []
        for t in texts:
            js = json.loads(t)
            if isinstance(js, dict) and "with_previous" in js and sizes:
                steps.append(js["with_previous"])
                sizes[-1] += 1
            else:
                steps.append(js)
                sizes.append(1)
        record = {
            "piquet": 1,
            "tally": 1,
            "rules": row.rules,
            "format": row.format,
            "games": row.games_to_play,
            "players": list(row.names),
            "entries": steps,
        }
        try:
            session = TallySession.from_record(record).with_entries(sizes)
        except (PiquetError, ValueError) as exc:
            raise TableError(
                Refusal.NOT_NOW, f"this tally's entries no longer replay: {exc}"
            ) from None
        self._put(row.id, row.version, session)
        return row, session

    def load(self, tally_id: str, token: str | None) -> tuple[TallyRow, TallySession]:
        return self.session(self.authenticate(tally_id, token))

    # ------------------------------------------------------------------ changing
    def enter(
        self, tally_id: str, token: str | None, text: str, version: int | None = None
    ) -> tuple[TallyRow, TallySession]:
        """The tally after the entry ``text`` (made on ``version``, if given).

        Raises :class:`TableError`: 400 for text that is no entry, 422 for what the rule set
        forbids (the message says what and what is expected), 409 when the match is over,
        the tally is full, or it changed meanwhile (since ``version``).  The tally is
        unchanged then.
        """
        if text.strip().lower() == "undo":  # typed: the same undo as the button's
            return self.undo(tally_id, token, version)
        row, session = self._at(tally_id, token, version)
        try:
            after = session.enter(text)
        except ParseError as exc:
            raise TableError(Refusal.UNREADABLE, speak(str(exc))) from None
        except IllegalActionError as exc:
            raise TableError(
                Refusal.NOT_NOW if session.finished else Refusal.AGAINST_RULES,
                speak(str(exc))) from None
        except PiquetError as exc:  # "nothing to undo"
            raise TableError(Refusal.NOT_NOW, speak(str(exc))) from None
        except ValueError as exc:  # pragma: no cover - the tally raises PiquetError
            raise TableError(Refusal.UNREADABLE, f"cannot read that entry: {exc}") from None
        return self._save(row, session, after)

    def undo(
        self, tally_id: str, token: str | None, version: int | None = None
    ) -> tuple[TallyRow, TallySession]:
        """The tally without its last entry (a line of cards played is one), whether the
        session was entered in this process or read back from the stored steps (which
        keep how they were entered).  Raises :class:`TableError` (409) if none, or if the
        tally moved on since ``version``."""
        row, session = self._at(tally_id, token, version)
        try:
            after = session.undo()
        except PiquetError as exc:
            raise TableError(Refusal.NOT_NOW, str(exc)) from None
        return self._save(row, session, after)

    def _at(
        self, tally_id: str, token: str | None, version: int | None
    ) -> tuple[TallyRow, TallySession]:
        """The tally as it stands, refused (409) if it is no longer at ``version`` (another
        device entered since the writer looked: the entry was meant for another step)."""
        row, session = self.load(tally_id, token)
        if version is not None and version != row.version:
            raise TableError(
                Refusal.NOT_NOW,
                "the tally changed meanwhile (an entry from another device): here it is as "
                "it stands; enter again if need be",
            )
        return row, session

    def _save(
        self, row: TallyRow, before: TallySession, after: TallySession
    ) -> tuple[TallyRow, TallySession]:
        if after.steps == before.steps:
            return row, before
        if len(after.steps) > MAX_STEPS:
            raise TableError(
                Refusal.NOT_NOW, f"this tally is full ({MAX_STEPS} entries): download it"
            )
        keep = min(len(before.steps), len(after.steps))
        while keep and before.steps[:keep] != after.steps[:keep]:
            keep -= 1
        entry_of = after.step_entries
        add = [
            json.dumps(s.to_json() if i == 0 or entry_of[i] != entry_of[i - 1]
                       else {"with_previous": s.to_json()}, separators=(",", ":"))
            for i, s in ((i, after.steps[i]) for i in range(keep, len(after.steps)))
        ]
        if any(len(a) > MAX_ENTRY for a in add):
            raise TableError(Refusal.UNREADABLE, "that entry is too long to keep")
        ok = _db(
            self.store.rewrite_tail,
            row.id,
            version=row.version,
            keep=keep,
            add=add,
            finished=after.finished,
        )
        if not ok:
            raise TableError(
                Refusal.NOT_NOW, "the tally changed meanwhile (another device?): reload it"
            )
        new_row = replace(
            row, version=row.version + 1, n_entries=len(after.steps), finished=after.finished
        )
        self._put(row.id, new_row.version, after)
        return new_row, after


# ====================================================================== the routes


router = APIRouter()
"""The tally's API (``/api/tallies``) and pages (``/tally``, ``/tally/{id}``); the tallies
use the server's store's engine, and the server's ``create_per_minute`` limits new
tallies per client address (0: no limit)."""


def tallies_of(state: Server) -> Tallies:
    """The server's tallies, over its store (opened at start-up)."""
    s = state.store
    if state.tallies is None or state.tallies[0] is not s:
        state.tallies = (s, Tallies(TallyStore(s.engine)))
    return state.tallies[1]


def creates_of(state: Server) -> TokenBuckets:
    """The server's buckets of new tallies, per client address."""
    if state.tally_creates is None:
        per_minute = state.create_per_minute
        state.tally_creates = TokenBuckets(per_minute / 60.0, max(1.0, per_minute / 3))
    return state.tally_creates


async def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    return await to_thread.run_sync(functools.partial(fn, *args, **kwargs))


def answer(row: TallyRow, session: TallySession) -> JSONResponse:
    return JSONResponse(tally_json(row.id, row.version, session))


# ---------------------------------------------------------------------- the page
@functools.cache
def _page_html() -> str:
    return (STATIC / "tally.html").read_text(encoding="utf-8").replace("{{version}}", __version__)


def page() -> HTMLResponse:
    return HTMLResponse(_page_html(), headers={"cache-control": "no-cache"})


for _route in ("/tally", "/tally/{tally_id}"):
    router.add_api_route(_route, page, methods=["GET"], include_in_schema=False)


# ---------------------------------------------------------------------- the API
@router.post(
    "/api/tallies",
    status_code=201,
    response_model=TallyCreatedOut,
    responses=errors_doc(400, 413, 422, 429, 503),
    tags=["tallies"],
)
async def create_tally(
    body: Annotated[NewTallyIn, Body()], request: Request, state: ServerOf
) -> JSONResponse:
    """Start a tally of a game played with real cards, under a rule set.

    The answer holds the tally's token (keep it: it opens the tally) and its state.
    """
    client = request.client
    wait = creates_of(state).take(client.host if client else "?")
    if wait:
        raise StarletteHTTPException(
            429,
            "too many new tallies: slow down and try again",
            headers={"retry-after": str(max(1, math.ceil(wait)))},
        )
    made: Created = await run(
        tallies_of(state).create,
        rules=body.rules,
        names=body.names,
        format=body.format,
        games=body.games,
    )
    return JSONResponse(
        {
            "id": made.id,
            "token": made.token,
            "url": f"/tally/{made.id}",
            "tally": tally_json(made.id, made.version, made.session),
        },
        status_code=201,
    )


@router.get(
    "/api/tallies/{tally_id}",
    response_model=TallyOut,
    responses=errors_doc(401, 404, 409, 422, 429, 503),
    tags=["tallies"],
)
async def get_tally(tally_id: TallyId, creds: Creds, state: ServerOf) -> JSONResponse:
    """The tally: scores, what is expected next, the entries, the deal's known cards."""
    row, session = await run(tallies_of(state).load, tally_id, token_of(creds))
    return answer(row, session)


@router.post(
    "/api/tallies/{tally_id}/entries",
    response_model=TallyOut,
    responses=errors_doc(400, 401, 404, 409, 413, 422, 429, 503),
    tags=["tallies"],
)
async def enter(
    tally_id: TallyId, body: EntryIn, creds: Creds, state: ServerOf
) -> JSONResponse:
    """Enter what happened at the table (one line of the tally's entries).

    400: the text is no entry; 422: the rule set forbids it (a claim the hand cannot
    show, a second discard, a card not in hand, out of turn: the error says what and
    what is expected); 409: the match is over or the tally changed meanwhile.  The
    tally is unchanged then.  A blank line or a ``#`` comment changes nothing.
    """
    row, session = await run(
        tallies_of(state).enter, tally_id, token_of(creds), body.entry, body.version
    )
    return answer(row, session)


@router.post(
    "/api/tallies/{tally_id}/undo",
    response_model=TallyOut,
    responses=errors_doc(400, 401, 404, 409, 413, 422, 429, 503),
    tags=["tallies"],
)
async def undo(
    tally_id: TallyId, creds: Creds, state: ServerOf, body: UndoIn | None = None
) -> JSONResponse:
    """Take back the last entry (a line of several cards is taken back card by card);
    409 if the tally moved on since ``version``."""
    row, session = await run(
        tallies_of(state).undo, tally_id, token_of(creds), body.version if body else None
    )
    return answer(row, session)


@router.get(
    "/api/tallies/{tally_id}/record",
    responses={
        200: {"content": {"application/json": {}}, "description": "The record, as a file."},
        **errors_doc(401, 404, 409, 422, 429, 503),
    },
    tags=["tallies"],
)
async def record(tally_id: TallyId, creds: Creds, state: ServerOf) -> JSONResponse:
    """The tally as a record (``TallySession.to_record``): ``piquet tally --load`` reads it.

    Available at any moment; the result is filled in once the match is over.
    """
    _row, session = await run(tallies_of(state).load, tally_id, token_of(creds))
    return JSONResponse(
        session.to_record(),
        headers={"content-disposition": f'attachment; filename="piquet-tally-{tally_id}.json"'},
    )
