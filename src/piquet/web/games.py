"""The games the server keeps: create, authenticate, rebuild from the log, act, and show.

A game's truth is its row and action log in the :class:`~piquet.web.store.Store`.  Each
process keeps the games it serves in memory (an :class:`Entry`: the seats, the live
:class:`~piquet.core.match.Match`, and the views already built), so that showing a game or
checking an action reads nothing from the database; a game not in memory is rebuilt by
replaying its log.  Where other processes share the database (PostgreSQL), a game held in
memory is the truth only while PostgreSQL's news of every write (:mod:`piquet.web.pgnews`)
is heard and says nothing newer of it; otherwise (the news down, lately back, or newer than
memory) it is checked against the stored log length first (one cheap query) and only the
actions it lacks are read (that memory: :mod:`piquet.web.gamecache`).  An action is
recorded by the store's writer and acknowledged, and put in memory, only once committed.
Every card a seat is sent comes from ``Match.view(seat)`` (or, for the deal just
finished, ``deal_view`` of that deal for the seat's role in it): nothing else here decides
what a seat may see.

The methods that may read or write the database block (the ASGI layer calls them from
worker threads); :meth:`Games.act` is a coroutine that awaits the writer without holding
a thread; the rest work from memory.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import logging
import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Final

from anyio import to_thread

from piquet.core.actions import Action, parse_action
from piquet.core.errors import ParseError
from piquet.core.match import MAX_SEED
from piquet.core.rules import Format
from piquet.table.ai import ai_seed
from piquet.table.errors import Refusal, TableError
from piquet.table.verdict import Verdict, judge
from piquet.web import showing
from piquet.web.entries import Created, Entry, Live
from piquet.web.entries import step as _step
from piquet.web.gamecache import NOT_FOUND as _NOT_FOUND
from piquet.web.gamecache import GameCache
from piquet.web.refusals import clean_name, hash_secret, preset_named
from piquet.web.store import GameRow, NewSeat, SeatRow, Store

__all__ = ["FRIEND", "Created", "Entry", "Games", "Live"]

log = logging.getLogger("piquet.web")

FRIEND: Final = "friend"
"""The opponent that is a person, invited by a link."""

_DIGESTS_HELD: Final = 8192
"""Tokens whose digests :class:`Games` keeps (all of them forgotten when full)."""


_READ_HELD: Final = 4096
"""Action ids :func:`_read` keeps read (all of them forgotten when full)."""

_READ: dict[str, tuple[Action, str]] = {}


def _read(text: str) -> tuple[Action, str]:
    """``text`` read as an action, and the action's id as the log stores it
    (``parse_action``, then ``str``: an action is immutable and the ids a game's moves
    use are few, so those read are kept).  Raises :class:`ParseError`."""
    hit = _READ.get(text)
    if hit is None:
        action = parse_action(text)
        hit = (action, str(action))
        if len(text) <= 64:  # an id padded with spaces reads too: not those
            if len(_READ) >= _READ_HELD:
                _READ.clear()
            _READ[text] = hit
    return hit


def _retry(entry: Entry, expect: int, player: int, text: str) -> bool:
    """Whether ``text`` by ``player``, chosen at version ``expect``, is a copy of the entry
    already in the log there, not taken back since (the table's
    :func:`~piquet.table.verdict.judge`)."""
    return judge(entry.live.state.log, expect, player, text).verdict is Verdict.RETRY


def _moved_on(entry: Entry, expect: int | None, player: int, text: str) -> TableError:
    """The refusal of ``text`` by ``player`` chosen on the game as it stood at version
    ``expect`` (None: its last entry), in a player's words (the table's
    :func:`~piquet.table.verdict.judge`; the answer carries the game as it stands)."""
    log = entry.live.state.log
    at = len(log) - 1 if expect is None else expect
    return judge(log, at, player, text).error([s.name for s in entry.row.seats])


class Games(GameCache):
    """Every game of this server, over one :class:`Store`, with the live ones in memory
    (:class:`~piquet.web.gamecache.GameCache`: ``cache_size``, ``shared``, ``news``)."""

    def __init__(
        self,
        store: Store,
        *,
        cache_size: int = 4096,
        shared: bool | None = None,
        announce: Callable[[str, int], Awaitable[None]] | None = None,
        news: bool = True,
    ) -> None:
        super().__init__(store, cache_size=cache_size, shared=shared, news=news)
        self.announce = announce
        """Called with (game id, log length) once an action is committed and held."""
        self.before_move: Callable[[str], Awaitable[object]] | None = None
        """Called with the game's id before a move of the rules is checked (the clocks:
        a player whose time is gone has lost, and his move is refused)."""
        self.on_over: Callable[[Entry], Awaitable[None]] | None = None
        """Called with the game once an entry that ends it is committed and held (the
        rated games' settlement)."""
        self.on_deal_over: Callable[[Entry], Awaitable[None]] | None = None
        """Called with the game once an action that ends a deal is committed and held (the
        analysis of that deal, made while the next is played)."""
        self._digests: dict[str, str] = {}
        """Token -> its digest (:func:`hash_secret`), for the tokens seen lately: every
        request of a seat hashes its token, and SHA-256 through OpenSSL 3 costs more to
        set up than to run (a few microseconds a request)."""
        self.problems: dict[str, str] = {}
        """Game id -> why its computer cannot move now (said in every seat's view, as
        ``computer_problem``, until it moves again); this process's only."""

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
        :class:`TableError` (``UNREADABLE``) naming what is
        allowed.
        """
        r = preset_named(rules)
        try:
            fmt = Format(format.strip().lower()) if format else r.default_format
        except ValueError:
            raise TableError(
                Refusal.UNREADABLE,
                f"unknown format {format!r}; {r.name} plays: "
                + ", ".join(f.value for f in r.formats),
            ) from None
        if (why := r.format_refusal(fmt)) is not None:
            raise TableError(Refusal.UNREADABLE, why)
        n_other = 2 if fmt is Format.POOL else 1
        if len(opponents) == 1 and n_other == 2:
            opponents = opponents * 2
        if len(opponents) != n_other:
            raise TableError(Refusal.UNREADABLE, f"a {fmt.value} needs {n_other} opponent(s)")
        allowed = [*levels, FRIEND]
        seat_token = secrets.token_urlsafe(32)
        seats = [NewSeat("human", None, clean_name(name, "Player 1"), hash_secret(seat_token),
                         None)]
        invites: list[tuple[int, str]] = []
        for i, opp in enumerate(opponents, start=1):
            key = opp.strip().lower()
            if key == FRIEND:
                code = secrets.token_urlsafe(24)
                invites.append((i, code))
                seats.append(NewSeat("human", None, f"Friend {i}", None, hash_secret(code)))
            elif key in levels:
                # two computers of one level are told apart by their seats
                twice = sum(o.strip().lower() == key for o in opponents) > 1
                label = f"Computer {i} ({key})" if twice else f"Computer ({key})"
                seats.append(NewSeat("ai", key, label, None, None))
            else:
                raise TableError(
                    Refusal.UNREADABLE,
                    f"unknown opponent {opp!r}; choose one of: {', '.join(allowed)}",
                )
        game_id = secrets.token_urlsafe(12)
        seed = secrets.randbelow(MAX_SEED)
        token = self._read_at(game_id)  # (nobody has written it before: it is new)
        row = self.store.create_game(
            game_id=game_id,
            rules=r.name,
            format=fmt.value,
            seed=seed,
            games_to_play=1,
            hints=hints,
            seats=seats,
        )
        self._put(row.id, row=row, live=self._start(row))
        self._was_read(row.id, token)
        return Created(game_id, seat_token, 0, tuple(invites))

    # ------------------------------------------------------------------ seats
    def _digest(self, token: str | None) -> str:
        if not token:
            raise TableError(
                Refusal.NO_TOKEN, "this needs the seat's token: Authorization: Bearer TOKEN"
            )
        if len(token) > 200:
            raise TableError(Refusal.NOT_FOUND, _NOT_FOUND)
        digests = self._digests
        digest = digests.get(token)
        if digest is None:
            if len(digests) >= _DIGESTS_HELD:
                digests.clear()
            digest = digests[token] = hash_secret(token)
        return digest

    @staticmethod
    def _seat_of(row: GameRow, digest: str) -> SeatRow | None:
        for seat in row.seats:
            if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, digest):
                return seat
        return None

    def seat_cached(self, game_id: str, token: str | None) -> SeatRow | None:
        """The seat ``token`` opens, from memory; None when memory cannot tell.

        A seat's token, once set, never changes, so a match in memory is always right.
        Raises :class:`TableError` (``NO_TOKEN``) without a token.
        """
        digest = self._digest(token)
        held = self.peek(game_id)
        return None if held is None else self._seat_of(held.row, digest)

    def authenticate(self, game_id: str, token: str | None) -> tuple[Entry, SeatRow]:
        """The game and the seat that ``token`` opens.  Blocks.

        Raises :class:`TableError`: ``NO_TOKEN`` without one, ``NOT_FOUND`` for an unknown
        game or a token that opens no seat of it (the two are not told apart).
        """
        digest = self._digest(token)
        held = self.peek(game_id)
        if held is not None:
            seat = self._seat_of(held.row, digest)
            if seat is not None:
                return self.fresh(game_id), seat
        entry = self.load(game_id)  # a seat taken meanwhile, maybe through another process
        seat = self._seat_of(entry.row, digest)
        if seat is None:
            raise TableError(Refusal.NOT_FOUND, _NOT_FOUND)
        return entry, seat

    # ------------------------------------------------------------------ acting
    def current(self, game_id: str, at_least: int | None = None
                ) -> tuple[Entry | None, bool]:
        """(the game held in memory or None, whether it is known to be the truth: one
        process, or the database's news says so and it is ``at_least`` that long)."""
        held = self.peek(game_id)
        if held is None:
            return None, False
        return held, not self.shared or self._known(game_id, held, at_least)

    def prepare(
        self, entry: Entry, player: int, text: str, *, expect: int | None = None,
        event: bool = False,
    ) -> tuple[str, Live]:
        """Check ``text`` (an action id; with ``event``, one of the table's own entries:
        ``undo``, ``resign``, ``rematch:ID``) by ``player`` against ``entry``: (the entry as
        stored, the game after it).  Touches nothing.

        Raises :class:`TableError`: ``UNREADABLE`` for an unreadable action, ``NOT_NOW``
        when it is not the player's turn, the game is over or moved on (``expect``: the
        log length the actor saw), ``AGAINST_RULES`` when the rules forbid the action (the
        message says what is allowed).
        """
        live = entry.live
        m = live.match
        if event:  # the table's own (undo, resign, rematch): the table says why not
            if expect is not None and expect != live.n:
                raise _moved_on(entry, expect, player, text)
            after = _step(live, player, text)
            return after.state.log[-1].text, after
        # a game over is said first: "X acted first" of a game X has ended tells less
        self._refuse_if_over(entry, player)
        if expect is not None and expect != live.n:
            raise _moved_on(entry, expect, player, text)
        if m.to_act != player:
            who = "nobody" if m.to_act is None else entry.row.seats[m.to_act].name
            raise TableError(Refusal.NOT_NOW, f"it is not your turn: {who} is to act")
        try:
            action, stored = _read(text)
        except ParseError as exc:
            raise TableError(Refusal.UNREADABLE, str(exc)) from None
        return stored, _step(live, player, action)

    def _refuse_if_over(self, entry: Entry, player: int) -> None:
        """Raise ``NOT_NOW`` if ``entry``'s game is over: resigned, or played to its end."""
        if entry.live.state.resigned is not None:
            raise TableError(Refusal.NOT_NOW, "the game is over: a player resigned")
        if entry.live.state.aborted is not None:
            raise TableError(Refusal.NOT_NOW, "the game is over: it was aborted")
        if entry.live.state.timed_out is not None:
            raise TableError(Refusal.NOT_NOW, "the game is over: a clock ran out")
        if entry.live.match.finished:
            raise TableError(Refusal.NOT_NOW, "the game is over: no more actions")

    async def act(
        self,
        game_id: str,
        player: int,
        text: str,
        *,
        expect: int | None = None,
        entry: Entry | None = None,
        known: bool = False,
        event: bool = False,
    ) -> Entry:
        """:meth:`act_once` without saying whether the action was applied now."""
        done, _applied = await self.act_once(
            game_id, player, text, expect=expect, entry=entry, known=known, event=event
        )
        return done

    async def act_once(
        self,
        game_id: str,
        player: int,
        text: str,
        *,
        expect: int | None = None,
        entry: Entry | None = None,
        known: bool = False,
        event: bool = False,
        on_commit: Callable[[Entry], None] | None = None,
    ) -> tuple[Entry, bool]:
        """Apply ``text`` by ``player`` (see :meth:`prepare`): (the game after it, whether
        it was applied now rather than found already recorded).

        ``expect``: the log length the actor saw.  If the log is already longer and its
        entry number ``expect`` is this same action by this player, nothing is applied and
        the game as it stands is the answer (a retry, or a copy sent twice, is applied
        once); any other difference is refused (``NOT_NOW``).  Without ``expect`` the
        action applies to the game as it stands, so a retry may apply it twice.

        Answers once the action is committed; only then does memory hold it.  ``entry``:
        the game as the caller has it; ``known``: it is the truth (else a refusal or a
        lost race is checked once against the database before it stands).  ``on_commit``:
        called with the game after the action once it is committed, before the watchers
        hear of it (a socket that the answer reaches another way).  Raises
        :class:`TableError` as :meth:`prepare` does, and ``NOT_NOW`` when another action was
        recorded first.
        """
        if not event and self.before_move is not None:
            decided = await self.before_move(game_id)
            if isinstance(decided, Entry):  # a clock ran out: the game as it stands now
                entry, known = decided, True
        if entry is None:
            entry, known = await to_thread.run_sync(self.fresh, game_id), True
        if known and expect is not None and expect > entry.n:
            # the actor saw more than this process holds (through another process, whose
            # news is not here yet): a refusal is checked against the database first
            known = False
        # the database's word, not memory's, even where its news says memory is current
        check = functools.partial(self.fresh, game_id, check=True)
        while True:
            if expect is not None and entry.n > expect and _retry(entry, expect, player, text):
                if known:
                    return entry, False  # a retry or a copy of an action already recorded
                entry, known = await to_thread.run_sync(check), True
                continue
            try:
                action, after = self.prepare(entry, player, text, expect=expect, event=event)
            except TableError:
                if known:
                    raise
                entry, known = await to_thread.run_sync(check), True
                continue
            # shielded: once the action is sent to the writer, memory and the watchers
            # hear of its commit even if the request is abandoned meanwhile
            done = await asyncio.shield(
                self._record(game_id, entry.n, entry.row.revision, player, action, after,
                             on_commit)
            )
            if done is not None:
                if self.on_deal_over is not None and len(done.live.match.deals) > len(
                        entry.live.match.deals):
                    await self.on_deal_over(done)
                return done, True
            if known:  # a race lost: the other action stands (unless it was this one)
                entry = await to_thread.run_sync(check)
                if expect is not None and _retry(entry, expect, player, text):
                    return entry, False
                if event:  # the table says whether it still applies, and why not
                    continue
                self._refuse_if_over(entry, player)  # (a resignation raises the revision)
                raise _moved_on(entry, expect, player, text)
            entry, known = await to_thread.run_sync(check), True

    async def _record(
        self, game_id: str, idx: int, revision: int, player: int, action: str, after: Live,
        on_commit: Callable[[Entry], None] | None = None,
    ) -> Entry | None:
        """Append, then (if the log was ``idx`` long and the game of ``revision``) hold
        ``after`` and announce it; the entry, or None when another action was recorded
        first or the game was revised (an undo, a resignation) since it was read."""
        ok = await self.store.append_async(
            game_id, idx=idx, revision=revision, player=player, action=action,
            finished=after.state.over,
        )
        if not ok:
            return None
        held = self._put(game_id, live=after)
        done = held if held.live is after else Entry(held.row, after)
        if on_commit is not None:
            try:
                on_commit(done)
            except Exception:  # never keeps the news from the watchers
                log.exception("after the commit of game %s", game_id)
        if self.announce is not None:
            await self.announce(game_id, after.n)
        if after.state.over and self.on_over is not None:
            await self.on_over(done)
        return done

    @staticmethod
    def computer_due(entry: Entry) -> bool:
        """Whether an AI seat is to act (:meth:`ai_turn` is not None, without its seed)."""
        seat = entry.live.state.computer_turn()
        return seat is not None and seat.level is not None

    def ai_turn(self, entry: Entry) -> tuple[int, str, int] | None:
        """(player, level, seed) when an AI seat is to act, else None."""
        seat = entry.live.state.computer_turn()
        if seat is None or seat.level is None:
            return None
        # the one seed formula: the game's seed, the seat, the actions of the match so far
        m = entry.live.match
        return seat.player, seat.level, ai_seed(entry.row.seed, seat.player, len(m.history))

    def join(self, game_id: str, invite: str, name: str | None) -> tuple[str, int]:
        """Take the seat ``invite`` opens: (token, seat).  Blocks.

        Raises :class:`TableError` (``NOT_FOUND``; ``NOT_NOW`` for a game that is over).
        """
        if not invite or len(invite) > 200:
            raise TableError(Refusal.NOT_FOUND, "no such invitation (or it has been used)")
        if self.over(self.fresh(game_id)):
            raise TableError(Refusal.NOT_NOW, "the game is over: its seat can no longer be taken")
        token = secrets.token_urlsafe(32)
        seat = self.store.join(
            game_id,
            invite_hash=hash_secret(invite),
            token_hash=hash_secret(token),
            name=clean_name(name, "Guest"),
        )
        if seat is None:
            raise TableError(Refusal.NOT_FOUND, "no such invitation (or it has been used)")
        if self.peek(game_id) is not None:
            self.refresh_row(game_id)
        return token, seat

    def reinvite(self, entry: Entry) -> list[tuple[int, str]]:
        """New invite codes for every seat still waiting for a friend (old ones stop working)."""
        out = []
        for seat in entry.row.seats:
            if seat.kind == "human" and seat.token_hash is None:
                code = secrets.token_urlsafe(24)
                if self.store.set_invite(entry.row.id, seat.seat, hash_secret(code)):
                    out.append((seat.seat, code))
        if out:
            # committed first, then memory: the seats held here carry the new invitation
            # (an offer in the lobby is checked against it)
            self.refresh_row(entry.row.id)
        return out

    def refresh_row(self, game_id: str) -> GameRow | None:
        """The game's row (its seats) read again and held, after a change of its seats
        other than a join (a new invitation); None if there is no such game.  Blocks."""
        row = self.store.game(game_id)
        if row is not None and self.peek(game_id) is not None:
            self._put(game_id, row=row)
        return row

    # ------------------------------------------------------------------ showing
    def seat_body(self, entry: Entry, seat: int) -> str:
        """What ``seat`` is sent, as JSON text (:func:`piquet.web.showing.seat_body`)."""
        return showing.seat_body(entry, seat, self.problems)

    def seat_json(self, entry: Entry, seat: int, *, last_deal: bool = True) -> dict[str, Any]:
        """What ``seat`` is sent (:func:`piquet.web.showing.seat_json`)."""
        return showing.seat_json(entry, seat, last_deal=last_deal)

    def resigned(self, entry: Entry) -> int | None:
        """The seat that resigned ``entry``'s game, or None."""
        return entry.live.state.resigned

    def over(self, entry: Entry) -> bool:
        """Whether ``entry``'s game is over: played to its end, or resigned."""
        return entry.live.state.over

    def record(self, entry: Entry) -> dict[str, Any]:
        """The finished game's JSON record (:func:`piquet.web.showing.record_of`)."""
        return showing.record_of(entry)

    def replay_step(self, entry: Entry, step: int) -> dict[str, Any]:
        """A finished game after ``step`` actions (:func:`piquet.web.showing.replay_step`)."""
        return showing.replay_step(entry, step)
