"""Scoring a game played with real cards: scripted entries against the engine."""

from __future__ import annotations

import io
import json
import random
from pathlib import Path

import pytest

from piquet.cli import main
from piquet.core.actions import Discard, Play
from piquet.core.cards import Card, CardSet, pack_mask
from piquet.core.deal import Phase
from piquet.core.dealtypes import ExchangeKind
from piquet.core.errors import IllegalActionError, ParseError, PiquetError, RecordError
from piquet.core.match import Match, new_match
from piquet.core.rules import PRESETS, get_rules
from piquet.tally import HELP, TallySession, new_tally

ELDER_HAND = "AS KS QS JS TS AH KH QH 9D 8D 7C 8C"
YOUNGER_HAND = "9S 8S 7S JH TH 9H AD KD QD JD AC KC"
STOCK = "8H 7H TD 7D QC JC TC 9C"


def _card(c: int) -> str:
    return str(Card.from_index(c))


def _entries_for(m: Match, rng: random.Random) -> tuple[Match, list[str]]:
    """Play a match at random in the engine and write what a real table would enter."""
    out: list[str] = []
    entered = False
    while not m.finished:
        deal = m.deal
        assert deal is not None
        if not entered:
            if m.deal_number == 1:
                out.append(f"dealer {m.names[m.dealer]}")
            if deal.phase is Phase.DEAL:
                a = deal.random_action(rng)
                out.append(f"packet {a.size}")  # type: ignore[attr-defined]
                m = m.apply(a)
                deal = m.deal
                assert deal is not None
            out.append("elder " + str(CardSet(deal.dealt[0])))
            out.append("younger " + str(CardSet(deal.dealt[1])))
            entered = True
        a = deal.random_action(rng)
        role = deal.to_act
        stock = deal.stock
        after = m.apply(a)
        if isinstance(a, Discard):
            if deal.exchange_steps[0].kind is ExchangeKind.DISCARD:
                taken = " ".join(_card(c) for c in stock[: len(a.cards)])
                who = ("elder", "younger")[role or 0]
                out.append(f"{who}: discard {a.cards or '-'} take {taken}".replace("take  ", ""))
            else:
                out.append(f"discard {a.cards}")
        elif isinstance(a, Play):
            out.append(str(a.card))
        else:
            out.append(str(a))
        same_deal = len(after.deals) == len(m.deals)
        if (
            same_deal
            and isinstance(a, Discard)
            and role == 0
            and deal.blanche[0] >= 0
            and after.deal is not None
            and after.deal.taken[1]
        ):
            out.append("take " + " ".join(_card(c) for c in stock if after.deal.taken[1] >> c & 1))
        if not same_deal:
            entered = False
        m = after
    return m, out


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_random_games_entered_card_by_card_give_the_engines_result(preset: str) -> None:
    rules = PRESETS[preset]
    for seed in range(3):
        played, entries = _entries_for(
            new_match(rules, seed=seed, names=("Anne", "Bob")), random.Random(seed)
        )
        session = new_tally(rules, names=("Anne", "Bob"))
        for line in entries:
            session = session.enter(line)
        assert session.finished
        assert session.match.result() == played.result()


def _dealt(rules_name: str = "court-gamester-1754") -> TallySession:
    s = new_tally(rules_name, names=("Anne", "Bob"))
    s = s.enter("dealer Bob")
    s = s.enter(f"elder {ELDER_HAND}")
    return s.enter(f"younger {YOUNGER_HAND}")


def test_a_scripted_deal_keeps_the_score() -> None:
    s = _dealt()
    assert "Anne" in s.expecting() and "discard CARDS take CARDS" in s.expecting()
    s = s.enter("Anne: discard 9D 8D 7C 8C take 8H 7H TD 7D")
    s = s.enter("discard 9S 8S 7S take QC JC TC")
    assert s.deal is not None and s.deal.phase is Phase.LEFTOVERS
    s = s.enter("decline")
    # fifty-one each, and a quint major each: all equal, nobody counts
    s = s.enter("point AS KS QS JS TS").enter("equal")
    s = s.enter("sequence AS KS QS JS TS").enter("equal")
    s = s.enter("pass").enter("pass")
    assert s.scores == {"Anne": 0, "Bob": 0}
    s = s.enter("AS JH")  # a tenth card led counts one (1754)
    assert s.scores == {"Anne": 1, "Bob": 0}
    s = s.enter("KS AD")  # Bob has no spades left
    assert s.scores == {"Anne": 2, "Bob": 0}
    assert "plays a card" in s.expecting()


