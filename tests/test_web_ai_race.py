"""The computer answers a move made while it was finishing its own.

The computer's turns in a game are driven by one task (``web/ai.AiRunner``); a move's
kick does nothing while that task is still running, so the task itself must look at the
game as it is before it stops.  Here a person's move is recorded in the moment between
the computer's move being committed and its task looking again (as a fast page does
while the end of a deal is being settled): the computer must still answer it.
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

from test_web_kit import bearer, client


def test_a_move_made_while_the_computer_finishes_its_own_is_answered(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        made = c.post("/api/games", json={"rules": "rubicon", "opponent": "random",
                                          "name": "Ada"}).json()
        gid, tok = made["id"], made["token"]
        server = c.app.state.piquet  # type: ignore[attr-defined]
        games, runner = server.games, server.ai
        real_act = games.act
        rng = random.Random(7)
        raced: list[int] = []  # the log's length after the person's move, the computer to act

        async def act(game_id: str, player: int, text: str, **kw: Any) -> Any:
            done = await real_act(game_id, player, text, **kw)
            state = done.live.state
            if raced or game_id != gid or player == 0 or state.over or state.to_act != 0:
                return done
            # the person's move, recorded before the computer's task looks again; its
            # kick finds the task running and leaves the game to it
            move = str(done.live.match.random_action(rng))
            after = await real_act(game_id, 0, move, expect=done.n)
            runner.kick(game_id)
            if after.live.state.computer_turn() is not None:
                raced.append(after.n)
            return done

        games.act = act  # type: ignore[method-assign]
        deadline = time.monotonic() + 120
        while not raced and time.monotonic() < deadline:  # the person plays on
            g = c.get(f"/api/games/{gid}", headers=bearer(tok), params={"wait": 1}).json()
            if g["finished"]:
                break
            if g["your_turn"]:
                legal = g["legal_actions"]
                pick = rng.choice(legal)["id"] if legal[0]["kind"] != "discard" else \
                    "discard:" + " ".join(g["view"]["deal"]["hand"][:max(1, legal[0]["min"])])
                c.post(f"/api/games/{gid}/actions", json={"action": pick, "n": g["n"]},
                       headers=bearer(tok))
        assert raced, "the moment never came"
        # from now on nothing asks for the game (a request would kick the computer
        # again): the computer's own task must answer the move made in that moment (a
        # ceiling of its own: the search for the moment may have used most of the first)
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            held = games.peek(gid)
            if held.n > raced[0] and held.live.state.computer_turn() is None:
                break
            time.sleep(0.05)
        held = games.peek(gid)
        assert held.n > raced[0] and held.live.state.computer_turn() is None, held.n
