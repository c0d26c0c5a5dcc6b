"""Mistakes at a real table and what the texts say they cost, scored by the tally.

The engine refuses every mistake; the tally, which scores games played with real cards,
records the ones the texts give a penalty or a remedy for (``false claim``, ``not shown``,
``renounce``, ``correct``), and the deal's count follows the text
(:mod:`piquet.core.penalties`).  Each test is named after its passage.
"""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from piquet.cli import main
from piquet.core.cards import pack
from piquet.core.deal import Deal, Phase
from piquet.core.errors import IllegalActionError, ParseError, RecordError
from piquet.core.penalties import Mistake, Penalty, counted, offered
from piquet.core.roles import Role
from piquet.core.rules import PRESETS, Rules
from piquet.tally import TallySession, help_text, in_words, new_tally
from piquet.web.tally_view import step_text
from test_tally import ELDER_HAND, YOUNGER_HAND

# 1662 (36 cards): elder holds a sixième major and four aces, younger a quint to the king in
# hearts, a quart in diamonds, three kings and three queens (Bob deals; Anne is elder)
HANDS_1662 = [
    "dealer Bob",
    "elder AS KS QS JS TS AH AD 6S 6H 6D 6C 7C",
    "younger KH QH JH TH 9H KD QD JD TD KC QC JC",
    "discard 6S 6H take AC 9S",
    "discard JC take 8S",
    "decline",
]
SAID_1662 = [
    "point AS KS QS JS TS 9S", "good",
    "sequence AS KS QS JS TS 9S", "good",
    "set AS AH AD AC", "good",
]
# 1754 (32 cards): after the exchange elder holds two aces (he laid out the third) and a
# point of 35; younger a point of 49, a quint to the king, a quart and three kings
HANDS_1754 = [
    "dealer Bob",
    "elder AS AH AD KD 7S 8S 9H 7H 8D 7D 8C 9C",
    "younger KS KH KC QS JS TS QH JH TH 9S 8H 7C",
    "discard AD take QD",
    "discard 7C take JD",
    "decline",
]
SAID_1754 = [
    "point KD QD 8D 7D", "not good", "point KS QS JS TS 9S",
    "pass", "sequence KS QS JS TS 9S",
    "pass", "set KS KH KC", "no question",
]


def _rules(name: str, **changes: object) -> Rules:
    """A preset, or (with changes) a house rule on it: a target out of reach lets a deal
    be played to its end."""
    base = PRESETS[name]
    return base.replace(name=f"{name}-long", **changes) if changes else base


def _enter(session: TallySession, lines: list[str]) -> TallySession:
    for line in lines:
        session = session.enter(line)
    return session


def _play_out(session: TallySession) -> TallySession:
    """Every remaining move of the deal: the first legal one (cards, or words)."""
    while session.deal is not None and not session.finished:
        action = session.deal.legal_actions()[0]
        session = session.enter(in_words(str(action)).replace("play:", ""))
    return session


def _deal(session: TallySession, number: int = 1) -> tuple[dict[str, int], dict[str, int]]:
    """(elder's, younger's) points by kind in a deal of the first game."""
    d = next(x for x in session.match.deals if x.number == number and x.game == 1)
    return d.by_kind[0], d.by_kind[1]


def _tally(rules: Rules, lines: list[str]) -> TallySession:
    return _play_out(_enter(new_tally(rules, names=("Anne", "Bob")), lines))


# ---------------------------------------------------------------------- a false claim