def test_a_claim_the_hand_cannot_show_is_refused() -> None:
    s = _dealt()
    s = s.enter("discard 9D 8D 7C 8C take 8H 7H TD 7D")
    s = s.enter("discard 9S 8S 7S take QC JC TC")
    s = s.enter("decline")
    before = s
    with pytest.raises(IllegalActionError, match="cannot show") as refused:
        s.enter("point AS KS QS JS TS 9S")
    assert s is before and s.steps == before.steps
    # the message names claims as a player enters them, not by the engine's action ids
    assert "point AS KS QS JS TS" in str(refused.value)
    assert "declare:" not in str(refused.value)
    assert "declare:" not in s.expecting() and "point AS KS QS JS TS" in s.expecting()


def test_a_second_discard_is_refused() -> None:
    s = _dealt().enter("elder: discard 9D 8D take 8H 7H")
    with pytest.raises(IllegalActionError, match="does not allow discarding twice"):
        s.enter("elder: discard 7C take TD")
    s = s.enter("younger: discard 9S 8S 7S take 7D QC JC")
    with pytest.raises(IllegalActionError, match="does not allow discarding twice"):
        s.enter("discard 7C")


@pytest.mark.parametrize(
    ("entry", "words"),
    [
        ("discard 9D 8D", "say which 2 cards elder takes in"),
        ("discard 9D 8D take 8H", "as many as he lays out: 2, not 1"),
        ("discard 9D 8D take 8H 9S", "was dealt to a player"),
        ("discard 9D 8D 7C 8C AS KS take 8H 7H TD 7D QC JC", "must discard 1 to 5 cards"),
        ("younger: discard 9S take 8H", "not younger's turn"),
        ("discard 9S take 8H", "does not hold 9S"),
        ("point AS KS", "not allowed now"),
    ],
)
def test_what_the_rules_forbid_is_flagged(entry: str, words: str) -> None:
    with pytest.raises(PiquetError, match=words):
        _dealt().enter(entry)


def test_bad_text_is_a_parse_error() -> None:
    with pytest.raises(ParseError):
        _dealt().enter("discard ZZ take 8H")
    with pytest.raises(ParseError, match="not elder, younger or a player"):
        _dealt().enter("Carol: discard 9D take 8H")
    with pytest.raises(IllegalActionError, match="dealt 12 cards"):
        new_tally("1754", names=("A", "B")).enter("elder AS KS")
    with pytest.raises(IllegalActionError, match="dealt to both"):
        new_tally("1754", names=("A", "B")).enter(f"elder {ELDER_HAND}").enter(
            f"younger {ELDER_HAND}"
        )


def test_elders_carte_blanche_asks_for_youngers_cards_later() -> None:
    blank_elder = "AS TS 9S 8S AH TH 9H 8H AD TD AC TC"
    younger = "KS QS JS KH QH JH KD QD JD KC QC JC"
    s = new_tally("1754", names=("Anne", "Bob")).enter("dealer Bob")
    s = s.enter(f"elder {blank_elder}").enter(f"younger {younger}")
    assert "carte blanche" in s.expecting()
    s = s.enter("blanche 2")
    assert "discard" in s.expecting()
    with pytest.raises(IllegalActionError, match="takes in later"):
        s.enter("discard KS QS take 7S 7H")
    s = s.enter("discard JD JC")  # younger lays out first
    s = s.enter("discard 8S 8H take 7S 7H")  # elder shows, counts 10, takes
    assert s.pending_take() == 1
    with pytest.raises(IllegalActionError, match="first say which cards younger took in"):
        s.enter("decline")
    s = s.enter("take 7D 7C")
    assert s.pending_take() is None
    assert s.deal is not None
    assert s.deal.hands[1] & CardSet.parse("7D 7C").mask
    assert s.scores["Anne"] == 10


