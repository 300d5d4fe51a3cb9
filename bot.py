"""Start ChronoDice: ``python bot.py`` (reads .env and the environment, NoneBot's way).

OneBot v11 implementations (NapCat, Lagrange.OneBot, LLOneBot) connect by reverse WebSocket to
``ws://HOST:PORT/onebot/v11/ws``; the start-up banner in the log prints the exact address, the
database, whether an access token is set, the superusers and the data directory.
``CHRONODICE_CONSOLE=true`` adds NoneBot's terminal chat (the ``console`` extra:
``pip install -e '.[console]'``; without it the bot ends with one line saying so, status 2).
Data goes to ``data/`` in the repository unless ``CHRONODICE_DATA_DIR`` names another folder (the
plugin inside another bot uses nonebot-plugin-localstore's folder instead: not here).

The commands are the NoneBot plugin ``nonebot_plugin_chronodice`` (``src/``, shipped in the
wheel), loaded from ``pyproject.toml``'s ``[tool.nonebot.plugins]`` as any NoneBot project
loads an installed plugin.  Before the server starts, the settings are checked: a plugin that
failed to import, or a database URL the store cannot open, ends the process with one log line
and a non-zero status (1 and 2) instead of a bot that runs without its commands or dies with a
traceback.

The server serves only ChronoDice's own routes (the OneBot reverse WebSocket and the pages under
``/web/``; OneBot over HTTP only with ``ONEBOT_SECRET``), caps connections per address with a
header deadline, and reads ``X-Forwarded-For`` only from ``CHRONODICE_TRUSTED_PROXIES``
(:func:`chronodice.web.server_options`, :mod:`chronodice.web.edge`).
"""

from __future__ import annotations

import asyncio
import gc
import os
import signal
import sys
from pathlib import Path
from typing import Any, ClassVar

import nonebot
from nonebot import log as nonebot_log
from nonebot.adapters.onebot.v11 import Adapter as OneBotV11Adapter
from nonebot.log import logger

ROOT = Path(__file__).resolve().parent
os.chdir(ROOT)  # relative paths (data/, pyproject.toml) start at the repository
sys.path.insert(0, str(ROOT / "src"))  # the plugin and library from a checkout, installed or not

PLUGIN = "nonebot_plugin_chronodice"

EXIT_PLUGIN_FAILED = 1
EXIT_BAD_SETTINGS = 2


