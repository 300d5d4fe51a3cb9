"""A good neighbour inside another NoneBot bot (issue 41): a bot pinned at NoneBot 2.4.4 and
OneBot adapter 2.4.5, with another dice plugin, installs ChronoDice's wheel and keeps its versions.

A fresh venv (without pip of its own: this venv's pip installs into it with ``--python``) gets the
host from PyPI — ``nonebot2[fastapi,websockets]==2.4.4``, ``nonebot-adapter-onebot==2.4.5`` and
``nonebot-plugin-roll`` (``rd``/``roll``/``掷骰`` after NoneBot's ``COMMAND_START``) — then the
wheel built from a copy of this checkout, with pip resolving against what is installed and
downloading only what is missing (SQLAlchemy, Pillow, nonebot-plugin-localstore…); pip's cache
makes the downloads one-time.  Checked: NoneBot and the adapter are still 2.4.4 / 2.4.5 and
``pip check`` is clean; the host's plain ``bot.py`` (``nb create``'s, both plugins in its
``pyproject.toml``) answers ``.r 1d6`` through ChronoDice and ``/roll 2d6`` through the other
plugin only, over the real reverse WebSocket; ChronoDice's SQLite file lies in localstore's data
folder (``XDG_DATA_HOME`` points into ``tmp_path``); and this repository's ``bot.py`` under that
venv, where the ``console`` extra is not installed, refuses ``CHRONODICE_CONSOLE=true`` with one
line.  Where PyPI cannot be reached the test is skipped with the reason shown.
"""

from __future__ import annotations

import os
import re
import sqlite3
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from onebot_client import ROOT, BotProcess, OneBotClient
from wheel_build import build_wheel, clean_env

pytestmark = [pytest.mark.e2e, pytest.mark.wheel]

HOST = {"nonebot2": "2.4.4", "nonebot-adapter-onebot": "2.4.5"}
HOST_REQUIREMENTS = [
    "nonebot2[fastapi,websockets]==2.4.4",
    "nonebot-adapter-onebot==2.4.5",
    "nonebot-plugin-roll==0.2.3",
]

HOST_PYPROJECT = """\
[project]
name = "a-host-bot"
version = "0.1.0"
dependencies = [
    "nonebot2[fastapi,websockets]==2.4.4",
    "nonebot-adapter-onebot==2.4.5",
    "nonebot-plugin-roll==0.2.3",
    "nonebot-plugin-chronodice",
]

[tool.nonebot]
plugin_dirs = []
builtin_plugins = []

[tool.nonebot.adapters]
nonebot-adapter-onebot = [{ name = "OneBot V11", module_name = "nonebot.adapters.onebot.v11" }]

[tool.nonebot.plugins]
nonebot-plugin-roll = ["nonebot_plugin_roll"]
nonebot-plugin-chronodice = ["nonebot_plugin_chronodice"]
"""

HOST_BOT = """\
import nonebot
from nonebot.adapters.onebot.v11 import Adapter as ONEBOT_V11Adapter

nonebot.init()
driver = nonebot.get_driver()
driver.register_adapter(ONEBOT_V11Adapter)
nonebot.load_from_toml("pyproject.toml")

if __name__ == "__main__":
    nonebot.run()
"""

OFFLINE = (
    "No matching distribution found",
    "Could not find a version that satisfies",
    "NewConnectionError",
    "Failed to establish a new connection",
    "Temporary failure in name resolution",
)


def pip(python: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """This venv's pip acting on ``python``'s environment (pip's cache reused); skips the test
    when a package cannot be downloaded."""
    cmd = [sys.executable, "-m", "pip", "--python", str(python), "--disable-pip-version-check", *args]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=480, env=clean_env())
    if done.returncode != 0 and any(sign in done.stdout + done.stderr for sign in OFFLINE):
        print(
            f"\n*** SKIPPING the host-install test: PyPI not reachable:\n{done.stderr} ***", file=sys.stderr
        )
        pytest.skip("the host bot's packages are neither in pip's cache nor reachable on PyPI")
    assert done.returncode == 0, f"{' '.join(cmd)}\n{done.stdout}\n{done.stderr}"
    return done


def versions(python: Path) -> dict[str, str]:
    shown = pip(python, "show", *HOST).stdout
    return dict(
        zip(
            re.findall(r"^Name: (.+)$", shown, re.M), re.findall(r"^Version: (.+)$", shown, re.M), strict=True
        )
    )


