"""The games the server keeps: create, authenticate, rebuild from the log, act, and show.

A game's truth is its row and action log in the :class:`~piquet.web.store.Store`.  Each
process keeps the live :class:`~piquet.match.Match` of recent games in memory, keyed by id
and log length; before it uses one it reads the log length from the database and replays
whatever other processes added, so two processes never diverge.  Every card a seat is sent
comes from ``Match.view(seat)`` (or, for the deal just finished, ``deal_view`` of that deal
for the seat's role in it): nothing else here decides what a seat may see.

Everything in this module blocks (database, replay); the ASGI layer calls it from worker
threads.
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import threading
import unicodedata
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any, Final

from piquet.actions import (
    Action,
    AnnounceBlanche,
    Answer,
    Appoint,
    DealBy,
    Declare,
    Discard,
    Leftover,
    LeftoverChoice,
    NameLead,
    Pass,
    Play,
    Question,
    Reply,
    parse_action,
)
from piquet.cards import Card
from piquet.deal import Deal
from piquet.declarations import claims, statement
from piquet.errors import IllegalActionError, ParseError, PiquetError
from piquet.match import MAX_SEED, Match, MatchView, new_match
from piquet.rules import PRESETS, Format, Rules, get_rules
from piquet.view import deal_view
from piquet.web.store import GameRow, NewSeat, SeatRow, Store

__all__ = [
    "FRIEND",
    "Created",
    "GameError",
    "Games",
    "Live",
    "clean_name",
    "hash_secret",
    "legal_objects",
]

FRIEND: Final = "friend"
"""The opponent that is a person, invited by a link."""
MAX_NAME: Final = 30
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


class GameError(PiquetError):
    """A request the server refuses; ``status`` is the HTTP status that says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


def hash_secret(secret: str) -> str:
    """The stored form of a token or invite: its SHA-256, hex."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def clean_name(name: str | None, default: str) -> str:
    """A display name: control and direction characters removed, spaces folded, 30 at most.

    The browser shows names as text, never as markup; this only keeps them tidy.
    """
    if not name:
        return default
    text = unicodedata.normalize("NFC", name)
    text = _CONTROL.sub("", text)
    text = " ".join(text.split())[:MAX_NAME].strip()
    return text or default


def _preset(name: str) -> Rules:
    """The preset called ``name`` (or an alias); never a file.  Raises :class:`GameError`."""
    key = name.strip().lower()
    bad = GameError(400, f"unknown rule set {name!r}; the rule sets are: {', '.join(PRESETS)}")
    if not key or key.endswith(".toml") or "/" in key or "\\" in key:
        raise bad
    try:
        return get_rules(key)
    except PiquetError:
        raise bad from None


@dataclass(frozen=True, slots=True)
class Live:
    """A game as this process knows it: the match and the last finished deal's end state."""

    match: Match
    last_deal: Deal | None

    @property
    def n(self) -> int:
        return len(self.match.history)


@dataclass(frozen=True, slots=True)
class Created:
    id: str
    token: str
    seat: int
    invites: tuple[tuple[int, str], ...]
    """(seat, invite code) for each seat kept for a friend."""


def _step(live: Live, player: int, action: Action) -> Live:
    """``live`` after ``action``; raises :class:`IllegalActionError`."""
    m = live.match
    m.verify(action, player)
    assert m.deal is not None
    after = m.deal.apply(action)
    return Live(m.apply(action, player), after if after.is_over else live.last_deal)


def _ai_seed(seed: int, player: int, idx: int) -> int:
    digest = hashlib.sha256(f"piquet-ai:{seed}:{player}:{idx}".encode()).digest()
    return int.from_bytes(digest[:8], "big") & MAX_SEED


