"""The discard advisor: every legal discard ranked by its value, the best explained.

How a discard is valued (``piquet advise``, :func:`advise`):

1. **The declarations, exactly.**  :func:`~piquet.drawtables.declaration_pass`
   goes over every legal discard and every draw from the cards the player has
   not seen (elder under a 32-card rule set: 1,585 discards, 14,941,023 final
   hands).  Each final hand's point, sequences and sets are weighed against a
   sample of the other's holdings (his twelve dealt from the unseen cards and
   his own exchange by :func:`book_discard`): the chance each class is good,
   what he counts when his is better, and the repique.  A rough count of
   tricks is added, so that every discard gets an estimate.
2. **The play, by simulation.**  The most promising discards (the best by that
   estimate, the best of each size, the best for the declarations and for the
   play, and the book's discard) are played out in ``samples`` deals drawn
   from the unseen cards, the same deals for every discard: the other
   exchanges by :func:`book_discard`, both declare all they hold, both play
   the cards with a :class:`PlayModel` (by default :class:`HeuristicPlay`, a
   sound card-play policy that sees only its own cards and what has gone),
   and the deal is counted exactly as the engine counts it, pique, repique,
   the cards and capot included.  The value is the mean of (my points − his
   points) in the deal.  The ``refine`` leaders are then played in twice as
   many further deals and put back on the common scale.
3. **The game**, with ``score``: the value becomes the chance of winning the
   game.  The deal is counted from the score, stopping where a player reaches
   the target in counting order; when nobody does, the game is played on
   with deals drawn from a pool of simulated deals, alternating the deal.

Discards that were not simulated keep the estimate of step 1, mapped onto the
simulated scale and never above a simulated one; every ranking entry says
which (``method``: ``simulated`` or ``estimated``).

The play model is a seam: any object with ``play(hands, known_out, rules)``
returning the 24 cards in order will do.  :class:`SolverPlay` plays each card
by the double-dummy values of :mod:`piquet.solver` (open hands: stronger and
far slower); pass it as ``play_model=``, or ``--play solver`` on the command
line.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final, Protocol

import numpy as np

from piquet.cards import DECK32, DECK36, CardSet, mask_cards
from piquet.declarations import COURTS, SUIT_RUNS, DeclClass, best_claim, statement
from piquet.drawtables import (
    DEFAULT_BUDGET,
    OpponentModel,
    PassResult,
    declaration_pass,
    discard_masks,
    hand_stats,
    suit_tables,
)
from piquet.errors import PiquetError
from piquet.odds import Improvements, improvements, role_draw_range
from piquet.rules import PlayScoring, Rules, get_rules
from piquet.scoring import Kind, Tally

__all__ = [
    "DEFAULT_CANDIDATES",
    "DEFAULT_SAMPLES",
    "Advice",
    "DealOutcome",
    "HeuristicPlay",
    "PlayModel",
    "Ranked",
    "SimStats",
    "SolverPlay",
    "advise",
    "book_discard",
    "compare",
    "hint",
    "play_deal",
]

ELDER: Final = 0
YOUNGER: Final = 1
_ROLES: Final = ("elder", "younger")
#: deals simulated for each discard played out
DEFAULT_SAMPLES: Final = 160
#: discards played out (besides the best of each size and the book's)
DEFAULT_CANDIDATES: Final = 10
#: the other's hands sampled for the declaration pass
OPPONENT_SAMPLES: Final = 300
#: deals in the pool that plays a game on after this deal (``score``)
FUTURE_POOL: Final = 400

_HIGH: Final = tuple(m.bit_length() - 1 for m in range(512))
_LOW: Final = tuple((m & -m).bit_length() - 1 for m in range(512))
_POP: Final = tuple(m.bit_count() for m in range(512))


def _deck(rules: Rules) -> int:
    return DECK36 if rules.deck_size == 36 else DECK32


def _bits(cards: Sequence[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def _tenth(card: int) -> bool:
    return card % 9 >= 4


# ====================================================================== the book's discard
_BASE: Final = (0.05, 0.1, 0.2, 0.3, 0.7, 1.0, 1.6, 3.0, 5.0)  # by rank bit, six to ace
_KEEP: Final = 5.0


def keep_scores(hand: int, rules: Rules) -> dict[int, float]:
    """How much each card of ``hand`` is worth keeping (higher: keep), by rules of thumb.

    An ace, a guarded king, the cards of the point suit, of a sequence or of
    a set, and length in a long suit are worth keeping; small cards of short
    suits are not.
    """
    tables = suit_tables(rules)
    suits = [hand >> (9 * s) & 0x1FF for s in range(4)]
    point_suit = max(range(4), key=lambda s: tables.point_code[suits[s]])
    rank_count = [sum(m >> b & 1 for m in suits) for b in range(9)]
    min_bit = int(rules.set_min_rank) - 6
    out: dict[int, float] = {}
    for s, m in enumerate(suits):
        if not m:
            continue
        n = _POP[m]
        run_of = [0] * 9
        for top_bit, length in SUIT_RUNS[m]:
            for b in range(top_bit - length + 1, top_bit + 1):
                run_of[b] = length
        for b in range(9):
            if not m >> b & 1:
                continue
            v = _BASE[b]
            if b == 7 and n >= 2:
                v += 1.0
            if b == 6 and n >= 3:
                v += 0.6
            if s == point_suit:
                v += 2.0
            if n >= 5:
                v += 0.8
            if run_of[b] >= 3:
                v += 2.0 + 0.8 * run_of[b]
            elif run_of[b] == 2:
                v += 0.5
            if b >= min_bit and rank_count[b] >= 3:
                v += 8.0 if rank_count[b] == 4 else 4.0
            out[9 * s + b] = v
    return out


def book_discard(hand: int, rules: Rules, lo: int, hi: int) -> int:
    """A sound discard by rules of thumb: the ``hi`` least useful cards, fewer if they are good.

    This is how the simulated opponent exchanges (fast, and blind to the
    draw).  Returns the discard as a mask of ``lo`` to ``hi`` cards.
    """
    scores = keep_scores(hand, rules)
    order = sorted(scores, key=lambda c: (scores[c], c))
    n = min(hi, len(order))
    while n > lo and scores[order[n - 1]] >= _KEEP:
        n -= 1
    return _bits(order[:n])


# ====================================================================== the play
class PlayModel(Protocol):
    """Plays the twelve tricks of a deal whose hands are fixed.

    ``hands`` are the (elder, younger) hands after the exchange; ``known_out``
    the cards each role knows are out of the play (his own discards).  Returns
    the 24 cards in the order played, two per trick (lead, then follow);
    elder leads the first trick and the winner of each trick the next.
    """

    name: str

    def play(
        self, hands: tuple[int, int], known_out: tuple[int, int], rules: Rules
    ) -> Sequence[int]: ...


def _choose_lead(hand: int, unknown: int) -> int:
    best = -1
    best_key: tuple[int, int, int, int] = (-1, 0, 0, 0)
    for s in range(4):
        h = hand >> (9 * s) & 0x1FF
        if not h:
            continue
        u = unknown >> (9 * s) & 0x1FF
        top_u = _HIGH[u]
        n, nu = _POP[h], _POP[u]
        top = _HIGH[h]
        masters = _POP[h >> (top_u + 1)]
        if masters:
            # cash a master card, first where his possible length is exhausted
            key = (3 if masters >= nu else 2, masters, n, 0)
            card = 9 * s + top
        else:
            above = _POP[u >> (top + 1)]
            below = h & ~(1 << top)
            if above == 1 and below and _HIGH[below] == top - 1:
                key = (1, n, top, 0)  # force out his master from a sequence
                card = 9 * s + top
            else:
                exposes = 1 if (above >= 1 and n <= above + 1 and top >= 4) else 0
                key = (0, 1 - exposes, n, -_LOW[h])
                card = 9 * s + _LOW[h]
        if key > best_key:
            best_key, best = key, card
    return best


def _choose_follow(hand: int, lead: int, unknown: int) -> int:
    s = lead // 9
    lb = lead % 9
    h = hand >> (9 * s) & 0x1FF
    if h:
        above = h >> (lb + 1)
        if above:
            return 9 * s + lb + 1 + _LOW[above]  # win as cheaply as possible
        return 9 * s + _LOW[h]
    best = -1
    best_v = 1e9
    for s2 in range(4):
        h2 = hand >> (9 * s2) & 0x1FF
        if not h2:
            continue
        u = unknown >> (9 * s2) & 0x1FF
        low, top, n = _LOW[h2], _HIGH[h2], _POP[h2]
        top_u = _HIGH[u]
        all_good = low > top_u
        above = _POP[u >> (top + 1)]
        guard = (not all_good) and above >= 1 and n <= above + 1 and top >= 4
        value = float(low)
        if all_good:
            value += 20.0
        if guard:
            value += 8.0
        if n >= 4 and _POP[h2 >> (top_u + 1)]:
            value += 3.0  # a long suit with a master: its small cards will make
        if value < best_v:
            best_v, best = value, 9 * s2 + low
    return best


class HeuristicPlay:
    """A sound card-play policy that sees only its own cards and what has gone.

    Leading: cash a master card (first in a suit where the other can hold no
    more than one's masters), else force out his master from a sequence
    (lead the king from K Q), else lead the lowest card of the longest suit
    that does not unguard an honour.  Following: win as cheaply as possible,
    else play the lowest card of the suit; when void, throw the lowest card
    that is neither a winner, nor the guard of an honour, nor the length of a
    long suit with a master.
    """

    name = "heuristic"

    def play(self, hands: tuple[int, int], known_out: tuple[int, int], rules: Rules) -> list[int]:
        deck = _deck(rules)
        h = [hands[0], hands[1]]
        gone = 0
        seq: list[int] = []
        leader = ELDER
        for _ in range(min(h[0].bit_count(), h[1].bit_count())):
            f = 1 - leader
            lead = _choose_lead(h[leader], deck & ~h[leader] & ~known_out[leader] & ~gone)
            h[leader] &= ~(1 << lead)
            gone |= 1 << lead
            follow = _choose_follow(h[f], lead, deck & ~h[f] & ~known_out[f] & ~gone)
            h[f] &= ~(1 << follow)
            gone |= 1 << follow
            seq += (lead, follow)
            if follow // 9 == lead // 9 and follow > lead:
                leader = f
        return seq


class SolverPlay:
    """Plays every card by the exact double-dummy values of :mod:`piquet.solver`.

    Both hands are open to the solver, so this is the strongest play and the
    slowest (use few samples).  Raises :class:`PiquetError` if the solver
    cannot be imported.
    """

    name = "solver"

    def __init__(self, rules: Rules) -> None:
        try:
            from piquet import solver
        except ImportError as exc:  # pragma: no cover - depends on the installation
            raise PiquetError(f"the double-dummy solver is not available: {exc}") from None
        self._solver_mod: Any = solver
        self._solver: Any = solver.Solver(rules)

    def play(self, hands: tuple[int, int], known_out: tuple[int, int], rules: Rules) -> list[int]:
        del known_out, rules
        mod = self._solver_mod
        h = [hands[0], hands[1]]
        won = [0, 0]
        leader = ELDER
        seq: list[int] = []
        lead: int | None = None
        while h[0] or h[1]:
            state = mod.PlayState(
                hands=(h[0], h[1]), leader=leader, lead=lead, won=(won[0], won[1])
            )
            values: dict[int, int] = self._solver.move_values(state)
            card = max(values, key=lambda c: (values[c], -c))
            mover = state.to_move
            h[mover] &= ~(1 << card)
            seq.append(card)
            if lead is None:
                lead = card
                continue
            winner = mover if (card // 9 == lead // 9 and card > lead) else leader
            won[winner] += 1
            leader, lead = winner, None
        return seq


# ====================================================================== counting a deal
@dataclass(frozen=True, slots=True)
class DealOutcome:
    """A deal counted in counting order: totals of (elder, younger), tricks, the timeline."""

    totals: tuple[int, int]
    tricks: tuple[int, int]
    events: tuple[tuple[int, int], ...]
    """(role, points) in counting order, pique and repique included."""
    declarations: tuple[int, int]
    """Points each counted for carte blanche and declarations (repique included)."""
    reached: int | None
    cards: tuple[int, ...]


def play_deal(
    final: tuple[int, int],
    dealt: tuple[int, int],
    known_out: tuple[int, int],
    rules: Rules,
    *,
    play_model: PlayModel,
    start: tuple[int, int] = (0, 0),
    target: int | None = None,
) -> DealOutcome:
    """Count a deal whose hands after the exchange are ``final`` (elder, younger).

    Both declare everything they hold (carte blanche from the ``dealt``
    hands); the cards are played by ``play_model``; everything is counted as
    :class:`~piquet.deal.Deal` counts it (the scoring :class:`~piquet.scoring.Tally`),
    stopping when a player reaches ``target`` from ``start``.
    """
    tally = Tally()

    def add(seat: int, kind: Kind, pts: int) -> None:
        nonlocal tally
        tally = tally.add(seat, kind, pts, "", rules, start, target)

    blanche = [dealt[r] & COURTS == 0 for r in (ELDER, YOUNGER)]
    if not (blanche[0] and blanche[1]) or rules.both_blanche_score:
        for r in (ELDER, YOUNGER):
            if blanche[r]:
                add(r, Kind.BLANCHE, rules.blanche_value)
    tables = suit_tables(rules)
    e, y = hand_stats(final[0], tables), hand_stats(final[1], tables)
    for ke, ky, ve, vy, kind in (
        (e.point_code >> 4, y.point_code >> 4, e.point_value, y.point_value, Kind.POINT),
        (e.seq_code, y.seq_code, e.seq_sum, y.seq_sum, Kind.SEQUENCES),
        (e.set_code, y.set_code, e.set_sum, y.set_sum, Kind.SETS),
    ):
        if ke > ky:
            add(ELDER, kind, ve)
        elif ky > ke:
            add(YOUNGER, kind, vy)
    decl = tally.totals
    cards: tuple[int, ...] = ()
    won = [0, 0]
    if tally.reached is None:
        cards = tuple(play_model.play(final, known_out, rules))
        scoring = rules.play_scoring
        leader = ELDER
        n_tricks = len(cards) // 2
        for t in range(n_tricks):
            if tally.reached is not None:
                break
            lead, follow = cards[2 * t], cards[2 * t + 1]
            f = 1 - leader
            if scoring is PlayScoring.LEADS_AND_WINS or (
                scoring is PlayScoring.TENTH_CARDS and _tenth(lead)
            ):
                add(leader, Kind.LEAD, 1)
            winner = f if (follow // 9 == lead // 9 and follow > lead) else leader
            if scoring is PlayScoring.LEADS_AND_WINS:
                if winner == f:
                    add(f, Kind.TRICK, 1)
            elif scoring is PlayScoring.TENTH_CARDS:
                if winner == f and _tenth(follow):
                    add(f, Kind.TRICK, 1)
            else:
                n = _tenth(lead) + _tenth(follow)
                if n:
                    add(winner, Kind.TRICK, n)
            won[winner] += 1
            if t == n_tricks - 1:
                win_card = follow if winner == f else lead
                add(
                    winner,
                    Kind.LAST_TRICK,
                    rules.last_trick_tenth_bonus if _tenth(win_card) else rules.last_trick_bonus,
                )
                if won[winner] == n_tricks:
                    add(winner, Kind.CAPOT, rules.capot_bonus)
                elif won[winner] != won[1 - winner]:
                    most = winner if won[winner] > won[1 - winner] else 1 - winner
                    add(most, Kind.CARDS, rules.cards_bonus)
            leader = winner
    return DealOutcome(
        tally.totals,
        (won[0], won[1]),
        tuple((ev.seat, ev.points) for ev in tally.events),
        decl,
        tally.reached,
        cards,
    )


# ====================================================================== sampled deals
@dataclass(frozen=True, slots=True)
class _World:
    """One placing of the unseen cards: the other's twelve dealt, the stock in order."""

    opp_dealt: int
    stock: tuple[int, ...]


def _worlds(unseen: Sequence[int], rules: Rules, n: int, rng: random.Random) -> list[_World]:
    out = []
    cards = list(unseen)
    for _ in range(n):
        perm = rng.sample(cards, len(cards))
        out.append(_World(_bits(perm[:12]), tuple(perm[12 : 12 + rules.stock_size])))
    return out


@dataclass(slots=True)
class SimStats:
    """What the simulated deals of one discard gave."""

    discard: int
    n: int = 0
    net: float = 0.0
    net_sq: float = 0.0
    wins: float = 0.0
    cards_mine: int = 0
    cards_divided: int = 0
    capot_mine: int = 0
    capot_his: int = 0
    decl_net: float = 0.0
    played: int = 0
    """Deals whose cards were played (not ended by the target before the play)."""

    @property
    def mean(self) -> float:
        return self.net / self.n if self.n else 0.0

    @property
    def stderr(self) -> float:
        if self.n < 2:
            return 0.0
        var = max(self.net_sq / self.n - self.mean**2, 0.0)
        return math.sqrt(var / (self.n - 1))

    @property
    def win_rate(self) -> float:
        return self.wins / self.n if self.n else 0.0

    @property
    def win_stderr(self) -> float:
        p = self.win_rate
        return math.sqrt(max(p * (1 - p), 0.0) / max(self.n - 1, 1))

    def share(self, count: int) -> float:
        """``count`` as a share of the deals whose cards were played."""
        return count / self.played if self.played else 0.0

    def merged(self, other: SimStats) -> SimStats:
        """These deals and ``other``'s together (same discard)."""
        return SimStats(
            self.discard,
            self.n + other.n,
            self.net + other.net,
            self.net_sq + other.net_sq,
            self.wins + other.wins,
            self.cards_mine + other.cards_mine,
            self.cards_divided + other.cards_divided,
            self.capot_mine + other.capot_mine,
            self.capot_his + other.capot_his,
            self.decl_net + other.decl_net,
            self.played + other.played,
        )


class _Simulator:
    """Plays out discards of one hand over a fixed list of worlds (common random numbers)."""

    def __init__(
        self,
        hand: int,
        rules: Rules,
        role: int,
        worlds: list[_World],
        *,
        play_model: PlayModel,
        elder_takes: int,
        score: tuple[int, int] | None,
        rng: random.Random,
    ) -> None:
        self.hand = hand
        self.rules = rules
        self.role = role
        self.worlds = worlds
        self.play_model = play_model
        self.elder_takes = elder_takes
        self.score = score
        self.rng = rng
        self._opp_cache: dict[tuple[int, int], tuple[int, int]] = {}
        self._pool: list[tuple[tuple[int, int], ...]] | None = None

    def _opponent(self, w: int, k: int) -> tuple[int, int]:
        """(his discard, his hand after the exchange) in world ``w`` when I lay out ``k``."""
        key = (w, k if self.role == ELDER else -1)
        found = self._opp_cache.get(key)
        if found is not None:
            return found
        world = self.worlds[w]
        r = self.rules
        if self.role == ELDER:
            avail = len(world.stock) - k
            hi = min(avail, r.younger_max) if r.younger_max else avail
            lo = min(r.younger_min, hi)
            disc = book_discard(world.opp_dealt, r, lo, hi)
            n = disc.bit_count()
            hand = (world.opp_dealt & ~disc) | _bits(world.stock[k : k + n])
        else:
            n_e = self.elder_takes
            disc = book_discard(world.opp_dealt, r, n_e, n_e)
            hand = (world.opp_dealt & ~disc) | _bits(world.stock[:n_e])
        self._opp_cache[key] = (disc, hand)
        return disc, hand

    def run(self, discard: int) -> SimStats:
        stats = SimStats(discard)
        me, opp = self.role, 1 - self.role
        k = discard.bit_count()
        kept = self.hand & ~discard
        r = self.rules
        start: tuple[int, int] = (0, 0)
        target = None
        if self.score is not None:
            s = [0, 0]
            s[me], s[opp] = self.score
            start = (s[0], s[1])
            target = r.target
        for w, world in enumerate(self.worlds):
            his_disc, his_hand = self._opponent(w, k)
            if me == ELDER:
                mine = kept | _bits(world.stock[:k])
            else:
                mine = kept | _bits(world.stock[self.elder_takes : self.elder_takes + k])
            final = (mine, his_hand) if me == ELDER else (his_hand, mine)
            dealt = (self.hand, world.opp_dealt) if me == ELDER else (world.opp_dealt, self.hand)
            out = (discard, his_disc) if me == ELDER else (his_disc, discard)
            res = play_deal(
                final, dealt, out, r, play_model=self.play_model, start=start, target=target
            )
            net = res.totals[me] - res.totals[opp]
            stats.n += 1
            stats.net += net
            stats.net_sq += net * net
            stats.decl_net += res.declarations[me] - res.declarations[opp]
            tm, th = res.tricks[me], res.tricks[opp]
            if res.reached is None and tm + th:
                stats.played += 1
                stats.cards_mine += tm > th
                stats.cards_divided += tm == th
                stats.capot_mine += th == 0
                stats.capot_his += tm == 0
            if self.score is not None:
                stats.wins += self._game_chance(res, start, me)
        return stats

    def _game_chance(self, res: DealOutcome, start: tuple[int, int], me: int) -> float:
        if res.reached is not None:
            return 1.0 if res.reached == me else 0.0
        target = self.rules.target
        a = start[me] + res.totals[me]
        b = start[1 - me] + res.totals[1 - me]
        if not self.rules.game_ends_mid_deal and max(a, b) >= target and a != b:
            return 1.0 if a > b else 0.0
        if self._pool is None:
            self._pool = _future_pool(self.rules)
        races = 2
        pool, rules, rng = self._pool, self.rules, self.rng
        return sum(_race(a, b, 1 - me, pool, rules, rng) for _ in range(races)) / races


@lru_cache(maxsize=8)
def _future_pool(rules: Rules) -> list[tuple[tuple[int, int], ...]]:
    """Timelines of deals between two sound players (book exchange, heuristic play)."""
    rng = random.Random(f"piquet-future-{rules.name}")
    pack = mask_cards(_deck(rules))
    play = HeuristicPlay()
    out = []
    for _ in range(FUTURE_POOL):
        perm = rng.sample(pack, len(pack))
        elder, younger, stock = _bits(perm[:12]), _bits(perm[12:24]), perm[24:]
        de = book_discard(elder, rules, rules.elder_min, rules.elder_max)
        ke = de.bit_count()
        avail = len(stock) - ke
        hi = min(avail, rules.younger_max) if rules.younger_max else avail
        dy = book_discard(younger, rules, min(rules.younger_min, hi), hi)
        ky = dy.bit_count()
        final = ((elder & ~de) | _bits(stock[:ke]), (younger & ~dy) | _bits(stock[ke : ke + ky]))
        res = play_deal(final, (elder, younger), (de, dy), rules, play_model=play)
        out.append(res.events)
    return out


def _race(
    a: int,
    b: int,
    my_role: int,
    pool: list[tuple[tuple[int, int], ...]],
    rules: Rules,
    rng: random.Random,
    max_deals: int = 60,
) -> float:
    """Play the game on from ``a`` (mine) and ``b`` (his): 1 if I reach the target first."""
    target = rules.target
    role = my_role
    for _ in range(max_deals):
        events = pool[rng.randrange(len(pool))]
        for seat, pts in events:
            if seat == role:
                a += pts
                if rules.game_ends_mid_deal and a >= target:
                    return 1.0
            else:
                b += pts
                if rules.game_ends_mid_deal and b >= target:
                    return 0.0
        if max(a, b) >= target and a != b:
            return 1.0 if a > b else 0.0
        role = 1 - role
    return 0.5 if a == b else float(a > b)


# ====================================================================== the advice
@dataclass(frozen=True, slots=True)
class Ranked:
    """One discard and its value (net points per deal, or the chance of the game)."""

    discard: CardSet
    value: float
    method: str
    """``simulated`` (played out) or ``estimated`` (the declaration pass's estimate)."""
    stderr: float | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "discard": [str(c) for c in self.discard],
            "value": round(self.value, 4),
            "method": self.method,
        }
        if self.stderr is not None:
            out["stderr"] = round(self.stderr, 4)
        return out


