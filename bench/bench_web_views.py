"""The CPU of a seat's view, in process: whole random games of ``--rules`` are played at a
table, and at every state each seat's body is made as the server makes it
(``piquet.web.showing.seat_body``, a fresh entry per state, the last deal's view kept
per deal as the server keeps it), and, for comparison, the plain way
(``encode(seat_json(...))``).  Reports microseconds of CPU (the thread's) per seat view,
the median of ``--rounds`` passes over the same states.  On a shared machine prefer an
instruction count: run it under ``valgrind --tool=cachegrind`` with ``--rounds 1`` and
``--rounds 3`` and halve the difference.

    .venv/bin/python bench/bench_web_views.py --games 6
    .venv/bin/python bench/bench_web_views.py --src /tmp/main/src   # another tree's
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any


def _states(rules: str, games: int) -> list[tuple[Any, Any]]:
    from piquet.table.state import TableState
    from piquet.web.entries import match_of, seats_of
    from piquet.web.store import GameRow, SeatRow

    out = []
    for seed in range(games):
        seats = (SeatRow(0, "human", None, "Ann", "t", None),
                 SeatRow(1, "ai", "random", "Random", None, None))
        row = GameRow(f"g{seed}", rules, "partie", seed, 1, False, 0, False, 0.0, seats)
        m = match_of(rules, "partie", seed, 1, 2)
        st = TableState.new(row.id, seats_of(row), m)
        rng = random.Random(seed)
        out.append((row, st))
        while not st.over:
            st = st.apply(st.to_act, rng.choice(st.match.legal_actions()))
            out.append((row, st))
    return out


def _pass(states: list[tuple[Any, Any]], plain: bool) -> float:
    from piquet.web.entries import Entry, Live, encode
    from piquet.web.showing import seat_body, seat_json

    t0 = time.thread_time()
    live = None
    for row, st in states:
        same_deal = (live is not None and live.state.game_id == st.game_id
                     and len(live.state.match.deals) == len(st.match.deals))
        live = Live(st, live.last_views) if same_deal and live is not None else Live(st)
        entry = Entry(row, live)
        for seat in (0, 1):
            if plain:
                encode(seat_json(entry, seat))
            else:
                seat_body(entry, seat, {})
    return (time.thread_time() - t0) / (2 * len(states)) * 1e6


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--rules", default="encyclopedia-19c")
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--src", default=None, help="import piquet from this source tree")
    args = ap.parse_args(argv)
    if args.src:
        sys.path.insert(0, str(Path(args.src).resolve()))
    states = _states(args.rules, args.games)
    out: dict[str, Any] = {"states": len(states)}
    for name, plain in (("body_us", False), ("plain_us", True)):
        runs = [_pass(states, plain) for _ in range(args.rounds)]
        out[name] = round(statistics.median(runs), 1)
        out[name.replace("_us", "_runs")] = [round(r, 1) for r in runs]
    print(json.dumps(out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
