"""``piquet play``: the faults a reviewer found playing the terminal game, one test each.

Each test plays through ``piquet.cli.main`` with a scripted keyboard (see
test_play_cli.py) or drives the table's functions directly, and writes only under
``tmp_path``.
"""

from __future__ import annotations

import builtins
import io
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from enginekit import games_ending_on_a_lead
from piquet.cli import main
from piquet.core.actions import Answer, Play, Reply
from piquet.core.deal import Phase
from piquet.core.match import Match, new_match
from piquet.core.notation import load
from piquet.core.view import deal_view
from piquet.tui.prompts import InputError, ask_for, read_action
from test_play_cli import first_legal, play


def _refused(
    argv: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> str:
    """``piquet play ARGV`` is refused before any game starts: exit 2 and one line."""

    def no_game(prompt: str = "") -> str:
        raise AssertionError(f"the game should not start: {prompt!r}")

    monkeypatch.setattr(builtins, "input", no_game)
    capsys.readouterr()  # what an earlier game printed
    assert main(["play", *argv]) == 2
    captured = capsys.readouterr()
    err = captured.err
    assert "Traceback" not in err and err.count("\n") == 1, err
    assert captured.out == ""
    return err


# ---------------------------------------------------------------------- 4, 5: hotseat
def test_hotseat_refuses_no_clear_which_would_show_the_other_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    err = _refused(
        ["--hotseat", "--no-clear", "--seed", "4", "--rules", "rubicon", "--names", "Ann", "Bob"],
        capsys,
        monkeypatch,
    )
    assert "--no-clear cannot go with a hotseat game" in err and "drop --no-clear" in err
    assert list(tmp_path.iterdir()) == []  # nothing saved, nothing started
    # a resumed hotseat game too
    rec = tmp_path / "h.pqn"
    status, _ = play(
        capsys,
        monkeypatch,
        ["--hotseat", "--seed", "4", "--rules", "rubicon", "--names", "Ann", "Bob",
         "--no-intro", "--record", str(rec)],
        _stop_after(6),
        no_clear=False,
    )
    assert status == 0
    before = rec.read_bytes()
    err = _refused(["--resume", str(rec), "--no-clear"], capsys, monkeypatch)
    assert "--no-clear cannot go with a hotseat game" in err
    assert rec.read_bytes() == before


def _stop_after(n: int) -> Callable[[str, str], str]:
    """Answers the first legal choice ``n`` times, then ends the input."""
    count = {"n": 0}

    def answer(prompt: str, shown: str) -> str:
        count["n"] += 1
        if count["n"] > n:
            raise EOFError
        return first_legal(prompt)

    return answer


def test_a_hand_over_clears_the_scrollback_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The screen was cleared with ESC[2J ESC[H but not ESC[3J: scrolling up (or tmux
    capture-pane -S -200) showed Ann's hand above Bob's screen."""
    from piquet.tui.session import Session

    out = io.StringIO()
    console = Console(file=out, force_terminal=True, width=100, height=40, color_system=None)
    handovers: list[str] = []
    seen = {"at": 0, "n": 0}

    def read(prompt: str) -> str:
        shown = out.getvalue()[seen["at"] :]
        seen["at"] = len(out.getvalue())
        seen["n"] += 1
        if seen["n"] > 40:
            raise EOFError
        if "press Enter when you are ready" in prompt:
            handovers.append(shown)
        return first_legal(prompt)

    m = new_match("rubicon", seed=4, names=["Ann", "Bob"])
    monkeypatch.chdir(tmp_path)  # the end of input saves the record here
    session = Session(m, seats=[None, None], console=console, read=read, hotseat=True)
    assert session.run() == 0
    assert len(handovers) >= 2
    for shown in handovers:
        assert "\x1b[3J" in shown  # the scrollback is erased at each hand-over
        after = shown.rsplit("\x1b[3J", 1)[1]
        assert "Your hand" not in after and "to play." in after


# ---------------------------------------------------------------------- 7, 8: files
def test_an_existing_record_file_is_never_replaced_silently(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    notes = tmp_path / "notes.txt"
    notes.write_text("my notes\n")
    for argv in (
        ["--auto", "random", "random", "--record", str(notes)],
        ["--opponent", "random", "--record", str(notes)],
    ):
        err = _refused(argv, capsys, monkeypatch)
        assert "that file exists and would be replaced" in err
        assert "choose another name, or add --overwrite" in err
        assert notes.read_text() == "my notes\n"
    # --overwrite says it may
    assert main(["play", "--auto", "random", "random", "--seed", "3", "--record", str(notes),
                 "--overwrite"]) == 0
    assert load(notes).match.finished
    capsys.readouterr()
    # resuming into another file that is there is refused as well
    other = tmp_path / "keep.pqn"
    other.write_text("a finished record\n")
    err = _refused(["--resume", str(notes), "--record", str(other)], capsys, monkeypatch)
    assert "keep.pqn: that file exists" in err
    assert other.read_text() == "a finished record\n"
    err = _refused(["--opponent", "random", "--record", str(tmp_path)], capsys, monkeypatch)
    assert "that is a directory" in err


def test_the_default_save_takes_a_free_name_and_says_which(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    first = tmp_path / "piquet-7.pqn"
    status, kb = play(capsys, monkeypatch, ["--seed", "7", "--opponent", "random"],
                      _stop_after(3))
    assert status == 0 and "saved in piquet-7.pqn." in kb.text()
    kept = first.read_bytes()
    status, kb = play(capsys, monkeypatch, ["--seed", "7", "--opponent", "random"],
                      _stop_after(1))
    assert status == 0
    shown = kb.text()
    assert "saved in piquet-7-2.pqn (piquet-7.pqn holds another game" in shown
    assert "piquet play --resume piquet-7-2.pqn" in shown
    assert first.read_bytes() == kept
    assert (tmp_path / "piquet-7-2.pqn").exists()
    # --resume keeps saving into its own file
    status, kb = play(capsys, monkeypatch, ["--resume", "piquet-7.pqn"], _stop_after(2))
    assert status == 0 and "saved in piquet-7.pqn." in kb.text()
    assert not (tmp_path / "piquet-7-3.pqn").exists()


def test_auto_checks_the_record_path_before_playing(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import piquet.tui.session

    def no_play(*args: object) -> Match:
        raise AssertionError("the game should not be played")

    monkeypatch.setattr(piquet.tui.session, "play_unattended", no_play)
    err = _refused(
        ["--auto", "random", "random", "--seed", "3", "--record", "/nonexistent/x.pqn"],
        capsys,
        monkeypatch,
    )
    assert "cannot write '/nonexistent/x.pqn'" in err


def test_auto_prints_the_result_when_the_last_save_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from piquet.core.errors import RecordError
    from piquet.core.notation import save as real

    calls = {"n": 0}

    def flaky(path: object, match: Match, **kw: object) -> str:
        calls["n"] += 1
        if match.finished:
            raise RecordError(f"cannot write {str(path)!r}: No space left on device")
        return real(str(path), match, tags=kw.get("tags"))  # type: ignore[arg-type]

    monkeypatch.setattr("piquet.cli.play_cmd.save", flaky)
    rec = tmp_path / "g.pqn"
    assert main(["play", "--auto", "random", "random", "--seed", "3", "--record", str(rec)]) == 2
    captured = capsys.readouterr()
    out = captured.out
    assert "random 1" in out and ("wins" in out or "drawn" in out)
    assert "Record saved" not in captured.out
    assert "No space left on device" in captured.err and calls["n"] == 2


# ---------------------------------------------------------------------- 9: the last trick
def test_the_card_led_when_the_game_ends_mid_trick_is_in_the_leaders_row() -> None:
    """A game that ends on a card led (1754 counts a point for a lead): nobody is to act,
    and the card went into the other player's row."""
    from piquet.tui.screen import trick_lines

    for deal, action, final in games_ending_on_a_lead("court-gamester-1754"):
        leader = deal.to_act
        assert leader is not None
        for role in (0, 1):
            names = ("Eld", "Yng")
            lines = trick_lines(deal_view(final, role), names, role)
            rows = {line.split()[0]: line for line in lines[2:]}
            assert rows[names[leader]].rstrip().endswith(f">{action.card}")
            assert rows[names[1 - leader]].rstrip().endswith("..")


# ---------------------------------------------------------------------- 10: undo on resume
def test_undo_works_after_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rec = tmp_path / "r2.pqn"
    status, _ = play(
        capsys,
        monkeypatch,
        ["--rules", "rubicon", "--seed", "12", "--opponent", "random", "--record", str(rec)],
        _stop_after(4),
    )
    assert status == 0
    partial = load(rec).match
    assert any(p == 0 for p, _ in partial.history)
    script = iter(["undo"])

    def answer(prompt: str, shown: str) -> str:
        for text in script:
            return text
        raise EOFError

    status, kb = play(capsys, monkeypatch, ["--resume", str(rec)], answer)
    assert status == 0
    shown = kb.text()
    assert "Your last move is taken back." in shown
    assert "nothing of yours to take back" not in shown
    after = load(rec)
    assert after.tags["Undos"] == 1
    mine = max(i for i, (p, _) in enumerate(partial.history) if p == 0)
    assert after.match.history == partial.history[:mine]


# ---------------------------------------------------------------------- 12, 13, 14: options
@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["--hotseat", "--names", "Ann", "Ann"], "two players may not both be called 'Ann'"),
        (["--hotseat", "--names", "Ann", "ann"], "'Ann' and 'ann' would be one name"),
        (["--auto", "random", "random", "--think-ms", "-5"],
         "--think-ms must be at least 1 millisecond, not -5"),
        (["--opponent", "random", "--think-ms", "0"],
         "--think-ms must be at least 1 millisecond, not 0"),
        (["--games", "0"], "games must be at least 1, not 0"),
        (["--auto", "random", "random", "--games", "0"], "games must be at least 1, not 0"),
        (["--games", "-2"], "games must be at least 1, not -2"),
        (["--overwrite"], "--overwrite goes with --record"),
    ],
)
def test_bad_options_are_refused_before_any_game(
    argv: list[str],
    fragment: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.chdir(tmp_path)
    assert fragment in _refused(argv, capsys, monkeypatch)
    assert list(tmp_path.iterdir()) == []


# ---------------------------------------------------------------------- 20: words
def test_an_action_out_of_turn_is_refused_to_you_not_to_younger() -> None:
    """'now younger decides about the stock cards younger left' was shown to younger."""
    for seed in range(60):
        m = new_match("encyclopedia-19c", seed=seed)
        rng = random.Random(seed)
        while not m.finished and m.deals == ():
            p = m.to_act
            assert p is not None and m.deal is not None
            if m.deal.phase is Phase.LEFTOVERS and m.role_of(p) == 1:
                view = m.view(p)
                ask = ask_for(view, m.rules, opponent="Book")
                assert view.deal is not None
                card = next(iter(view.deal.hand))
                for typed in (f"play:{card}", "declare:point:AS", "discard:AS"):
                    with pytest.raises(InputError) as exc:
                        read_action(ask, typed, view, m.rules)
                    said = str(exc.value)
                    assert "younger" not in said and "elder" not in said, said
                    assert "not an answer to this question" in said and "y or n" in said
                return
            m = m.apply(m.random_action(rng), p)
    raise AssertionError("no leftovers decision for younger")


def test_a_lead_you_are_bound_to_is_said_to_you() -> None:
    """1754: elder named his lead to see the stock; another card got 'elder is bound to
    lead ...' from the engine."""
    for seed in range(200):
        m = new_match("court-gamester-1754", seed=seed)
        rng = random.Random(seed)
        while not m.finished and m.deals == ():
            p = m.to_act
            assert p is not None
            view = m.view(p)
            deal = view.deal
            assert deal is not None
            if deal.phase is Phase.PLAY and deal.lead_rule is not None and not deal.tricks:
                ask = ask_for(view, m.rules, opponent="Book")
                other = [c for c in deal.hand if Play(c) not in deal.legal_actions]
                if other:
                    for typed in (str(other[0]), f"play:{other[0]}"):
                        with pytest.raises(InputError, match="you are bound to lead"):
                            read_action(ask, typed, view, m.rules)
                    return
            m = m.apply(m.random_action(rng), p)
    raise AssertionError("no bound lead found")


def test_equal_before_making_says_to_ask_making_first() -> None:
    """Issue 11: 'you cannot say equal: you hold nothing equal; say good, making?' when the
    count has to be asked first."""
    for seed in range(300):
        m = new_match("rubicon", seed=seed)
        rng = random.Random(seed)
        while not m.finished and m.deals == ():
            p = m.to_act
            assert p is not None
            view = m.view(p)
            legal = view.legal_actions
            if Answer(Reply.MAKING) in legal and Answer(Reply.EQUAL) not in legal:
                ask = ask_for(view, m.rules, opponent="Book")
                for typed in ("equal", "not good"):
                    if Answer(Reply.NOT_GOOD) in legal and typed == "not good":
                        continue
                    with pytest.raises(InputError) as exc:
                        read_action(ask, typed, view, m.rules)
                    said = str(exc.value)
                    assert "ask making? first" in said and "nothing equal" not in said, said
                return
            m = m.apply(m.random_action(rng), p)
    raise AssertionError("no making? question found")


def test_a_malformed_levels_tag_is_refused_on_resume(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rec = tmp_path / "g.pqn"
    status, _ = play(
        capsys,
        monkeypatch,
        ["--rules", "rubicon", "--seed", "5", "--opponent", "book", "--record", str(rec)],
        _stop_after(3),
    )
    assert status == 0
    text = rec.read_text()
    assert '[Levels ["human", "book"]]' in text
    for bad, why in (
        ('[Levels "book"]', 'the Levels tag "book" does not seat the 2 players'),
        ('[Levels ["human"]]', 'the Levels tag ["human"] does not seat the 2 players'),
        ('[Levels ["human", "gm"]]', "the Levels tag names 'gm', which is not a level"),
    ):
        broken = tmp_path / "broken.pqn"
        broken.write_text(text.replace('[Levels ["human", "book"]]', bad))
        err = _refused(["--resume", str(broken)], capsys, monkeypatch)
        assert why in err and "broken.pqn" in err
        assert broken.read_text() == text.replace('[Levels ["human", "book"]]', bad)
    # no tag at all: the first seat against the computer, and it says so
    bare = tmp_path / "bare.pqn"
    bare.write_text(text.replace('[Levels ["human", "book"]]\n', ""))
    status, kb = play(capsys, monkeypatch, ["--resume", str(bare)], _stop_after(0))
    assert status == 0
    assert "The record has no Levels tag: you play Player's seat" in kb.text()
