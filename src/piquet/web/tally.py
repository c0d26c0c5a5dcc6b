"""The tally in the browser: the HTTP API and the page for games played with real cards.

Players at a real table, with their own pack, tell the server each deal's hands,
exchanges, declarations and cards as they go (the entry language of
:mod:`piquet.tally`, the same as ``piquet tally``); the server keeps the score under their
rule set with the engine, refuses what the rule set forbids, and keeps the game as a
record to download.  Nothing here decides a rule: every entry goes through
:meth:`~piquet.tally.TallySession.enter`, and a stored tally is rebuilt with
:meth:`~piquet.tally.TallySession.from_record`.

Mount it with :func:`tally_router`; tallies live in the server's database
(:mod:`piquet.web.tallystore`).  A tally's token (from creating it) goes in
``Authorization: Bearer TOKEN``; every error is ``{"error": "..."}``.
"""

from __future__ import annotations

import functools
import json
import math
import secrets
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Annotated, Any, Final, ParamSpec, TypeVar

from anyio import to_thread
from fastapi import APIRouter, Body, Depends, Request
from fastapi import Path as PathParam
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field, StrictInt
from starlette.exceptions import HTTPException as StarletteHTTPException

from piquet import __version__
from piquet.core.actions import Declare
from piquet.core.cards import Card, CardSet
from piquet.core.deal import ELDER, ROLE_NAMES, YOUNGER, Deal, Phase
from piquet.core.errors import IllegalActionError, ParseError, PiquetError
from piquet.core.rules import DEFAULT_PRESET, PRESETS, Format, Rules
from piquet.tally import HELP, TallySession, in_words, new_tally
from piquet.web.games import GameError, clean_name, hash_secret, preset_named
from piquet.web.limits import TokenBuckets
from piquet.web.store import Store, StoreError
from piquet.web.tallystore import MAX_ENTRY, TallyRow, TallyStore

__all__ = ["MAX_GAMES", "MAX_STEPS", "Tallies", "tally_json", "tally_router"]

STATIC: Final = Path(__file__).parent / "static"
TALLY_ID: Final = r"^[A-Za-z0-9_-]{1,32}$"
MAX_STEPS: Final = 4000
"""Entries a tally may hold (a game of many deals takes a few hundred)."""
MAX_GAMES: Final = 9
ROLES: Final = ROLE_NAMES
NOT_FOUND: Final = "no such tally (or not for this token)"
_P = ParamSpec("_P")
_R = TypeVar("_R")


# ====================================================================== schema models
class NewTallyIn(BaseModel):
    model_config = ConfigDict(extra="ignore")
    rules: str = Field(
        DEFAULT_PRESET,
        max_length=64,
        description="A rule set (preset) name.",
        json_schema_extra={"enum": list(PRESETS)},
    )
    names: list[Annotated[str, Field(max_length=100)]] = Field(
        ["Player 1", "Player 2"],
        min_length=2,
        max_length=2,
        description="The two players' names (different; not 'elder' or 'younger').",
    )
    format: str | None = Field(
        None,
        max_length=16,
        description="game or partie (default: the rule set's).",
        json_schema_extra={"enum": ["game", "partie", None]},
    )
    games: StrictInt = Field(1, ge=1, le=MAX_GAMES, description="Games (or parties) to play.")


class EntryIn(BaseModel):
    entry: str = Field(
        max_length=300,
        description="One entry, as typed at `piquet tally` (see `help` in the tally): "
        "'dealer Anne', 'elder AS KS ...', 'discard 7C 8C take QH JD', 'point AH KH QH', "
        "'good', 'QH', 'Anne: pass', 'undo'.",
    )


class RoleCardsOut(BaseModel):
    name: str
    dealt: list[str] = Field(description="The twelve cards entered for this player.")
    hand: list[str] = Field(description="What the player holds now, as far as it is known.")
    discards: list[str]
    taken: list[str] = Field(description="Cards taken in, once entered.")
    taken_unknown: int = Field(description="Cards taken in that are still to be entered.")
    played: list[str]


class DialogLineOut(BaseModel):
    role: str
    name: str
    cls: str | None = Field(alias="class")
    text: str
    shown: list[str]


class EventOut(BaseModel):
    role: str
    name: str
    kind: str
    points: int
    note: str


