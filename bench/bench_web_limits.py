"""What abusive connections cost a real ``piquet serve``: huge headers, many headers,
idle and trickling connections.

Starts the server on loopback over a fresh SQLite file and reports, for each attack, the
answer, the server's resident memory (now and its peak), how long ``/api/health`` takes
meanwhile, and how long the server keeps idle or trickling connections open::

    .venv/bin/python bench/bench_web_limits.py                # 50 MB headers, 150+150 slow
    .venv/bin/python bench/bench_web_limits.py --header-mb 5 --slow 50 --wait 40
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import httpx


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _memory(pid: int) -> tuple[int, int]:
    """(resident, peak resident) MB of ``pid``."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        fields[key] = value.strip()
    return int(fields["VmRSS"].split()[0]) // 1024, int(fields["VmHWM"].split()[0]) // 1024


def _big_header(port: int, size: int, out: list[str]) -> None:
    """Send one request with a header of ``size`` bytes; append the status line (or why
    there was none)."""
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=120) as s:
            s.sendall(b"GET /api/health HTTP/1.1\r\nhost: x\r\nx-big: ")
            chunk = b"a" * 65536
            sent = 0
            while sent < size:
                s.sendall(chunk)
                sent += len(chunk)
            s.sendall(b"\r\n\r\n")
            out.append(s.recv(200).split(b"\r\n", 1)[0].decode() or "closed")
    except OSError as exc:
        out.append(f"cut off ({exc.strerror or exc})")


def _health_ms(url: str) -> str:
    """How long ``/api/health`` takes to answer (60 s at most)."""
    t0 = time.perf_counter()
    try:
        httpx.get(url + "/api/health", timeout=60)
    except httpx.HTTPError as exc:
        return f"no answer in 60 s ({type(exc).__name__})"
    return f"{(time.perf_counter() - t0) * 1000:.0f} ms"


def _slow(port: int, n: int, trickle: bool, wait: float) -> list[float]:
    """Open ``n`` connections (idle, or sending a header byte a second); the seconds each
    stayed open (``wait`` at most)."""
    socks = []
    for _ in range(n):
        s = socket.create_connection(("127.0.0.1", port))
        s.setblocking(False)
        socks.append(s)
    opened = time.monotonic()
    closed: dict[int, float] = {}
    if trickle:
        for s in socks:
            s.send(b"GET /api/health HTTP/1.1\r\nhost: x\r\nx-slow: ")
    while time.monotonic() - opened < wait and len(closed) < n:
        time.sleep(0.5)
        for i, s in enumerate(socks):
            if i in closed:
                continue
            try:
                data = s.recv(4096)
                if data == b"":
                    closed[i] = time.monotonic() - opened
                    continue
                if trickle:
                    s.send(b"a")
            except BlockingIOError:
                if trickle:
                    try:
                        s.send(b"a")
                    except OSError:
                        closed[i] = time.monotonic() - opened
            except OSError:
                closed[i] = time.monotonic() - opened
    for s in socks:
        s.close()
    return [closed.get(i, wait) for i in range(n)]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--header-mb", type=int, default=50)
    ap.add_argument("--parallel", type=int, default=10)
    ap.add_argument("--slow", type=int, default=150, help="idle and trickling connections each")
    ap.add_argument("--wait", type=float, default=60.0, help="seconds to watch them at most")
    args = ap.parse_args()
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as tmp:
        proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "piquet",
                "serve",
                "--port",
                str(port),
                "--data",
                tmp,
                "--ai-workers",
                "1",
                "--rate-limit",
                "0",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            for _ in range(300):
                try:
                    if httpx.get(url + "/api/health", timeout=1).status_code == 200:
                        break
                except httpx.HTTPError:
                    time.sleep(0.1)
            print(f"load average {os.getloadavg()[0]:.1f}; server {port}")
            rss, peak = _memory(proc.pid)
            print(f"start: {rss} MB resident, health {_health_ms(url)}")
            size = args.header_mb * 1024 * 1024
            out: list[str] = []
            _big_header(port, size, out)
            rss, peak = _memory(proc.pid)
            print(f"one {args.header_mb} MB header: {out[0]!r}; {rss} MB resident, peak {peak}")
            out = []
            threads = [
                threading.Thread(target=_big_header, args=(port, size, out))
                for _ in range(args.parallel)
            ]
            for t in threads:
                t.start()
            time.sleep(0.5)
            during = _health_ms(url)
            for t in threads:
                t.join()
            rss, peak = _memory(proc.pid)
            print(
                f"{args.parallel} at once: {sorted(set(out))}; health meanwhile {during}; "
                f"{rss} MB resident, peak {peak}"
            )
            for trickle in (False, True):
                times = sorted(_slow(port, args.slow, trickle, args.wait))
                kind = "trickling" if trickle else "idle"
                still = sum(1 for t in times if t >= args.wait)
                print(
                    f"{args.slow} {kind} connections: closed after {times[0]:.1f}-"
                    f"{times[-1]:.1f} s; {still} still open at {args.wait:g} s"
                )
        finally:
            proc.terminate()
            proc.wait(10)
    return 0


if __name__ == "__main__":
    sys.exit(main())
