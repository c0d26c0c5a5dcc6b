"""Faults a reviewer found by fuzzing the command-line tools, each refused cleanly now.

Bad input gets one line saying what was wrong and what is allowed, exit status 2, no
traceback and nothing half-done; records are read the same way by every command.
Every file is written under ``tmp_path``.
"""

from __future__ import annotations

import io
import json
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from piquet import new_match
from piquet.analysis.odds import Odds, draw_chance, odds_phrase
from piquet.cli import main
from piquet.core.errors import PiquetError, RecordError
from piquet.core.match import MAX_SEED
from piquet.core.notation import dump_text, load, loads, save
from piquet.players import make_player

#: the deepest nesting of [ ] and { } a record may hold (``piquet.core.notation.MAX_JSON_DEPTH``)
MAX_JSON_DEPTH = 100
HAND = "AS KS QS 7S QH 9H 8H QD 8D 9C 8C 7C"
ADVISE = ["advise", "--rules", "1754", "--role", "elder", "--hand", HAND]
TALLY_DEAL = [
    "dealer Bob",
    "elder AS KS QS JS TS AH KH QH 9D 8D 7C 8C",
    "younger 9S 8S 7S JH TH 9H AD KD QD JD AC KC",
]


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    rc = main(argv)
    out, err = capsys.readouterr()
    assert "Traceback" not in err
    return rc, out, err


