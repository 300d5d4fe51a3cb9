"""ChronoDice as one NoneBot plugin (issue 29): its metadata, its sub-plugins, and events of
adapters it does not support.

The wheel installed into a fresh NoneBot project is ``test_wheel_install.py``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import nonebot
import pytest
from nonebot.adapters import Event
from nonebot.adapters.onebot.v11 import Message
from nonebug import App

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from onebot_client import ROOT

TOP = "nonebot_plugin_chronodice"
SUBS = ("chronodice_core", "coc7", "dnd5e", "timeline", "tick20", "pool10", "moe")


def test_the_top_plugin_has_full_metadata() -> None:
    plugin = nonebot.get_plugin(TOP)
    assert plugin is not None and plugin.parent_plugin is None
    meta = plugin.metadata
    assert meta is not None
    assert (meta.name, meta.type) == ("ChronoDice", "application")
    assert meta.supported_adapters == {"~onebot.v11", "~console"}
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert meta.homepage == pyproject["project"]["urls"]["Homepage"]
    assert meta.config is not None and "chronodice_database_url" in meta.config.model_fields


def test_the_rule_systems_are_its_sub_plugins_with_metadata() -> None:
    top = nonebot.get_plugin(TOP)
    assert top is not None
    assert sorted(p.id_ for p in top.sub_plugins) == sorted(f"{TOP}:{name}" for name in SUBS)
    assert top.module.missing_plugins() == []
    for sub in top.sub_plugins:
        assert sub.metadata is not None and sub.metadata.type == "application", sub.id_
        assert sub.metadata.supported_adapters == {"~onebot.v11", "~console"}, sub.id_
    assert nonebot.get_plugin(top.module.CORE_ID) is nonebot.get_plugin(f"{TOP}:chronodice_core")


def test_the_core_reads_the_settings_through_the_top_plugins_config() -> None:
    top = nonebot.get_plugin(TOP)
    core = nonebot.get_plugin(f"{TOP}:chronodice_core")
    assert top is not None and top.metadata is not None and core is not None
    assert core.module.Config is top.metadata.config
    assert core.module.config.chronodice_rng_seed == 7  # tests/conftest.py's NoneBot settings


def _foreign_event(text: str) -> Event:
    """A message event of an adapter we do not support (QQ's official API, Kook…), carrying a
    ``group_id`` as some do: a fresh class each call, so its DEBUG line is logged anew."""

    class ForeignMessageEvent(Event):
        group_id: int = 20002
        message_id: int = 1

        def get_type(self) -> str:
            return "message"

        def get_event_name(self) -> str:
            return "message.foreign"

        def get_event_description(self) -> str:
            return text

        def get_message(self) -> Message:
            return Message(text)

        def get_user_id(self) -> str:
            return "10001"

        def get_session_id(self) -> str:
            return "10001"

        def is_tome(self) -> bool:
            return True

    return ForeignMessageEvent()


async def test_another_adapters_message_is_ignored_with_one_debug_line(nbapp: App) -> None:
    """``.r 1d6`` from an unsupported adapter's bot: no reply, no API call (nonebug fails on any
    call not expected), and one DEBUG line naming the event type for two such messages."""
    from nonebot.log import logger

    seen: list[Any] = []
    sink = logger.add(lambda message: seen.append(message.record), level="DEBUG")
    first = _foreign_event(".r 1d6")
    second = type(first)()
    try:
        async with nbapp.test_matcher() as ctx:
            bot = ctx.create_bot(self_id="777")  # nonebug's own adapter: "fake", not OneBot
            assert bot.adapter.get_name() == "fake"
            ctx.receive_event(bot, first)
            ctx.receive_event(bot, second)
    finally:
        logger.remove(sink)
    ours = [r["message"] for r in seen if "不支持的适配器" in r["message"]]
    assert ours == [f"忽略不支持的适配器的事件：{__name__}._foreign_event.<locals>.ForeignMessageEvent"]
    assert all(r["level"].name == "DEBUG" for r in seen if "不支持的适配器" in r["message"])


def test_the_bridge_never_makes_a_context_of_another_adapters_event() -> None:
    from nonebot_plugin_chronodice.chronodice_core import bridge

    event = _foreign_event(".rh 1d100")
    assert bridge.is_supported(event) is False
    assert bridge.build_context(event) is None


@pytest.mark.parametrize("module", ["nonebot.adapters.onebot.v11", "nonebot.adapters.console"])
def test_onebot_and_console_events_are_supported(module: str) -> None:
    from nonebot_plugin_chronodice.chronodice_core import bridge

    if module.endswith("v11"):
        from helpers import group_msg

        assert bridge.is_supported(group_msg(".r d6"))
    else:
        from datetime import datetime

        from nonebot.adapters.console import Message as ConsoleMessage
        from nonebot.adapters.console import MessageEvent
        from nonechat.model import DIRECT, User

        event = MessageEvent(
            time=datetime.now(),
            self_id="console",
            message_id="1",
            message=ConsoleMessage(".r d6"),
            user=User(id="user", nickname="我"),
            channel=DIRECT,
        )
        assert bridge.is_supported(event)
        ctx = bridge.build_context(event)
        assert ctx is not None and ctx.group_id is None and ctx.sender_name == "我"


SITECUSTOMIZE = '''\
import importlib.abc
import sys


class _Broken(importlib.abc.MetaPathFinder):
    """chronodice.services.coc7 fails to import, as a bad install or a syntax error would."""

    def find_spec(self, name, path=None, target=None):
        if name == "chronodice.services.coc7":
            raise ImportError("coc7 is broken on purpose")
        return None


sys.meta_path.insert(0, _Broken())
'''


def test_bot_py_exits_1_naming_a_sub_plugin_that_did_not_load(tmp_path: Path) -> None:
    """A service that fails to import (here through a ``sitecustomize`` that breaks one
    import) ends ``python bot.py`` with status 1 and one line of ours: every command is
    registered by ``load_all`` while the plugin itself loads (issue 43), so the line names the
    plugin, and NoneBot's log names the broken module."""
    (tmp_path / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PYTEST", "CHRONODICE_"))}
    done = subprocess.run(
        [sys.executable, str(ROOT / "bot.py")],
        cwd=ROOT,
        env={**base, "ENVIRONMENT": "e2e", "PORT": "1", "PYTHONPATH": str(tmp_path)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    ours = [line for line in out.splitlines() if "插件加载失败" in line]
    assert len(ours) == 1 and ours[0].endswith(
        "插件加载失败：nonebot_plugin_chronodice（原因见上方日志），ChronoDice 退出"
    ), out
    assert "coc7 is broken on purpose" in out  # NoneBot's own log line says why
