"""How much of the other's hand the drawn worlds place right, at each seat's first card.

Issue 16 asks for beliefs that read the other's exchange.  ``bench/clairvoyant.py`` says
what knowing his hand would be worth; this says how close inference gets to knowing it.
For each pack of the tournament (:func:`piquet.tournament.deal_pack`, the same seeds) the
deal is played by two players (``--opponent``, both seats) up to each seat's first play
decision; there the worlds of that seat's view are drawn by each model below, and the
probability each gives every unplaced card of being in the other's hand is scored against
his real hand: the log-loss per card (natural log, probabilities clipped to 0.005..0.995)
and the share of the gap from the dialog alone (``dialog``) to knowing his hand (0) that
the model closes.

- ``dialog``: the sampler's worlds, weighed by the dialog only (``sample_worlds``);
- ``expert``: the expert's worlds (:class:`~piquet.players.beliefs.BeliefModel` with its
  beta, the pool of four resampled, as :class:`~piquet.players.expert.ExpertPlayer` draws
  them; ``--betas`` adds others);
- ``expert-sinkW``: the expert's worlds with a world in which the other sank weighed ``W``
  (``--sink-weights``; the sampler's is :data:`~piquet.analysis.sampling.draw.SINK_WEIGHT`);
- ``policy``: an oracle for what a model of the other's exchange could reach at best here
  when he is a ``book``-like player: each world drawn as the deal was made (which of the
  unplaced cards came from the stock, at random; the rest his dealt hand; his discard
  exactly the book's for that hand and the number he took), then weighed by the dialog and
  checked against what he played and showed.  Only where every stock card was taken and
  this seat saw none of the other's (the common case); elsewhere the decision is skipped
  for every model, so that they are compared on the same decisions.

    PYTHONPATH=src python bench/belief_accuracy.py --preset rubicon --packs 100
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections.abc import Callable

import piquet.analysis.sampling.dialog as dialog_module
from piquet.analysis.sampling import World, dialog_weight, sample_worlds
from piquet.analysis.sampling.draw import Knowledge, knowledge
from piquet.core.actions import Play
from piquet.core.cards import SUIT_MASKS
from piquet.core.deal import ELDER
from piquet.core.declarations import COURTS
from piquet.core.rules import Rules, get_rules
from piquet.core.view import DealView
from piquet.players import make_player
from piquet.players.beliefs import EXCHANGE_BETA, BeliefModel
from piquet.players.common import book_discard
from piquet.players.expert import DEFAULT_POOL
from piquet.tournament import deal_match, deal_pack
from piquet.tournament.pairs import _player_seed

Model = Callable[[DealView, Rules, random.Random], list[World]]


def log_loss(worlds: list[World], truth: int, cards: int) -> float:
    """Mean log-loss over ``cards`` of the worlds' weighted chance that each is in his hand."""
    total = sum(w.weight for w in worlds)
    loss = 0.0
    n = 0
    for c in range(36):
        if not cards >> c & 1:
            continue
        p = sum(w.weight for w in worlds if w.opp_hand >> c & 1) / total
        p = min(0.995, max(0.005, p))
        loss -= math.log(p if truth >> c & 1 else 1.0 - p)
        n += 1
    return loss / max(1, n)


def simple_case(kn: Knowledge, rules: Rules) -> bool:
    """Every stock card taken, none of the other's take seen, no carte blanche."""
    return (kn.opp_exchanged and not kn.seen_stock and not kn.opp_blanche
            and not kn.opp_known_dealt
            and kn.k_elder + kn.k_younger == rules.stock_size)


def policy_worlds(view: DealView, rules: Rules, rng: random.Random, n: int) -> list[World]:
    """Worlds drawn as the deal was made, the other discarding exactly as the book would."""
    kn = knowledge(view, rules)
    other = 1 - view.role
    k = kn.k_younger if other != ELDER else kn.k_elder
    unplaced = [c for c in range(36) if kn.unplaced >> c & 1]
    allowed = sum(SUIT_MASKS[s] for s in range(4) if not kn.void_suits >> s & 1)
    out: list[World] = []
    for _ in range(60 * n):
        took = sum(1 << c for c in rng.sample(unplaced, k))
        dealt = kn.unplaced & ~took
        if dealt & COURTS == 0:
            continue  # a hand without a court would have been shown as carte blanche
        laid = book_discard(dealt, k, k, rules, role=other)
        hand = kn.unplaced & ~laid
        if (kn.opp_known_held & ~hand or hand & kn.excluded or laid & kn.not_laid_out
                or kn.opp_laid_out & ~laid or hand & ~kn.opp_played & ~allowed):
            continue
        weight = dialog_weight(hand, view, rules)
        if weight > 0.0:
            out.append(World(dealt, laid, (), hand & ~kn.opp_played, weight))
            if len(out) == n:
                break
    return out


