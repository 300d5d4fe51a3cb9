"""ChronoDice as one NoneBot plugin: ``nonebot.load_plugin("nonebot_plugin_chronodice")``.

An existing NoneBot bot installs the ``chronodice`` distribution with pip and loads this package
(or lists it in its ``pyproject.toml``: ``[tool.nonebot.plugins] chronodice =
["nonebot_plugin_chronodice"]``); ChronoDice's own ``bot.py`` does the same.  Loading it loads
the sub-plugins in :data:`SUB_PLUGINS` as NoneBot's nested plugins (ids
``nonebot_plugin_chronodice:coc7`` …): ``chronodice_core`` (the one command matcher, the store,
``.log``) first, then one per rule system.  The commands themselves live in the ``chronodice``
library, which never imports NoneBot: before any sub-plugin, every service module is imported by
:func:`chronodice.services.load_all` — the one way commands are found, in the one order the
tests, ``.help``, the command table (``scripts/gen_commands.py``) and the guide share.

A sub-plugin that fails to import is logged by NoneBot and left out; ``bot.py`` then ends the
process with one line naming it (:func:`missing_plugins`).

Where the data goes (issue 41): ``CHRONODICE_DATA_DIR`` (the environment, then NoneBot's
configuration); the standalone ``bot.py`` sets it to the repository's ``data/`` unless a ``.env``
file does, the container image to ``/data``.  Inside another bot that sets nothing, the folder
nonebot-plugin-localstore gives this plugin (:data:`LOCALSTORE_DATA_DIR`), as NoneBot plugins
keep their data.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import nonebot
from nonebot import get_plugin_config, require

from chronodice.services import load_all

from .config import Config, plugin_meta

require("nonebot_plugin_localstore")

PLUGIN_ID = "nonebot_plugin_chronodice"
"""This plugin's NoneBot id (its module name: loaded at the top level)."""

SUB_PLUGINS: tuple[str, ...] = ("chronodice_core", "coc7", "dnd5e", "timeline", "tick20", "pool10", "moe")
"""Loaded in this order: the core first, since 萌E's sweeper sends through it."""

CORE_ID = f"{PLUGIN_ID}:chronodice_core"
"""``nonebot.get_plugin(CORE_ID)``: the core sub-plugin (``get_app``, ``load_settings``…)."""

__plugin_meta__ = plugin_meta(
    "ChronoDice",
    "TRPG 骰娘：掷骰、角色卡、跑团日志，CoC7、DnD5e、时间线、D20刻度、D10骰池、萌E",
    ".help 查看全部指令；.help 指令名 查看用法",
    config=Config,
)


def localstore_data_dir(config: Config, environ: Mapping[str, str] = os.environ) -> Path | None:
    """nonebot-plugin-localstore's data folder for this plugin (created; the host's
    ``LOCALSTORE_*`` settings apply), or ``None`` when ``CHRONODICE_DATA_DIR`` is set in
    ``environ`` or ``config`` (the standalone bot sets it).

    localstore names the folder after the plugin of the code that asks: this module, so the
    top plugin (``…/nonebot2/nonebot_plugin_chronodice`` by default), never a sub-plugin's."""
    if environ.get("CHRONODICE_DATA_DIR") or config.chronodice_data_dir:
        return None
    import nonebot_plugin_localstore

    return nonebot_plugin_localstore.get_plugin_data_dir()


LOCALSTORE_DATA_DIR: Path | None = localstore_data_dir(get_plugin_config(Config))
"""The data directory when no setting names one (``chronodice_core.load_settings``): decided
once, while this plugin loads; ``None`` when a setting named one then."""

SERVICES: list[str] = []
"""The service modules :func:`chronodice.services.load_all` imported (their commands registered)."""


def _load_sub_plugins() -> None:
    """Each sub-plugin by its module path: loaded while this plugin loads, NoneBot makes it a
    sub-plugin of this one (``nonebot.load_plugins`` over a folder would need the folder under
    the working directory, which an installed package is not).  The commands first: all of them,
    before anything (the web pages, the app) imports a service on its own and changes the order."""
    SERVICES[:] = load_all()
    for name in SUB_PLUGINS:
        nonebot.load_plugin(f"{__name__}.{name}")


_load_sub_plugins()


def missing_plugins() -> list[str]:
    """The sub-plugins that did not load (their short names), in :data:`SUB_PLUGINS` order."""
    return [name for name in SUB_PLUGINS if nonebot.get_plugin(f"{PLUGIN_ID}:{name}") is None]
