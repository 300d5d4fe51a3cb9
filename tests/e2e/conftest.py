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


@pytest.fixture
def bot_process(tmp_path: Path, bot_env: dict[str, str]) -> Iterator[BotProcess]:
    proc = BotProcess(
        workdir=tmp_path,
        extra_env={
            "CHRONODICE_RNG_SEED": "20261122",
            # a clock the test moves (bot_process.advance_clock) instead of sleeping
            "CHRONODICE_CLOCK_SHIFT_FILE": str(tmp_path / "clock-shift"),
        },
    )
    proc.extra_env.update(
        {key: value.format(port=proc.port, workdir=tmp_path) for key, value in bot_env.items()}
    )
    with proc.running():
        yield proc


@pytest.fixture
async def onebot(bot_process: BotProcess) -> AsyncIterator[OneBotClient]:
    async with OneBotClient(bot_process.url) as client:
        client.bot = bot_process
        yield client
