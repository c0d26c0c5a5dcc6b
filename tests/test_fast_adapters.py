"""The adapters' fast paths (the cards played on the kernel's board, what an episode keeps,
the legal ids read from the deal) give exactly what the engine path and the reference path
give: at every step of random episodes of every preset and every format, the player to
move, the legal ids, both players' strings and tensors and the returns.
``bench/bench_fast.py --adapters-diff N`` runs the same check over N episodes."""

from __future__ import annotations

import dataclasses
import random
import re

import pytest

from piquet.core.cards import CardSet
from piquet.core.rules import PRESETS, Format
from piquet.core.view import DealView, deal_view, visible_mask
from piquet.integrations.actions import Episode, EpisodeFormat
from piquet.integrations.check import differ_episode
from piquet.integrations.observation import information_state_string, knowledge

EPISODES = {EpisodeFormat.DEAL: 50, EpisodeFormat.GAME: 3, EpisodeFormat.PARTIE: 2}
"""Random episodes of each format a case plays (every step compared; a third of what the
suite once played: ``bench/bench_fast.py --adapters-diff N`` plays more)."""
CASES = [(name, fmt) for name, rules in PRESETS.items() for fmt in EpisodeFormat
         if fmt is not EpisodeFormat.PARTIE or Format.PARTIE in rules.formats]


@pytest.mark.slow
@pytest.mark.parametrize(("preset", "fmt"), CASES)
def test_episode_answers_equal_the_reference_at_every_step(preset: str, fmt: EpisodeFormat
                                                           ) -> None:
    rules = PRESETS[preset]
    counts = [0, 0]
    for seed in range(EPISODES[fmt]):
        msg = differ_episode(rules, fmt, seed, max_deals=8, counts=counts)
        assert msg is None, f"{preset} {fmt.value} episode {seed}: {msg}"
    # the cards were played on the kernel's board: about a third of the steps
    assert counts[1] > counts[0] // 4


_CARD = re.compile(r"(?:10|[AKQJT9876])[SHDC]")


def _but_notes(v: DealView) -> DealView:
    """The view with its score events' notes blanked (the board does not write them)."""
    return dataclasses.replace(v, events=tuple(e._replace(note="") for e in v.events))


def _named(v: DealView) -> int:
    """Every card a seat's view names."""
    out = 0
    for x in (v.hand, v.dealt, v.discards, v.taken, v.stock_seen, v.elder_leftovers_seen,
              v.leftovers_seen, v.opponent_shown, v.opponent_played, v.seen_by_opponent):
        out |= x.mask
    for t in v.tricks:
        out |= 1 << t.lead | 1 << t.follow
    if v.trick_lead is not None:
        out |= 1 << v.trick_lead
    return out


@pytest.mark.parametrize("preset", list(PRESETS))
def test_a_seat_on_the_kernels_board_sees_only_what_it_may(preset: str) -> None:
    """While the cards are played on the kernel's board, each seat's view (what its strings
    and tensors are made of) names only cards that seat may know (the views' oracle,
    ``visible_mask``) and holds exactly its own hand; the other's hand never enters."""
    rules = PRESETS[preset]
    rng = random.Random(11)
    on_board = 0
    for _ in range(12):
        ep = Episode.start(rules)
        while not ep.over:
            if ep.run is not None:
                on_board += 1
                deal = ep.deal
                assert deal is not None
                for player in (0, 1):
                    role = ep.role_of(player)
                    v = ep.seat_view(player)
                    assert v is not None
                    assert v.hand.mask == deal.hands[role]
                    assert _named(v) & ~visible_mask(deal, role) == 0
                    hidden = deal.hands[1 - role] & ~visible_mask(deal, role)
                    if v.lead_rule is not None and v.lead_rule.card is not None:
                        hidden &= ~v.lead_rule.mask  # a named lead is said aloud
                    # every card the string names, wherever it stands (a trick prints its
                    # cards run together, "e:8H9H"); not the dialog: what was said aloud
                    # (elder may name a lead card he does not hold) is the engine's record
                    lines = information_state_string(knowledge(ep, player)).split("\n")
                    text = "\n".join(x for x in lines if not x.lstrip().startswith("dialog:"))
                    named = set(_CARD.findall(text))
                    assert named, text
                    assert not named & {str(c) for c in CardSet(hidden)}, text
                    # and the board's view is the engine's, field for field (the board's
                    # score events carry no note)
                    assert _but_notes(v) == _but_notes(deal_view(deal, role))
            legal = ep.legal_ids()
            ep = ep.apply(legal[rng.randrange(len(legal))])
    assert on_board >= 12 * 20