class TrickOut(BaseModel):
    leader: str
    lead: str
    follow: str
    winner: str


class TallyDealOut(BaseModel):
    phase: str = Field(description="'cards' while the hands are to be entered, then the deal's.")
    dealer: str
    to_act: str | None = Field(description="elder or younger.")
    to_act_name: str | None
    pending_take: str | None = Field(description="The role whose cards taken in are awaited.")
    discard_range: list[int] | None
    cards: dict[str, RoleCardsOut] = Field(description="By role: elder, younger.")
    dialog: list[DialogLineOut]
    events: list[EventOut]
    tricks: list[TrickOut]
    trick_lead: str | None
    points: dict[str, int] = Field(description="This deal's points so far, by role.")
    words: list[str] = Field(description="Word entries allowed now (good, pass, look, ...).")


class EntryOut(BaseModel):
    n: int
    text: str = Field(description="The entry, written so that it can be typed again.")
    by: str | None = Field(description="The player who did it, where the entry is an action.")


class SheetDealOut(BaseModel):
    game: int
    number: int
    dealer: str
    elder: str
    younger: str
    points: list[int] = Field(description="Points of (elder, younger) in the deal.")
    by_kind: list[dict[str, int]]


class SheetGameOut(BaseModel):
    number: int
    players: list[str]
    scores: list[int]
    winner: str | None
    lurch: bool
    settled: int
    rubiconed: bool


class TallyOut(BaseModel):
    id: str
    rules: str
    format: str
    games: int
    names: list[str]
    deck_size: int
    n: int = Field(description="Entries so far.")
    version: int = Field(description="Changes so far (entries and undos).")
    scores: list[int] = Field(description="Each player's score in the current game.")
    game_number: int
    deal_number: int
    expecting: str = Field(description="What the next entry should be, in words.")
    finished: bool
    result: dict[str, Any] | None
    result_text: str | None
    entries: list[EntryOut]
    deal: TallyDealOut | None
    deals: list[SheetDealOut]
    games_done: list[SheetGameOut]
    help: str


class TallyCreatedOut(BaseModel):
    id: str
    token: str = Field(description="The tally's secret: send it as Authorization: Bearer TOKEN.")
    url: str = Field(description="The tally's page.")
    tally: TallyOut


class ErrorOut(BaseModel):
    error: str = Field(description="What was wrong, and what is allowed.")


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    return {c: {"model": ErrorOut} for c in codes}


# ====================================================================== showing a tally
_FRIENDLY: Final = {"not-good": "not good", "no-question": "no question", "ask-missing": "ask"}


def action_text(text: str) -> str:
    """An engine action id as the tally's words: ``play:QH`` -> ``QH``, ``not-good`` -> ..."""
    if text in _FRIENDLY:
        return _FRIENDLY[text]
    kind, _, rest = text.partition(":")
    if kind == "play":
        return rest
    if kind == "declare":
        cls, _, cards = rest.partition(":")
        return f"{cls} {cards}"
    if kind in ("blanche", "name", "appoint") and rest:
        return f"{kind} {rest}"
    return text


speak = in_words  # the engine's action ids in the tally's words (piquet.tally)


def step_text(step: list[Any], names: tuple[str, str]) -> str:
    """One stored entry (``_Step.to_json``) written as a line the tally reads again."""
    kind = step[0]
    if kind == "dealer":
        return f"dealer {names[int(step[1])]}"
    if kind == "packet":
        return f"packet {step[1]}"
    if kind == "hand":
        return f"{step[1]} {step[2]}"
    if kind == "exchange":
        out = f"{step[1]}: discard {step[2] or '-'}"
        return out + (f" take {step[3]}" if len(step) > 3 else "")
    if kind == "take":
        return f"{step[1]}: take {step[2]}"
    return action_text(str(step[1]))


def _cards(mask: int) -> list[str]:
    return [str(c) for c in CardSet(mask)]


def _played(deal: Deal, role: int) -> int:
    out = 0
    for t in deal.tricks:
        out |= 1 << (t.lead if t.leader == role else t.follow)
    if deal.trick_lead is not None and deal.leader == role:
        out |= 1 << deal.trick_lead
    return out