@dataclass(frozen=True, slots=True)
class Explanation:
    """Why one discard is good, in words."""

    discard: CardSet
    keeps: str
    chances: str
    play: str
    value: str
    improvements: Improvements | None = None
    named: tuple[str, ...] = ()
    """The names of the ``improvements`` events that ``chances`` gives, in its order."""
    deals: int = 0
    """The simulated deals behind ``play`` and ``value`` (0: not played out)."""

    def lines(self) -> list[str]:
        return [f"keeps {self.keeps}", self.chances, self.play, self.value]

    def to_json(self) -> dict[str, Any]:
        return {
            "discard": [str(c) for c in self.discard],
            "keeps": self.keeps,
            "chances": self.chances,
            "play": self.play,
            "value": self.value,
        }


@dataclass(frozen=True, slots=True)
class Advice:
    """Every legal discard ranked, best first, with the method and the best explained."""

    rules: str
    role: int
    hand: CardSet
    score: tuple[int, int] | None
    ranking: tuple[Ranked, ...]
    explanations: tuple[Explanation, ...]
    method: dict[str, Any] = field(default_factory=dict)
    blanche: bool = False

    @property
    def best(self) -> CardSet:
        return self.ranking[0].discard

    @property
    def unit(self) -> str:
        return "chance of winning the game" if self.score is not None else "net points in the deal"

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "role": _ROLES[self.role],
            "hand": [str(c) for c in self.hand],
            "score": None if self.score is None else list(self.score),
            "carte_blanche": self.blanche,
            "value_unit": self.unit,
            "discard": [str(c) for c in self.best],
            "ranking": [r.to_json() for r in self.ranking],
            "explanations": [e.to_json() for e in self.explanations],
            "method": self.method,
        }

    def lines(self, *, top: int = 5) -> list[str]:
        m = self.method
        score = "" if self.score is None else f", score {self.score[0]} to {self.score[1]}"
        out = [
            f"{_ROLES[self.role].capitalize()} under {self.rules}{score}: {self.hand}",
            f"{len(self.ranking):,} legal discards ranked by {self.unit}.",
            f"Declarations: {m['declarations']}.",
            f"Play: {m['play']}.",
        ]
        if self.blanche:
            out.append("You hold carte blanche: announce it before discarding (counted first).")
        explained = {e.discard: e for e in self.explanations}
        for i, r in enumerate(self.ranking[:top], 1):
            value = f"{r.value:.1%}" if self.score is not None else f"{r.value:+.1f}"
            err = ""
            if r.stderr is not None:
                err = f" ±{r.stderr:.1%}" if self.score is not None else f" ±{r.stderr:.1f}"
            out.append(f"{i:>2}. discard {r.discard}   {value}{err} ({r.method})")
            e = explained.get(r.discard)
            if e is not None:
                out.extend(f"      {line}" for line in e.lines())
        return out


