"""A table's state: the match, its seats, and the table's own events, all in one log.

A game at a table is its start (rule set, format, seed, games to play), its seats and its
**log**: each entry a player and a text, either an action id of the core
(``play:QH``) or one of the table's own events:

- ``undo``: the player takes back his last move of the deal in play (a practice game,
  every other seat the computer): the match is rebuilt without it, and without what
  followed it;
- ``resign``: the player resigns; the game is over, the other player of the game wins;
- ``rematch:ID``: the player made game ``ID`` the rematch of this one (the first stands);
- ``takeback``: the player asks the other (a person, in a game of two) to let him take
  back his last move of the deal in play; ``takeback:yes`` and ``takeback:no`` are the
  other's answers (yes: the match is rebuilt without that move and what followed it, as
  an undo); any move of the rules lets a question not yet answered lapse;
- ``abort``: in a game between two people, before his first move the player ends the
  game with no result (nobody wins; a rated game is not rated);
- ``timeout``: the player's clock ran out (the server, which keeps the clocks, writes
  it; no player can): the game is over, the other player wins.

Replaying the log rebuilds the state exactly, so resignation, rematch and undo are match
state, never something patched over a finished game; the log only grows, so its length is
the table's **version**: an action chosen at version ``n`` is stale once anything (an undo
included) was appended after it.  A log of core actions only is a record as it always was:
:meth:`TableState.record` writes it byte for byte as :meth:`Match.to_record` does.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final

from piquet.core.actions import Action, parse_action
from piquet.core.cards import Card
from piquet.core.deal import Deal
from piquet.core.errors import IllegalActionError, ParseError
from piquet.core.match import Match, Player
from piquet.table.errors import Refusal, TableError
from piquet.table.seats import Seat, check_seats

__all__ = [
    "ABORT",
    "RESIGN",
    "TAKEBACK",
    "TAKEBACK_NO",
    "TAKEBACK_YES",
    "TIMEOUT",
    "UNDO",
    "Entry",
    "Pack",
    "TableState",
    "dealt_from",
    "is_table_event",
    "rematch_entry",
    "takes_back",
]

UNDO: Final = "undo"
RESIGN: Final = "resign"
TAKEBACK: Final = "takeback"
TAKEBACK_YES: Final = "takeback:yes"
TAKEBACK_NO: Final = "takeback:no"
ABORT: Final = "abort"
TIMEOUT: Final = "timeout"
_EVENTS: Final = frozenset({UNDO, RESIGN, TAKEBACK, TAKEBACK_YES, TAKEBACK_NO, ABORT,
                            TIMEOUT})
_REMATCH: Final = "rematch:"
_ID_CHARS: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-")


def rematch_entry(game_id: str) -> str:
    """The log text of a rematch made as game ``game_id``."""
    return _REMATCH + game_id


def is_table_event(text: str) -> bool:
    """Whether the log entry ``text`` is one of the table's own (not a move of the rules)."""
    return text in _EVENTS or text.startswith(_REMATCH)


def takes_back(text: str) -> bool:
    """Whether the log entry ``text`` takes moves back (an undo, a takeback agreed)."""
    return text in (UNDO, TAKEBACK_YES)


@dataclass(frozen=True, slots=True)
class Pack:
    """A pack given to a table (:meth:`TableState.with_pack`): where it was dealt (the
    length of the match's history then), who dealt it, its cards (top first), and whether
    the deal stops at the game's target (``target``) or is played to its end."""

    at: int
    dealer: int
    cards: tuple[int, ...]
    target: bool = True


@dataclass(frozen=True, slots=True)
class Entry:
    """One entry of a table's log: who, and what (an action id or a table event)."""

    player: int
    text: str


