"""Tournaments between AI levels: mirrored deals, so that the luck of the cards cancels.

A tournament of ``pairs`` plays each seeded pack twice: first A is elder and B
younger, then the same cards with the seats swapped.  The measure is the mean
of A's points minus B's per deal, with a 95% confidence interval over the
pairs (the pairs are independent; the two deals of a pair are not).  With
``games=True`` it also plays mirrored whole games (or parties, as the rule set
plays by default) from the same seeds, and counts who won them.

:func:`match_tournament` (``piquet tournament --format game|partie|pool``) plays
whole matches instead, in mirrored pairs (one seed, A in one seat and then in the
other: the same deals with the seats swapped), and measures what the format is
played for: a partie's settlement, games won and the lurch, a pool's stakes.

Every player is made afresh for each deal from a seed derived from the
tournament's seed and the deal's number, so the result does not depend on how
the work is spread: local processes (``workers``) or a Ray cluster give the
same numbers for the same seed.  Local workers end with the process that
started them, however it ends (:mod:`piquet.workers`).

A :func:`ladder` plays every pair of levels and fits Bradley-Terry ratings on
an Elo scale (``random`` at 0) with 95% intervals: on first deals won, or (``format``)
on whole games or parties won, as the web's ratings count them (:mod:`piquet.scale`).
"""

from __future__ import annotations

import itertools
import math
import random
import textwrap
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from piquet.core.cards import pack as rules_pack
from piquet.core.deal import ELDER, YOUNGER, Deal
from piquet.core.errors import PiquetError
from piquet.core.match import Match, new_match
from piquet.core.rules import Format, Rules, get_rules
from piquet.players import Player, make_player, player_factory
from piquet.workers import process_pool

__all__ = [
    "LadderResult",
    "PairOutcome",
    "TournamentResult",
    "FORMAT_WORDS",
    "MatchOutcome",
    "MatchPair",
    "MatchTournamentResult",
    "Measure",
    "deal_match",
    "deal_pack",
    "fit_ratings",
    "format_of",
    "ladder",
    "ladder_figure",
    "on_glicko_scale",
    "match_seed",
    "match_tournament",
    "play_deal",
    "play_match",
    "run_pairs",
    "summarize_matches",
    "third_seat",
    "tournament",
]

Progress = Callable[[int], None]
_T = TypeVar("_T")
_R = TypeVar("_R")


# ------------------------------------------------------------------ one deal, one match
def deal_pack(rules: Rules, seed: int, index: int) -> list[int]:
    """The shuffled and cut pack of pair ``index`` of a tournament seeded ``seed``."""
    rng = random.Random(f"piquet-tournament:{seed}:{index}")
    pack = rules_pack(rules)
    rng.shuffle(pack)
    cut = rng.randint(2, len(pack) - 2)
    return pack[cut:] + pack[:cut]


def _player_seed(seed: int, index: int, deal: int, who: str) -> int:
    return random.Random(f"piquet-player:{seed}:{index}:{deal}:{who}").randrange(2**62)


def _make(level: str, seed: int, think_ms: int | None, rules: Rules) -> Player:
    player = make_player(level, seed=seed, think_ms=think_ms)
    if hasattr(player, "rules"):
        player.rules = rules
    return player


def deal_match(rules: Rules, pack: Sequence[int], *, elder: int) -> Match:
    """A match whose first deal is dealt from ``pack``, with player ``elder`` elder: a deal
    played on its own is the first deal of a game (or partie) from a score of nothing each."""
    m = new_match(rules, seed=0, names=("A", "B"))
    return m.with_pack(pack, dealer=1 - elder)


def play_deal(
    rules: Rules, pack: Sequence[int], players: tuple[Player, Player], *, elder: int,
) -> Deal:
    """Play one deal to its end; ``players[elder]`` is elder.  Each player gets only the
    views of a :class:`~piquet.core.match.Match` (:func:`deal_match`).

    Raises :class:`~piquet.core.errors.IllegalActionError` if a player chooses an illegal action.
    """
    m = deal_match(rules, pack, elder=elder)
    # (a house rule's deal may end as it is dealt: a carte blanche shown reaching the target)
    while m.last_deal is None:
        p = m.to_act
        assert p is not None
        m = m.apply(players[p].choose(m.view(p)), p)
    return m.last_deal


def play_match(rules: Rules, seed: int, players: tuple[Player, Player], *,
               format: Format | None = None) -> Match:
    """Play a whole match (a game, or a partie) between two players, who see only views."""
    m = new_match(rules, seed=seed, format=format, names=("A", "B"))
    while not m.finished:
        p = m.to_act
        assert p is not None
        m = m.apply(players[p].choose(m.view(p)), p)
    return m


# ------------------------------------------------------------------ pairs
@dataclass(frozen=True, slots=True)
class PairOutcome:
    """One mirrored pair: A's and B's points in the deal where A was elder, then younger.

    With games: the settled result of the two mirrored matches, from A's side
    (+1 win, -1 loss, 0 draw) and A's margin in points.
    """

    index: int
    a_elder: tuple[int, int]
    a_younger: tuple[int, int]
    games: tuple[int, int] | None = None
    game_points: tuple[int, int] | None = None

    @property
    def margin(self) -> float:
        """Mean of (A - B) over the pair's two deals."""
        return ((self.a_elder[0] - self.a_elder[1]) + (self.a_younger[0] - self.a_younger[1])) / 2


