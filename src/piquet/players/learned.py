"""``learned``: the card play of a small neural network trained by self-play; the rest by the book.

The network was trained with PPO by ``scripts/train_learned.py`` on
:class:`piquet.fast.VectorEnv`, where the agent plays the cards and the kernel's book policy
makes every other choice (the exchange, the declarations).  So this level plays the cards
with the network and makes every other choice as ``book`` does (:mod:`piquet.players.book`).
docs/baselines.md says how it was trained and how strong it is.

The network sees exactly ``VectorEnv``'s observation (:func:`observation` builds it from a
player's :class:`~piquet.core.match.MatchView`; ``tests/test_learned.py`` checks it equals the
environment's over random games of every preset): its hand, its discards, the cards played
in the deal, the card led to this trick, whether it is elder, the trick number, the tricks
each has won, the deal's points and the game scores of each, the deal number.  Nothing of the
other's hand, of the stock, or of what was declared.

Inference is numpy only (the weights are a float32 ``.npz`` of an MLP inside the package,
``players/data/learned.npz``): PyTorch is needed to train, never to play.  It plays the
card the network rates highest among the legal ones, so the same views give the same
cards; the seed is kept for the book's part (which is deterministic too).
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Final

import numpy as np
import numpy.typing as npt

from piquet.core.actions import PLAY, Action, Play
from piquet.core.deal import ELDER, YOUNGER, Phase
from piquet.core.errors import PiquetError
from piquet.core.match import MatchView
from piquet.core.rules import Rules
from piquet.core.view import played_by
from piquet.players.base import register_level
from piquet.players.book import BookPlayer
from piquet.players.common import my_turn

__all__ = ["OBS_SIZE", "LearnedPlayer", "Weights", "load_weights", "observation"]

OBS_SIZE: Final = 36 * 4 + 9
"""The observation's length: :data:`piquet.fast.batch.OBS_SIZE` (checked by the tests)."""

_KEYS: Final = ("w1", "b1", "w2", "b2", "wp", "bp", "wv", "bv")


def _bits(out: npt.NDArray[np.float32], at: int, mask: int) -> None:
    for i in range(36):
        if mask >> i & 1:
            out[at + i] = 1.0


def observation(view: MatchView) -> npt.NDArray[np.float32]:
    """``VectorEnv``'s observation of the player ``view`` is for, at a card it is to play.

    Raises :class:`PiquetError` when the view is not at a card of this player's (the
    observation describes only the play).
    """
    deal = view.deal
    if deal is None or deal.phase is not Phase.PLAY or view.role is None:
        raise PiquetError("the learned observation is made only in the play of a deal")
    role = int(deal.role)
    o = np.zeros(OBS_SIZE, dtype=np.float32)
    _bits(o, 0, deal.hand.mask)
    _bits(o, 36, deal.discards.mask)
    _bits(o, 72, played_by(deal, ELDER) | played_by(deal, YOUNGER))
    if deal.trick_lead is not None:
        o[108 + deal.trick_lead] = 1.0
    trick = len(deal.tricks)
    won = deal.tricks_won[role]
    o[144] = 1.0 if role == int(ELDER) else 0.0
    o[145] = trick / 12.0
    o[146] = won / 12.0
    o[147] = (trick - won) / 12.0
    o[148] = deal.scores[role] / 100.0
    o[149] = deal.scores[1 - role] / 100.0
    me = view.in_game.index(view.player)
    o[150] = view.scores[me] / 100.0
    o[151] = view.scores[1 - me] / 100.0
    deals = max(view.rule_set.partie_deals, 1)
    o[152] = view.deal_number / deals
    return o


Weights = dict[str, npt.NDArray[np.float32]]
"""The network's arrays by name: ``w1 b1 w2 b2`` (two tanh layers), ``wp bp`` (the card
logits), ``wv bv`` (the value, unused in play)."""


def read_weights(path: str | Path, *, policy: str, inputs: int, outputs: int,
                 outputs_are: str) -> Weights:
    """The arrays of a ``.npz`` written by ``scripts/train_learned.py``, checked to take
    ``inputs`` values and give ``outputs`` (``outputs_are`` says what they are: "the cards
    36").  Raises :class:`PiquetError` naming ``policy`` for a file that is not such weights.
    Shared by this level and the adapters' ``learned-whole``."""
    try:
        with np.load(path, allow_pickle=False) as f:
            w = {k: np.asarray(f[k], dtype=np.float32) for k in _KEYS}
    except (OSError, KeyError, ValueError) as exc:
        raise PiquetError(f"{path} is not a {policy}'s weights: {exc}") from None
    if w["w1"].shape[0] != inputs or w["wp"].shape[1] != outputs:
        raise PiquetError(f"{path}: the network takes {w['w1'].shape[0]} values and gives "
                          f"{w['wp'].shape[1]}; the observation has {inputs}, {outputs_are}")
    return w


def load_weights(path: str | Path | None = None) -> Weights:
    """The weights at ``path`` (a ``.npz`` written by ``scripts/train_learned.py``), or the
    package's own.  Raises :class:`PiquetError` for a file that is not such weights."""
    if path is None:
        return _shipped()
    return read_weights(path, policy="learned policy", inputs=OBS_SIZE, outputs=36,
                        outputs_are="the cards 36")


@lru_cache(maxsize=1)
def _shipped() -> Weights:
    ref = resources.files("piquet.players") / "data" / "learned.npz"
    with resources.as_file(ref) as p:
        return load_weights(p)


def policy_logits(w: Weights, obs: npt.NDArray[np.float32]) -> npt.NDArray[np.float32]:
    """The network's score of each of its outputs for one observation (two tanh layers, then
    the policy's head): a card (36) here, an action id (480) for ``learned-whole``."""
    h = np.tanh(obs @ w["w1"] + w["b1"])
    h = np.tanh(h @ w["w2"] + w["b2"])
    out: npt.NDArray[np.float32] = h @ w["wp"] + w["bp"]
    return out


card_logits = policy_logits
"""The network's score of each card (36) for one observation."""


class LearnedPlayer:
    """Plays the cards with the trained network, everything else by the book."""

    name = "learned"

    def __init__(self, seed: int = 0, *, rules: Rules | None = None,
                 weights: Weights | None = None) -> None:
        self.seed = seed
        self.rules = rules
        self.weights = weights if weights is not None else _shipped()
        self._book = BookPlayer(seed, rules=rules)

    def choose(self, view: MatchView) -> Action:
        """The network's card in the play; the book's choice otherwise.  Raises
        IllegalActionError when it is not this player's turn."""
        deal = my_turn(view)
        if deal.phase is not Phase.PLAY:
            self._book.rules = self.rules
            return self._book.choose(view)
        legal = [a.card.index for a in deal.legal_actions if isinstance(a, Play)]
        scores = card_logits(self.weights, observation(view))
        return PLAY[max(legal, key=lambda c: (float(scores[c]), -c))]


register_level("learned", lambda seed, think_ms: LearnedPlayer(seed), place=1.5)
