"""The deployment on several processes: deploy/compose.yaml (read, not run: there is no
container engine here) and scripts/cluster, which starts the same topology as local
processes over the shared PostgreSQL and Redis, and is run here."""

from __future__ import annotations

import os
import random
import re
import secrets
import signal
import socket
import subprocess
import time
from pathlib import Path
from typing import Any

import yaml
from fastapi.routing import APIWebSocketRoute, iter_route_contexts

from test_web_faults_process import _alive
from test_web_faults_process import _children as _descendants
from test_web_kit import bearer, health_when_redis, net, pick

ROOT = Path(__file__).resolve().parents[1]
CEILING = 300.0


def test_the_compose_file_runs_two_web_processes_a_proxy_postgres_and_redis() -> None:
    compose = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())
    services = compose["services"]
    assert set(services) == {"web1", "web2", "proxy", "postgres", "redis"}
    for name in ("web1", "web2"):
        web = services[name]
        assert web["command"][:2] == ["piquet", "serve"] and "--ai-workers" in web["command"]
        assert web["environment"]["PIQUET_DATABASE"].startswith("postgresql://")
        assert web["environment"]["PIQUET_REDIS"].startswith("redis://")
        assert set(web["depends_on"]) == {"postgres", "redis"}
    proxy_ip = services["proxy"]["networks"]["piquet"]["ipv4_address"]
    assert services["web1"]["command"][-1] == proxy_ip  # its X-Forwarded-For believed
    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "server web1:8000;" in nginx and "server web2:8000;" in nginx
    assert (ROOT / "deploy" / "Dockerfile").read_text().count("pip install") == 1


def test_the_ray_compose_file_runs_the_jobs_on_a_ray_cluster() -> None:
    """deploy/compose.ray.yaml, over compose.yaml: a Ray head and workers; each web
    process a Ray node without CPUs that queues its jobs there (read, not run)."""
    base = yaml.safe_load((ROOT / "deploy" / "compose.yaml").read_text())["services"]
    ray = yaml.safe_load((ROOT / "deploy" / "compose.ray.yaml").read_text())["services"]
    assert set(ray) == {"web1", "web2", "ray-head", "ray-worker"}
    for name in ("web1", "web2"):
        assert name in base
        web = ray[name]
        assert web["build"]["args"]["EXTRAS"] == "[ray]"
        script = " ".join(web["command"][2].split())
        assert script.startswith("ray start --address ray-head:6379 --num-cpus 0")
        assert "&& exec piquet serve " in script and "--jobs-ray auto" in script
        assert script.endswith(base[name]["command"][-1])  # the same proxy believed
        assert set(web["depends_on"]) == {"postgres", "redis", "ray-head"}
    for service in ray.values():  # one token for the cluster, Ray's authentication on
        assert service["environment"]["RAY_AUTH_MODE"] == "token"
        assert service["environment"]["RAY_AUTH_TOKEN"].startswith("${RAY_AUTH_TOKEN:?")
    assert ray["ray-head"]["command"][:4] == ["ray", "start", "--head", "--port"]
    assert "ray-head:6379" in ray["ray-worker"]["command"]
    assert 'pip install --no-cache-dir ".${EXTRAS}"' in (
        ROOT / "deploy" / "Dockerfile").read_text()


def _two_free_ports() -> int:
    """A port that, with the next one, is free now, taken below the kernel's range of
    ephemeral ports (``free_port``'s, which the other tests' servers draw from while this
    one runs: the second of two ports drawn there was once taken between the draw and the
    cluster's start)."""
    low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    rng = random.Random()
    for _ in range(200):
        port = rng.randrange(10_000, max(10_002, low - 2))
        try:
            with socket.socket() as a, socket.socket() as b:
                a.bind(("127.0.0.1", port))
                b.bind(("127.0.0.1", port + 1))
        except OSError:
            continue
        return port
    raise AssertionError("no two free ports in a row below the ephemeral range")


