"""``piquet score``: one hand pair as a table or JSON, or JSON lines from standard input."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import piquet.analysis.batch as batch
import piquet.cli.score_cmd as score_cmd
from piquet.analysis.handscore import score_hands
from piquet.cli import main
from piquet.core.cards import CardSet
from piquet.core.rules import PRESETS, get_rules

ELDER = "AS KS QS JS TS 9S AH KH QH AD KD AC"
YOUNGER = "8S 7S 6S JH TH 9H 8H QD JD TD QC JC"
YOUNGER32 = "8S 7S 9D JH TH 9H 8H QD JD TD QC JC"
KEYS = {"carte_blanche", "point", "sequences", "sets", "repique", "totals"}
CEILING = 300.0
"""Seconds a ``piquet`` process may take: a loaded machine is slow to start one (only a
hang reaches it)."""


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """``piquet score ARGV`` in this process: (exit status, stdout, stderr)."""
    status = main(["score", *argv])
    out, err = capsys.readouterr()
    return status, out, err


@pytest.fixture
def feed(monkeypatch: pytest.MonkeyPatch) -> Any:
    def put(text: str) -> None:
        monkeypatch.setattr(sys, "stdin", io.StringIO(text))

    return put


def _line(elder: str, younger: str, **flags: bool) -> str:
    return json.dumps({"elder": elder, "younger": younger, **flags})


def _want(rules_name: str, elder: str, younger: str, **flags: bool) -> dict[str, Any]:
    rules = get_rules(rules_name)
    e, y = CardSet.parse(elder).mask, CardSet.parse(younger).mask
    return score_hands(e, y, rules, **flags).to_json()


# ---------------------------------------------------------------------------- one pair


def test_single_pair_json(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = _run(
        capsys, "--rules", "cotton-1674", "--elder", ELDER, "--younger", YOUNGER, "--json"
    )
    assert status == 0 and err == ""
    got = json.loads(out)
    assert set(got) >= KEYS
    assert got == _want("cotton-1674", ELDER, YOUNGER)
    # ruff of 60 (6), sixième major and tierce major (19), quatorze of aces and three kings (17)
    assert got["point"] == {"winner": "elder", "score": 6}
    assert got["sequences"] == {"winner": "elder", "score": 19}
    assert got["sets"] == {"winner": "elder", "score": 17}
    assert got["repique"] == "elder"
    assert got["totals"] == {"elder": 6 + 19 + 17 + 60, "younger": 0}


def test_single_pair_blanche_flags(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(
        capsys, "--rules", "1674", "--elder", ELDER, "--younger", YOUNGER,
        "--younger-blanche", "--json",
    )  # fmt: skip
    got = json.loads(out)
    assert status == 0
    assert got["carte_blanche"] == {"elder": 0, "younger": 10}
    assert got["repique"] is None  # the blank bars elder's repique
    assert got == _want("cotton-1674", ELDER, YOUNGER, younger_blanche=True)


def test_single_pair_table_says_what_and_why(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "250")  # one table line per row, to search the text
    status, out, err = _run(
        capsys, "--rules", "cotton-1674", "--elder", ELDER, "--younger", YOUNGER
    )
    assert status == 0 and err == ""
    flat = " ".join(out.split())
    for words in (
        "cotton-1674",
        "ruff of 60",
        "ruff of 37",
        "elder counts 6",
        "sixième major in spades",
        "quart to the knave in hearts",
        "quatorze of aces",
        "three knaves",
        "repique",
        "102",
    ):
        assert words in flat, words


def test_table_for_equal_classes_and_both_blanches(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "250")
    status, out, _ = _run(
        capsys, "--rules", "du-coeur-1995",
        "--elder", "AS TS 9S 8S 7S 6S AH TH 9H 8H 7H 6H",
        "--younger", "AD TD 9D 8D 7D 6D AC TC 9C 8C 7C 6C",
        "--elder-blanche", "--younger-blanche",
    )  # fmt: skip
    flat = " ".join(out.split())
    assert status == 0
    assert "neither counts it under du-coeur-1995" in flat
    assert "equal: neither counts" in flat


def test_cards_written_in_every_accepted_way(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = _run(
        capsys, "--rules", "cotton", "--json",
        "--elder", "a♠ ks qs js 10s 9♠ ah kh qh ad kd ac",
        "--younger", "8S,7S,6S,JH,TH,9H,8H,QD,JD,TD,QC,JC",
    )  # fmt: skip
    assert status == 0
    assert json.loads(out) == _want("cotton-1674", ELDER, YOUNGER)


def test_house_rule_file(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A .toml house rule is a rule set too: here the higher rank wins the sets."""
    path = tmp_path / "our-table.toml"
    path.write_text('base = "cotton-1674"\nquatorze_beats_trio = false\n', encoding="utf-8")
    elder, younger = "AS AH AD 7S 8S JH 7D 9C 8C QH 9D 8D", "TS TH TD TC KS QS JS 9S 9H KC QC JC"
    status, out, _ = _run(capsys, "--rules", str(path), "--elder", elder, "--younger", younger,
                          "--json")  # fmt: skip
    assert status == 0
    assert json.loads(out)["sets"] == {"winner": "elder", "score": 3}
    status, out, _ = _run(capsys, "--rules", "cotton", "--elder", elder, "--younger", younger,
                          "--json")  # fmt: skip
    assert json.loads(out)["sets"] == {"winner": "younger", "score": 14}


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--elder", ELDER.replace("AC", "ZC"), "--younger", YOUNGER], "'ZC' is not a card"),
        (["--elder", ELDER.replace(" AC", ""), "--younger", YOUNGER], "holds 11 cards"),
        (["--elder", ELDER.replace("AC", "AS"), "--younger", YOUNGER], "AS is written twice"),
        (["--elder", ELDER, "--younger", YOUNGER.replace("8S", "AS")], "both hands hold AS"),
        (["--elder", ELDER], "--younger is missing"),
        (["--elder-blanche"], "go with --elder and --younger"),
        (["--rules", "nonesuch", "--elder", ELDER, "--younger", YOUNGER], "unknown rule set"),
        (
            ["--rules", "rubicon", "--elder", ELDER, "--younger", YOUNGER],
            "6S is not in the 32-card pack of rubicon; its ranks are A K Q J T 9 8 7",
        ),
    ],
)
def test_bad_single_pair_is_one_error_line(
    capsys: pytest.CaptureFixture[str], feed: Any, argv: list[str], says: str
) -> None:
    feed("")
    status, out, err = _run(capsys, *(argv if "--rules" in argv else ["--rules", "1674", *argv]))
    assert status == 2
    assert out == ""
    assert err.startswith("piquet: error: ")
    assert says in err
    assert err.count("\n") == 1 and "Traceback" not in err