def console_adapter() -> type[Any]:
    """NoneBot's console adapter, fixed so that closing the terminal chat ends the bot.

    nonebot-adapter-console 0.10.0 runs the nonechat (Textual) UI as a task beside the server:
    ctrl+q only ends that task (the adapter then logs "Press Ctrl-C for Application exit" and
    the server runs on), and ctrl+c is taken by Textual as a key and only shows a hint.  The
    first command typed could vanish twice over: the first focusable widget (a sidebar button)
    gets the focus, not the input box; and the adapter opens the UI in its start-up hook, which
    runs before the plugins' (registered later), so a command typed while ChronoDice is still
    migrating its database found no app and was dropped.

    Here the UI opens after every other start-up hook (bot.py calls ``start_ui_last`` after
    loading the plugins), the input box gets the focus as soon as it is laid out, ctrl+c quits
    like ctrl+q, and when the UI ends by itself the process is asked to stop (SIGINT, which
    uvicorn turns into a clean shutdown).
    """
    from nonebot.adapters.console import Adapter as ConsoleAdapter
    from nonebot.adapters.console.backend import AdapterConsoleBackend
    from nonechat import ConsoleSetting, Frontend
    from textual.binding import Binding
    from textual.color import Color
    from textual.widgets import Input

    class ChronoFrontend(Frontend):  # type: ignore[type-arg]
        BINDINGS: ClassVar[list[Binding]] = [Binding("ctrl+c", "quit", "Quit", show=False, priority=True)]

        def on_ready(self) -> None:
            # The chat view is mounted by nonechat's router around the first frame, and a widget
            # that is not laid out yet ignores focus(): ask every 50 ms until the input box has
            # the focus (for at most 10 s).
            self._focus_tries = 200
            self._focus_timer = self.set_interval(0.05, self._focus_input_box)

        def _focus_input_box(self) -> None:
            self._focus_tries -= 1
            boxes = list(self.query(Input))
            if any(box.has_focus for box in boxes) or self._focus_tries <= 0:
                self._focus_timer.stop()
            elif boxes:
                boxes[0].focus()

    class ChronoConsoleAdapter(ConsoleAdapter):
        _closing = False

        def setup(self) -> None:
            # the UI's start hook is registered by start_ui_last(), after the plugins' hooks
            if not self.console_config.console_headless_mode:
                self.driver.on_shutdown(self._shutdown)

        def start_ui_last(self) -> None:
            if not self.console_config.console_headless_mode:
                self.driver.on_startup(self._start)

        async def _start(self) -> None:
            self._frontend = ChronoFrontend(
                AdapterConsoleBackend,
                ConsoleSetting(
                    title="ChronoDice",
                    sub_title="终端聊天 · ctrl+q 退出",
                    toolbar_exit="❌",
                    icon_color=Color.parse("#EA5252"),
                ),
            )
            self._frontend.backend.set_adapter(self)
            self._frontend.backend.current_bot.id = self.console_config.console_bot_id
            self._frontend.backend.current_bot.nickname = self.console_config.console_bot_name
            self._task = asyncio.create_task(self._frontend.run_async())
            self._task.add_done_callback(self._frontend_ended)

        def _frontend_ended(self, task: asyncio.Task[Any]) -> None:
            if self._closing:
                return
            if not task.cancelled() and task.exception() is not None:
                logger.opt(exception=task.exception()).error("终端聊天界面出错，ChronoDice 退出")
            else:
                logger.info("终端聊天界面已关闭，ChronoDice 退出")
            signal.raise_signal(signal.SIGINT)

        async def _shutdown(self) -> None:
            self._closing = True
            if getattr(self, "_frontend", None) is None:  # a start-up hook before the UI failed
                return
            await super()._shutdown()

    return ChronoConsoleAdapter


def _console_enabled(driver: Any) -> bool:
    value = os.environ.get("CHRONODICE_CONSOLE", str(getattr(driver.config, "chronodice_console", "")))
    return value.strip().lower() in ("1", "true", "yes", "on")


def _console_or_exit() -> type[Any]:
    """:func:`console_adapter`, or one log line and exit status 2 when the ``console`` extra
    (nonebot-adapter-console, textual, rich) is not installed."""
    try:
        return console_adapter()
    except ModuleNotFoundError as exc:
        logger.error(
            f"CHRONODICE_CONSOLE=true，但终端聊天所需的包没有安装（缺少 {exc.name}）："
            "请运行 pip install 'nonebot-plugin-chronodice[console]'"
            "（在本仓库的检出里：pip install -c requirements.lock -e '.[console]'），ChronoDice 退出"
        )
        sys.exit(EXIT_BAD_SETTINGS)


def _standalone_data_dir(driver: Any) -> None:
    """The standalone bot keeps its data in the repository's ``data/``: that is the default
    here, given to the plugin as its setting unless ``CHRONODICE_DATA_DIR`` is in a ``.env``
    file (the environment wins over both, in ``load_settings``).  Loaded into another bot, with
    nothing set, the plugin uses nonebot-plugin-localstore's folder instead."""
    from chronodice.datadir import DEFAULT_DATA_DIR

    if not getattr(driver.config, "chronodice_data_dir", None):
        driver.config.chronodice_data_dir = DEFAULT_DATA_DIR


