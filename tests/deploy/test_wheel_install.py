"""An existing NoneBot bot installs ChronoDice's wheel and answers ``.r 1d6`` (issue 29).

Builds the wheel from a copy of this checkout (``pip wheel --no-deps``), installs it into a
fresh venv with ``pip install --no-index``, and starts a fresh NoneBot project — its own
``pyproject.toml`` naming the plugin, as ``nb plugin install`` writes it, and the ``bot.py``
``nb create`` writes — in a directory of its own; a real OneBot v11 client
(``onebot_client.OneBotClient``) then rolls over the reverse WebSocket.

Nothing is downloaded for the dependencies: the fresh venv sees this venv's installed packages
through a ``.pth`` line naming a folder of links to them, every one except ChronoDice's own
(its dist-info and the editable-install hook that puts ``src/`` on the path), so pip resolves
the wheel's requirements against what is installed and the plugin can only come from the
wheel; the bot prints where ``nonebot_plugin_chronodice`` and ``chronodice`` were imported from
and the test checks both lie in the fresh venv.  The build backend (setuptools ≥ 77, in pip's
isolated build) comes from pip's cache, or PyPI the first time.
"""

from __future__ import annotations

import re
import sys
import sysconfig
import time
from pathlib import Path

import pytest
from onebot_client import ROOT, BotProcess, OneBotClient
from wheel_build import build_wheel, requires_dist, run

pytestmark = [pytest.mark.e2e, pytest.mark.wheel]

CORE = "nonebot_plugin_chronodice:chronodice_core"

FRESH_PYPROJECT = """\
[project]
name = "some-existing-bot"
version = "0.1.0"
dependencies = ["nonebot-plugin-chronodice"]

[tool.nonebot]
plugin_dirs = []
builtin_plugins = []

[tool.nonebot.adapters]
nonebot-adapter-onebot = [{ name = "OneBot V11", module_name = "nonebot.adapters.onebot.v11" }]

[tool.nonebot.plugins]
chronodice = ["nonebot_plugin_chronodice"]
"""

FRESH_BOT = """\
import sys

import nonebot
from nonebot.adapters.onebot.v11 import Adapter as ONEBOT_V11Adapter

nonebot.init()
driver = nonebot.get_driver()
driver.register_adapter(ONEBOT_V11Adapter)
nonebot.load_from_toml("pyproject.toml")

import chronodice
import nonebot_plugin_chronodice

print("FROM", nonebot_plugin_chronodice.__file__, chronodice.__file__, flush=True)
print("PATH", *sys.path, sep="\\n  ", flush=True)

if __name__ == "__main__":
    nonebot.run()
"""

SKIP_NAMES = ("chronodice", "nonebot_plugin_chronodice", "__editable__")
"""This venv's entries the fresh one must not see: ChronoDice itself, however installed."""


def fresh_venv(tmp: Path) -> tuple[Path, Path]:
    """A venv without pip whose path also holds links to this venv's packages but ChronoDice;
    its python and its site-packages."""
    venv = tmp / "venv"
    run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    python = venv / "bin" / "python"
    site = Path(
        run([str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"]).stdout.strip()
    )
    deps = tmp / "deps"
    deps.mkdir()
    ours = Path(sysconfig.get_paths()["purelib"])
    for entry in ours.iterdir():
        if entry.name.startswith(SKIP_NAMES) or entry.suffix == ".pth":
            continue
        (deps / entry.name).symlink_to(entry)
    (site / "installed-deps.pth").write_text(f"{deps}\n", encoding="utf-8")
    return python, site


async def test_a_fresh_nonebot_project_installs_the_wheel_and_rolls(tmp_path: Path) -> None:
    started = time.monotonic()
    wheel = build_wheel(tmp_path)
    pinned = [r for r in requires_dist(wheel) if "==" in r.split(";")[0]]
    assert not pinned, f"the wheel pins exact versions (a host bot could not keep its own): {pinned}"
    python, site = fresh_venv(tmp_path)
    installed = run(
        [
            sys.executable,
            "-m",
            "pip",
            "--python",
            str(python),
            "install",
            "--disable-pip-version-check",
            "--no-index",
            "--find-links",
            str(wheel.parent),
            str(wheel),
        ],
        cwd=tmp_path,
    )
    assert "Successfully installed nonebot-plugin-chronodice-" in installed.stdout, installed.stdout
    assert (site / "nonebot_plugin_chronodice" / "chronodice_core" / "bridge.py").is_file()
    assert (site / "chronodice" / "render" / "fonts").is_dir()

    project = tmp_path / "existing-bot"
    project.mkdir()
    (project / "pyproject.toml").write_text(FRESH_PYPROJECT, encoding="utf-8")
    (project / "bot.py").write_text(FRESH_BOT, encoding="utf-8")
    proc = BotProcess(
        workdir=tmp_path,
        python=str(python),
        entry=project / "bot.py",
        cwd=project,
        extra_env={"PYTHONPATH": "", "CHRONODICE_DATA_DIR": str(tmp_path / "data")},
    )
    proc.start(timeout=60)
    try:
        async with OneBotClient(proc.url) as client:
            reply = await client.group(".r 1d6", expect=1)
    finally:
        proc.stop()
    log = proc.log_path.read_text(encoding="utf-8", errors="replace")
    assert re.search(r"1d6=[1-6]\b", reply), reply

    (plugin_file, library_file) = re.search(r"^FROM (\S+) (\S+)$", log, re.M).groups()  # type: ignore[union-attr]
    assert Path(plugin_file).is_relative_to(site) and Path(library_file).is_relative_to(site), log
    assert str(ROOT / "src") not in log.split("PATH", 1)[1], "this checkout's src/ is on the fresh bot's path"
    assert re.search(rf"\[INFO\] {re.escape(CORE)} \| ChronoDice 已启动", log), log
    loaded = re.findall(r'Succeeded to load plugin "([^"]+)"', log)
    subs = ["chronodice_core", "coc7", "dnd5e", "timeline", "tick20", "pool10", "moe"]
    assert sorted(loaded) == sorted(
        [
            "nonebot_plugin_localstore",  # require()d by ChronoDice: where its data goes (issue 41)
            "nonebot_plugin_chronodice",
            *(f"nonebot_plugin_chronodice:{s}" for s in subs),
        ]
    )
    assert proc.proc is not None and proc.proc.returncode == 0, log
    print(f"\nwheel build + install + start + .r 1d6: {time.monotonic() - started:.1f} s")
