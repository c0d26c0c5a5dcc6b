"""What every part of the web table shares about a request: why it is refused, and the
checks of what it names (a rule set, a display name) and of its secrets.

A refusal is the table's :class:`~piquet.table.errors.TableError` with a
:class:`~piquet.table.errors.Refusal`; only the web edge (``web/app.py``, its
``HTTP_STATUS``) says it as an HTTP status.
"""

from __future__ import annotations

import hashlib
import re
import unicodedata
from typing import Final

from piquet.core.errors import PiquetError
from piquet.core.rules import PRESETS, Rules, preset
from piquet.table.errors import Refusal, TableError

__all__ = ["CONTROL_CHARS", "MAX_NAME", "clean_name", "hash_secret", "preset_named"]

MAX_NAME: Final = 30
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u200b-\u200f\u202a-\u202e\u2066-\u2069]")
CONTROL_CHARS: Final = _CONTROL
"""Control and direction characters: never kept in a name or a message."""
_UNSEEN: Final = frozenset({"Cc", "Cf", "Co", "Cs", "Cn"})
_BLANK_LETTERS: Final = frozenset("\u115f\u1160\u3164\uffa0\u2800\u17b4\u17b5\u180e")
"""Letters (and a symbol) that draw nothing: the Hangul fillers, the blank Braille pattern."""


def hash_secret(secret: str) -> str:
    """The stored form of a token or invite: its SHA-256, hex."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def clean_name(name: str | None, default: str) -> str:
    """A display name: control and direction characters removed, spaces folded, 30 at most.

    The browser shows names as text, never as markup; this only keeps them tidy.
    """
    if not name:
        return default
    text = unicodedata.normalize("NFC", name)
    text = _CONTROL.sub("", text)
    # format characters (byte order mark, tags, joiners) and unassigned or private ones
    text = "".join(ch for ch in text if unicodedata.category(ch) not in _UNSEEN)
    text = " ".join(text.split())[:MAX_NAME].strip()
    return text if _visible(text) else default


def _visible(text: str) -> bool:
    """Whether ``text`` has a character that shows by itself: not only combining marks,
    spaces or blank "fillers" (U+3164 and its like)."""
    return any(unicodedata.category(ch)[0] in "LNPS" and ch not in _BLANK_LETTERS for ch in text)


def preset_named(name: str) -> Rules:
    """The preset called ``name`` (or an alias); never a file.  Raises :class:`TableError`."""
    key = name.strip().lower()
    bad = TableError(
        Refusal.UNREADABLE, f"unknown rule set {name!r}; the rule sets are: {', '.join(PRESETS)}"
    )
    try:
        return preset(key)
    except PiquetError:
        raise bad from None
