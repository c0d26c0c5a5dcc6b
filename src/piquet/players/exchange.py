"""The expert's exchange: every good discard played out in worlds drawn from its beliefs.

The reference values a discard open-handed: it takes in the stock, lets the other exchange
by the book, counts both hands' declarations truthfully and estimates the play with both
hands known (a greedy playout), checking the best three with the exact solver on a few
worlds.  Measured (``docs/strength.md``), that estimate is noisy: two players holding the
same hand in the same role chose different discards in half the deals, though elder's
exchange has nothing to read.

Here each candidate discard is played out to the end of the deal by the compiled kernel
(:func:`piquet.fast.playout`, the book's policy for both sides from the discard on: the
other's exchange, both declarations, sinking as the book sinks, the play of the cards
without seeing the other's hand) in every world, the same worlds for every candidate
(common random numbers), and valued by the points of the deal, this role's minus the
other's.  A play-out costs some tens of microseconds, so a decision affords hundreds of
worlds and dozens of candidates (:func:`wide_candidates`: every discard of the least
useful cards, by the book's judgement, for each number the role may take).  The best few
are then corrected by the exact solver on the first worlds (a control variate: the mean
of exact minus play-out on those worlds is added), as the reference corrects its estimate.

Only for the deal's points (the objective ``DIFF``); near the game's target or on a
partie's last deal the reference's evaluation stands.

**The play valued by the solver** (off by default; the variants ``expert-solx-*``):
:func:`solver_rerank` values the best few discards by the play-outs (and the book's)
again, the dialog still by the book on the kernel's board but the play of the cards by
the double-dummy solver (:func:`all_solver_values`, one compiled call,
:func:`piquet.fast.rollouts.discard_solver_values`; elder's first lead tried card by
card, younger's waiting declarations made after it, then greedy open-handed play down to
``exact_cards`` cards and the exact value from there), in a number of worlds that grows
with the budget (:func:`solver_worlds`).  :func:`solver_playout_value` is the same on
the public engine, one world at a time, the form the compiled call is tested against.
Measured (rubicon, 100 ms, mirrored pairs), it gained nothing: the re-ranking changes a
third of the choices, but judged on held-out worlds by the solver itself it gains
+0.2 to +0.5 points an exchange (``bench/bench_exchange_headroom.py``), and neither it
nor ten times the exchange's budget moved the expert's margin.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Final

import numpy as np

from piquet.analysis.sampling import SamplingError, World, public_actions, world_deck
from piquet.core.actions import Action, Discard, Play
from piquet.core.cards import Card, CardSet
from piquet.core.deal import Deal
from piquet.core.errors import IllegalActionError
from piquet.core.rules import Rules
from piquet.core.view import DealView
from piquet.fast import kernel as K
from piquet.fast import playout
from piquet.fast.engine import actions_of, policy_code, trace_of
from piquet.fast.params import compile_rules
from piquet.fast.policies import new_rng
from piquet.fast.rollouts import discard_rollout_points, discard_rollouts, discard_solver_values
from piquet.fast.solver import Solver, _greedy_card, play_state
from piquet.players.common import book_discard, card_values, discard_candidates

__all__ = [
    "EXTRA_CARDS",
    "MIN_SOLVER_WORLDS",
    "SOLVER_CANDIDATES",
    "SOLVER_NODE_CAP",
    "PlayoutWorld",
    "all_playout_values",
    "all_solver_values",
    "margin_choice",
    "match_playout_values",
    "playout_values",
    "playout_worlds",
    "ranked",
    "solver_playout_value",
    "solver_rerank",
    "solver_worlds",
    "wide_candidates",
]

#: How many cards beyond the number discarded a candidate may draw from (the least useful).
EXTRA_CARDS: Final = 3
#: The best discards by play-outs that the solver values again (with the book's).
SOLVER_CANDIDATES: Final = 4
#: Positions one exact solve of the play may search before it falls back to greedy play.
SOLVER_NODE_CAP: Final = 400_000
#: The fewest worlds in which the solver values the play.
MIN_SOLVER_WORLDS: Final = 16


def wide_candidates(
    hand: int, lo: int, hi: int, rules: Rules, *, role: int, lead: int = 0, limit: int = 24
) -> list[int]:
    """Up to ``limit`` discards (masks), the book's first: the reference's candidates, then
    every set of ``k`` cards among the ``k + EXTRA_CARDS`` least useful, for each ``k``
    from ``hi`` down (at most three numbers), cheapest first by the book's card values."""
    book = book_discard(hand, lo, hi, rules, role=role, lead=lead)
    out = [book]
    seen = {book}
    for m in discard_candidates(hand, lo, hi, rules, role=role, lead=lead, limit=limit):
        if m not in seen:
            seen.add(m)
            out.append(m)
    values = card_values(hand, rules, role=role, lead=lead)
    order = sorted(values, key=lambda c: (values[c], c))
    extra: list[tuple[float, int]] = []
    for k in range(hi, max(lo, hi - 2) - 1, -1):
        if k <= 0:
            continue
        pool = order[: k + EXTRA_CARDS]
        for combo in itertools.combinations(pool, k):
            mask = sum(1 << c for c in combo)
            if mask not in seen:
                seen.add(mask)
                extra.append((sum(values[c] for c in combo), mask))
    extra.sort()
    out.extend(m for _, m in extra)
    return out[: max(1, limit)]


