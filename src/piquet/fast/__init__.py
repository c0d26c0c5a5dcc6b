"""The compiled fast path: whole deals of every rule set in C (the extension
``piquet._native``, sources in ``src/piquet/native/``), for search, simulation and
research.  See ``docs/architecture.md`` ("The fast path") and ``docs/integrations.md``."""

from piquet.fast.engine import (
    FastDeal,
    Playouts,
    actions_of,
    play_deal,
    playout,
    random_deals,
    trace_of,
)
from piquet.fast.params import compile_rules

__all__ = [
    "FastDeal",
    "GameEnv",
    "VectorEnv",
    "Playouts",
    "actions_of",
    "compile_rules",
    "play_deal",
    "playout",
    "random_deals",
    "trace_of",
]


def __getattr__(name: str) -> object:
    """``VectorEnv`` and ``GameEnv`` on first use (they import Gymnasium, which the
    play-outs never need)."""
    if name == "VectorEnv":
        from piquet.fast.env import VectorEnv

        return VectorEnv
    if name == "GameEnv":
        from piquet.fast.gameenv import GameEnv

        return GameEnv
    raise AttributeError(f"module 'piquet.fast' has no attribute {name!r}")