def test_cotgrave_the_misreckoner_is_debarred_and_his_adversary_reckons_all_he_has() -> None:
    """1662: "he shall be debarr'd from reckoning anything of what he really hath, and his
    adversary shall reckon all he has, but yet the other shall make all he can in play ...
    the false reckoning of the one, shall not at all hinder the Picy, or Repicy of the
    other."  Elder's sixième and quatorze are struck; younger reckons his point, quint,
    quart and trios (30 in hand: a repique); elder keeps what he made in play."""
    session = _tally(_rules("cotgrave-1662", target=500), HANDS_1662 + SAID_1662)
    elder, younger = _deal(session)
    assert elder["sequences"] == 16 and elder["sets"] == 14 and elder["repique"] == 60
    assert "point" not in younger
    after = session.enter("false claim Anne")
    elder2, younger2 = _deal(after)
    assert younger2 == {**younger, "point": 5, "sequences": 19, "sets": 6, "repique": 60}
    assert set(elder2) == {k for k in elder if k not in ("point", "sequences", "sets", "repique")}
    assert all(elder2[k] == elder[k] for k in elder2)  # "make all he can in play"
    # the same, found out in the middle of the play
    mid = _enter(new_tally(_rules("cotgrave-1662", target=500), names=("Anne", "Bob")),
                 [*HANDS_1662, *SAID_1662, "false claim elder"])
    assert _deal(_play_out(mid)) == (elder2, younger2)


def test_1754_he_is_to_count_nothing_that_he_got_by_that_deal_and_the_other_counts_his_kings(
) -> None:
    """1754: "he cuts him off from all he reckoned, and he is to count nothing that he got
    by that Deal"; "If the Eldest should count 3 Aces when he laid out 1 of them, and the
    other 3 Kings ... he shall count his 3 Kings, though he does not discover the other's
    false Reckoning till the End of the Deal."  Elder said three aces with one laid out: the
    deal enters as it was truly held (he passes the sets), younger counts his kings, and,
    found out at the end, elder counts nothing."""
    session = _tally(_rules("court-gamester-1754", target=500), HANDS_1754 + SAID_1754)
    elder, younger = _deal(session)
    assert younger["sets"] == 6 and elder  # three kings, three knaves
    after = session.enter("Anne: false claim")
    assert _deal(after) == ({}, younger)
    assert after.match.deals[-1].points == (0, session.match.deals[-1].points[1])
    # under the preset itself the note cites the passage (here the deal ends the game:
    # younger reaches 100, and a mistake is still recorded once the match is over)
    preset = _tally(PRESETS["court-gamester-1754"], HANDS_1754 + SAID_1754)
    assert preset.finished
    noted = preset.enter("false claim elder")
    note = noted.notes()[len(noted.steps) - 1]
    assert "elder counts nothing this deal" in note and "he cuts him off" in note


def test_1754_what_he_has_in_his_hand_may_hinder_the_other() -> None:
    """1754: "he who counts 3 Aces false, and has a *Quint-Major* in his Hand; though he
    cannot count for it, yet it cuts the other off from counting any inferior *Quint*"."""
    lines = [
        "dealer Bob",
        "elder AS KS QS JS TS AD 7H 8D 7D 8C 7C 9C",
        "younger KH QH JH TH 9H KD QD 9D KC QC 8S 9S",
        "discard 7H take 7S", "discard 8S take TD", "decline",
        "point AS KS QS JS TS 7S", "good",
        "sequence AS KS QS JS TS", "good",
        "pass", "set KH KD KC", "no question",
    ]
    session = _tally(_rules("court-gamester-1754", target=500), lines)
    after = session.enter("false claim elder")
    elder, younger = _deal(after)
    assert elder == {} and "sequences" not in younger and younger["sets"] == 6


def test_19c_a_party_making_a_claim_to_what_he_has_not_got_counts_nothing_that_hand() -> None:
    """19th century: "A party making a claim to what he has not got counts nothing that
    hand."  (Rubicon plays the article's rule.)"""
    for name in ("encyclopedia-19c", "rubicon"):
        rules = _rules(name, target=1000, default_format="game")
        session = _tally(rules, [
            "dealer Bob", f"elder {ELDER_HAND}", f"younger {YOUNGER_HAND}",
            "discard 9D 8D 7C 8C take 8H 7H TD 7D", "discard 9S 8S 7S take QC JC TC",
        ])
        before = session.match.deals[-1].points
        assert before[0] and before[1]
        for who, role in (("Anne", 0), ("Bob", 1)):
            points = session.enter(f"false claim {who}").match.deals[-1].points
            assert points[role] == 0 and points[1 - role] == before[1 - role]


