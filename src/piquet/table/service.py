"""The table as a service: games kept in a :class:`~piquet.table.store.GameStore`, held
in memory, moved by one path for every interface.

:meth:`Tables.act` is the one way anything changes a game, a person's move, the
computer's, an undo, a resignation, a rematch alike: the entry is checked against the
game as it stands, **committed to the store first**, and only then held in memory; a
store that fails leaves memory, every view and every record as the store has them.  An
entry names the version (log length) its sender saw: a copy of an entry already in the
log at that place is answered with the game as it stands (a retry is applied once), a
retry of a move taken back since by an undo is refused as stale, and anything else
chosen on an older version is refused as moved on.  Transport-free and synchronous: a
server calls it from worker threads.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable

from piquet.table.ai import Chooser, choose, computer_action
from piquet.table.errors import Refusal, TableError
from piquet.table.state import TableState
from piquet.table.store import GameSpec, GameStore
from piquet.table.verdict import Verdict, judge, same_entry

__all__ = ["Tables"]

_NOT_FOUND = "no such game"


class Tables:
    """Every game of one store, the recent ones held in memory (``cache_size`` of them).

    ``shared``: other writers use the same store, so a game is read again from the store
    before each change (its version may have moved); else memory is the truth once read.
    """

    def __init__(
        self,
        store: GameStore,
        *,
        chooser: Chooser = choose,
        cache_size: int = 1024,
        shared: bool = False,
        announce: Callable[[TableState], None] | None = None,
    ) -> None:
        self.store = store
        self.chooser = chooser
        self.cache_size = cache_size
        self.shared = shared
        self.announce = announce
        """Called with each new state once committed and held."""
        self._held: OrderedDict[str, TableState] = OrderedDict()
        self._lock = threading.Lock()

    # ------------------------------------------------------------------ reading
    def create(self, spec: GameSpec) -> TableState:
        """Keep a new game (committed first) and hold it."""
        state = TableState.new(spec.game_id, spec.seats, spec.start())
        self.store.create(spec)
        return self._hold(state)

    def held(self, game_id: str) -> TableState | None:
        """The game as memory holds it (no store read), or None."""
        with self._lock:
            return self._held.get(game_id)

    def open(self, game_id: str, *, fresh: bool = False) -> TableState:
        """The game as it stands: from memory, or replayed from the store (``fresh``, or
        a shared store: read again, replaying only what memory lacks)."""
        held = self.held(game_id)
        if held is not None and not (fresh or self.shared):
            return held
        stored = self.store.load(game_id)
        if stored is None:
            raise TableError(Refusal.NOT_FOUND, _NOT_FOUND)
        if held is not None and held.log == stored.log[: held.version]:
            state = held
            for e in stored.log[held.version:]:
                state = state.apply(e.player, e.text)
        else:
            state = TableState.replay(game_id, stored.spec.seats, stored.spec.start(),
                                      stored.log)
        return self._hold(state)

    def _hold(self, state: TableState) -> TableState:
        with self._lock:
            old = self._held.get(state.game_id)
            if old is None or old.version <= state.version:
                self._held[state.game_id] = state
                self._held.move_to_end(state.game_id)
            while len(self._held) > self.cache_size:
                self._held.popitem(last=False)
            return self._held[state.game_id]

    # ------------------------------------------------------------------ acting
    def act(
        self, game_id: str, player: int, text: str, *, expect: int | None = None
    ) -> tuple[TableState, bool]:
        """Apply ``text`` by ``player``: (the game after it, whether it was applied now).

        ``expect``: the version the sender saw (None: the game as it stands).  Raises
        :class:`TableError` (nothing changed) when the entry may not be applied or is
        stale, and :class:`~piquet.table.store.StoreError` (nothing changed, in the store
        or in memory) when the store cannot write.
        """
        state = self.open(game_id)
        for _attempt in range(2):
            if expect is not None and expect != state.version:
                return self._stale(state, player, text, expect), False
            new = state.apply(player, text)
            entry = new.log[-1]
            if self.store.append(game_id, entry, expect=state.version, over=new.over):
                held = self._hold(new)
                if self.announce is not None:
                    self.announce(held)
                return held, True
            # another writer appended first: read the game again, look once more
            state = self.open(game_id, fresh=True)
            if expect is None:
                expect = state.version - 1 if state.log and same_entry(
                    state.log[-1], player, text) else None
                if expect is None:
                    raise TableError(Refusal.NOT_NOW, "the game moved on meanwhile: here it "
                                     "is as it stands")
        raise TableError(Refusal.NOT_NOW, "the game moved on meanwhile")  # pragma: no cover

    def _stale(self, state: TableState, player: int, text: str, expect: int) -> TableState:
        """The answer to an entry chosen at version ``expect`` of a game now further on
        (:func:`~piquet.table.verdict.judge`): the game, if that very entry is in the log
        there and not taken back since; else :class:`TableError` saying what happened
        meanwhile."""
        judged = judge(state.log, expect, player, text)
        if judged.verdict is Verdict.RETRY:
            return state
        raise judged.error([s.name for s in state.seats])

    def computer_move(self, game_id: str) -> TableState | None:
        """Let the computer make the move due now, if one is: the game after it (None
        when no computer is to act, or another writer moved first)."""
        state = self.open(game_id)
        move = computer_action(state, self.chooser)
        if move is None:
            return None
        player, action = move
        try:
            done, _ = self.act(game_id, player, str(action), expect=state.version)
        except TableError:
            return None
        return done

    def play_computers(self, game_id: str) -> TableState:
        """Every computer move due now, each committed before the next is chosen."""
        state = self.open(game_id)
        while (after := self.computer_move(game_id)) is not None:
            state = after
        return state