@dataclass(frozen=True, slots=True)
class _Task:
    rules: Rules
    a: str
    b: str
    seed: int
    think_ms: int | None
    indices: tuple[int, ...]
    games: bool


def _run_task(task: _Task) -> list[PairOutcome]:
    out = []
    for index in task.indices:
        out.append(_run_pair(task, index))
    return out


def _run_pair(task: _Task, index: int) -> PairOutcome:
    rules = task.rules
    pack = deal_pack(rules, task.seed, index)
    scores: list[tuple[int, int]] = []
    for first, elder in ((0, 0), (1, 1)):
        pa = _make(task.a, _player_seed(task.seed, index, first, "a"), task.think_ms, rules)
        pb = _make(task.b, _player_seed(task.seed, index, first, "b"), task.think_ms, rules)
        deal = play_deal(rules, pack, (pa, pb), elder=elder)
        pts = deal.scores
        a_pts = pts[ELDER] if elder == 0 else pts[YOUNGER]
        b_pts = pts[YOUNGER] if elder == 0 else pts[ELDER]
        scores.append((a_pts, b_pts))
    games = None
    game_points = None
    if task.games:
        mseed = _player_seed(task.seed, index, 9, "match") % (2**62)
        wins = []
        margins = []
        for swap in (False, True):
            pa = _make(task.a, _player_seed(task.seed, index, 10 + swap, "a"), task.think_ms, rules)
            pb = _make(task.b, _player_seed(task.seed, index, 10 + swap, "b"), task.think_ms, rules)
            players = (pb, pa) if swap else (pa, pb)
            m = play_match(rules, mseed, players)
            res = m.result()
            a_index = 1 if swap else 0
            winner = res.get("winner")
            wins.append(0 if winner is None else (1 if winner == a_index else -1))
            margins.append(_match_margin(m, a_index))
        games = (wins[0], wins[1])
        game_points = (margins[0], margins[1])
    return PairOutcome(index, scores[0], scores[1], games, game_points)


def _match_margin(m: Match, a_index: int) -> int:
    """A's settled margin: a partie's settlement, else the game's score difference."""
    g = m.games[-1]
    if m.format is Format.PARTIE:
        if g.winner is None:
            return 0
        return g.settled if g.winner == a_index else -g.settled
    sa = g.scores[g.players.index(a_index)]
    sb = g.scores[1 - g.players.index(a_index)]
    return sa - sb


def _chunks(n: int, size: int) -> list[tuple[int, ...]]:
    return [tuple(range(i, min(n, i + size))) for i in range(0, n, size)]


def run_pairs(
    rules: Rules,
    a: str,
    b: str,
    *,
    pairs: int,
    seed: int = 0,
    think_ms: int | None = None,
    workers: int = 1,
    ray_address: str | None = None,
    games: bool = False,
    progress: Progress | None = None,
) -> list[PairOutcome]:
    """Play ``pairs`` mirrored pairs of deals; the outcomes in pair order.

    Raises :class:`PiquetError` for an unknown level, a bad count, or Ray
    asked for but not installed.
    """
    for level in (a, b):
        player_factory(level)  # an unknown name is refused before any deal is played
    if pairs < 1:
        raise PiquetError(f"--deals must be at least 1, not {pairs}")
    if workers < 1:
        raise PiquetError(f"--workers must be at least 1, not {workers}")
    size = max(1, min(8, pairs // (4 * max(workers, 1)) or 1))
    tasks = [_Task(rules, a, b, seed, think_ms, idx, games) for idx in _chunks(pairs, size)]
    results: list[PairOutcome] = _execute(_run_task, tasks, workers, ray_address, progress)
    results.sort(key=lambda r: r.index)
    return results


def _execute(
    fn: Callable[[_T], list[_R]],
    tasks: list[_T],
    workers: int,
    ray_address: str | None,
    progress: Progress | None,
) -> list[_R]:
    """Run ``fn`` on every task, here, in local processes or on Ray; the parts in the
    order they came back."""
    results: list[_R] = []
    if ray_address is not None:
        return _run_ray(fn, tasks, ray_address, progress)
    if workers == 1:
        for t in tasks:
            part = fn(t)
            results.extend(part)
            if progress:
                progress(len(part))
        return results
    # the workers end with this process, however it ends (a SIGKILL from outside left
    # them playing for hours)
    with process_pool(workers) as ex:
        for part in ex.map(fn, tasks):
            results.extend(part)
            if progress:
                progress(len(part))
    return results


def _run_ray(
    fn: Callable[[_T], list[_R]], tasks: list[_T], address: str, progress: Progress | None
) -> list[_R]:
    try:
        import ray  # type: ignore[import-not-found,unused-ignore]
    except ImportError:
        raise PiquetError(
            "Ray is not installed: install piquet[ray] (pip install 'piquet[ray]') to use --ray"
        ) from None
    if not ray.is_initialized():
        if address == "local":
            ray.init(num_cpus=None, include_dashboard=False, log_to_driver=False)
        else:
            ray.init(address=address, log_to_driver=False)
    remote = ray.remote(fn)
    pending = {remote.remote(t): i for i, t in enumerate(tasks)}
    out: list[_R] = []
    waiting = list(pending)
    while waiting:
        done, waiting = ray.wait(waiting, num_returns=1)
        for ref in done:
            part = ray.get(ref)
            out.extend(part)
            if progress:
                progress(len(part))
    return out


# ------------------------------------------------------------------ results
@dataclass(frozen=True, slots=True)
class TournamentResult:
    """What a tournament measured, from A's side."""

    rules: str
    a: str
    b: str
    pairs: int
    seed: int
    think_ms: int | None
    margin_per_deal: float
    ci95: tuple[float, float]
    """The 95% interval of the margin; of no width with one pair (no noise is measured)."""
    deals_won: tuple[int, int, int]
    """Deals A won, B won, tied."""
    games_won: tuple[int, int, int] | None = None
    """Mirrored games (or parties) A won, B won, drawn."""
    game_margin: float | None = None
    outcomes: tuple[PairOutcome, ...] = field(default=(), repr=False)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": self.rules,
            "a": self.a,
            "b": self.b,
            "pairs": self.pairs,
            "deals": 2 * self.pairs,
            "seed": self.seed,
            "think_ms": self.think_ms,
            "margin_per_deal": round(self.margin_per_deal, 4),
            # one pair measures no noise: no interval (null), not one of no width
            "ci95": [round(self.ci95[0], 4), round(self.ci95[1], 4)] if self.pairs > 1 else None,
            "deals_won": {
                "a": self.deals_won[0],
                "b": self.deals_won[1],
                "tied": self.deals_won[2],
            },
        }
        if self.games_won is not None:
            out["games_won"] = {
                "a": self.games_won[0],
                "b": self.games_won[1],
                "drawn": self.games_won[2],
            }
            out["game_margin"] = None if self.game_margin is None else round(self.game_margin, 4)
        return out


#: Student's t at 97.5% for 1 to 30 degrees of freedom, then 40, 60 and 120
_T975: Final = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
    2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
    2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)