class Games:
    """Every game of this server, over one :class:`Store`."""

    def __init__(self, store: Store, *, cache_size: int = 4096) -> None:
        self.store = store
        self.cache_size = cache_size
        self._cache: OrderedDict[str, Live] = OrderedDict()
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ creating
    def create(
        self,
        *,
        rules: str,
        format: str | None,
        opponents: list[str],
        hints: bool,
        name: str | None,
        levels: list[str],
    ) -> Created:
        """Start a game with the caller in seat 0; ``opponents`` fill the other seats.

        Each opponent is an AI level (one of ``levels``) or ``friend``.  Raises
        :class:`GameError` (400) naming what is allowed.
        """
        r = _preset(rules)
        try:
            fmt = Format(format.strip().lower()) if format else r.default_format
        except ValueError:
            raise GameError(
                400,
                f"unknown format {format!r}; {r.name} plays: "
                + ", ".join(f.value for f in r.formats),
            ) from None
        if fmt not in r.formats:
            raise GameError(
                400,
                f"{r.name} does not play a {fmt.value}; it plays: "
                + ", ".join(f.value for f in r.formats),
            )
        n_other = 2 if fmt is Format.POOL else 1
        if len(opponents) == 1 and n_other == 2:
            opponents = opponents * 2
        if len(opponents) != n_other:
            raise GameError(400, f"a {fmt.value} needs {n_other} opponent(s)")
        allowed = [*levels, FRIEND]
        seats = [NewSeat("human", None, clean_name(name, "Player 1"), None, None)]
        token = secrets.token_urlsafe(32)
        seats[0] = NewSeat("human", None, seats[0].name, hash_secret(token), None)
        invites: list[tuple[int, str]] = []
        for i, opp in enumerate(opponents, start=1):
            key = opp.strip().lower()
            if key == FRIEND:
                code = secrets.token_urlsafe(24)
                invites.append((i, code))
                seats.append(NewSeat("human", None, f"Friend {i}", None, hash_secret(code)))
            elif key in levels:
                seats.append(NewSeat("ai", key, f"Computer ({key})", None, None))
            else:
                raise GameError(
                    400, f"unknown opponent {opp!r}; choose one of: {', '.join(allowed)}"
                )
        game_id = secrets.token_urlsafe(12)
        seed = secrets.randbelow(MAX_SEED)
        live = Live(self._new_match(r.name, fmt.value, seed, 1, len(seats)), None)
        self.store.create_game(
            game_id=game_id,
            rules=r.name,
            format=fmt.value,
            seed=seed,
            games_to_play=1,
            hints=hints,
            seats=seats,
        )
        self._put(game_id, live)
        return Created(game_id, token, 0, tuple(invites))

    @staticmethod
    def _new_match(rules: str, fmt: str, seed: int, games: int, n_seats: int) -> Match:
        return new_match(
            rules, seed=seed, format=fmt, games=games, names=[f"seat {i}" for i in range(n_seats)]
        )

    # ------------------------------------------------------------------ reading
    def _put(self, game_id: str, live: Live) -> None:
        with self._lock:
            old = self._cache.get(game_id)
            if old is None or old.n <= live.n:
                self._cache[game_id] = live
            self._cache.move_to_end(game_id)
            while len(self._cache) > self.cache_size:
                self._cache.popitem(last=False)

    def live(self, row: GameRow) -> Live:
        """The game at the log length ``row`` read, replaying what this process has not seen.

        Raises :class:`GameError` (409) if the stored log no longer replays.
        """
        with self._lock:
            live = self._cache.get(row.id)
        if live is not None and live.n == row.n_actions:
            return live
        if live is None or live.n > row.n_actions:
            live = Live(
                self._new_match(row.rules, row.format, row.seed, row.games_to_play, len(row.seats)),
                None,
            )
        try:
            for a in self.store.actions(row.id, live.n):
                if a.idx != live.n or a.idx >= row.n_actions:
                    break
                live = _step(live, a.player, parse_action(a.action))
        except PiquetError as exc:
            raise GameError(409, f"this game's record no longer replays: {exc}") from None
        self._put(row.id, live)
        return live

    def load(self, game_id: str) -> tuple[GameRow, Live]:
        """The game's row and live state.  Raises :class:`GameError` (404)."""
        row = self.store.game(game_id)
        if row is None:
            raise GameError(404, "no such game (or not for this token)")
        return row, self.live(row)

    def authenticate(self, game_id: str, token: str | None) -> tuple[GameRow, SeatRow]:
        """The game and the seat that ``token`` opens.

        Raises :class:`GameError`: 401 without a token, 404 for an unknown game or a
        token that opens no seat of it (the two are not told apart).
        """
        if not token:
            raise GameError(401, "this needs the seat's token: Authorization: Bearer TOKEN")
        if len(token) > 200:
            raise GameError(404, "no such game (or not for this token)")
        row = self.store.game(game_id)
        if row is None:
            raise GameError(404, "no such game (or not for this token)")
        digest = hash_secret(token)
        for seat in row.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return row, seat
        raise GameError(404, "no such game (or not for this token)")

    # ------------------------------------------------------------------ acting
    def act(
        self,
        game_id: str,
        player: int,
        text: str,
        *,
        expect: int | None = None,
        row: GameRow | None = None,
    ) -> tuple[GameRow, Live]:
        """Apply ``text`` (an action id) by ``player``; the game after it.

        ``expect``: act only if the log has this length (the AI uses it); ``row``: the
        game as just read (else it is read now).  Raises
        :class:`GameError`: 400 for an unreadable action, 409 when it is not the
        player's turn, the game is over or moved on meanwhile, 422 when the rules
        forbid the action (the message says what is allowed).
        """
        if row is None or row.id != game_id:
            row, live = self.load(game_id)
        else:
            live = self.live(row)
        m = live.match
        if expect is not None and expect != live.n:
            raise GameError(409, "the game moved on")
        if m.finished:
            raise GameError(409, "the game is over: no more actions")
        if m.to_act != player:
            who = "nobody" if m.to_act is None else row.seats[m.to_act].name
            raise GameError(409, f"it is not your turn: {who} is to act")
        try:
            action = parse_action(text)
        except ParseError as exc:
            raise GameError(400, str(exc)) from None
        try:
            after = _step(live, player, action)
        except IllegalActionError as exc:
            raise GameError(422, str(exc)) from None
        ok = self.store.append(
            game_id,
            idx=live.n,
            player=player,
            action=str(action),
            finished=after.match.finished,
        )
        if not ok:
            raise GameError(409, "the game moved on meanwhile; here it is as it stands now")
        self._put(game_id, after)
        return row, after

    def ai_turn(self, row: GameRow, live: Live) -> tuple[int, str, int] | None:
        """(player, level, seed) when an AI seat is to act, else None."""
        m = live.match
        p = m.to_act
        if m.finished or p is None or p >= len(row.seats):
            return None
        seat = row.seats[p]
        if seat.kind != "ai" or seat.level is None:
            return None
        return p, seat.level, _ai_seed(row.seed, p, live.n)

    def join(self, game_id: str, invite: str, name: str | None) -> tuple[str, int]:
        """Take the seat ``invite`` opens: (token, seat).  Raises :class:`GameError` (404)."""
        if not invite or len(invite) > 200:
            raise GameError(404, "no such invitation (or it has been used)")
        token = secrets.token_urlsafe(32)
        seat = self.store.join(
            game_id,
            invite_hash=hash_secret(invite),
            token_hash=hash_secret(token),
            name=clean_name(name, "Guest"),
        )
        if seat is None:
            raise GameError(404, "no such invitation (or it has been used)")
        return token, seat

    def reinvite(self, row: GameRow) -> list[tuple[int, str]]:
        """New invite codes for every seat still waiting for a friend (old ones stop working)."""
        out = []
        for seat in row.seats:
            if seat.kind == "human" and seat.token_hash is None:
                code = secrets.token_urlsafe(24)
                if self.store.set_invite(row.id, seat.seat, hash_secret(code)):
                    out.append((seat.seat, code))
        return out

    # ------------------------------------------------------------------ showing
    def seat_json(self, row: GameRow, live: Live, seat: int) -> dict[str, Any]:
        """What ``seat`` is sent: its view and what the table needs around it."""
        m = live.match
        view = m.view(seat)
        vj = view.to_json()
        vj["names"] = [s.name for s in row.seats]
        last = None
        if live.last_deal is not None and m.deals:
            summary = m.deals[-1]
            if seat in summary.players:
                role = summary.players.index(seat)
                last = deal_view(live.last_deal, role).to_json()
                last["number"] = len(m.deals)
        return {
            "id": row.id,
            "seat": seat,
            "n": live.n,
            "rules": row.rules,
            "format": row.format,
            "finished": m.finished,
            "to_act": m.to_act,
            "your_turn": m.to_act == seat,
            "legal_actions": legal_objects(view, m.rules),
            "seats": [
                {
                    "seat": s.seat,
                    "name": s.name,
                    "kind": s.kind,
                    "level": s.level,
                    "joined": s.kind == "ai" or s.token_hash is not None,
                }
                for s in row.seats
            ],
            "hints": row.hints,
            "view": vj,
            "last_deal": last,
            "result": m.result() if m.finished else None,
        }

    def record(self, row: GameRow, live: Live) -> dict[str, Any]:
        """The finished game's JSON record, with the seats' names.  Raises 409 if not over."""
        if not live.match.finished:
            raise GameError(409, "the record is available when the game is over")
        rec = live.match.to_record()
        rec["players"] = [s.name for s in row.seats]
        return rec

    def replay_step(self, row: GameRow, live: Live, step: int) -> dict[str, Any]:
        """A finished game after its first ``step`` actions: every seat's view.

        Raises :class:`GameError`: 409 before the game is over, 400 for a step out of range.
        """
        m = live.match
        if not m.finished:
            raise GameError(409, "the replay is available when the game is over")
        total = len(m.history)
        if not 0 <= step <= total:
            raise GameError(400, f"step must be 0 to {total}")
        at = self._new_match(row.rules, row.format, row.seed, row.games_to_play, len(row.seats))
        for p, a in m.history[:step]:
            at = at.apply(a, p)
        views = {}
        for p in range(at.n_players):
            vj = at.view(p).to_json()
            vj["names"] = [s.name for s in row.seats]
            views[str(p)] = vj
        action = None
        if step > 0:
            p, a = m.history[step - 1]
            action = {"player": p, "id": str(a)}
        return {
            "id": row.id,
            "steps": total,
            "step": step,
            "action": action,
            "names": [s.name for s in row.seats],
            "views": views,
        }


