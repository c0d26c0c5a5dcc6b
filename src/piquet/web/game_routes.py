"""The games' routes of the browser table's API: the options of a new game, a new game,
a seat's view (waiting for its turn if asked), an action, invitations and joining, a
hint, the record and the replay.  Each route reads the server through
:data:`~piquet.web.server.ServerOf`."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Annotated, Any

from anyio import to_thread
from fastapi import APIRouter, Body, Query, Request
from fastapi.responses import JSONResponse, Response

from piquet import __version__
from piquet.core.notation import dump_text
from piquet.core.rules import DEFAULT_PRESET, PRESETS
from piquet.jobs import Kind
from piquet.jobs.work import HINT
from piquet.levels import LEVEL_LABELS, LEVEL_NAMES, LEVEL_NOTES, level_named
from piquet.levels import default_level as strongest_of
from piquet.table.errors import Refusal, TableError
from piquet.table.summary import TITLES, format_label, rules_summary
from piquet.web.accounts import ACCOUNT_COOKIE, account_of
from piquet.web.acting import take
from piquet.web.clocks import Clocks
from piquet.web.games import FRIEND, Entry
from piquet.web.ids import Creds, GameId, client_of, token_of
from piquet.web.models import (
    ActionIn,
    ConflictOut,
    CreatedOut,
    HintOut,
    InvitesOut,
    JoinedOut,
    JoinIn,
    NewGameIn,
    OptionsOut,
    ReplayOut,
    ViewOut,
    errors_of,
)
from piquet.web.models import levels as all_levels
from piquet.web.rated import (
    RATED_FORMATS,
    rated_game,
    rated_joiner,
    start_rated,
    start_rating,
    take_rated_seat,
)
from piquet.web.refusals import preset_named
from piquet.web.server import Server, ServerOf

__all__ = [
    "act_on",
    "default_level",
    "entry_of",
    "only_move_words",
    "router",
    "run",
    "seat_entry",
    "seat_view",
]

router = APIRouter()


async def run(fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``fn(*args, **kwargs)`` in a worker thread (it blocks: the database, a record)."""
    return await to_thread.run_sync(functools.partial(fn, *args, **kwargs))


def clocks_of(state: Server) -> Clocks:
    """The games' clocks (made at start-up)."""
    assert state.clocks is not None
    return state.clocks


def _level_ratings(levels: list[str]) -> dict[str, dict[str, int]]:
    """The levels' ratings on the accounts' scale, per format (those the ladder placed)."""
    from piquet.levels.scale import FORMATS, level_rating

    out: dict[str, dict[str, int]] = {}
    for name in levels:
        found = {fmt: r for fmt in FORMATS if (r := level_rating(name, fmt)) is not None}
        if found:
            out[name] = {fmt: round(r.rating) for fmt, r in found.items()}
    return out


def _with_families(opponents: list[str]) -> list[str]:
    """The AI levels a new game may name: the listed ones, and a parametrised name among
    ``opponents`` (``adaptive-480``: the adaptive opponent starting at a rating)."""
    levels = all_levels()
    for o in opponents:
        key = o.strip().lower()
        if key not in levels and level_named(key):
            levels.append(key)
    return levels


def default_level() -> str:
    """The opponent a new game offers first: the terminal's default (the strongest)."""
    return strongest_of(LEVEL_NAMES)


def only_move_words(view: Any) -> str:
    """What a hint says where the advisor has no advice: the one move there is, or that
    any choice will do."""
    deal = view.deal
    legal: tuple[Any, ...] = tuple(deal.legal_actions) if deal is not None else ()
    if len(legal) == 1:
        from piquet.learn.words import action_label

        return f"Only one move here: {action_label(legal[0], deal.hand.mask, view.rule_set)}."
    return "Any of these will do here: no choice is better than another."


