"""Does the advisor's pick stand up to verification by play?  Measured over random hands.

Run (niced, it is long; one process)::

    nice -n 10 .venv/bin/python bench/bench_advice.py --presets rubicon --hands 200 \
        --deals 100 --out advice.jsonl
    .venv/bin/python bench/bench_advice.py --summary-of advice.jsonl

``--summary-of``, ``--chance-of`` and ``--replay`` take several runs of different hands
and pool them (the kept runs in ``bench/results`` are read as they are).  After a change to
the ranking, ``--retime`` ranks a run's hands again (and names every pick that changed), and
``--rerun PRESET:HAND ...`` (with the run's ``--opponent``, ``--deals`` and ``--candidates``)
runs the whole protocol again for such hands on the same deals.

For each preset, ``--hands`` random hands (dealt from a seeded pack, elder and
younger in turn) are ranked by :func:`piquet.advisor.advise` with its
defaults; its best ``--candidates`` discards, the book's discard
(:func:`piquet.players.common.book_discard`) and the best by the ranking's
value (the pick had the book not been preferred) are then played out over
the same ``--deals`` deals by :func:`piquet.advisor.verify` (double-dummy
play both sides, the other exchanging as ``--opponent``; the deals are
independent of the ranking's own worlds).  One JSON line per hand goes to
``--out`` as it is done (a run cut short keeps what it measured), with every
candidate's net points deal by deal.

The summary judges, per preset, the run's pick and the pick the ranking would
have made with other book margins (:data:`piquet.advisor.BOOK_MARGIN`: the
rival replaces the book's discard when it is that many paired standard errors
better in the ranking's worlds; 0 is the best by value): how often it is the
best of the verified discards, within the noise of the best (its paired 95%
interval against the best holds 0), worse, and worse than the book's discard
beyond the noise; and its mean gain over the book's discard.
"""

from __future__ import annotations

import argparse
import json
import lzma
import os
import random
import resource
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Final

import numpy as np

from piquet.advisor import BOOK_MARGIN, advise, verify
from piquet.advisor import ranking as rk
from piquet.advisor.deals import Setup, World, worlds
from piquet.advisor.explain import Z95
from piquet.advisor.playout import stacked_deck
from piquet.advisor.verify import paired
from piquet.analysis.drawtables import declaration_pass, discard_masks
from piquet.analysis.odds import deck_mask
from piquet.core.actions import Action, DealBy, Discard
from piquet.core.cards import CardSet, mask_cards
from piquet.core.deal import Deal
from piquet.core.dealtypes import Phase
from piquet.core.rules import PRESETS
from piquet.fast import playout
from piquet.players.common import book_discard


def _cpu() -> float:
    me = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime


#: :func:`_pick`'s margin for the run's own margin without the close call's settling
UNSETTLED: Final = -1.0


def _rows(paths: list[str]) -> list[dict[str, Any]]:
    """The runs' lines, pooled in the order given (a ``.xz`` file, as the kept runs in
    ``bench/results``, is read as is).  A hand measured twice (the same preset and number
    in two files) is refused: pooling it would count it twice."""
    rows: list[dict[str, Any]] = []
    seen: dict[tuple[str, int], str] = {}
    for path in paths:
        with lzma.open(path, "rt") if path.endswith(".xz") else open(path) as f:
            for line in f:
                if not line.strip():
                    continue
                row = json.loads(line)
                key = (str(row["preset"]), int(row["i"]))
                if key in seen:
                    raise SystemExit(
                        f"{path}: {key[0]} hand {key[1]} is already in {seen[key]}; "
                        "pool runs of different hands"
                    )
                seen[key] = path
                rows.append(row)
    return rows


def _pick(row: dict[str, Any], margin: float | None) -> str:
    """The advisor's pick had it used this book margin (None: the run's own pick;
    :data:`UNSETTLED`: the run's margin without the close call's settling).  The other
    margins are applied to the figures after the settling (``book_rule``)."""
    if margin is None:
        return str(row["pick"])
    if margin == UNSETTLED:
        settled = row.get("settled") or {}
        if "worlds" not in settled:
            return str(row["pick"])
        z = settled["z_before"]
        before = z is None or z >= row.get("book_margin", BOOK_MARGIN)
        return str(settled["rival"]) if before else str(row["book_rule"]["discard"])
    book = row["book_rule"]
    if not book or book.get("rival") is None:
        return str(row["top_by_value"])
    z = book.get("z")
    return str(book["rival"]) if z is None or z >= margin else str(book["discard"])


