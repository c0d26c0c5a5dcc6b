"""Named opponents (issue 41): a style each, graded strengths, usable wherever a level is."""

from __future__ import annotations

import random

import pytest

from piquet.core.actions import Action, Declare, Pass
from piquet.core.cards import CardSet
from piquet.core.deal import Phase
from piquet.core.errors import PiquetError
from piquet.core.match import Match, MatchView, new_match
from piquet.core.rules import PRESETS
from piquet.players import LEVEL_NOTES, LEVELS, OPPONENTS, make_player
from piquet.players.opponents import (
    ExchangeStyle,
    Style,
    away_lead,
    long_lead,
    opponent,
    style_discard,
)
from piquet.tournament import deal_pack, play_deal, tournament

FAST = 20


def _mask(text: str) -> int:
    return CardSet.parse(text).mask


def test_every_opponent_is_a_level_in_its_place_with_a_line_for_a_newcomer() -> None:
    names = [o.name for o in OPPONENTS]
    assert names == ["nell", "toby", "kitty", "colonel", "hoyle"]
    levels = list(LEVELS)
    # weakest first, among the measured levels
    assert levels.index("random") < levels.index("nell") < levels.index("toby") \
        < levels.index("book") < levels.index("kitty") < levels.index("colonel") \
        < levels.index("club") < levels.index("expert") < levels.index("hoyle")
    for o in OPPONENTS:
        assert LEVEL_NOTES[o.name].startswith(f"{o.title}, {o.strength}: ")
        assert len(LEVEL_NOTES[o.name]) < 120
        assert make_player(o.name, seed=1).name == o.name


def test_an_unknown_opponent_or_style_is_refused_with_what_is_allowed() -> None:
    with pytest.raises(PiquetError, match="the named opponents are: nell, toby"):
        opponent("mrs x")
    assert opponent(" Nell ").title == "Nell"
    with pytest.raises(PiquetError, match="careless must be a chance between 0 and 1"):
        Style(careless=1.5)


def _whole_deal(level: str, preset: str, seed: int) -> Match:
    m = new_match(PRESETS[preset], seed=seed, names=(level, "random"))
    players = (make_player(level, seed=seed, think_ms=FAST), make_player("random", seed=seed))
    for _ in range(500):
        if m.finished or m.deals:
            break
        p = m.to_act
        assert p is not None
        m = m.apply(players[p].choose(m.view(p)), p)  # apply() verifies legality
    return m


@pytest.mark.parametrize("preset", list(PRESETS))
@pytest.mark.parametrize("level", ["nell", "toby", "kitty"])
def test_the_book_opponents_play_legally_under_every_rule_set(level: str, preset: str) -> None:
    for seed in (1, 2, 3):
        assert _whole_deal(level, preset, seed).deals


@pytest.mark.parametrize("level", ["colonel", "hoyle"])
def test_the_searching_opponents_play_a_whole_deal(level: str) -> None:
    assert _whole_deal(level, "rubicon", 5).deals


class _Afresh:
    """A player made afresh for each decision, as the browser makes them."""

    def __init__(self, name: str, seed: int) -> None:
        self.name = name
        self.seed = seed

    def choose(self, view: MatchView) -> Action:
        return make_player(self.name, seed=self.seed).choose(view)


def test_a_decision_repeats_whether_the_player_is_kept_or_made_afresh() -> None:
    """The browser makes a player for each decision; the terminal keeps one: the chances
    are drawn from where the match stands, so both play the same."""
    rules = PRESETS["rubicon"]
    for seed in range(4):
        pack = deal_pack(rules, seed, 0)
        kept = play_deal(rules, pack, (make_player("nell", seed=seed), make_player("book")),
                         elder=seed % 2).history

        afresh = play_deal(rules, pack, (_Afresh("nell", seed), make_player("book")),
                           elder=seed % 2).history
        assert kept == afresh


