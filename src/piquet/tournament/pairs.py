"""One deal, one match, and the tournament of mirrored pairs of deals: the packs, the
players' seeds, the pairs run on local workers or Ray, the mean margin and its interval."""

from __future__ import annotations

import itertools
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Final, TypeVar

from piquet.core.cards import pack as rules_pack
from piquet.core.deal import ELDER, YOUNGER, Deal
from piquet.core.errors import PiquetError
from piquet.core.match import Match, new_match
from piquet.core.rules import Format, Rules, get_rules
from piquet.players import Player, make_player, player_factory
from piquet.util.workers import process_pool

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