def _draft(session: TallySession) -> tuple[int | None, dict[int, int]]:
    """Before a deal's cards are all entered: the dealer named and the hands entered so far.

    These are the trailing dealer/packet/hand entries (anything else belongs to a deal).
    """
    dealer: int | None = None
    hands: dict[int, int] = {}
    for step in reversed(session.steps):
        js = step.to_json()
        if js[0] == "hand":
            role = ROLES.index(js[1])
            if role not in hands:
                hands[role] = CardSet.parse(js[2]).mask
        elif js[0] == "dealer":
            if dealer is None:
                dealer = int(js[1])
        elif js[0] != "packet":
            break
    return dealer, hands


def _words(deal: Deal) -> list[str]:
    if deal.phase in (Phase.EXCHANGE, Phase.PLAY, Phase.OVER):
        return []
    out: list[str] = []
    for a in deal.legal_actions():
        if isinstance(a, Declare):
            continue
        w = action_text(str(a))
        if w not in out:
            out.append(w)
    return out


def _deal_json(session: TallySession) -> dict[str, Any] | None:
    m = session.match
    names = session.names
    if m.finished:
        return None
    deal = session.deal
    empty: dict[str, Any] = {
        "dialog": [],
        "events": [],
        "tricks": [],
        "trick_lead": None,
        "points": {"elder": 0, "younger": 0},
        "words": [],
        "discard_range": None,
        "pending_take": None,
    }
    if deal is None:
        named, hands = _draft(session)
        dealer = named if named is not None else m.dealer
        other = m.in_game[0] if m.in_game[1] == dealer else m.in_game[1]
        who = {ELDER: other, YOUNGER: dealer}
        cards = {
            ROLES[r]: {
                "name": names[who[r]],
                "dealt": _cards(hands.get(r, 0)),
                "hand": _cards(hands.get(r, 0)),
                "discards": [],
                "taken": [],
                "taken_unknown": 0,
                "played": [],
            }
            for r in (ELDER, YOUNGER)
        }
        return {
            **empty,
            "phase": "cards",
            "dealer": names[dealer],
            "to_act": None,
            "to_act_name": None,
            "cards": cards,
        }
    pending = session.pending_take()
    player = (m.player_of(ELDER), m.player_of(YOUNGER))
    cards = {}
    for r in (ELDER, YOUNGER):
        unknown = deal.taken[r] if pending == r else 0
        cards[ROLES[r]] = {
            "name": names[player[r]],
            "dealt": _cards(deal.dealt[r]),
            "hand": _cards(deal.hands[r] & ~unknown),
            "discards": _cards(deal.discards[r]),
            "taken": _cards(deal.taken[r] & ~unknown),
            "taken_unknown": unknown.bit_count(),
            "played": _cards(_played(deal, r)),
        }
    to_act = deal.to_act if pending is None else pending
    return {
        "phase": deal.phase.value,
        "dealer": names[player[YOUNGER]],
        "to_act": None if to_act is None else ROLES[to_act],
        "to_act_name": None if to_act is None else names[player[to_act]],
        "pending_take": None if pending is None else ROLES[pending],
        "discard_range": list(deal.discard_range())
        if deal.phase is Phase.EXCHANGE and pending is None
        else None,
        "cards": cards,
        "dialog": [
            {
                "role": ROLES[u.seat],
                "name": names[player[u.seat]],
                "class": None if u.cls is None else u.cls.label,
                "text": u.text,
                "shown": _cards(u.shown),
            }
            for u in deal.dialog
        ],
        "events": [
            {
                "role": ROLES[e.seat],
                "name": names[player[e.seat]],
                "kind": e.kind.value,
                "points": e.points,
                "note": e.note,
            }
            for e in deal.events
        ],
        "tricks": [t.to_json() for t in deal.tricks],
        "trick_lead": None if deal.trick_lead is None else str(Card.from_index(deal.trick_lead)),
        "points": {"elder": deal.scores[ELDER], "younger": deal.scores[YOUNGER]},
        "words": [] if pending is not None else _words(deal),
    }


def _entries(session: TallySession) -> list[dict[str, Any]]:
    """Every entry so far as a line, with the player who acted where it is an action.

    The engine's history holds one (player, action) for each exchange and action entry,
    in order; the hands, dealer and cards-taken entries are nobody's move.
    """
    names = session.names
    history = session.match.history
    steps = [s.to_json() for s in session.steps]
    acting = [s for s in steps if s[0] in ("exchange", "action")]
    by_history = len(acting) == len(history)
    out = []
    h = 0
    for n, js in enumerate(steps, 1):
        by = None
        if js[0] in ("exchange", "action"):
            if by_history:
                by = names[history[h][0]]
            h += 1
        out.append({"n": n, "text": step_text(js, names), "by": by})
    return out