@router.get("/api/options", response_model=OptionsOut, tags=["games"])
async def options() -> dict[str, Any]:
    """What a new game may be: rule sets (with their short summaries), AI levels (with
    a few words on each, and the one offered first)."""
    levels = all_levels()
    return {
        "rules": [
            {
                "name": name,
                "title": TITLES.get(name, name),
                "summary": rules_summary(r),
                "summaries": {f.value: rules_summary(r, f) for f in r.formats},
                "formats": [f.value for f in r.formats],
                "format_labels": {f.value: format_label(r, f) for f in r.formats},
                "default_format": r.default_format.value,
                "partie_deals": r.partie_deals,
                "target": r.target,
            }
            for name, r in PRESETS.items()
        ],
        "default_rules": DEFAULT_PRESET,
        "levels": levels,
        "default_level": default_level(),
        "level_notes": {name: LEVEL_NOTES.get(name, "") for name in levels},
        "level_labels": {name: LEVEL_LABELS.get(name, f"The computer: {name}")
                         for name in levels},
        "level_ratings": _level_ratings(levels),
        "opponents": [*levels, FRIEND],
        "hints_available": True,
        "record_formats": ["text", "json"],
        "version": __version__,
    }


def invites_out(game_id: str, invites: Any) -> list[dict[str, Any]]:
    return [
        {"seat": seat, "invite": code, "url": f"/join/{game_id}#invite={code}"}
        for seat, code in invites
    ]


@router.post(
    "/api/games",
    status_code=201,
    response_model=CreatedOut,
    responses=errors_of(400, 401, 413, 422, 429),
    tags=["games"],
)
async def create_game(
    body: Annotated[NewGameIn, Body()], request: Request, state: ServerOf
) -> dict[str, Any]:
    """Start a game: you take seat 0; the opponent is an AI level or a friend.

    For a friend, the answer holds an invitation link for the other seat.  A rated
    game (``rated``) needs a login; the name at the table is then the account's.
    """
    opponents = body.opponents or [body.opponent]
    name = body.name
    account = None
    spec = body.clock.spec() if body.clock is not None else None
    if spec is not None and [o.strip().lower() for o in opponents] != [FRIEND]:
        raise TableError(Refusal.UNREADABLE, "a clock is for a game against a friend "
                         "(the computer needs none)")
    if body.rated:
        account = await run(account_of, state.store.engine,
                            request.cookies.get(ACCOUNT_COOKIE))
        if account is None:
            raise TableError(Refusal.NO_TOKEN, "a rated game needs an account: log in "
                             "first (or play a casual game, which needs none)")
        if [o.strip().lower() for o in opponents] != [FRIEND]:
            raise TableError(Refusal.UNREADABLE, "a rated game is played against a "
                             "friend with an account: choose 'friend' as the opponent")
        fmt_value = (body.format or preset_named(body.rules).default_format.value)
        if fmt_value.strip().lower() not in RATED_FORMATS:
            raise TableError(Refusal.UNREADABLE, "a rated game is a game or a partie "
                             "(a pool of three is not rated)")
        name = account.name
    created = await run(
        state.games.create,
        rules=body.rules,
        format=body.format,
        opponents=opponents,
        hints=body.hints,
        name=name,
        levels=_with_families(opponents),
    )
    if spec is not None:
        await run(clocks_of(state).start, created.id, spec)
    if account is not None:
        made = state.games.peek(created.id)
        fmt_value = made.row.format if made is not None else fmt_value.strip().lower()
        await run(start_rating, state.games, account, fmt_value)
        await run(start_rated, state.store.engine, created.id, fmt_value, account.id)
    state.ai.kick(created.id)
    return {
        "id": created.id,
        "token": created.token,
        "seat": created.seat,
        "invites": invites_out(created.id, created.invites),
    }


async def seat_entry(state: Server, game_id: str, creds: Any) -> tuple[Entry, int]:
    """The game as it stands and the seat the token opens: from memory when it can."""
    return await entry_of(state, game_id, token_of(creds))


async def entry_of(state: Server, game_id: str, token: str | None,
                   at_least: int | None = None) -> tuple[Entry, int]:
    """:func:`seat_entry` for the token itself (None: none was sent); ``at_least``: the
    log length the client has seen (maybe through another process): the game is read
    from the database if memory is behind it."""
    g = state.games
    seat = g.seat_cached(game_id, token)
    if seat is None:
        entry, seat = await run(g.authenticate, game_id, token)
        if at_least is not None and entry.n < at_least:
            entry = await g.fresh_async(game_id, at_least)
        return entry, seat.seat
    return (g.cached(game_id, at_least) or await g.fresh_async(game_id, at_least),
            seat.seat)


def view_response(state: Server, entry: Entry, seat: int) -> Response:
    return Response(state.games.seat_body(entry, seat), media_type="application/json")


