"""``piquet play`` through a real terminal: tmux runs it, the test types and reads the screen.

Each test starts the installed ``piquet`` command in a detached tmux pane,
waits for a prompt (the last line of the screen ending in ``>``), types an
answer with ``send-keys`` and reads the screen with ``capture-pane``.  At the
first prompt of every kind it first types bad input (a typo, a card not held,
a wrong number of discards, a claim that is not one, an answer not offered)
and checks that one line says why and the same question comes back.  Then it
answers with the first legal choice, to the end of the game.  Every wait is
bounded.  The tests skip when tmux is not installed (scripts/install-test-tools
installs it).
"""

from __future__ import annotations

import itertools
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from promptkit import PACK, first_legal, kind_of

TMUX = shutil.which("tmux")
PIQUET = Path(sys.executable).with_name("piquet")

pytestmark = [
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (scripts/install-test-tools)"),
    pytest.mark.skipif(not PIQUET.exists(), reason="the piquet command is not installed"),
]

WAIT = 120.0
"""Longest wait for the program to answer a keystroke, in seconds (a ceiling: each wait
ends when the prompt is there)."""
START = 300.0
"""Longest wait for the program to start (the AI levels load the compiled core)."""
_counter = itertools.count()

class Pane:
    """One ``piquet`` process in its own tmux server (socket), so tests never collide."""

    def __init__(self, cwd: Path, args: list[str], *, width: int = 110, height: int = 48) -> None:
        self.sock = f"piquet-test-{os.getpid()}-{next(_counter)}"
        command = shlex.join([str(PIQUET), *args]) + '; echo "[exit $?]"; sleep 120'
        env = {**os.environ, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        env.pop("TMUX", None)
        self._tmux(
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            "play",
            "-x",
            str(width),
            "-y",
            str(height),
            "-c",
            str(cwd),
            command,
            env=env,
        )

    def _tmux(self, *args: str, env: dict[str, str] | None = None) -> str:
        assert TMUX is not None
        done = subprocess.run(
            [TMUX, "-u", "-L", self.sock, *args],
            capture_output=True,
            text=True,
            timeout=WAIT,
            env=env,
            check=True,
        )
        return done.stdout

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "play")

    def scrollback(self) -> str:
        """The screen and up to 500 lines scrolled off above it (what scrolling up shows)."""
        return self._tmux("capture-pane", "-p", "-S", "-500", "-t", "play")

    def close(self) -> None:
        subprocess.run(
            [TMUX or "tmux", "-L", self.sock, "kill-server"], capture_output=True, timeout=WAIT
        )

    def wait(self, before: str | None = None, *, timeout: float = WAIT) -> str:
        """The screen, changed from ``before``, once the program waits at a prompt or exited."""
        deadline = time.monotonic() + timeout
        last = None
        screen = ""
        if before is not None:
            # keys were just sent: the screen read at once is still ``before`` (a tmux
            # client for nothing); the first read a poll later is what the answer can change
            time.sleep(0.04)
        while time.monotonic() < deadline:
            screen = self.screen()
            tail = last_line(screen)
            ready = tail.endswith(">") or tail.startswith("[exit ")
            if ready and screen != before and screen == last:
                return screen
            last = screen
            time.sleep(0.04)
        raise AssertionError(f"no prompt within {timeout} s; the screen:\n{screen}")

    def _screen_then(self, *sends: list[str]) -> str:
        """The screen, then each ``send-keys`` in turn: one tmux client for them all (a
        command sequence), unless an argument ends in ``;``, which tmux would read as the
        sequence's separator (then one client each)."""
        if any(a.endswith(";") for keys in sends for a in keys):
            before = self.screen()
            for keys in sends:
                self._tmux("send-keys", "-t", "play", *keys)
            return before
        args = ["capture-pane", "-p", "-t", "play"]
        for keys in sends:
            args += [";", "send-keys", "-t", "play", *keys]
        return self._tmux(*args)

    def type(self, text: str) -> str:
        sends = [["-l", "--", text]] if text else []
        return self.wait(self._screen_then(*sends, ["Enter"]))

    def keys(self, *keys: str) -> str:
        return self.wait(self._screen_then(list(keys)))


def last_line(screen: str) -> str:
    lines = [x.rstrip() for x in screen.splitlines() if x.strip()]
    return lines[-1] if lines else ""


@pytest.fixture
def pane_factory(tmp_path: Path) -> Iterator[list[Pane]]:
    panes: list[Pane] = []
    yield panes
    for p in panes:
        p.close()


def start(panes: list[Pane], cwd: Path, args: list[str]) -> tuple[Pane, str]:
    pane = Pane(cwd, args)
    panes.append(pane)
    return pane, pane.wait(timeout=START)


def hand_of(screen: str) -> list[str]:
    """The cards of the last "Your hand" line on the screen."""
    found: list[str] = []
    for line in screen.splitlines():
        if line.startswith("Your hand"):
            found = re.findall(r"\b[AKQJT9876][SHDC]\b", line)
    return found