# ---------------------------------------------------------------------------- JSON lines


def test_lines_in_order_with_errors(capsys: pytest.CaptureFixture[str], feed: Any) -> None:
    feed(
        "\n".join(
            [
                _line(ELDER, YOUNGER32),
                "this is not json",
                "",  # blank lines are skipped
                json.dumps(["a", "list"]),
                json.dumps({"elder": ELDER}),
                json.dumps({"elder": 12, "younger": YOUNGER32}),
                _line(ELDER.replace(" AC", ""), YOUNGER32),
                _line(ELDER.replace("AC", "XX"), YOUNGER32),
                _line(ELDER.replace("AC", "AS"), YOUNGER32),
                _line(ELDER, YOUNGER32.replace("8S", "AS")),
                _line(ELDER, YOUNGER),
                json.dumps({"elder": ELDER, "younger": YOUNGER32, "elder_blanche": "yes"}),
                json.dumps({"elder": ELDER, "younger": YOUNGER32, "rules": "rubicon"}),
                _line(ELDER, YOUNGER32, younger_blanche=True),
            ]
        )
        + "\n"
    )
    status, out, err = _run(capsys, "--rules", "rubicon")
    assert status == 1 and err == ""
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == 13
    assert rows[0] == _want("rubicon", ELDER, YOUNGER32)
    assert set(rows[0]) >= KEYS
    assert rows[-1] == _want("rubicon", ELDER, YOUNGER32, younger_blanche=True)
    errors = [r["error"] for r in rows[1:-1]]
    assert all(set(r) == {"error"} for r in rows[1:-1])
    expected = [
        ("line 2: not JSON", "write one object per line"),
        ("line 4: a line must be a JSON object", "not a list"),
        ('line 5: "younger" is missing', "12 cards each"),
        ('line 6: "elder" must be a string of 12 cards', "not a number"),
        ("line 7: elder holds 11 cards", "exactly 12"),
        ("line 8: elder: 'XX' is not a card", "rank (A K Q J T 9 8 7 6) then suit"),
        ("line 9: elder: AS is written twice", ""),
        ("line 10: both hands hold AS", "each card is in one hand only"),
        ("line 11: younger: 6S is not in the 32-card pack of rubicon", "A K Q J T 9 8 7"),
        ('line 12: "elder_blanche" must be true or false', "not a string"),
        ("line 13: unknown field 'rules'", "--rules"),
    ]
    assert len(errors) == len(expected)
    for text, (start, allowed) in zip(errors, expected, strict=True):
        assert text.startswith(start), text
        assert allowed in text, text


def test_all_good_lines_exit_zero(capsys: pytest.CaptureFixture[str], feed: Any) -> None:
    feed(_line(ELDER, YOUNGER, elder_blanche=True) + "\n" + _line(YOUNGER, ELDER))
    status, out, _ = _run(capsys, "--rules", "du-coeur-1995", "--json")
    assert status == 0
    rows = [json.loads(line) for line in out.splitlines()]
    assert rows == [
        _want("du-coeur-1995", ELDER, YOUNGER, elder_blanche=True),
        _want("du-coeur-1995", YOUNGER, ELDER),
    ]


