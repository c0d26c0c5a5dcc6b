"""``random``: uniform over the legal actions (the anchor of the strength ladder).

The player itself lives in :mod:`piquet.levels.quick`, light enough for a web process to play
without importing the other levels.
"""

from __future__ import annotations

from piquet.levels.quick import RandomPlayer
from piquet.players.base import register_level

__all__ = ["RandomPlayer"]

register_level("random", lambda seed, think_ms: RandomPlayer(seed))
