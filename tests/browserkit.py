"""What the browser tests measure on a page, made safe against the table being drawn anew.

A view pushed over the WebSocket replaces the table's elements: an element found a moment
ago may be gone when it is measured (its box is then ``None``).  These helpers find the
element again and wait for it, as a person's eye would, instead of reading it once.
"""

from __future__ import annotations

import re
import time
from typing import Any

from conftest import PATIENCE


def box_of(locator: Any) -> dict[str, float]:
    """The box of the element ``locator`` finds, once it has one (found again as often as
    the page draws it anew; fails only after :data:`PATIENCE` without one)."""
    deadline = time.monotonic() + PATIENCE / 1000
    while True:
        try:
            locator.first.wait_for(state="visible", timeout=PATIENCE)
            box = locator.first.bounding_box()
        except Exception as exc:  # the element replaced between finding and measuring
            if "not attached" not in str(exc) or time.monotonic() > deadline:
                raise
            box = None
        if box is not None:
            return dict(box)
        assert time.monotonic() < deadline, f"{locator} never had a box"
        time.sleep(0.05)


_CONTRAST_JS = """([sel, against]) => {
  const el = document.querySelector(sel);
  const rgb = (c) => c.startsWith('#')
    ? [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16))
    : c.match(/[0-9.]+/g).slice(0, 3).map(Number);
  const lum = ([r, g, b]) => [r, g, b].map((v) => {
    v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
  }).reduce((a, v, i) => a + v * [0.2126, 0.7152, 0.0722][i], 0);
  const fg = lum(rgb(getComputedStyle(el).color));
  const bg = lum(rgb(against ?? getComputedStyle(el.closest('button')).backgroundColor));
  return (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
}"""


def text_contrast(page: Any, selector: str, *, against: str | None = None) -> float:
    """The WCAG contrast ratio of the text of ``selector`` against ``against`` (a colour,
    ``#rrggbb`` or ``rgb(...)``), or else against the background of its closest button."""
    return float(page.evaluate(_CONTRAST_JS, [selector, against]))


def felt_lightest(page: Any) -> str:
    """The felt's lightest green (``#rrggbb``) on ``page``: ``--felt-centre``, the centre of
    the felt's gradient (style.css), against which text on the felt is measured."""
    colour = str(page.evaluate(
        "getComputedStyle(document.documentElement).getPropertyValue('--felt-centre')")).strip()
    assert re.fullmatch(r"#[0-9a-f]{6}", colour), f"no --felt-centre on the page: {colour!r}"
    return colour