def test_styles_of_exchange() -> None:
    rules = PRESETS["rubicon"]
    hand = _mask("AS KS QS JS TS AH KH AD KD QD AC KC")  # elder: every card a good one
    book = style_discard(hand, 1, 5, rules, role=0)
    bold = style_discard(hand, 1, 5, rules, role=0, exchange=ExchangeStyle.BOLD)
    cautious = style_discard(hand, 1, 5, rules, role=0, exchange=ExchangeStyle.CAUTIOUS)
    assert bold.bit_count() == 5
    assert cautious.bit_count() <= min(book.bit_count(), 4)
    poor = _mask("AS 7S 8H 7H 9D 8D 7D 7C 8C 9C JH QC")
    assert style_discard(poor, 1, 5, rules, role=0).bit_count() == 5
    assert style_discard(poor, 1, 5, rules, role=0, exchange=ExchangeStyle.CAUTIOUS) \
        .bit_count() == 4
    # a careless discard keeps cards the book throws, sometimes an ace it would keep
    careless = [style_discard(poor, 1, 5, rules, role=0, careless=random.Random(s))
                for s in range(40)]
    assert any(c != style_discard(poor, 1, 5, rules, role=0) for c in careless)
    assert {c.bit_count() for c in careless} > {5}
    assert all(1 <= c.bit_count() <= 5 and c & ~poor == 0 for c in careless)


def test_leads() -> None:
    hand = _mask("KS 8S AH QH JH TH 9C")
    legal = [c for c in range(36) if hand >> c & 1]
    # the beginner leads the eight that guards the king of spades
    assert away_lead(legal, hand) == CardSet.parse("8S").mask.bit_length() - 1
    # the bold player leads the top of her longest suit
    assert long_lead(legal, hand) == CardSet.parse("AH").mask.bit_length() - 1


def test_nell_forgets_to_declare_and_toby_declares_all() -> None:
    rules = PRESETS["rubicon"]
    counts = {"nell": [0, 0], "toby": [0, 0]}
    for level in counts:
        for seed in range(30):
            m = new_match(rules, seed=seed, names=("a", "b"))
            players = (make_player(level, seed=seed), make_player("book"))
            while not m.deals:
                p = m.to_act
                assert p is not None
                view = m.view(p)
                action = players[p].choose(view)
                deal = view.deal
                if p == 0 and deal is not None and deal.phase is Phase.DECLARE and any(
                        isinstance(a, Declare) for a in deal.legal_actions):
                    counts[level][isinstance(action, Pass)] += 1
                m = m.apply(action, p)
    nell_passed = counts["nell"][1] / sum(counts["nell"])
    toby_passed = counts["toby"][1] / sum(counts["toby"])
    assert nell_passed > toby_passed and nell_passed > 0.2


def test_the_named_opponents_are_graded_on_a_few_pairs() -> None:
    """A sanity check (the measure is docs/strength.md): the beginner loses to the book."""
    res = tournament("rubicon", "nell", "book", pairs=20, seed=2026)
    assert res.margin_per_deal < 0


# ------------------------------------------------------------------ one scale
def test_a_ladder_of_chosen_pairings_places_every_level_on_one_scale(
        capsys: pytest.CaptureFixture[str]) -> None:
    from piquet.cli import main
    from piquet.tournament import ladder

    res = ladder("rubicon", ["random", "nell", "book"], pairs=6, seed=3,
                 pairings=[("random", "nell"), ("nell", "book")])
    assert [(m.a, m.b) for m in res.matches] == [("random", "nell"), ("nell", "book")]
    assert res.ratings[0] == 0 and all(ci is not None for ci in res.intervals)
    rc = main(["ladder", "--rules", "rubicon", "--pairings", "random:nell", "nell:toby",
               "--deals", "3", "--no-progress", "--json"])
    assert rc == 0
    import json

    out = json.loads(capsys.readouterr().out)
    assert out["levels"] == ["random", "nell", "toby"] and len(out["matches"]) == 2


@pytest.mark.parametrize(("pairings", "message"), [
    ([("random", "nell"), ("nell", "nell")], "sets a level against itself"),
    ([("random", "nell"), ("nell", "random")], "named twice"),
    ([("random", "kitty")], "not among the ladder's levels"),
])
def test_a_ladder_refuses_bad_pairings(pairings: list[tuple[str, str]], message: str) -> None:
    from piquet.tournament import ladder

    with pytest.raises(PiquetError, match=message):
        ladder("rubicon", ["random", "nell"], pairs=1, pairings=pairings)


def test_the_ladder_command_refuses_a_pairing_without_a_colon(
        capsys: pytest.CaptureFixture[str]) -> None:
    from piquet.cli import main

    assert main(["ladder", "--pairings", "random-nell", "--no-progress"]) != 0
    assert "pairs of levels written A:B" in capsys.readouterr().err