def host_venv(tmp: Path) -> Path:
    """The fresh venv with the host bot's packages from PyPI; its python."""
    venv = tmp / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=60)
    python = venv / "bin" / "python"
    pip(python, "install", "-q", "--no-compile", *HOST_REQUIREMENTS)
    return python


async def test_a_nonebot_2_4_bot_with_another_dice_plugin_installs_chronodice(tmp_path: Path) -> None:
    started = time.monotonic()
    with ThreadPoolExecutor(2) as pool:  # the wheel builds while the host's packages download
        building = pool.submit(build_wheel, tmp_path)
        python = host_venv(tmp_path)
        wheel = building.result()
    prepared = time.monotonic()

    installed = pip(python, "install", "--no-compile", str(wheel)).stdout
    assert "Successfully installed" in installed and "nonebot-plugin-chronodice-" in installed, installed
    newly = installed.rsplit("Successfully installed", 1)[1]
    assert "nonebot2-" not in newly and "nonebot-adapter-onebot-" not in newly, newly
    assert "nonebot-plugin-localstore-" in newly, newly
    assert versions(python) == HOST, "installing ChronoDice changed the host's NoneBot or adapter"
    pip(python, "check")
    wheel_installed = time.monotonic()

    project, xdg, home = tmp_path / "host-bot", tmp_path / "xdg-data", tmp_path / "home"
    for folder in (project, home):
        folder.mkdir()
    (project / "pyproject.toml").write_text(HOST_PYPROJECT, encoding="utf-8")
    (project / "bot.py").write_text(HOST_BOT, encoding="utf-8")
    (project / ".env").write_text("DRIVER=~fastapi\n", encoding="utf-8")
    proc = BotProcess(
        workdir=tmp_path,
        python=str(python),
        entry=project / "bot.py",
        cwd=project,
        # no CHRONODICE_DATABASE_URL, no data directory: the host sets nothing of ours
        extra_env={
            "PYTHONPATH": "",
            "CHRONODICE_DATABASE_URL": "",
            "XDG_DATA_HOME": str(xdg),
            "HOME": str(home),
        },
    )
    proc.start(timeout=60)
    try:
        async with OneBotClient(proc.url) as client:
            ours = await client.send(".r 1d6", expect=1)
            theirs = await client.send("/roll 2d6", quiet=1.0)
    finally:
        proc.stop()
    log = proc.log_path.read_text(encoding="utf-8", errors="replace")
    assert len(ours) == 1 and ours[0].to_group and re.search(r"1d6=[1-6]\b", ours[0].text), ours
    texts = [call.text for call in theirs]
    assert all(call.to_group for call in theirs) and texts, theirs
    # nonebot-plugin-roll's answer (now and then with an easter egg), and nothing of ours
    assert any("你掷出了2个6面骰子" in t or "骰子全部消失" in t for t in texts), texts
    assert all(t.startswith(("你掷出了", "彩蛋！")) for t in texts), texts
    assert proc.proc is not None and proc.proc.returncode == 0, log

    loaded = set(re.findall(r'Succeeded to load plugin "([^"]+)"', log))
    assert {"nonebot_plugin_roll", "nonebot_plugin_localstore", "nonebot_plugin_chronodice"} <= loaded, log
    folder = xdg / "nonebot2" / "nonebot_plugin_chronodice"
    assert f"数据目录：{folder}" in log and f"数据库：sqlite {folder / 'chronodice.db'}" in log, log
    with sqlite3.connect(folder / "chronodice.db") as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall(), "not ChronoDice's store"
    assert not (project / "data").exists(), "ChronoDice wrote into the host bot's working directory"

    # this repository's bot.py in a venv without the console extra: one line, exit status 2
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "CHRONODICE_"))}
    env.update({"ENVIRONMENT": "e2e", "PORT": "1", "CHRONODICE_CONSOLE": "true", "PYTHONPATH": ""})
    done = subprocess.run(
        [str(python), str(ROOT / "bot.py")], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    out = done.stdout + done.stderr
    assert done.returncode == 2, out
    errors = [line for line in out.splitlines() if "[ERROR]" in line]
    assert len(errors) == 1 and "pip install 'nonebot-plugin-chronodice[console]'" in errors[0], out
    assert "Traceback" not in out, out

    ended = time.monotonic()
    print(
        f"\nhost venv + wheel build: {prepared - started:.1f} s, wheel install: "
        f"{wheel_installed - prepared:.1f} s, bots: {ended - wheel_installed:.1f} s, "
        f"total {ended - started:.1f} s"
    )