_T975_BEYOND: Final = ((30, 2.042), (40, 2.021), (60, 2.000), (120, 1.980))


def t975(df: int) -> float:
    """Student's t quantile at 97.5% for ``df`` degrees of freedom (between the table's
    entries, linear in 1/df, as tables are read)."""
    if df <= len(_T975):
        return _T975[df - 1]
    for (d0, t0), (d1, t1) in itertools.pairwise(_T975_BEYOND):
        if df <= d1:
            return t0 + (t1 - t0) * (1 / df - 1 / d0) / (1 / d1 - 1 / d0)
    return 1.959964 + (1.980 - 1.959964) * 120 / df


def mean_ci(values: Sequence[float]) -> tuple[float, tuple[float, float]]:
    """Mean and a 95% interval: Student's t below 100 values (with a handful of pairs the
    normal one is far too narrow: 1.4 times at 5), the normal one from 100 (t differs by
    about 1% there; the published tables were measured so)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, (mean, mean)
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    q = t975(n - 1) if n < 100 else 1.959964
    half = q * math.sqrt(var / n)
    return mean, (mean - half, mean + half)


def summarize(
    rules: Rules, a: str, b: str, seed: int, think_ms: int | None, outcomes: Sequence[PairOutcome]
) -> TournamentResult:
    mean, ci = mean_ci([o.margin for o in outcomes])
    won = [0, 0, 0]
    for o in outcomes:
        for pa, pb in (o.a_elder, o.a_younger):
            won[0 if pa > pb else 1 if pb > pa else 2] += 1
    games_won = None
    game_margin = None
    if outcomes and outcomes[0].games is not None:
        g = [0, 0, 0]
        margins = []
        for o in outcomes:
            assert o.games is not None and o.game_points is not None
            for w in o.games:
                g[0 if w > 0 else 1 if w < 0 else 2] += 1
            margins.append(sum(o.game_points) / 2)
        games_won = (g[0], g[1], g[2])
        game_margin = sum(margins) / len(margins)
    return TournamentResult(
        rules=rules.name,
        a=a,
        b=b,
        pairs=len(outcomes),
        seed=seed,
        think_ms=think_ms,
        margin_per_deal=mean,
        ci95=ci,
        deals_won=(won[0], won[1], won[2]),
        games_won=games_won,
        game_margin=game_margin,
        outcomes=tuple(outcomes),
    )


def tournament(
    rules: Rules | str,
    a: str,
    b: str,
    *,
    pairs: int = 100,
    seed: int = 0,
    think_ms: int | None = None,
    workers: int = 1,
    ray_address: str | None = None,
    games: bool = False,
    progress: Progress | None = None,
) -> TournamentResult:
    """Play A against B over ``pairs`` mirrored pairs of deals; see the module docstring."""
    r = rules if isinstance(rules, Rules) else get_rules(rules)
    outcomes = run_pairs(
        r,
        a,
        b,
        pairs=pairs,
        seed=seed,
        think_ms=think_ms,
        workers=workers,
        ray_address=ray_address,
        games=games,
        progress=progress,
    )
    return summarize(r, a, b, seed, think_ms, outcomes)


# ------------------------------------------------------------------ whole matches
#: what each format's match is worth, in the words the reports use
FORMAT_WORDS: Final = {
    Format.PARTIE: ("partie", "parties"),
    Format.GAME: ("game", "games"),
    Format.POOL: ("pool", "pools"),
}


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """One whole match of a mirrored pair, from A's side.

    ``winner`` is ``"a"``, ``"b"``, ``"third"`` (a pool's third seat) or None (a drawn
    partie).  ``points`` are A's and B's totals when the (last) game ended (a pool: their
    totals in its last game, 0 for one who sat it out); ``stake`` is what A won (+) or
    lost (-): a partie's settlement, a game's stake (2 when lurched), a pool's stakes (A's
    ledger less B's)."""

    a_player: int
    """A's index at the table (0 or 1)."""
    winner: str | None
    points: tuple[int, int]
    stake: int
    lurch: bool = False
    """A game (or a pool's game) won by a lurch, the loser under the rule set's mark."""
    rubicon: bool = False
    """A partie whose loser was left under 100 (rubiconed)."""
    deals: int = 0
    ledger: tuple[int, int, int] | None = None
    """A pool's stakes of A, B and the third seat (each starts at -1, the pool's ante)."""
    lurches: tuple[int, int] = (0, 0)
    """Lurches A, B inflicted (a pool's games may hold several)."""