@router.get(
    "/api/games/{game_id}",
    response_model=ViewOut,
    responses=errors_of(401, 403, 404, 409, 422, 429),
    tags=["games"],
)
async def get_game(
    game_id: GameId,
    creds: Creds,
    state: ServerOf,
    wait: Annotated[
        float,
        Query(ge=0, le=30, description="Wait up to this many seconds for your turn."),
    ] = 0,
    n: Annotated[
        int | None,
        Query(ge=0, le=2**31 - 1, description=(
            "The log length of the last view you were sent (``n``), by any of the "
            "server's processes: the answer is at least that new.")),
    ] = None,
) -> Response:
    """The seat's view of the game, its legal actions, and whether it is finished."""
    return view_response(state, *await seat_view(state, game_id, token_of(creds), wait, n))


async def seat_view(
    state: Server, game_id: str, token: str | None, wait: float, at_least: int | None = None
) -> tuple[Entry, int]:
    """``GET /api/games/{id}``'s work (the route, and :mod:`piquet.web.hot`'s short way to
    it): the game and the seat that ``token`` opens, once it is that seat's turn, the
    game is over, or ``wait`` seconds have passed; at least ``at_least`` actions long
    (what the client has seen)."""
    g = state.games
    if wait <= 0:
        entry, seat = await entry_of(state, game_id, token, at_least)
        if g.computer_due(entry):
            state.ai.kick(game_id)
        return entry, seat
    deadline = time.monotonic() + wait
    # watch first: no news between reading the game and waiting is missed
    with state.hub.watch(game_id) as watcher:
        entry, seat = await entry_of(state, game_id, token, at_least)
        # the game over (played to its end, or resigned) or the seat to act: answer now
        if not g.over(entry) and entry.live.match.to_act != seat:
            state.ai.kick(game_id)
            while True:
                woke = await watcher.wait(deadline - time.monotonic())
                if woke and not watcher.news:
                    continue  # who is at the table changed, not the game
                # on news, memory may already hold it; at the deadline, look once more
                held = g.after_news(game_id, watcher.take()) if woke else g.cached(game_id)
                entry = held or await g.fresh_async(game_id)
                if (g.over(entry) or entry.live.match.to_act == seat or not woke
                        or game_id in g.problems):  # the computer cannot move: say so
                    break
    return entry, seat


@router.post(
    "/api/games/{game_id}/actions",
    response_model=ViewOut,
    responses={**errors_of(400, 401, 403, 404, 413, 422, 429), 409: {"model": ConflictOut}},
    tags=["games"],
)
async def act(game_id: GameId, body: ActionIn, creds: Creds, state: ServerOf) -> Response:
    """Take an action (an id from ``legal_actions``); the answer is the new view.

    Send ``n``, the log length of the view acted on: a retry of an action already
    recorded then answers 200 with the game as it stands and applies nothing.
    400: the id cannot be read; 409: not your turn, the game is over or moved on
    (the body's ``game`` is the view as it stands); 422: the rules forbid it (the
    error says what is allowed).  The game is unchanged then.

    Send ``socket``, the id your open WebSocket of this game told you in its first
    message, and the new view this answer carries is not sent on that socket as well.
    """
    status, text = await act_on(state, game_id, token_of(creds), body.action, body.n,
                                body.socket)
    return Response(text, status_code=status, media_type="application/json")


async def act_on(
    state: Server, game_id: str, token: str | None, action: str, n: int | None,
    socket: str | None = None,
) -> tuple[int, str]:
    """``POST /api/games/{id}/actions``'s work (the route, and :mod:`piquet.web.hot`'s
    short way to it): ``action`` taken by the seat ``token`` opens; the answer's status
    and JSON text (200 and the seat's view, or 409 and the conflict's body).  ``socket``:
    the id of the page's open socket of the game, which then is not sent the answer's
    view again (:mod:`piquet.web.sockets`)."""
    g = state.games
    seat = g.seat_cached(game_id, token)
    if seat is None:
        entry, seat = await run(g.authenticate, game_id, token)
        known = True
    else:
        entry, known = g.current(game_id)  # checked against the database if need be
    done = await take(g, state.ai, game_id, seat.seat, action, expect=n,
                      entry=entry, known=known,
                      on_commit=state.sockets.holder(socket, game_id, seat.seat))
    if done.conflict is not None:
        return 409, done.conflict
    assert done.entry is not None
    return 200, g.seat_body(done.entry, seat.seat)


