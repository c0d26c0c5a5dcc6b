"""Every command's prose wrapped to the terminal; one error prefix; a bare ``piquet``.

A new user at an 80-column terminal found ``advise``, ``odds`` and ``tournament`` breaking
words (issue 34): the terminal broke each long line wherever its last column fell.
"""

from __future__ import annotations

import io
import re
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from enginekit import advise_once_per_question
from piquet.cli import ERROR_PREFIX, command_names, main, start_here
from piquet.cli.text import DEFAULT_WIDTH, MIN_WIDTH, columns, wrap, wrap_line
from piquet.core.cards import Card

CARDS = [str(Card.from_index(i)) for i in range(36)]


# ------------------------------------------------------------------ the helper
def test_prose_goes_on_indented_under_its_line_never_breaking_a_word() -> None:
    line = "    " + " ".join(["unrecognisable"] * 12)
    out = wrap_line(line, 60)
    assert len(out) > 1 and all(len(x) <= 60 for x in out)
    assert out[0].startswith("    unrecognisable")
    assert all(x.startswith("      unrecognisable") for x in out[1:])  # two further in
    assert " ".join(x.strip() for x in out) == line.strip()


def test_a_line_that_fits_is_left_as_it_is() -> None:
    line = "  point worth 6 or more  1187/2584 = 0.4594  (about 6 to 5)"
    assert wrap_line(line, 80) == [line]


def test_a_table_row_goes_on_in_its_second_column() -> None:
    """A cell that does not fit goes whole to the next line, at the second cell's column."""
    row = ("  point worth 6 or more (55 pips or more)  1187/2584 = 0.4594  "
           "(1397 to 1187 against, about 6 to 5)")
    out = wrap_line(row, 80)
    assert out == [
        "  point worth 6 or more (55 pips or more)  1187/2584 = 0.4594",
        " " * 43 + "(1397 to 1187 against, about 6 to 5)",
    ]


def test_a_long_last_cell_is_begun_on_its_row_and_goes_on_in_its_column() -> None:
    row = "  piquet play   " + " ".join(["play in this terminal"] * 4)
    out = wrap_line(row, 60)
    assert out[0].startswith("  piquet play   play in this terminal")
    assert all(x.startswith(" " * 16 + "p") or x.startswith(" " * 16 + "i") for x in out[1:])
    assert all(len(x) <= 60 for x in out)


def test_a_word_wider_than_the_line_is_left_whole() -> None:
    word = "x" * 100
    out = wrap_line(f"a {word} b", 50)
    assert word in out[1] or word in out[0]
    assert " ".join(x.strip() for x in out) == f"a {word} b"


_WORDS = st.lists(
    st.one_of(st.sampled_from(CARDS), st.from_regex(r"[a-z(),.;:+%0-9-]{1,14}", fullmatch=True)),
    min_size=1,
    max_size=40,
)


@settings(max_examples=300, deadline=None)
@given(
    indent=st.integers(0, 8),
    words=_WORDS,
    gaps=st.lists(st.sampled_from([" ", " ", " ", "  ", "   "]), min_size=40, max_size=40),
    width=st.integers(MIN_WIDTH, 100),
)
def test_wrapping_keeps_every_word_whole_and_in_order(
    indent: int, words: list[str], gaps: list[str], width: int
) -> None:
    """Whatever the line (prose, cards, rows of cells), the words come out whole, in the
    same order, and every line fits the width."""
    line = " " * indent + "".join(w + g for w, g in zip(words, gaps, strict=False)).rstrip()
    out = wrap_line(line, width)
    assert " ".join(" ".join(x.split()) for x in out) == " ".join(line.split())
    assert all(len(x) <= width for x in out)
    assert not any(x.strip() == "" for x in out)