def _result_text(session: TallySession) -> str | None:
    m = session.match
    if not m.finished:
        return None
    res = m.result()
    names = session.names
    scores = res.get("scores", [])
    winner = res.get("winner")
    pts = ", ".join(f"{n} {s}" for n, s in zip(names, scores, strict=False))
    text = ("Drawn" if winner is None else f"{names[winner]} wins") + f" ({pts})"
    if res.get("rubiconed"):
        text += "; the loser is rubiconed"
    if res.get("settled"):
        text += f"; settled at {res['settled']}"
    if res.get("lurch"):
        text += "; a lurch: the loser pays double"
    return text + "."


def tally_json(tally_id: str, version: int, session: TallySession) -> dict[str, Any]:
    """What the page is sent: the score, what comes next, the entries, the deal's cards."""
    m = session.match
    names = session.names
    scores = session.scores
    return {
        "id": tally_id,
        "rules": session.rules.name,
        "format": session.format.value,
        "games": session.games,
        "names": list(names),
        "deck_size": session.rules.deck_size,
        "n": len(session.steps),
        "version": version,
        "scores": [scores.get(n, 0) for n in names],
        "game_number": m.game_number,
        "deal_number": m.deal_number,
        "expecting": speak(session.expecting()),
        "finished": m.finished,
        "result": m.result() if m.finished else None,
        "result_text": _result_text(session),
        "entries": _entries(session),
        "deal": _deal_json(session),
        "deals": [
            {
                "game": d.game,
                "number": d.number,
                "dealer": names[d.dealer],
                "elder": names[d.players[0]],
                "younger": names[d.players[1]],
                "points": list(d.points),
                "by_kind": [dict(d.by_kind[0]), dict(d.by_kind[1])],
            }
            for d in m.deals
        ],
        "games_done": [
            {
                "number": g.number,
                "players": [names[p] for p in g.players],
                "scores": list(g.scores),
                "winner": None if g.winner is None else names[g.winner],
                "lurch": g.lurch,
                "settled": g.settled,
                "rubiconed": g.rubiconed,
            }
            for g in m.games
        ],
        "help": HELP,
    }


# ====================================================================== the tallies
def _db(fn: Callable[_P, _R], *args: _P.args, **kwargs: _P.kwargs) -> _R:
    """``fn(...)``, a database failure answered as 503."""
    try:
        return fn(*args, **kwargs)
    except StoreError as exc:
        raise GameError(503, str(exc)) from None


