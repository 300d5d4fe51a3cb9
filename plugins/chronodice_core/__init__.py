"""NoneBot glue for ChronoDice: one matcher routes every command to ``chronodice.app.App``.

Builds a :class:`~chronodice.core.context.Context` from the OneBot v11 (or console) event,
calls ``App.dispatch`` and sends the replies: group text where the command came from, hidden
content only by private message (with a content-free note in the group when that fails).
"""

from __future__ import annotations

import logging
import os
import random

from nonebot import get_driver, get_plugin_config, on_message
from nonebot.adapters import Bot, Event
from nonebot.plugin import PluginMetadata
from nonebot.typing import T_State
from pydantic import BaseModel

import chronodice.services.common  # noqa: F401  (registers the common commands)
from chronodice.app import App
from chronodice.core.commands import REGISTRY
from chronodice.core.ratelimit import FloodSettings
from chronodice.store import DEFAULT_URL, Store

from .bridge import build_context, send_replies


class Config(BaseModel):
    chronodice_database_url: str = DEFAULT_URL
    chronodice_rng_seed: int | None = None
    """Testing only: a fixed seed makes rolls repeatable.  Never set it in production."""
    chronodice_console: bool = False
    chronodice_flood_enabled: bool = True
    chronodice_flood_user_burst: float = FloodSettings.user_burst
    chronodice_flood_user_rate: float = FloodSettings.user_rate
    chronodice_flood_gm_burst: float = FloodSettings.gm_burst
    chronodice_flood_gm_rate: float = FloodSettings.gm_rate
    chronodice_flood_group_burst: float = FloodSettings.group_burst
    chronodice_flood_group_rate: float = FloodSettings.group_rate

    def flood(self) -> FloodSettings:
        """Flood-control settings (``CHRONODICE_FLOOD_*``; see ``.env.example``)."""
        prefix = "chronodice_flood_"
        return FloodSettings.from_mapping(
            {k.removeprefix(prefix): v for k, v in self.model_dump().items() if k.startswith(prefix)}
        )


__plugin_meta__ = PluginMetadata(
    name="ChronoDice",
    description="TRPG 骰娘：掷骰、角色卡、时间线、无限恐怖、D20刻度、萌E",
    usage=".help",
    config=Config,
)

config = get_plugin_config(Config)
driver = get_driver()
log = logging.getLogger("chronodice")
_state: dict[str, App] = {}


def get_app() -> App:
    return _state["app"]


@driver.on_startup
async def _startup() -> None:
    url = os.environ.get("CHRONODICE_DATABASE_URL") or config.chronodice_database_url
    store = Store(url)
    await store.migrate()
    seed = config.chronodice_rng_seed
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    _state["app"] = App(store, rng, flood=config.flood())


@driver.on_shutdown
async def _shutdown() -> None:
    app = _state.pop("app", None)
    if app is not None:
        await app.store.close()


async def _is_command(event: Event, state: T_State) -> bool:
    if event.get_type() != "message":
        return False
    try:
        text = event.get_plaintext()
    except Exception:
        return False
    if REGISTRY.route(text[:2000]) is None:
        return False
    state["chronodice_text"] = text
    return True


matcher = on_message(rule=_is_command, priority=10, block=True)


@matcher.handle()
async def _handle(bot: Bot, event: Event, state: T_State) -> None:
    app = _state.get("app")
    if app is None:
        return
    ctx = build_context(bot, event)
    if ctx is None:
        return
    replies = await app.dispatch(ctx, state["chronodice_text"])
    if replies:
        await send_replies(bot, event, ctx, replies)
