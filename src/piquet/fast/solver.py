"""A double-dummy solver for the twelve tricks: both hands known, exact minimax.

Once every card's place is known (a real deal, or a world drawn by
:mod:`piquet.analysis.sampling`), the play is a two-player game of perfect information.
:class:`Solver` finds its exact value with alpha-beta search compiled ahead of
time in C (``src/piquet/native/solver.h``), over a private fast board: hands
are 36-bit masks, cards that are
equivalent (next to each other in a suit once the played cards are taken out,
in one hand, and alike for the rule set's scoring) are tried once, and a
transposition table keeps what was learnt.

What is scored is what the rule set scores in the play (:class:`~piquet.core.rules.PlayScoring`):
leads, tricks, the last trick, the cards or capot, and a pique while it is
still open (made in play only, never by the cards or capot; by elder's first
card at the latest where :attr:`~piquet.core.rules.Rules.pique_by_first_card` says so).
``_step`` plays a card with the compiled leaf rules the kernel shares (``rules.h``: the
trick's winner, the play's scoring, the last trick, the cards, the pique), checked against
the engine by a differential test (``tests/test_solver.py``: the solver's value equals a minimax
over the engine's own deals).  The objective (:class:`Objective`) is one of:

- ``DIFF``: the points elder counts from here on minus those younger counts;
- ``RACE``: the game's target is within reach in this deal; reaching it first
  is worth :data:`RACE_BONUS` on top of the difference (the deal stops there);
- ``PARTIE``: the last deal of a Rubicon partie; the value is elder's
  settlement (positive when elder wins the partie; a rubiconed loser's total
  counts for the winner).
- ``TABLE``: any value of the deal's outcome, given as a table of the points each
  counts (:mod:`piquet.players.matchvalue`: what the outcome is worth in the match).

Values are always from elder's side (elder maximizes, younger minimizes);
:meth:`Solver.move_values` gives them from the side of the seat to move.
"""

from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Any, Final

import numpy as np

from piquet.core.deal import ELDER, Deal, Phase
from piquet.core.errors import PiquetError
from piquet.core.roles import Role
from piquet.core.rules import PlayScoring, Rules, Settlement
from piquet.core.scoring import Tally
from piquet.fast import params as _params_mod
from piquet.native import load

__all__ = [
    "RACE_BONUS",
    "Mode",
    "Objective",
    "PlayState",
    "Solver",
    "objective_for",
    "play_state",
]

#: What reaching the game's target first is worth, in points, in ``RACE`` mode.
RACE_BONUS: Final = 200


class Mode(enum.IntEnum):
    DIFF = 0
    RACE = 1
    PARTIE = 2
    TABLE = 3


@dataclass(frozen=True, slots=True, kw_only=True)
class Objective:
    """What the search maximizes for elder.

    ``remaining``: (elder, younger) points still needed for the target (RACE);
    ``before``: partie scores of (elder, younger) before this deal (PARTIE);
    ``table``: the value (elder's side) of the deal ending with elder counting ``x`` and
    younger ``y``, entry ``x * w + y`` of a ``w`` by ``w`` table whose last row and column
    stand for every larger count (TABLE: :func:`piquet.players.matchvalue.deal_table`).
    """

    mode: Mode = Mode.DIFF
    remaining: tuple[int, int] = (0, 0)
    before: tuple[int, int] = (0, 0)
    settlement: Settlement = Settlement.PARLETT
    table: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.mode is Mode.TABLE:
            w = math.isqrt(len(self.table))
            if w < 1 or w * w != len(self.table) or w > 511:
                raise PiquetError(f"a TABLE objective needs a square table of 1 to 511 squared "
                                  f"values, not {len(self.table)}")
            if max(abs(v) for v in self.table) >= 1 << 19:
                raise PiquetError("a TABLE objective's values must stay under 2**19 in size")


DIFF: Final = Objective()


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayState:
    """A position of the play with both hands known (the solver's input).

    ``hands`` are (elder, younger) masks; ``lead`` is the card led to the
    unfinished trick (or None); ``totals`` the points each has counted in the
    deal so far; ``open`` whether a pique can still be won.
    """

    hands: tuple[int, int]
    leader: int
    lead: int | None
    won: tuple[int, int]
    totals: tuple[int, int] = (0, 0)
    open: bool = False

    @property
    def to_move(self) -> int:
        return self.leader if self.lead is None else 1 - self.leader

    @property
    def tricks_played(self) -> int:
        return self.won[0] + self.won[1]


def _to_act(deal: Deal) -> Role:
    seat = deal.to_act
    if seat is None:
        raise PiquetError("the deal is over: nobody is to play")
    return seat


def play_state(deal: Deal) -> PlayState:
    """The solver's position for a deal in its play phase (every card's place known).

    Raises :class:`PiquetError` if the deal is not being played.
    """
    if deal.phase is not Phase.PLAY:
        raise PiquetError(f"the solver needs a deal in play, not in phase {deal.phase.value}")
    tally: Tally = deal.tally
    return PlayState(
        hands=deal.hands,
        leader=deal.leader if deal.trick_lead is not None else _to_act(deal),
        lead=deal.trick_lead,
        won=deal.won,
        totals=tally.totals,
        open=tally.open,
    )


