"""``python_piquet`` with ``board=True``: a whole game or partie on the compiled board.

::

    import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]
    import piquet.integrations.openspiel  # registers "python_piquet"

    game = pyspiel.load_game("python_piquet", {"rules": "rubicon", "format": "game",
                                               "board": True})

The same game as ``board=False`` (the default), node for node: the same chance nodes (the
first dealer, then each pack drawn card by card, with the same outcomes and
probabilities), the same players to act, legal ids, returns, information-state and
observation tensors and strings (``tests/test_openspiel_board.py`` plays both side by
side).  Only the work behind each node differs: from the first decision of each deal the
state is one row of :class:`piquet.fast.game.GameBoards` (the compiled whole game, checked
against the engine by ``tests/test_fast_game.py``), dealt the pack the chance nodes drew.
The tensors at a player node are written by the board (in C); the strings, the tensors at a
chance node, :attr:`BoardPiquetState.episode` and the search support
(:meth:`BoardPiquetState.resample_from_infostate`) use the engine's
:class:`~piquet.integrations.actions.Episode`, replayed from the history when first asked
for and then kept up to date step by step.

Every format: a single deal (``format="deal"``: player 1 deals, so there is no chance node
for the dealer, only the pack's) as well as whole games and parties.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import numpy as np
import pyspiel  # type: ignore[import-not-found,import-untyped,unused-ignore]

from piquet.core.cards import CardSet
from piquet.core.errors import IllegalActionError
from piquet.fast import kernel as K
from piquet.fast.game import NUM_ACTIONS, OBS_SIZE, OBSERVATION_SIZE, GameBoards
from piquet.integrations.actions import ACTION_NAMES, Episode, EpisodeFormat
from piquet.integrations.observation import (
    episode_information_state_tensor,
    episode_observation_tensor,
)
from piquet.integrations.openspiel import PiquetObserver

if TYPE_CHECKING:
    from piquet.integrations.openspiel import PiquetGame

__all__ = ["BoardObserver", "BoardPiquetState", "board_template"]

_TERMINAL: Final = int(pyspiel.PlayerId.TERMINAL)
_CHANCE: Final = int(pyspiel.PlayerId.CHANCE)
_BOARD_TERMINAL: Final = -4  # piquet.fast.game.TERMINAL


def board_template(game: PiquetGame) -> GameBoards:
    """The game's board, reset (each state copies it)."""
    boards = GameBoards(1, rules=game.rules, format=game.format.value,
                        max_deals=game.max_deals)
    boards.reset(0)
    return boards


class _Core:
    """A state's own mutable parts (one object, so that OpenSpiel's clone, a deep copy of
    the state's attributes, copies the board's row and shares the immutable episode)."""

    __slots__ = ("boards", "drawn", "ep", "ep_at", "left", "moves")

    def __init__(self, boards: GameBoards, ep: Episode) -> None:
        self.boards = boards
        self.drawn: list[int] = []  # the pack drawn so far, top first
        self.left: list[int] | None = None  # the cards not yet drawn; None: no pack drawing
        self.ep = ep  # the engine's episode after ``ep_at`` history ids
        self.ep_at = 0
        self.moves = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        other = _Core.__new__(_Core)
        other.boards = self.boards.copy()
        other.drawn = list(self.drawn)
        other.left = None if self.left is None else list(self.left)
        other.ep = self.ep
        other.ep_at = self.ep_at
        other.moves = self.moves
        return other


