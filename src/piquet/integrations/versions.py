"""Versions of the research environments: a version changes when a rule reading changes.

An environment's results are comparable only between runs of the same rules.  When a
reading of a rule set changes (the texts are silent or ambiguous somewhere and the
package reads them another way), so does what an agent is trained and measured on;
the version says which readings a run used.  It is the ``version`` parameter of the
OpenSpiel game ``python_piquet`` and the number in the PettingZoo environment's name
(``piquet_v2``).  The action ids are the same in every version so far; the observations
changed once, in version 2 (a sequence said without its suit).

Each :class:`EnvVersion` names the readings it plays by the knobs of
:class:`~piquet.core.rules.Rules` that give them (``knobs``, applied to the rule set
asked for): a version whose readings are all knobs is played exactly, at any later
release.  A reading that is not (yet) a knob cannot be selected: such a version still
loads, so code and saved game strings that name it keep running, but it plays the
current readings, and :func:`check_version` says so with an :class:`OldReadingWarning`.
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from piquet.core.errors import PiquetError
from piquet.core.rules import Rules

__all__ = [
    "ENV_VERSION",
    "VERSIONS",
    "EnvVersion",
    "OldReadingWarning",
    "check_version",
    "env_name",
    "versioned_rules",
]


@dataclass(frozen=True, slots=True)
class EnvVersion:
    """One version of the environments: from when, and the readings it changed."""

    number: int
    since: str
    """The date (and commit) from which the package plays it."""
    change: str
    """The rule reading that changed from the version before, in words."""
    knobs: Mapping[str, Any] | None = field(default_factory=dict)
    """The :class:`Rules` knobs that select this version's readings on any rule set (an
    empty mapping: the presets as they are), or None where a reading of this version is
    not a knob, so that it cannot be played any more."""


VERSIONS: Final[Mapping[int, EnvVersion]] = {
    0: EnvVersion(
        0,
        "2026-11-21 to 2026-11-27, package 0.1.0",
        "the first readings: the winner of the sequences counted what he did not declare "
        "of the run he declared from as a further sequence (a tierce major declared from a "
        "sixième also counted a tierce to the knave, and showed it)",
        None,
    ),
    1: EnvVersion(
        1,
        "2026-11-27 (commit bcf24c3)",
        "a partly declared run: what the winner of the sequences did not declare of the run "
        "he declared from is sunk, not a further sequence (docs/rules.md, 'the winner of "
        "the class counts')",
        None,
    ),
    2: EnvVersion(
        2,
        "2026-12-06 (issue 36), package 0.2.0",
        "what is said aloud: a sequence is said by its length and top card, never its suit, "
        "so a sequence beaten or equalled, never shown, leaves its suit unknown to the other "
        "seat; the observation tensors' declarations part lost its suit entries (198 wide, "
        "now 174) and the strings name no suit. Version 1's observations told the other seat "
        "that suit: they are not made again",
    ),
}

ENV_VERSION: Final = max(VERSIONS)
"""The version this release plays, and the default."""


class OldReadingWarning(UserWarning):
    """A version was asked for whose readings this release no longer plays."""


def check_version(version: object) -> int:
    """``version`` as a known version number.

    Raises :class:`PiquetError` for a value that is not one (naming the versions); warns
    with :class:`OldReadingWarning` for a version whose readings are no longer played.
    """
    if isinstance(version, bool) or not isinstance(version, int):
        if isinstance(version, str) and version.strip().isdigit():
            version = int(version.strip())
        else:
            raise PiquetError(f"version must be a whole number ({_known()}), not {version!r:.40}")
    if version not in VERSIONS:
        raise PiquetError(f"version {version} is not known; the versions are {_known()}")
    if VERSIONS[version].knobs is None:
        after = VERSIONS[version + 1]
        warnings.warn(
            OldReadingWarning(
                f"environment version {version} ({VERSIONS[version].since}) cannot be "
                f"played as it was: this release plays version {ENV_VERSION}'s readings. "
                f"Version {version + 1} changed {after.change}. Results under version "
                f"{version} and version {ENV_VERSION} differ where that arises."
            ),
            stacklevel=3,
        )
    return version


def versioned_rules(rules: Rules, version: int) -> Rules:
    """``rules`` with the readings of ``version`` (a checked version number): the knobs it
    selects changed, where it names any and they differ."""
    knobs = VERSIONS[version].knobs
    if not knobs:
        return rules
    changed = {k: v for k, v in knobs.items() if getattr(rules, k) != v}
    return rules.replace(**changed) if changed else rules


def env_name(version: int = ENV_VERSION) -> str:
    """The environment's versioned name, ``piquet_v2``."""
    return f"piquet_v{version}"


def _known() -> str:
    return ", ".join(
        f"{n} (current)" if n == ENV_VERSION else f"{n} ({v.since})" for n, v in VERSIONS.items()
    )