@dataclass(frozen=True, slots=True)
class MatchPair:
    """One mirrored pair of whole matches: A at player 0, then at player 1, one seed."""

    index: int
    seed: int
    third: str | None
    """A pool's third seat: the level that played it."""
    matches: tuple[MatchOutcome, MatchOutcome]


@dataclass(frozen=True, slots=True)
class _MatchTask:
    rules: Rules
    format: Format
    a: str
    b: str
    seed: int
    think_ms: int | None
    jobs: tuple[tuple[int, int], ...]
    """(pair index, A's seat) of each match to play."""


def match_seed(seed: int, index: int) -> int:
    """The seed of the two matches of pair ``index`` of a tournament seeded ``seed``."""
    return random.Random(f"piquet-tournament-match:{seed}:{index}").randrange(2**62)


def third_seat(a: str, b: str, index: int) -> str:
    """Who plays a pool's third seat in pair ``index``: A's level in pairs 0, 2, 4, ...
    (the first, the third, ...), B's in the others, so that over an even number of pairs
    each entrant's level fills it equally often."""
    return a if index % 2 == 0 else b


def _run_match_task(task: _MatchTask) -> list[tuple[int, MatchOutcome]]:
    """Play the task's matches (pair index, A's seat); each with its pair's index."""
    return [(index, _play_match(task, index, a_player)) for index, a_player in task.jobs]


def _play_match(task: _MatchTask, index: int, a_player: int) -> MatchOutcome:
    """One match of pair ``index``: A at player ``a_player`` (0 or 1), B at the other."""
    rules = task.rules
    third = third_seat(task.a, task.b, index) if task.format is Format.POOL else None
    pa = _make(task.a, _player_seed(task.seed, index, 20 + a_player, "a"), task.think_ms, rules)
    pb = _make(task.b, _player_seed(task.seed, index, 20 + a_player, "b"), task.think_ms, rules)
    seats: list[Player] = [pb, pa] if a_player else [pa, pb]
    if third is not None:
        seats.append(_make(third, _player_seed(task.seed, index, 20 + a_player, "third"),
                           task.think_ms, rules))
    m = new_match(rules, seed=match_seed(task.seed, index), format=task.format,
                  names=tuple(f"player {i + 1}" for i in range(len(seats))))
    while not m.finished:
        p = m.to_act
        assert p is not None
        m = m.apply(seats[p].choose(m.view(p)), p)
    return _outcome(m, a_player=a_player)


def _outcome(m: Match, *, a_player: int) -> MatchOutcome:
    """What a finished match gave A (player ``a_player``) and B (the other of 0 and 1)."""
    b_player = 1 - a_player
    side = {a_player: "a", b_player: "b", 2: "third"}
    last = m.games[-1]

    def points(g: Any) -> tuple[int, int]:
        by = dict(zip(g.players, g.scores, strict=True))
        return by.get(a_player, 0), by.get(b_player, 0)

    lurches = [0, 0]
    for g in m.games:
        if g.lurch and g.winner in (a_player, b_player):
            lurches[0 if g.winner == a_player else 1] += 1
    if m.format is Format.POOL:
        ledger = (m.ledger[a_player], m.ledger[b_player], m.ledger[2])
        return MatchOutcome(
            a_player, side[m.streak[0]], points(last), ledger[0] - ledger[1],
            lurch=any(g.lurch for g in m.games), deals=len(m.deals), ledger=ledger,
            lurches=(lurches[0], lurches[1]),
        )
    winner = None if last.winner is None else side[last.winner]
    if m.format is Format.PARTIE:
        stake = 0 if winner is None else last.settled if winner == "a" else -last.settled
    else:
        stake = last.stake if winner == "a" else -last.stake
    return MatchOutcome(
        a_player, winner, points(last), stake, lurch=last.lurch, rubicon=last.rubiconed,
        deals=len(m.deals), lurches=(lurches[0], lurches[1]),
    )


@dataclass(frozen=True, slots=True)
class Measure:
    """A mean over the pairs with its 95% interval (None with one pair: no noise measured)."""

    mean: float
    ci95: tuple[float, float] | None

    def to_json(self) -> dict[str, Any]:
        return {
            "mean": round(self.mean, 4),
            "ci95": None if self.ci95 is None else [round(self.ci95[0], 4),
                                                    round(self.ci95[1], 4)],
        }


def _measure(values: Sequence[float]) -> Measure:
    mean, ci = mean_ci(values)
    return Measure(mean, ci if len(values) > 1 else None)