def test_undo_takes_back_the_last_entry() -> None:
    s = _dealt()
    t = s.enter("discard 9D 8D take 8H 7H")
    assert t.undo().steps == s.steps
    assert t.enter("undo").steps == s.steps
    with pytest.raises(PiquetError, match="nothing to undo"):
        new_tally("1754").undo()


def test_record_round_trip(tmp_path: Path) -> None:
    played, entries = _entries_for(
        new_match("rubicon", seed=2, names=("Anne", "Bob")), random.Random(2)
    )
    s = new_tally("rubicon", names=("Anne", "Bob"))
    for line in entries:
        s = s.enter(line)
    record = json.loads(json.dumps(s.to_record()))
    assert record["tally"] == 1 and record["result"] == played.result()
    again = TallySession.from_record(record)
    assert again.steps == s.steps and again.match.result() == s.match.result()
    record["entries"][5] = ["action", "play:QH"]
    with pytest.raises(RecordError, match="entry 6"):
        TallySession.from_record(record)
    with pytest.raises(RecordError, match="not a tally record"):
        TallySession.from_record({"piquet": 1})


def test_house_rules_and_refusals_of_new_tally() -> None:
    rules = get_rules("rubicon").replace(name="ours", target=150)
    s = new_tally(rules, names=("A", "B"))
    assert TallySession.from_record(s.to_record()).rules == rules
    with pytest.raises(PiquetError, match="two players"):
        new_tally("rubicon", names=("A", "A"))
    with pytest.raises(PiquetError, match="pool"):
        new_tally("1754", names=("A", "B"), format="pool")


def test_cli_tally_scripted_session(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    played, entries = _entries_for(
        new_match("encyclopedia-19c", seed=1, names=("Anne", "Bob")), random.Random(1)
    )
    script = "\n".join(["help", "score", "discard ZZ", *entries, "score"]) + "\n"
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    record = tmp_path / "game.json"
    code = main(
        ["tally", "--rules", "encyclopedia-19c", "--players", "Anne,Bob", "--save", str(record)]
    )
    out = capsys.readouterr()
    assert code == 0
    assert "refused:" in out.out and "Traceback" not in out.out + out.err
    assert "the match is over" in out.out
    saved = json.loads(record.read_text())
    assert saved["result"] == played.result()
    monkeypatch.setattr("sys.stdin", io.StringIO("score\n"))
    assert main(["tally", "--load", str(record)]) == 0
    assert "the match is over" in capsys.readouterr().out


def test_cli_tally_strict_stops_at_the_first_refusal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("elder AS KS\n"))
    assert main(["tally", "--rules", "1754", "--strict"]) == 2
    assert "dealt 12 cards" in capsys.readouterr().err


def _declared(rules_name: str = "court-gamester-1754") -> TallySession:
    """Anne (elder) and Bob have exchanged and declined; Anne is to declare."""
    s = _dealt(rules_name)
    s = s.enter("Anne: discard 9D 8D 7C 8C take 8H 7H TD 7D")
    s = s.enter("discard 9S 8S 7S take QC JC TC")
    return s.enter("decline")


def test_undo_takes_back_a_whole_line_of_cards_not_one_card_of_it() -> None:
    """Issue 12: "undo takes back one card of a twelve-card entry: take back the entry,
    as its help says"."""
    s = _declared()
    s = s.enter("point AS KS QS JS TS").enter("equal")
    s = s.enter("sequence AS KS QS JS TS").enter("equal")
    before = s.enter("pass").enter("pass")
    line = "AS JH KS AD"  # two tricks entered on one line: four cards, one entry
    after = before.enter(line)
    assert len(after.steps) == len(before.steps) + 4
    undone = after.enter("undo")
    assert undone.steps == before.steps and undone.expecting() == before.expecting()
    assert undone.scores == before.scores
    # and the entry before it is the next one taken back
    assert undone.undo().steps == before.steps[:-1]
    assert "undo                        take back the last entry" in HELP