def _format(rules: Rules, text: str | None) -> Format:
    allowed = [f for f in rules.formats if f is not Format.POOL]
    if not allowed:
        raise GameError(400, f"{rules.name} plays only the pool, which the tally does not keep")
    choices = ", ".join(f.value for f in allowed)
    if not text:
        fmt = rules.default_format
        return fmt if fmt is not Format.POOL else allowed[0]
    try:
        fmt = Format(text.strip().lower())
    except ValueError:
        raise GameError(400, f"unknown format {text!r}; {rules.name} plays: {choices}") from None
    if fmt is Format.POOL:
        raise GameError(400, "the tally keeps two-player games and parties, not the pool")
    if fmt not in allowed:
        raise GameError(400, f"{rules.name} does not play a {fmt.value}; it plays: {choices}")
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
        """A new tally.  Raises :class:`GameError` (400) saying what is allowed."""
        r = preset_named(rules)
        fmt = _format(r, format)
        if not 1 <= games <= MAX_GAMES:
            raise GameError(400, f"games must be 1 to {MAX_GAMES}")
        clean = [clean_name(n, f"Player {i}") for i, n in enumerate(names, 1)]
        try:
            session = new_tally(r, names=clean, format=fmt, games=games)
        except PiquetError as exc:
            raise GameError(400, str(exc)) from None
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
        """The tally ``token`` opens.  Raises :class:`GameError`: 401 without a token, 404
        for an unknown tally or a token of another (the two are not told apart)."""
        if not token:
            raise GameError(401, "this needs the tally's token: Authorization: Bearer TOKEN")
        if len(token) > 200:
            raise GameError(404, NOT_FOUND)
        row = _db(self.store.tally, tally_id)
        if row is None or not secrets.compare_digest(row.token_hash, hash_secret(token)):
            raise GameError(404, NOT_FOUND)
        return row

    def session(self, row: TallyRow) -> tuple[TallyRow, TallySession]:
        """The tally's session at the version ``row`` read (or newer).

        Raises :class:`GameError` (409) if the stored entries no longer replay.
        """
        with self._lock:
            cached = self._cache.get(row.id)
        if cached is not None and cached[0] == row.version:
            return row, cached[1]
        snap = _db(self.store.snapshot, row.id)
        if snap is None:
            raise GameError(404, NOT_FOUND)
        row, texts = snap
        record = {
            "piquet": 1,
            "tally": 1,
            "rules": row.rules,
            "format": row.format,
            "games": row.games_to_play,
            "players": list(row.names),
            "entries": [json.loads(t) for t in texts],
        }
        try:
            session = TallySession.from_record(record)
        except (PiquetError, ValueError) as exc:
            raise GameError(409, f"this tally's entries no longer replay: {exc}") from None
        self._put(row.id, row.version, session)
        return row, session

    def load(self, tally_id: str, token: str | None) -> tuple[TallyRow, TallySession]:
        return self.session(self.authenticate(tally_id, token))

    # ------------------------------------------------------------------ changing
    def enter(self, tally_id: str, token: str | None, text: str) -> tuple[TallyRow, TallySession]:
        """The tally after the entry ``text``.

        Raises :class:`GameError`: 400 for text that is no entry, 422 for what the rule set
        forbids (the message says what and what is expected), 409 when the match is over,
        the tally is full, or it changed meanwhile.  The tally is unchanged then.
        """
        row, session = self.load(tally_id, token)
        try:
            after = session.enter(text)
        except ParseError as exc:
            raise GameError(400, speak(str(exc))) from None
        except IllegalActionError as exc:
            raise GameError(409 if session.finished else 422, speak(str(exc))) from None
        except PiquetError as exc:  # "nothing to undo"
            raise GameError(409, speak(str(exc))) from None
        except ValueError as exc:  # pragma: no cover - the tally raises PiquetError
            raise GameError(400, f"cannot read that entry: {exc}") from None
        return self._save(row, session, after)

    def undo(self, tally_id: str, token: str | None) -> tuple[TallyRow, TallySession]:
        """The tally without its last entry.  Raises :class:`GameError` (409) if none."""
        row, session = self.load(tally_id, token)
        try:
            after = session.undo()
        except PiquetError as exc:
            raise GameError(409, str(exc)) from None
        return self._save(row, session, after)

    def _save(
        self, row: TallyRow, before: TallySession, after: TallySession
    ) -> tuple[TallyRow, TallySession]:
        if after.steps == before.steps:
            return row, before
        if len(after.steps) > MAX_STEPS:
            raise GameError(409, f"this tally is full ({MAX_STEPS} entries): download it")
        keep = min(len(before.steps), len(after.steps))
        while keep and before.steps[:keep] != after.steps[:keep]:
            keep -= 1
        add = [json.dumps(s.to_json(), separators=(",", ":")) for s in after.steps[keep:]]
        if any(len(a) > MAX_ENTRY for a in add):
            raise GameError(400, "that entry is too long to keep")
        ok = _db(
            self.store.rewrite_tail,
            row.id,
            version=row.version,
            keep=keep,
            add=add,
            finished=after.finished,
        )
        if not ok:
            raise GameError(409, "the tally changed meanwhile (another device?): reload it")
        new_row = replace(
            row, version=row.version + 1, n_entries=len(after.steps), finished=after.finished
        )
        self._put(row.id, new_row.version, after)
        return new_row, after


# ====================================================================== the routes
bearer = HTTPBearer(auto_error=False, description="The tally's token.")
TallyIdP = Annotated[str, PathParam(pattern=TALLY_ID, description="The tally's id.")]
Creds = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


