"""The discard advisor: its counting against the engine, its ranking, the experts, hints."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import textwrap

import pytest

from enginekit import build_deck
from piquet.actions import (
    AnnounceBlanche,
    Answer,
    DealBy,
    Declare,
    Discard,
    Leftover,
    LeftoverChoice,
    Pass,
    Play,
    Question,
    Reply,
)
from piquet.advisor import (
    HeuristicPlay,
    advise,
    book_discard,
    compare,
    hint,
    play_deal,
)
from piquet.cards import Card, CardSet, mask_cards
from piquet.cli import main
from piquet.deal import YOUNGER, Deal, Phase, Step
from piquet.declarations import COURTS, DeclClass, claims
from piquet.errors import PiquetError
from piquet.match import new_match
from piquet.odds import deck_mask
from piquet.rules import PRESETS, Rules, get_rules

R1754 = get_rules("court-gamester-1754")


# ---------------------------------------------------------------- counting like the engine
def _drive(deal: Deal, discards: tuple[int, int], cards: tuple[int, ...]) -> Deal:
    """Play a deal in the engine: both declare all they hold, the cards as given."""
    plays = list(cards)
    while not deal.is_over:
        phase = deal.phase
        seat = deal.to_act or 0
        if phase is Phase.DEAL:
            deal = deal.apply(DealBy(deal.rules.packet_sizes[0]))
        elif phase is Phase.BLANCHE:
            deal = deal.apply(AnnounceBlanche(discards[seat].bit_count()))
        elif phase is Phase.EXCHANGE:
            deal = deal.apply(Discard(CardSet(discards[seat])))
        elif phase is Phase.LEFTOVERS:
            deal = deal.apply(Leftover(LeftoverChoice.DECLINE))
        elif phase is Phase.PLAY:
            deal = deal.apply(Play(Card.from_index(plays.pop(0))))
        elif deal.step is Step.QUESTION:
            deal = deal.apply(Question(False))
        elif deal.step is Step.ANSWER:
            mine = claims(deal.hands[YOUNGER], DeclClass(deal.cls), deal.rules)
            assert deal.elder_claim is not None
            ek = deal.elder_claim.key
            if not mine:
                reply = Reply.GOOD
            elif deal._partial():
                yk = mine[0].key[0]
                reply = (
                    Reply.NOT_GOOD if yk > ek[0] else Reply.MAKING if yk == ek[0] else Reply.GOOD
                )
            else:
                yk2 = mine[0].key
                reply = Reply.NOT_GOOD if yk2 > ek else Reply.EQUAL if yk2 == ek else Reply.GOOD
            deal = deal.apply(Answer(reply))
        else:
            said = [a for a in deal.legal_actions() if isinstance(a, Declare)]
            deal = deal.apply(said[0] if said else Pass())
    return deal


def _random_deal(rules: Rules, rng: random.Random, blanche: bool) -> tuple[int, int, list[int]]:
    pack = list(mask_cards(deck_mask(rules)))
    while True:
        perm = rng.sample(pack, len(pack))
        elder = sum(1 << c for c in perm[:12])
        if not blanche or elder & COURTS == 0:
            return elder, sum(1 << c for c in perm[12:24]), perm[24:]
        # carte blanche for elder: move his courts into the stock and younger's hand
        spare = [c for c in perm[12:] if not (1 << c) & COURTS]
        courts = [c for c in perm[:12] if (1 << c) & COURTS]
        plain = [c for c in perm[:12] if not (1 << c) & COURTS]
        swap = spare[: len(courts)]
        elder_cards = plain + swap
        rest = [c for c in perm[12:] if c not in swap] + courts
        if len(elder_cards) == 12:
            return sum(1 << c for c in elder_cards), sum(1 << c for c in rest[:12]), rest[12:]


_FIRST_CARD_PIQUE = pytest.mark.xfail(
    strict=True,
    reason="issue 12: under pique_by_first_card (1662, 1674) the engine closes the pique when "
    "younger plays to the first trick; advisor.play_deal's own play loop does not yet",
)


@pytest.mark.parametrize(
    "preset",
    [
        pytest.param(p, marks=_FIRST_CARD_PIQUE) if PRESETS[p].pique_by_first_card else p
        for p in sorted(PRESETS)
    ],
)
def test_play_deal_counts_exactly_as_the_engine(preset: str) -> None:
    """Same hands, same cards played: the fast count equals the engine's, blanche included.

    The engine also checks that every card the heuristic plays is legal.
    """
    rules = PRESETS[preset]
    rng = random.Random(preset)
    for trial in range(40):
        elder, younger, stock = _random_deal(rules, rng, blanche=trial % 8 == 0)
        de = book_discard(elder, rules, rules.elder_min, rules.elder_max)
        ke = de.bit_count()
        avail = len(stock) - ke
        hi = min(avail, rules.younger_max) if rules.younger_max else avail
        dy = book_discard(younger, rules, min(rules.younger_min, hi), hi)
        ky = dy.bit_count()
        final = (
            (elder & ~de) | sum(1 << c for c in stock[:ke]),
            (younger & ~dy) | sum(1 << c for c in stock[ke : ke + ky]),
        )
        fast = play_deal(final, (elder, younger), (de, dy), rules, play_model=HeuristicPlay())
        stock_text = " ".join(str(Card.from_index(c)) for c in stock)
        deck = build_deck(rules, str(CardSet(elder)), str(CardSet(younger)), stock_text)
        deal = _drive(Deal.new(rules, deck), (de, dy), fast.cards)
        assert deal.scores == fast.totals, (trial, CardSet(elder), CardSet(younger))
        assert deal.won == fast.tricks


def test_play_deal_stops_at_the_target_in_counting_order() -> None:
    rules = R1754
    rng = random.Random(3)
    elder, younger, _stock = _random_deal(rules, rng, blanche=False)
    final = (elder, younger)
    full = play_deal(final, final, (0, 0), rules, play_model=HeuristicPlay())
    first = full.events[0]
    start = [90, 90]
    start[first[0]] = rules.target - first[1]
    stopped = play_deal(
        final,
        final,
        (0, 0),
        rules,
        play_model=HeuristicPlay(),
        start=(start[0], start[1]),
        target=rules.target,
    )
    assert stopped.reached == first[0]
    assert len(stopped.events) == 1


def test_book_discard_respects_the_range() -> None:
    rng = random.Random(1)
    pack = list(mask_cards(deck_mask(R1754)))
    for _ in range(50):
        hand = sum(1 << c for c in rng.sample(pack, 12))
        for lo, hi in ((1, 5), (1, 3), (0, 3), (2, 2)):
            d = book_discard(hand, R1754, lo, hi)
            assert d & ~hand == 0
            assert lo <= d.bit_count() <= hi


# ---------------------------------------------------------------- the ranking
def test_elder_ranking_lists_every_legal_discard_best_first() -> None:
    hand = CardSet.parse("AS KS QS 7S QH JH TH QD 9D QC 8C 7C")
    advice = advise(hand, R1754, role=0, samples=24, candidates=3, seed=5)
    assert len(advice.ranking) == 1585
    values = [r.value for r in advice.ranking]
    assert values == sorted(values, reverse=True)
    assert advice.method["exact"] and advice.method["hands"] == 14_941_023
    assert advice.ranking[0].method == "simulated"
    assert {r.method for r in advice.ranking} == {"simulated", "estimated"}
    data = advice.to_json()
    assert data["discard"] == [str(c) for c in advice.best]
    assert {"discard", "value"} <= set(data["ranking"][0])
    assert len({tuple(r["discard"]) for r in data["ranking"]}) == 1585
    assert data["explanations"][0]["keeps"]
    again = advise(hand, R1754, role=0, samples=24, candidates=3, seed=5)
    assert again.ranking[:5] == advice.ranking[:5]


def test_younger_assumes_elders_full_allotment_unless_told() -> None:
    hand = CardSet.parse("AS QS 8S AH JH 7H AD TD 9D TC 9C 7C")
    advice = advise(hand, R1754, role=1, samples=16, candidates=2)
    assert len(advice.ranking) == 12 + 66 + 220
    assert max(len(r.discard) for r in advice.ranking) == 3
    wider = advise(hand, R1754, role=1, samples=16, candidates=2, stock=4)
    assert max(len(r.discard) for r in wider.ranking) == 4
    with pytest.raises(PiquetError, match="younger is left 3 to 7, not 2"):
        advise(hand, R1754, role=1, stock=2)
    with pytest.raises(PiquetError, match="younger is left 3 to 7, not 8"):
        advise(hand, R1754, role=1, stock=8)


def test_score_mode_gives_chances_of_the_game() -> None:
    hand = CardSet.parse("AS KS QS JS 9S AH KH 8H 7D 9C 8C 7C")
    ahead = advise(hand, R1754, role=0, score=(96, 40), samples=24, candidates=2)
    behind = advise(hand, R1754, role=0, score=(40, 96), samples=24, candidates=2)
    assert all(0.0 <= r.value <= 1.0 for r in ahead.ranking)
    assert ahead.ranking[0].value > 0.9 > behind.ranking[0].value
    assert ahead.unit == "chance of winning the game"
    with pytest.raises(PiquetError, match="scores must be 0 to 99"):
        advise(hand, R1754, role=0, score=(100, 3))


def test_bad_hands_are_refused() -> None:
    with pytest.raises(PiquetError, match="has 11"):
        advise(CardSet.parse("AS KS QS JS 9S AH KH 8H 7D 9C 8C"), R1754, role=0)
    with pytest.raises(PiquetError, match="not in the 32-card pack"):
        advise(CardSet.parse("AS KS QS JS 9S AH KH 8H 7D 9C 8C 6C"), R1754, role=0)


# ---------------------------------------------------------------- the experts
def _net(hand: str, role: int, discards: list[str], samples: int = 1500) -> list[float]:
    stats = compare(
        CardSet.parse(hand),
        [CardSet.parse(d) for d in discards],
        R1754,
        role=role,
        samples=samples,
        seed=1,
    )
    return [s.mean for s in stats]


def test_rule_ii_elder_keeps_the_ace_rather_than_go_for_a_low_quatorze() -> None:
    """II: "not to regard a low Quatorze ... for that Purpose throw out an Ace or a King".

    Elder holds three tens and the ace of hearts; laying out a ten beats
    laying out the ace in the same 1,500 deals.  The advisor agrees.
    """
    hand = "AS KS 9S 8S AH 9H 8H TH TD TC KC 7C"
    ace, ten = _net(hand, 0, ["AH 9H 8H 8S 7C", "TC 9H 8H 8S 7C"])
    assert ten > ace + 1.0


def test_rule_ii_younger_keeps_the_king_rather_than_three_knaves() -> None:
    """II, younger hand: throwing out a king to go for a quatorze of knaves loses."""
    hand = "AS KS 9S 8S KH 9H 8H JH JD JC 8C 7C"
    king, knave = _net(hand, 1, ["KH 8H 7C", "JC 8H 7C"])
    assert knave > king + 1.0


def test_rule_vii_younger_with_three_aces_discards_the_fourth_suit() -> None:
    """VII: "If the younger Hand holds Three Aces, he will find it his best Way to discard
    the fourth Suit."  The simulation agrees, and so does the advisor's first choice."""
    hand = "AS QS 8S AH JH 7H AD TD 9D TC 9C 7C"
    fourth, others = _net(hand, 1, ["TC 9C 7C", "8S 7H 9D"])
    assert fourth > others + 1.0
    assert advise(CardSet.parse(hand), R1754, role=1).best == CardSet.parse("TC 9C 7C")


