"""``piquet serve``: run the browser table and its HTTP/WebSocket API.

With no options it keeps its games in a SQLite file under ``./piquet-data`` and listens on
http://127.0.0.1:8000/.  Several processes can share one PostgreSQL database
(``--database postgresql://...``) and fan live updates out through Redis (``--redis``).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from piquet.core.errors import PiquetError
from piquet.web.limits import ServerLimits, guarded_http

__all__ = ["register", "run"]


def register(sub: Any) -> None:
    p = sub.add_parser(
        "serve",
        help="serve the browser card table (play online against the computer or a friend)",
        description="Serve the card table and its API.  Games are stored as seed and action "
        "log: in a SQLite file under --data by default, or in PostgreSQL with --database.  "
        "Open the printed address in a browser.",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    p.add_argument(
        "--data",
        default=os.environ.get("PIQUET_DATA", "piquet-data"),
        help="directory for the SQLite database (./piquet-data; created as needed)",
    )
    p.add_argument(
        "--database",
        default=os.environ.get("PIQUET_DATABASE"),
        metavar="URL",
        help="database URL instead of SQLite, e.g. postgresql://user@host/db",
    )
    p.add_argument(
        "--redis",
        default=os.environ.get("PIQUET_REDIS"),
        metavar="URL",
        help="Redis URL (redis://host:6379/0) to share live updates between processes",
    )
    p.add_argument(
        "--rate-limit",
        type=float,
        default=20.0,
        metavar="N",
        help="API requests a second per client address (0: no limit; default 20)",
    )
    p.add_argument(
        "--ai-workers",
        type=int,
        default=None,
        metavar="N",
        help="processes that choose the computer's moves (default: up to 4, one per core)",
    )
    p.add_argument(
        "--jobs-ray",
        default=os.environ.get("PIQUET_JOBS_RAY") or None,
        metavar="ADDRESS",
        help="run the computer's moves, hints and analyses on the Ray cluster at ADDRESS "
        "(host:6379 from 'ray start --head'; 'auto': the one running on this machine; "
        "'local': start one here) instead of worker processes of this server; needs "
        "piquet[ray]",
    )
    p.add_argument(
        "--quota-hints",
        type=int,
        default=2,
        metavar="N",
        help="hints (and the coach's notes) one client address may have being made at once "
        "(default 2; 0: no limit)",
    )
    p.add_argument(
        "--quota-analyses",
        type=int,
        default=2,
        metavar="N",
        help="games one client address may have being analysed at once (default 2; "
        "0: no limit)",
    )
    p.add_argument("--analysis-on-request", action="store_true",
                   help="analyse a game's deals only when a seat asks, not as each deal ends "
                   "(saves the CPU of the games nobody reviews; their review comes later)")
    p.add_argument(
        "--think-ms",
        type=int,
        default=None,
        metavar="MS",
        help="thinking time of the stronger AI levels, per move",
    )
    p.add_argument(
        "--sqlite-sync",
        choices=("full", "normal"),
        default="full",
        help="SQLite only: full (default; every move is on disk before it is acknowledged) "
        "or normal (faster; survives the server being killed, not a power cut)",
    )
    p.add_argument(
        "--max-connections",
        type=int,
        default=ServerLimits().max_connections,
        metavar="N",
        help=f"open connections at most; one more is answered 503 "
        f"(default {ServerLimits().max_connections})",
    )
    p.add_argument(
        "--sockets-per-client",
        type=int,
        default=16,
        metavar="N",
        help="live connections (WebSockets) one client address may hold open at once; "
        "one more is closed with code 4429 (0: no cap; default 16)",
    )
    p.add_argument(
        "--request-timeout",
        type=float,
        default=ServerLimits().request_timeout,
        metavar="S",
        help="seconds a client has to send a whole request, from connecting (or from its "
        f"first byte); then 408 and the connection closes (default "
        f"{ServerLimits().request_timeout:g})",
    )
    p.add_argument(
        "--proxy",
        action="append",
        default=[],
        metavar="ADDRESS",
        help="a reverse proxy whose X-Forwarded-For is believed (the client's address for "
        "the rate limits); repeat for several; by default no one's is",
    )
    p.add_argument("--log-level", default="warning", help="uvicorn log level (warning)")
    p.set_defaults(run=run)


def _check_options(args: argparse.Namespace) -> None:
    """Refuse a bad option in words (:class:`PiquetError`), before anything is opened."""
    if not 0 < args.port < 65536:
        raise PiquetError(f"--port must be 1 to 65535, not {args.port}")
    for name in ("quota_hints", "quota_analyses"):
        if getattr(args, name) < 0:
            raise PiquetError(f"--{name.replace('_', '-')} must be 0 (no limit) or more, "
                              f"not {getattr(args, name)}")
    if args.ai_workers is not None and args.ai_workers < 1:
        raise PiquetError(f"--ai-workers must be 1 or more, not {args.ai_workers}")
    if args.rate_limit < 0:
        raise PiquetError("--rate-limit must be 0 (no limit) or more")
    if args.max_connections < 1:
        raise PiquetError(f"--max-connections must be 1 or more, not {args.max_connections}")
    if args.sockets_per_client < 0:
        raise PiquetError(
            f"--sockets-per-client must be 0 (no cap) or more, not {args.sockets_per_client}")
    if not args.request_timeout > 0:
        raise PiquetError(f"--request-timeout must be more than 0, not {args.request_timeout}")
    if args.redis:
        try:
            from redis.connection import parse_url
        except ImportError as exc:  # pragma: no cover - the web extra is missing
            raise _no_web(exc) from None
        try:
            parse_url(args.redis)  # type: ignore[no-untyped-call]  # (redis-py is untyped here)
        except ValueError as exc:  # a malformed URL (an unreachable one is served without)
            raise PiquetError(
                f"--redis {args.redis}: {exc}; write it like redis://127.0.0.1:6379/0"
            ) from None
    if args.jobs_ray is not None:
        if not args.jobs_ray.strip():
            raise PiquetError("--jobs-ray needs an address: host:port, 'auto' or 'local'")
        from piquet.jobs.remote import RayUnavailable, connect

        try:  # joined now: an unreachable cluster is a clear error, not a trace
            connect(args.jobs_ray.strip())
        except RayUnavailable as exc:
            raise PiquetError(str(exc)) from None


def _no_web(exc: ImportError) -> PiquetError:
    """The web extra is missing: what to install."""
    return PiquetError(f"the web server needs its packages: pip install 'piquet[web]' ({exc})")


def run(args: argparse.Namespace) -> int:
    """Serve until interrupted.  Raises :class:`PiquetError` for a bad option."""
    # the options first: a bad one is refused before the web application is imported (about
    # a CPU-second that an error in words does not need)
    _check_options(args)
    # and the port: a busy one is said at once, before the imports and the migration
    taken = _port_taken(args.host, args.port)
    if taken is not None:
        print(f"piquet: error: cannot listen on {args.host}:{args.port}: {taken}",
              file=sys.stderr)
        return 2
    try:
        import uvicorn

        from piquet.jobs import Quotas
        from piquet.web.app import WebConfig, create_app
        from piquet.web.store import (
            Store,
            StoreError,
            database_url,
            migrate_in_child,
            schema_current,
        )
    except ImportError as exc:  # pragma: no cover - the web extra is missing
        raise _no_web(exc) from None
    limits = ServerLimits(
        max_connections=args.max_connections, request_timeout=args.request_timeout
    )
    data = Path(args.data)
    if not args.database:
        try:
            data.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise PiquetError(f"cannot create the data directory {data}: {exc}") from None
    try:
        url = database_url(args.database, data)
        # reach and migrate the database now: a bad URL is a clear error, not a trace (a
        # migration runs in a process of its own: the server never loads Alembic)
        if not schema_current(url, sqlite_sync=args.sqlite_sync):
            migrate_in_child(url, sqlite_sync=args.sqlite_sync)
        Store.open(url, sqlite_sync=args.sqlite_sync).close()
    except StoreError as exc:
        print(f"piquet: error: {exc}", file=sys.stderr)
        return 2
    config = WebConfig(
        database=url,
        redis=args.redis or None,
        rate=args.rate_limit,
        burst=max(20, int(args.rate_limit * 4)),
        create_per_minute=30.0 if args.rate_limit else 0.0,
        ai_workers=args.ai_workers,
        ai_executor="process" if args.jobs_ray is None else "ray",
        ray_address=None if args.jobs_ray is None else args.jobs_ray.strip(),
        quotas=Quotas(hint=args.quota_hints or None, analysis=args.quota_analyses or None),
        think_ms=args.think_ms,
        sqlite_sync=args.sqlite_sync,
        sockets_per_client=args.sockets_per_client,
        analyse_as_played=not args.analysis_on_request,
    )
    app = create_app(config)
    # The event loop shares the interpreter with the database threads; a short switch
    # interval keeps it from waiting behind them for the default 5 ms at every hand-over.
    sys.setswitchinterval(0.0005)
    shown = "localhost" if args.host in ("127.0.0.1", "0.0.0.0", "::") else args.host
    where = "SQLite " + str(data / "piquet.sqlite3") if not args.database else "the database"
    if args.jobs_ray is not None:
        where += f"; the computer's work on the Ray cluster at {args.jobs_ray.strip()}"
    print(f"piquet: serving the card table at http://{shown}:{args.port}/  ({where})", flush=True)
    print("piquet: press Ctrl+C to stop", flush=True)
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        # a line a request only where it is shown: uvicorn otherwise formats each
        # request's address and path for a log line that the level then drops
        access_log=args.log_level.lower() in ("trace", "debug", "info"),
        ws_max_size=65536,
        # a socket whose other end went silent (a network dropped, a laptop closed) is
        # closed within about 20 s, and its seat shown away from the table
        ws_ping_interval=10.0,
        ws_ping_timeout=10.0,
        http=guarded_http(limits),  # header size and count, request time, connections
        timeout_keep_alive=limits.keep_alive,
        timeout_graceful_shutdown=5,
        # X-Forwarded-For only from the proxies named (uvicorn believes 127.0.0.1's)
        proxy_headers=bool(args.proxy),
        forwarded_allow_ips=",".join(args.proxy) if args.proxy else "",
    )
    return 0


def _port_taken(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on (in use, not an address of this machine),
    or None: tried before saying "serving", so that a busy port is one clear line rather
    than a promise followed by uvicorn's error."""
    import errno
    import socket

    # as uvicorn's server binds (asyncio's create_server): every address the host name
    # gives (localhost: 127.0.0.1 and ::1), SO_REUSEADDR, IPv6 sockets IPv6 only
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM,
                                   flags=socket.AI_PASSIVE)
    except OSError as exc:
        return f"{host!r} is not an address this machine knows ({exc.strerror or exc})"
    failed: list[str] = []
    for family, kind, proto, _name, addr in dict.fromkeys(infos):
        try:
            with socket.socket(family, kind, proto) as sock:
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
                if family == socket.AF_INET6:
                    sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
                sock.bind(addr)
        except OSError as exc:
            if exc.errno == errno.EADDRINUSE:
                return "the port is in use (another server?); choose another with --port"
            failed.append(exc.strerror or str(exc))  # (an IPv6 address on a machine without)
    return failed[0] if len(failed) == len(dict.fromkeys(infos)) else None
