"""Whole games on the compiled board: every decision the agent's, by the shared action ids.

:class:`GameBoards` holds ``n`` games of one rule set and format as rows of one int64 array
(the C layout ``WGame`` of ``src/piquet/native/game.h``).  Every decision of a deal is a
stop of the kernel's board with its legal ids: the packet size, carte blanche's number,
the exchange (card by card, then ``discard-done``), the leftovers, the lead named or
appointed, each declaration (any claim the hand holds, so sinking is a choice), each answer,
"which is missing", and each card.  The ids and their meaning are those of
:mod:`piquet.integrations.actions` (480 of them), so a policy reads and writes the same
numbers here and in the OpenSpiel and PettingZoo adapters.

Between deals the game's own rules (:class:`piquet.core.match.Match`): the deal
alternates; a game ends when a player reaches the target (during the deal where the rule
set ends it there), a partie after its deals (two more when level) with its settlement; a
game still undecided after ``max_deals`` deals is cut off (truncated).  Each game draws its
first dealer and its packs from its own generator, seeded by :meth:`GameBoards.reset`.

:meth:`GameBoards.observe` writes a player's observation in C: the adapters'
information-state tensor (:data:`piquet.integrations.observation.INFO_PIECES`), or their
smaller observation tensor; nothing hidden is in it.

Checked against the engine (:class:`~piquet.integrations.actions.Episode` on the engine
path) by ``tests/test_fast_game.py`` and ``bench/bench_fast.py --game-diff N``
(:func:`piquet.integrations.check.differ_game`): the same packs and ids give the same
player to act and legal ids at every step, the same observations part by part, the same
deal points, scores, winner and end.
"""

from __future__ import annotations

from typing import Final, Literal

import numpy as np
import numpy.typing as npt

from piquet.core.errors import IllegalActionError, PiquetError
from piquet.core.rules import Rules
from piquet.fast import kernel as K
from piquet.fast.engine import rules_and_format, whole_number
from piquet.fast.params import compile_rules

__all__ = ["FORMATS", "NUM_ACTIONS", "OBSERVATION_SIZE", "OBS_SIZE", "TENSORS", "GameBoards"]

_L: Final = K._native.LAYOUT
WG_SIZE: Final = _L["WG_SIZE"]
_O: Final = {name[3:]: value for name, value in _L.items() if name.startswith("WG_")}

#: the number of action ids (piquet.integrations.actions.ids.NUM_ACTIONS, the same numbering;
#: their names: piquet.integrations.actions.action_name)
NUM_ACTIONS: Final = 480
#: the observation's size: the adapters' information-state tensor
#: (piquet.integrations.observation.INFO_SIZE, the same layout)
OBS_SIZE: Final = _L["WG_OBS_SIZE"]
#: the smaller observation's size: the same without the tricks in order (the adapters'
#: observation tensor, piquet.integrations.observation.OBS_SIZE)
OBSERVATION_SIZE: Final = _L["WG_OBSERVATION_SIZE"]
#: the tensors an observation may be, and their sizes
TENSORS: Final = {"information_state": OBS_SIZE, "observation": OBSERVATION_SIZE}
#: the formats the boards play, and their codes ("deal": one deal, player 1 dealing, no
#: game target, as the adapters' format "deal")
FORMATS: Final = {"game": 0, "partie": 1, "deal": 2}
#: who is to act once a game is over (OpenSpiel's number, as the adapters')
TERMINAL: Final = -4


def _seed_words(seed: int, n: int) -> npt.NDArray[np.uint64]:
    """One 64-bit seed per game from a base seed (the C side mixes each by splitmix64)."""
    base = (int(seed) * 0x9E3779B97F4A7C15) & ((1 << 64) - 1)
    return np.array([(base + i) & ((1 << 64) - 1) for i in range(n)], dtype=np.uint64)