@router.post(
    "/api/games/{game_id}/invite",
    response_model=InvitesOut,
    responses=errors_of(401, 403, 404, 429),
    tags=["games"],
)
async def invite(game_id: GameId, creds: Creds, state: ServerOf) -> dict[str, Any]:
    """New invitation links for the seats still waiting for a friend (old links stop)."""
    entry, _seat = await run(state.games.authenticate, game_id, token_of(creds))
    return {"invites": invites_out(game_id, await run(state.games.reinvite, entry))}


@router.post(
    "/api/games/{game_id}/join",
    status_code=201,
    response_model=JoinedOut,
    responses=errors_of(400, 401, 404, 409, 413, 422, 429),
    tags=["games"],
)
async def join(
    game_id: GameId, body: JoinIn, request: Request, state: ServerOf
) -> dict[str, Any]:
    """Take the seat an invitation opens; the answer holds that seat's own token.
    404: no such invitation (or it was used or replaced); 409: the game is over.  A
    rated game's seat needs a login to another account than the host's (401, 409)."""
    engine = state.store.engine
    account = await run(rated_joiner, engine, game_id, request)
    name = body.name if account is None else account.name
    token, seat = await run(state.games.join, game_id, body.invite, name)
    if account is not None:
        await run(take_rated_seat, engine, game_id, account.id)
        found = await run(rated_game, engine, game_id)
        if found is not None:
            await run(start_rating, state.games, account, found.format)
    await state.hub.publish(game_id, -1)
    return {"id": game_id, "token": token, "seat": seat}


@router.get(
    "/api/games/{game_id}/hint",
    response_model=HintOut,
    responses=errors_of(401, 403, 404, 409, 422, 429),
    tags=["games"],
)
async def hint(
    request: Request,
    game_id: GameId,
    creds: Creds,
    state: ServerOf,
    level: Annotated[
        str, Query(pattern="^(learner|expert)$", description="Words for a learner or expert.")
    ] = "expert",
) -> dict[str, Any]:
    """The advisor's suggestion, and why (only in games started with hints on).
    429: this client already has its quota of hints being made; 503: the hint could
    not be made (the error says why)."""
    entry, seat = await seat_entry(state, game_id, creds)
    live = entry.live
    if not entry.row.hints:
        raise TableError(Refusal.NOT_NOW, "hints are off in this game")
    if live.match.to_act != seat:
        raise TableError(Refusal.NOT_NOW, "a hint is for your turn")
    view = live.match.view(seat)
    text = await state.jobs.run(Kind.HINT, HINT, view, level, state.hint_nodes,
                                client=client_of(request))
    return {"hint": text or only_move_words(view)}


@router.get(
    "/api/games/{game_id}/record",
    responses={
        200: {
            "content": {"application/json": {}, "text/plain": {}},
            "description": "The record, as a file.",
        },
        **errors_of(401, 403, 404, 409, 422, 429),
    },
    tags=["games"],
)
async def record(
    game_id: GameId,
    creds: Creds,
    state: ServerOf,
    as_: Annotated[str, Query(alias="as", pattern="^(text|json)$")] = "json",
) -> Response:
    """The finished game's record: its seed and every action (``as=text`` or ``json``)."""
    entry, _seat = await seat_entry(state, game_id, creds)
    rec = state.games.record(entry)
    if as_ == "text":
        named = entry.live.match.named(rec["players"])
        text = await run(functools.partial(dump_text, named, tags=rec.get("tags")))
        return Response(
            str(text),
            media_type="text/plain; charset=utf-8",
            headers={"content-disposition": f'attachment; filename="piquet-{game_id}.txt"'},
        )
    return JSONResponse(
        rec,
        headers={"content-disposition": f'attachment; filename="piquet-{game_id}.json"'},
    )


@router.get(
    "/api/games/{game_id}/replay",
    response_model=ReplayOut,
    responses=errors_of(400, 401, 403, 404, 409, 422, 429),
    tags=["games"],
)
async def replay(
    game_id: GameId,
    creds: Creds,
    state: ServerOf,
    step: Annotated[int, Query(ge=0, le=100000)] = 0,
) -> JSONResponse:
    """A finished game after ``step`` actions, with every seat's view (for the viewer)."""
    entry, _seat = await seat_entry(state, game_id, creds)
    return JSONResponse(await run(state.games.replay_step, entry, step))