# ---------------------------------------------------------------------- a holding not shown


def test_cotgrave_he_that_shews_not_his_ruff_loses_it_and_his_adversary_reckons_his_own() -> None:
    """1662: "he that doth not shew his Ruff before he play his first Card, though it be
    more then the other hath ... he then loses them utterly, and his Adversary reckons the
    same, though of lesse value then his were".  Elder's ruff of 60 is lost and younger
    counts his 49 first: elder's thirty in hand no longer comes before younger counts, so
    his repique goes too."""
    session = _tally(_rules("cotgrave-1662", target=500), HANDS_1662 + SAID_1662)
    after = session.enter("not shown elder point")
    elder, younger = _deal(after)
    assert "point" not in elder and "repique" not in elder and younger["point"] == 5
    assert elder["sequences"] == 16 and elder["sets"] == 14


def test_cotton_he_that_sheweth_not_his_ruff_loses_absolutely_all_the_advantage_thereof() -> None:
    """1674: "So it is with him that sheweth not his Ruff before he play his first Card,
    losing absolutely all the advantage thereof": lost, and nothing is said of the other
    counting his."""
    lines = HANDS_1662[:-1] + SAID_1662  # (Cotton's leftovers stay hidden: no decline)
    session = _tally(_rules("cotton-1674", target=500), lines)
    after = session.enter("not shown elder point")
    elder, younger = _deal(after)
    assert "point" not in elder and "point" not in younger


def test_1754_the_dealer_shall_tell_his_points_tho_not_so_good_as_the_others() -> None:
    """1754: a point named and allowed but not shown "is good for nothing to him ... On the
    other Hand, when this happens, the Dealer shall tell his *Points*, *Tierces*, *Quartes*,
    or *Quints*, &c. tho' they are not so good as the others."  Sets "need not be shown"."""
    lines = [
        "dealer Bob",
        "elder AS KS QS JS TS AD 7H 8D 7D 8C 7C 9C",
        "younger KH QH JH TH 9H KD QD 9D KC QC 8S 9S",
        "discard 7H take 7S", "discard 8S take TD", "decline",
        "point AS KS QS JS TS 7S", "good", "sequence AS KS QS JS TS", "good",
        "pass", "set KH KD KC", "no question",
    ]
    session = _tally(_rules("court-gamester-1754", target=500), lines)
    after = session.enter("not shown elder sequence")
    elder, younger = _deal(after)
    assert "sequences" not in elder and younger["sequences"] == 15
    with pytest.raises(IllegalActionError, match="is not shown"):
        session.enter("not shown younger set")
    with pytest.raises(IllegalActionError, match="did not count the point"):
        session.enter("not shown younger point")


# ---------------------------------------------------------------------- a renounce


def test_1754_in_the_case_of_a_renounce_he_may_take_it_up_again_and_play_down_the_other() -> None:
    """1754: "unless it be in the Case of a *Renounce* ... he may take it up again, and
    play down the other": recorded, and the score is what the play gives."""
    session = _enter(new_tally("court-gamester-1754", names=("Anne", "Bob")),
                     HANDS_1754 + SAID_1754)
    assert session.deal is not None and session.deal.phase is Phase.PLAY
    after = session.enter("renounce younger")
    assert after.match.deal is not None and after.scores == session.scores
    assert "no penalty" in after.notes()[len(after.steps) - 1]
    assert _play_out(after).match.deals[-1] == _play_out(session).match.deals[-1]


def test_cotton_says_nothing_of_a_renounce_so_none_is_recorded() -> None:
    session = _enter(new_tally("cotton-1674", names=("Anne", "Bob")),
                     HANDS_1662[:-1] + SAID_1662)
    with pytest.raises(IllegalActionError, match="gives no penalty for a renounce"):
        session.enter("renounce elder")


# ---------------------------------------------------------------------- a word taken back


