"""``piquet replay FILE``: replays and checks a record, prints the result, refuses bad ones."""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from piquet.cli import main
from piquet.core.match import Match, new_match
from piquet.core.notation import dump_text, save


def played(rules: str, seed: int, stop: int | None = None) -> Match:
    m = new_match(rules, seed=seed)
    rng = random.Random(seed)
    n = 0
    while not m.finished and (stop is None or n < stop):
        m = m.apply(m.random_action(rng))
        n += 1
    return m


def _prose(text: str) -> str:
    """Printed prose with its line breaks undone (lines are wrapped to 80 columns)."""
    return " ".join(text.split())


@pytest.fixture
def record(tmp_path: Path) -> Path:
    path = tmp_path / "game.pqn"
    save(path, played("cotton-1674", 5), tags={"Date": "1674-01-01"})
    return path


def test_replay_prints_the_checked_result(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record)]) == 0
    out = _prose(capsys.readouterr().out)
    assert "every move is legal and every statement agrees" in out
    assert re.search(r"Result: player 1 \d+, player 2 \d+: player [12] wins\.", out)


@pytest.mark.parametrize("suffix", [".pqn", ".json"])
def test_replay_json_gives_final(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    m = played("rubicon", 3)
    path = tmp_path / f"g{suffix}"
    save(path, m)
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    res = m.result()
    assert data["final"] == {"scores": res["scores"], "winner": res["winner"]}
    assert data["result"] == res and data["finished"] is True
    assert data["actions"] == len(m.history)


def test_replay_reads_the_engines_bare_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    m = played("court-gamester-1754", 8)
    path = tmp_path / "bare.json"
    path.write_text(json.dumps(m.to_record()))
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["final"]["winner"] == m.result()["winner"]


def test_replay_of_an_unfinished_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "part.pqn"
    save(path, played("encyclopedia-19c", 4, stop=70))
    assert main(["replay", str(path)]) == 0
    out = _prose(capsys.readouterr().out)
    assert "Unfinished" in out and "--resume" in out
    assert main(["replay", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["finished"] is False and data["final"]["winner"] is None


def test_replay_of_a_resigned_game_says_who_resigned_and_who_won(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game resigned at the web table is written with the tag Resigned (the seat); it
    replayed as "Unfinished ... Go on with: piquet play --resume"."""
    path = tmp_path / "resigned.pqn"
    m = played("rubicon", 3, stop=30)
    save(path, m, tags={"Resigned": 0})
    assert main(["replay", str(path)]) == 0
    out = _prose(capsys.readouterr().out)
    assert "Resigned: player 1 resigned in game 1, deal" in out and "player 2 wins." in out
    assert "Unfinished" not in out and "--resume" not in out
    assert main(["replay", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["resigned"] == 0
    # it cannot be played on
    assert main(["play", "--resume", str(path)]) == 2
    assert "player 1 resigned this game; it cannot be played on" in capsys.readouterr().err
    # a tag that names no player, or a game played to its end, is refused
    for i, (bad, why) in enumerate(((7, "names the player who resigned, 0 to 1, not 7"),
                                    ("x", 'not "x"'))):
        save(tmp_path / f"bad{i}.json", m, tags={"Resigned": bad})
        assert main(["replay", str(tmp_path / f"bad{i}.json")]) == 2
        assert why in capsys.readouterr().err
    save(tmp_path / "over.pqn", played("rubicon", 3), tags={"Resigned": 1})
    assert main(["replay", str(tmp_path / "over.pqn")]) == 2
    assert "this one was played to the end" in capsys.readouterr().err


def test_show_steps_through_every_deal(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record), "--show"]) == 0
    out = capsys.readouterr().out
    deals = re.findall(r"^deal \d+ of game 1: ", out, flags=re.M)
    text = record.read_text()
    assert len(deals) == len(re.findall(r"^deal \d+ of game 1: ", text, flags=re.M)) > 1
    assert "dealt to elder:" in out and "tricks won:" in out
    assert "every move is legal" in out


def _deals_and_tricks(m: Match) -> list[int]:
    """The tricks completed in each deal of ``m``."""
    from piquet.core.notation import annotate

    return [len(dn.tricks) for dn in annotate(m)]


def test_show_marks_who_led_and_who_won_each_trick_and_the_score(
    record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["replay", str(record), "--show"]) == 0
    out = capsys.readouterr().out
    tricks = re.findall(r"^Trick (\d+): (.*)$", out, flags=re.M)
    m = played("cotton-1674", 5)
    # every completed trick is told once, in order, saying who led and who won it
    done = [t for t in tricks if "wins." in t[1]]
    assert len(done) == sum(_deals_and_tricks(m))
    assert all(" leads " in t[1] or "'s " in t[1] for t in done)
    assert all(re.search(r"; \S+( \d)? wins\.$", t[1]) for t in done)
    # the score after each trick, this deal's and the game's
    assert out.count("  Score this deal: ") == len(done) + (len(tricks) - len(done))
    assert "(> led, * won)" in out and ">" in out and "*" in out
    for line in out.splitlines():
        # every line fits 80 columns but the record's own path, one word that cannot break
        assert len(line) <= 80 or line == f"{record}:", line


def _stepping(
    monkeypatch: pytest.MonkeyPatch, answers: str
) -> None:
    """Input and output at a terminal, the reader typing ``answers``."""
    import io

    import piquet.cli.replay_cmd as replay_cmd

    monkeypatch.setattr(replay_cmd, "_is_terminal", lambda stream: True)
    monkeypatch.setattr(sys, "stdin", io.StringIO(answers))


def test_show_at_a_terminal_waits_before_each_trick(
    record: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    m = played("cotton-1674", 5)
    per_deal = _deals_and_tricks(m)
    _stepping(monkeypatch, "\n" * 1000)
    assert main(["replay", str(record), "--show"]) == 0
    out = capsys.readouterr().out
    # before the first trick and each next trick, and before each next deal
    asked = out.count("Enter: the first trick") + out.count("Enter: the next trick")
    assert asked == sum(per_deal)
    assert out.count("Enter: the next deal") == len(per_deal) - 1
    # the first prompt comes after the declarations, before any trick is told
    first = out.index("Enter: the first trick")
    assert "Trick 1: " not in out[:first] and "declare:" in out[:first]
    assert "every move is legal" in out


def test_show_stops_at_q_and_lets_a_deal_through_at_d(
    record: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stepping(monkeypatch, "\n\nq\n")
    assert main(["replay", str(record), "--show"]) == 0
    out = capsys.readouterr().out
    assert "Trick 2: " in out and "Trick 3: " not in out
    assert "deal 2 of game 1" not in out
    assert "every move is legal" in out  # the check's verdict all the same
    _stepping(monkeypatch, "d\nq\n")
    assert main(["replay", str(record), "--show"]) == 0
    out = capsys.readouterr().out
    first = _deals_and_tricks(played("cotton-1674", 5))[0]
    assert f"Trick {first}: " in out and "Enter: the next trick" not in out
    assert out.count("Enter: the next deal") == 1 and "deal 2 of game 1" not in out


def test_show_with_no_pause_or_no_terminal_never_asks(
    record: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stepping(monkeypatch, "")
    assert main(["replay", str(record), "--show", "--no-pause"]) == 0
    out = capsys.readouterr().out
    assert "Enter:" not in out and "deal 2 of game 1" in out
    monkeypatch.undo()
    assert main(["replay", str(record), "--show"]) == 0
    assert "Enter:" not in capsys.readouterr().out


def test_show_at_the_end_of_input_prints_the_rest(
    record: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _stepping(monkeypatch, "\n")  # one Enter, then the end of input
    assert main(["replay", str(record), "--show"]) == 0
    out = capsys.readouterr().out
    assert out.count("Enter:") == 2
    assert "deal 2 of game 1" in out and "every move is legal" in out


def test_show_with_json_keeps_stdout_json(record: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", str(record), "--show", "--json"]) == 0
    captured = capsys.readouterr()
    assert json.loads(captured.out)["final"]["winner"] in (0, 1)
    assert "dealt to elder:" in captured.err


def _corrupt(text: str, how: str) -> str:
    if how == "illegal-move":
        return re.sub(r"^(elder|younger): play:\w\w$", r"\1: play:XX", text, count=1, flags=re.M)
    if how == "wrong-card":
        lines = text.splitlines()
        i = next(n for n, x in enumerate(lines) if re.match(r"(elder|younger): play:", x))
        lines[i] = lines[i][:-2] + ("AS" if not lines[i].endswith("AS") else "AH")
        return "\n".join(lines) + "\n"
    if how == "wrong-score":
        return re.sub(
            r"(deal 2 scores: .*?\(elder\) )(\d+)", lambda m: m.group(1) + "777", text, count=1
        )
    if how == "wrong-hand":
        return re.sub(r"(dealt to younger: )(\S\S)", r"\g<1>6S", text, count=1)
    if how == "not-a-record":
        return "Dear diary, today I played piquet.\n"
    raise AssertionError(how)


@pytest.mark.parametrize(
    ("how", "fragment"),
    [
        ("illegal-move", "deal 1 of game 1, move"),
        ("wrong-card", "deal 1 of game 1, move"),
        ("wrong-score", "deal 2 of game 1"),
        ("wrong-hand", "dealt to younger: 6S"),
        ("not-a-record", "not a piquet record"),
    ],
)
def test_corrupt_records_are_refused(
    how: str, fragment: str, record: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bad = record.with_name("bad.pqn")
    bad.write_text(_corrupt(record.read_text(), how))
    assert main(["replay", str(bad)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("piquet: error: bad.pqn: ")
    assert fragment in captured.err and captured.err.count("\n") == 1
    assert "Traceback" not in captured.err


def test_missing_empty_and_binary_files_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.pqn"
    empty.write_text("")
    binary = tmp_path / "bin.pqn"
    binary.write_bytes(b"\x00\xff\xfe" * 50)
    for path, fragment in (
        (tmp_path / "none.pqn", "cannot read"),
        (empty, "not a piquet record"),
        (binary, "not UTF-8"),
        (tmp_path, "directory"),
    ):
        assert main(["replay", str(path)]) == 2
        err = capsys.readouterr().err
        assert fragment in err and "Traceback" not in err


def test_refusal_in_a_real_process_has_no_traceback(record: Path) -> None:
    bad = record.with_name("bad.json")
    data = json.loads(json.dumps(played("rubicon", 2).to_record()))
    data["actions"][4][1] = "play:QQ"
    bad.write_text(json.dumps(data))
    done = subprocess.run(
        [sys.executable, "-m", "piquet", "replay", str(bad)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2
    assert "action 5" in done.stderr and "Traceback" not in done.stderr


def test_a_record_written_twice_is_the_same(record: Path, tmp_path: Path) -> None:
    from piquet.core.notation import load

    rec = load(record)
    assert dump_text(rec.match, tags=rec.tags) == record.read_text()


def test_replay_of_a_tally_file_says_it_is_a_tally_and_how_to_read_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 12: "piquet replay tally.json (a tally file) says only 'the record has no
    "seed"': say that it is a tally and how to read it"."""
    import io

    from piquet.tally import new_tally

    session = new_tally("rubicon", names=("Anne", "Bob")).enter("dealer Anne")
    path = tmp_path / "tally.json"
    path.write_text(json.dumps(session.to_record()), encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert "tally.json: this is a tally of a game played with real cards" in err
    assert f"read it with: piquet tally --load {path}" in err
    assert 'no "seed"' not in err
    # and the command it names does read it
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["tally", "--load", str(path)]) == 0
    assert "Tally under rubicon: Anne and Bob" in capsys.readouterr().out


def test_show_of_a_record_that_stops_on_a_card_led_shows_that_card(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from piquet.core.actions import Play

    m = new_match("rubicon", seed=4)
    rng = random.Random(4)
    while True:  # to the first card of the play, and no further
        m = m.apply(m.random_action(rng))
        if m.history and isinstance(m.history[-1][1], Play):
            break
    path = tmp_path / "led.pqn"
    save(path, m)
    assert main(["replay", str(path), "--show"]) == 0
    out = capsys.readouterr().out
    card = m.history[-1][1].card
    assert re.search(rf"^Trick 1: \S+( \d)? leads {card}\.$", out, flags=re.M), out
    assert "Score this deal: " in out and "Unfinished" in out


def test_a_record_with_given_packs_is_refused_saying_where_it_replays(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A research adapter's record carries the packs its chance nodes drew (``packs``), not
    dealt from its seed: ``piquet replay``, ``piquet play --resume``, the notation's reader and
    ``Match.from_record`` deal from the seed, so they refuse it in one line that says why
    and where it replays (``Episode.from_record``, which still replays it), no stack trace."""
    from piquet.core.errors import RecordError
    from piquet.core.notation import loads
    from piquet.core.rules import get_rules
    from piquet.integrations.actions import TERMINAL, Episode, EpisodeFormat

    ep = Episode.start(get_rules("rubicon"), format=EpisodeFormat.GAME, max_deals=2)
    ep = ep.apply(0)
    rng = random.Random(3)
    while ep.to_move != TERMINAL:
        if ep.to_move < 0:
            ep = ep.draw_rest(rng)
            continue
        ids = ep.legal_ids()
        ep = ep.apply(ids[rng.randrange(len(ids))])
    rec = ep.record()
    assert len(rec["packs"]) == 2
    path = tmp_path / "episode.json"
    path.write_text(json.dumps(rec))
    said = ('this record\'s cards were not dealt from its seed: it carries "packs" (2 packs '
            "drawn by a research environment's chance nodes)")
    for argv in (["replay", str(path)], ["replay", "--json", str(path)],
                 ["play", "--resume", str(path)]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert said in _prose(err) and "Episode.from_record" in err
        assert "Traceback" not in err and len(err.strip().splitlines()) <= 3
    for read in (lambda: Match.from_record(rec), lambda: loads(json.dumps(rec))):
        with pytest.raises(RecordError, match="Replay it as the episode it was written from"):
            read()
    # the path it names replays it, byte for byte
    assert json.dumps(Episode.from_record(rec).record()) == json.dumps(rec)
    # a record without packs is untouched by the refusal
    plain = played("rubicon", 4, stop=30).to_record()
    assert Match.from_record(plain).to_record() == plain