def tally_router(store: Callable[[], Store], *, create_per_minute: float = 30.0) -> APIRouter:
    """The tally's API (``/api/tallies``) and pages (``/tally``, ``/tally/{id}``).

    ``store`` gives the server's :class:`Store` (opened at start-up); the tallies use its
    engine.  ``create_per_minute`` limits new tallies per client address (0: no limit).
    """
    router = APIRouter()
    held: dict[str, Any] = {}
    creates = TokenBuckets(create_per_minute / 60.0, max(1.0, create_per_minute / 3))
    page_html = (
        (STATIC / "tally.html").read_text(encoding="utf-8").replace("{{version}}", __version__)
    )

    def tallies() -> Tallies:
        s = store()
        if held.get("store") is not s:
            held.update(store=s, tallies=Tallies(TallyStore(s.engine)))
        t: Tallies = held["tallies"]
        return t

    async def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return await to_thread.run_sync(functools.partial(fn, *args, **kwargs))

    def token_of(creds: HTTPAuthorizationCredentials | None) -> str | None:
        return creds.credentials if creds is not None else None

    def answer(row: TallyRow, session: TallySession) -> JSONResponse:
        return JSONResponse(tally_json(row.id, row.version, session))

    # ------------------------------------------------------------------ the page
    def page() -> HTMLResponse:
        return HTMLResponse(page_html, headers={"cache-control": "no-cache"})

    for route in ("/tally", "/tally/{tally_id}"):
        router.add_api_route(route, page, methods=["GET"], include_in_schema=False)

    # ------------------------------------------------------------------ the API
    @router.post(
        "/api/tallies",
        status_code=201,
        response_model=TallyCreatedOut,
        responses=_errors(400, 413, 422, 429, 503),
        tags=["tallies"],
    )
    async def create_tally(body: Annotated[NewTallyIn, Body()], request: Request) -> JSONResponse:
        """Start a tally of a game played with real cards, under a rule set.

        The answer holds the tally's token (keep it: it opens the tally) and its state.
        """
        client = request.client
        wait = creates.take(client.host if client else "?")
        if wait:
            raise StarletteHTTPException(
                429,
                "too many new tallies: slow down and try again",
                headers={"retry-after": str(max(1, math.ceil(wait)))},
            )
        made: Created = await run(
            tallies().create,
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
        responses=_errors(401, 404, 409, 422, 429, 503),
        tags=["tallies"],
    )
    async def get_tally(tally_id: TallyIdP, creds: Creds) -> JSONResponse:
        """The tally: scores, what is expected next, the entries, the deal's known cards."""
        row, session = await run(tallies().load, tally_id, token_of(creds))
        return answer(row, session)

    @router.post(
        "/api/tallies/{tally_id}/entries",
        response_model=TallyOut,
        responses=_errors(400, 401, 404, 409, 413, 422, 429, 503),
        tags=["tallies"],
    )
    async def enter(tally_id: TallyIdP, body: EntryIn, creds: Creds) -> JSONResponse:
        """Enter what happened at the table (one line of the tally's entries).

        400: the text is no entry; 422: the rule set forbids it (a claim the hand cannot
        show, a second discard, a card not in hand, out of turn: the error says what and
        what is expected); 409: the match is over or the tally changed meanwhile.  The
        tally is unchanged then.  A blank line or a ``#`` comment changes nothing.
        """
        row, session = await run(tallies().enter, tally_id, token_of(creds), body.entry)
        return answer(row, session)

    @router.post(
        "/api/tallies/{tally_id}/undo",
        response_model=TallyOut,
        responses=_errors(401, 404, 409, 422, 429, 503),
        tags=["tallies"],
    )
    async def undo(tally_id: TallyIdP, creds: Creds) -> JSONResponse:
        """Take back the last entry (a line of several cards is taken back card by card)."""
        row, session = await run(tallies().undo, tally_id, token_of(creds))
        return answer(row, session)

    @router.get(
        "/api/tallies/{tally_id}/record",
        responses={
            200: {"content": {"application/json": {}}, "description": "The record, as a file."},
            **_errors(401, 404, 409, 422, 429, 503),
        },
        tags=["tallies"],
    )
    async def record(tally_id: TallyIdP, creds: Creds) -> JSONResponse:
        """The tally as a record (``TallySession.to_record``): ``piquet tally --load`` reads it.

        Available at any moment; the result is filled in once the match is over.
        """
        _row, session = await run(tallies().load, tally_id, token_of(creds))
        return JSONResponse(
            session.to_record(),
            headers={"content-disposition": f'attachment; filename="piquet-tally-{tally_id}.json"'},
        )

    return router
