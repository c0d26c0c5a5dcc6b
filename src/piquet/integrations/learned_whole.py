"""``learned-whole``: every decision of a deal by a small network trained by self-play on
the whole game.

The network was trained with PPO by ``scripts/train_learned.py`` (``--env game``) on
:class:`piquet.fast.GameEnv` in ``format="deal"``: single deals of every preset, every
decision of both players the agent's (the packet size, carte blanche, the exchange card
by card, the leftovers, the lead named or appointed, every declaration, sinking, every
answer, "which is missing", every card), each seat rewarded with the deal's point
difference.  So this player makes **every** decision with the network, and plays each deal
of a game as if it were a single deal: it does not see the game score (docs/baselines.md).

It sees exactly what the network was trained on: the adapters' observation tensor
(:func:`piquet.integrations.observation.observation_tensor`, 717 values, as ``GameEnv``'s
``tensor="observation"`` writes it for format ``deal``) of its seat's view, and chooses
among the legal ids of :mod:`piquet.integrations.actions`
(``tests/test_learned_whole.py`` checks both against the episode's own over random deals
of every preset).  A discard is laid out card by card, as in training, then made at once.

Inference is numpy only (float16 weights of an MLP, read as float32; the package's own are
``integrations/data/learned-whole.npz``): PyTorch is needed to train, never to play.  It
takes the id the network rates highest, so the same views give the same decisions.

It lives with the adapters because the observation tensor and the action ids do.  Importing
this module registers ``learned-whole`` as an unlisted player (a variant: by name to
:func:`~piquet.players.make_player`, not in the level lists or the ladder's default); the
command line's ``piquet tournament`` and ``bench/baselines.py`` import it.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from pathlib import Path

import numpy as np
import numpy.typing as npt

from piquet.core.actions import Action, Discard
from piquet.core.cards import Card, CardSet
from piquet.core.errors import PiquetError
from piquet.core.match import MatchView
from piquet.core.rules import Rules
from piquet.integrations.actions import (
    DISCARD_DONE,
    NUM_ACTIONS,
    SELECT_BASE,
    decode_action,
    legal_action_ids,
)
from piquet.integrations.observation import OBS_SIZE, SeatKnowledge, observation_tensor
from piquet.players.base import register_variant
from piquet.players.common import my_turn
from piquet.players.learned import Weights, policy_logits, read_weights

__all__ = ["WholeGamePlayer", "load_whole_weights", "whole_observation"]



def whole_observation(view: MatchView,
                      selected: CardSet | None = None) -> npt.NDArray[np.float32]:
    """The network's observation of ``view``'s seat: the adapters' observation tensor as
    ``GameEnv(format="deal", tensor="observation")`` writes it (the game's part that of a
    single deal: no game, scores of nothing, the rule set's target, no deal played)."""
    if view.deal is None:
        raise PiquetError("the learned-whole observation is made only within a deal")
    k = SeatKnowledge(
        player=view.in_game.index(view.player), rules_name=view.rule_set.name, view=view.deal,
        selected=selected if selected is not None else CardSet(), packet=view.deal.packet,
        game=False, partie=False, target=view.rule_set.target, scores=(0, 0), deals=(),
        max_deals=1, dealer_known=True)
    return observation_tensor(k)


def load_whole_weights(path: str | Path | None = None) -> Weights:
    """The weights at ``path`` (a ``.npz`` written by ``scripts/train_learned.py --env
    game``), or the package's own.  Raises :class:`PiquetError` for a file that is not
    such weights."""
    if path is None:
        return _shipped()
    return read_weights(path, policy="learned-whole policy", inputs=OBS_SIZE,
                        outputs=NUM_ACTIONS, outputs_are=f"the ids {NUM_ACTIONS}")


@lru_cache(maxsize=1)
def _shipped() -> Weights:
    ref = resources.files("piquet.integrations") / "data" / "learned-whole.npz"
    with resources.as_file(ref) as p:
        return load_whole_weights(p)


id_logits = policy_logits
"""The network's score of each action id (480) for one observation."""


class WholeGamePlayer:
    """Every decision by the network trained on the whole game (single deals)."""

    name = "learned-whole"

    def __init__(self, seed: int = 0, *, rules: Rules | None = None,
                 weights: Weights | None = None) -> None:
        self.seed = seed
        self.rules = rules
        self.weights = weights if weights is not None else _shipped()

    def _best(self, view: MatchView, selected: CardSet) -> int:
        assert view.deal is not None
        legal = legal_action_ids(view.deal, rules=view.rule_set, selected=selected)
        if not legal:
            raise PiquetError("the learned-whole player has no legal decision here")
        scores = id_logits(self.weights, whole_observation(view, selected))
        return max(legal, key=lambda i: (float(scores[i]), -i))

    def choose(self, view: MatchView) -> Action:
        """The network's decision; a discard laid out card by card, then made at once.
        Raises IllegalActionError when it is not this player's turn."""
        deal = my_turn(view)
        selected = CardSet()
        for _ in range(NUM_ACTIONS):
            best = self._best(view, selected)
            if deal.discard_range is None:
                step = decode_action(best, rules=view.rule_set, hand=deal.hand)
                assert isinstance(step, Action)
                return step
            if best == DISCARD_DONE:
                return Discard(selected)
            selected = selected | CardSet([Card.from_index(best - SELECT_BASE)])
        raise PiquetError("the learned-whole player laid out more cards than it holds")


register_variant("learned-whole", lambda seed, think_ms: WholeGamePlayer(seed))
