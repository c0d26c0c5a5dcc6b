"""``piquet play`` and the other terminal commands: what a second new user's review found.

A digit Python's ``int`` cannot read (``²``) or a number of thousands of digits at any
prompt; a hang-up or SIGTERM; a line typed while the computer thought; an undo reaching back
into a deal already over; and the same numbers in ``piquet tally``, ``piquet advise`` and
``piquet score``.  Each test writes only under ``tmp_path``.
"""

from __future__ import annotations

import io
import json
import os
import signal
import sys
from pathlib import Path
from typing import Any

import pytest

from piquet.cli import main
from piquet.core.actions import Action
from piquet.core.match import MatchView, new_match
from piquet.core.notation import load
from piquet.core.rules import get_rules
from test_play_cli import first_legal, kind_of, play

WEIRD = ["²", "¹ ²", "9" * 5000, "٣", "-1", "1" * 12]


def test_no_number_at_any_prompt_stops_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every kind of prompt met in a game gets each odd number first: each is refused
    with one line, and the game goes on to its end."""
    tried: dict[str, int] = {}
    pending: list[str] = []

    def answer(prompt: str, shown: str) -> str:
        kind = kind_of(prompt)
        if kind not in ("intro", "continue", "begin", "handover") and kind not in tried:
            tried[kind] = 0
            pending[:] = list(WEIRD)
        if pending:
            return pending.pop()
        return first_legal(prompt)

    for rules in ("court-gamester-1754", "cotgrave-1662", "rubicon"):
        tried.clear()
        rec = tmp_path / f"{rules}.pqn"
        status, kb = play(capsys, monkeypatch, ["--rules", rules, "--seed", "22", "--record",
                                                str(rec), "--opponent", "random"], answer)
        assert status == 0, capsys.readouterr().err[-2000:]
        shown = kb.text()
        assert "Traceback" not in shown and "ValueError" not in shown
        assert load(rec).match.finished
        assert len(tried) >= 4, tried


def test_the_deal_prompt_reads_one_number_and_no_minus() -> None:
    from piquet.tui.prompts import InputError, ask_for, read_action

    rules = get_rules("court-gamester-1754")
    m = new_match(rules, seed=3)
    view = m.view(m.to_act)  # the dealer's choice of packet
    ask = ask_for(view, rules, opponent="X")
    assert ask.kind == "deal"
    for text in ("-1", "²", "9" * 5000, "2 3"):
        with pytest.raises(InputError, match="type a number"):
            read_action(ask, text, view, rules)
    assert str(read_action(ask, "by 3", view, rules)) == "deal:3"
    with pytest.raises(InputError):
        read_action(ask, "7", view, rules)


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")
@pytest.mark.parametrize("sig", ["SIGHUP", "SIGTERM"])
def test_a_hang_up_or_sigterm_saves_the_game(
    sig: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The terminal closed (or the process is told to end) at a prompt: the game so far
    is saved as on Ctrl-C, and resumes."""
    monkeypatch.chdir(tmp_path)
    count = {"n": 0}

    def answer(prompt: str, shown: str) -> str:
        count["n"] += 1
        if count["n"] == 5:
            os.kill(os.getpid(), getattr(signal, sig))  # delivered here, in the main thread
        return first_legal(prompt)

    status, kb = play(capsys, monkeypatch, ["--rules", "rubicon", "--seed", "81",
                                            "--opponent", "random"], answer)
    assert status == 128 + getattr(signal, sig)
    saved = load(tmp_path / "piquet-81.pqn")
    assert saved.match.history and not saved.match.finished
    assert "Resume with: piquet play --resume" in kb.text()
    # and the handlers of before are back
    assert signal.getsignal(signal.SIGTERM) in (signal.SIG_DFL, signal.default_int_handler) \
        or callable(signal.getsignal(signal.SIGTERM))


