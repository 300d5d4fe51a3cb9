"""NoneBot glue for ChronoDice: one matcher routes every command to ``chronodice.app.App``.

Builds a :class:`~chronodice.core.context.Context` from the OneBot v11 (or console) event,
calls ``App.dispatch`` and sends the replies: group text where the command came from, hidden
content only by private message (with a content-free note in the group when that fails).

Exactly once, and the right account: an event delivered twice (same ``self_id`` and
``message_id``, e.g. re-sent after a reconnect) is dropped — in memory, and across processes and
restarts by the claim the store writes with the command's first write.  When several bot
accounts are in one group, only the account holding the group's lease answers
(:meth:`Store.serves`); background messages go out through it too (:func:`bot_for`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import random

import nonebot
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
    chronodice_lease_seconds: float = 30.0
    """How long a bot account keeps serving a group after its last message there (several
    accounts in one group: another takes over after this when it goes away without closing)."""
    chronodice_prune_seconds: float = 600.0
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
_tasks: list[asyncio.Task[None]] = []


def get_app() -> App:
    return _state["app"]


@driver.on_startup
async def _startup() -> None:
    url = os.environ.get("CHRONODICE_DATABASE_URL") or config.chronodice_database_url
    store = Store(url, lease_seconds=config.chronodice_lease_seconds)
    await store.migrate()
    seed = config.chronodice_rng_seed
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    _state["app"] = App(store, rng, flood=config.flood())
    _tasks.append(asyncio.get_running_loop().create_task(_upkeep(store)))


async def _upkeep(store: Store) -> None:
    """Prune old event claims, lapsed leases and the log of long-ended sessions."""
    while True:
        await asyncio.sleep(config.chronodice_prune_seconds)
        try:
            await store.prune()
        except Exception:
            log.exception("pruning the store failed")


@driver.on_shutdown
async def _shutdown() -> None:
    for t in _tasks:
        t.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await t
    _tasks.clear()
    app = _state.pop("app", None)
    if app is not None:
        for self_id in list(nonebot.get_bots()):
            with contextlib.suppress(Exception):
                await app.store.release(self_id)
        await app.store.close()


@driver.on_bot_disconnect
async def _bot_gone(bot: Bot) -> None:
    """Its groups are served by another account at once (not only after the lease lapses)."""
    app = _state.get("app")
    if app is not None:
        try:
            await app.store.release(str(bot.self_id))
        except Exception:
            log.exception("releasing the groups of %s failed", bot.self_id)


def _onebot_bots() -> dict[str, Bot]:
    return {sid: b for sid, b in nonebot.get_bots().items() if b.adapter.get_name() == "OneBot V11"}


async def bot_for(scope: str) -> Bot | None:
    """The connected account to send background messages for ``scope`` through: the account
    serving that group; when no live lease exists, a connected account takes it; when the
    holder is connected to another process only, a local account (rather than lose the text)."""
    bots = _onebot_bots()
    if not bots:
        return None
    app = _state.get("app")
    if app is not None and not scope.startswith("p"):
        try:
            holder = await app.store.lease_holder(scope)
            if holder in bots:
                return bots[holder]
            if holder is None:
                for self_id, bot in bots.items():
                    if await app.store.serves(scope, self_id):
                        return bot
        except Exception:
            log.exception("choosing the account for %s failed", scope)
    return next(iter(bots.values()))


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
    message_id = getattr(event, "message_id", None)
    store = app.store
    if message_id is None or not ctx.self_id:
        replies = await app.dispatch(ctx, state["chronodice_text"])
    else:
        if not store.first_delivery(ctx.self_id, str(message_id)):
            return
        if ctx.group_id is not None and not await store.serves(ctx.group_id, ctx.self_id):
            return  # another bot account serves this group
        with store.event(ctx.self_id, str(message_id)):
            replies = await app.dispatch(ctx, state["chronodice_text"])
    if replies:
        await send_replies(bot, event, ctx, replies)
