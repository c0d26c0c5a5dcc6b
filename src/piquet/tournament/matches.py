"""Whole matches in mirrored pairs (one seed, A in one seat and then in the other), measured
by what the format is played for: a partie's settlement, games won and the lurch, a pool's
stakes."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from piquet.core.errors import PiquetError
from piquet.core.match import Match, new_match
from piquet.core.rules import Format, Rules, get_rules
from piquet.players import Player, player_factory
from piquet.tournament.pairs import Progress, _execute, _make, _player_seed, mean_ci

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