def test_rule_iii_where_the_simulation_disagrees_with_the_book() -> None:
    """III: with tierce major and the seven of a suit and three queens, "discard one of them
    rather than the Seven".

    Here the simulation disagrees: keeping the three queens (a 1 in 4 chance
    of the quatorze, which also bars the other's sets) is worth several points
    more on average than keeping the seven.  This is what the simulation
    shows; reproduce it with more deals by::

        piquet advise --rules 1754 --role elder --hand "AS KS QS 7S QH 9H 8H QD 8D 9C 8C 7C" \\
            --compare "7S 8D 9C 8C 7C" --compare "QD 8D 9C 8C 7C" --samples 20000

    The book argues for the game (27 points elder) rather than the mean; its
    case may rest on the play, where this simulation's card play is only a
    sound heuristic.
    """
    hand = "AS KS QS 7S QH 9H 8H QD 8D 9C 8C 7C"
    seven_out, queen_out = _net(hand, 0, ["7S 8D 9C 8C 7C", "QD 8D 9C 8C 7C"])
    assert seven_out > queen_out


# ---------------------------------------------------------------- the command and hints
def test_cli_advise_json(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "advise",
            "--rules",
            "1754",
            "--role",
            "younger",
            "--hand",
            "AS QS 8S AH JH 7H AD TD 9D TC 9C 7C",
            "--samples",
            "20",
            "--candidates",
            "2",
            "--json",
        ]
    )
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert out["discard"] == out["ranking"][0]["discard"]
    assert all(isinstance(r["value"], float) for r in out["ranking"])


