"""Tests move time instead of waiting for it (issue 43).

A service test moves the app's clock (the ``clock`` fixture, a
:class:`~chronodice.core.clock.ManualClock`); an end-to-end test shifts the bot's clock
(``CHRONODICE_CLOCK_SHIFT_FILE``), shortens the bot's timers (``CHRONODICE_MOE_SWEEP_SECONDS``)
or polls for the effect it waits for.  So no ``sleep`` in ``tests/`` waits more than
:data:`LIMIT` seconds, except the real-time checks named in :data:`REAL_TIME` (by file and
function), each with its reason.  A sleep whose length is computed counts as long.

``python tests/core/test_no_sleeping.py`` prints every sleep and the total of their literals.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
LIMIT = 0.1
"""Seconds a sleep may wait without a name in :data:`REAL_TIME` (a poll's step)."""

REAL_TIME: dict[tuple[str, str], str] = {
    # processes, sockets and containers in real time
    ("deploy/test_console.py", "test_first_command_is_typed_into_the_input_and_key_ends_the_process"): (
        "a terminal UI in a child process draws in real time"
    ),
    ("deploy/test_image.py", "test_image_answers_r_1d6_as_a_non_root_user"): "a container starts (a poll)",
    ("e2e/onebot_client.py", "OneBotClient.connect"): "the bot's WebSocket comes up (a poll's step)",
    ("e2e/test_foundation_e2e.py", "test_two_processes_on_postgres_lose_no_update"): "two processes (a poll)",
    ("e2e/test_exactly_once_e2e.py", "test_two_accounts_in_one_process_exactly_one_answers"): (
        "the bot notices an account's WebSocket closing"
    ),
    ("e2e/test_exactly_once_e2e.py", "test_two_processes_two_accounts_take_over_after_a_crash"): (
        "a SIGKILLed process and the lease of the account that takes over"
    ),
    ("e2e/test_http_surface_e2e.py", "test_hammering_a_long_logs_data_stalls_no_group"): (
        "3000 messages through a real socket"
    ),
    ("e2e/test_http_surface_e2e.py", "test_a_slowloris_connection_is_closed_at_the_header_deadline"): (
        "the server's header deadline (uvicorn's own clock)"
    ),
    ("e2e/test_http_surface_e2e.py", "test_links_live_as_the_replies_say_and_can_be_reset"): (
        "the web hub's read interval"
    ),
    # silence: what must not be answered can only be waited for
    ("e2e/onebot_client.py", "OneBotClient.quiet_for"): (
        "what the bot sends by itself (a sweep's deliveries) is complete after a silence"
    ),
    # flood control measured in real time
    ("e2e/test_flood_e2e.py", "_player_latencies"): "a player's pace, measured",
    ("e2e/test_flood_e2e.py", "test_gm_at_combat_speed_is_never_muted_while_a_spammer_is_limited"): (
        "a GM at combat speed while a spammer is limited; then the buckets refill"
    ),
    ("e2e/test_flood_e2e.py", "test_gm_at_combat_speed_is_never_muted_while_a_spammer_is_limited.gm_scene"): (
        "a GM at combat speed"
    ),
}
"""(file under tests/, function) → why it waits in real time."""


@dataclass(frozen=True)
class Sleep:
    file: str
    function: str
    line: int
    seconds: float | None
    """The literal length (a module constant is read), ``None`` when computed."""


def _constants(tree: ast.Module) -> dict[str, float]:
    out: dict[str, float] = {}
    for node in tree.body:
        if isinstance(node, ast.Assign | ast.AnnAssign):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            value = node.value
            if isinstance(value, ast.Constant) and isinstance(value.value, int | float):
                for t in targets:
                    if isinstance(t, ast.Name):
                        out[t.id] = float(value.value)
    return out


def sleeps_in(path: Path) -> list[Sleep]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    consts = _constants(tree)
    rel = path.relative_to(TESTS).as_posix()
    found: list[Sleep] = []

    def visit(node: ast.AST, scope: list[str]) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                visit(child, [*scope, child.name])
                continue
            if isinstance(child, ast.Call):
                f = child.func
                name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
                if name == "sleep" and child.args:
                    arg = child.args[0]
                    seconds: float | None = None
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, int | float):
                        seconds = float(arg.value)
                    elif isinstance(arg, ast.Name) and arg.id in consts:
                        seconds = consts[arg.id]
                    found.append(Sleep(rel, ".".join(scope), child.lineno, seconds))
            visit(child, scope)

    visit(tree, [])
    return found


def all_sleeps() -> list[Sleep]:
    return [s for p in sorted(TESTS.rglob("*.py")) if p.is_file() for s in sleeps_in(p)]


def long(s: Sleep) -> bool:
    return s.seconds is None or s.seconds > LIMIT


def _key(s: Sleep) -> tuple[str, str]:
    """(file, qualified function name): what :data:`REAL_TIME` is keyed by."""
    return s.file, s.function


def test_no_long_sleep_outside_the_named_real_time_checks() -> None:
    bad = [s for s in all_sleeps() if long(s) and _key(s) not in REAL_TIME]
    assert not bad, "move the clock or poll instead of sleeping (or name it in REAL_TIME):\n" + "\n".join(
        f"{s.file}:{s.line} {s.function} sleep({s.seconds if s.seconds is not None else '…'})" for s in bad
    )


def test_every_named_real_time_check_still_sleeps() -> None:
    keys = {_key(s) for s in all_sleeps() if long(s)}
    assert not set(REAL_TIME) - keys, f"no long sleep left there, remove: {sorted(set(REAL_TIME) - keys)}"


if __name__ == "__main__":
    every = all_sleeps()
    for s in every:
        print(f"{s.file}:{s.line} {s.function} {s.seconds}")
    literal = [s.seconds for s in every if s.seconds is not None]
    print(
        f"{len(every)} sleeps, {sum(1 for x in literal if x > 0)} of them non-zero literals, "
        f"{sum(literal):.2f} s by their literals; {sum(1 for s in every if s.seconds is None)} computed; "
        f"{sum(1 for s in every if long(s))} over {LIMIT} s or computed"
    )