def test_undo_after_a_record_is_loaded_takes_back_the_records_entries_one_by_one() -> None:
    s = _declared().enter("point AS KS QS JS TS").enter("equal")
    again = TallySession.from_record(json.loads(json.dumps(s.to_record())))
    assert again.undo().steps == s.steps[:-1]
    more = again.enter("sequence AS KS QS JS TS")
    assert more.undo().steps == again.steps


@pytest.mark.parametrize(
    ("claim", "offered", "refused"),
    [
        # Bob holds five clubs, AC KC QC JC TC: 51, as Anne's five spades
        ("point AS KS QS JS TS", "good, equal", "not good"),
        # Anne's five hearts make 46: Bob's 51 is better
        ("point AH KH QH 8H 7H", "good, not good", "equal"),
    ],
)
def test_the_tally_offers_equal_and_not_good_only_as_the_holdings_allow(
    claim: str, offered: str, refused: str
) -> None:
    s = _declared().enter(claim)
    assert s.expecting() == f"younger (Bob): one of {offered}"
    with pytest.raises(IllegalActionError) as info:
        s.enter(refused)
    message = str(info.value)
    assert f"Allowed: {offered}" in message and "not-good" not in message
    for answer in offered.split(", "):
        s.enter(answer)  # each answer offered is taken


def test_younger_laying_out_nothing_takes_nothing() -> None:
    s = _dealt("encyclopedia-19c").enter("Anne: discard 9D 8D 7C 8C take 8H 7H TD 7D")
    rules = get_rules("encyclopedia-19c")
    if rules.younger_min:
        pytest.skip("younger must exchange under this rule set")
    after = s.enter("younger: discard -")
    assert after.deal is not None and after.deal.discards[1] == 0


BLANK = "AS TS 9S 8S 7S AH TH 9H AD TD 9D AC"  # no K, Q or J: a carte blanche
BLANK_OTHER = "KS QS JS KH QH JH 8H 7H KD QD JD 8D"
BOB_AT_96 = (  # a rubicon deal, Anne elder: Bob repiques and is capot, 53 to Bob's 96
    "dealer Bob",
    "elder AH KH QH JH 9H 8H AD KD QD JD AC KC",
    "younger AS KS QS JS TS 9S TH TD TC 7H 7D 7C",
    "discard JD take 9D", "discard 7H take 8D", "decline",
    "point AH KH QH JH 9H 8H", "making", "not good",
    "sequence AH KH QH JH", "not good", "set AH AD AC", "not good", "AH",
    "point AS KS QS JS TS 9S", "sequence AS KS QS JS TS 9S", "set TS TH TD TC",
    "TH KH 7C QH 7D JH 8D 9H TC 8H TD AD 9S KD TS QD JS 9D QS AC KS KC AS",
)


def test_a_carte_blanche_shown_as_dealt_that_wins_the_game_settles_it() -> None:
    """RULES.md, winning: the set is won "the moment a player reaches it, in counting order
    (blank first, ...)"; rubicon's carte blanche is "declared and shown at once". Elder at
    96 dealt a blank in a single game of rubicon wins as the cards are dealt (the tally
    used to stop there, the deal over and never settled, its record unloadable)."""
    s = new_tally("rubicon", names=("Anne", "Bob"), format="game")
    for entry in BOB_AT_96:
        s = s.enter(entry)
    assert s.scores == {"Anne": 53, "Bob": 96} and not s.finished
    s = s.enter(f"elder {BLANK}").enter(f"younger {BLANK_OTHER}")
    assert s.finished
    assert s.match.result()["winner"] == 1 and s.match.result()["scores"] == [53, 106]
    assert s.expecting().startswith("the match is over: Bob wins (Anne 53, Bob 106)")
    again = TallySession.from_record(json.loads(json.dumps(s.to_record())))
    assert again.finished and again.match.result() == s.match.result()