@dataclass(frozen=True, slots=True)
class MatchTournamentResult:
    """What a tournament of whole matches measured, from A's side (see
    :func:`match_tournament`); each measure is the mean over the pairs of the mean over the
    pair's two matches."""

    rules: str
    format: Format
    a: str
    b: str
    pairs: int
    seed: int
    think_ms: int | None
    stake: Measure
    """What the format is played for, A's less B's a match: a partie's settlement points, a
    game's stake (1, or 2 by a lurch), a pool's stakes."""
    points: Measure
    """A's points less B's when the (last) game ended."""
    won: dict[str, int]
    """Matches won by ``a``, ``b`` (and ``third`` in a pool), and ``drawn`` (a partie)."""
    won_share: Measure
    """A's share of the matches A and B played (a drawn one half; a pool the third seat
    won, half)."""
    lurches: tuple[int, int]
    """Lurches inflicted by A and by B."""
    rubicons: tuple[int, int]
    """Parties A and B won with the other under 100."""
    deals: int
    ledger: tuple[int, int, int] | None
    """A pool's stakes in all, A's, B's and the third seat's."""
    outcomes: tuple[MatchPair, ...] = field(default=(), repr=False)

    @property
    def matches(self) -> int:
        return 2 * self.pairs

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "rules": self.rules,
            "format": self.format.value,
            "a": self.a,
            "b": self.b,
            "pairs": self.pairs,
            "matches": self.matches,
            "deals": self.deals,
            "seed": self.seed,
            "think_ms": self.think_ms,
            "won": dict(self.won),
            "won_share": self.won_share.to_json(),
        }
        if self.format is not Format.POOL:  # (a pool's games are not all between the two)
            out["points_margin"] = self.points.to_json()
        if self.format is Format.PARTIE:
            out["settlement_margin"] = self.stake.to_json()
            out["rubicons"] = {"a": self.rubicons[0], "b": self.rubicons[1]}
        elif self.format is Format.GAME:
            out["stake_margin"] = self.stake.to_json()
            out["lurches"] = {"a": self.lurches[0], "b": self.lurches[1]}
        else:
            assert self.ledger is not None
            out["stake_margin"] = self.stake.to_json()
            out["lurches"] = {"a": self.lurches[0], "b": self.lurches[1]}
            out["stakes"] = {"a": self.ledger[0], "b": self.ledger[1], "third": self.ledger[2]}
            # (who played it, pair by pair: :func:`third_seat`)
            by_a = sum(1 for p in self.outcomes if p.index % 2 == 0)
            out["third_seat"] = {"a_level": by_a, "b_level": self.pairs - by_a}
        return out


def summarize_matches(
    rules: Rules, fmt: Format, a: str, b: str, seed: int, think_ms: int | None,
    pairs: Sequence[MatchPair],
) -> MatchTournamentResult:
    won = {"a": 0, "b": 0}
    if fmt is Format.POOL:
        won["third"] = 0
    if fmt is Format.PARTIE:
        won["drawn"] = 0
    lurches = [0, 0]
    rubicons = [0, 0]
    ledger = [0, 0, 0]
    deals = 0
    stakes, points, shares = [], [], []
    for pair in pairs:
        s = p = w = 0.0
        for o in pair.matches:
            won["drawn" if o.winner is None else o.winner] += 1
            lurches[0] += o.lurches[0]
            lurches[1] += o.lurches[1]
            if o.rubicon and o.winner in ("a", "b"):
                rubicons[0 if o.winner == "a" else 1] += 1
            if o.ledger is not None:
                for i in range(3):
                    ledger[i] += o.ledger[i]
            deals += o.deals
            s += o.stake
            p += o.points[0] - o.points[1]
            w += 1.0 if o.winner == "a" else 0.0 if o.winner == "b" else 0.5
        stakes.append(s / 2)
        points.append(p / 2)
        shares.append(w / 2)
    return MatchTournamentResult(
        rules=rules.name, format=fmt, a=a, b=b, pairs=len(pairs), seed=seed,
        think_ms=think_ms, stake=_measure(stakes), points=_measure(points), won=won,
        won_share=_measure(shares), lurches=(lurches[0], lurches[1]),
        rubicons=(rubicons[0], rubicons[1]), deals=deals,
        ledger=(ledger[0], ledger[1], ledger[2]) if fmt is Format.POOL else None,
        outcomes=tuple(pairs),
    )


def format_of(rules: Rules, name: Format | str) -> Format:
    """The format ``name`` if ``rules`` plays it; else a :class:`PiquetError` saying which
    formats it does play."""
    plays = ", ".join(f.value for f in rules.formats)
    try:
        fmt = Format(name) if isinstance(name, str) else name
    except ValueError:
        raise PiquetError(
            f"unknown format {name!r}: --format may be game, partie or pool "
            f"({rules.name} plays: {plays})"
        ) from None
    if fmt not in rules.formats:
        what = {Format.GAME: "games", Format.PARTIE: "the Rubicon partie",
                Format.POOL: "the three-player pool"}[fmt]
        raise PiquetError(
            f"{rules.name} does not play {what}; --format under it may be: {plays}"
        )
    return fmt