@dataclass(frozen=True, slots=True)
class PlayoutWorld:
    """A drawn world ready for the kernel: its pack, the deal's actions so far, its weight."""

    world: World
    deck: tuple[int, ...]
    history: tuple[Action, ...]

    @property
    def weight(self) -> float:
        return self.world.weight


def playout_worlds(view: DealView, rules: Rules, worlds: list[World]) -> list[PlayoutWorld]:
    """The worlds as packs and histories (those whose replay fails are dropped)."""
    out: list[PlayoutWorld] = []
    for w in worlds:
        deck = world_deck(view, rules, w)
        try:
            history = public_actions(Deal.new(rules, deck), view, w)
        except SamplingError:
            continue
        out.append(PlayoutWorld(w, tuple(deck), tuple(history)))
    return out


def playout_values(
    rules: Rules, role: int, worlds: list[PlayoutWorld], discard: int, seed: int
) -> list[float] | None:
    """This role's points minus the other's in each world after ``discard``, the rest of
    the deal played by the book's policy in the kernel (world ``j`` with seed ``seed + j``);
    None if the discard is not legal in some world.  One discard at a time, through
    :func:`piquet.fast.playout`: the expert calls :func:`all_playout_values`; this is the
    form its test checks that one compiled call against."""
    act = Discard(CardSet(discard))
    out: list[float] = []
    for j, pw in enumerate(worlds):
        try:
            got = playout(rules, pw.deck, (*pw.history, act), policy="book", n=1, seed=seed + j)
        except IllegalActionError:
            return None
        s = got.mean_scores
        out.append(s[role] - s[1 - role])
    return out


def all_playout_values(
    rules: Rules, role: int, worlds: list[PlayoutWorld], discards: list[int], seed: int,
    *, plays: int = 1,
) -> list[list[float] | None]:
    """:func:`playout_values` of every discard in one compiled call
    (:func:`piquet.fast.rollouts.discard_rollouts`; with ``plays=1`` the same values),
    ``plays`` play-outs a world averaged."""
    return discard_rollouts(
        rules, role, [pw.deck for pw in worlds], [pw.history for pw in worlds], discards,
        seed=seed, plays=plays,
    )