def test_the_width_is_the_terminals_or_columns_or_80(monkeypatch: pytest.MonkeyPatch) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("COLUMNS", raising=False)
    assert columns(io.StringIO()) == DEFAULT_WIDTH == 80  # a pipe or a file
    monkeypatch.setenv("COLUMNS", "64")
    assert columns(io.StringIO()) == 64
    assert columns(Terminal()) == 63  # short of a terminal's last column
    monkeypatch.setenv("COLUMNS", "12")
    assert columns(io.StringIO()) == MIN_WIDTH
    monkeypatch.setenv("COLUMNS", "wide")
    assert columns(io.StringIO()) == 80


# ------------------------------------------------------------------ every command's prose
def _record(tmp_path: Path) -> Path:
    from piquet.core.match import new_match
    from piquet.core.notation import save
    from piquet.players import make_player

    m = new_match("encyclopedia-19c", seed=3)
    players = [make_player("book", seed=1), make_player("random", seed=2)]
    while not m.finished:
        p = m.to_act
        assert p is not None
        m = m.apply(players[p].choose(m.view(p)), p)
    path = tmp_path / "game.pqn"
    save(path, m)
    return path


HAND = "AS KS QS JS 9S 7S AH KH 8D 7D 9C 8C"
PROSE = {
    "odds": ["odds", "--rules", "1754", "--hand", HAND, "--role", "elder", "--discard",
             "8D 7D 9C 8C 9S"],
    "odds-simple": ["odds", "--unseen", "20", "--draw", "3", "--wanted", "4", "--at-least", "2"],
    "advise": ["advise", "--rules", "1754", "--role", "younger", "--hand",
               "AS QS 8S AH JH 7H AD TD 9D TC 9C 7C", "--samples", "20", "--candidates", "2",
               "--top", "2"],
    "tournament": ["tournament", "--players", "random", "book", "--deals", "2",
                   "--no-progress"],
    "tournament-partie": ["tournament", "--players", "random", "book", "--deals", "2",
                          "--format", "partie", "--rules", "rubicon", "--no-progress"],
    "tournament-pool": ["tournament", "--players", "random", "book", "--deals", "2",
                        "--format", "pool", "--rules", "1754", "--no-progress"],
    "ladder": ["ladder", "--levels", "random", "book", "--deals", "1", "--no-progress"],
    "replay": ["replay", "{record}", "--show"],
    "rules": ["rules", "court-gamester-1754"],
}


