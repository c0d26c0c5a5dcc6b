"""A ceiling for inference: the expert told the hidden cards, against the reference.

Issue 16 asks for +3 points a deal over ``reference`` under ``rubicon``.  This benchmark
asks how much a player gains when it is *told* what it would otherwise infer: the expert
(:class:`~piquet.players.expert.ExpertPlayer`, unchanged in every other respect: its seeds,
its budget, its exchange by play-outs, its solver) whose worlds are the true deal.

- ``sees-hand``: every world holds the other's true hand (his dealt hand before he
  exchanges, his hand now after); what he cannot see in any case stays drawn: the stock
  places this seat has not seen and the other did not take are shuffled anew each world,
  and, once the other has exchanged, which of the cards outside his hand he laid out (the
  rest lie in the stock).  In the play only his hand matters, so one world is solved.
- ``sees-all``: the true deal, stock order and discards included (one world in the play;
  in the exchange the true world repeated, as many as the expert would draw).
- ``sees-hand-play``: told the other's hand in the play only; the exchange (and the
  declarations) decided on the expert's own worlds.  What perfect inference in the play
  could be worth: the part of ``sees-hand``'s gain that reading the dialog and the cards
  played might reach (before the exchange there is nothing of his hand to read).

Its worlds reach every decision that draws worlds through ``_worlds``: the exchange, the
play, and the declarations below 200 ms (where the expert declares truthfully); from a
calibrated 200 ms the expert weighs its declarations over deals it samples itself
(``SearchPlayer._declare``), which this does not override, so run it at 100 ms as the
figures in ``docs/strength.md`` were.

The clairvoyant is made here only, handed the real :class:`~piquet.core.deal.Deal` before
each of its decisions by this script's own loop; it is not registered as a level or
variant, so the game, the CLI, the web, ``make_player`` and the ladder cannot reach it.

The packs and player seeds are those of ``piquet tournament`` / ``scripts/strength-table``
(:func:`piquet.tournament.deal_pack`, ``_player_seed``): each pack played twice, seats
swapped, and the clairvoyant takes the seeds the tournament gives player A, so it decides
as the plain ``expert`` would wherever the worlds agree.  The pairings are interleaved
pack by pack (``expert`` v ``reference`` as the same-run baseline), so that a run cut short
leaves them on the same packs.  Results are JSON lines, one per pair and pairing.

    nice -n 10 env PYTHONPATH=src python bench/clairvoyant.py --preset rubicon --think 100 \\
        --seed 2026 --pairs 200 --until 23:55 --out /work/bound/rubicon.jsonl
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from piquet.analysis.sampling import World
from piquet.analysis.sampling.draw import knowledge
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase
from piquet.core.declarations import COURTS
from piquet.core.rules import Rules, get_rules
from piquet.core.view import DealView
from piquet.players import Player, make_player
from piquet.players.expert import ExpertPlayer
from piquet.tournament import PairOutcome, deal_match, deal_pack, mean_ci
from piquet.tournament.pairs import _player_seed

__all__ = ["MODES", "ClairvoyantPlayer", "play_pair", "true_world"]

#: What the clairvoyant is told.
MODES = ("sees-hand", "sees-all", "sees-hand-play")


def true_world(deal: Deal, role: int) -> World:
    """The hidden cards of ``deal`` as seat ``role`` would have to draw them."""
    other = 1 - role
    stock = tuple(deal.deck[len(deal.deck) - deal.rules.stock_size:])
    return World(deal.dealt[other], deal.discards[other], stock, deal.hands[other])


def _redrawn(view: DealView, rules: Rules, truth: World, rng: random.Random) -> World:
    """``truth`` with what the other's hand does not tell drawn anew: the stock places this
    seat has not seen and the other did not take, and (once he has exchanged) which cards
    outside his hand he laid out.  His dealt hand keeps a court (no carte blanche) if it
    had one; after 100 failed draws the truth is returned."""
    kn = knowledge(view, rules)
    other = 1 - view.role
    taken: set[int] = set()
    if kn.opp_exchanged:
        k_o = kn.k_younger if other == YOUNGER else kn.k_elder
        first = 0 if other == ELDER else max(kn.k_elder, 0)
        taken = set(range(first, first + k_o))
    free = [i for i, s in enumerate(kn.slots) if s == 0 and i not in taken]
    laid = truth.opp_discards if kn.opp_exchanged else 0
    fixed_disc = laid & (kn.opp_laid_out | ~kn.unplaced)
    movable_disc = laid & ~fixed_disc
    n_disc = movable_disc.bit_count()
    pool = [truth.stock[i] for i in free] + [c for c in range(64) if movable_disc >> c & 1]
    may_lay = [c for c in pool if not (kn.not_laid_out >> c & 1)]
    kept = truth.opp_dealt & ~truth.opp_discards
    for _ in range(100):
        disc = fixed_disc
        if n_disc:
            if len(may_lay) < n_disc:
                return truth
            for c in rng.sample(may_lay, n_disc):
                disc |= 1 << c
        if truth.opp_dealt & COURTS and (kept | disc) & COURTS == 0:
            continue
        rest = [c for c in pool if not (disc >> c & 1)]
        rng.shuffle(rest)
        stock = list(truth.stock)
        for place, card in zip(free, rest, strict=True):
            stock[place] = card
        dealt = kept | disc if kn.opp_exchanged else truth.opp_dealt
        return World(dealt, disc if kn.opp_exchanged else truth.opp_discards, tuple(stock),
                     truth.opp_hand)
    return truth


class ClairvoyantPlayer(ExpertPlayer):
    """The expert whose worlds come from :attr:`truth` (set before every decision)."""

    def __init__(self, mode: str, seed: int = 0, think_ms: int | None = None,
                 rules: Rules | None = None) -> None:
        if mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {mode!r}")
        super().__init__(seed, think_ms, rules=rules, name=f"expert-{mode}")
        self.mode = mode
        #: the real deal, handed over by the benchmark's loop before each decision
        self.truth: Deal | None = None

    def _worlds(self, deal: DealView, rules: Rules, rng: random.Random, n: int) -> list[World]:
        if self.truth is None:
            raise RuntimeError("the clairvoyant was not told the deal")
        truth = true_world(self.truth, deal.role)
        if deal.phase is Phase.PLAY:
            return [truth]  # the play's positions hold only the hands: one world says all
        if self.mode == "sees-hand-play":
            return super()._worlds(deal, rules, rng, n)  # told nothing before the play
        if self.mode == "sees-all":
            return [truth] * max(1, n)
        return [_redrawn(deal, rules, truth, rng) for _ in range(max(1, n))]


def _play(rules: Rules, pack: Sequence[int], players: tuple[Player, Player],
          elder: int) -> Deal:
    """:func:`piquet.tournament.play_deal`, telling a clairvoyant the deal before it acts."""
    m = deal_match(rules, pack, elder=elder)
    while True:
        p = m.to_act
        assert p is not None
        player = players[p]
        if isinstance(player, ClairvoyantPlayer):
            player.truth = m.deal
        m = m.apply(player.choose(m.view(p)), p)
        if m.last_deal is not None:
            return m.last_deal


def _make(level: str, seed: int, think_ms: int, rules: Rules) -> Player:
    if level in MODES:
        return ClairvoyantPlayer(level, seed, think_ms, rules=rules)
    player = make_player(level, seed=seed, think_ms=think_ms)
    if hasattr(player, "rules"):
        player.rules = rules
    return player


def play_pair(rules: Rules, a: str, b: str, seed: int, index: int,
              think_ms: int) -> PairOutcome:
    """One mirrored pair as ``piquet.tournament`` plays it (the same pack and seeds)."""
    pack = deal_pack(rules, seed, index)
    scores: list[tuple[int, int]] = []
    for first, elder in ((0, 0), (1, 1)):
        pa = _make(a, _player_seed(seed, index, first, "a"), think_ms, rules)
        pb = _make(b, _player_seed(seed, index, first, "b"), think_ms, rules)
        pts = _play(rules, pack, (pa, pb), elder).scores
        a_seat = ELDER if elder == 0 else YOUNGER
        scores.append((pts[a_seat], pts[1 - a_seat]))
    return PairOutcome(index, scores[0], scores[1])


def _report(margins: dict[str, list[float]]) -> None:
    for a, m in margins.items():
        if not m:
            continue
        mean, (lo, hi) = mean_ci(m)
        print(f"  {a:10s} {len(m):4d} pairs  {mean:+.2f} ({lo:+.2f} to {hi:+.2f})")
    base = margins.get("expert")
    for a, m in margins.items():
        if a == "expert" or not base or len(m) != len(base) or len(m) < 2:
            continue
        mean, (lo, hi) = mean_ci([x - y for x, y in zip(m, base, strict=True)])
        print(f"  {a} - expert, paired by pack: {mean:+.2f} ({lo:+.2f} to {hi:+.2f})")


def summarize(path: Path) -> None:
    """Points a deal v the opponent over the packs every pairing in ``path`` played."""
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    by: dict[str, dict[int, float]] = {}
    for r in rows:
        by.setdefault(r["a"], {})[r["index"]] = r["margin"]
    common = sorted(set.intersection(*(set(d) for d in by.values()))) if by else []
    r0 = rows[0] if rows else {}
    print(f"{r0.get('preset')}, think {r0.get('think_ms')} ms, seed {r0.get('seed')}, v "
          f"{r0.get('b')}, {len(common)} packs played by every pairing; points a deal (mean "
          f"of each mirrored pair), 95% interval:")
    _report({a: [d[i] for i in common] for a, d in by.items()})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="rubicon")
    ap.add_argument("--think", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--pairs", type=int, default=200)
    ap.add_argument("--players", nargs="+", default=["sees-hand", "sees-all", "expert"])
    ap.add_argument("--opponent", default="reference")
    ap.add_argument("--until", default=None,
                    help="UTC HH:MM: start no pack after it (the pairings stay on equal packs)")
    ap.add_argument("--out", default=None, help="JSON lines, one per pair and pairing")
    ap.add_argument("--summary", default=None, metavar="JSONL",
                    help="play nothing: summarize the packs every pairing of this file played")
    args = ap.parse_args()
    if args.summary:
        summarize(Path(args.summary))
        return
    rules = get_rules(args.preset)
    stop = None
    if args.until:
        now = dt.datetime.now(dt.UTC)
        hh, mm = (int(x) for x in args.until.split(":"))
        stop = now.replace(hour=hh, minute=mm, second=0, microsecond=0)
        if stop <= now:
            stop += dt.timedelta(days=1)
    out = Path(args.out).open("a") if args.out else None
    margins: dict[str, list[float]] = {a: [] for a in args.players}
    t0 = time.monotonic()
    cpu0 = time.process_time()
    for index in range(args.start, args.start + args.pairs):
        if stop is not None and dt.datetime.now(dt.UTC) >= stop:
            print(f"stopped at {args.until} UTC before pack {index}", flush=True)
            break
        for a in args.players:
            c = time.process_time()
            o = play_pair(rules, a, args.opponent, args.seed, index, args.think)
            margins[a].append(o.margin)
            rec: dict[str, Any] = {
                "preset": args.preset, "think_ms": args.think, "seed": args.seed,
                "index": index, "a": a, "b": args.opponent, "a_elder": o.a_elder,
                "a_younger": o.a_younger, "margin": o.margin,
                "cpu_s": round(time.process_time() - c, 2),
            }
            if out:
                out.write(json.dumps(rec) + "\n")
                out.flush()
        done = index - args.start + 1
        line = ", ".join(f"{a} {mean_ci(m)[0]:+.2f}" for a, m in margins.items())
        print(f"{done} packs ({time.monotonic() - t0:.0f} s, {time.process_time() - cpu0:.0f} s "
              f"CPU): {line}", flush=True)
    print(f"{args.preset}, think {args.think} ms, seed {args.seed}, v {args.opponent}, "
          f"points a deal (mean of each mirrored pair), 95% interval:")
    _report(margins)
    if out:
        out.close()
    sys.stdout.flush()


if __name__ == "__main__":
    main()