def one_hand(preset: str, i: int, args: argparse.Namespace, pool: Any) -> dict[str, Any]:
    rules = PRESETS[preset]
    rng = random.Random(f"bench-advice-{preset}-{i}")
    pack = list(mask_cards(deck_mask(rules)))
    hand = sum(1 << c for c in rng.sample(pack, 12))
    role = i % 2
    setup = Setup.of(hand, rules, role)
    w, c = time.perf_counter(), time.process_time()
    advice = advise(hand, rules, role=role, seed=i)
    advise_wall, advise_cpu = time.perf_counter() - w, time.process_time() - c
    cands = advice.top(args.candidates)
    book = CardSet(book_discard(hand, setup.lo, setup.hi, rules, role=role))
    rule = advice.method.get("book") or {}
    top_by_value = max(
        (r for r in advice.ranking if r.method != "estimated"), key=lambda r: r.value
    ).discard
    settled = advice.method.get("settled") or {}
    # the pick the ranking would have made without settling a close call, verified too
    unsettled = [CardSet.parse(settled["rival"])] if "worlds" in settled else []
    for extra in (book, top_by_value, *unsettled):
        if extra not in cands:
            cands.append(extra)
    w, c = time.perf_counter(), _cpu()
    ver = verify(
        hand,
        cands,
        rules,
        role=role,
        deals=args.deals,
        seed=i,
        opponent=args.opponent,
        workers=1 if pool is None else args.workers,
        executor=pool,
    )
    verify_wall, verify_cpu = time.perf_counter() - w, _cpu() - c
    pick = ver.get(advice.best)
    vbook = ver.get(book)
    diff, low, high = paired(pick.nets, vbook.nets)
    return {
        "preset": preset,
        "i": i,
        "book_margin": BOOK_MARGIN,
        "opponent": args.opponent,
        "hand": str(CardSet(hand)),
        "role": ("elder", "younger")[role],
        "pick": str(pick.discard),
        "top_by_value": str(top_by_value),
        "book_rule": rule,
        "settled": settled,
        "best": str(ver.best.discard),
        "pick_is_best": pick.discard == ver.best.discard,
        "pick_within_noise": pick.within_noise,
        "pick_diff": round(pick.diff, 3),
        "pick_interval": [round(pick.low, 3), round(pick.high, 3)],
        "book": str(book),
        "pick_minus_book": round(diff, 3),
        "pick_minus_book_interval": [round(low, 3), round(high, 3)],
        "pick_worse_than_book": high < 0,
        "advise_wall_s": round(advise_wall, 3),
        "advise_cpu_s": round(advise_cpu, 3),
        "verify_wall_s": round(verify_wall, 3),
        # the workers' CPU is counted only once they end: not measured with a pool
        "verify_cpu_s": round(verify_cpu, 3) if pool is None else None,
        "candidates": len(ver.candidates),
        "exact_worlds": advice.method.get("exact_worlds"),
        "exact_worlds_least": advice.method.get("exact_worlds_least"),
        "beta": advice.method.get("beta"),
        "ranking_top": [[str(r.discard), round(r.value, 3), r.method] for r in advice.ranking[:6]],
        "nets": {str(v.discard): list(v.nets) for v in ver.candidates},
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hands", type=int, default=30, help="hands per preset")
    parser.add_argument("--start", type=int, default=0, help="the first hand's number")
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--candidates", type=int, default=3)
    parser.add_argument("--opponent", choices=("expert", "book"), default="book")
    parser.add_argument("--presets", default=",".join(PRESETS))
    parser.add_argument("--out", default="advice-bench.jsonl")
    parser.add_argument(
        "--workers", type=int, default=1, help="verification processes (1: in this one)"
    )
    parser.add_argument(
        "--summary-of",
        metavar="FILE",
        nargs="+",
        help="only summarize finished runs (several: pooled)",
    )
    parser.add_argument(
        "--playout-study",
        type=int,
        metavar="WORLDS",
        help="instead: how well the ranking's fast play-out and the kernel's book play-out "
        "follow the exact values, in WORLDS worlds of --hands hands a preset",
    )
    parser.add_argument(
        "--replay",
        metavar="FILE",
        nargs="+",
        help="replay the flagged hands of a finished run (the pick not within the noise of "
        "the best, or worse than the book's discard) on --deals fresh deals",
    )
    parser.add_argument(
        "--chance-of",
        metavar="FILE",
        nargs="+",
        help="the chance level of the protocol (a ranker without fault, the noise alone) "
        "on a finished run's deals, by the bootstrap",
    )
    parser.add_argument(
        "--retime",
        metavar="FILE",
        nargs="+",
        help="rank the hands of finished runs again, one warm process, no verification: "
        "the advice's CPU on this machine as it is now, and whether each pick is the run's",
    )
    parser.add_argument(
        "--rerun",
        metavar="PRESET:HAND",
        nargs="+",
        help="run the whole protocol again for these hands of a finished run (the same hand, "
        "seed and deals; the code as it is now; give the run's --opponent, --deals and "
        "--candidates), appending their lines to --out",
    )
    parser.add_argument("--boots", type=int, default=400, help="bootstrap copies a hand")
    args = parser.parse_args()
    if args.chance_of:
        chance(_rows(args.chance_of), args.boots, 2 * args.deals, 7)
        return
    if args.playout_study:
        presets = [p.strip() for p in args.presets.split(",") if p.strip()]
        playout_study(presets, args.start, args.hands, args.playout_study)
        return
    if args.replay:
        replay(_rows(args.replay), args, os.getloadavg())
        return
    if args.summary_of:
        summarize(_rows(args.summary_of), os.getloadavg())
        return
    if args.retime:
        retime(_rows(args.retime))
        return
    if args.rerun:
        hands = []
        for spec in args.rerun:
            preset, _, number = spec.rpartition(":")
            if preset not in PRESETS or not number.isdigit():
                parser.error(f"{spec!r}: give PRESET:HAND, e.g. du-coeur-1995:2207")
            hands.append((preset, int(number)))
        with open(args.out, "a") as out:
            for preset, i in hands:
                row = one_hand(preset, i, args, None)
                _write(out, row)
                print(f"{preset} {i}: pick {row['pick']}, best {row['best']}", flush=True)
        return
    rows: list[dict[str, Any]] = []
    presets = [p.strip() for p in args.presets.split(",") if p.strip()]
    load = os.getloadavg()
    pool = ProcessPoolExecutor(max_workers=args.workers) if args.workers > 1 else None
    with open(args.out, "a") as out:
        for i in range(args.start, args.start + args.hands):
            for preset in presets:
                row = one_hand(preset, i, args, pool)
                _write(out, row)
                rows.append(row)
    if pool is not None:
        pool.shutdown()
    summarize(rows, load)
    print(f"CPU seconds of the whole run (this process and its workers): {_cpu():.0f}")


def _write(out: Any, row: dict[str, Any]) -> None:
    """A hand's line, with the load beside it, written at once (a run cut short keeps it)."""
    row["load"] = round(os.getloadavg()[0], 2)
    out.write(json.dumps(row) + "\n")
    out.flush()


def retime(rows: list[dict[str, Any]]) -> None:
    """Rank each hand of finished runs again, as the run did (its preset, hand, role and
    seed), in one warm process: the CPU of each advice on this machine now, and the hands
    whose pick is not the run's (the same seed must give the same advice)."""
    load = os.getloadavg()
    first = rows[0]
    advise(CardSet.parse(first["hand"]), PRESETS[first["preset"]], role=0, seed=0)  # warm
    cpu: list[float] = []
    differ = []
    for r in rows:
        role = 0 if r["role"] == "elder" else 1
        c = time.process_time()
        advice = advise(CardSet.parse(r["hand"]), PRESETS[r["preset"]], role=role, seed=r["i"])
        cpu.append(time.process_time() - c)
        if str(advice.best) != r["pick"]:
            differ.append(f"{r['preset']} {r['i']} {r['role']}: {advice.best} (run: {r['pick']})")
    cpu.sort()
    n = len(cpu)
    over = sum(c > 2.0 for c in cpu)
    after = os.getloadavg()
    print(
        f"{n} hands ranked again in one process (load average {load[0]:.1f} before, "
        f"{after[0]:.1f} after): advise CPU median {cpu[n // 2]:.2f} s, 95th percentile "
        f"{cpu[int(0.95 * (n - 1))]:.2f}, 99th {cpu[int(0.99 * (n - 1))]:.2f}, max "
        f"{cpu[-1]:.2f}; over 2 s in {over} ({over / n:.1%})"
    )
    print(f"picks not the run's: {len(differ)}" + "".join(f"\n  {d}" for d in differ))


def _kernel_nets(setup: Setup, ws: list[World], discard: int) -> list[float | None]:
    """The deal's net points in each world after ``discard``, the rest played by the
    kernel's book policy both sides (:func:`piquet.fast.playout`); None where the deal
    goes another way than a plain exchange (carte blanche)."""
    rules = setup.rules
    out: list[float | None] = []
    for j, w in enumerate(ws):
        deck = stacked_deck(setup, w)
        d = Deal.new(rules, deck)
        history: list[Action] = []
        while not (d.phase is Phase.EXCHANGE and d.to_act == setup.role):
            a: Action
            if d.phase is Phase.DEAL:
                a = DealBy(rules.packet_sizes[0])
            elif d.phase is Phase.EXCHANGE:  # elder, when I am younger: the book's
                a = Discard(CardSet(rk._his_exchange(setup, w, 0)[0]))
            else:
                break
            history.append(a)
            d = d.apply(a)
        if not (d.phase is Phase.EXCHANGE and d.to_act == setup.role):
            out.append(None)
            continue
        history.append(Discard(CardSet(discard)))
        got = playout(rules, deck, tuple(history), policy="book", n=1, seed=j).mean_scores
        out.append(got[setup.role] - got[1 - setup.role])
    return out


def _slope_corr(fast: list[list[float]], exact: list[list[float]]) -> tuple[float, float]:
    """Slope and correlation of the exact values on the fast ones, the differences between
    discards (each world's mean over the discards and each discard's mean taken off), as
    the ranking's regression estimator measures them."""
    f = np.array(fast, dtype=float)
    e = np.array(exact, dtype=float)
    f -= f.mean(axis=0)
    e -= e.mean(axis=0)
    f -= f.mean(axis=1, keepdims=True)
    e -= e.mean(axis=1, keepdims=True)
    fe, ff, ee = float((f * e).sum()), float((f * f).sum()), float((e * e).sum())
    return fe / ff if ff else 0.0, fe / np.sqrt(ff * ee) if ff and ee else 0.0


def playout_study(presets: list[str], start: int, hands: int, n_worlds: int) -> None:
    """For each hand, the ranking's candidates are played in ``n_worlds`` worlds; the four
    best by the fast play-out and the book's discard are valued exactly in every world,
    and by the kernel's book play-out (the whole deal: the other's exchange, declarations
    and play by the book's policy).  Prints, per hand, the slope and correlation of the
    exact differences on each fast estimate's: the larger the correlation, the more a
    regression estimator built on it narrows the exact worlds' noise (by 1 - r²)."""
    print(f"load average: {os.getloadavg()[0]:.1f}")
    print(
        "| preset | hand | role | worlds | leaders | solver estimate: slope, r | kernel: slope, r |"
    )
    print("|---|---|---|---|---|---|---|")
    rows = []
    for preset in presets:
        rules = PRESETS[preset]
        for i in range(start, start + hands):
            rng = random.Random(f"bench-advice-study-{preset}-{i}")
            hand = sum(1 << c for c in rng.sample(list(mask_cards(deck_mask(rules))), 12))
            setup = Setup.of(hand, rules, i % 2)
            opp = rk.opponent_model(setup, 100, rng)
            ds = discard_masks(hand, setup.lo, setup.hi)
            res = declaration_pass(
                hand, rules, discards=ds, unseen=setup.unseen, opponent=opp, rng=rng
            )
            chosen, book = rk._candidates(res, setup, 8)
            ws = worlds(setup.unseen, rules, n_worlds, rng)
            sim = rk._PlayOut(setup, ws, None)
            played = {d: sim.run(d) for d in chosen}
            lead = sorted(chosen, key=lambda d: (-sum(played[d].fast), d))[:4]
            if book is not None and book not in lead:
                lead.append(book)
            kern = []
            for d in lead:
                sim.refine(d, played[d], n_worlds)
                kern.append(_kernel_nets(setup, ws, d))
            good = [w for w in range(n_worlds) if all(k[w] is not None for k in kern)]
            exact = [[played[d].exact[w] for w in good] for d in lead]
            fast = [[played[d].fast[w] for w in good] for d in lead]
            kv = [[float(k[w] or 0.0) for w in good] for k in kern]
            sf, cf = _slope_corr(fast, exact)
            sk, ck = _slope_corr(kv, exact)
            rows.append((cf, ck))
            print(
                f"| {preset} | {i} | {('elder', 'younger')[i % 2]} | {len(good)} | {len(lead)} "
                f"| {sf:.2f}, {cf:.2f} | {sk:.2f}, {ck:.2f} |",
                flush=True,
            )
    if rows:
        n = len(rows)
        print(
            f"\nmean r: solver estimate {sum(r[0] for r in rows) / n:.3f}, kernel "
            f"{sum(r[1] for r in rows) / n:.3f}; the kernel's larger in "
            f"{sum(r[1] > r[0] for r in rows)} of {n} hands"
        )


#: added to a hand's seed for its replay: deals the run's verification did not use
REPLAY_SEED: Final = 1_000_000


def replay(rows: list[dict[str, Any]], args: argparse.Namespace, load: Any) -> None:
    """Play the flagged hands' pick, best verified and book's discard again on ``--deals``
    fresh deals (the other exchanging as in the run), and count those still worse.

    A hand is flagged when its pick is not within the noise of the best verified, or is
    worse than the book's discard beyond the noise.  Still worse: the pick's paired 95%
    interval against the new best of the three (or against the book's discard) lies
    below 0."""
    print(f"load average: {load[0]:.1f}")
    flagged = []
    for r in rows:
        if "nets" not in r:
            continue
        _, noise, book_worse, _ = _judge(r, r["pick"])
        if not noise or book_worse:
            flagged.append((r, not noise, book_worse))
    print(f"{len(flagged)} flagged hands of {len(rows)}; replayed on {args.deals} fresh deals")
    print(
        "| preset | hand | role | flag | pick | best | pick − best [95%] | pick − book [95%] "
        "| still worse |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    still = 0
    for r, vs_best, vs_book in flagged:
        rules = PRESETS[r["preset"]]
        hand = CardSet.parse(r["hand"])
        cands = [r["pick"], r["best"], r["book"]]
        ver = verify(
            hand,
            [CardSet.parse(c) for c in dict.fromkeys(cands)],
            rules,
            role=0 if r["role"] == "elder" else 1,
            deals=args.deals,
            seed=r["i"] + REPLAY_SEED,
            opponent=r.get("opponent", args.opponent),
            workers=1,
        )
        pick = ver.get(CardSet.parse(r["pick"]))
        best = ver.best
        d_best, lo_best, hi_best = paired(pick.nets, best.nets)
        d_book, lo_book, hi_book = paired(pick.nets, ver.get(CardSet.parse(r["book"])).nets)
        worse = hi_best < 0 or hi_book < 0
        still += worse
        flag = " and ".join(
            x
            for x, on in (("not within the noise", vs_best), ("worse than the book", vs_book))
            if on
        )
        print(
            f"| {r['preset']} | {r['i']} | {r['role']} | {flag} | {r['pick']} | "
            f"{best.discard} | {d_best:+.2f} [{lo_best:+.2f}, {hi_best:+.2f}] | "
            f"{d_book:+.2f} [{lo_book:+.2f}, {hi_book:+.2f}] | {'yes' if worse else 'no'} |",
            flush=True,
        )
    print(
        f"\nstill worse on {args.deals} fresh deals: {still} of {len(flagged)} flagged "
        f"({still / max(len(rows), 1):.1%} of {len(rows)} hands)"
    )


def _interval_high(x: np.ndarray, n: int) -> np.ndarray:
    """The upper end of the paired 95% interval of the mean of ``x`` (boots × deals)."""
    sd = x.std(axis=-1, ddof=1)
    return x.mean(axis=-1) + Z95 * sd / np.sqrt(n)


def _two_stage(
    x: np.ndarray, pick: int, book: int, rng: np.random.Generator, boots: int, fresh: int
) -> tuple[float, float, float]:
    """The protocol of the measurement on bootstrap copies of one hand's deals ``x``
    (deals × candidates), where ``pick`` is what a ranker chose: (the chance it is not
    within the noise of the best, the chance it is also still worse on ``fresh`` deals
    against the best of the pick, the flagged best and the book's discard or against the
    book's discard, the chance it is worse than the book's discard in both)."""
    n = x.shape[0]
    idx = rng.integers(0, n, size=(boots, n))
    s1 = x[idx]  # boots × n × m
    best = s1.mean(axis=1).argmax(axis=1)
    d_best = s1[:, :, pick] - s1[np.arange(boots)[:, None], np.arange(n)[None, :], best[:, None]]
    flag_best = (best != pick) & (_interval_high(d_best, n) < 0)
    flag_book = _interval_high(s1[:, :, pick] - s1[:, :, book], n) < 0
    flagged = flag_best | flag_book
    idx2 = rng.integers(0, n, size=(boots, fresh))
    s2 = x[idx2]
    still = np.zeros(boots, dtype=bool)
    book2 = np.zeros(boots, dtype=bool)
    for b in np.flatnonzero(flagged):
        three = sorted({pick, int(best[b]), book})
        means = s2[b][:, three].mean(axis=0)
        nb = three[int(means.argmax())]
        worse_best = nb != pick and _interval_high(s2[b][:, pick] - s2[b][:, nb], fresh) < 0
        worse_book = _interval_high(s2[b][:, pick] - s2[b][:, book], fresh) < 0
        still[b] = bool(worse_best or worse_book)
        book2[b] = bool(flag_book[b] and worse_book)
    return float(flag_best.mean()), float(still.mean()), float(book2.mean())


def chance(rows: list[dict[str, Any]], boots: int, fresh: int, seed: int) -> None:
    """What a ranker without fault would score by the protocol, the noise alone: each
    hand's verified deals resampled (the bootstrap) as the first verification and, for
    the hands it flags, again as ``fresh`` fresh deals.  Two worlds: ``true best`` (the
    candidates' means as measured are the truth, and the pick is the best of them) and
    ``ties`` (every candidate made equal to their common mean, the worst case for the
    test; the pick is the run's).  Also the run's pick on the same copies (its
    bootstrap rate, to set beside the real one) and the first stage of a pick drawn at
    random among the advisor's top three (the order shuffled)."""
    rng = np.random.default_rng(seed)
    rows = [r for r in rows if "nets" in r]
    print(f"{len(rows)} hands, {boots} bootstrap copies each, {fresh} fresh deals")
    tot = {"true best": [0.0, 0.0, 0.0], "ties": [0.0, 0.0, 0.0], "run's pick": [0.0, 0.0, 0.0]}
    shuffled = 0.0
    for r in rows:
        names = list(r["nets"])
        x = np.array([r["nets"][d] for d in names], dtype=float).T
        pick, book = names.index(r["pick"]), names.index(r["book"])
        best = int(x.mean(axis=0).argmax())
        ties = x - x.mean(axis=0) + x.mean()
        for key, data, p in (("true best", x, best), ("ties", ties, pick), ("run's pick", x, pick)):
            got = _two_stage(data, p, book, rng, boots, fresh)
            for j in range(3):
                tot[key][j] += got[j]
        top3 = names[: min(3, len(names))]
        shuffled += sum(_judge(r, d)[1] for d in top3) / len(top3)
    n = len(rows)
    print(
        "| pick | not within the noise | still worse on fresh deals | worse than the book, both |"
    )
    print("|---|---|---|---|")
    for key, (a, b, c) in tot.items():
        print(
            f"| {key} (expected) | {a:.1f} ({a / n:.1%}) | {b:.1f} ({b / n:.1%}) | "
            f"{c:.2f} ({c / n:.2%}) |"
        )
    print(
        f"\nA pick drawn at random among the advisor's top three: within the noise in "
        f"{shuffled:.1f} of {n} ({shuffled / n:.1%}) on the run's own deals"
    )


def _judge(row: dict[str, Any], pick: str) -> tuple[bool, bool, bool, float]:
    """(best, within the noise of the best verified, worse than the book, pick - book)."""
    nets = row["nets"]
    mean = {d: sum(v) / len(v) for d, v in nets.items()}
    best = max(mean, key=lambda d: mean[d])
    _, _, high = paired(nets[pick], nets[best])
    d, _, hb = paired(nets[pick], nets[row["book"]])
    return pick == best, pick == best or high >= 0, hb < 0, d


def summarize(rows: list[dict[str, Any]], load: tuple[float, float, float]) -> None:
    """The table of :func:`_table` for each book margin the runs used (1.0 before it was
    recorded): the hands of a margin chosen on earlier hands are held out."""
    print(f"load average: {load[0]:.1f}")
    for used in sorted({r.get("book_margin", 1.0) for r in rows}):
        part = [r for r in rows if r.get("book_margin", 1.0) == used]
        print(f"\nHands ranked with book margin {used:g} (the run's pick):")
        _table(part)


def _table(rows: list[dict[str, Any]]) -> None:
    margins: list[tuple[str, float | None]] = [
        ("the run's pick", None),
        ("top by value (margin 0)", 0.0),
        ("margin 0.5", 0.5),
        ("margin 1", 1.0),
        ("margin 1.5", 1.5),
        ("margin 2", 2.0),
        ("without the settling", UNSETTLED),
    ]
    rows = [r for r in rows if "nets" in r]
    print(
        "| preset | pick | hands | pick best | within the noise | worse | worse than the book | "
        "pick − book (mean) | advise CPU s (median, max) | verify CPU s (median) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    groups = sorted({r["preset"] for r in rows})
    for preset in [*groups, "all"]:
        rs = [r for r in rows if preset in ("all", r["preset"])]
        n = len(rs)
        if not n:
            continue
        cpu = sorted(r["advise_cpu_s"] for r in rs)
        vs = sorted(r["verify_cpu_s"] for r in rs if r.get("verify_cpu_s") is not None)
        ver = f"{vs[len(vs) // 2]:.0f}" if vs else "-"
        for name, margin in margins:
            judged = [_judge(r, _pick(r, margin)) for r in rs]
            best = sum(j[0] for j in judged)
            noise = sum(j[1] for j in judged)
            book = sum(j[2] for j in judged)
            gain = sum(j[3] for j in judged) / n
            print(
                f"| {preset} | {name} | {n} | {best} | {noise} | {n - noise} | {book} | "
                f"{gain:+.2f} | {cpu[n // 2]:.2f}, {cpu[-1]:.2f} | {ver} |"
            )
    cpu = sorted(r["advise_cpu_s"] for r in rows)
    if cpu:
        over = sum(c > 2.0 for c in cpu)
        loads = [r["load"] for r in rows if "load" in r]
        print(
            f"\nadvise CPU: median {cpu[len(cpu) // 2]:.2f} s, 95th percentile "
            f"{cpu[int(0.95 * (len(cpu) - 1))]:.2f}, max {cpu[-1]:.2f}; over 2 s in {over} of "
            f"{len(cpu)} hands ({over / len(cpu):.1%})"
            + (
                f"; load average beside the hands {min(loads):.1f} to {max(loads):.1f}"
                if loads
                else ""
            )
        )


if __name__ == "__main__":
    main()
