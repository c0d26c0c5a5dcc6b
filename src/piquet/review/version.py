"""The version of the analysis after the deal (:mod:`piquet.review.deal`), alone: the web
process reads and stores analyses by it without importing the analysis itself (its
solver is compiled code, run only in the job workers)."""

from __future__ import annotations

from typing import Final

__all__ = ["ANALYSIS_VERSION"]

ANALYSIS_VERSION: Final = 4
"""Bumped when the analysis changes: stored analyses of an older version are made again."""
