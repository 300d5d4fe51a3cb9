"""萌E session-log size: bytes the store logs per command and per engine input in a game
played by chat commands (every decision typed, as people do), against the size of the state.

    python benchmarks/bench_moe_log.py [--players 3] [--seed 1] [--commands 400]

The session row holds the game (input log + the latest turn-start snapshot); every command
appends one ``session_log`` row with the reverse patch (after → before), or the whole old state
when a patch would not be shorter.  Printed: commands, engine inputs, state bytes at the end,
log bytes in total / per command / per input, the largest row, and how many rows hold a whole
state (``before``) instead of a patch.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from chronodice.app import App  # noqa: E402
from chronodice.core.context import Context  # noqa: E402
from chronodice.core.ratelimit import FloodSettings  # noqa: E402
from chronodice.rules.moe.record import rebuild  # noqa: E402
from chronodice.services import load_all  # noqa: E402
from chronodice.services.moe.numbers import number_map  # noqa: E402
from chronodice.store import Store  # noqa: E402

load_all()

G = "20002"


def command_for(g: Any, rnd: random.Random, number: dict[int, int]) -> str:
    """What a person would type for the open request (plays one-target cards, answers, ends);
    ``number``: hand card → the number it goes by this turn (numbers hold for the whole turn)."""
    ask = g.pending
    hand = g.hand(ask.seat)
    if ask.kind == "play":
        opts = [o for o in ask.options if o["a"] == "card" and not o.get("as")]
        one = [o for o in opts if o["mode"] == "one"]
        if (one or opts) and rnd.random() < 0.8:
            o = rnd.choice(one or opts)
            tg = f" {o['targets'][0] + 1}号" if o["mode"] == "one" else ""
            return f".moe play {number[o['card']]}{tg}"
        return ".moe end"
    if ask.kind == "respond":
        if not ask.options:  # everyone is asked: nothing to answer with
            return ".moe pass"
        if ask.reason == "secret":  # a 奥秘 pause: the first 奥秘 offered
            return ".moe resp 1"
        return f".moe resp {number[ask.options[0]]}" if rnd.random() < 0.7 else ".moe pass"
    if ask.kind == "invoke":
        return ".moe yes"
    if ask.kind == "distribute" or (ask.optional and ask.kind != "choose_cards"):
        return ".moe pass"
    if ask.kind == "choose_players":
        return f".moe choose {ask.options[0] + 1}"
    if ask.kind == "arrange":
        return ".moe choose " + " ".join(str(i + 1) for i in range(len(ask.options)))
    if ask.kind == "choose_cards" and all(c in hand for c in ask.options):
        return ".moe choose " + " ".join(str(number[c]) for c in ask.options[: ask.lo])
    return ".moe choose " + " ".join(str(i + 1) for i in range(max(ask.lo, 1)))


async def play(db: Path, players: int, seed: int, limit: int) -> dict[str, Any]:
    store = Store(f"sqlite+aiosqlite:///{db}")
    await store.migrate()
    app = App(store, random.Random(seed), flood=FloodSettings(enabled=False))
    users = [str(30001 + i) for i in range(players)]

    async def say(text: str, user: str, group: str | None = G) -> None:
        ctx = Context(user, group, sender_name=f"玩家{user[-1]}", roles=frozenset(), at_ids=())
        await app.dispatch(ctx, text)

    await say(".moe new 乱斗森林", users[0])
    for u in users[1:]:
        await say(".moe join", u)
    await say(".moe start", users[0])
    rnd = random.Random(seed)
    commands = 0
    for _ in range(limit):
        state, _v = await store.sessions.load_session(G, "moe")
        if state["status"] != "running":
            break
        g = rebuild(state["record"])
        if g.pending is None:
            break
        user = state["players"][g.pending.seat]["user"]
        number = number_map(dict(state), g, g.pending.seat)
        await say(command_for(g, rnd, number), user, G if g.pending.reason != "character" else None)
        commands += 1
    state, _v = await store.sessions.load_session(G, "moe")
    inputs = len(state["record"]["inputs"])
    await store.close()
    con = sqlite3.connect(db)
    rows = con.execute(
        "SELECT length(coalesce(before, '')), length(coalesce(patch, '')), command FROM session_log"
        " WHERE scope = ? AND system = 'moe'",
        (G,),
    ).fetchall()
    con.close()
    sizes = [b + p for b, p, _c in rows]
    return {
        "commands": len(rows),
        "inputs": inputs,
        "status": state["status"],
        "state_bytes": len(json.dumps(state, ensure_ascii=False, separators=(",", ":"))),
        "log_bytes": sum(sizes),
        "per_command": sum(sizes) / max(1, len(rows)),
        "per_input": sum(sizes) / max(1, inputs),
        "largest_row": max(sizes, default=0),
        "whole_states": sum(1 for b, _p, _c in rows if b),
    }


def measure(players: int = 3, seed: int = 1, limit: int = 400) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as d:
        return asyncio.run(play(Path(d) / "log.db", players, seed, limit))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--commands", type=int, default=400)
    a = ap.parse_args()
    r = measure(a.players, a.seed, a.commands)
    print(
        f"{r['commands']} logged commands, {r['inputs']} engine inputs, game {r['status']}; "
        f"state {r['state_bytes']} B; log {r['log_bytes']} B = {r['per_command']:.0f} B/command, "
        f"{r['per_input']:.0f} B/input; largest row {r['largest_row']} B; "
        f"rows holding a whole state: {r['whole_states']}"
    )


if __name__ == "__main__":
    main()