@pytest.mark.parametrize("name", sorted(PROSE))
def test_every_commands_prose_fits_the_width_and_breaks_no_word(
    name: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 80 and at 50 columns, every line fits, and the words are those printed on a line
    wide enough for all: wrapping changed only where the lines break."""
    monkeypatch.chdir(tmp_path)
    argv = PROSE[name]
    if "{record}" in argv:  # a record played once, for the command that reads one
        record = _record(tmp_path).name
        argv = [a.replace("{record}", record) for a in argv]
    # the same advice at every width: ranked once (a function of its arguments)
    advise_once_per_question(monkeypatch)
    outs = {}
    for width in (1000, 80, 50):
        monkeypatch.setenv("COLUMNS", str(width))
        assert main(argv) == 0
        out = capsys.readouterr().out
        # the time a command took differs from run to run
        outs[width] = re.sub(r"\(\d+\.\d s\)", "(T s)", out)
        # (replay's grid of tricks comes in two blocks of six where twelve do not fit)
        outs[width] = re.sub(r"Tricks  \(> led, \* won\).*?tricks won:", "", outs[width],
                             flags=re.S)
        # (only a word wider than the line may pass its end: it is never broken)
        assert [x for x in out.splitlines() if len(x) > width and " " in x.strip()] == []
    assert outs[1000].split() == outs[80].split() == outs[50].split()
    assert max(len(x) for x in outs[1000].splitlines()) > 80 or name in ("odds-simple",)


@pytest.mark.parametrize("width", [80, 60])
def test_the_tables_fit_the_width(
    width: int, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", str(width))
    for argv in (["rules"], ["score", "--rules", "1754", "--elder", HAND, "--younger",
                             "TS 8S QH JH TH 9H 7H KD QD JD TD AC"]):
        assert main(argv) == 0
        out = capsys.readouterr().out
        assert all(len(x) <= width for x in out.splitlines()), out
        # no preset name is cut short
        if argv == ["rules"]:
            for preset in ("court-gamester-1754", "encyclopedia-19c", "du-coeur-1995"):
                assert preset in out


# ------------------------------------------------------------------ errors and a bare call
@pytest.mark.parametrize("command", command_names())
def test_every_commands_usage_error_starts_as_every_error_does(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stop:
        main([command, "--no-such-option"])
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("usage: piquet ")
    last = err.splitlines()[-1]
    assert last.startswith(ERROR_PREFIX) and len(err.split(ERROR_PREFIX)) == 2, err
    with pytest.raises(SystemExit):
        main([command, "--rules" if command != "rules" else "--json", "--json", "x", "y", "z"])
    err = capsys.readouterr().err
    assert err.startswith(f"usage: piquet {command}") or err.startswith("usage: piquet [")
    assert err.splitlines()[-1].startswith(ERROR_PREFIX), err


@pytest.mark.parametrize(
    "argv",
    [
        ["replay", "{tmp}/none.pqn"],
        ["odds", "--unseen", "2000", "--draw", "1", "--wanted", "1"],
        ["rules", "no-such-rules"],
        ["score", "--elder", "AS"],
        ["advise", "--role", "elder", "--hand", HAND, "--seed", "-1"],
        ["tournament", "--players", "book", "random", "--seed", "-1"],
        ["ladder", "--levels", "random", "nobody"],
        ["play", "--auto", "random", "random", "--seed", "-1"],
        ["tally", "--load", "{tmp}/none.json"],
        ["serve", "--port", "0"],
    ],
)
def test_every_commands_refusal_starts_with_the_one_prefix(
    argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    argv = [a.replace("{tmp}", str(tmp_path)) for a in argv]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert not captured.out
    lines = captured.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(ERROR_PREFIX), captured.err
    assert "Traceback" not in captured.err


def test_piquet_alone_prints_the_help_and_where_to_start_and_exits_2(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A bare call runs nothing: the help and the first commands to try, and status 2,
    as argparse gives any call that does not say what to do."""
    assert main([]) == 2
    out = capsys.readouterr().out
    assert out.startswith("usage: piquet ")
    assert "Start here:" in out
    for command in ("serve", "play", "rules"):
        assert re.search(rf"^  piquet {command}  +\S", out, flags=re.M), command
    assert all(len(x) <= 80 for x in out.splitlines())


def test_start_here_names_only_the_commands_there_are() -> None:
    without = start_here(["serve", "play", "rules"], width=80)
    assert "glossary" not in without and "puzzle" not in without
    lessons = start_here(["serve", "play", "rules", "glossary", "puzzle"], width=80)
    assert "  piquet glossary " in lessons and "  piquet puzzle " in lessons
    # the first three keep their order, the lessons come after them
    order = [lessons.index(f"piquet {c} ") for c in ("serve", "play", "rules", "glossary")]
    assert order == sorted(order)


def test_an_error_at_a_terminal_is_wrapped_and_into_a_pipe_whole(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from piquet.cli import text

    argv = ["odds", "--unseen", "2000", "--draw", "1", "--wanted", "1"]
    assert main(argv) == 2
    whole = capsys.readouterr().err
    assert whole.count("\n") == 1 and len(whole) > 80
    monkeypatch.setattr(text, "is_terminal", lambda stream: True)
    monkeypatch.setenv("COLUMNS", "61")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert all(len(x) <= 60 for x in err.splitlines()) and err.count("\n") > 1
    assert " ".join(err.split()) == " ".join(whole.split())


def test_wrap_of_several_lines_wraps_each() -> None:
    text = "first " * 20 + "\n\n" + "  second " * 10
    out = wrap(text, 50).split("\n")
    assert "" in out and all(len(x) <= 50 for x in out)