def match_tournament(
    rules: Rules | str,
    a: str,
    b: str,
    *,
    format: Format | str,
    pairs: int = 20,
    seed: int = 0,
    think_ms: int | None = None,
    workers: int = 1,
    ray_address: str | None = None,
    progress: Progress | None = None,
) -> MatchTournamentResult:
    """Play A against B over ``pairs`` mirrored pairs of whole matches of ``format``.

    Each pair plays two matches from one seed: A is player 0 and B player 1, then the
    other way round, so every deal of the two is dealt from the same cards with the
    seats swapped (as long as the two matches run alike: a game that ends sooner deals
    fewer).  A pool has a third seat: :func:`third_seat` (A's level in pairs 0, 2, ...,
    B's in the others; it stays player 2 in both matches of a pair).  Each match is one
    job for ``workers`` or Ray (``progress`` is told of each match); the players are made
    afresh for each match from seeds derived from the tournament's, so the result does
    not depend on how it is spread.

    Raises :class:`PiquetError` for an unknown level, a bad count, or a format the rule
    set does not play (saying which it does).
    """
    r = rules if isinstance(rules, Rules) else get_rules(rules)
    fmt = format_of(r, format)
    for level in (a, b):
        player_factory(level)
    if pairs < 1:
        raise PiquetError(f"--deals must be at least 1 pair of matches, not {pairs}")
    if workers < 1:
        raise PiquetError(f"--workers must be at least 1, not {workers}")
    # a match is one job: matches are long, and jobs of one spread them evenly (only a
    # great many are sent a few a job, not to queue a future for each of them at once)
    jobs = [(i, seat) for i in range(pairs) for seat in (0, 1)]
    size = 1 if len(jobs) <= 1000 else 8
    tasks = [_MatchTask(r, fmt, a, b, seed, think_ms, tuple(jobs[k:k + size]))
             for k in range(0, len(jobs), size)]
    played = _execute(_run_match_task, tasks, workers, ray_address, progress)
    by_pair: dict[int, dict[int, MatchOutcome]] = {}
    for index, outcome in played:
        by_pair.setdefault(index, {})[outcome.a_player] = outcome
    results = [
        MatchPair(i, match_seed(seed, i),
                  third_seat(a, b, i) if fmt is Format.POOL else None,
                  (by_pair[i][0], by_pair[i][1]))
        for i in range(pairs)
    ]
    return summarize_matches(r, fmt, a, b, seed, think_ms, results)


# ------------------------------------------------------------------ the ladder
@dataclass(frozen=True, slots=True)
class LadderResult:
    """Ratings on an Elo scale (the first level, ``random``, at 0) with 95% intervals;
    an interval is None where the rating has no finite estimate (:func:`measurable`)."""

    rules: str
    levels: tuple[str, ...]
    ratings: tuple[float, ...]
    intervals: tuple[tuple[float, float] | None, ...]
    matches: tuple[TournamentResult, ...]
    format: Format | None = None
    """None: rated on first deals won (``matches``); else on whole matches of this format
    won, a drawn one half (``match_results``)."""
    match_results: tuple[MatchTournamentResult, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "rules": self.rules,
            "format": None if self.format is None else self.format.value,
            "levels": list(self.levels),
            "ratings": {
                lv: None if ci is None else round(r, 1)
                for lv, r, ci in zip(self.levels, self.ratings, self.intervals, strict=True)
            },
            "ci95": {
                lv: None if ci is None else [round(ci[0], 1), round(ci[1], 1)]
                for lv, ci in zip(self.levels, self.intervals, strict=True)
            },
            "matches": [m.to_json() for m in self.matches]
            + [m.to_json() for m in self.match_results],
        }

    @property
    def anchor_scored(self) -> bool:
        """Whether the first level (the anchor, ``random``) won or tied any deal (or
        match)."""
        anchor = self.levels[0]
        if self.format is not None:
            return any(
                (m.a == anchor and m.won["a"] + m.won.get("drawn", 0) > 0)
                or (m.b == anchor and m.won["b"] + m.won.get("drawn", 0) > 0)
                for m in self.match_results
            )
        return any(
            (m.a == anchor and m.deals_won[0] + m.deals_won[2] > 0)
            or (m.b == anchor and m.deals_won[1] + m.deals_won[2] > 0)
            for m in self.matches
        )

    def why_unrated(self, i: int) -> str | None:
        """Why level ``i`` has no estimate, in words (None where it has one): the text,
        the JSON and the plot give this one reason."""
        if self.intervals[i] is not None:
            return None
        anchor = self.levels[0]
        what = "deal" if self.format is None else FORMAT_WORDS[self.format][0]
        if not self.anchor_scored:
            return f"{anchor} won no {what}"  # and the ratings are measured from it
        return f"a clean sweep between it and {anchor}'s side"