def bad_inputs(kind: str, prompt: str, screen: str) -> list[tuple[str, str]]:
    """Bad answers for a prompt, each with a fragment of the one-line reason expected."""
    out = [("xyzzy", "! ")]
    hand = hand_of(screen)
    if kind == "intro":
        out = [("maybe", "please answer y or n")]
    elif kind == "play":
        missing = next(c for c in PACK if c not in hand)
        out.append((missing, f"you do not hold {missing}"))
        out.append(("13", "there is no card number 13"))
        m = re.match(r"Play a card \(([^)]*)\)", prompt)
        if m:
            legal = m.group(1).split()
            other = [c for c in hand if c not in legal]
            if other:
                out.append((other[0].lower(), "must"))
    elif kind == "discard":
        m = re.match(r"Discard (\d+) to (\d+) cards?>", prompt)
        if m:
            lo, hi = int(m.group(1)), int(m.group(2))
            if hi < len(hand):
                many = " ".join(str(i) for i in range(1, hi + 2))
                out.append((many, f"not {hi + 1}"))
            if lo > 0:
                out.append(("-", "not 0"))
        else:
            out.append(("-", "not 0"))
        missing = next(c for c in PACK if c not in hand)
        out.append((f"{missing}", f"you do not hold {missing}"))
    elif kind == "declare":
        suits: dict[str, str] = {}
        for c in hand:
            suits.setdefault(c[1], c)
        if len(suits) >= 2:
            a, b = list(suits.values())[:2]
            out.append((f"{a} {b}", "not a claim you may declare"))
        out.append(("99", "there is no choice 99"))
    elif kind == "answer":
        if "not good" not in prompt:
            out.append(("not good", "you cannot say not good"))
        out.append(("99", "there is no choice 99"))
    elif kind == "deal":
        out.append(("5", "5 is not allowed"))
    elif kind == "blanche":
        out.append(("99", "99 is not allowed"))
    elif kind == "continue":
        out = [("xyzzy", "press Enter to go on")]
    elif kind == "handover":
        out = [("xyzzy", "press Enter when")]
    return out


def play_through(
    pane: Pane, screen: str, *, stop_after_deals: int | None = None, max_prompts: int = 400
) -> tuple[str, set[str], int]:
    """Answer every prompt (bad input first at each new kind) until the program exits.

    Returns the last screen, the kinds of prompt met, and the number of deals finished.
    """
    met: set[str] = set()
    deals = 0
    for _ in range(max_prompts):
        tail = last_line(screen)
        if tail.startswith("[exit "):
            return screen, met, deals
        kind = kind_of(tail)
        if kind not in met:
            met.add(kind)
            for text, reason in bad_inputs(kind, tail, screen):
                after = pane.type(text)
                assert last_line(after) == tail, (text, after)
                said = [x for x in after.splitlines() if x.startswith("! ")]
                if kind not in ("intro",):
                    assert said, (kind, text, after)
                assert reason in after, (kind, text, reason, after)
                assert "Traceback" not in after
            if kind not in ("intro", "continue", "handover"):
                after = pane.type("?")
                assert "quit" in after and last_line(after) == tail
        if kind == "continue":
            deals += 1
            if stop_after_deals is not None and deals >= stop_after_deals:
                return screen, met, deals
        screen = pane.type(first_legal(tail))
        assert "Traceback" not in screen
    raise AssertionError("the game did not end")


def test_cotgrave_whole_game_with_bad_input_at_every_prompt(
    tmp_path: Path, pane_factory: list[Pane]
) -> None:
    record = tmp_path / "game.pqn"
    pane, screen = start(
        pane_factory,
        tmp_path,
        [
            "play",
            "--rules",
            "cotgrave-1662",
            "--seed",
            "39",  # meets every prompt (the computer's moves: piquet.table.ai's seeds)
            "--opponent",
            "random",
            "--record",
            str(record),
            "--date",
            "1662-01-01",
        ],
    )
    assert kind_of(last_line(screen)) == "intro"
    screen = pane.type("y")  # read the summary: a 1662 player counts the Ruff
    assert "the Ruff" in screen and "36" in screen
    screen = pane.type("")
    assert "Your hand" in screen and "Score" in screen and "cotgrave-1662" in screen
    end, met, deals = play_through(pane, screen)
    assert {"deal", "discard", "leftovers", "declare", "answer", "play", "continue"} <= met
    assert {"question", "appoint"} <= met  # this seed meets both
    assert deals >= 2
    assert "[exit 0]" in end and "The match is over." in end
    assert "Traceback" not in end
    done = subprocess.run(
        [str(PIQUET), "replay", str(record), "--json"],
        capture_output=True,
        text=True,
        timeout=START,
    )
    assert done.returncode == 0, done.stderr
    final = json.loads(done.stdout)["final"]
    assert final["winner"] in (0, 1)
    assert "Ruff of" in record.read_text()