def _check_plugins_and_settings() -> None:
    """Exit with one log line if a plugin did not load or the settings are unusable."""
    from chronodice.store.url import DatabaseURLError

    top = nonebot.get_plugin(PLUGIN)
    missing: list[str] = top.module.missing_plugins() if top is not None else [PLUGIN]
    if top is None or missing:
        logger.error(f"插件加载失败：{'、'.join(missing)}（原因见上方日志），ChronoDice 退出")
        sys.exit(EXIT_PLUGIN_FAILED)
    core = nonebot.get_plugin(top.module.CORE_ID)
    assert core is not None and core.module is not None
    try:
        core.module.load_settings()
    except DatabaseURLError as exc:
        logger.error(f"CHRONODICE_DATABASE_URL 无效：{exc}")
        sys.exit(EXIT_BAD_SETTINGS)
    from nonebot.adapters.onebot.v11.config import Config as OneBotConfig

    from chronodice.web import WebSettingsError, check_exposure, read_public_url

    try:  # pages on a public address, but the OneBot endpoint open to anyone: refuse (issue 28)
        token = nonebot.get_plugin_config(OneBotConfig).onebot_access_token
        check_exposure(read_public_url(driver_config=driver.config), token)
    except WebSettingsError as exc:
        logger.error(str(exc))
        sys.exit(EXIT_BAD_SETTINGS)
    try:
        core.module.trusted_proxies()
    except ValueError as exc:
        logger.error(str(exc))
        sys.exit(EXIT_BAD_SETTINGS)


def _server_options() -> dict[str, Any]:
    """Uvicorn's settings for the standalone bot (:func:`chronodice.web.server_options`): only
    ChronoDice's routes are served, connections are guarded, the listed proxies are trusted."""
    from chronodice.web import server_options

    core = nonebot.get_plugin(f"{PLUGIN}:chronodice_core")
    assert core is not None and core.module is not None
    core.module.EDGE.closed = True
    header_seconds = float(core.module.config.chronodice_header_seconds)
    return server_options(core.module.trusted_proxies(), header_seconds=header_seconds)


def _drop_filtered_logs_early(level: str | int) -> None:
    """NoneBot's log handler takes records of every level (``level=0``) and its filter drops those
    under LOG_LEVEL, after loguru has built each one (caller frame, time, plugin name): about ten
    per message, a tenth of a ``.r``.  The same handler added at LOG_LEVEL lets loguru drop them
    before building anything.  (The console adapter reuses NoneBot's handler: not with it.)"""
    if isinstance(level, str):
        try:
            logger.level(level)
        except ValueError:
            return  # a level loguru does not know: NoneBot's filter will say so
    logger.remove(nonebot_log.logger_id)
    nonebot_log.logger_id = logger.add(
        sys.stdout,
        level=level,
        diagnose=False,
        filter=nonebot_log.default_filter,
        format=nonebot_log.default_format,
    )


nonebot.init()
driver = nonebot.get_driver()
_standalone_data_dir(driver)
driver.register_adapter(OneBotV11Adapter)
console = _console_or_exit() if _console_enabled(driver) else None
if console is not None:
    driver.register_adapter(console)
else:
    _drop_filtered_logs_early(driver.config.log_level)
nonebot.load_from_toml("pyproject.toml")


@driver.on_startup
async def _tune_gc() -> None:
    """Python's cyclic garbage collector took a sixth of the bot's CPU under load (0.59 of
    3.55 ms per ``.init next``, 16 in flight): a young collection every 700 net allocations, and
    full ones that walk every object loaded at start (NoneBot, pydantic's schemas, the plugins),
    ~50 ms each.  A command's objects are nearly all freed by reference counting, so: freeze what
    start-up left (never walked again), and collect the young generation every 20,000 net
    allocations.  Measured: 2.90 ms per ``.init next``, 0.02 ms of it collecting."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(20_000, 20, 20)


if console is not None:
    nonebot.get_adapter(console).start_ui_last()

if __name__ == "__main__":
    _check_plugins_and_settings()
    try:
        nonebot.run(**_server_options())
    except KeyboardInterrupt:
        pass