def test_a_line_typed_while_the_computer_thought_is_forgotten(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At a terminal, what was typed before the table was drawn is flushed once the
    computer has moved; not otherwise."""
    from piquet.tui import session as tui

    flushed: list[int] = []
    monkeypatch.setattr(tui, "_flush_typed_ahead", lambda: flushed.append(1))
    monkeypatch.setattr("builtins.input", lambda prompt="": "x")
    from rich.console import Console

    s = tui.Session(new_match(get_rules("rubicon"), seed=1), seats=[None, None],
                    console=Console(file=io.StringIO()))
    s._ask_line("> ")
    assert flushed == []
    s._moved = True
    s._ask_line("> ")
    assert flushed == [1]
    s._ask_line("> ")
    assert flushed == [1]


def test_undo_stays_within_the_deal_in_play(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An undo after the next deal's hand is seen does not bring back the deal before."""
    rec = tmp_path / "u.pqn"
    state = {"deal2": False, "undone": False}

    def answer(prompt: str, shown: str) -> str:
        kind = kind_of(prompt)
        if kind == "continue":
            state["deal2"] = True
            return ""
        if state["deal2"] and not state["undone"] and kind != "intro":
            state["undone"] = True
            return "undo"
        if state["undone"]:
            raise EOFError
        return first_legal(prompt)

    status, kb = play(capsys, monkeypatch, ["--rules", "rubicon", "--seed", "5", "--record",
                                            str(rec), "--opponent", "random"], answer)
    assert status == 0
    shown = kb.text()
    assert state["undone"]
    assert len(load(rec).match.deals) >= 1  # the first deal stands
    # at the first question of the second deal nothing of the player's is in it yet
    assert "your moves of the deals before this one stay" in shown
    assert "Your last move is taken back." not in shown
    assert "Undos" not in load(rec).tags


def test_undo_says_so_under_the_table_it_redraws(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    said: list[str] = []

    def answer(prompt: str, shown: str) -> str:
        kind = kind_of(prompt)
        if kind == "play" and "undo" not in said and "play" in said:
            said.append("undo")
            return "undo"
        if "undo" in said and said[-1] == "undo":
            said.append("after")
            # the note is on the screen shown with this prompt (after the redraw)
            assert "Your last move is taken back." in shown.split("Piquet")[-1] or \
                "Your last move is taken back." in shown
            raise EOFError
        said.append(kind)
        return first_legal(prompt)

    monkeypatch.chdir(tmp_path)
    status, _kb = play(capsys, monkeypatch, ["--rules", "rubicon", "--seed", "5",
                                             "--opponent", "random"], answer)
    assert status == 0 and "after" in said


def test_tally_advise_and_score_refuse_odd_numbers_in_one_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # advise --score
    for bad in ("²,5", "9" * 5000 + ",1", "-1,5"):
        capsys.readouterr()
        assert main(["advise", "--rules", "rubicon", "--hand",
                     "AS KS QS JS AH KH QH AD KD QD AC KC", "--role", "elder",
                     f"--score={bad}"]) == 2
        err = capsys.readouterr().err
        assert "Traceback" not in err and "--score is MINE,HIS" in err
    # score: a line nested too deep gets an error line, not a traceback
    monkeypatch.setattr(sys, "stdin", io.StringIO("[" * 100000 + "\n"))
    capsys.readouterr()
    assert main(["score", "--rules", "rubicon"]) == 1
    out = capsys.readouterr().out
    line = json.loads(out.splitlines()[0])
    assert "nested too deep" in line["error"]


@pytest.mark.parametrize("entry", ["dealer ²", "packet ²", "blanche ²", "dealer " + "9" * 5000,
                                   "packet " + "9" * 5000, "blanche " + "9" * 5000])
def test_the_tally_refuses_odd_numbers_with_words(entry: str) -> None:
    from piquet.core.errors import PiquetError
    from piquet.tally import new_tally

    s = new_tally("court-gamester-1754", names=("Anne", "Bob"))
    if not entry.startswith("dealer"):
        s = s.enter("dealer Bob")
    with pytest.raises(PiquetError) as refused:
        s.enter(entry)
    assert len(str(refused.value)) < 400


def test_an_appointed_lead_that_binds_nothing_is_not_called_binding(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """1662, the reviewer's game: elder names spades, which he has just laid out; the
    computer appoints spades again (as the reviewer's computer did: here it is told to,
    whatever its seed).  The table does not say he is bound to lead them."""
    from piquet.core.actions import Appoint
    from piquet.core.cards import Suit
    from piquet.tui import session as tui

    state = {"named": False}
    real_choose = tui.choose

    def appoints_spades(level: str, seed: int, view: MatchView, think_ms: int | None = None,
                        ) -> Action:
        spades = [a for a in view.legal_actions
                  if isinstance(a, Appoint) and a.suit is Suit.SPADES]
        return spades[0] if spades else real_choose(level, seed, view, think_ms)

    monkeypatch.setattr(tui, "choose", appoints_spades)

    def answer(prompt: str, shown: str) -> str:
        kind = kind_of(prompt)
        if kind == "discard":
            return "KS 7S KC TC 6C"
        if kind == "leftovers" and prompt.startswith("Name a suit"):
            state["named"] = True
            return "s"
        if kind == "play" and state["named"]:
            raise EOFError
        return first_legal(prompt)

    monkeypatch.chdir(tmp_path)
    status, kb = play(capsys, monkeypatch, ["--rules", "cotgrave-1662", "--seed", "22",
                                            "--opponent", "random"], answer)
    assert status == 0 and state["named"]
    shown = kb.text()
    assert "appoints spades" in shown
    assert "spades was appointed, but you hold none of it, so the lead is free" in shown
    assert "the lead appointed binds nothing" in shown
    assert "you are bound to lead spades" not in shown


def test_the_terminal_offers_only_appointments_that_could_bind() -> None:
    """Appointing (1662 by suit, 1754 by card): the choices are what elder may hold as far
    as younger knows; another is refused with words."""
    import random

    from piquet.core.actions import Appoint
    from piquet.core.cards import SUIT_MASKS
    from piquet.core.deal import Phase
    from piquet.core.view import appointable
    from piquet.tui.prompts import InputError, ask_for, read_action

    for name in ("cotgrave-1662", "court-gamester-1754"):
        rules = get_rules(name)
        found = 0
        for seed in range(400):
            m = new_match(rules, seed=seed)
            rng = random.Random(seed)
            while not m.finished and (m.deal is None or m.deal.phase is not Phase.APPOINT):
                if m.deal is not None and m.deal.tricks:
                    break
                m = m.apply(m.random_action(rng))
            if m.finished or m.deal is None or m.deal.phase is not Phase.APPOINT:
                continue
            view = m.view(m.to_act)
            assert view.deal is not None
            ask = ask_for(view, rules, opponent="Eld")
            open_cards = appointable(view.deal, rules)
            offered = [c.action for c in ask.choices]
            assert offered and all(isinstance(a, Appoint) for a in offered)
            for a in offered:
                assert isinstance(a, Appoint)
                mask = SUIT_MASKS[a.suit] if a.suit is not None else 1 << a.card.index
                assert open_cards & mask
            legal = [a for a in view.deal.legal_actions if isinstance(a, Appoint)]
            left_out = [a for a in legal if a not in offered]
            for a in left_out[:2]:
                text = str(a.suit) if a.suit is not None else str(a.card)
                with pytest.raises(InputError, match="could bind no lead"):
                    read_action(ask, text, view, rules)
            found += 1
            if found >= 3:
                break
        assert found, name


def test_said_shows_the_whole_dialog_of_the_deal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 80 by 24 the table keeps the last lines said; ``said`` prints them all."""
    from piquet.tui.screen import said_lines

    asked = {"n": 0}
    seen: list[str] = []

    def answer(prompt: str, shown: str) -> str:
        if kind_of(prompt) == "play" and asked["n"] == 0:
            asked["n"] = 1
            return "said"
        if asked["n"] == 1:
            asked["n"] = 2
            seen.append(shown)
            raise EOFError
        return first_legal(prompt)

    monkeypatch.chdir(tmp_path)
    status, kb = play(capsys, monkeypatch, ["--rules", "rubicon", "--seed", "5",
                                            "--opponent", "random"], answer)
    assert status == 0 and seen
    text = kb.text()
    assert "Said in this deal" in text
    saved = load(tmp_path / "piquet-5.pqn").match
    view = saved.view(0)
    for line in said_lines(view, me="You"):
        plain = line.replace("[bold]", "").replace("[/bold]", "")
        assert plain.split("[")[0].strip()[:20] in text


def test_a_narrow_terminal_folds_the_hand_and_the_tricks() -> None:
    """At 60 columns twelve tricks come in two blocks of six; at 40 the hand comes in two
    rows, each card over its own number."""
    import random

    from rich.text import Text

    from piquet.core.cards import CardSet
    from piquet.core.view import deal_view
    from piquet.tui.screen import hand_lines, trick_lines

    m = new_match(get_rules("rubicon"), seed=41)
    rng = random.Random(41)
    while m.deal is not None and len(m.deal.tricks) < 12 and not m.finished:
        before = m
        m = m.apply(m.random_action(rng))
        if m.deal is None or m.deal_number != before.deal_number:
            break
    final = m.last_deal if m.last_deal is not None else m.deal
    assert final is not None and len(final.tricks) == 12
    view = deal_view(final, 0)
    wide = trick_lines(view, ("You", "Expert"), 0)
    folded = trick_lines(view, ("You", "Expert"), 0, columns=60)
    cells = [Text.from_markup(x).cell_len for x in folded]
    assert max(cells) <= 60 and len(folded) == 1 + 2 * 3  # title, then two blocks of three
    assert len(wide) == 4 and max(Text.from_markup(x).cell_len for x in wide) > 60
    assert "   7" in Text.from_markup(folded[4]).plain  # the second block starts at trick 7
    hand = CardSet.parse("AS QS TS KH QH TH QD QC JC TC 8C 7C")
    rows = hand_lines(hand, columns=40)
    plain = [Text.from_markup(x).plain for x in rows]
    assert len(rows) == 4 and max(len(x) for x in plain) <= 40
    assert plain[3].split()[-1] == "12" and plain[1].split()[0] == "1"
    # each number sits under its card
    for cards_row, numbers_row in ((plain[0], plain[1]), (plain[2], plain[3])):
        for num in numbers_row.split():
            at = numbers_row.index(" " + num) + 1 if not numbers_row.startswith(num) else 0
            assert cards_row[at:at + 2].strip(), (cards_row, numbers_row, num)


def test_a_record_that_cannot_be_written_is_refused_before_the_banner(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_game(prompt: str = "") -> str:
        raise AssertionError(f"the game should not start: {prompt!r}")

    monkeypatch.setattr("builtins.input", no_game)
    capsys.readouterr()
    target = tmp_path / "nowhere" / "x.pqn"
    assert main(["play", "--no-clear", "--record", str(target), "--opponent", "random",
                 "--seed", "3"]) == 2
    out, err = capsys.readouterr()
    assert out == "" and "cannot write" in err and err.count("\n") == 1


def test_ctrl_c_while_the_advisor_thinks_cancels_the_hint_not_the_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from piquet.tui import session as tui

    def interrupted(view: object) -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr(tui, "advisor_hint", interrupted)
    asked = {"hint": 0, "after": 0}

    def answer(prompt: str, shown: str) -> str:
        if kind_of(prompt) == "discard" and not asked["hint"]:
            asked["hint"] = 1
            return "hint"
        if asked["hint"]:
            asked["after"] += 1
            if asked["after"] > 3:
                raise EOFError
        return first_legal(prompt)

    monkeypatch.chdir(tmp_path)
    status, kb = play(capsys, monkeypatch, ["--rules", "rubicon", "--seed", "5",
                                            "--opponent", "random"], answer)
    assert status == 0  # stopped by the end of input, not by the Ctrl-C
    assert "The hint is cancelled." in kb.text() and asked["after"] > 3


def test_one_choice_is_named_as_one() -> None:
    from piquet.core.actions import Pass
    from piquet.tui.prompts import Choice, InputError, _number

    with pytest.raises(InputError, match="there is one, 1"):
        _number("2", (Choice(Pass(), "Pass"),))


def test_a_match_of_several_games_shows_the_games_won() -> None:
    import random

    from piquet.tui.screen import table_lines

    rules = get_rules("court-gamester-1754")
    m = new_match(rules, seed=9, games=3)
    rng = random.Random(9)
    while len(m.games) < 1:
        m = m.apply(m.random_action(rng))
    first = m.games[0]
    assert first.winner is not None
    text = "\n".join(table_lines(m.view(0), rules))
    assert "game 2; games won:" in text
    winner = "You" if first.winner == 0 else m.names[first.winner]
    assert f"{winner} {first.stake}" in text.split("games won:")[1]


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")
def test_sigterm_while_the_advisor_thinks_stops_and_saves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The advisor's own guard (``except Exception``) does not swallow the stop."""
    import piquet.advisor

    def terminated(view: object) -> str:
        os.kill(os.getpid(), signal.SIGTERM)
        return "never"

    monkeypatch.setattr(piquet.advisor, "hint", terminated)
    asked = {"n": 0}

    def answer(prompt: str, shown: str) -> str:
        if kind_of(prompt) == "discard" and not asked["n"]:
            asked["n"] = 1
            return "hint"
        return first_legal(prompt)

    monkeypatch.chdir(tmp_path)
    status, _kb = play(capsys, monkeypatch, ["--rules", "rubicon", "--seed", "5",
                                             "--opponent", "random"], answer)
    assert status == 128 + signal.SIGTERM
    assert not load(tmp_path / "piquet-5.pqn").match.finished


@pytest.mark.skipif(not hasattr(signal, "SIGHUP"), reason="no SIGHUP here")
def test_a_second_hang_up_during_the_save_does_not_cut_it_short(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from piquet.core import notation
    from piquet.tui import session as tui

    real_save = notation.save
    calls = {"n": 0}

    def save_hung_up(path: object, match: object, **kw: object) -> str:
        calls["n"] += 1
        if calls["n"] >= 3:  # the stop's save: the terminal hangs up again meanwhile
            os.kill(os.getpid(), signal.SIGHUP)
        return real_save(path, match, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(tui, "save", save_hung_up)
    count = {"n": 0}

    def answer(prompt: str, shown: str) -> str:
        count["n"] += 1
        if count["n"] == 6:
            os.kill(os.getpid(), signal.SIGHUP)
        return first_legal(prompt)

    monkeypatch.chdir(tmp_path)
    status, _kb = play(capsys, monkeypatch, ["--rules", "rubicon", "--seed", "81",
                                             "--opponent", "random"], answer)
    assert status == 128 + signal.SIGHUP
    saved = load(tmp_path / "piquet-81.pqn").match
    assert saved.history and not saved.finished


def test_a_save_that_fails_leaves_the_record_of_before_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from piquet.core import notation
    from piquet.core.errors import RecordError

    m = new_match(get_rules("rubicon"), seed=3)
    path = tmp_path / "r.pqn"
    notation.save(path, m)
    before = path.read_text()

    def broken(src: object, dst: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken)  # what notation.save renames with
    m2 = m.apply(m.legal_actions()[0]) if hasattr(m, "legal_actions") else m
    with pytest.raises(RecordError, match="No space left"):
        notation.save(path, m2)
    assert path.read_text() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["r.pqn"]


def test_what_was_typed_before_a_deal_ended_by_the_computer_is_forgotten(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from piquet.tui import session as tui

    events: list[str] = []
    monkeypatch.setattr(tui, "_flush_typed_ahead", lambda: events.append("flush"))
    monkeypatch.setattr(tui.Session, "_ask_line", _asking(tui.Session._ask_line, events))
    flushed_at_end: list[bool] = []

    def answer(prompt: str, shown: str) -> str:
        if kind_of(prompt) == "continue":
            flushed_at_end.append(events[-1:] == ["flush"])
        return first_legal(prompt)

    monkeypatch.chdir(tmp_path)
    status, _kb = play(capsys, monkeypatch, ["--rules", "rubicon", "--seed", "9",
                                             "--opponent", "random", "--record",
                                             str(tmp_path / "f.pqn")], answer)
    assert status == 0
    assert any(flushed_at_end)  # a deal the computer's card ended


def _asking(real: Any, events: list[str]) -> Any:
    def ask(self: Any, prompt: str) -> str:
        self._read = None  # the keyboard is input(): a terminal's, for the flush
        result: str = real(self, prompt)
        events.append("ask")
        return result

    return ask