def test_a_house_rule_whose_blanche_ends_the_deal_as_dealt_settles_it(tmp_path: Path) -> None:
    """A house rule dealing by one packet size whose carte blanche is shown at once (no
    number announced): the deal is over as the cards are dealt, and is settled then, on the
    engine's own deals too (``Match`` used to keep it over and unsettled, nobody to act)."""
    from dataclasses import replace

    from piquet.core.transitions import pack_dealing

    house = tmp_path / "house.toml"
    house.write_text('base = "encyclopedia-19c"\nname = "no-number"\n'
                     "[knobs]\nblanche_number = false\n")
    rules = get_rules(str(house))
    assert rules.packet_sizes == (2,)  # dealt at once: no action deals it
    m = replace(new_match(rules, seed=1, format="game"), scores=(95, 95))
    e, y = CardSet.parse(BLANK).mask, CardSet.parse(BLANK_OTHER).mask
    rest = [c for c in range(36) if pack_mask(rules) >> c & 1 and not (e | y) >> c & 1]
    elder = 1 - m.dealer
    settled = m.with_pack(pack_dealing(e, y, rest, 2))
    assert settled.finished and settled.deal is None
    assert settled.result()["winner"] == elder
    assert settled.result()["scores"][elder] == 105
    assert settled.deals[-1].reached == elder


def test_cli_tally_save_never_replaces_a_game_silently(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--save`` naming a file already there (``--save`` typed for ``--load``) used to
    wipe it: now refused before the first entry, unless it is the ``--load`` file or
    ``--overwrite`` is given; so is the ``save FILE`` entry, but for the tally's own."""
    victim = tmp_path / "victim.json"
    monkeypatch.setattr("sys.stdin", io.StringIO("dealer Anne\n"))
    assert main(["tally", "--rules", "rubicon", "--players", "Anne,Bob",
                 "--save", str(victim)]) == 0
    before = victim.read_text()
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO("dealer Anne\n"))
    assert main(["tally", "--rules", "rubicon", "--players", "X,Y", "--save", str(victim)]) == 2
    err = capsys.readouterr().err
    assert "that file exists and would be replaced" in err and "--overwrite" in err
    assert "Traceback" not in err
    assert victim.read_text() == before
    # resuming into the same file is the point of --load with --save
    monkeypatch.setattr("sys.stdin", io.StringIO("elder " + ELDER_HAND + "\n"))
    assert main(["tally", "--load", str(victim), "--save", str(victim)]) == 0
    assert json.loads(victim.read_text())["entries"][-1][0] == "hand"
    # the save entry: a stranger's file refused, the tally's own and a new one written
    other = tmp_path / "other.json"
    other.write_text("precious")
    new = tmp_path / "new.json"
    capsys.readouterr()
    monkeypatch.setattr("sys.stdin", io.StringIO(
        f"save {other}\nsave {new}\nsave {new}\nsave {victim}\n"))
    assert main(["tally", "--load", str(victim)]) == 0
    out = capsys.readouterr().out
    assert other.read_text() == "precious"
    assert f"refused: save {other}: that file exists" in out
    assert out.count(f"saved to {new}") == 2 and f"saved to {victim}" in out
    # --overwrite lets both replace
    monkeypatch.setattr("sys.stdin", io.StringIO(f"save {other}\n"))
    assert main(["tally", "--rules", "rubicon", "--players", "X,Y", "--save", str(victim),
                 "--overwrite"]) == 0
    assert json.loads(other.read_text())["players"] == ["X", "Y"]
    assert json.loads(victim.read_text())["players"] == ["X", "Y"]


def test_cli_tally_says_what_the_match_is_settled_for(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """RULES.md: rubicon's loser under 100 is rubiconed and "the winner scores 100 + both
    totals"; 1754's loser under 50 "pays double" (the lurch). The terminal tally said only
    who won."""
    played, entries = _entries_for(
        new_match("rubicon", seed=3, names=("Anne", "Bob")), random.Random(3)
    )
    res = played.result()
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(entries) + "\n"))
    assert main(["tally", "--rules", "rubicon", "--players", "Anne,Bob", "--quiet"]) == 0
    out = capsys.readouterr().out
    assert f"settled at {res['settled']}" in out
    assert ("the loser is rubiconed" in out) == bool(res.get("rubiconed"))
    from piquet.tally import result_text

    lurched = _lurch_session()
    assert result_text(lurched).endswith("; a lurch: the loser pays double")


