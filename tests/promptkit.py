"""The prompts of ``piquet play``, as the terminal tests read them: one table for the
simulated keyboard (test_play_cli.py) and the real terminal (test_tmux_play.py).

Each kind of question the program asks is told by how its prompt begins; a new kind of
prompt is added here, once, and both kinds of test know it.
"""

from __future__ import annotations

import re

RANKS = "AKQJT9876"
SUITS = "SHDC"
PACK = [r + s for s in SUITS for r in RANKS]
"""Every card code of the 36-card pack, spades first."""

KINDS = (
    ("intro", r"^Read a short summary"),
    ("deal", r"^Deal by"),
    ("discard", r"^Discard "),
    ("blanche", r"^Carte blanche: discard"),
    ("leftovers", r"^(Look at (them|it)|Turn (them|it) up|Name a )"),
    ("appoint", r"^Appoint"),
    ("declare", r"^Your (point|ruff|sequence|set)>"),
    ("answer", r"^Your answer"),
    ("question", r"^Ask which"),
    ("play", r"^Play a card"),
    ("continue", r"^Press Enter for"),
    ("handover", r"press Enter when you are ready>"),
    ("begin", r"^Press Enter to begin"),
)
"""Each kind of prompt and the pattern its text matches."""


def kind_of(prompt: str) -> str:
    """The kind of ``prompt`` (a name of :data:`KINDS`); an unknown prompt fails the test."""
    for kind, rx in KINDS:
        if re.search(rx, prompt):
            return kind
    raise AssertionError(f"unknown prompt {prompt!r}")


def first_legal(prompt: str) -> str:
    """The answer that takes the first choice ``prompt`` offers."""
    kind = kind_of(prompt)
    if kind == "deal":
        m = re.search(r"\((\d+)", prompt)
        assert m
        return m.group(1)
    if kind == "discard":
        m = re.match(r"Discard (\d+) cards?>", prompt)
        return " ".join(str(i) for i in range(1, int(m.group(1)) + 1)) if m else "1"
    if kind == "blanche":
        m = re.search(r"\((\d+)-", prompt)
        assert m
        return m.group(1)
    if kind == "play":
        m = re.match(r"Play a card \(([^ )]+)", prompt)
        return m.group(1) if m else "1"
    if kind in ("continue", "handover", "begin"):
        return ""
    if kind == "intro":
        return "n"
    return "1"