def test_cli_advise_text_and_compare(capsys: pytest.CaptureFixture[str]) -> None:
    args = [
        "advise",
        "--rules",
        "1754",
        "--role",
        "younger",
        "--hand",
        "AS QS 8S AH JH 7H AD TD 9D TC 9C 7C",
        "--samples",
        "20",
        "--candidates",
        "2",
    ]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert " 1. discard " in text and "keeps " in text and "takes in 3 of 20" in text
    assert main([*args, "--compare", "TC 9C 7C", "--compare", "8S 7H 9D"]) == 0
    assert "played out in the same 20 deals" in capsys.readouterr().out
    assert main(["advise", "--rules", "1754", "--role", "elder", "--hand", "AS KS"]) == 2
    assert "has 2" in capsys.readouterr().err


def test_hint_uses_only_the_view() -> None:
    m = new_match("rubicon", seed=4)
    player = m.to_act
    assert player is not None
    view = m.view(player)
    text = hint(view)
    if view.deal is not None and view.deal.phase is Phase.EXCHANGE:
        assert text.startswith("Discard ")
    assert hint(m.view(1 - player)) == ""
    rng = random.Random(2)
    seen_play = False
    for _ in range(200):
        if m.finished or m.deal is None:
            break
        p = m.to_act
        assert p is not None
        view = m.view(p)
        if view.deal is not None and view.deal.phase is Phase.PLAY:
            text = hint(view)
            assert text.split()[0] in ("Lead", "Play", "Throw")
            seen_play = True
            break
        m = m.apply(m.random_action(rng), p)
    assert seen_play


def test_solver_play_model_plugs_in() -> None:
    """The solver seam: SolverPlay plays legal cards (run apart: the solver is compiled)."""
    script = textwrap.dedent(
        """
        import random
        from piquet.advisor import SolverPlay, play_deal
        from piquet.rules import get_rules
        from piquet.cards import mask_cards, DECK32
        r = get_rules("court-gamester-1754")
        perm = random.Random(1).sample(list(mask_cards(DECK32)), 32)
        e = sum(1 << c for c in perm[:12]); y = sum(1 << c for c in perm[12:24])
        out = play_deal((e, y), (e, y), (0, 0), r, play_model=SolverPlay(r))
        assert sum(out.tricks) == 12
        print("ok", out.totals)
        """
    )
    try:
        done = subprocess.run(
            [sys.executable, "-c", script], capture_output=True, text=True, timeout=240
        )
    except subprocess.TimeoutExpired:
        pytest.skip("the solver took too long here")
    if done.returncode != 0:
        pytest.skip(
            f"piquet.solver is not usable here (exit {done.returncode}): "
            f"{done.stderr.strip()[-200:]}"
        )
    assert done.stdout.startswith("ok")