def _guarded_suits(kept: int) -> int:
    """Suits the kept cards stop: an ace, a guarded king, a twice-guarded queen."""
    n = 0
    for s in range(4):
        m = kept >> (9 * s) & 0x1FF
        c = _POP[m]
        if m >> 8 & 1 or (m >> 7 & 1 and c >= 2) or (m >> 6 & 1 and c >= 3):
            n += 1
    return n


_NUM: Final = ("no", "one", "two", "three", "four")


def _explain(
    hand: int,
    discard: int,
    rules: Rules,
    role: int,
    stats: SimStats | None,
    ranked: Ranked,
    score: tuple[int, int] | None,
    stock: int | None,
) -> Explanation:
    kept = hand & ~discard
    imp = improvements(hand, discard, rules, role=role, stock=stock)
    holds = []
    for cls in DeclClass:
        claim = best_claim(kept, cls, rules)
        if claim is not None:
            holds.append(statement(claim, rules))
    g = _guarded_suits(kept)
    holds.append(f"guards in {_NUM[g]} suit{'s' if g != 1 else ''}")
    keeps = ", ".join(holds)
    notable = sorted(
        (e for e in imp.events if 0.02 <= e.odds.probability <= 0.98),
        key=lambda e: -e.odds.probability * max(e.value, 1),
    )[:3]
    if notable:
        chances = f"takes in {imp.draw} of {imp.unseen}: " + "; ".join(
            f"{e.name} {e.odds.probability:.0%} ({e.odds.phrase.split(',')[0]})" for e in notable
        )
    elif imp.draw:
        chances = f"takes in {imp.draw} of {imp.unseen}: no likely improvement"
    else:
        chances = "takes in nothing"
    if stats is not None and stats.n and not stats.played:
        play = "the game is won or lost before the cards are played"
    elif stats is not None and stats.n:
        p = stats.share(stats.cards_mine)
        if p >= 0.6:
            play = f"the cards are likely yours ({p:.0%})"
        elif p >= 0.4:
            play = f"the cards are in the balance ({p:.0%} yours)"
        else:
            play = f"the cards are likely his ({p:.0%} yours)"
        capot = stats.share(stats.capot_his)
        if capot >= 0.005:
            play += f"; capot risk {capot:.0%}"
        if stats.share(stats.capot_mine) >= 0.02:
            play += f"; capot for you {stats.share(stats.capot_mine):.0%}"
    else:
        play = "not played out (estimated from the declarations and a rough trick count)"
    if score is not None:
        value = f"wins the game {ranked.value:.0%}"
    else:
        value = f"{ranked.value:+.1f} points a deal on average"
    if ranked.stderr is not None and stats is not None:
        value += f" (±{ranked.stderr:.1%}" if score is not None else f" (±{ranked.stderr:.1f}"
        value += f", {stats.n} simulated deals)"
    deals = stats.n if stats is not None else 0
    return Explanation(
        CardSet(discard), keeps, chances, play, value, imp, tuple(e.name for e in notable), deals
    )