class GameBoards:
    """``n`` whole games of ``rules`` in ``format`` (``"game"`` or ``"partie"``), or single
    deals (``"deal"``: player 1 deals, so player 0 is elder; no game target stops it; it
    ends with its deal, its return the point difference, as the adapters' format
    ``"deal"``)."""

    def __init__(
        self, n: int, *, rules: Rules | str = "rubicon",
        format: Literal["game", "partie", "deal"] | None = None, max_deals: int = 50,
    ) -> None:
        n = whole_number("the number of games", n, 1)
        max_deals = whole_number("max_deals", max_deals, 1)
        self.rules, name = rules_and_format(rules, format, FORMATS,
                                            "whole games are played as")
        self.format = name
        self.max_deals = max_deals
        self.n = n
        self._p = compile_rules(self.rules)
        self.rows = np.zeros((n, WG_SIZE), dtype=np.int64)
        self._status = np.zeros(n, dtype=np.int64)
        self._started = False
        at = _O["legal"]
        self._legal_bytes = self.rows[:, at:at + 8].view(np.uint8)  # (n, 64): a view
        self._one = np.zeros(n, dtype=np.int64)

    def copy(self) -> GameBoards:
        """An independent copy of these games, at the same point (the compiled rules are
        shared: they are never written)."""
        other = GameBoards.__new__(GameBoards)
        other.__dict__.update(self.__dict__)
        other.rows = self.rows.copy()
        other._status = self._status.copy()
        at = _O["legal"]
        other._legal_bytes = other.rows[:, at:at + 8].view(np.uint8)
        other._one = np.zeros(self.n, dtype=np.int64)
        return other

    # ------------------------------------------------------------------ fields
    def field(self, name: str, width: int = 1) -> npt.NDArray[np.int64]:
        """A view of field ``name`` of every row (``width`` int64s: the game's C layout)."""
        at = _O[name]
        out = self.rows[:, at:at + width]
        return out[:, 0] if width == 1 else out

    def offset(self, name: str) -> int:
        """Where field ``name`` begins in a row (the C layout)."""
        return int(_O[name])

    @property
    def to_move(self) -> npt.NDArray[np.int64]:
        """The player to act in each game (-4 once it is over)."""
        return self.field("to_move").copy()

    def legal_mask(self) -> npt.NDArray[np.bool_]:
        """The legal ids of each game's player to act, ``(n, 480)`` booleans."""
        words = np.ascontiguousarray(self.field("legal", 8)).view(np.uint8)
        bits = np.unpackbits(words.reshape(self.n, 64), axis=1, bitorder="little")
        return bits[:, :NUM_ACTIONS].astype(np.bool_)

    def legal_ids(self, i: int) -> list[int]:
        """The legal ids of game ``i``'s player to act, sorted."""
        bits = np.unpackbits(self._legal_bytes[i], bitorder="little")
        ids: list[int] = np.flatnonzero(bits[:NUM_ACTIONS]).tolist()
        return ids

    def legal_row(self, i: int) -> npt.NDArray[np.uint8]:
        """Game ``i``'s legal ids as 480 zeros and ones (uint8)."""
        return np.unpackbits(self._legal_bytes[i], bitorder="little")[:NUM_ACTIONS]

    def step_one(self, i: int, action: int) -> None:
        """Game ``i``'s player to act takes ``action`` (the other games do not move): the
        same as :meth:`step` for one game, checked the same way."""
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        if not 0 <= i < self.n:
            raise IllegalActionError(f"game {i}: the games are 0 to {self.n - 1}")
        a = int(action)
        if self.rows[i, _O["over"]]:
            raise IllegalActionError(f"game {i} is over: reset it before stepping it")
        if not (0 <= a < NUM_ACTIONS and self._legal_bytes[i, a >> 3] >> (a & 7) & 1):
            legal = ", ".join(str(j) for j in self.legal_ids(i)[:40])
            what = "" if 0 <= a < NUM_ACTIONS else f" (not an id: ids are 0 to {NUM_ACTIONS - 1})"
            raise IllegalActionError(
                f"game {i}: action id {a}{what} is not allowed now; legal ids: "
                f"{legal} (piquet.integrations.actions.action_name names each)")
        self._one[i] = a
        K._native.game_step(self._p, self.rows, self._one, self._status, i, i + 1)

    def deck(self, i: int) -> tuple[int, ...]:
        """The pack of game ``i``'s deal in play, top first."""
        return tuple(int(c) for c in self.field("deck", 36)[i, :self.rules.deck_size])

    def _knobs(self) -> int:
        """What a seat sees under the rule set (not in the parameter vector), as the C
        side's bits (game.h's W_SEES_UNUSED ..)."""
        r = self.rules
        return (int(r.elder_sees_unused) | int(r.show_point) << 1 | int(r.show_sequences) << 2
                | int(r.show_sets) << 3 | int(r.show_missing) << 4)

    def observe(self, players: npt.ArrayLike | None = None,
                out: npt.NDArray[np.float32] | None = None,
                tensor: Literal["information_state", "observation"] = "information_state",
                ) -> npt.NDArray[np.float32]:
        """Each game's observation for ``players[i]`` (default: the player to act; a game
        over needs its player named, 0 or 1): ``(n, OBS_SIZE)`` float32, the adapters'
        information-state tensor, or with ``tensor="observation"`` ``(n,
        OBSERVATION_SIZE)``, their observation tensor (the same without the tricks in
        order)."""
        if tensor not in TENSORS:
            raise PiquetError(f"tensor {tensor!r}: use one of {', '.join(TENSORS)}")
        size = TENSORS[tensor]
        who = (np.full(self.n, -1, dtype=np.int64) if players is None
               else np.asarray(players, dtype=np.int64).reshape(self.n))
        if out is None:
            out = np.zeros((self.n, size), dtype=np.float32)
        K._native.game_obs(self._p, self.rows, who, out, 0, self.n, size)
        return out

    def random_ids(self, rng: npt.NDArray[np.uint64],
                   out: npt.NDArray[np.int64] | None = None) -> npt.NDArray[np.int64]:
        """A legal id of each game drawn uniformly, compiled (-1 where a game is over):
        random play at the board's speed.  ``rng``: a one-element uint64 generator state
        (:func:`piquet.fast.policies.new_rng`), advanced."""
        if out is None:
            out = np.zeros(self.n, dtype=np.int64)
        K._native.game_random(self.rows, rng, out, 0, self.n)
        return out

    def observe_one(self, i: int, player: int) -> npt.NDArray[np.float32]:
        """Game ``i``'s information-state tensor for ``player`` (0 or 1): a new array."""
        if player not in (0, 1) or not 0 <= i < self.n:
            raise PiquetError(f"game {i}, player {player}: games 0 to {self.n - 1}, players 0, 1")
        self._one[i] = player
        out = np.empty((self.n, OBS_SIZE), dtype=np.float32)
        K._native.game_obs(self._p, self.rows, self._one, out, i, i + 1, OBS_SIZE)
        row: npt.NDArray[np.float32] = out[i]
        return row

    # ------------------------------------------------------------------ moving
    def deal_pack(self, i: int, pack: tuple[int, ...] | list[int], *,
                  dealer: int | None = None) -> None:
        """Deal game ``i``'s deal in play again from ``pack`` (card indices, top first), as
        at a table whose cards are entered; ``dealer`` (0 or 1) deals it instead, for the
        game's first deal only (to follow another implementation's chance draws).

        Raises :class:`IllegalActionError` (and nothing changes) for a pack that is not the
        rule set's cards each once, once a decision of the deal has been made, or for a
        dealer after the first deal.
        """
        if dealer not in (None, 0, 1):
            raise IllegalActionError(f"dealer: player 0 or 1, not {dealer!r}")
        if not 0 <= i < self.n:
            raise IllegalActionError(f"game {i}: the games are 0 to {self.n - 1}")
        cards = [int(c) for c in pack]
        want = sorted(c for c in range(36) if self.rules.deck_size == 36 or c % 9)
        if sorted(cards) != want:
            raise IllegalActionError(f"a pack is the {self.rules.deck_size} cards of "
                                     f"{self.rules.name}, each once, top first")
        if not self._started:
            raise IllegalActionError("call reset() before dealing a pack")
        row = np.zeros(36, dtype=np.int64)
        row[:len(cards)] = cards
        if not K._native.game_deal(self._p, self.rows, i, row, -1 if dealer is None else dealer):
            raise IllegalActionError(
                f"game {i}: a decision of this deal has been made (or the game is over, or a "
                "dealer is named after the first deal): only a deal not yet begun is dealt "
                "again, and only the first by another dealer")

    def reset(self, seed: int = 0, rows: slice | None = None) -> None:
        """New games from ``seed`` (game ``i`` from ``seed`` and ``i``) in ``rows`` (all)."""
        lo, hi, _ = (rows or slice(0, self.n)).indices(self.n)
        K._native.game_reset(self._p, self.rows, _seed_words(seed, self.n),
                             FORMATS[self.format], self.max_deals, lo, hi,
                             self._knobs())
        self._started = True

    def step(self, actions: npt.ArrayLike) -> None:
        """Each game's player to act takes its action id.

        Raises :class:`IllegalActionError` (and no game changes) for an id that is not
        legal in its game, naming the legal ones, or for a game that is over.
        """
        if not self._started:
            raise IllegalActionError("call reset() before step()")
        acts = np.asarray(actions)
        if acts.dtype.kind not in "iu":
            raise IllegalActionError(f"action ids are whole numbers 0 to {NUM_ACTIONS - 1}, "
                                     f"not {acts.dtype} values")
        acts = acts.astype(np.int64).reshape(-1)
        if acts.shape[0] != self.n:
            raise IllegalActionError(f"give one action id per game: {self.n}, not "
                                     f"{acts.shape[0]}")
        over = self.field("over")
        if over.any():
            i = int(np.flatnonzero(over)[0])
            raise IllegalActionError(f"game {i} is over: reset it before stepping it")
        inside = (acts >= 0) & (acts < NUM_ACTIONS)
        ok = inside.copy()
        ok[inside] = self.legal_mask()[np.flatnonzero(inside), acts[inside]]
        if not ok.all():
            i = int(np.flatnonzero(~ok)[0])
            legal = ", ".join(str(j) for j in self.legal_ids(i)[:40])
            what = "" if inside[i] else f" (not an id: ids are 0 to {NUM_ACTIONS - 1})"
            raise IllegalActionError(
                f"game {i}: action id {int(acts[i])}{what} is not allowed now; legal ids: "
                f"{legal} (piquet.integrations.actions.action_name names each)")
        K._native.game_step(self._p, self.rows, acts, self._status, 0, self.n)
