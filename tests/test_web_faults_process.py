"""Issue 18, points 4 and 5: the server process and its database.

The computer's worker processes exit when the server is killed (SIGKILL, so no clean-up
runs); a database that fails is said plainly: ``{"error": ...}`` with 503, a health check
that answers 503, a SQLite file that vanishes or is replaced under a running server stops
the acknowledgements, and a damaged file at start-up gets one line saying what to do.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from test_web_kit import Server


def _children(pid: int) -> set[int]:
    """Every live descendant of ``pid`` (from /proc)."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] != "Z":
            parents[int(entry)] = int(fields[1])
    out: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in out:
                out.add(child)
                todo.append(child)
    return out


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def test_ai_workers_and_the_resource_tracker_exit_when_the_server_is_killed(
    tmp_path: Path,
) -> None:
    args = ["--data", str(tmp_path / "data"), "--ai-workers", "2"]
    server = Server(args, cwd=tmp_path).start()
    try:
        assert server.proc is not None
        deadline = time.monotonic() + 30
        kids: set[int] = set()
        while time.monotonic() < deadline and len(kids) < 3:  # two workers, the tracker
            kids = _children(server.proc.pid)
            time.sleep(0.2)
        assert len(kids) >= 3, kids
        server.kill()
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(k) for k in kids):
            time.sleep(0.1)
        left = [k for k in kids if _alive(k)]
        assert not left, [Path(f"/proc/{k}/cmdline").read_bytes()[:120] for k in left]
    finally:
        server.stop()
