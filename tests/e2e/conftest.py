"""End-to-end fixtures: the real bot process and a fake OneBot v11 client over a real WebSocket."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from onebot_client import BotProcess, OneBotClient


@pytest.fixture
def bot_env() -> dict[str, str]:
    """Settings a test module adds to its bot (override it); ``{port}`` is the bot's port,
    ``{workdir}`` its directory."""
    return {}


def test_bot(workdir: Path, env: dict[str, str]) -> BotProcess:
    """``python bot.py`` in ``workdir`` with a seeded RNG and a clock the test moves, plus ``env``."""
    proc = BotProcess(
        workdir=workdir,
        extra_env={
            "CHRONODICE_RNG_SEED": "20261122",
            # a clock the test moves (bot_process.advance_clock) instead of sleeping
            "CHRONODICE_CLOCK_SHIFT_FILE": str(workdir / "clock-shift"),
        },
    )
    proc.extra_env.update({key: value.format(port=proc.port, workdir=workdir) for key, value in env.items()})
    return proc


test_bot.__test__ = False  # type: ignore[attr-defined]  # (a helper, not a test)


@pytest.fixture
def fresh_bot(tmp_path: Path, bot_env: dict[str, str]) -> Iterator[BotProcess]:
    """A bot of this test's own (its own database): one the test kills or restarts."""
    with test_bot(tmp_path, bot_env).running() as proc:
        yield proc


@pytest.fixture
def bot_process(fresh_bot: BotProcess) -> BotProcess:
    """The test's bot: a fresh one, unless its module shares ``module_bot``."""
    return fresh_bot


@pytest.fixture(scope="module")
def module_bot(tmp_path_factory: pytest.TempPathFactory) -> Iterator[BotProcess]:
    """One bot for the tests of a module that need no fresh one — each plays in groups and as
    users of its own — so its start (3 s of imports and migration) is paid once per module (and
    test worker).  A module opts in by overriding ``bot_process`` to return it."""
    with test_bot(tmp_path_factory.mktemp("module-bot"), {}).running() as proc:
        yield proc


@pytest.fixture
async def onebot(bot_process: BotProcess) -> AsyncIterator[OneBotClient]:
    async with OneBotClient(bot_process.url) as client:
        client.bot = bot_process
        yield client