def _opponent_model(
    unseen: Sequence[int],
    rules: Rules,
    role: int,
    elder_takes: int,
    n: int,
    rng: random.Random,
) -> OpponentModel:
    """The other's held declarations over ``n`` sampled deals (his own book exchange)."""
    tables = suit_tables(rules)
    stats = []
    blanche = 0
    for w in _worlds(unseen, rules, n, rng):
        if role == ELDER:
            avail = len(w.stock) - rules.elder_max
            hi = min(avail, rules.younger_max) if rules.younger_max else avail
            disc = book_discard(w.opp_dealt, rules, min(rules.younger_min, hi), hi)
            his = (w.opp_dealt & ~disc) | _bits(w.stock[rules.elder_max :][: disc.bit_count()])
        else:
            disc = book_discard(w.opp_dealt, rules, elder_takes, elder_takes)
            his = (w.opp_dealt & ~disc) | _bits(w.stock[:elder_takes])
        stats.append(hand_stats(his, tables))
        blanche += w.opp_dealt & COURTS == 0
    return OpponentModel(tuple(stats), blanche / max(n, 1))


def _parse_hand(hand: CardSet | int, rules: Rules) -> int:
    h = hand.mask if isinstance(hand, CardSet) else hand
    deck = _deck(rules)
    if h & ~deck:
        raise PiquetError(
            f"{CardSet(h & ~deck)} is not in the {rules.deck_size}-card pack of {rules.name}"
        )
    if h.bit_count() != 12:
        raise PiquetError(f"a hand is the 12 cards dealt; {CardSet(h)} has {h.bit_count()}")
    return h