def with_sink_weight(model: Model, weight: float) -> Model:
    """``model`` with the dialog's weight of a sunk holding set to ``weight`` while it draws."""

    def run(view: DealView, rules: Rules, rng: random.Random) -> list[World]:
        kept = dialog_module.SINK_WEIGHT
        dialog_module.SINK_WEIGHT = weight  # type: ignore[misc]
        try:
            return model(view, rules, rng)
        finally:
            dialog_module.SINK_WEIGHT = kept  # type: ignore[misc]

    return run


def models(betas: list[float], sink_weights: list[float]) -> dict[str, Model]:
    out: dict[str, Model] = {
        "dialog": lambda v, r, rng: sample_worlds(v, r, rng, 4 * 100),
    }
    for beta in betas:
        name = "expert" if beta == EXCHANGE_BETA else f"expert-beta{beta:g}"
        out[name] = (lambda b: lambda v, r, rng: sample_worlds(
            v, r, rng, 100, weigh=BeliefModel(v, r, beta=b), pool=DEFAULT_POOL))(beta)
    for weight in sink_weights:
        out[f"expert-sink{weight:g}"] = with_sink_weight(out["expert"], weight)
    out["policy"] = lambda v, r, rng: policy_worlds(v, r, rng, 200)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--preset", default="rubicon")
    ap.add_argument("--packs", type=int, default=100)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--opponent", default="reference",
                    help="the level playing both seats up to the first card")
    ap.add_argument("--think", type=int, default=100)
    ap.add_argument("--betas", type=float, nargs="*", default=[EXCHANGE_BETA])
    ap.add_argument("--sink-weights", type=float, nargs="*", default=[])
    args = ap.parse_args()
    rules = get_rules(args.preset)
    ms = models(sorted(set([EXCHANGE_BETA, *args.betas])), args.sink_weights)
    loss: dict[str, dict[int, list[float]]] = {name: {0: [], 1: []} for name in ms}
    skipped = 0
    cpu = time.process_time()
    for index in range(args.start, args.start + args.packs):
        pack = deal_pack(rules, args.seed, index)
        for first, elder in ((0, 0), (1, 1)):
            players = tuple(
                make_player(args.opponent, seed=_player_seed(args.seed, index, first, ab),
                            think_ms=args.think) for ab in ("a", "b"))
            for p in players:
                if hasattr(p, "rules"):
                    p.rules = rules
            m = deal_match(rules, pack, elder=elder)
            done: set[int] = set()
            while m.last_deal is None and len(done) < 2:
                seat = m.to_act
                assert seat is not None
                view = m.view(seat)
                dv = view.deal
                if (dv is not None and seat not in done
                        and any(isinstance(a, Play) for a in view.legal_actions)):
                    done.add(seat)
                    kn = knowledge(dv, rules)
                    assert m.deal is not None
                    truth = m.deal.hands[1 - dv.role]
                    cards = kn.unplaced & ~kn.opp_known_held & ~kn.opp_played
                    if simple_case(kn, rules):
                        rng = random.Random(f"{args.seed}:{index}:{first}:{seat}")
                        got = {name: model(dv, rules, rng) for name, model in ms.items()}
                        if all(got.values()):
                            for name, worlds in got.items():
                                loss[name][dv.role].append(log_loss(worlds, truth, cards))
                        else:
                            skipped += 1
                    else:
                        skipped += 1
                m = m.apply(players[seat].choose(view), seat)
        if (index - args.start + 1) % 25 == 0:
            print(f"{index - args.start + 1} packs, {time.process_time() - cpu:.0f} s CPU",
                  flush=True)
    print(f"{args.preset}, {args.packs} packs (seed {args.seed}), {args.opponent} playing both "
          f"seats to the first card; decisions skipped (not the simple case): {skipped}")
    print("| model | seat | decisions | log-loss a card | share of the gap closed |")
    print("|---|---|---|---|---|")
    for role, seat in ((0, "elder"), (1, "younger")):
        base = loss["dialog"][role]
        if not base:
            continue
        b = sum(base) / len(base)
        for name in ms:
            xs = loss[name][role]
            mean = sum(xs) / len(xs)
            print(f"| {name} | {seat} | {len(xs)} | {mean:.4f} | {(b - mean) / b:.1%} |")


if __name__ == "__main__":
    main()