def fit_ratings(
    levels: Sequence[str], wins: dict[tuple[str, str], float], games: dict[tuple[str, str], float]
) -> tuple[list[float], list[tuple[float, float] | None]]:
    """Bradley-Terry by Newton's method; ``wins[(i, j)]`` is i's score against j (ties half)
    out of ``games[(i, j)]``.  The first level is anchored at 0; ratings are Elo points
    (400 log10 odds) and intervals come from the observed information."""
    import numpy as np

    n = len(levels)
    idx = {lv: i for i, lv in enumerate(levels)}
    theta = np.zeros(n)
    prior = 1e-3  # a whisper of regularisation keeps perfect records finite
    for _ in range(100):
        grad = -prior * theta
        hess = -prior * np.eye(n)
        for (i_name, j_name), g in games.items():
            if g <= 0:
                continue
            i, j = idx[i_name], idx[j_name]
            w = wins.get((i_name, j_name), 0.0)
            p = 1.0 / (1.0 + math.exp(theta[j] - theta[i]))
            grad[i] += w - g * p
            grad[j] -= w - g * p
            h = g * p * (1 - p)
            hess[i, i] -= h
            hess[j, j] -= h
            hess[i, j] += h
            hess[j, i] += h
        free = list(range(1, n))
        if not free:
            break
        step = np.linalg.solve(hess[np.ix_(free, free)], grad[free])
        theta[free] -= step
        theta[0] = 0.0
        if float(np.max(np.abs(step))) < 1e-9:
            break
    free = list(range(1, n))
    se = np.zeros(n)
    if free:
        cov = np.linalg.inv(-hess[np.ix_(free, free)])
        se[free] = np.sqrt(np.clip(np.diag(cov), 0, None))
    scale = 400.0 / math.log(10.0)
    ratings = [float(t * scale) for t in theta]
    finite = measurable(levels, wins, games)
    intervals: list[tuple[float, float] | None] = [
        (float((t - 1.96 * s) * scale), float((t + 1.96 * s) * scale)) if ok else None
        for t, s, ok in zip(theta, se, finite, strict=True)
    ]
    return ratings, intervals


def on_glicko_scale(
    result: LadderResult, anchor: str, at: float = 1500.0,
) -> dict[str, tuple[float, tuple[float, float]] | None]:
    """A ladder's ratings moved onto the accounts' Glicko-2 scale: ``anchor`` placed at
    ``at`` (the rating a new account starts with), each level's rating and 95% interval
    measured from it (the fit again with ``anchor`` first, so that the intervals are of
    the difference from the anchor); None for a level with no finite estimate.

    Glicko's scale is Elo's (the expected score against an opponent known exactly is
    1 / (1 + 10^(-d/400)) for a difference d), so a Bradley-Terry rating in Elo points
    moves across by a shift alone.  Raises :class:`PiquetError` if ``anchor`` is not one
    of the ladder's levels."""
    if anchor not in result.levels:
        raise PiquetError(f"the anchor {anchor!r} is not among the ladder's levels "
                          f"({', '.join(result.levels)})")
    wins: dict[tuple[str, str], float] = {}
    games: dict[tuple[str, str], float] = {}
    for w in result.match_results:
        drawn = w.won.get("drawn", 0)
        wins[(w.a, w.b)] = w.won["a"] + drawn / 2
        wins[(w.b, w.a)] = w.won["b"] + drawn / 2
        games[(w.a, w.b)] = w.matches
    for m in result.matches:
        aw, bw, tied = m.deals_won
        wins[(m.a, m.b)] = aw + tied / 2
        wins[(m.b, m.a)] = bw + tied / 2
        games[(m.a, m.b)] = aw + bw + tied
    order = [anchor, *(lv for lv in result.levels if lv != anchor)]
    ratings, intervals = fit_ratings(order, wins, games)
    out: dict[str, tuple[float, tuple[float, float]] | None] = {}
    for lv, r, ci in zip(order, ratings, intervals, strict=True):
        out[lv] = None if ci is None else (at + r, (at + ci[0], at + ci[1]))
    return out


def measurable(
    levels: Sequence[str], wins: dict[tuple[str, str], float], games: dict[tuple[str, str], float]
) -> list[bool]:
    """Whether each level's rating against the first has a finite estimate.

    Bradley-Terry has one only when each level can be reached from the first, and the
    first from it, along "scored something against": a level that won (or lost) every
    deal it played against the rest is rated only by the fit's whisper of
    regularisation, and its Wald interval means nothing (a clean sweep of 6 deals gave
    -2683 to +5040)."""
    n = len(levels)
    idx = {lv: i for i, lv in enumerate(levels)}
    beat = [[i == j for j in range(n)] for i in range(n)]
    for (a, b), g in games.items():
        if g <= 0:
            continue
        i, j = idx[a], idx[b]
        if wins.get((a, b), 0.0) > 0:
            beat[i][j] = True
        if wins.get((b, a), 0.0) > 0:
            beat[j][i] = True
    for k in range(n):  # reachability (levels are few)
        for i in range(n):
            if beat[i][k]:
                for j in range(n):
                    if beat[k][j]:
                        beat[i][j] = True
    return [beat[0][i] and beat[i][0] for i in range(n)]