def _calibration(x_sim: list[float], y_sim: list[float]) -> tuple[float, float]:
    """(intercept, slope) mapping pass estimates onto the simulated scale (slope >= 0)."""
    mx, my = float(np.mean(x_sim)), float(np.mean(y_sim))
    if len(x_sim) >= 3 and max(x_sim) > min(x_sim):
        slope = max(float(np.polyfit(np.array(x_sim), np.array(y_sim), 1)[0]), 0.0)
        return my - slope * mx, slope
    return my - mx, 1.0


def advise(
    hand: CardSet | int,
    rules: Rules,
    *,
    role: int,
    score: tuple[int, int] | None = None,
    stock: int | None = None,
    seed: int = 0,
    samples: int = DEFAULT_SAMPLES,
    candidates: int = DEFAULT_CANDIDATES,
    explain: int = 3,
    refine: int = 3,
    play_model: PlayModel | None = None,
    budget: int = DEFAULT_BUDGET,
    opponent_samples: int = OPPONENT_SAMPLES,
) -> Advice:
    """Rank every legal discard of ``hand`` (the twelve dealt to ``role``), best first.

    ``score`` (mine, his) makes the value the chance of winning the game
    (the game of ``rules.target`` points); otherwise it is the mean net
    points of the deal.  ``samples`` deals are played for each of about
    ``candidates`` discards, and ``2 * samples`` more for the ``refine``
    best.  Younger assumes elder took his full allotment unless ``stock``
    says how many cards elder left.  ``seed`` fixes every sample.
    Raises :class:`PiquetError` for a hand, role or number the rules do not
    allow.
    """
    if role not in (ELDER, YOUNGER):
        raise PiquetError("role must be elder (0) or younger (1)")
    h = _parse_hand(hand, rules)
    if samples < 1 or candidates < 1:
        raise PiquetError("samples and candidates must be at least 1")
    if score is not None and (min(score) < 0 or max(score) >= rules.target):
        raise PiquetError(
            f"scores must be 0 to {rules.target - 1} (the game is {rules.target}); got "
            f"{score[0]},{score[1]}"
        )
    lo, hi = role_draw_range(rules, role, stock=stock)
    elder_takes = rules.elder_max if stock is None else rules.stock_size - stock
    rng = random.Random(f"piquet-advise-{seed}")
    unseen = mask_cards(_deck(rules) & ~h)
    model = play_model if play_model is not None else HeuristicPlay()
    opp = _opponent_model(unseen, rules, role, elder_takes, opponent_samples, rng)
    discards = discard_masks(h, lo, hi)
    result = declaration_pass(
        h, rules, discards=discards, unseen=unseen, opponent=opp, budget=budget, rng=rng
    )
    chosen = _candidates(result, h, rules, lo, hi, candidates)
    worlds = _worlds(unseen, rules, samples, rng)
    sim = _Simulator(
        h, rules, role, worlds, play_model=model, elder_takes=elder_takes, score=score, rng=rng
    )
    stats = {d: sim.run(d) for d in chosen}

    def sim_value(s: SimStats) -> tuple[float, float]:
        return (s.win_rate, s.win_stderr) if score is not None else (s.mean, s.stderr)

    first = {d: sim_value(st) for d, st in stats.items()}
    shift: dict[int, float] = {}
    if refine and len(stats) > 1:
        # the closest race is at the top: play the leaders again in more deals, and put
        # them back on the common scale (their mean as in the deals all discards shared)
        leaders = sorted(stats, key=lambda d: (-first[d][0], d))[:refine]
        more = _Simulator(
            h,
            rules,
            role,
            _worlds(unseen, rules, 2 * samples, rng),
            play_model=model,
            elder_takes=elder_takes,
            score=score,
            rng=rng,
        )
        for d in leaders:
            stats[d] = stats[d].merged(more.run(d))
        level = sum(first[d][0] - sim_value(stats[d])[0] for d in leaders) / len(leaders)
        shift = {d: level for d in leaders}

    def placed(d: int) -> float:
        v = sim_value(stats[d])[0] + shift.get(d, 0.0)
        return min(max(v, 0.0), 1.0) if score is not None else v

    simulated = sorted(
        (Ranked(CardSet(d), placed(d), "simulated", sim_value(s)[1]) for d, s in stats.items()),
        key=lambda r: (-r.value, r.discard.mask),
    )
    est = result.value
    x_sim = [float(est[result.discards.index(d)]) for d in stats]
    y_sim = [first[d][0] for d in stats]
    floor = min(y_sim)
    icpt, slope = _calibration(x_sim, y_sim)
    rest = []
    for i, d in enumerate(result.discards):
        if d in stats:
            continue
        v = min(icpt + slope * float(est[i]), floor)
        if score is not None:
            v = min(max(v, 0.0), 1.0)
        rest.append(Ranked(CardSet(d), v, "estimated"))
    rest.sort(key=lambda r: (-r.value, r.discard.mask))
    ranking = tuple(simulated + rest)
    expl = tuple(
        _explain(h, r.discard.mask, rules, role, stats.get(r.discard.mask), r, score, stock)
        for r in ranking[:explain]
    )
    how = "exact over every draw" if result.all_exact else "over a uniform sample of draws"
    method = {
        "declarations": f"{how}, {result.hands:,} final hands, against {opponent_samples} "
        "sampled hands of the other",
        "play": f"{len(stats)} discards played out in {samples} simulated deals each, the "
        f"best {min(refine, len(stats))} in {3 * samples} ({model.name} play, the other "
        "exchanging by the book); the rest estimated",
        "exact": result.all_exact,
        "hands": result.hands,
        "samples": samples,
        "simulated": len(stats),
        "play_model": model.name,
        "seed": seed,
    }
    return Advice(
        rules=rules.name,
        role=role,
        hand=CardSet(h),
        score=score,
        ranking=ranking,
        explanations=expl,
        method=method,
        blanche=h & COURTS == 0,
    )