def _lurch_session() -> TallySession:
    """A 1754 game entered at random until one that ends in a lurch (loser under 50)."""
    for seed in range(200):
        played, entries = _entries_for(
            new_match("court-gamester-1754", seed=seed, names=("Anne", "Bob")),
            random.Random(seed),
        )
        if played.result().get("lurch"):
            s = new_tally("court-gamester-1754", names=("Anne", "Bob"))
            for e in entries:
                s = s.enter(e)
            return s
    raise AssertionError("no lurch in 200 random games")


def test_cli_tally_writes_each_deal_in_the_players_order(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The deal's line named elder first and the score line the players in their order:
    both now keep the players' order."""
    _, entries = _entries_for(
        new_match("encyclopedia-19c", seed=1, names=("Anne", "Bob")), random.Random(1)
    )
    monkeypatch.setattr("sys.stdin", io.StringIO("\n".join(entries) + "\n"))
    assert main(["tally", "--rules", "encyclopedia-19c", "--players", "Anne,Bob",
                 "--quiet"]) == 0
    lines = [x for x in capsys.readouterr().out.splitlines() if x.startswith("deal ")]
    assert len(lines) >= 2 and all(": Anne " in x and ", Bob " in x for x in lines)


@pytest.mark.parametrize(
    ("change", "said"),
    [
        ({"entries": [["action", 5]]}, "an action entry is"),
        ({"entries": [["exchange", "elder", 5]]}, "an exchange entry is"),
        ({"entries": [["hand", "elder", 5]]}, "a hand entry is"),
        ({"entries": [["hand", "dealer", "AS"]]}, "a hand entry is"),
        ({"entries": [["take", "elder", 5]]}, "a take entry is"),
        ({"entries": [["shuffle"]]}, "unknown entry kind"),
        ({"entries": [["dealer", 2]]}, "the dealer is player 0 or 1"),
        ({"entries": [["dealer", -1]]}, "the dealer is player 0 or 1"),
        ({"entries": [["dealer", 10**30]]}, "the dealer is player 0 or 1"),
        ({"players": [1, 2]}, "players must be two names"),
        ({"format": 5}, 'the format is "game" or "partie"'),
        ({"format": "pool"}, 'the format is "game" or "partie"'),
        ({"games": "x"}, "games is a whole number"),
        ({"games": 0}, "games is a whole number"),
        ({"rules": [1]}, "the rules must be a preset's name or an object of knobs"),
        ({"rules": "house.toml"}, "unknown rule set"),
    ],
)
def test_a_malformed_tally_record_is_refused_in_words(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], change: dict[str, object], said: str
) -> None:
    """Each of these gave a traceback (or, a dealer of -1, was taken as the last player)."""
    record = {"piquet": 1, "tally": 1, "rules": "rubicon", "format": "partie", "games": 1,
              "players": ["A", "B"], "entries": [], "deals": [], "result": None, **change}
    with pytest.raises(RecordError, match=said):
        TallySession.from_record(record)
    path = tmp_path / "t.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["tally", "--load", str(path)]) == 2
    err = capsys.readouterr().err
    assert said.split()[0] in err and "Traceback" not in err


def test_a_blanche_that_wins_game_one_of_two_as_dealt_leaves_game_two_to_enter() -> None:
    """The same deal in a match of two games: the tally moved on to a deal of game 2 dealt
    from the program's own seed, and refused the real one's entries ("already entered")."""
    s = new_tally("rubicon", names=("Anne", "Bob"), format="game", games=2)
    for entry in [*BOB_AT_96, f"elder {BLANK}", f"younger {BLANK_OTHER}"]:
        s = s.enter(entry)
    assert not s.finished and s.match.game_number == 2 and len(s.match.games) == 1
    assert "elder CARDS" in s.expecting()
    s = s.enter(f"elder {ELDER_HAND}").enter(f"younger {YOUNGER_HAND}")
    deal = s.match.deal
    assert deal is not None and CardSet(deal.hands[0]) == CardSet.parse(ELDER_HAND)