class BoardPiquetState(pyspiel.State):  # type: ignore[misc]
    """One OpenSpiel state of ``python_piquet(board=True)``: a row of the compiled board."""

    def __init__(self, game: PiquetGame) -> None:
        super().__init__(game)
        board = game._board
        assert board is not None, "a board game has its board"
        self._c = _Core(board.copy(), game._template)
        self._pack_cards: list[int] = game._pack_cards
        self._dealer: int | None = None
        self._deal_start = 0
        self._player = _CHANCE
        self._legal: list[int] | None = None
        self._deal = game.format is EpisodeFormat.DEAL
        if self._deal:  # one deal: player 1 deals, no chance node for it; the pack is drawn
            self._c.left = list(self._pack_cards)

    # ------------------------------------------------------------------ the pyspiel API
    def current_player(self) -> int:
        return self._player

    def _legal_actions(self, player: int) -> list[int]:
        if player != self._player:
            return []
        if player == _CHANCE:
            return [a for a, _ in self.chance_outcomes()]
        legal = self._legal
        if legal is None:
            b = self._c.boards
            word = int.from_bytes(b._legal_bytes[0].tobytes(), "little")
            legal = []
            while word:
                low = word & -word
                legal.append(low.bit_length() - 1)
                word ^= low
            self._legal = legal
        return list(legal)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._player != _CHANCE:
            raise IllegalActionError("not a chance node")
        left = self._c.left
        if left is None:
            return [(0, 0.5), (1, 0.5)]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        a = int(action)
        c = self._c
        if self._player == _CHANCE:
            if c.left is None:  # the first dealer
                if a not in (0, 1):
                    raise IllegalActionError(f"the first dealer is player 0 or 1, not {a}")
                self._dealer = a
                c.left = list(self._pack_cards)
                c.drawn = []
            else:
                if a not in c.left:
                    raise IllegalActionError(
                        f"card {a} is not one left in the pack; left: "
                        + ", ".join(str(x) for x in c.left))
                if not c.drawn:
                    self._deal_start = c.moves
                c.left.remove(a)
                c.drawn.append(a)
                if not c.left:
                    first = int(c.boards.rows[0, _NDEALS]) == 0
                    c.boards.deal_pack(0, c.drawn, dealer=self._dealer if first else None)
                    c.left = None
                    c.drawn = []
                    self._player = int(c.boards.rows[0, _TO_MOVE])
                    self._legal = None
        elif self._player == _TERMINAL:
            raise IllegalActionError(f"action id {a}: the episode is over, no action is allowed")
        else:
            b = c.boards
            if not (0 <= a < NUM_ACTIONS and b._legal_bytes[0, a >> 3] >> (a & 7) & 1):
                raise IllegalActionError(
                    f"action id {a} ({ACTION_NAMES[a] if 0 <= a < NUM_ACTIONS else 'no id'}) "
                    "is not allowed now; legal ids: "
                    + ", ".join(f"{i} ({ACTION_NAMES[i]})" for i in self._legal_actions(
                        self._player)))
            rows = b.rows
            before = int(rows[0, _NDEALS])
            b._one[0] = a
            K._native.game_step(b._p, rows, b._one, b._status, 0, 1)
            self._legal = None
            mover = int(rows[0, _TO_MOVE])
            if mover == _BOARD_TERMINAL:
                self._player = _TERMINAL
            elif int(rows[0, _NDEALS]) != before:  # the next deal's pack is drawn
                self._player = _CHANCE
                c.left = list(self._pack_cards)
                c.drawn = []
            else:
                self._player = mover
        c.moves += 1

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            if self._c.left is None:
                return f"player {action} deals first"
            return f"pack:{CardSet(1 << action)}"
        return ACTION_NAMES[action]

    def is_terminal(self) -> bool:
        return self._player == _TERMINAL

    def is_truncated(self) -> bool:
        """Whether the game was cut off at ``max_deals`` still undecided (OpenSpiel has no
        truncation: the state is terminal, returns 0 each; see
        :meth:`piquet.integrations.openspiel.PiquetState.is_truncated`)."""
        return self._player == _TERMINAL and bool(self._c.boards.rows[0, _TRUNCATED])

    def returns(self) -> list[float]:
        if self._player != _TERMINAL:
            return [0.0, 0.0]
        row = self._c.boards.rows[0]
        if self._deal:
            diff = float(row[_DEAL_PTS] - row[_DEAL_PTS + 1])
            return [diff, -diff]
        winner = int(row[_WINNER])
        if winner < 0:
            return [0.0, 0.0]
        won = float(row[_SETTLED]) if self._c.ep.format is EpisodeFormat.PARTIE else 1.0
        return [won, -won] if winner == 0 else [-won, won]

    # ------------------------------------------------------------------ the engine's view
    @property
    def episode(self) -> Episode:
        """The engine's episode at this node (replayed from the history the first time it is
        asked for, then kept up to date): for strings, bots and resampling."""
        c = self._c
        if c.ep_at < c.moves:
            ep = c.ep
            for a in self.history()[c.ep_at:]:
                ep = ep.apply(a)
            c.ep, c.ep_at = ep, c.moves
        return c.ep

    def __str__(self) -> str:
        from piquet.integrations.openspiel import PiquetState

        return PiquetState.__str__(self)

    def resample_from_infostate(
        self, player_id: int, probability_sampler: Callable[[], float]
    ) -> BoardPiquetState:
        """As :meth:`piquet.integrations.openspiel.PiquetState.resample_from_infostate`
        (the same worlds, replayed into a state of this game)."""
        from piquet.integrations.openspiel import PiquetState

        state: BoardPiquetState = PiquetState.resample_from_infostate(
            self, player_id, probability_sampler)
        return state

    # ------------------------------------------------------------------ observation
    def write_tensor(self, out: np.ndarray[Any, np.dtype[np.float32]], player: int,
                     perfect_recall: bool) -> None:
        """``player``'s information-state (``perfect_recall``) or observation tensor into
        ``out``: the board's at a player node or the end, the engine's while a pack is
        drawn (the board holds a pack of its own then)."""
        if self._player == _CHANCE:
            ep = self.episode
            out[:] = (episode_information_state_tensor(ep, player) if perfect_recall
                      else episode_observation_tensor(ep, player))
            return
        b = self._c.boards
        b._one[0] = player
        size = OBS_SIZE if perfect_recall else OBSERVATION_SIZE
        K._native.game_obs(b._p, b.rows, b._one, out.reshape(1, size), 0, 1, size)


class BoardObserver(PiquetObserver):
    """The observer of ``python_piquet(board=True)``: as
    :class:`piquet.integrations.openspiel.PiquetObserver` (the same pieces and strings),
    the tensors from the board."""

    def set_from(self, state: BoardPiquetState, player: int) -> None:
        state.write_tensor(self.tensor, player, self.perfect_recall)


_L: Final = K._native.LAYOUT
_TO_MOVE: Final = int(_L["WG_to_move"])
_NDEALS: Final = int(_L["WG_ndeals"])
_TRUNCATED: Final = int(_L["WG_truncated"])
_WINNER: Final = int(_L["WG_winner"])
_SETTLED: Final = int(_L["WG_settled"])
_DEAL_PTS: Final = int(_L["WG_deal_pts"])