def objective_for(
    rules: Rules,
    *,
    start: tuple[int, int] = (0, 0),
    target: int | None = None,
    partie_last: bool = False,
    reach: int = 60,
) -> Objective:
    """The objective for a deal: RACE if ``target`` is within ``reach`` points of either
    role's ``start`` score, PARTIE on the last deal of a partie, else DIFF."""
    if target is not None and min(target - start[0], target - start[1]) <= reach:
        return Objective(mode=Mode.RACE, remaining=(target - start[0], target - start[1]))
    if partie_last:
        return Objective(mode=Mode.PARTIE, before=start, settlement=rules.settlement)
    return DIFF


# ------------------------------------------------------------------ the kernel
# compiled in src/piquet/native/solver.h; the Python names below are thin wrappers
_native = load()
_TT_BITS: Final = 20
_FIELDS: Final = int(_native.LAYOUT["F_FIELDS"])
_DEPTH: Final = int(_native.LAYOUT["S_DEPTH"])

_Pos = tuple[int, int, int, int, int, int, int, int, int]


def _step(h0: int, h1: int, leader: int, lead: int, won0: int, ntr: int, acc0: int, acc1: int,
          opn: int, card: int, P: Any) -> tuple[int, int, int, int, int, int, int, int, int, int]:
    """Play ``card`` for the seat to move; the new position and the deal's end flag."""
    out: tuple[int, int, int, int, int, int, int, int, int, int] = _native.s_step(
        h0, h1, leader, lead, won0, ntr, acc0, acc1, opn, card, P)
    return out


def _terminal(acc0: int, acc1: int, ended: int, P: Any) -> int:
    """The objective's value at the end of the deal (or where the target was reached)."""
    return int(_native.s_terminal(acc0, acc1, ended, P))


def _mtdf(h0: int, h1: int, leader: int, lead: int, won0: int, ntr: int, acc0: int, acc1: int,
          opn: int, guess: int, P: Any, tt: Any, buf: Any, stats: Any, S: Any) -> int:
    """Exact value by a series of null-window searches converging from ``guess``."""
    return int(_native.s_mtdf(h0, h1, leader, lead, won0, ntr, acc0, acc1, opn, guess, P, tt,
                              buf, stats, S))


def _greedy_card(hand: int, opp: int, lead: int) -> int:
    """The card a simple open-handed player chooses (masters, cheap wins, low throws)."""
    return int(_native.greedy_card(hand, opp, lead))


def _greedy(h0: int, h1: int, leader: int, lead: int, won0: int, ntr: int, acc0: int,
            acc1: int, opn: int, P: Any) -> int:
    """Value (same units as the search) of a greedy open-handed playout."""
    return int(_native.s_greedy(h0, h1, leader, lead, won0, ntr, acc0, acc1, opn, P))


# ------------------------------------------------------------------ the Python face
def _params(rules: Rules, objective: Objective) -> Any:
    """The one parameter vector of ``rules`` (:func:`piquet.fast.params.compile_rules`)
    with the objective's slots set."""
    p = _params_mod.with_objective(
        rules,
        MODE=int(objective.mode),
        REM0=objective.remaining[0],
        REM1=objective.remaining[1],
        BASE0=objective.before[0],
        BASE1=objective.before[1],
        SETTLE_CLASSIC=0 if objective.settlement is Settlement.PARLETT else 1,
        RACE_BONUS=RACE_BONUS,
        TABLE_W=math.isqrt(len(objective.table)),
    )
    if objective.mode is Mode.TABLE:  # the table after the slots (solver.h: s_terminal)
        p = np.concatenate([p, np.asarray(objective.table, dtype=np.int64)])
    return p