def match_playout_values(
    rules: Rules, role: int, worlds: list[PlayoutWorld], discards: list[int], seed: int,
    table: tuple[int, ...],
) -> list[list[float] | None]:
    """As :func:`all_playout_values`, each play-out valued by what its outcome is worth in
    the match (``table``: :func:`piquet.players.matchvalue.deal_table`, elder's side) from
    ``role``'s side instead of by its points."""
    w = math.isqrt(len(table))
    grid = np.asarray(table, dtype=np.float64).reshape(w, w)
    out: list[list[float] | None] = []
    for pts in discard_rollout_points(rules, role, [pw.deck for pw in worlds],
                                      [pw.history for pw in worlds], discards, seed=seed):
        if pts is None:
            out.append(None)
            continue
        mine = np.minimum(pts[:, 0], w - 1)
        theirs = np.minimum(pts[:, 1], w - 1)
        if role == 0:
            vals = grid[mine, theirs]
        else:
            vals = -grid[theirs, mine]
        out.append([float(v) for v in vals])
    return out


def _book_until_card(rules: Rules, deck: tuple[int, ...], rows: list[tuple[int, int]],
                     seed: int) -> list[Action]:
    """The actions of the deal from its start: the choices ``rows``, then the book's up to
    the next card to play (the kernel's policy, stopped there)."""
    fz = np.zeros((max(1, len(rows)), 2), dtype=np.int64)
    for i, (a, b) in enumerate(rows):
        fz[i] = (a, b)
    tr = np.zeros((K.MAX_TRACE, 2), dtype=np.int64)
    ev = np.zeros((K.MAX_EVENTS, 3), dtype=np.int64)
    info = np.zeros(K.I_SIZE, dtype=np.int64)
    ntr, *_ = K.play_deal(compile_rules(rules), np.asarray(deck, dtype=np.int64), 0, 0, 0,
                          policy_code("book"), new_rng(seed), tr, ev, fz, len(rows), True, info)
    if info[K.I_STATUS] == K.BAD_CHOICE:
        raise IllegalActionError("not a legal sequence of choices in this world")
    return actions_of([(int(a), int(b)) for a, b in tr[:ntr]], rules)


def _hybrid_on_engine(deal: Deal, solver: Solver, exact_cards: int, node_cap: int) -> int:
    """Elder's points minus younger's at the end of the deal: greedy open-handed cards on
    the engine while the role to move holds more than ``exact_cards``, then the solver's
    exact value (within ``node_cap`` positions, else greedy to the end)."""
    while not deal.is_over:
        st = play_state(deal)
        mover = st.to_move
        if st.hands[mover].bit_count() <= exact_cards:
            got = solver.value(st, nodes=node_cap)
            if got is not None:
                return st.totals[0] - st.totals[1] + got
            exact_cards = -1
            continue
        lead = -1 if st.lead is None else st.lead
        card = int(_greedy_card(st.hands[mover], st.hands[1 - mover], lead))
        deal = deal.apply(Play(Card.from_index(card)))
    t = deal.tally.totals
    return t[0] - t[1]


def solver_playout_value(
    rules: Rules, role: int, pw: PlayoutWorld, discard: int, seed: int, solver: Solver,
    *, exact_cards: int = 12, node_cap: int = 200_000,
) -> float | None:
    """This role's points minus the other's in one world after ``discard``: the dialog by
    the book, then elder's best first lead (each tried, younger's waiting declarations
    made after it by the book), the play valued by the solver, greedy open-handed play
    down to ``exact_cards`` cards and exact from there; on the public engine, one world at
    a time (the form :func:`all_solver_values`' compiled call is tested against).  None if
    the discard is not legal there."""
    rows = [*_rows_of(list(pw.history)), (K.A_DISCARD, discard)]
    try:
        acts = _book_until_card(rules, pw.deck, rows, seed)
    except IllegalActionError:
        return None
    deal = Deal.new(rules, list(pw.deck))
    for a in acts:
        deal = deal.apply(a)
    if deal.is_over:
        t = deal.tally.totals
        v = t[0] - t[1]
    else:
        best: int | None = None
        for a in deal.legal_actions():
            assert isinstance(a, Play)
            more = _book_until_card(rules, pw.deck, [*_rows_of(acts), (K.A_PLAY, a.card.index)],
                                    seed)
            d = deal
            for b in more[len(acts):]:
                d = d.apply(b)
            got = _hybrid_on_engine(d, solver, exact_cards, node_cap)
            best = got if best is None else max(best, got)
        assert best is not None
        v = best
    return float(v if role == 0 else -v)