def test_encyclopedia_blanche_interrupt_and_resume(
    tmp_path: Path, pane_factory: list[Pane]
) -> None:
    record = tmp_path / "19c.pqn"
    args = [
        "play",
        "--rules",
        "encyclopedia-19c",
        "--seed",
        "5963",
        "--record",
        str(record),
        "--opponent",
        "random",
        "--date",
        "1850-06-01",
    ]
    pane, screen = start(pane_factory, tmp_path, args)
    screen = pane.type("n")
    assert "carte blanche" in screen.lower()
    screen, met, deals = play_through(pane, screen, stop_after_deals=1)
    assert {"blanche", "discard", "declare", "play", "continue"} <= met
    assert deals == 1
    # Ctrl-C at the end of the first deal saves the record and says how to resume
    end = pane.keys("C-c")
    assert "saved in" in end and "--resume" in end and "[exit 130]" in end
    assert "Traceback" not in end
    text = record.read_text()
    assert "[Result null]" in text and "deal 1 scores:" in text
    pane2, screen = start(pane_factory, tmp_path, ["play", "--resume", str(record)])
    end, _, _ = play_through(pane2, screen)
    assert "[exit 0]" in end and "The match is over." in end
    done = subprocess.run(
        [str(PIQUET), "replay", str(record)], capture_output=True, text=True, timeout=START
    )
    assert done.returncode == 0, done.stderr
    assert "Result:" in done.stdout
    assert '[Date "1850-06-01"]' in record.read_text()


def test_hotseat_hides_each_hand_between_turns(tmp_path: Path, pane_factory: list[Pane]) -> None:
    pane, screen = start(
        pane_factory,
        tmp_path,
        [
            "play",
            "--hotseat",
            "--rules",
            "rubicon",
            "--seed",
            "4",
            "--no-intro",
            "--names",
            "Ann",
            "Bob",
        ],
    )
    handovers = 0
    for _ in range(40):
        tail = last_line(screen)
        kind = kind_of(tail)
        if kind == "handover":
            handovers += 1
            assert "Your hand" not in screen  # the screen is clear between turns
            # and so is the scrollback: scrolling up does not show the other's hand
            assert "Your hand" not in pane.scrollback()
            if handovers == 1:
                after = pane.type("xyzzy")
                assert "press Enter when" in after and "Your hand" not in after
            screen = pane.type("")
            assert "Your hand" in screen
            continue
        if kind == "declare" and handovers == 1:
            after = pane.type("undo")
            assert "only for practice games against the computer" in after
        screen = pane.type(first_legal(tail))
        if handovers >= 3 and kind_of(last_line(screen)) != "handover":
            break
    assert handovers >= 3
    end = pane.type("quit")
    assert "saved in" in end and "[exit 0]" in end
    saved = list(tmp_path.glob("piquet-4.pqn"))
    assert saved, "quit saves the record in the current directory"
    assert '"Levels": ' not in saved[0].read_text()
    assert '[Levels ["human", "human"]]' in saved[0].read_text()


TABLE_KINDS = ("deal", "discard", "blanche", "leftovers", "appoint", "declare", "answer", "play")


def _cut_mid_word(screen: str, width: int) -> list[tuple[str, str]]:
    """Pairs of rows where a full row runs on into the next: the table wraps its lines at
    word boundaries short of the last column, so a full row is the terminal cutting a word."""
    rows = screen.splitlines()
    return [
        (a, b)
        for a, b in itertools.pairwise(rows)
        if len(a) == width and b[:1].strip()
    ]


@pytest.mark.parametrize("preset", ["cotgrave-1662", "court-gamester-1754"])
def test_the_table_fits_80_by_24_with_title_and_score_on_screen(
    preset: str, tmp_path: Path, pane_factory: list[Pane]
) -> None:
    """Issue 12: "the terminal table needs 120x30 and wraps words in the middle: fit 80x24
    (wrap at word boundaries, let the title and score stay on screen)"."""
    args = ["play", "--rules", preset, "--seed", "3", "--opponent", "random", "--no-intro"]
    pane = Pane(tmp_path, args, width=80, height=24)
    pane_factory.append(pane)
    screen = pane.wait(timeout=START)
    deals = tables = 0
    refused = False
    for _ in range(400):
        tail = last_line(screen)
        assert not tail.startswith("[exit ")
        kind = kind_of(tail)
        assert not _cut_mid_word(screen, 80), screen
        rows = [x for x in screen.splitlines() if x.strip()]
        if kind in TABLE_KINDS:
            tables += 1
            assert rows[0].startswith("Piquet · ") and preset in rows[0], screen
            assert rows[1].startswith("Score  "), screen
            assert any(x.startswith("Your hand") for x in rows), screen
            if kind == "play" and not refused:
                # one refusal still leaves the title and the score on the screen
                after = pane.type("xyzzy")
                assert last_line(after) == tail and "! " in after
                kept = [x for x in after.splitlines() if x.strip()]
                assert kept[0].startswith("Piquet · ") and kept[1].startswith("Score  "), after
                refused = True
        elif kind == "continue":
            assert rows[0].startswith("Deal ") and "is over." in rows[0], screen
            assert any(x.startswith(("Score  ", "Game ")) for x in rows), screen
            deals += 1
            if deals >= 2:
                break
        screen = pane.type(first_legal(tail))
    assert deals >= 2 and tables >= 30 and refused