class Solver:
    """Exact double-dummy values of play positions under one rule set and objective.

    Keeps a transposition table of ``2**tt_bits`` entries between calls (valid for
    the rule set and objective it was made for; :meth:`reset` clears it).
    """

    def __init__(
        self, rules: Rules, objective: Objective = DIFF, *, tt_bits: int = _TT_BITS
    ) -> None:
        self.rules = rules
        self.objective = objective
        self._p = _params(rules, objective)
        size = 1 << tt_bits
        self._tt = np.full((size, 3), -1, np.int64)
        self._buf = np.zeros((52, 12), np.int64)
        self._stack = np.zeros((_DEPTH, _FIELDS), np.int64)
        self._stats = np.zeros(3, np.int64)
        self._cards = np.zeros(12, np.int64)
        self._vals = np.zeros(12, np.int64)
        self._guess = 0

    @property
    def nodes(self) -> int:
        """Positions searched since the solver was made."""
        return int(self._stats[0])

    def reset(self, objective: Objective | None = None) -> None:
        """Clear the table; switch objective if one is given."""
        if objective is not None and objective != self.objective:
            self.objective = objective
            self._p = _params(self.rules, objective)
        self._tt.fill(-1)

    def _args(self, s: PlayState) -> tuple[int, int, int, int, int, int, int, int, int]:
        _check_state(s)
        return (
            int(s.hands[0]),
            int(s.hands[1]),
            int(s.leader),
            -1 if s.lead is None else int(s.lead),
            int(s.won[0]),
            int(s.won[0] + s.won[1]),
            int(s.totals[0]),
            int(s.totals[1]),
            1 if s.open else 0,
        )

    def _limit(self, nodes: int | None) -> None:
        self._stats[2] = 0
        self._stats[1] = 0 if nodes is None else self._stats[0] + max(1, nodes)

    @property
    def aborted(self) -> bool:
        """The last search ran out of its positions (its result is not to be used)."""
        return bool(self._stats[2])

    def root_values(self, state: PlayState, *, nodes: int | None = None) -> dict[int, int]:
        """Exact value (elder's side) of each card the seat to move may play.

        Equivalent cards share their value.  DIFF values count from this
        position on; RACE and PARTIE values are the objective's.  With
        ``nodes``, the search gives up after that many positions and returns
        ``{}`` (:attr:`aborted` is then true).
        """
        if not state.hands[state.to_move]:
            return {}
        self._limit(nodes)
        n = _native.s_root(
            *self._args(state),
            self._guess,
            self._p,
            self._tt,
            self._buf,
            self._stats,
            self._stack,
            self._cards,
            self._vals,
        )
        if self._stats[2]:
            return {}
        rep = {int(self._cards[i]): int(self._vals[i]) for i in range(n)}
        self._guess = max(rep.values()) if state.to_move == ELDER else min(rep.values())
        return _spread(state, rep, self.rules)

    def estimate_moves(self, state: PlayState) -> dict[int, int]:
        """Like :meth:`move_values` (the mover's side), each card followed by a greedy playout."""
        if not state.hands[state.to_move]:
            return {}
        n = _native.s_root_estimate(*self._args(state), self._p, self._buf, self._cards,
                                       self._vals)
        rep = {int(self._cards[i]): int(self._vals[i]) for i in range(n)}
        vals = _spread(state, rep, self.rules)
        if state.to_move == ELDER:
            return vals
        return {c: -v for c, v in vals.items()}

    def estimate(self, state: PlayState) -> int:
        """A fast estimate of :meth:`value`: both sides play a simple open-handed policy."""
        if not state.hands[state.to_move]:
            return 0
        return int(_greedy(*self._args(state), self._p))

    def move_values(self, state: PlayState, *, nodes: int | None = None) -> dict[int, int]:
        """:meth:`root_values` from the side of the seat to move (it maximizes these)."""
        vals = self.root_values(state, nodes=nodes)
        if state.to_move == ELDER:
            return vals
        return {c: -v for c, v in vals.items()}

    def value(
        self, state: PlayState, *, guess: int | None = None, nodes: int | None = None
    ) -> int | None:
        """The exact value (elder's side) of the position; None if ``nodes`` ran out."""
        if not state.hands[state.to_move]:
            return 0
        self._limit(nodes)
        v = int(
            _mtdf(
                *self._args(state),
                self._guess if guess is None else guess,
                self._p,
                self._tt,
                self._buf,
                self._stats,
                self._stack,
            )
        )
        return None if self._stats[2] else v


def _check_state(s: PlayState) -> None:
    """Raise :class:`PiquetError` unless the position is one the kernel can search."""
    a, b = s.hands
    if a & b:
        raise PiquetError("the two hands share a card")
    n_mover = s.hands[s.to_move].bit_count()
    n_other = s.hands[1 - s.to_move].bit_count()
    left = 12 - s.tricks_played
    expected_other = left - 1 if s.lead is not None else left
    if not (n_mover == left and n_other == expected_other) or s.won[0] < 0 or s.won[1] < 0:
        raise PiquetError(
            f"not a position of the play: {n_mover} and {n_other} cards with "
            f"{s.tricks_played} tricks played"
        )
    if s.lead is not None and (a | b) >> s.lead & 1:
        raise PiquetError("the card led is still in a hand")


def _spread(state: PlayState, rep: dict[int, int], rules: Rules) -> dict[int, int]:
    """Give every playable card the value of its representative (the class's highest)."""
    mover = state.to_move
    hand = state.hands[mover]
    opp = state.hands[1 - mover]
    avail = hand
    sep = opp
    if state.lead is not None:
        sm = 0x1FF << (9 * (state.lead // 9))
        if hand & sm:
            avail = hand & sm
        sep = opp | (1 << state.lead)
    # every card scores alike (rules.h's cards_alike): tenth cards merge with the others
    merge_all = (rules.play_scoring is PlayScoring.LEADS_AND_WINS
                 and rules.last_trick_bonus == rules.last_trick_tenth_bonus)
    out: dict[int, int] = {}
    for s in range(4):
        current: int | None = None
        prev_t = -1
        for r in range(8, -1, -1):
            c = 9 * s + r
            if avail >> c & 1:
                t = 1 if r >= 4 else 0
                if current is None or not (merge_all or t == prev_t):
                    current = c
                    prev_t = t
                out[c] = rep[current]
            elif sep >> c & 1:
                current = None
    return out
