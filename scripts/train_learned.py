#!/usr/bin/env python3
"""Train the ``learned`` level's card play by self-play PPO on ``piquet.fast.VectorEnv``.

What is learned is the card play only: in ``VectorEnv`` the agent plays every card of both
players, and the kernel's book policy makes the exchange and the declarations (the
environment's share today).  One small network (an MLP, 153 -> H -> H -> 36 card logits and
a value) is trained on all six presets at once, each in its own ``VectorEnv``.

Reward: the points of the deal.  Each decision of a player is rewarded with the change of
(his points - the other's) up to his next decision (read from the observation: the deal's
points and the game scores); his last card of a deal gets the rest of that deal (the new
deal's game scores minus his total at that card), and the deal ends his episode (gamma 1,
GAE lambda 0.95).  A game's last deal: its end is not observed (the next observation is a
new game's), so the cards after his last decision of the game go unrewarded (0).

Every random choice comes from ``--seed`` (torch's generator, the environments' seeds).
Torch runs on one thread, the environments on one thread each; run it under
``nice -n 15``.  Checkpoints are written when the process's CPU time passes each of
``--checkpoints`` minutes; the curve (one line an update) goes to ``curve.csv`` and a plot
to ``curve.svg`` (matplotlib, when installed, else none).  Export: ``learned-<M>min.npz``
(float32 weights and the facts of the run), what :mod:`piquet.players.learned` reads.

Needs the ``train`` extra (``pip install -e '.[train]'``: PyTorch); playing never does.

    nice -n 15 .venv/bin/python scripts/train_learned.py --out runs/learned --seed 1 \\
        --checkpoints 1,2,5,10,20
"""

from __future__ import annotations

import argparse
import csv
import sys
import time
from pathlib import Path

import numpy as np
import torch
from torch import nn

from piquet.core.rules import PRESETS
from piquet.fast import VectorEnv
from piquet.fast.batch import OBS_SIZE

OBS = OBS_SIZE


class Net(nn.Module):
    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.l1 = nn.Linear(OBS, hidden)
        self.l2 = nn.Linear(hidden, hidden)
        self.pi = nn.Linear(hidden, 36)
        self.v = nn.Linear(hidden, 1)
        nn.init.orthogonal_(self.pi.weight, 0.01)
        nn.init.zeros_(self.pi.bias)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = torch.tanh(self.l2(torch.tanh(self.l1(x))))
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)


def export(net: Net, path: Path, facts: dict[str, object]) -> None:
    sd = {k: v.detach().cpu().numpy().astype(np.float32) for k, v in net.state_dict().items()}
    np.savez_compressed(
        path,
        w1=sd["l1.weight"].T, b1=sd["l1.bias"], w2=sd["l2.weight"].T, b2=sd["l2.bias"],
        wp=sd["pi.weight"].T, bp=sd["pi.bias"], wv=sd["v.weight"].T, bv=sd["v.bias"],
        facts=np.array(repr(sorted(facts.items()))),
    )


def bits(x: np.ndarray) -> np.ndarray:
    return (x > 0.5)


# ---------------------------------------------------------------------- the whole game

GAME_OBS = 717  # GameEnv(tensor="observation"): piquet.fast.game.OBSERVATION_SIZE
GAME_ACTIONS = 480  # the shared action ids: piquet.fast.game.NUM_ACTIONS
DEAL_POINTS_AT = 710  # the observation's deal points of the seat and of the other (/300)


class WholeNet(nn.Module):
    """717 observation values -> H1 -> H2 (tanh) -> 480 action logits and a value."""

    def __init__(self, h1: int, h2: int) -> None:
        super().__init__()
        self.l1 = nn.Linear(GAME_OBS, h1)
        self.l2 = nn.Linear(h1, h2)
        self.pi = nn.Linear(h2, GAME_ACTIONS)
        self.v = nn.Linear(h2, 1)
        nn.init.orthogonal_(self.pi.weight, 0.01)
        nn.init.zeros_(self.pi.bias)

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        h = torch.tanh(self.l2(torch.tanh(self.l1(x))))
        logits = self.pi(h).masked_fill(~mask, -1e9)
        return logits, self.v(h).squeeze(-1)


