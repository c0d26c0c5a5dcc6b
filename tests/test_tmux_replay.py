"""``piquet replay --show`` in a real terminal (tmux, 80 by 24): it waits before each trick.

A new user found that ``--show`` printed a whole deal at once and marked neither leads nor
wins (issue 34).  tmux runs the command; the test reads the screen and types.  Skips
without tmux, as tests/test_tmux_play.py does (whose pane it uses).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from piquet.core.match import new_match
from piquet.core.notation import save
from piquet.players import make_player
from test_tmux_play import PIQUET, START, TMUX, Pane, last_line

pytestmark = [
    pytest.mark.skipif(TMUX is None, reason="tmux is not installed (scripts/install-test-tools)"),
    pytest.mark.skipif(not PIQUET.exists(), reason="the piquet command is not installed"),
]


def test_replay_show_steps_trick_by_trick_at_a_terminal(tmp_path: Path) -> None:
    m = new_match("encyclopedia-19c", seed=3)
    players = [make_player("book", seed=1), make_player("random", seed=2)]
    while not m.finished:
        p = m.to_act
        assert p is not None
        m = m.apply(players[p].choose(m.view(p)), p)
    save(tmp_path / "game.pqn", m)
    pane = Pane(tmp_path, ["replay", "game.pqn", "--show"], width=80, height=24)
    try:
        screen = pane.wait(timeout=START)
        # the exchange and the declarations, then a wait before the first card
        assert last_line(screen).startswith("Enter: the first trick · d: the rest of this deal")
        assert "Trick 1" not in screen
        screen = pane.type("")
        assert re.search(r"^Trick 1: .*; \S+( \d)? wins\.$", screen, flags=re.M), screen
        assert "Score this deal: " in screen and "Trick 2" not in screen
        assert last_line(screen).startswith("Enter: the next trick")
        screen = pane.type("")
        assert "Trick 2: " in screen and "Trick 3" not in screen
        screen = pane.type("d")  # the rest of the deal at once, then a wait for the next
        assert "(> led, * won)" in screen and "tricks won: " in screen
        assert last_line(screen).startswith("Enter: the next deal · q: stop")
        screen = pane.type("q")
        assert "every move is legal and every statement agrees" in " ".join(screen.split())
        assert "[exit 0]" in screen and "deal 2 of game 1" not in screen
        assert all(len(line.rstrip()) <= 80 for line in screen.splitlines())
    finally:
        pane.close()