def test_cli_tally_saves_through_a_link_into_the_file_it_names(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A save written beside the file and moved into place replaced a symbolic link by a
    plain file (the file it named was never written again)."""
    real = tmp_path / "games" / "real.json"
    real.parent.mkdir()
    monkeypatch.setattr("sys.stdin", io.StringIO("dealer Anne\n"))
    assert main(["tally", "--rules", "rubicon", "--players", "Anne,Bob", "--save", str(real)]) == 0
    link = tmp_path / "link.json"
    link.symlink_to(real)
    monkeypatch.setattr("sys.stdin", io.StringIO(f"elder {ELDER_HAND}\n"))
    assert main(["tally", "--load", str(link), "--save", str(link)]) == 0
    assert link.is_symlink()
    assert json.loads(real.read_text())["entries"][-1][0] == "hand"


def test_cli_tally_says_what_is_kept_and_asks_before_losing_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A terminal walk-through: without ``--save`` a quit, Ctrl-D or Ctrl-C ended the tally
    and lost the sheet without a word, and ``undo`` took back a whole line of 22 cards
    silently.  The start says the sheet is kept only if saved; a leave with entries not
    saved is refused once (a second one goes); ``undo`` says what it took back; ``help``
    lists the terminal's own commands."""
    lines = iter(["dealer Anne", f"elder {ELDER_HAND}", "undo", "quit", "help",
                  f"elder {ELDER_HAND}", KeyboardInterrupt, EOFError])

    def typed(prompt: str = "") -> str:
        line = next(lines)
        if isinstance(line, type) and issubclass(line, BaseException):
            raise line
        assert isinstance(line, str)
        return line

    monkeypatch.setattr("builtins.input", typed)
    monkeypatch.setattr("sys.stdin.isatty", lambda: True)
    assert main(["tally", "--rules", "rubicon", "--players", "Anne,Bob"]) == 0
    out = capsys.readouterr().out
    assert "kept only if you save it" in out
    assert f"took back: hand elder {CardSet.parse(ELDER_HAND)}" in out
    assert out.count("not saved: type save FILE to keep this sheet, or quit again") == 2
    assert "save FILE" in out.split("undo ", 1)[1]  # the help's own lines
    assert out.rstrip().endswith("this sheet was not saved")
    # saved, a quit leaves at once
    sheet = tmp_path / "t.json"
    lines = iter(["dealer Anne", f"save {sheet}", "quit"])
    assert main(["tally", "--rules", "rubicon", "--players", "Anne,Bob"]) == 0
    out = capsys.readouterr().out
    assert "not saved" not in out and sheet.exists()


def test_cli_tally_wraps_at_words_on_a_terminal(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A terminal walk-through at 80 columns: the tally's long lines broke mid-word
    ("a / nd younger CARDS"); on a terminal they now wrap at words, short of the last
    column, continuations indented."""
    from piquet.cli.tally_cmd import _wrapped

    monkeypatch.setenv("COLUMNS", "60")
    text = "next: dealer NAME (who deals: Anne unless you say otherwise), then elder CARDS " \
           "and younger CARDS"
    _wrapped(text)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2 and all(len(x) <= 59 for x in lines)
    assert lines[1].startswith("  ") and " ".join(x.strip() for x in lines) == text


def test_a_refusal_names_the_player_and_a_refused_line_says_none_of_it_stands() -> None:
    """A terminal walk-through: the tally's scorer was told "you must follow spades: you
    hold QS" (the engine speaks to the player), and a line of 22 cards refused at its last
    card named only that card, so the first 21 seemed taken.  The refusal names the player;
    a refused line says nothing of it was entered (and nothing was)."""
    s = new_tally("rubicon", names=("Anne", "Bob"), format="game")
    for entry in BOB_AT_96[:-1]:
        s = s.enter(entry)
    with pytest.raises(IllegalActionError) as err:
        s.enter("7C")
    assert str(err.value) == "7C: Bob must follow hearts: Bob holds TH"
    with pytest.raises(IllegalActionError) as err:
        s.enter("TH KH 9D")
    assert str(err.value).endswith("(nothing of this line was entered: enter it again, "
                                   "corrected)")
    assert s.enter("TH").steps[-1].text == "play:TH"  # the session itself is unchanged