def _tally(
    argv: list[str], lines: list[str], capsys: pytest.CaptureFixture[str], mp: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    mp.setattr(sys, "stdin", io.StringIO("".join(f"{x}\n" for x in lines)))
    return _run(["tally", "--rules", "1754", "--players", "Anne,Bob", *argv], capsys)


# ------------------------------------------------------------------ 1. odds beyond any pack
def test_the_idiom_of_a_huge_ratio_does_not_overflow() -> None:
    """Fault 1: ``_simple_ratio`` divided two huge whole numbers as floats (OverflowError)."""
    p = draw_chance(2000, 1000, 1000, at_least=990)
    big, small = p.denominator - p.numerator, p.numerator
    assert big > 10**308 * small  # past what a float holds
    near = round(Fraction(big, small))  # rounded exactly, not through a float
    assert odds_phrase(p) == f"{big} to {small} against, about {near} to 1"
    assert Odds(p).rounded == f"{near} to 1 against"
    p = draw_chance(2000, 1000, 1000)
    assert odds_phrase(p) == f"{p.numerator} to 1 on"


def test_odds_refuses_more_cards_than_any_pack(capsys: pytest.CaptureFixture[str]) -> None:
    rc, out, err = _run(["odds", "--unseen", "2000", "--draw", "1000", "--wanted", "1000"], capsys)
    assert rc == 2 and not out
    assert "--unseen 2000 is more cards than any pack holds" in err and "up to 36" in err
    rc, _, err = _run(["odds", "--unseen", "20", "--draw", "3", "--wanted", "37"], capsys)
    assert rc == 2 and "--wanted 37" in err
    assert _run(["odds", "--unseen", "36", "--draw", "8", "--wanted", "4"], capsys)[0] == 0


# ------------------------------------------------------------------ 2. one reading of files
def test_tally_load_refuses_bytes_that_are_not_text_as_replay_does(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "garbage.pqn"
    path.write_bytes(bytes(range(256)) * 4)
    rc_tally, _, err_tally = _run(["tally", "--load", str(path)], capsys)
    rc_replay, _, err_replay = _run(["replay", str(path)], capsys)
    assert rc_tally == rc_replay == 2
    assert "is not a piquet record (not UTF-8 text)" in err_tally
    assert err_tally == err_replay


def test_tally_load_accepts_a_byte_order_mark(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    saved = tmp_path / "t.json"
    rc, _, _ = _tally(["--save", str(saved)], TALLY_DEAL, capsys, monkeypatch)
    assert rc == 0
    bom = tmp_path / "bom.json"
    bom.write_bytes(b"\xef\xbb\xbf" + saved.read_bytes())
    monkeypatch.setattr(sys, "stdin", io.StringIO("score\n"))
    rc, out, err = _run(["tally", "--load", str(bom)], capsys)
    assert rc == 0, err
    assert "elder (Anne) lays out 1 to 5" in out


# ------------------------------------------------------------------ 3. JSON nested too deeply
def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def _text_record(tag_value: str) -> str:
    return f'[Piquet 1]\n[Rules "rubicon"]\n[Seed 1]\n[X {tag_value}]\n'


@pytest.mark.parametrize("depth", [MAX_JSON_DEPTH + 1, 2_000, 100_000])
def test_a_text_record_with_a_tag_nested_too_deeply_is_refused(
    depth: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.pqn"
    path.write_text(_text_record(_nested(depth)), encoding="utf-8")
    rc, out, err = _run(["replay", str(path)], capsys)
    assert rc == 2 and not out
    assert "deep.pqn: line 4: the value of tag X is nested too deeply" in err
    assert f"more than {MAX_JSON_DEPTH} levels" in err


def test_a_json_record_with_tags_nested_too_deeply_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deep = '{"x": ' + _nested(2_000) + "}"
    path = tmp_path / "deep2.json"
    path.write_text(
        '{"piquet": 1, "rules": "rubicon", "seed": 1, "actions": [], "tags": ' + deep + "}",
        encoding="utf-8",
    )
    rc, out, err = _run(["replay", str(path)], capsys)
    assert rc == 2 and not out
    assert "not a piquet record: the JSON is nested too deeply" in err


def test_a_tally_nested_too_deeply_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "deep.json"
    path.write_text('{"piquet": 1, "tally": 1, "entries": ' + _nested(5_000) + "}")
    rc, out, err = _run(["tally", "--load", str(path)], capsys)
    assert rc == 2 and not out
    assert "is not a tally record: the JSON is nested too deeply" in err


def test_a_tag_as_deep_as_allowed_is_written_and_read_back_exactly() -> None:
    from piquet.core import notation

    assert getattr(notation, "MAX_JSON_DEPTH", None) == MAX_JSON_DEPTH
    m = new_match("rubicon", seed=1)
    ok: Any = 0
    for _ in range(MAX_JSON_DEPTH):
        ok = [ok]
    text = dump_text(m, tags={"X": ok})
    assert loads(text).tags["X"] == ok and loads(text).text() == text
    with pytest.raises(RecordError, match="nested too deeply"):
        dump_text(m, tags={"X": [ok]})  # what could not be read back is not written


# ------------------------------------------------------------------ 6. a bad save path
def test_tally_save_to_a_bad_path_is_refused_and_the_session_goes_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "c"
    folder.mkdir()
    good = tmp_path / "ok.json"
    lines = [TALLY_DEAL[0], f"save {folder}", *TALLY_DEAL[1:], f"save {good}", "score"]
    rc, out, err = _tally([], lines, capsys, monkeypatch)
    assert rc == 0 and not err
    assert f"refused: cannot write {str(folder)!r}: Is a directory" in out
    assert "game 1, deal 1: Anne 0, Bob 0" in out
    assert "elder (Anne) lays out 1 to 5" in out  # the entries after it were taken
    record = json.loads(good.read_text(encoding="utf-8"))
    assert len(record["entries"]) == 3


def test_tally_checks_the_save_path_before_the_first_entry(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    target = tmp_path / "missing" / "t.json"
    rc, out, err = _tally(["--save", str(target)], TALLY_DEAL, capsys, monkeypatch)
    assert rc == 2 and not out
    assert f"cannot write {str(target)!r}: No such file or directory" in err
    assert sys.stdin.read() == "".join(f"{x}\n" for x in TALLY_DEAL)  # nothing was read


# ------------------------------------------------------------------ 8, 13, 17. the ladder
def _no_games(monkeypatch: pytest.MonkeyPatch) -> None:
    import piquet.tournament

    def played(*args: object, **kwargs: object) -> None:
        raise AssertionError("games were played before the options were checked")

    monkeypatch.setattr(piquet.tournament, "ladder", played)
    monkeypatch.setattr(piquet.tournament, "tournament", played)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--plot", "{tmp}/missing/x.png"], "cannot write '{tmp}/missing/x.png': No such file"),
        (["--plot", "{tmp}"], "--plot writes a PNG"),
        (["--plot", "{tmp}/d.png"], "cannot write '{tmp}/d.png': Is a directory"),
        (["--think", "-1"], "--think must be at least 1 millisecond, not -1"),
        (["--seed", "-1"], f"seed must be 0 to {MAX_SEED}"),
    ],
)
def test_the_ladder_checks_its_options_before_playing(
    argv: list[str],
    message: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "d.png").mkdir()
    _no_games(monkeypatch)
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    rc, out, err = _run(["ladder", "--levels", "random", "book", "--deals", "2", *argv], capsys)
    assert rc == 2 and not out
    assert message.replace("{tmp}", str(tmp_path)) in err


def test_the_ladder_prints_its_ratings_even_if_the_plot_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import piquet.tournament

    def fails(result: object, path: str) -> None:
        raise PiquetError(f"cannot write {path!r}: No space left on device")

    monkeypatch.setattr(piquet.tournament, "plot_ladder", fails)
    argv = ["ladder", "--levels", "random", "book", "--deals", "1", "--no-progress"]
    rc, out, err = _run([*argv, "--plot", str(tmp_path / "x.png")], capsys)
    assert rc == 2 and "No space left on device" in err
    assert "Ladder under encyclopedia-19c: 1 mirrored pair per match" in out
    assert "  book " in out and "random v book" in out


@pytest.mark.parametrize(
    "levels", [["random", "random"], ["book", "Book"], ["book", "random", "book"]]
)
def test_the_ladder_refuses_a_level_named_twice(
    levels: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_games(monkeypatch)
    rc, out, err = _run(["ladder", "--levels", *levels, "--deals", "2"], capsys)
    assert rc == 2 and not out
    assert "twice: name each level once" in err


def test_the_ladder_function_refuses_a_level_named_twice() -> None:
    from piquet.tournament import ladder

    with pytest.raises(PiquetError, match="'book' is named twice"):
        ladder("rubicon", ["random", "book", "book"], pairs=1)


# ------------------------------------------------------------------ 13, 15, 16, seeds: advise
@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--verify", "--think", "-5"], "--think must be at least 1 millisecond, not -5"),
        (["--think", "0"], "--think must be at least 1 millisecond, not 0"),
        (["--top", "-1"], "--top must be at least 1 (discards printed), not -1"),
        (["--top", "0"], "--top must be at least 1 (discards printed), not 0"),
        (["--samples", "0"], "--samples must be at least 2, not 0"),
        (["--candidates", "0"], "--candidates must be at least 1, not 0"),
        (["--verify", "--candidates", "0"], "--candidates must be at least 1 with --verify"),
        (["--verify", "--candidates", "-2"], "--candidates must be at least 1 with --verify"),
        (["--verify", "--deals", "1"], "--deals must be at least 2 (to measure the noise), not 1"),
        (["--verify", "--workers", "0"], "--workers must be at least 1, not 0"),
        (["--seed", "-1"], f"seed must be 0 to {MAX_SEED}"),
        # the stock elder left is younger's: it was ignored for elder
        (["--stock", "2"], "--stock is what elder left younger: give it with --role younger"),
    ],
)
def test_advise_names_the_option_that_is_wrong(
    argv: list[str],
    message: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import piquet.advisor

    def advised(*args: object, **kwargs: object) -> None:
        raise AssertionError("advice was computed before the options were checked")

    monkeypatch.setattr(piquet.advisor, "advise", advised)
    rc, out, err = _run([*ADVISE, *argv], capsys)
    assert rc == 2 and not out
    assert message in err
    assert "exact" not in err and "0 or more" not in err and "nothing to verify" not in err


def test_advise_names_an_empty_hand_plainly(capsys: pytest.CaptureFixture[str]) -> None:
    rc, _, err = _run(["advise", "--rules", "1754", "--role", "elder", "--hand", ""], capsys)
    assert rc == 2
    assert "a hand is the 12 cards dealt; none were given" in err and "  " not in err


def test_the_advisor_names_the_count_that_is_wrong() -> None:
    from piquet.advisor import advise
    from piquet.core.cards import CardSet
    from piquet.core.rules import get_rules

    with pytest.raises(PiquetError, match=r"^samples must be at least 2, not 0$"):
        advise(CardSet.parse(HAND), get_rules("1754"), role=0, samples=0)


def test_negative_seeds_are_refused_as_play_refuses_them(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _no_games(monkeypatch)
    _, _, play = _run(["play", "--auto", "random", "random", "--seed", "-1"], capsys)
    _, _, advise = _run([*ADVISE, "--seed", "-1"], capsys)
    rc, _, tournament = _run(["tournament", "--players", "book", "random", "--seed", "-1"], capsys)
    assert rc == 2
    assert play == advise == tournament == f"piquet: error: seed must be 0 to {MAX_SEED}\n"


# ------------------------------------------------------------------ 18, 20. the tournament
def test_one_mirrored_pair_has_no_interval(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["tournament", "--players", "book", "random", "--deals", "1", "--no-progress"]
    rc, out, _ = _run(argv, capsys)
    assert rc == 0
    out = " ".join(out.split())  # (wrapped to 80 columns)
    assert ": 1 mirrored pair (2 deals)" in out
    assert "(one pair: no interval; play 2 or more pairs to measure the noise)" in out
    assert "95% CI" not in out


# ------------------------------------------------------------------ 20. replay's words
def test_replay_says_one_move(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    m = new_match("rubicon", seed=1)
    p = m.to_act
    assert p is not None
    m = m.apply(make_player("random", seed=0).choose(m.view(p)), p)
    path = tmp_path / "one.pqn"
    save(path, m)
    rc, out, _ = _run(["replay", str(path)], capsys)
    assert rc == 0 and ", 1 move: every move is legal" in out


@pytest.mark.parametrize(
    ("rules", "said"),
    [("1754", "book wins. Lurched: the loser pays double."), ("rubicon", " (rubiconed).")],
)
def test_replay_says_the_lurch_and_the_rubicon_as_the_table_does(
    rules: str, said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.pqn"
    argv = ["play", "--auto", "book", "random", "--rules", rules, "--seed", "1"]
    assert main([*argv, "--record", str(path)]) == 0
    res = load(path).match.result()
    assert res.get("lurch") or res.get("rubiconed")  # the seed gives what is tested
    capsys.readouterr()
    rc, out, _ = _run(["replay", str(path)], capsys)
    assert rc == 0 and said in out


# ------------------------------------------------------------------ 20. the tally's words
def test_tally_quotes_the_cards_entered_without_spaces(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [*TALLY_DEAL, "discard 9D 8D 7C 8C take 8H 7H TD TD"]
    rc, out, _ = _tally([], lines, capsys, monkeypatch)
    assert rc == 0
    assert "refused: TD is written twice in '8H 7H TD TD'" in out


def test_tally_says_what_is_expected_for_a_card_entered_before_the_play(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    lines = [
        *TALLY_DEAL,
        "discard 9D 8D 7C 8C take 8H 7H TD 7D",
        "discard 9S 8S 7S take QC JC TC",
        "decline",
        "AS",
        "foo",
    ]
    rc, out, _ = _tally([], lines, capsys, monkeypatch)
    assert rc == 0
    refused = [x for x in out.splitlines() if x.startswith("refused:")]
    assert len(refused) == 2
    assert refused[0].startswith(
        "refused: 'AS': the cards played are entered once the play begins, not in the "
        "declarations; next: elder (Anne): one of point AS KS QS JS TS"
    )
    assert refused[1].startswith("refused: 'foo' is not an entry; next: elder (Anne): one of ")
    assert all(x.endswith(" (type help for the entries)") for x in refused)


# ------------------------------------------------------------------ 20. score at a terminal
class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_score_says_what_it_reads_at_a_terminal(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", _Terminal(""))
    rc, out, err = _run(["score"], capsys)
    assert rc == 0 and not out
    assert err.count("\n") == 1
    assert "reading JSON lines" in err and "Ctrl-D" in err


def test_score_is_silent_on_a_pipe(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    assert _run(["score"], capsys) == (0, "", "")
