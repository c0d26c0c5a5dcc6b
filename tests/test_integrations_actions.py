"""The fixed action numbering, the id-driven episode and the seat's strings and tensors."""

from __future__ import annotations

import itertools
import random

import numpy as np
import pytest

from piquet.core.actions import Action, Discard
from piquet.core.cards import CardSet
from piquet.core.deal import ELDER, YOUNGER, Deal, Phase, Utterance
from piquet.core.declarations import DeclClass
from piquet.core.errors import IllegalActionError
from piquet.core.facts import Declared, Statement
from piquet.core.rules import PRESETS, Rules
from piquet.core.view import deal_view
from piquet.core.words import capitalized, statement_words
from piquet.integrations.actions import (
    ACTION_NAMES,
    CHANCE,
    DISCARD_DONE,
    NUM_ACTIONS,
    TERMINAL,
    Episode,
    EpisodeFormat,
    action_id,
    action_name,
    decode_action,
    encode_action,
    encode_discard,
    legal_action_ids,
    max_deal_decisions,
    max_deal_points,
)
from piquet.integrations.observation import (
    INFO_SIZE,
    OBS_SIZE,
    Saying,
    SeatKnowledge,
    information_state_string,
    information_state_tensor,
    knowledge,
    observation_string,
    observation_tensor,
    said_of,
)

PRESET_NAMES = sorted(PRESETS)


def _draw(ep: Episode, rng: random.Random) -> Episode:
    while ep.to_move == CHANCE:
        outcomes = ep.chance_outcomes()
        ep = ep.apply(outcomes[rng.randrange(len(outcomes))][0])
    return ep


def test_every_id_has_one_fixed_name_and_back() -> None:
    assert len(ACTION_NAMES) == NUM_ACTIONS == len(set(ACTION_NAMES))
    for i in range(NUM_ACTIONS):
        assert action_id(action_name(i)) == i
    assert action_name(0) == "play:6S"  # card index 0: the six of spades
    assert action_name(DISCARD_DONE) == "discard-done"
    assert action_id("declare:sequence:H:K:4") > action_id("declare:point:C:9")


def test_out_of_range_and_unknown_names_say_what_is_allowed() -> None:
    with pytest.raises(IllegalActionError, match="ids are 0 to 479"):
        action_name(NUM_ACTIONS)
    with pytest.raises(IllegalActionError, match="names are written like"):
        action_id("shuffle")
    with pytest.raises(IllegalActionError, match="several ids"):
        encode_action(Discard(CardSet.parse("7S 8S")), rules=PRESETS["rubicon"])