def test_the_local_cluster_plays_across_its_two_processes(
    pg_empty_url: str, redis_url: str, tmp_path: Path
) -> None:
    """Two web processes over one new database (both start at once and migrate it, in
    turn): a game made on one is played from the other against the book (the other's
    workers), and stopping the script stops them all."""
    pg_url = pg_empty_url
    port = _two_free_ports()  # the script serves on port and port + 1
    script = subprocess.Popen(
        [str(ROOT / "scripts" / "cluster"), "--database", pg_url, "--redis", redis_url,
         "--port", str(port), "--logs", str(tmp_path / "logs")],
        stdout=subprocess.PIPE, text=True, start_new_session=True,
    )
    try:
        assert script.stdout is not None
        deadline = time.monotonic() + CEILING
        line = ""
        while "urls" not in line:
            assert time.monotonic() < deadline and script.poll() is None, line
            line = script.stdout.readline()
        words = line.split()
        urls = words[words.index("urls") + 1].split(",")
        pids = [int(p) for p in words[words.index("pids") + 1].split(",")]
        assert len(urls) == 2 and len(pids) == 2
        for url in urls:
            # Redis subscribed: a loaded machine's process may answer a moment before
            health = health_when_redis(url, "ok", deadline - time.monotonic()).json()
            assert health["ok"] and health["redis"] == "ok"
            assert health["workers"]["alive"] == 1
        made = net.post(urls[0] + "/api/games", json={"opponent": "book"}).json()
        gid, token = made["id"], made["token"]
        rng = random.Random(4)
        moves = 0
        seen = 0  # the last n this test has seen: each look is at least as new as it
        deadline = time.monotonic() + CEILING
        while moves < 4:
            assert time.monotonic() < deadline, "the game did not go on"
            g: dict[str, Any] = net.get(urls[1] + f"/api/games/{gid}",
                                        params={"wait": 5, "n": seen},
                                        headers=bearer(token), timeout=30).json()
            seen = g["n"]
            assert g["computer_problem"] is None
            if g["finished"]:
                break
            if g["your_turn"]:
                r = net.post(urls[moves % 2] + f"/api/games/{gid}/actions",
                             json={"action": pick(g, rng), "n": g["n"]},
                             headers=bearer(token))
                assert r.status_code == 200, r.text
                seen = r.json()["n"]
                moves += 1
        kids = set().union(*(_descendants(p) for p in pids))
        assert len(kids) >= 2  # a job worker each, at least
        script.terminate()  # the script stops its processes, and they their workers
        script.wait(60)
        deadline = time.monotonic() + CEILING  # only a hang reaches it
        everyone = set(pids) | kids
        while any(_alive(p) for p in everyone):
            assert time.monotonic() < deadline, [p for p in everyone if _alive(p)]
            time.sleep(0.1)
    finally:
        if script.poll() is None or any(_alive(p) for p in _descendants(script.pid)):
            os.killpg(script.pid, signal.SIGKILL)
        script.wait(60)


def _proxy_key(nginx: str) -> tuple[str, re.Pattern[str]]:
    """The proxy's choice of a process: the variable it hashes on, and the pattern of the
    map that sets it from a request's path (nginx's ``(?<id>`` written as Python's)."""
    hashed = re.search(r"^\s*hash\s+\$(\w+)\s+consistent;", nginx, re.M)
    assert hashed, "the upstream picks a process by a consistent hash"
    mapped = re.search(r"map \$uri \$" + hashed.group(1) + r" \{\s*~(\S+)\s+\$id;", nginx)
    assert mapped, "the hashed key is set from the request's path"
    return hashed.group(1), re.compile(mapped.group(1).replace("(?<", "(?P<"))


def test_a_games_two_seats_are_served_by_one_process_behind_the_proxy(tmp_path: Path) -> None:
    """Every route of a game (HTTP and WebSocket: views, moves, long polls, joins, hints,
    analysis, chat) is routed by the proxy on the game's id alone, never on the seat's
    token or the client's address: the two seats' requests hash to one key, so one
    process serves both (while it is up).  The routes that name a game elsewhere in their
    path play no move and are listed here."""
    from piquet.web.app import create_app
    from test_web_kit import config

    nginx = (ROOT / "deploy" / "nginx.conf").read_text()
    key, pattern = _proxy_key(nginx)
    assert f"${key}" not in nginx.split("map $uri", 1)[0].replace(f"hash ${key}", ""), (
        "the key is set by the map alone")
    app = create_app(config(tmp_path / "piquet.sqlite3"))
    # the WebSocket routes too (read through the routers the app includes: FastAPI lists
    # an included router's routes there, not in app.routes)
    paths = [*app.openapi()["paths"], *(c.path for c in iter_route_contexts(app.routes)
                                        if isinstance(c.original_route, APIWebSocketRoute))]
    assert {"/api/games/{game_id}/ws", "/api/games/{game_id}/watch/ws"} <= set(paths)
    elsewhere = set()
    for path in paths:
        if "{game_id}" not in path:
            continue
        for game_id in ("a", secrets.token_urlsafe(12), "A-b_9" * 6):
            url = path.replace("{game_id}", game_id).replace("{step}", "3")
            found = pattern.match(url)
            if not path.startswith("/api/games/"):
                assert found is None
                elsewhere.add(path)
                continue
            assert found is not None and found.group("id") == game_id, (path, game_id)
    # a player's list of his own games: it reads who sits where, and moves nothing
    assert elsewhere == {"/api/me/games/{game_id}", "/api/me/games/{game_id}/seat"}
