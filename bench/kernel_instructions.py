"""A fixed amount of kernel work, to count its instructions with callgrind (not timed).

Every preset, both kernel policies, ``N`` random deals each through
:func:`piquet.fast.random_deals` (seed 7); it prints the totals, which must not change when
the kernel is reworked.  Count the compiled call's own instructions (deterministic, unlike
the interpreter's start-up)::

    PYTHONHASHSEED=0 valgrind --tool=callgrind --callgrind-out-file=cg.out \\
        .venv/bin/python bench/kernel_instructions.py 4000
    callgrind_annotate --inclusive=yes cg.out | grep py_play_deals

or the ``Collected :`` line less that of a run with ``N`` = 0 (the start-up alone).
"""

from __future__ import annotations

import sys

from piquet.core.rules import PRESETS
from piquet.fast import random_deals


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 4000
    totals = [random_deals(name, n, seed=7, policy=policy)
              for name in sorted(PRESETS) for policy in ("random", "book")]
    print(totals)


if __name__ == "__main__":
    main()