@dataclass(frozen=True)
class TableState:
    """One game at a table, immutable: :meth:`apply` returns the next state.

    ``start`` is the match as dealt (every replay begins there), ``match`` as it stands;
    ``resigned`` the player who resigned, ``rematch`` the game made as this one's rematch
    and ``rematch_by`` who made it; ``takeback_asked`` the player whose question to take
    back his last move waits for the other's answer, ``aborted`` the player who aborted,
    ``timed_out`` the player whose clock ran out; ``packs`` the packs given to the table
    (:meth:`with_pack`).
    """

    game_id: str
    seats: tuple[Seat, ...]
    start: Match
    match: Match
    log: tuple[Entry, ...] = ()
    resigned: Player | None = None
    rematch: str | None = None
    rematch_by: Player | None = None
    takeback_asked: Player | None = None
    aborted: Player | None = None
    timed_out: Player | None = None
    packs: tuple[Pack, ...] = ()
    """The packs dealt from cards given to the table rather than from the match's seed
    (:meth:`with_pack`), in order."""

    # ------------------------------------------------------------------ making
    @classmethod
    def new(cls, game_id: str, seats: Sequence[Seat], start: Match) -> TableState:
        """A table at the start of ``start`` (a match as :func:`new_match` deals it)."""
        checked = check_seats(seats)
        if len(checked) != start.n_players:
            raise TableError(Refusal.UNREADABLE, f"{start.n_players} players need "
                             f"{start.n_players} seats, not {len(checked)}")
        return cls(game_id, checked, start, start)

    @classmethod
    def replay(
        cls, game_id: str, seats: Sequence[Seat], start: Match, log: Iterable[Entry]
    ) -> TableState:
        """The table after ``log``; raises :class:`TableError` at an entry that does not
        apply (a log is only ever written from entries that did)."""
        state = cls.new(game_id, seats, start)
        for n, e in enumerate(log, 1):
            try:
                state = state.apply(e.player, e.text)
            except TableError as exc:
                raise TableError(exc.kind, f"log entry {n} ({e.text!r} by player "
                                 f"{e.player}): {exc.message}") from None
        return state

    # ------------------------------------------------------------------ reading
    @property
    def version(self) -> int:
        """The log's length: it only grows (an undo is an entry, not a cut)."""
        return len(self.log)

    @property
    def over(self) -> bool:
        """Played to its end, resigned or aborted."""
        return self.match.finished or self.ended_early

    @property
    def ended_early(self) -> bool:
        """Resigned or aborted: over before its last move."""
        return (self.resigned is not None or self.aborted is not None
                or self.timed_out is not None)

    @property
    def to_act(self) -> Player | None:
        """The player to act; None when nobody is (the game over, resigned or aborted)."""
        return None if self.ended_early else self.match.to_act

    def people_only(self) -> bool:
        """Two seats, both people: takebacks are asked of the other there."""
        return _seating(self.seats)[0]

    def can_ask_takeback(self, player: int) -> bool:
        return (self.people_only() and not self.over and self.takeback_asked is None
                and self.match.takeback_index(player) is not None)

    def can_abort(self, player: int) -> bool:
        """In a game between two people, before the player's first move (and the game not
        over); against the computer a game is simply left."""
        return (self.people_only() and not self.over
                and not any(p == player for p, _a in self.match.history))

    def seat(self, player: int) -> Seat:
        return self.seats[player]

    def practice(self, player: int) -> bool:
        """Whether every other seat is the computer (undo is for such games)."""
        _people, practice, anyone = _seating(self.seats)
        return player in practice or anyone

    def can_undo(self, player: int) -> bool:
        return self.practice(player) and not self.over and (
            self.match.takeback_index(player) is not None)

    def computer_turn(self) -> Seat | None:
        """The computer's seat to act now, or None."""
        p = self.to_act
        if p is None or self.match.finished:
            return None
        seat = self.seats[p]
        return seat if seat.computer else None

    def result(self) -> dict[str, Any] | None:
        """The result once over: the match's, or who resigned and who wins, or who
        aborted (nobody wins)."""
        if self.aborted is not None:
            return {"aborted": self.aborted, "winner": None}
        if self.timed_out is not None:
            others = [p for p in self.match.in_game if p != self.timed_out]
            return {"timeout": self.timed_out,
                    "winner": others[0] if len(others) == 1 else None}
        if self.resigned is not None:
            others = [p for p in self.match.in_game if p != self.resigned]
            return {"resigned": self.resigned,
                    "winner": others[0] if len(others) == 1 else None}
        return self.match.result() if self.match.finished else None

    def record(self) -> dict[str, Any]:
        """The game's record: the match's (seed and actions, the moves taken back left
        out), the seats' names, a resignation as the tag ``Resigned``, and the packs given
        to the table (:meth:`with_pack`) as ``packs``: each where it was dealt in the
        actions, its dealer, its cards top first, whether the deal stops at the target."""
        rec = self.match.to_record()
        rec["players"] = [s.name for s in self.seats]
        if self.packs:
            rec["packs"] = [
                {"at": p.at, "dealer": p.dealer,
                 "cards": " ".join(str(Card.from_index(c)) for c in p.cards),
                 "target": p.target}
                for p in self.packs]
        if self.resigned is not None:
            rec["tags"] = {"Resigned": self.resigned}
        if self.aborted is not None:
            rec["tags"] = {"Aborted": self.aborted}
        if self.timed_out is not None:
            rec["tags"] = {"LostOnTime": self.timed_out}
        return rec

    # ------------------------------------------------------------------ moving
    def check(self, player: int, text: str) -> Action | str:
        """What ``text`` by ``player`` is (the action, or the table event's text) if it may
        be applied now; raises :class:`TableError` saying why not and what is allowed."""
        if not 0 <= player < len(self.seats):
            raise TableError(Refusal.UNREADABLE, f"no player {player}: the players are "
                             f"0 to {len(self.seats) - 1}")
        if text == UNDO:
            self._check_undo(player)
            return text
        if text == RESIGN:
            if self.over:
                why = "a player resigned" if self.resigned is not None else (
                    "it was aborted" if self.aborted is not None else "its last move was made")
                raise TableError(Refusal.NOT_NOW, f"the game is already over: {why}")
            return text
        if text in (TAKEBACK, TAKEBACK_YES, TAKEBACK_NO):
            self._check_takeback(player, text)
            return text
        if text == TIMEOUT:
            if self.over:
                raise TableError(Refusal.NOT_NOW, "the game is already over")
            return text
        if text == ABORT:
            if self.over:
                raise TableError(Refusal.NOT_NOW, "the game is already over")
            if not self.people_only():
                raise TableError(Refusal.NOT_NOW, "an abort is for a game between two "
                                 "people: against the computer, start a new game")
            if not self.can_abort(player):
                raise TableError(Refusal.NOT_NOW, "a game can be aborted only before your "
                                 "first move: resign instead")
            return text
        if text.startswith(_REMATCH):
            made = text[len(_REMATCH):]
            if not made or len(made) > 32 or not set(made) <= _ID_CHARS:
                raise TableError(Refusal.UNREADABLE, f"{text!r}: a rematch names a game id "
                                 "(letters, digits, - and _, at most 32)")
            if not self.over:
                raise TableError(Refusal.NOT_NOW, "a rematch follows the end of the game")
            if self.rematch is not None:
                raise TableError(Refusal.NOT_NOW, "the rematch is already made")
            return text
        self._refuse_turn(player)
        try:
            action = parse_action(text)
        except ParseError as exc:
            raise TableError(Refusal.UNREADABLE, str(exc)) from None
        try:
            self.match.verify(action, player)
        except IllegalActionError as exc:
            raise TableError(Refusal.AGAINST_RULES, str(exc)) from None
        return action

    def _check_undo(self, player: int) -> None:
        self._refuse_if_packs_given()
        if not self.practice(player):
            raise TableError(Refusal.NOT_NOW, "undo is for practice games against the computer")
        if self.over:
            raise TableError(Refusal.NOT_NOW, "the game is over: nothing to take back")
        if self.match.takeback_index(player) is None:
            earlier = any(p == player for p, _a in self.match.history)
            raise TableError(Refusal.NOT_NOW, (
                "your moves of the deals before this one stay: this deal's cards are seen"
                if earlier else "you have made no move to take back"))

    def _check_takeback(self, player: int, text: str) -> None:
        if not self.people_only():
            raise TableError(Refusal.NOT_NOW, "a takeback is asked of another player: in a "
                             "practice game against the computer, use undo")
        if self.over:
            raise TableError(Refusal.NOT_NOW, "the game is over: nothing to take back")
        self._refuse_if_packs_given()
        asked = self.takeback_asked
        if text == TAKEBACK:
            if asked is not None:
                raise TableError(Refusal.NOT_NOW, "a takeback is already asked: wait for "
                                 "the answer")
            if self.match.takeback_index(player) is None:
                earlier = any(p == player for p, _a in self.match.history)
                raise TableError(Refusal.NOT_NOW, (
                    "your moves of the deals before this one stay: this deal's cards are seen"
                    if earlier else "you have made no move to take back"))
            return
        if asked is None:
            raise TableError(Refusal.NOT_NOW, "no takeback is asked: nothing to answer")
        if asked == player:
            raise TableError(Refusal.NOT_NOW, "the takeback is yours: the other player "
                             "answers it")

    def _refuse_if_packs_given(self) -> None:
        if self.packs:
            raise TableError(Refusal.NOT_NOW, "the cards of this game were given to the "
                             "table, not dealt from its seed: no move is taken back")

    def with_pack(
        self, cards: Sequence[int], *, dealer: int | None = None, target: bool = True
    ) -> TableState:
        """The table with its deal in play dealt from ``cards`` (card indexes, top first)
        instead of the match's seed, before any move of that deal: the cards drawn by a
        research environment's chance nodes (:mod:`piquet.integrations.actions`).
        ``dealer`` changes who deals; ``target`` False plays the deal to its end whatever
        the score (an environment's single deal).

        No seat chooses the cards, so the pack is not an entry of the log: the table keeps
        it in :attr:`packs` (a record of such a game carries them), and refuses to take a
        move back.  Raises :class:`TableError` (``NOT_NOW``) once the deal has begun or
        the game is over, ``UNREADABLE`` for a pack that is not the rule set's.
        """
        if self.ended_early:
            raise TableError(Refusal.NOT_NOW, "a pack is given before its deal's first move")
        after, given = dealt_from(self.match, cards, dealer=dealer, target=target)
        return replace(self, match=after, packs=(*self.packs, given))

    def apply(self, player: int, text: str | Action) -> TableState:
        """The table after ``text`` (or an action already read) by ``player``; raises
        :class:`TableError` (nothing changes) for an entry that may not be applied now."""
        if isinstance(text, Action):
            return self._played(player, text)
        if text in _EVENTS or text.startswith(_REMATCH):
            what = self.check(player, text)
            assert isinstance(what, str)
            log = (*self.log, Entry(player, what))
            if what in (UNDO, TAKEBACK_YES):
                back = player if what == UNDO else self.takeback_asked
                assert back is not None
                keep = self.match.takeback_index(back)
                assert keep is not None
                m = self.start
                for p, a in self.match.history[:keep]:
                    m = m.apply(a, p)
                return replace(self, match=m, log=log, takeback_asked=None)
            if what == TAKEBACK:
                return replace(self, log=log, takeback_asked=Player(player))
            if what == TAKEBACK_NO:
                return replace(self, log=log, takeback_asked=None)
            if what == ABORT:
                return replace(self, log=log, aborted=Player(player), takeback_asked=None)
            if what == TIMEOUT:
                return replace(self, log=log, timed_out=Player(player), takeback_asked=None)
            if what == RESIGN:
                return replace(self, log=log, resigned=Player(player), takeback_asked=None)
            return replace(self, log=log, rematch=what[len(_REMATCH):],
                           rematch_by=Player(player))
        try:
            action = parse_action(text)
        except ParseError as exc:
            self._refuse_turn(player)  # not your turn is said before an unreadable id
            raise TableError(Refusal.UNREADABLE, str(exc)) from None
        return self._played(player, action)

    def _refuse_turn(self, player: int, match: Match | None = None) -> None:
        """Raise :class:`TableError` if ``player`` may not take an action of the rules now
        (in ``match``: the table's by default)."""
        if not 0 <= player < len(self.seats):
            raise TableError(Refusal.UNREADABLE, f"no player {player}: the players are "
                             f"0 to {len(self.seats) - 1}")
        if self.resigned is not None:
            raise TableError(Refusal.NOT_NOW, "the game is over: a player resigned")
        if self.aborted is not None:
            raise TableError(Refusal.NOT_NOW, "the game is over: it was aborted")
        if self.timed_out is not None:
            raise TableError(Refusal.NOT_NOW, "the game is over: a clock ran out")
        m = self.match if match is None else match
        if m.finished:
            raise TableError(Refusal.NOT_NOW, "the game is over: no more actions")
        if m.to_act != player:
            who = "nobody" if m.to_act is None else self.seats[m.to_act].name
            raise TableError(Refusal.NOT_NOW, f"it is not your turn: {who} is to act")

    def _played(self, player: int, action: Action) -> TableState:
        """The table after ``action`` by ``player`` (the turn checked here, the action once,
        by ``Match.apply``).

        This is every move's path at a table (a person's, the computer's; a research
        environment's table follows its engine instead, :meth:`followed`), so it is kept
        cheap: the player to act is worked out once (``Match.apply``
        is not asked to check it again), and the new state is the old one's fields copied
        as one dict rather than made through the frozen dataclass's ``__init__``
        (:meth:`_with`; ``bench/bench_table_adapters.py``).
        """
        after = self._moved(self.match, player, action)
        return self._with(after, (*self.log, _entry(player, str(action))))

    def play_on(self, actions: Iterable[Action]) -> TableState:
        """The table after ``actions``, each by the player to act then: exactly what
        :meth:`apply` gives them one by one (each checked the same way, each an entry of
        the log), with one new state at the end.  A research environment hands over so the
        cards played on the kernel's board at a deal's end.  Raises :class:`TableError` at
        the first action that may not be applied (nothing changes)."""
        m = self.match
        entries = []
        for action in actions:
            player = m.to_act
            if player is None:
                self._refuse_turn(0, m)
                raise AssertionError("unreachable")  # pragma: no cover
            m = self._moved(m, player, action)
            entries.append(_entry(player, str(action)))
        return self._with(m, (*self.log, *entries)) if entries else self

    def followed(self, match: Match, packs: Sequence[Pack] = ()) -> TableState:
        """The table once it has followed ``match``: this table's match carried on by moves
        already made and checked on it (by :meth:`Match.apply
        <piquet.core.match.Match.apply>`, or a deal's carried on by :meth:`Match.with_deal
        <piquet.core.match.Match.with_deal>`), each now an entry of the log by the player
        who made it, exactly as :meth:`apply` would have written them one by one (a takeback
        not yet answered lapses), and ``packs`` the packs given meanwhile (each by
        :func:`dealt_from`, as :meth:`with_pack` gives one).  A research environment steps
        the engine itself and has its table follow only when the table is read (its views,
        labels or record).

        Raises :class:`TableError` (``NOT_NOW``) if the game ended early, or if ``match``
        does not carry this table's match on (its history does not begin with this one's).
        """
        done = self.match.history
        if match is self.match and not packs:
            return self
        history = match.history
        n = len(done)
        if self.ended_early or len(history) < n or (n and history[n - 1] is not done[-1]):
            if self.ended_early:
                self._refuse_turn(0)
            raise TableError(Refusal.NOT_NOW, "that match does not carry this table's on")
        entries = [_entry(p, str(a)) for p, a in history[n:]]
        new = self._with(match, (*self.log, *entries))
        if packs:
            _SET(new, "packs", (*self.packs, *packs))
        return new

    def _moved(self, m: Match, player: int, action: Action) -> Match:
        """``m`` after ``action`` by ``player``; raises :class:`TableError` if the table's
        game is over, it is not his turn or the rules forbid it."""
        if (self.resigned is not None or self.aborted is not None
                or self.timed_out is not None or m.finished
                or m.to_act != player or not 0 <= player < len(self.seats)):
            self._refuse_turn(player, m)  # says why
        try:
            return m.apply(action)  # (the turn is checked above)
        except IllegalActionError as exc:
            raise TableError(Refusal.AGAINST_RULES, str(exc)) from None

    def _with(self, match: Match, log: tuple[Entry, ...]) -> TableState:
        """This table with ``match`` and ``log`` after a move (a takeback not yet answered
        lapses): its fields copied as one dict, three of them changed (no slots, so that
        this copy is one step: twelve slots filled one by one cost about four times as
        much, the largest part of the table's cost a move)."""
        attrs = self.__dict__.copy()
        attrs["match"] = match
        attrs["log"] = log
        attrs["takeback_asked"] = None
        new = _NEW(TableState)
        _SET(new, "__dict__", attrs)
        return new