def export_whole(net: WholeNet, path: Path, facts: dict[str, object]) -> None:
    """float16 weights (the level computes in float32): a network of 717-256-128-480 is
    about 0.5 MB."""
    sd = {k: v.detach().cpu().numpy().astype(np.float16) for k, v in net.state_dict().items()}
    np.savez_compressed(
        path,
        w1=sd["l1.weight"].T, b1=sd["l1.bias"], w2=sd["l2.weight"].T, b2=sd["l2.bias"],
        wp=sd["pi.weight"].T, bp=sd["pi.bias"], wv=sd["v.weight"].T, bv=sd["v.bias"],
        facts=np.array(repr(sorted(facts.items()))),
    )


def _deal_phi(o: np.ndarray) -> np.ndarray:
    """The deal's points of the seat the observation is for minus the other's."""
    return np.rint(300 * (o[:, DEAL_POINTS_AT].astype(np.float64) - o[:, DEAL_POINTS_AT + 1]))


def _ppo_update(net: nn.Module, opt: torch.optim.Optimizer, a: argparse.Namespace,
                rng: np.random.Generator, X: torch.Tensor, M: torch.Tensor, A: torch.Tensor,
                LP: torch.Tensor, ADV: torch.Tensor, RET: torch.Tensor) -> tuple[float, ...]:
    n = len(A)
    pl = vl = en = 0.0
    k = 0
    for _ in range(a.epochs):
        perm = torch.from_numpy(rng.permutation(n))
        for s in range(0, n, a.minibatch):
            mb = perm[s:s + a.minibatch]
            logits, v = net(X[mb], M[mb])
            logp_all = torch.log_softmax(logits, -1)
            lp = logp_all.gather(1, A[mb][:, None]).squeeze(1)
            ratio = torch.exp(lp - LP[mb])
            s1 = ratio * ADV[mb]
            s2 = torch.clamp(ratio, 1 - a.clip, 1 + a.clip) * ADV[mb]
            ploss = -torch.min(s1, s2).mean()
            vloss = 0.5 * ((v - RET[mb]) ** 2).mean()
            p = logp_all.exp()
            ent = -(p * logp_all.clamp_min(-1e4)).sum(-1).mean()
            loss = ploss + 0.5 * vloss - a.ent * ent
            opt.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(net.parameters(), 0.5)
            opt.step()
            pl, vl, en, k = pl + ploss.item(), vl + vloss.item(), en + ent.item(), k + 1
    return pl / k, vl / k, en / k