def _candidates(result: PassResult, hand: int, rules: Rules, lo: int, hi: int, n: int) -> list[int]:
    """The discards to play out: the best by estimate, by size, by class, and the book's."""
    value = result.value
    order = np.argsort(-value, kind="stable")
    picked: list[int] = []

    def take(i: int) -> None:
        d = result.discards[int(i)]
        if d not in picked:
            picked.append(d)

    for i in order[:n]:
        take(int(i))
    sizes = np.array([d.bit_count() for d in result.discards])
    for k in range(lo, hi + 1):
        idx = np.flatnonzero(sizes == k)
        if len(idx):
            take(int(idx[np.argmax(value[idx])]))
    for arr in (result.decl_value, result.play_value):
        for i in np.argsort(-arr, kind="stable")[:2]:
            take(int(i))
    book = book_discard(hand, rules, lo, hi)
    if book in result.discards and book not in picked:
        picked.append(book)
    return picked


def compare(
    hand: CardSet | int,
    discards: Sequence[CardSet | int],
    rules: Rules,
    *,
    role: int,
    samples: int = 2000,
    seed: int = 0,
    score: tuple[int, int] | None = None,
    stock: int | None = None,
    play_model: PlayModel | None = None,
) -> list[SimStats]:
    """Play out the given discards in the same ``samples`` deals: who is right, by simulation.

    Raises :class:`PiquetError` for a discard the hand or the rules do not allow.
    """
    h = _parse_hand(hand, rules)
    lo, hi = role_draw_range(rules, role, stock=stock)
    masks = []
    for d in discards:
        m = d.mask if isinstance(d, CardSet) else d
        if m & ~h:
            raise PiquetError(f"the discard {CardSet(m)} holds cards not in the hand")
        if not lo <= m.bit_count() <= hi:
            raise PiquetError(f"{_ROLES[role]} lays out {lo} to {hi} cards, not {m.bit_count()}")
        masks.append(m)
    rng = random.Random(f"piquet-compare-{seed}")
    unseen = mask_cards(_deck(rules) & ~h)
    elder_takes = rules.elder_max if stock is None else rules.stock_size - stock
    sim = _Simulator(
        h,
        rules,
        role,
        _worlds(unseen, rules, samples, rng),
        play_model=play_model if play_model is not None else HeuristicPlay(),
        elder_takes=elder_takes,
        score=score,
        rng=rng,
    )
    return [sim.run(m) for m in masks]