def ladder(
    rules: Rules | str,
    levels: Sequence[str],
    *,
    pairs: int = 50,
    seed: int = 0,
    think_ms: int | None = None,
    workers: int = 1,
    ray_address: str | None = None,
    progress: Progress | None = None,
    pairings: Sequence[tuple[str, str]] | None = None,
    format: Format | str | None = None,
) -> LadderResult:
    """Play every pair of ``levels`` (or only ``pairings``, each a pair of them) and fit
    ratings on deals won (ties count half), or with ``format`` on whole matches of that
    format won (:func:`match_tournament`, ``pairs`` mirrored pairs of matches a pairing; a
    drawn partie counts half).

    ``pairings`` places many levels on one scale for less than every pair: a chain of
    neighbours is enough for the fit, a level linked to ``random`` by no chain of played
    matches being left unrated.  Raises :class:`PiquetError` for a level named twice, a
    pairing of a level with itself, named twice or naming a level not in ``levels``.
    """
    r = rules if isinstance(rules, Rules) else get_rules(rules)
    fmt = None if format is None else format_of(r, format)
    if fmt is Format.POOL:
        raise PiquetError("a ladder rates two players a match: --format may be game or "
                          "partie, not pool (three players)")
    if len(levels) < 2:
        raise PiquetError("a ladder needs at least two levels")
    named: set[str] = set()
    for lv in levels:
        if lv in named:
            raise PiquetError(f"a ladder names each level once; {lv!r} is named twice")
        named.add(lv)
    if pairings is None:
        pairings = [(a, b) for i, a in enumerate(levels) for b in levels[i + 1:]]
    seen: set[frozenset[str]] = set()
    for a, b in pairings:
        for lv in (a, b):
            if lv not in named:
                raise PiquetError(f"the pairing {a}:{b} names {lv!r}, which is not among the "
                                  f"ladder's levels ({', '.join(levels)})")
        if a == b:
            raise PiquetError(f"the pairing {a}:{b} sets a level against itself")
        if frozenset((a, b)) in seen:
            raise PiquetError(f"the pairing {a}:{b} is named twice: name each pairing once")
        seen.add(frozenset((a, b)))
    matches: list[TournamentResult] = []
    whole: list[MatchTournamentResult] = []
    wins: dict[tuple[str, str], float] = {}
    games: dict[tuple[str, str], float] = {}
    for a, b in pairings:
        if fmt is not None:
            played = match_tournament(
                r, a, b, format=fmt, pairs=pairs, seed=seed, think_ms=think_ms,
                workers=workers, ray_address=ray_address, progress=progress,
            )
            whole.append(played)
            drawn = played.won.get("drawn", 0)
            wins[(a, b)] = played.won["a"] + drawn / 2
            wins[(b, a)] = played.won["b"] + drawn / 2
            games[(a, b)] = played.matches
            continue
        res = tournament(
            r, a, b, pairs=pairs, seed=seed, think_ms=think_ms, workers=workers,
            ray_address=ray_address, progress=progress,
        )
        matches.append(res)
        aw, bw, tied = res.deals_won
        wins[(a, b)] = aw + tied / 2
        wins[(b, a)] = bw + tied / 2
        games[(a, b)] = aw + bw + tied
    ratings, intervals = fit_ratings(levels, wins, games)
    return LadderResult(r.name, tuple(levels), tuple(ratings), tuple(intervals), tuple(matches),
                        fmt, tuple(whole))


def ladder_figure(result: LadderResult) -> Any:
    """The ratings with their 95% intervals as a matplotlib figure: only the ratings that
    are estimated are drawn; the others are named under the axis with the reason
    (:meth:`LadderResult.why_unrated`).  Needs piquet[plot] (matplotlib).

    Raises :class:`PiquetError` if matplotlib is missing.
    """
    try:
        # a Figure of its own, not pyplot's: no global state, no backend to choose
        from matplotlib.figure import Figure
    except ImportError:
        raise PiquetError("drawing the ladder needs matplotlib: install piquet[plot]") from None
    # a rating with no finite estimate is a number the fit's regularisation made up: it is
    # not drawn, but named below the axis with the reason
    shown = [i for i, ci in enumerate(result.intervals) if ci is not None]
    notes = [
        textwrap.fill(f"{result.levels[i]}: no estimate ({result.why_unrated(i)}); "
                      "play more deals", 90, subsequent_indent="    ")
        for i, ci in enumerate(result.intervals) if ci is None
    ]
    note_lines = sum(1 + n.count("\n") for n in notes) + 1 if notes else 0
    below = 0.17 * note_lines  # inches of notes under the axis
    height = 0.6 * len(shown) + 1.5 + below
    fig = Figure(figsize=(6, height))
    ax = fig.subplots()
    ys = list(range(len(shown)))
    lows = []
    highs = []
    for i in shown:
        ci = result.intervals[i]
        assert ci is not None
        lows.append(result.ratings[i] - ci[0])
        highs.append(ci[1] - result.ratings[i])
    ax.errorbar([result.ratings[i] for i in shown], ys, xerr=[lows, highs], fmt="o",
                capsize=4)
    ax.set_yticks(ys)
    ax.set_yticklabels([result.levels[i] for i in shown])
    ax.set_xlabel(f"rating (Elo scale, {result.levels[0]} = 0), 95% interval")
    ax.set_title(f"Piquet AI ladder: {result.rules}")
    ax.grid(axis="x", alpha=0.3)
    if notes:
        fig.text(0.02, 0.02 / height, "Not drawn:\n" + "\n".join(notes), fontsize="small",
                 va="bottom")
        fig.tight_layout(rect=(0, (below + 0.1) / height, 1, 1))
    else:
        fig.tight_layout()
    return fig


def plot_ladder(result: LadderResult, path: str) -> None:
    """Draw the ratings as a PNG (:func:`ladder_figure`; needs piquet[plot]: matplotlib).

    Raises :class:`PiquetError` if matplotlib is missing or the file cannot be written.
    """
    fig = ladder_figure(result)
    try:
        fig.savefig(path, dpi=120)
    except OSError as exc:
        raise PiquetError(f"cannot write {path!r}: {exc.strerror}") from None
