"""The terminal table: drawing a player's view and reading what he types.

:mod:`piquet.tui.screen` draws the table from a view, :mod:`piquet.tui.prompts`
asks the question of the moment and reads the answer, and :mod:`piquet.tui.session`
runs a game at the keyboard (``piquet play``) on the table (:mod:`piquet.table`: the
menu's words, the rules summary, the computer's turns, undo).
"""

from piquet.tui.prompts import Ask, Choice, InputError, ask_for, read_action
from piquet.tui.session import Session, advisor_hint, default_record_path, play_unattended

__all__ = [
    "Ask",
    "Choice",
    "InputError",
    "Session",
    "advisor_hint",
    "ask_for",
    "default_record_path",
    "play_unattended",
    "read_action",
]