def _rows_of(actions: list[Action]) -> list[tuple[int, int]]:
    """The kernel's choice rows of engine actions."""
    return [(int(a), int(b)) for a, b in trace_of(actions)[: len(actions)]]


def all_solver_values(
    rules: Rules, role: int, worlds: list[PlayoutWorld], discards: list[int], seed: int,
    solver: Solver, *, exact_cards: int = 12, node_cap: int = 200_000,
) -> tuple[list[list[float] | None], int]:
    """:func:`solver_playout_value` of every discard in every world in one compiled call
    (:func:`piquet.fast.rollouts.discard_solver_values`; world ``j`` with seed
    ``seed + j``), and how many first leads were solved exactly."""
    return discard_solver_values(
        rules, role, [pw.deck for pw in worlds], [pw.history for pw in worlds], discards,
        solver, seeds=[seed + j for j in range(len(worlds))], exact_cards=exact_cards,
        node_cap=node_cap,
    )


def solver_worlds(think_ms: int, per_ms: float, available: int) -> int:
    """Worlds in which the solver values the best discards' play: ``per_ms`` per
    millisecond of budget, at least :data:`MIN_SOLVER_WORLDS`, at most ``available``."""
    return max(1, min(available, max(MIN_SOLVER_WORLDS, int(per_ms * think_ms))))


def ranked(scores: Mapping[int, float]) -> list[int]:
    """The candidates' indices, best first by ``scores`` (values equal to six decimals: the
    lower index first)."""
    return sorted(scores, key=lambda i: (-round(scores[i], 6), i))


def margin_choice(
    scores: Mapping[int, float], margin: float, *, among: Iterable[int] | None = None
) -> int:
    """The index chosen by ``scores``: the best (as :func:`ranked`; only those in ``among``
    if given), unless the book's discard (index 0) has a score and the best does not beat
    it by ``margin`` points: then the book's."""
    best = max(scores if among is None else among, key=lambda i: (round(scores[i], 6), -i))
    if 0 in scores and scores[best] - scores[0] < margin:
        return 0
    return best


def solver_rerank(
    rules: Rules, role: int, ready: list[PlayoutWorld], cands: list[int],
    scores: dict[int, float], seed: int, solver: Solver, *, candidates: int, worlds: int,
    exact_cards: int, switch_margin: float, stats: list[int] | None = None,
) -> int:
    """The index in ``cands`` of the discard chosen: the best ``candidates`` by the
    play-outs' ``scores`` (and the book's, index 0) valued again with the play of the
    cards by the solver (:func:`all_solver_values`) in the first ``worlds`` worlds; the
    best by that stands if it beats the book's discard by ``switch_margin``.  ``stats``
    (if given) counts: exchanges re-ranked, choices unlike the play-outs', first leads
    solved exactly, world-discards valued."""
    top = ranked(scores)[:candidates]
    if 0 in scores and 0 not in top:
        top.append(0)
    if len(top) == 1:
        return top[0]
    sub = ready[:worlds]
    got, exact = all_solver_values(rules, role, sub, [cands[i] for i in top], seed, solver,
                                   exact_cards=exact_cards, node_cap=SOLVER_NODE_CAP)
    wsum = sum(pw.weight for pw in sub)
    solved: dict[int, float] = {}
    for i, vals in zip(top, got, strict=True):
        if vals is not None:
            solved[i] = sum(pw.weight * v for pw, v in zip(sub, vals, strict=True)) / wsum
    # the play-outs' own choice: their best, unless it is not switch_margin better than
    # the book's discard
    playouts = margin_choice(scores, switch_margin)
    if not solved:
        return playouts
    best = margin_choice(solved, switch_margin)
    if stats is not None:
        stats[0] += 1
        stats[1] += best != playouts
        stats[2] += exact
        stats[3] += len(sub) * len(solved)
    return best