def main_game(a: argparse.Namespace) -> int:
    """Self-play PPO on GameEnv: every decision of single deals of every preset."""
    from piquet.fast import GameEnv

    rng = np.random.default_rng(a.seed)
    marks = [float(x) for x in a.checkpoints.split(",")]
    presets = sorted(PRESETS)
    envs = [GameEnv(a.envs, rules=name, format="deal", tensor="observation",
                    seed=a.seed * 1000 + k, threads=1) for k, name in enumerate(presets)]
    N = a.envs * len(envs)
    T = a.steps
    firsts = [e.reset() for e in envs]
    obs = np.concatenate([f[0] for f in firsts])
    masks = np.concatenate([f[1]["action_mask"] for f in firsts])
    to_play = np.concatenate([f[1]["to_play"] for f in firsts]).astype(np.int64)
    net = WholeNet(a.hidden, a.hidden2)
    opt = torch.optim.Adam(net.parameters(), lr=a.lr, eps=1e-5)
    pend_idx = np.full((N, 2), -1, dtype=np.int64)  # each seat's last decision (flat index)
    pend_phi = np.zeros((N, 2))  # and its deal points minus the other's then
    curve = (a.out / "curve.csv").open("w", newline="")
    log = csv.writer(curve)
    log.writerow(["update", "cpu_s", "decisions", "deals", "mean_abs_deal_points",
                  "policy_loss", "value_loss", "entropy", "explained_var"])
    decisions = deals = upd = 0
    rows = np.arange(N)
    while True:
        B_obs = np.zeros((T, N, GAME_OBS), np.float32)
        B_mask = np.zeros((T, N, GAME_ACTIONS), bool)
        B_act = np.zeros((T, N), np.int64)
        B_logp = np.zeros((T, N), np.float32)
        B_val = np.zeros((T, N), np.float32)
        B_rew = np.full((T, N), np.nan)
        B_term = np.zeros((T, N), bool)
        B_next = np.full((T, N), -1, np.int64)
        pend_idx[:] = -1  # decisions of the last rollout left open are dropped
        ended_abs = []
        rew_flat, term_flat, next_flat = B_rew.reshape(-1), B_term.reshape(-1), B_next.reshape(-1)
        for t in range(T):
            phi = _deal_phi(obs)
            pi = pend_idx[rows, to_play]
            has = pi >= 0
            flat = t * N + rows
            rew_flat[pi[has]] = (phi - pend_phi[rows, to_play])[has]
            next_flat[pi[has]] = flat[has]
            with torch.no_grad():
                logits, v = net(torch.from_numpy(obs), torch.from_numpy(masks))
                act = torch.distributions.Categorical(logits=logits).sample()
                logp = torch.log_softmax(logits, -1).gather(1, act[:, None]).squeeze(1)
            B_obs[t], B_mask[t] = obs, masks
            B_act[t], B_logp[t], B_val[t] = act.numpy(), logp.numpy(), v.numpy()
            pend_idx[rows, to_play] = flat
            pend_phi[rows, to_play] = phi
            acts = act.numpy()
            outs = []
            lo = 0
            for e in envs:
                outs.append(e.step(acts[lo:lo + e.num_envs]))
                lo += e.num_envs
            obs = np.concatenate([x[0] for x in outs])
            masks = np.concatenate([x[4]["action_mask"] for x in outs])
            to_play = np.concatenate([x[4]["to_play"] for x in outs]).astype(np.int64)
            done = np.concatenate([x[2] | x[3] for x in outs])
            if done.any():
                returns = np.concatenate([
                    x[4]["final_info"]["returns"] if "final_info" in x[4]
                    else np.zeros((e.num_envs, 2)) for x, e in zip(outs, envs, strict=True)])
                for p in (0, 1):
                    ended = done & (pend_idx[:, p] >= 0)
                    rew_flat[pend_idx[ended, p]] = returns[ended, p] - pend_phi[ended, p]
                    term_flat[pend_idx[ended, p]] = True
                    pend_idx[done, p] = -1
                ended_abs.extend(np.abs(returns[done, 0]).tolist())
        # GAE along each seat's decisions (gamma 1), rewards in tens of points
        known = ~np.isnan(rew_flat)
        val = B_val.reshape(-1).astype(np.float64)
        adv = np.zeros(T * N)
        r10 = np.where(known, rew_flat, 0.0) / 10.0
        for t in reversed(range(T)):
            sl = slice(t * N, (t + 1) * N)
            nx = next_flat[sl]
            ok = (nx >= 0) & ~term_flat[sl]
            vnext = np.where(ok, val[np.maximum(nx, 0)], 0.0)
            a_next = np.where(ok, adv[np.maximum(nx, 0)], 0.0)
            adv[sl] = np.where(known[sl], r10[sl] + vnext - val[sl] + a.lam * a_next, 0.0)
        ret = adv + val
        idx = np.flatnonzero(known)
        ADV = torch.from_numpy(adv[idx]).float()
        pl, vl, en = _ppo_update(
            net, opt, a, rng, torch.from_numpy(B_obs.reshape(-1, GAME_OBS)[idx]),
            torch.from_numpy(B_mask.reshape(-1, GAME_ACTIONS)[idx]),
            torch.from_numpy(B_act.reshape(-1)[idx]), torch.from_numpy(B_logp.reshape(-1)[idx]),
            (ADV - ADV.mean()) / (ADV.std() + 1e-8), torch.from_numpy(ret[idx]).float())
        upd += 1
        decisions += T * N
        deals += len(ended_abs)
        cpu = time.process_time() - a.cpu0
        ev = 1 - float(np.var(ret[idx] - val[idx]) / (np.var(ret[idx]) + 1e-12))
        log.writerow([upd, round(cpu, 1), decisions, deals,
                      round(float(np.mean(ended_abs)) if ended_abs else 0.0, 2),
                      round(pl, 5), round(vl, 5), round(en, 4), round(ev, 4)])
        curve.flush()
        late = a.wall_end is not None and time.time() >= a.wall_end
        while marks and (cpu >= marks[0] * 60 or late):
            m = marks.pop(0)
            name = f"learned-whole-{m:g}min.npz"
            export_whole(net, a.out / name, {
                "cpu_minutes": round(cpu / 60, 2), "decisions": decisions, "deals": deals,
                "updates": upd, "seed": a.seed, "hidden": f"{a.hidden},{a.hidden2}",
                "presets": ",".join(presets),
                "env": "piquet.fast.GameEnv (format deal, tensor observation: every decision)",
                "algorithm": "PPO self-play", "obs_size": GAME_OBS})
            print(f"checkpoint {name}: {cpu / 60:.2f} CPU-min, {decisions} decisions, "
                  f"{deals} deals", flush=True)
            if late:
                marks = []
        if not marks:
            break
    curve.close()
    plot(a.out)
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--env", choices=("game", "cards"), default="game",
                    help="game: GameEnv, every decision of single deals (the default); "
                         "cards: VectorEnv, the card play only (the book does the rest)")
    ap.add_argument("--envs", type=int, default=None,
                    help="games per preset (game: 32, cards: 64)")
    ap.add_argument("--steps", type=int, default=None, help="steps a rollout (game: 128, "
                    "cards: 64)")
    ap.add_argument("--hidden", type=int, default=None, help="first layer (game: 256, "
                    "cards: 128)")
    ap.add_argument("--hidden2", type=int, default=128, help="second layer (game only)")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--epochs", type=int, default=None, help="game: 3, cards: 4")
    ap.add_argument("--minibatch", type=int, default=4096)
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--ent", type=float, default=0.01)
    ap.add_argument("--lam", type=float, default=0.95)
    ap.add_argument("--checkpoints", default="1,2,5,10,20",
                    help="CPU-minutes at which to write a checkpoint; the last ends the run")
    ap.add_argument("--wall-end", type=float, default=None,
                    help="stop (after a last checkpoint) at this Unix time whatever the CPU")
    a = ap.parse_args(argv)
    game = a.env == "game"
    a.epochs = a.epochs or (3 if game else 4)
    a.envs = a.envs or (32 if game else 64)
    a.steps = a.steps or (128 if game else 64)
    a.hidden = a.hidden or (256 if game else 128)
    torch.set_num_threads(1)
    torch.manual_seed(a.seed)
    a.out.mkdir(parents=True, exist_ok=True)
    a.cpu0 = time.process_time()
    if game:
        return main_game(a)
    rng = np.random.default_rng(a.seed)
    marks = [float(x) for x in a.checkpoints.split(",")]
    presets = sorted(PRESETS)
    envs = [VectorEnv(a.envs, rules=name, seed=a.seed * 1000 + k, threads=1)
            for k, name in enumerate(presets)]
    N = a.envs * len(envs)
    T = a.steps
    obs = np.concatenate([e.reset()[0] for e in envs])
    masks = np.concatenate([e.action_masks() for e in envs])
    to_play = np.concatenate([e._infos()["to_play"] for e in envs]).astype(np.int64)
    net = Net(a.hidden)
    opt = torch.optim.Adam(net.parameters(), lr=a.lr, eps=1e-5)
    # per (game, player): the flat index (in this rollout) of his last decision, its
    # potential (his total points - the other's) and hand
    pend_idx = np.full((N, 2), -1, dtype=np.int64)
    pend_phi = np.zeros((N, 2))
    pend_hand = np.zeros((N, 2, 36), dtype=bool)
    curve = (a.out / "curve.csv").open("w", newline="")
    log = csv.writer(curve)
    log.writerow(["update", "cpu_s", "decisions", "points_per_decision", "policy_loss",
                  "value_loss", "entropy", "explained_var", "deals_ended"])
    cpu0 = time.process_time()
    decisions = 0
    upd = 0
    rows = np.arange(N)
    while True:
        B_obs = np.zeros((T, N, OBS), np.float32)
        B_mask = np.zeros((T, N, 36), bool)
        B_act = np.zeros((T, N), np.int64)
        B_logp = np.zeros((T, N), np.float32)
        B_val = np.zeros((T, N), np.float32)
        B_rew = np.full((T, N), np.nan)
        B_term = np.zeros((T, N), bool)
        B_next = np.full((T, N), -1, np.int64)
        pend_idx[:] = -1  # a new rollout: decisions of the last one are settled or dropped
        deals_ended = 0
        for t in range(T):
            o = obs
            phi = np.rint(100 * ((o[:, 150] + o[:, 148]) - (o[:, 151] + o[:, 149])))
            hand = bits(o[:, :36])
            # settle each player's previous decision with this one
            pi = pend_idx[rows, to_play]
            has = pi >= 0
            same = has & (hand.sum(1) < pend_hand[rows, to_play].sum(1)) & \
                ~(hand & ~pend_hand[rows, to_play]).any(1)
            newdeal = has & ~same
            gain = np.where(same, phi - pend_phi[rows, to_play],
                            np.rint(100 * (o[:, 150] - o[:, 151])) - pend_phi[rows, to_play])
            flat = t * N + rows
            B_rew.reshape(-1)[pi[has]] = gain[has]
            B_term.reshape(-1)[pi[newdeal]] = True
            B_next.reshape(-1)[pi[same]] = flat[same]
            deals_ended += int(newdeal.sum())
            with torch.no_grad():
                logits, v = net(torch.from_numpy(o), torch.from_numpy(masks))
                dist = torch.distributions.Categorical(logits=logits)
                act = dist.sample()
                logp = dist.log_prob(act)
            B_obs[t], B_mask[t] = o, masks
            B_act[t], B_logp[t], B_val[t] = act.numpy(), logp.numpy(), v.numpy()
            pend_idx[rows, to_play] = flat
            pend_phi[rows, to_play] = phi
            pend_hand[rows, to_play] = hand
            acts = act.numpy()
            outs = []
            lo = 0
            for e in envs:
                outs.append(e.step(acts[lo:lo + e.num_envs]))
                lo += e.num_envs
            obs = np.concatenate([x[0] for x in outs])
            done = np.concatenate([x[2] for x in outs])
            masks = np.concatenate([x[4]["action_mask"] for x in outs])
            to_play = np.concatenate([x[4]["to_play"] for x in outs]).astype(np.int64)
            # a game over: the last decisions of both players end unrewarded
            for p in (0, 1):
                ended = done & (pend_idx[:, p] >= 0)
                B_rew.reshape(-1)[pend_idx[ended, p]] = 0.0
                B_term.reshape(-1)[pend_idx[ended, p]] = True
                pend_idx[done, p] = -1
        # GAE along each player's decisions
        rew = B_rew.reshape(-1)
        known = ~np.isnan(rew)
        val = B_val.reshape(-1).astype(np.float64)
        term = B_term.reshape(-1)
        nxt = B_next.reshape(-1)
        adv = np.zeros(T * N)
        r10 = np.where(known, rew, 0.0) / 10.0
        for t in reversed(range(T)):
            sl = slice(t * N, (t + 1) * N)
            nx = nxt[sl]
            ok = (nx >= 0) & ~term[sl]
            vnext = np.where(ok, val[np.maximum(nx, 0)], 0.0)
            a_next = np.where(ok, adv[np.maximum(nx, 0)], 0.0)
            adv[sl] = np.where(known[sl], r10[sl] + vnext - val[sl] + a.lam * a_next, 0.0)
        ret = adv + val
        idx = np.flatnonzero(known)
        X = torch.from_numpy(B_obs.reshape(-1, OBS)[idx])
        M = torch.from_numpy(B_mask.reshape(-1, 36)[idx])
        A = torch.from_numpy(B_act.reshape(-1)[idx])
        LP = torch.from_numpy(B_logp.reshape(-1)[idx])
        ADV = torch.from_numpy(adv[idx]).float()
        ADV = (ADV - ADV.mean()) / (ADV.std() + 1e-8)
        RET = torch.from_numpy(ret[idx]).float()
        n = len(idx)
        pl = vl = en = 0.0
        k = 0
        for _ in range(a.epochs):
            perm = torch.from_numpy(rng.permutation(n))
            for s in range(0, n, a.minibatch):
                mb = perm[s:s + a.minibatch]
                logits, v = net(X[mb], M[mb])
                dist = torch.distributions.Categorical(logits=logits)
                lp = dist.log_prob(A[mb])
                ratio = torch.exp(lp - LP[mb])
                s1 = ratio * ADV[mb]
                s2 = torch.clamp(ratio, 1 - a.clip, 1 + a.clip) * ADV[mb]
                ploss = -torch.min(s1, s2).mean()
                vloss = 0.5 * ((v - RET[mb]) ** 2).mean()
                # entropy over the legal cards only (masked logits give 0 probability)
                p = torch.softmax(logits, -1)
                ent = -(p * torch.log(p.clamp_min(1e-12))).sum(-1).mean()
                loss = ploss + 0.5 * vloss - a.ent * ent
                opt.zero_grad()
                loss.backward()
                nn.utils.clip_grad_norm_(net.parameters(), 0.5)
                opt.step()
                pl, vl, en, k = pl + ploss.item(), vl + vloss.item(), en + ent.item(), k + 1
        upd += 1
        decisions += T * N
        cpu = time.process_time() - cpu0
        ev = 1 - float(np.var(ret[idx] - val[idx]) / (np.var(ret[idx]) + 1e-12))
        log.writerow([upd, round(cpu, 1), decisions, round(float(np.mean(rew[known])), 4),
                      round(pl / k, 5), round(vl / k, 5), round(en / k, 4), round(ev, 4),
                      deals_ended])
        curve.flush()
        late = a.wall_end is not None and time.time() >= a.wall_end
        while marks and (cpu >= marks[0] * 60 or late):
            m = marks.pop(0)
            name = f"learned-{m:g}min.npz"
            export(net, a.out / name, {
                "cpu_minutes": round(cpu / 60, 2), "decisions": decisions, "updates": upd,
                "seed": a.seed, "hidden": a.hidden, "presets": ",".join(presets),
                "env": "piquet.fast.VectorEnv (card play; book exchange and declarations)",
                "algorithm": "PPO self-play", "obs_size": OBS})
            print(f"checkpoint {name}: {cpu / 60:.2f} CPU-min, {decisions} decisions",
                  flush=True)
            if late:
                marks = []
        if not marks:
            break
    curve.close()
    plot(a.out)
    return 0


def plot(out: Path) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plot", file=sys.stderr)
        return
    with (out / "curve.csv").open() as f:
        rows = list(csv.DictReader(f))
    x = [float(r["cpu_s"]) / 60 for r in rows]
    fig, axes = plt.subplots(1, 3, figsize=(12, 3.2))
    for ax, key, title in zip(axes, ("entropy", "value_loss", "explained_var"),
                              ("policy entropy (nats)", "value loss", "value: explained variance"),
                              strict=True):
        ax.plot(x, [float(r[key]) for r in rows])
        ax.set_title(title)
        ax.set_xlabel("CPU-minutes")
    fig.tight_layout()
    fig.savefig(out / "curve.svg")


if __name__ == "__main__":
    sys.exit(main())