def test_1754_he_suffers_nothing_by_this_mistake_provided_there_be_not_a_card_played_down(
) -> None:
    """1754: younger allowed elder's point as good, then finds his better one: "he may
    count it afterwards: And he suffers nothing by this Mistake, provided there be not a
    Card played down.\""""
    rules = _rules("court-gamester-1754", target=500)
    wrong = _enter(new_tally(rules, names=("Anne", "Bob")),
                   [*HANDS_1754, "point KD QD 8D 7D", "good"])
    fixed = _enter(wrong, ["correct younger point", "point KD QD 8D 7D", "not good",
                           "point KS QS JS TS 9S"])
    assert fixed.deal is not None and fixed.deal.events[0].role == 1
    played = _enter(new_tally(rules, names=("Anne", "Bob")), HANDS_1754 + SAID_1754)
    played = played.enter(str(played.deal.legal_actions()[0]).replace("play:", ""))  # type: ignore[union-attr]
    with pytest.raises(IllegalActionError, match="a card is played"):
        played.enter("correct younger point")


def test_cotgrave_the_first_word_not_being_necessary_to_stand_at_paris() -> None:
    """1662: younger "before he playes his first card, recall himself ... though the elder
    have plaid down the first card ... the first word not being necessary to stand": after
    elder's lead younger may still take back his word (elder's card is entered again)."""
    rules = _rules("cotgrave-1662", target=500)
    session = _enter(new_tally(rules, names=("Anne", "Bob")), HANDS_1662 + SAID_1662)
    led = session.enter(str(session.deal.legal_actions()[0]).replace("play:", ""))  # type: ignore[union-attr]
    back = led.enter("correct younger set")
    assert back.deal is not None and back.deal.phase is Phase.DECLARE
    with pytest.raises(IllegalActionError, match="has played a card"):
        led.enter("correct elder set")


def test_19c_make_your_highest_claim_first_the_first_word_stands() -> None:
    """19th century: "make your highest claim first ... you cannot then claim the higher
    point": no correction."""
    session = new_tally("encyclopedia-19c", names=("Anne", "Bob"))
    with pytest.raises(IllegalActionError, match="the first word stands"):
        _enter(session, ["dealer Bob", "elder AS KS QS JS TS AH KH QH 9D 8D 7C 8C",
                         "younger 9S 8S 7S JH TH 9H AD KD QD JD AC KC",
                         "discard 9D take 8H", "discard - ", "correct elder point"])


# ---------------------------------------------------------------------- what is refused


def test_a_mistake_is_recorded_in_its_deal_or_before_the_next_deals_cards() -> None:
    session = new_tally("court-gamester-1754", names=("Anne", "Bob"))
    with pytest.raises(IllegalActionError, match="no deal has been entered"):
        session.enter("false claim elder")
    with pytest.raises(IllegalActionError, match="has counted nothing yet"):
        _enter(session, HANDS_1754[:3]).enter("false claim elder")
    done = _tally(_rules("court-gamester-1754", target=500), HANDS_1754 + SAID_1754)
    nxt = done.enter("dealer Anne")
    with pytest.raises(IllegalActionError, match="next deal's entries have begun"):
        nxt.enter("false claim Anne")
    twice = done.enter("false claim Anne")
    with pytest.raises(IllegalActionError, match="already recorded"):
        twice.enter("false claim elder")
    with pytest.raises(ParseError, match="say who"):
        done.enter("false claim")
    with pytest.raises(ParseError, match="point, sequence or set"):
        done.enter("not shown elder")
    du_coeur = _enter(new_tally("du-coeur-1995", names=("Anne", "Bob")), HANDS_1662[:3])
    with pytest.raises(IllegalActionError, match="gives no penalty for a false claim"):
        du_coeur.enter("false claim elder")


def test_a_false_claim_can_take_a_game_back_from_the_one_who_reached_it_by_it() -> None:
    """A deal the engine ended when the false count reached the target is not played on
    (the cards are down); struck, the count leaves the game to go on from the next deal."""
    session = _tally(PRESETS["cotgrave-1662"], HANDS_1662 + SAID_1662)
    assert session.match.deals[-1].reached == 0  # Anne reached 100 in counting order
    after = session.enter("false claim Anne")
    assert after.match.deals[-1].reached is None and not after.finished
    assert after.match.deal_number == 2


