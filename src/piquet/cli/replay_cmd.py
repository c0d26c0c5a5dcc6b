"""placeholder"""

from typing import Any


def register(sub: Any) -> None:
    pass
