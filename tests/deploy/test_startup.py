"""``python bot.py`` as an admin starts it: the banner, the data directory, database URLs, logs.

Each test starts the real bot process (``onebot_client.BotProcess``) and reads its log.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from onebot_client import ROOT, BotProcess, OneBotClient

pytestmark = pytest.mark.e2e

CORE = "nonebot_plugin_chronodice:chronodice_core"
"""The core sub-plugin's id, which NoneBot's log lines name."""
LINE = re.compile(r"^\d\d-\d\d \d\d:\d\d:\d\d \[(?P<level>[A-Z]+)\] (?P<name>\S+) \| (?P<msg>.*)$")


def log_lines(proc: BotProcess) -> list[tuple[str, str, str]]:
    """(level, logger name, message) for every well-formed log line."""
    out = []
    for raw in proc.log_path.read_text(encoding="utf-8", errors="replace").splitlines():
        m = LINE.match(raw)
        if m:
            out.append((m["level"], m["name"], m["msg"]))
    return out


def banner(proc: BotProcess) -> dict[str, str]:
    """The banner's lines by their label (the text before the first ：)."""
    lines = [msg for level, name, msg in log_lines(proc) if level == "INFO" and name == CORE]
    return {msg.split("：", 1)[0]: msg.split("：", 1)[1] for msg in lines if "：" in msg}


def run_bot_until_exit(env: dict[str, str], timeout: float = 60) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "CHRONODICE_"))}
    return subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=ROOT,
        env={**base, "ENVIRONMENT": "e2e", "PORT": "1", **env},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


async def test_banner_names_url_database_token_superusers_and_data_dir(tmp_path: Path) -> None:
    data = tmp_path / "dice-data"  # does not exist yet: the bot creates it
    proc = BotProcess(
        workdir=tmp_path,
        superusers=("99999", "12345"),
        extra_env={"CHRONODICE_DATA_DIR": str(data), "CHRONODICE_DATABASE_URL": ""},
    )
    proc.start()
    try:
        async with OneBotClient(proc.url) as client:
            assert re.search(r"1d6=\d", await client.group(".r 1d6", expect=1))
    finally:
        proc.stop()
    b = banner(proc)
    assert b["ChronoDice 已启动 · OneBot 反向 WebSocket 地址"] == proc.url
    assert b["数据库"] == f"sqlite {data / 'chronodice.db'}"
    assert b["访问令牌"].startswith("已设置")
    assert b["骰主"] == "12345、99999"
    assert b["数据目录"] == str(data)
    assert (data / "chronodice.db").is_file()
    assert proc.proc is not None and proc.proc.returncode == 0


async def test_banner_without_token_and_on_all_interfaces(tmp_path: Path) -> None:
    xdg = tmp_path / "xdg-data"  # where nonebot-plugin-localstore would put a plugin's data
    proc = BotProcess(
        workdir=tmp_path,
        superusers=(),
        extra_env={"ONEBOT_ACCESS_TOKEN": "", "HOST": "0.0.0.0", "XDG_DATA_HOME": str(xdg)},
    )
    proc.start()
    proc.stop()
    b = banner(proc)
    # the standalone bot keeps the repository's data/ (issue 41), never localstore's folder
    assert b["数据目录"] == str(ROOT / "data")
    assert not (xdg / "nonebot2" / "nonebot_plugin_chronodice").exists()
    assert b["ChronoDice 已启动 · OneBot 反向 WebSocket 地址"] == f"ws://0.0.0.0:{proc.port}/onebot/v11/ws"
    assert "换成本机的 IP 或域名" in "\n".join(msg for _, _, msg in log_lines(proc))
    assert b["访问令牌"].startswith("未设置") and "ONEBOT_ACCESS_TOKEN" in b["访问令牌"]
    assert b["骰主"].startswith("未设置")


async def test_log_level_applies_to_our_lines(tmp_path: Path) -> None:
    proc = BotProcess(workdir=tmp_path, extra_env={"LOG_LEVEL": "WARNING", "CHRONODICE_RNG_SEED": "1"})
    proc.start()
    proc.stop()
    lines = log_lines(proc)
    assert lines, proc.log_tail()
    assert not [line for line in lines if line[0] == "INFO"]  # the banner too is INFO
    assert any("CHRONODICE_RNG_SEED" in msg for level, _, msg in lines if level == "WARNING")


@pytest.mark.parametrize("level", ["DEBUG", "INFO"])
async def test_nonebot_lines_follow_log_level_while_serving(tmp_path: Path, level: str) -> None:
    """bot.py adds NoneBot's handler at LOG_LEVEL (records under it are dropped before loguru
    builds them): NoneBot's own per-event DEBUG lines appear at DEBUG and only then."""
    proc = BotProcess(workdir=tmp_path, extra_env={"LOG_LEVEL": level})
    proc.start()
    try:
        async with OneBotClient(proc.url) as client:
            await client.send(".r 1d100", expect=1)
    finally:
        proc.stop()
    lines = log_lines(proc)
    debug = [
        msg for lv, name, msg in lines if lv == "DEBUG" and name == "nonebot" and "Loaded Config" not in msg
    ]
    assert bool(debug) is (level == "DEBUG"), debug[:3]
    assert any(lv == "INFO" and name == CORE for lv, name, _ in lines)


async def test_failed_private_message_is_logged_with_its_cause(tmp_path: Path) -> None:
    proc = BotProcess(workdir=tmp_path)
    proc.start()
    try:
        async with OneBotClient(proc.url) as client:
            client.fail_private.add(80001)
            await client.send(".rh 1d100", user=80001, expect=3)
    finally:
        proc.stop()
    warnings = [msg for level, _, msg in log_lines(proc) if level == "WARNING"]
    assert any("80001" in msg and "不是好友" in msg and "retcode=100" in msg for msg in warnings), warnings


@pytest.mark.parametrize(
    "url",
    ["mysql://root:hunter2@127.0.0.1/dice", "postgresql+psycopg://u:hunter2@h/db", "nonsense"],
)
def test_bad_database_url_is_refused_with_one_line(url: str) -> None:
    done = run_bot_until_exit({"CHRONODICE_DATABASE_URL": url})
    out = done.stdout + done.stderr
    assert done.returncode == 2, out
    errors = [raw for raw in out.splitlines() if "[ERROR]" in raw]
    assert len(errors) == 1, out
    assert "CHRONODICE_DATABASE_URL" in errors[0] and "可用的写法" in errors[0]
    assert "postgresql+asyncpg://" in errors[0] and "sqlite+aiosqlite://" in errors[0]
    assert "hunter2" not in out and "Traceback" not in out


@pytest.mark.postgres
@pytest.mark.parametrize("scheme", ["postgresql", "postgres"])
async def test_plain_postgresql_urls_start_the_bot(tmp_path: Path, pg_url: str, scheme: str) -> None:
    plain = pg_url.replace("postgresql+asyncpg://", f"{scheme}://", 1)
    proc = BotProcess(workdir=tmp_path, database_url=plain)
    proc.start()
    try:
        async with OneBotClient(proc.url) as client:
            assert re.search(r"1d6=\d", await client.group(".r 1d6", expect=1))
    finally:
        proc.stop()
    assert banner(proc)["数据库"] == f"postgresql {pg_url}"
