"""The application object: store, randomness, permissions and the dispatcher.

One ``App`` per bot process.  ``dispatch(ctx, text)`` is the single entry from any front end
(the NoneBot plugin, tests, a CLI): it routes, checks the group switch and the flood limit,
runs the handler and turns every error into a short reply.
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable

from .core.commands import REGISTRY, Call, CommandRegistry
from .core.context import Context
from .core.errors import ChronoDiceError, NotPermitted
from .core.limits import MAX_MESSAGE_CHARS, MAX_REPLY_CHARS, clip_reply
from .core.ratelimit import RateLimiter
from .core.reply import Reply
from .store import DuplicateEvent, Store

log = logging.getLogger("chronodice")

GM_WHO = "群主、管理员、骰主或本群GM"


class App:
    """Everything a service needs (``call.app``)."""

    def __init__(
        self,
        store: Store,
        rng: random.Random | None = None,
        *,
        registry: CommandRegistry = REGISTRY,
        clock: Callable[[], float] = time.monotonic,
        rate_limiter: RateLimiter | None = None,
    ) -> None:
        self.store = store
        self.rng: random.Random = rng if rng is not None else random.SystemRandom()
        self.registry = registry
        self.clock = clock
        self.rate_limiter = rate_limiter if rate_limiter is not None else RateLimiter(clock=clock)

    # ------------------------------------------------------------------ identity
    async def display_name(self, ctx: Context, user_id: str | None = None) -> str:
        """What replies call a user: ``.nn`` nickname, else the platform name, else the id."""
        uid = user_id or ctx.user_id
        nick = await self.store.get_nickname(uid, ctx.group_id)
        if nick:
            return nick
        if uid == ctx.user_id and ctx.sender_name:
            return ctx.sender_name
        return uid

    async def is_gm(self, ctx: Context) -> bool:
        """Superuser, group owner/admin, or a GM appointed in this group (private chat: yes)."""
        if ctx.is_superuser or ctx.is_group_admin or ctx.group_id is None:
            return True
        group = await self.store.get_group(ctx.group_id)
        return ctx.user_id in group.gms

    async def require_gm(self, ctx: Context, what: str) -> None:
        if not await self.is_gm(ctx):
            raise NotPermitted(f"只有{GM_WHO}可以{what}")

    def require_admin(self, ctx: Context, what: str) -> None:
        """Owner, admin or superuser only (appointing GMs, dismissing the bot)."""
        if not (ctx.is_group_admin or ctx.group_id is None):
            raise NotPermitted(f"只有群主、管理员或骰主可以{what}")

    # ------------------------------------------------------------------ dispatch
    async def dispatch(self, ctx: Context, text: str) -> list[Reply] | None:
        """Handle one message.  ``None``: not a command of ours (stay silent)."""
        routed = self.registry.route(text[:MAX_MESSAGE_CHARS])
        if routed is None:
            return None
        verdict = self.rate_limiter.check(ctx.user_id)
        if verdict == "muted":
            return []
        if verdict == "warn":
            return [Reply.say("你发送指令太快了，请稍后再试（一分钟内不再回应你）")]
        spec = routed.spec
        try:
            view = await self.store.view(ctx.user_id, ctx.scope, ctx.group_id)
            if view.group is not None and not view.group.enabled and not spec.works_when_off:
                return None
            if len(text) > MAX_MESSAGE_CHARS:
                return [Reply.say(f"消息过长（超过{MAX_MESSAGE_CHARS}字），请缩短后再试\n格式：{spec.usage}")]
            if spec.group_only and ctx.group_id is None:
                return [Reply.say(f"该指令只能在群聊中使用\n格式：{spec.usage}")]
            call = Call(
                ctx=ctx,
                args=routed.args,
                app=self,
                root=routed.root,
                raw_args=routed.raw_args,
                spec=spec,
                view=view,
            )
            replies = await spec.handler(call)
        except DuplicateEvent:
            return None  # delivered twice: the first delivery was applied and answered
        except ChronoDiceError as err:
            replies = [Reply.say(err.user_message)]
        except RecursionError:
            replies = [Reply.say(f"输入嵌套太深，无法处理\n格式：{spec.usage}")]
        except Exception:
            log.exception("command %s failed on %r", spec.name, text[:200])
            replies = [Reply.say(f"处理「.{spec.name}」时出错了，已记录。请检查输入\n格式：{spec.usage}")]
        return [_clip(r) for r in replies]


def _clip(reply: Reply) -> Reply:
    if len(reply.text) <= MAX_REPLY_CHARS and (
        reply.fallback is None or len(reply.fallback) <= MAX_REPLY_CHARS
    ):
        return reply
    from dataclasses import replace

    return replace(
        reply,
        text=clip_reply(reply.text),
        fallback=clip_reply(reply.fallback) if reply.fallback is not None else None,
    )