def test_no_input_no_output(capsys: pytest.CaptureFixture[str], feed: Any) -> None:
    feed("")
    assert _run(capsys) == (0, "", "")


def _random_lines(rules_name: str, n: int, seed: int) -> list[dict[str, Any]]:
    rules = PRESETS[rules_name]
    rng = random.Random(seed)
    pack = [i for i in range(36) if rules.deck_size == 36 or i % 9]
    out = []
    for _ in range(n):
        rng.shuffle(pack)
        out.append(
            {
                "elder": str(CardSet(sum(1 << i for i in pack[:12]))),
                "younger": str(CardSet(sum(1 << i for i in pack[12:24]))),
                "elder_blanche": rng.random() < 0.2,
                "younger_blanche": rng.random() < 0.2,
            }
        )
    return out


@pytest.mark.parametrize("name", ["du-coeur-1995", "encyclopedia-19c"])
def test_many_lines_go_through_the_batch_scorer(
    capsys: pytest.CaptureFixture[str], feed: Any, monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    n = score_cmd.BATCH_MIN + 50
    lines = _random_lines(name, n, seed=7)
    bad = {17: "{oops", 200: _line(ELDER, ELDER)}
    text = [bad.get(i, json.dumps(d)) for i, d in enumerate(lines)]
    feed("\n".join(text) + "\n")
    calls: list[int] = []
    real = batch.score_batch

    def spy(elder: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(len(elder))
        return real(elder, *args, **kwargs)

    monkeypatch.setattr(score_cmd, "score_batch", spy)
    status, out, _ = _run(capsys, "--rules", name)
    assert status == 1
    assert calls == [n - len(bad)]
    rows = [json.loads(line) for line in out.splitlines()]
    assert len(rows) == n
    for i, (row, d) in enumerate(zip(rows, lines, strict=True)):
        if i in bad:
            assert row["error"].startswith(f"line {i + 1}: ")
        else:
            assert row == _want(name, **d)


# ---------------------------------------------------------------------------- a real process


def _piquet() -> str:
    exe = Path(sys.executable).parent / "piquet"
    if not exe.exists():  # pragma: no cover - the venv always has it
        pytest.skip("the piquet script is not installed beside this Python")
    return str(exe)


def test_real_process_single_and_lines() -> None:
    exe = _piquet()
    single = subprocess.run(
        [exe, "score", "--rules", "cotton-1674", "--elder", ELDER, "--younger", YOUNGER,
         "--json"],
        capture_output=True, text=True, timeout=CEILING, check=False,
    )  # fmt: skip
    assert single.returncode == 0, single.stderr
    assert json.loads(single.stdout) == _want("cotton-1674", ELDER, YOUNGER)

    bad = subprocess.run(
        [exe, "score", "--elder", ELDER, "--younger", YOUNGER],
        capture_output=True, text=True, timeout=CEILING, check=False,
    )  # fmt: skip
    assert bad.returncode == 2
    assert bad.stderr.startswith("piquet: error: younger: 6S is not in the 32-card pack")
    assert "Traceback" not in bad.stderr

    lines = _random_lines("rubicon", score_cmd.BATCH_MIN + 10, seed=3)
    text = "\n".join(json.dumps(d) for d in lines) + "\nnot json\n"
    many = subprocess.run(
        [exe, "score", "--rules", "rubicon"],
        input=text.encode(), capture_output=True, timeout=CEILING, check=False,
    )  # fmt: skip
    assert many.returncode == 1
    rows = [json.loads(line) for line in many.stdout.decode().splitlines()]
    assert rows[:-1] == [_want("rubicon", **d) for d in lines]
    assert rows[-1]["error"].startswith(f"line {len(lines) + 1}: not JSON")


def test_real_process_answers_each_line_as_it_comes() -> None:
    """A program may write one line and wait for its answer before writing the next."""
    proc = subprocess.Popen(
        [_piquet(), "score", "--rules", "cotton-1674"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdin is not None and proc.stdout is not None
    watchdog = threading.Timer(CEILING, proc.kill)  # never hang the suite on a blocked read
    watchdog.start()
    try:
        for flags in ({}, {"elder_blanche": True}, {"younger_blanche": True}):
            proc.stdin.write(_line(ELDER, YOUNGER, **flags) + "\n")
            proc.stdin.flush()
            answer = proc.stdout.readline()
            assert json.loads(answer) == _want("cotton-1674", ELDER, YOUNGER, **flags)
        proc.stdin.write("bad\n")
        proc.stdin.close()
        assert "error" in json.loads(proc.stdout.readline())
        assert proc.wait(timeout=CEILING) == 1
    finally:
        watchdog.cancel()
        if proc.poll() is None:  # pragma: no cover - only if an assertion failed
            proc.kill()
            proc.wait()