# ====================================================================== hints for a table
def hint(view: Any, *, rules: Rules | None = None, samples: int = 60) -> str:
    """A one-line hint for the player whose :class:`~piquet.match.MatchView` this is.

    Uses only what the view shows.  In the exchange it names the best
    discard and why; in the declarations, what to declare; in the play, a
    card and why.  Returns ``""`` when there is nothing to suggest (not the
    player's turn, or a rule set the hint cannot name).
    """
    deal = getattr(view, "deal", None)
    if deal is None or view.to_act != view.player:
        return ""
    try:
        r = rules if rules is not None else getattr(view, "rule_set", None) or get_rules(view.rules)
    except PiquetError:
        return ""
    phase = deal.phase.value
    if phase == "blanche":
        return (
            f"You hold carte blanche ({r.blanche_value}, counted first): announce it and how "
            "many you will discard."
        )
    if phase == "exchange" and deal.discard_range is not None:
        return _exchange_hint(view, deal, r, samples)
    if phase == "declare":
        return _declare_hint(deal, r)
    if phase == "play":
        return _play_hint(deal, r)
    return ""


@lru_cache(maxsize=64)
def _cached_advice(
    dealt: int,
    rules: Rules,
    role: int,
    score: tuple[int, int] | None,
    stock: int | None,
    samples: int,
) -> Advice:
    return advise(
        dealt, rules, role=role, score=score, stock=stock, samples=samples, candidates=6, explain=1
    )


