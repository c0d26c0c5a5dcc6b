"""The baselines of docs/baselines.md: each player against ``book`` in mirrored pairs of deals.

    nice -n 15 .venv/bin/python bench/baselines.py --players random,learned --pairs 100 \\
        --out /tmp/baselines.jsonl
    nice -n 15 .venv/bin/python bench/baselines.py --players ismcts-10,ismcts-40 --pairs 6 \\
        --out /tmp/baselines.jsonl

Every row is a player A against the common reference B (``--reference``, default ``book``)
over the same seeded packs as ``piquet tournament --seed S`` (:func:`piquet.tournament.deal_pack`):
each pack dealt twice, A elder and then younger, one deal from a score of nothing each;
the margin is A's points a deal minus B's with a 95% interval over the pairs
(:func:`piquet.tournament.mean_ci`: Student's t below 100 pairs).

- A level name (``random``, ``club``, ``expert``, ``learned``, ``LEVEL@MS``) plays through
  :func:`piquet.tournament.run_pairs`, exactly as ``piquet tournament`` does (``--think``
  milliseconds a decision for the levels that think).
- ``ismcts-N``: OpenSpiel's Python ``ISMCTSBot`` with N simulations a move and random
  roll-outs, on ``python_piquet`` with ``format="deal"`` and the ``uniform`` resampler
  (every world consistent with its seat's knowledge alike), its worlds drawn from the
  pair's seeded generator (so a row is the same at every run); B plays through
  :class:`~piquet.integrations.openspiel.LevelBot`.  The pack is fed to the game's chance
  nodes card by card, so the deals are the tournament's.  UCT's constant is 40 (the
  utilities are points), one roll-out a leaf, seeded by the pair.
- ``learned:PATH``: the learned level with the weights at PATH (a training checkpoint);
  ``learned-whole`` and ``learned-whole:PATH``: the whole-game network
  (:mod:`piquet.integrations.learned_whole`), the package's or a checkpoint;
  ``learned-whole-cards[:PATH]``: that network's card play with the book's exchange and
  declarations, ``learned-whole-rest[:PATH]``: its exchange and declarations with the
  book's card play (where its points are lost).

One JSON line a (preset, player) goes to ``--out`` (appended): the margin, its interval,
the pairs, the seconds and CPU-seconds it took.  ``--end`` (a Unix time) stops before a row
that would start after it.  ``bench/baselines.py --table FILE.jsonl ...`` prints the rows as
the Markdown tables of docs/baselines.md.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from typing import Any

from piquet.core.rules import PRESETS, Rules, get_rules
from piquet.players import register_variant
from piquet.tournament import deal_pack, mean_ci, run_pairs


class _Split:
    """The whole-game network in the play only (``cards``) or everywhere but the play
    (``rest``), ``book`` for the other part: which part of its game costs it points."""

    def __init__(self, seed: int, weights: Any, net_plays_cards: bool) -> None:
        from piquet.integrations.learned_whole import WholeGamePlayer
        from piquet.players import make_player

        self.net = WholeGamePlayer(seed, weights=weights)
        self.book = make_player("book", seed=seed)
        self.net_plays_cards = net_plays_cards

    def choose(self, view: Any) -> Any:
        from piquet.core.deal import Phase
        from piquet.players.common import my_turn

        in_play = my_turn(view).phase is Phase.PLAY
        return (self.net if in_play == self.net_plays_cards else self.book).choose(view)


def _learned_at(player: str) -> str:
    """Register ``learned:PATH`` (the learned level with the weights at PATH),
    ``learned-whole:PATH`` (the whole-game network), ``learned-whole-cards[:PATH]`` (its
    card play, the book's exchange and declarations) or ``learned-whole-rest[:PATH]`` (its
    exchange and declarations, the book's card play); the player's name.
    ``learned-whole`` alone: the package's whole-game network (registered by importing its
    module)."""
    from piquet.integrations.learned_whole import WholeGamePlayer, load_whole_weights
    from piquet.players.learned import LearnedPlayer, load_weights

    kind, _, path = player.partition(":")
    if kind in ("learned-whole-cards", "learned-whole-rest"):
        ws = load_whole_weights(path or None)
        cards = kind == "learned-whole-cards"
        register_variant(player, lambda seed, think_ms: _Split(seed, ws, cards))
    elif not path:
        return player
    elif kind == "learned-whole":
        ww = load_whole_weights(path)
        register_variant(player, lambda seed, think_ms: WholeGamePlayer(seed, weights=ww))
    else:
        w = load_weights(path)
        register_variant(player, lambda seed, think_ms: LearnedPlayer(seed, weights=w))
    return player


def ismcts_margins(rules: Rules, sims: int, ref: str, *, pairs: int, seed: int) -> list[float]:
    """ISMCTS (``sims`` simulations a move, uniform resampler) against ``ref``: the margin
    of each mirrored pair, in points a deal."""
    import numpy as np
    from open_spiel.python.algorithms import ismcts, mcts

    from piquet.integrations import openspiel as ops

    game = ops.load(rules.name, format="deal", resampler="uniform")
    out = []
    for index in range(pairs):
        pack = deal_pack(rules, seed, index)
        diffs = []
        for seat in (0, 1):  # ISMCTS elder, then younger (in a deal episode player 0 is elder)
            rs = np.random.RandomState((seed * 1_000_003 + index * 2 + seat) % 2**32)
            bot = ismcts.ISMCTSBot(game, mcts.RandomRolloutEvaluator(1, rs), uct_c=40.0,
                                   max_simulations=sims, random_state=rs)
            # the worlds drawn from the pair's generator too: the bot's own resampling asks
            # pyspiel.UniformProbabilitySampler, seeded afresh each time (not reproducible)
            bot._resampler_cb = (  # (ISMCTSBot has no argument for it)
                lambda state, player, rs=rs: state.resample_from_infostate(player, rs.uniform))
            other = ops.LevelBot(ref, player_id=1 - seat, seed=index)
            bots = [bot, other] if seat == 0 else [other, bot]
            state = game.new_initial_state()
            for card in pack:
                state.apply_action(card)
            deal = state.episode.deal
            assert deal is not None and list(deal.deck) == list(pack)
            while not state.is_terminal():
                state.apply_action(int(bots[state.current_player()].step(state)))
            diffs.append(state.returns()[seat])
        out.append(sum(diffs) / 2)
    return out


def row(rules: Rules, player: str, ref: str, *, pairs: int, seed: int,
        think_ms: int | None) -> dict[str, Any]:
    t0, c0 = time.perf_counter(), time.process_time()
    if player.startswith("ismcts-"):
        margins = ismcts_margins(rules, int(player.split("-", 1)[1]), ref, pairs=pairs,
                                 seed=seed)
    else:
        name = _learned_at(player) if player.startswith("learned") else player
        margins = [o.margin for o in run_pairs(rules, name, ref, pairs=pairs, seed=seed,
                                               think_ms=think_ms)]
    mean, (lo, hi) = mean_ci(margins)
    sd = math.sqrt(sum((m - mean) ** 2 for m in margins) / max(len(margins) - 1, 1))
    return {"rules": rules.name, "player": player, "reference": ref, "pairs": len(margins),
            "seed": seed, "think_ms": think_ms, "margin": round(mean, 3),
            "ci95": [round(lo, 3), round(hi, 3)], "sd": round(sd, 3),
            "seconds": round(time.perf_counter() - t0, 1),
            "cpu_seconds": round(time.process_time() - c0, 1), "margins": margins}


def table(paths: list[str]) -> str:
    """The rows of the JSON-lines files as Markdown, a table a preset (the last row of a
    (preset, player) wins)."""
    rows: dict[tuple[str, str], dict[str, Any]] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    r = json.loads(line)
                    rows[(r["rules"], r["player"])] = r
    out = []
    for preset in sorted({k[0] for k in rows}):
        out.append(f"**{preset}** (against `book`; points a deal)\n")
        out.append("| player | pairs | margin | 95% interval |")
        out.append("|---|---|---|---|")
        for (p, player), r in rows.items():
            if p == preset:
                lo, hi = r["ci95"]
                out.append(f"| `{player}` | {r['pairs']} | {r['margin']:+.2f} | "
                           f"{lo:+.2f} to {hi:+.2f} |")
        out.append("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    if argv is None and len(sys.argv) > 1 and sys.argv[1] == "--table":
        print(table(sys.argv[2:]))
        return 0
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", required=True, help="comma-separated (see above)")
    ap.add_argument("--presets", default=",".join(sorted(PRESETS)))
    ap.add_argument("--reference", default="book")
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--think", type=int, default=100, help="ms a decision (thinking levels)")
    ap.add_argument("--out", required=True)
    ap.add_argument("--end", type=float, default=None, help="Unix time: start no row after")
    a = ap.parse_args(argv)
    random.seed(a.seed)
    for preset in a.presets.split(","):
        rules = get_rules(preset)
        for player in a.players.split(","):
            if a.end is not None and time.time() > a.end:
                print("the end time has passed: stopping", file=sys.stderr)
                return 0
            r = row(rules, player, a.reference, pairs=a.pairs, seed=a.seed, think_ms=a.think)
            r["load_average"] = [round(x, 2) for x in __import__("os").getloadavg()]
            print(json.dumps(r), flush=True)
            with open(a.out, "a", encoding="utf-8") as f:
                f.write(json.dumps(r) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