def _check_state(rules: Rules, deal: Deal) -> None:
    """Encode/decode both ways every legal action of the seat to act."""
    seat = deal.to_act
    assert seat is not None
    view = deal_view(deal, seat)
    ids = legal_action_ids(view, rules=rules, selected=CardSet())
    if deal.phase is Phase.EXCHANGE:
        assert ids, "a seat to discard always has a first id"
        return
    actions = deal.legal_actions()
    encoded = [encode_action(a, rules=rules) for a in actions]
    assert len(set(encoded)) == len(actions), "two legal actions share an id"
    assert sorted(encoded) == ids
    for a, i in zip(actions, encoded, strict=True):
        assert decode_action(i, rules=rules, hand=view.hand) == a
    for i in ids:
        decoded = decode_action(i, rules=rules, hand=view.hand)
        assert isinstance(decoded, Action)
        assert encode_action(decoded, rules=rules) == i


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_legal_action_of_random_deals_round_trips(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(name)
    for _ in range(40):
        pack = [i for i in range(36) if rules.deck_size == 36 or i % 9]
        rng.shuffle(pack)
        deal = Deal.new(rules, pack)
        while not deal.is_over:
            _check_state(rules, deal)
            action = deal.random_action(rng)
            if isinstance(action, Discard):
                # the discard made card by card through the episode's rules
                seat = deal.to_act
                assert seat is not None
                lo, hi = deal.discard_range()
                view = deal_view(deal, seat)
                selected = 0
                for i in encode_discard(action.cards):
                    legal = legal_action_ids(view, rules=rules, selected=CardSet(selected))
                    assert i in legal
                    if i != DISCARD_DONE:
                        selected |= 1 << (i - 36)
                assert lo <= selected.bit_count() <= hi
            deal = deal.apply(action)


def _discard_sequences(view_hand: int, lo: int, hi: int) -> set[int]:
    """Every discard reachable by the card-by-card ids (a DFS over legal ids)."""
    from piquet.integrations.actions import _selectable

    found: set[int] = set()

    def walk(selected: int) -> None:
        if lo <= selected.bit_count() <= hi:
            found.add(selected)
        for c in _selectable(view_hand & ~selected, selected, lo, hi):
            walk(selected | 1 << c)

    walk(0)
    return found


def test_card_by_card_discard_reaches_each_legal_discard_exactly_once() -> None:
    rules = PRESETS["encyclopedia-19c"]
    pack = [i for i in range(36) if i % 9]
    random.Random(3).shuffle(pack)
    deal = Deal.new(rules, pack)
    while deal.phase is not Phase.EXCHANGE:
        deal = deal.apply(deal.random_action(random.Random(0)))
    lo, hi = deal.discard_range()
    hand = deal.hands[deal.to_act or 0]
    reached = _discard_sequences(hand, lo, hi)
    engine = {a.cards.mask for a in deal.legal_actions() if isinstance(a, Discard)}
    assert reached == engine
    # a bound discard (carte blanche): exactly that many, every subset
    assert _discard_sequences((1 << 12) - 1, 3, 3) == {
        m for m in range(1 << 12) if m.bit_count() == 3
    }


def test_decoding_a_claim_the_hand_lacks_is_refused() -> None:
    rules = PRESETS["rubicon"]
    with pytest.raises(IllegalActionError, match="holds no such set"):
        decode_action(action_id("declare:set:A:4"), rules=rules, hand=CardSet.parse("AS AH AD KC"))
    hand = CardSet.parse("AS AH AD AC KC")
    assert str(decode_action(action_id("declare:set:A:3"), rules=rules, hand=hand)) == (
        "declare:set:AS AH AD"
    )


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_episode_of_a_deal_is_zero_sum_and_within_its_bounds(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(7)
    for _ in range(10):
        ep = _draw(Episode.start(rules), rng)
        assert ep.dealer == 1 and ep.role_of(0) == ELDER and ep.role_of(1) == YOUNGER
        decisions = 0
        while ep.to_move != TERMINAL:
            ep = ep.apply(rng.choice(ep.legal_ids()))
            decisions += 1
        a, b = ep.returns()
        assert a == -b and abs(a) <= max_deal_points(rules)
        assert decisions <= max_deal_decisions(rules)
        deal = ep.deal
        assert deal is not None
        assert a == deal.scores[ELDER] - deal.scores[YOUNGER]


def test_game_episode_deals_alternately_until_the_target() -> None:
    rules = PRESETS["encyclopedia-19c"]
    rng = random.Random(11)
    ep = Episode.start(rules, format=EpisodeFormat.GAME)
    assert ep.to_move == CHANCE and ep.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    dealers = []
    while ep.to_move != TERMINAL:
        if ep.to_move == CHANCE:
            if ep.dealer is not None and not ep.pack:
                dealers.append(ep.dealer)
            ep = _draw(ep, rng)
            continue
        ep = ep.apply(rng.choice(ep.legal_ids()))
    assert all(x != y for x, y in itertools.pairwise(dealers))
    assert ep.winner is not None and max(ep.scores) >= rules.target
    assert ep.returns() == ((1.0, -1.0) if ep.winner == 0 else (-1.0, 1.0))
    assert sum(a for a, _ in ep.deals) == ep.scores[0]


def test_a_partie_tells_its_players_which_deal_it_is() -> None:
    """The tensors' "deals played" was measured against one deal in a partie, so it read
    1.0 from the second deal on: deal 2 and deal 6 looked alike.  It is measured against
    the partie's most deals (six, two more when level), and the string says so."""
    from piquet.integrations.observation import _OFFSETS

    rules = PRESETS["rubicon"]
    rng = random.Random(5)
    ep = Episode.start(rules, format=EpisodeFormat.PARTIE)
    assert ep.max_deals == 8
    seen: dict[int, tuple[float, str]] = {}
    while ep.to_move != TERMINAL:
        if ep.to_move == CHANCE:
            ep = _draw(ep, rng)
            continue
        k = knowledge(ep, ep.to_move)
        if len(ep.deals) not in seen:
            played = float(information_state_tensor(k)[_OFFSETS["game"] + 4])
            seen[len(ep.deals)] = (played, information_state_string(k))
        ep = ep.apply(rng.choice(ep.legal_ids()))
    assert sorted(seen)[:6] == [0, 1, 2, 3, 4, 5]
    values = [seen[n][0] for n in sorted(seen)]
    assert values == sorted(values) and len(set(values)) == len(values)  # each deal its own
    assert seen[1][0] == pytest.approx(1 / 8) and seen[5][0] == pytest.approx(5 / 8)
    assert "partie: deal 2 of at most 8" in seen[1][1]
    # a partie that is never extended (encyclopedia-19c: drawn when level) has six at most
    assert Episode.start(PRESETS["encyclopedia-19c"], format=EpisodeFormat.PARTIE).max_deals == 6


def test_illegal_ids_are_refused_with_the_legal_ones() -> None:
    rules = PRESETS["rubicon"]
    ep = _draw(Episode.start(rules), random.Random(1))
    while ep.deal is not None and ep.deal.phase is not Phase.EXCHANGE:
        ep = ep.apply(ep.legal_ids()[0])
    with pytest.raises(IllegalActionError, match="legal: discard-card"):
        ep.apply(action_id("play:AS"))
    with pytest.raises(IllegalActionError, match="lay out 1 to 5"):
        ep.apply(DISCARD_DONE)
    with pytest.raises(IllegalActionError, match="not a card left"):
        Episode.start(rules).apply(0).apply(0)


@pytest.mark.parametrize("kernel", [True, False])
def test_a_refused_card_says_why_on_the_kernels_board_as_on_the_engine(kernel: bool) -> None:
    """On the board or through the engine alone, a card refused in the play gets the
    engine's reason and the legal ids, and leaves the episode as it was."""
    rules = PRESETS["rubicon"]
    rng = random.Random(5)
    ep = _draw(Episode.start(rules, kernel=kernel), rng)
    def leading_the_second_trick(e: Episode) -> bool:
        d = e.deal
        return d is not None and d.phase is Phase.PLAY and len(d.tricks) == 1 \
            and d.trick_lead is None

    while not leading_the_second_trick(ep):
        ep = ep.apply(ep.legal_ids()[rng.randrange(len(ep.legal_ids()))])
    assert (ep.run is not None) is kernel
    deal = ep.deal
    assert deal is not None and deal.to_act is not None
    other = deal.hands[1 - deal.to_act]
    card = (other & -other).bit_length() - 1  # a card of the other's hand
    before = (ep.legal_ids(), ep.to_move)
    with pytest.raises(IllegalActionError, match=r"does not hold it.*; legal: play:"):
        ep.apply(card)
    with pytest.raises(IllegalActionError, match="ids are 0 to 479"):
        ep.apply(10_000)
    assert (ep.legal_ids(), ep.to_move) == before


def test_the_kernel_switch_is_a_bool() -> None:
    with pytest.raises(IllegalActionError, match="kernel must be True or False, not 'no'"):
        Episode.start(PRESETS["rubicon"], kernel="no")  # type: ignore[arg-type]


# ---------------------------------------------------------------------- what a seat knows


def _swap_hidden(pack: list[int], a: int, b: int) -> list[int]:
    out = list(pack)
    out[a], out[b] = out[b], out[a]
    return out


def test_information_states_differing_only_in_hidden_cards_are_equal() -> None:
    """Swap a card of younger's hand with the bottom card of the stock: elder cannot tell."""
    rules = PRESETS["encyclopedia-19c"]
    rng = random.Random(5)
    for _ in range(20):
        pack = [i for i in range(36) if i % 9]
        rng.shuffle(pack)
        younger_position = 2  # dealt by two: positions 2 and 3 go to younger
        other = _swap_hidden(pack, younger_position, len(pack) - 1)
        eps = []
        for order in (pack, other):
            ep = Episode.start(rules)
            for c in order:
                ep = ep.apply(c)
            eps.append(ep)
        # elder's first decisions, and after his discard, are the same in both worlds
        for _step in range(3):
            k0, k1 = knowledge(eps[0], 0), knowledge(eps[1], 0)
            assert information_state_string(k0) == information_state_string(k1)
            assert observation_string(k0) == observation_string(k1)
            assert np.array_equal(information_state_tensor(k0), information_state_tensor(k1))
            assert np.array_equal(observation_tensor(k0), observation_tensor(k1))
            if eps[0].to_move != 0:
                break
            i = eps[0].legal_ids()[0]
            eps = [ep.apply(i) for ep in eps]
        # younger sees the difference
        y0, y1 = knowledge(eps[0], 1), knowledge(eps[1], 1)
        assert information_state_string(y0) != information_state_string(y1)


def test_laid_out_cards_are_seen_only_by_the_seat_laying_them_out() -> None:
    rules = PRESETS["rubicon"]
    ep = _draw(Episode.start(rules), random.Random(2))
    while ep.deal is not None and ep.deal.phase is not Phase.EXCHANGE:
        ep = ep.apply(ep.legal_ids()[0])
    mover = ep.to_move
    before = information_state_string(knowledge(ep, 1 - mover))
    ep = ep.apply(ep.legal_ids()[0])
    assert "laid out:" in information_state_string(knowledge(ep, mover))
    assert information_state_string(knowledge(ep, 1 - mover)) == before


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_every_dialog_line_is_read_from_its_fact(name: str) -> None:
    rules = PRESETS[name]
    rng = random.Random(name + "dialog")
    for _ in range(25):
        pack = [i for i in range(36) if rules.deck_size == 36 or i % 9]
        rng.shuffle(pack)
        deal = Deal.new(rules, pack)
        while not deal.is_over:
            deal = deal.apply(deal.random_action(rng))
        for u in deal.dialog:
            said = said_of(u)
            if u.cls is not None:
                assert said.kind is not Saying.OTHER, u
            if said.kind is Saying.CLAIM:
                assert said.size or said.pips
        k = SeatKnowledge(
            0, name, deal_view(deal, 0), CardSet(), 2, False, False, 100, (0, 0), (), 1, True
        )
        for vec, size in (
            (information_state_tensor(k), INFO_SIZE),
            (observation_tensor(k), OBS_SIZE),
        ):
            assert vec.shape == (size,) and vec.dtype == np.float32
            assert float(vec.min()) >= 0.0 and float(vec.max()) <= 1.0


@pytest.mark.parametrize(
    ("text", "cls", "size", "rank", "pips"),
    [
        ("Point of five, making 48.", 0, 5, 0, 48),
        ("Point of five.", 0, 5, 0, 0),
        ("Ruff of 51.", 0, 0, 0, 51),
        ("Quart to the king.", 1, 4, 13, 0),
        ("Sixième major.", 1, 6, 14, 0),
        ("Quatorze of tens.", 2, 4, 10, 0),
        ("Three knaves.", 2, 3, 11, 0),
    ],
)
def test_statements_are_spoken_as_their_facts_tell(
    text: str, cls: int, size: int, rank: int, pips: int
) -> None:
    # the fact holds the numbers; the words are made from it, never read back (and a
    # sequence is said by its length and top card: no suit)
    said = Statement(DeclClass(cls), size=size, rank=rank, pips=pips)
    rules = PRESETS["cotton-1674" if text.startswith("Ruff") else "rubicon"]
    assert capitalized(statement_words(said, rules)) + "." == text
    line = Utterance(0, said.cls, text, 0, Declared(0, said))
    got = said_of(line)
    assert (int(got.cls or 0), got.size, got.rank, got.pips) == (cls, size, rank, pips)