def _exchange_hint(view: Any, deal: Any, rules: Rules, samples: int) -> str:
    dealt = deal.dealt.mask
    if dealt.bit_count() != 12 or deal.hand.mask != dealt:
        return ""
    role = deal.role
    stock = None
    if role == YOUNGER:
        stock = min(deal.stock_count, rules.stock_size - rules.elder_min)
        if not rules.stock_size - rules.elder_max <= stock:
            stock = rules.stock_size - rules.elder_max
    score = None
    scores = tuple(view.scores)
    if len(scores) == 2 and view.format.value == "game":
        mine = scores[view.in_game.index(view.player)]
        his = scores[1 - view.in_game.index(view.player)]
        if max(mine, his) >= rules.target - 40 and max(mine, his) < rules.target:
            score = (mine, his)
    try:
        advice = _cached_advice(dealt, rules, role, score, stock, samples)
    except PiquetError:
        return ""
    lo, hi = deal.discard_range
    best = next((r for r in advice.ranking if lo <= len(r.discard) <= hi), None)
    if best is None:
        return ""
    e = advice.explanations[0] if advice.explanations else None
    why = f": keeps {e.keeps}; {e.play}" if e is not None and e.discard == best.discard else ""
    return f"Discard {best.discard}{why}."


def _declare_hint(deal: Any, rules: Rules) -> str:
    hand = deal.hand.mask
    for cls in DeclClass:
        claim = best_claim(hand, cls, rules)
        if claim is None:
            continue
        if any(str(a).startswith(f"declare:{cls.label}:") for a in deal.legal_actions):
            return f"Your best {cls.label}: {statement(claim, rules)} ({CardSet(claim.cards)})."
    return ""


def _play_hint(deal: Any, rules: Rules) -> str:
    hand = deal.hand.mask
    gone = deal.opponent_played.mask | deal.discards.mask
    for t in deal.tricks:
        gone |= 1 << t.lead | 1 << t.follow
    unknown = _deck(rules) & ~hand & ~gone
    legal = {a.card.index for a in deal.legal_actions if hasattr(a, "card")}
    if not legal:
        return ""
    if deal.trick_lead is None:
        card = _choose_lead(_bits(sorted(legal)), unknown)
        s = card // 9
        u = unknown >> (9 * s) & 0x1FF
        why = "it is the master of its suit" if card % 9 > _HIGH[u] else "it keeps your guards"
        return f"Lead {CardSet(1 << card)}: {why}."
    card = _choose_follow(hand, deal.trick_lead, unknown)
    if card not in legal:
        card = min(legal)
    lead = deal.trick_lead
    if card // 9 == lead // 9 and card > lead:
        return f"Play {CardSet(1 << card)}: it wins the trick as cheaply as you can."
    if card // 9 == lead // 9:
        return f"Play {CardSet(1 << card)}: you cannot win it; keep your better cards."
    return f"Throw {CardSet(1 << card)}: it is your least useful card."
