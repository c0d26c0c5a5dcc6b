"""What the browser tests measure on a page, made safe against the table being drawn anew.

A view pushed over the WebSocket replaces the table's elements: an element found a moment
ago may be gone when it is measured (its box is then ``None``).  These helpers find the
element again and wait for it, as a person's eye would, instead of reading it once.
"""

from __future__ import annotations

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