def test_penalties_replay_from_the_record_and_read_as_entered() -> None:
    session = _tally(_rules("cotgrave-1662", target=500), HANDS_1662 + SAID_1662)
    session = session.enter("not shown elder point").enter("false claim younger")
    record = json.loads(json.dumps(session.to_record()))
    assert ["penalty", "elder", "not-shown", "point"] in record["entries"]
    back = TallySession.from_record(record)
    assert back.match.deals == session.match.deals
    texts = [step_text(e, session.names) for e in record["entries"]]
    assert "not shown elder point" in texts and "false claim younger" in texts
    for bad in (["penalty", "elder", "false-claim", "point"], ["penalty", "elder", "slip"],
                ["correct", "elder", "trick"]):
        broken = {**record, "entries": [*record["entries"][:-1], bad]}
        with pytest.raises(RecordError, match="entry"):
            TallySession.from_record(broken)


def test_the_help_says_what_each_rule_set_offers() -> None:
    assert "false claim" in help_text(PRESETS["court-gamester-1754"])
    assert "correct ROLE" in help_text(PRESETS["cotgrave-1662"])
    assert "correct ROLE" not in help_text(PRESETS["encyclopedia-19c"])
    assert "Mistakes" not in help_text(PRESETS["du-coeur-1995"])
    assert offered(PRESETS["du-coeur-1995"]) == ()


# ---------------------------------------------------------------------- the count itself


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_a_deal_counted_again_with_no_penalty_is_counted_as_played(preset: str) -> None:
    """The timeline rebuilt in counting order (pique and repique judged again, the chance
    of a pique closed where younger played his first card, the target reached) gives the
    engine's own count."""
    rules = PRESETS[preset]
    rng = random.Random(preset)
    for i in range(300):
        cards = list(pack(rules))
        rng.shuffle(cards)
        start = (rng.randrange(100), rng.randrange(100)) if i % 2 else (0, 0)
        deal = Deal.new(rules, cards, start=start, target=rules.target)
        while not deal.is_over:
            deal = deal.apply(deal.random_action(rng))
        again = counted(deal, [])
        assert (again.events, again.totals, again.reached) == (
            deal.tally.events, deal.tally.totals, deal.tally.reached)
        if deal.events:
            struck = counted(deal, [Penalty(Mistake.FALSE_CLAIM, Role.ELDER)])
            if rules.false_claim.value == "counts-nothing":
                assert struck.totals[0] == 0


def test_cli_tally_shows_each_deals_count_and_the_sheet_as_json(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``piquet tally`` shows what each player counted in each deal; ``--json`` prints the
    sheet (issue 34); a mistake entered says what it costs and its passage."""
    script = "\n".join([*HANDS_1662, *SAID_1662]) + "\n"
    session = _tally(_rules("cotgrave-1662", target=500), HANDS_1662 + SAID_1662)
    plays = [step_text(s.to_json(), session.names) for s in session.steps[len(HANDS_1662)
                                                                          + len(SAID_1662):]]
    script += "\n".join([*plays, "false claim Anne", "score"]) + "\n"
    rules_file = tmp_path / "long.toml"
    rules_file.write_text('base = "cotgrave-1662"\nname = "long"\ntarget = 500\n')
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(["tally", "--rules", str(rules_file), "--players", "Anne,Bob"]) == 0
    out = capsys.readouterr().out
    assert "  Anne: point 6, sequences 16, sets 14, repique 60" in out
    assert "counts nothing of his hand" in out and "  Bob: point 5, sequences 19" in out
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(["tally", "--rules", str(rules_file), "--players", "Anne,Bob", "--json"]) == 0
    captured = capsys.readouterr()
    sheet = json.loads(captured.out)
    assert sheet["deals"][0]["by_kind"]["Bob"]["repique"] == 60
    assert sheet["deals"][0]["points"]["Bob"] == sum(sheet["deals"][0]["by_kind"]["Bob"].values())
    assert sheet["mistakes"][0]["text"] == "penalty elder false-claim"
    assert "next:" in captured.err
