"""What a seat of a game is sent: its view and what the table needs around it (the menu,
the seats, the table's own events, the last deal's view), built once per entry and seat
as JSON text; the record of a finished game; a finished game's replay, step by step.
Every card a seat is sent comes from ``Match.view(seat)`` (or, for the deal just finished,
``deal_view`` of that deal for the seat's role in it)."""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from piquet.core.view import deal_view
from piquet.table.errors import Refusal, TableError
from piquet.table.menu import first_lead, menu_json
from piquet.table.views import ended_deal_views, lines_added
from piquet.web.entries import Entry, Live, encode, match_of
from piquet.web.seattext import seat_head

__all__ = ["last_deal_json", "record_of", "replay_step", "seat_body", "seat_json", "seats_json"]


def seats_json(seats: Iterable[Any]) -> list[dict[str, Any]]:
    """The game's seats as the seats and the spectators are told them: who sits where, a
    person or the computer (at which level), and whether the seat has been taken."""
    return [
        {
            "seat": s.seat,
            "name": s.name,
            "kind": s.kind,
            "level": s.level,
            "joined": s.kind == "ai" or s.token_hash is not None,
        }
        for s in seats
    ]


def seat_body(entry: Entry, seat: int, problems: dict[str, str]) -> str:
    """:meth:`seat_json` as JSON text, built once per entry and seat (the part about
    the last deal once per finished deal)."""
    body = entry.bodies.get(seat)
    if body is None:
        live = entry.live
        last = live.last_views.get(seat)
        if last is None:
            last = live.last_views[seat] = encode(last_deal_json(live, seat))
        head = seat_head(entry, seat).decode()
        body = entry.bodies[seat] = (
            head[:-1] + ',"last_deal":' + last + ',"computer_problem":null}')
    # what the computer cannot do now (this process's, never cached): null when nothing
    problem = problems.get(entry.row.id)
    if problem is not None:
        return body[: -len("null}")] + json.dumps(problem) + "}"
    return body


def last_deal_json(live: Live, seat: int) -> dict[str, Any] | None:
    """``seat``'s view of the deal just finished, as it stood at its end (or None)."""
    m = live.match
    if live.last_deal is None or not m.deals:
        return None
    summary = m.deals[-1]
    if seat not in summary.players:
        return None
    last = deal_view(live.last_deal, summary.players.index(seat)).to_json()
    last["number"] = len(m.deals)
    return last


def seat_json(entry: Entry, seat: int, *, last_deal: bool = True) -> dict[str, Any]:
    """What ``seat`` is sent: its view and what the table needs around it
    (``last_deal=False``: without the view of the last deal)."""
    row, live = entry.row, entry.live
    state = live.state
    m = live.match
    view = m.view(seat)
    vj = view.to_json()
    vj["names"] = [s.name for s in row.seats]
    if vj["deal"] is not None:
        # the legal actions are sent once: as the menu (``legal_actions`` below)
        del vj["deal"]["legal_actions"]
    out = {
        "id": row.id,
        "seat": seat,
        "n": live.n,
        "rules": row.rules,
        "format": row.format,
        "finished": state.over,
        "to_act": state.to_act,
        "your_turn": state.to_act == seat,
        "legal_actions": (
            [] if state.ended_early else menu_json(view)
        ),
        "first_lead": None if (bound := first_lead(view)) is None else bound.to_json(),
        "seats": seats_json(row.seats),
        "hints": row.hints,
        "view": vj,
        "result": state.result(),
        # the table's own: undo (a practice game: every other seat the computer), a
        # resignation, a rematch
        "practice": state.practice(seat),
        "can_undo": state.can_undo(seat),
        "resigned": state.resigned,
        "rematch": state.rematch,
        "rematch_mine": state.rematch is not None and state.rematch_by == seat,
        # between two people: a takeback asked of the other, an abort before one's
        # first move
        "takeback": {"asked": state.takeback_asked,
                     "can_ask": state.can_ask_takeback(seat)},
        "aborted": state.aborted,
        "can_abort": state.can_abort(seat),
        "timed_out": state.timed_out,
    }
    if last_deal:
        out["last_deal"] = last_deal_json(live, seat)
    return out


def record_of(entry: Entry) -> dict[str, Any]:
    """The finished (or resigned) game's JSON record, with the seats' names; a
    resignation is the tag ``Resigned`` (the seat), after the actions played.  Raises
    :class:`TableError` (``NOT_NOW``) if the game is not over."""
    state = entry.live.state
    if not state.over:
        raise TableError(Refusal.NOT_NOW, "the record is available when the game is over")
    rec = state.match.to_record()
    rec["players"] = [s.name for s in entry.row.seats]
    if state.resigned is not None:
        rec["tags"] = {"Resigned": state.resigned}
    if state.aborted is not None:
        rec["tags"] = {"Aborted": state.aborted}
    if state.timed_out is not None:
        rec["tags"] = {"LostOnTime": state.timed_out}
    return rec


def replay_step(entry: Entry, step: int) -> dict[str, Any]:
    """A finished game after its first ``step`` actions: every seat's view.

    Raises :class:`TableError`: ``NOT_NOW`` before the game is over, ``UNREADABLE`` for a step
    out of range.
    """
    row, m = entry.row, entry.live.match
    if not entry.live.state.over:
        raise TableError(Refusal.NOT_NOW, "the replay is available when the game is over")
    total = len(m.history)
    if not 0 <= step <= total:
        raise TableError(Refusal.UNREADABLE, f"step must be 0 to {total}")
    at = match_of(row.rules, row.format, row.seed, row.games_to_play, len(row.seats))
    before = at
    for p, a in m.history[:step]:
        before, at = at, at.apply(a, p)
    views = {}
    for p in range(at.n_players):
        vj = at.view(p).to_json()
        vj["names"] = [s.name for s in row.seats]
        views[str(p)] = vj
    if step > 0:
        ended_deal_views(before, at, views)
    action = None
    if step > 0:
        p, a = m.history[step - 1]
        action = {"player": p, "id": str(a), "lines": lines_added(before, at)}
    return {
        "id": row.id,
        "steps": total,
        "step": step,
        "action": action,
        "names": [s.name for s in row.seats],
        "views": views,
        # who resigned, told at the last step (the resignation is not an action)
        "resigned": entry.live.state.resigned if step == total else None,
    }