# ---------------------------------------------------------------------- legal actions
_REPLY_LABELS: Final = {
    Reply.GOOD: "Good",
    Reply.NOT_GOOD: "Not good",
    Reply.EQUAL: "Equal",
    Reply.MAKING: "Making?",
}


def _named(suit: Any, card: Card | None) -> str:
    if card is not None:
        return f"{card.rank.name_singular} of {card.suit.plural}"
    return f"{suit.plural}" if suit is not None else "?"


def _label(action: Action, view: MatchView, rules: Rules) -> tuple[str, str, list[str]]:
    """(kind, label in the dialog's words, cards) for one legal action."""
    if isinstance(action, Play):
        c = action.card
        return "play", f"Play the {c.rank.name_singular} of {c.suit.plural}", [str(c)]
    if isinstance(action, Declare):
        deal = view.deal
        hand = deal.hand.mask if deal is not None else 0
        text = f"{action.cls.label} {action.cards}"
        for claim in claims(hand, action.cls, rules):
            if claim.cards == action.cards.mask:
                text = statement(claim, rules, full=False)
                break
        return "declare", text[:1].upper() + text[1:], [str(c) for c in action.cards]
    if isinstance(action, Pass):
        return "pass", "Pass (declare nothing)", []
    if isinstance(action, Answer):
        return "answer", _REPLY_LABELS[action.reply], []
    if isinstance(action, DealBy):
        return "deal", f"Deal by {action.size}", []
    if isinstance(action, AnnounceBlanche):
        return "blanche", f"Carte blanche: I shall discard {action.discards}", []
    if isinstance(action, NameLead):
        what = _named(action.suit, action.card)
        return "name", f"I shall lead {what}: show me the cards you left", []
    if isinstance(action, Appoint):
        return "appoint", f"Lead {_named(action.suit, action.card)}", []
    if isinstance(action, Leftover):
        if action.choice is LeftoverChoice.LOOK:
            return "leftover", "Look at the cards left in the stock", []
        return "leftover", "Leave them unseen", []
    if isinstance(action, Question):
        return "question", "Which card is missing?" if action.ask else "No question", []
    if isinstance(action, Discard):  # pragma: no cover - the exchange uses discard_range
        return "discard", f"Discard {action.cards}", [str(c) for c in action.cards]
    return "other", str(action), []  # pragma: no cover


def legal_objects(view: MatchView, rules: Rules) -> list[dict[str, Any]]:
    """The seat's legal actions as objects with an ``id``; the exchange as one descriptor.

    In the exchange the client builds ``discard:7S 8S`` (or ``discard:-`` for none) from
    the cards it selects, between ``min`` and ``max`` of them.
    """
    deal = view.deal
    if deal is None or view.to_act != view.player:
        return []
    if deal.discard_range is not None:
        lo, hi = deal.discard_range
        return [
            {
                "id": "discard",
                "kind": "discard",
                "label": f"Discard {lo} to {hi} cards" if lo != hi else f"Discard {lo} cards",
                "cards": [],
                "min": lo,
                "max": hi,
            }
        ]
    out = []
    for a in deal.legal_actions:
        kind, label, cards = _label(a, view, rules)
        out.append({"id": str(a), "kind": kind, "label": label, "cards": cards})
    return out
