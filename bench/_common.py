"""What the paired measurements of the expert's variants share (``play_regret.py``,
``sink_earnings.py``): their common options, the players they make, the 95% interval.

The scripts run as ``python bench/X.py`` from the repository root, so this directory is
first on ``sys.path`` and they import this module as ``_common``.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable

from piquet.core.rules import Rules
from piquet.players.base import Player
from piquet.tournament import mean_ci
from piquet.tournament.pairs import _make


def ci(xs: list[float]) -> tuple[float, float, float]:
    """The mean of ``xs`` and its 95% interval (the tournament's, :func:`mean_ci`; 0 for
    no values)."""
    if not xs:
        return 0.0, 0.0, 0.0
    m, (lo, hi) = mean_ci(xs)
    return m, lo, hi


def paired_parser(description: str, *, variant: str, pairs: int) -> argparse.ArgumentParser:
    """The options of a paired measurement of ``--variant`` against ``--base`` on the
    tournament's deals (its packs and player seeds), ``--opponent`` on the other side."""
    ap = argparse.ArgumentParser(description=description)
    ap.add_argument("--variant", default=variant)
    ap.add_argument("--opponent", default="reference")
    ap.add_argument("--pairs", type=int, default=pairs)
    ap.add_argument("--start", type=int, default=0)
    ap.add_argument("--think", type=int, default=100)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--preset", default="rubicon")
    ap.add_argument("--base", default="expert",
                    help="the player the variant is compared with on the same deals and seeds")
    return ap


def player_maker(rules: Rules, think_ms: int) -> Callable[[str, int], Player]:
    """Players as the tournament makes them: ``make(level, seed)`` at ``think_ms``, playing
    ``rules``."""
    def make(level: str, seed: int) -> Player:
        return _make(level, seed, think_ms, rules)

    return make