def dealt_from(
    m: Match, cards: Sequence[int], *, dealer: int | None = None, target: bool = True
) -> tuple[Match, Pack]:
    """``m`` with its deal in play dealt from ``cards`` (:meth:`TableState.with_pack`: the
    same ``dealer`` and ``target``), and the :class:`Pack` a table keeps of it.  Raises
    :class:`TableError` (``NOT_NOW``) once the deal has begun or the match is over,
    ``UNREADABLE`` for a pack that is not the rule set's."""
    if m.finished or m.deal is None or m.deal.history:
        raise TableError(Refusal.NOT_NOW, "a pack is given before its deal's first move")
    try:
        after = m.with_pack(cards, dealer=dealer)
        if not target and after.deal is not None and not after.deals[len(m.deals):]:
            # the same cards, the deal played to its end (a carte blanche shown as it
            # is dealt cannot reach a target from the score it starts at)
            after = after.with_deal(Deal.new(m.rules, cards, start=after.deal.start))
    except IllegalActionError as exc:
        raise TableError(Refusal.UNREADABLE, str(exc)) from None
    return after, Pack(len(m.history), m.dealer if dealer is None else dealer, tuple(cards),
                       target)


_Seating = tuple[bool, frozenset[int], bool]
_SEATING: dict[int, tuple[tuple[Seat, ...], _Seating]] = {}
"""id(a table's seats) -> (the seats, what :func:`_seating` says of them)."""


def _seating(seats: tuple[Seat, ...]) -> _Seating:
    """(whether the seats are two people; the seats' players for whom every other seat
    is the computer; whether every seat is), worked out once per tuple of seats (a
    table's states share theirs, and each seat's view asks twice)."""
    hit = _SEATING.get(id(seats))
    if hit is not None and hit[0] is seats:
        return hit[1]
    people = len(seats) == 2 and not any(s.computer for s in seats)
    practice = frozenset(
        p.player for p in seats if all(s.computer for s in seats if s.player != p.player))
    out = (people, practice, all(s.computer for s in seats))
    if len(_SEATING) >= 4096:
        _SEATING.clear()
    _SEATING[id(seats)] = (seats, out)
    return out


def _entry(player: int, text: str) -> Entry:
    """``Entry(player, text)``, filled slot by slot (every move makes one)."""
    entry = _NEW(Entry)
    _SET(entry, "player", player)
    _SET(entry, "text", text)
    return entry


_NEW: Final = object.__new__
_SET: Final = object.__setattr__
