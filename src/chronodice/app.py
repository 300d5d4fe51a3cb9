"""The application object: store, randomness, permissions and the dispatcher.

One ``App`` per bot process.  ``dispatch(ctx, text)`` is the single entry from any front end
(the NoneBot plugin, tests, a CLI): it routes, checks the group switch, the group's other bots
(``.botlist``: silent to them), the group's modules (``.ext``: an off module is silent) and the
flood limit, runs the handler, adds the group-card update of ``.sn`` when the sender's card
changed, and turns every error into a short reply.
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from .core.clock import Clock, as_clock
from .core.commands import REGISTRY, Call, CommandRegistry, CommandSpec, Routed, Sub
from .core.context import Context
from .core.errors import ChronoDiceError, NotPermitted
from .core.limits import MAX_MESSAGE_CHARS, LogLimits, clip_reply
from .core.permissions import GM_WHO, Perm
from .core.permissions import allowed as _allowed
from .core.permissions import is_gm as _is_gm
from .core.permissions import require as _require
from .core.ratelimit import FloodControl, FloodSettings, Verdict
from .core.reply import Reply
from .core.text import clean_text, safe_name, safe_reply
from .datadir import DataDir
from .front_end import FrontEnd
from .services.ext import OFF_KEY, is_off
from .services.gms import SCREEN_COMMANDS
from .services.gms import deliver as deliver_screen
from .services.gms import enter as enter_screen
from .services.group_habits import HabitsCache, welcome_text
from .services.nickname_sync import SN_MODULE, cards_before, follow_cards, watched
from .services.seal_botlist import listed_bots
from .store import Claim, DuplicateEvent, Store
from .store.records import ContextView, GroupRecord

log = logging.getLogger("chronodice")

__all__ = ["GM_WHO", "App"]


class App(FrontEnd):
    """Everything a service needs (``call.app``), and all a front end talks to (:class:`FrontEnd`)."""

    def __init__(
        self,
        store: Store,
        rng: random.Random | None = None,
        *,
        registry: CommandRegistry = REGISTRY,
        clock: Clock | Callable[[], float] | None = None,
        flood: FloodControl | FloodSettings | None = None,
        data_dir: DataDir | None = None,
        log_limits: LogLimits | None = None,
        owners: tuple[str, ...] = (),
    ) -> None:
        self.store = store
        self.owners = owners
        """The bot's owners (骰主, ``SUPERUSERS``): where ``.send`` delivers."""
        self.data_dir = data_dir or DataDir.resolve(None)
        """Where files the bot writes go (``exports/`` for ``.log``)."""
        self.log_limits = log_limits or LogLimits()
        self.rng: random.Random = rng if rng is not None else random.SystemRandom()
        self.registry = registry
        self.clock: Clock = as_clock(clock)
        """The one clock (:mod:`chronodice.core.clock`): services read the time only here;
        a bare callable passed as ``clock=`` is its monotonic reading."""
        if isinstance(flood, FloodControl):
            self.flood = flood
        else:
            self.flood = FloodControl(flood or FloodSettings(), clock=self.clock.monotonic)
        self.habits = HabitsCache()
        """Each group's keyword replies and unknown-command answer, for :meth:`plain_answer`."""

    # ------------------------------------------------------------------ identity
    async def display_name(self, ctx: Context, user_id: str | None = None) -> str:
        """What replies call a user: ``.nn`` nickname, else the platform name, else the id."""
        uid = user_id or ctx.user_id
        nick = await self.store.groups.get_nickname(uid, ctx.group_id)
        if nick:
            return safe_name(nick)
        if uid == ctx.user_id and ctx.sender_name:
            return safe_name(ctx.sender_name)
        return uid

    async def is_gm(self, ctx: Context, extra: tuple[str, ...] | list[str] = ()) -> bool:
        """The permission policy's GM (:mod:`chronodice.core.permissions`) for this group."""
        if _allowed(ctx, Perm.GM, extra=extra):
            return True
        group = await self.store.groups.get_group(ctx.scope)
        return _is_gm(ctx, gms=group.gms, extra=extra)

    async def require_gm(self, ctx: Context, what: str) -> None:
        if not await self.is_gm(ctx):
            raise NotPermitted(f"只有{GM_WHO}可以{what}")

    def require_admin(self, ctx: Context, what: str) -> None:
        """Owner, admin or superuser only (appointing GMs, dismissing the bot)."""
        _require(ctx, Perm.ADMIN, what)

    # ------------------------------------------------------------------ dispatch
    def admit(self, ctx: Context) -> Verdict:
        """Flood control's verdict for one of our commands (memory only, microseconds).

        The NoneBot plugin asks in its matcher rule, so a dropped message never even starts a
        matcher; it then passes the verdict to :meth:`dispatch`."""
        return self.flood.check(ctx.user_id, ctx.group_id, privileged=ctx.is_group_admin)

    async def dispatch(
        self,
        ctx: Context,
        text: str,
        *,
        verdict: Verdict | None = None,
        routed: Routed | None = None,
        claim: Claim | None = None,
        view: ContextView | None = None,
    ) -> list[Reply] | None:
        """Handle one message.  ``None``: not a command of ours (stay silent).

        ``verdict``: flood control's answer when the caller already asked :meth:`admit`;
        ``routed``: the router's answer when the caller already routed ``text``;
        ``claim``: the delivered event (:meth:`delivery`), handed to the command's writes
        (``call.claim``) so that a second delivery of it writes nothing and stays silent;
        ``view``: what :meth:`context_view` read for ``ctx`` when the caller already read it.

        NUL and lone surrogates are removed from the text and the sender's name first
        (:func:`~chronodice.core.text.clean_text`): no store, log or reply ever sees them."""
        cleaned = clean_text(text)
        if cleaned is not text:
            text, routed = cleaned, None
        name = clean_text(ctx.sender_name)
        if name is not ctx.sender_name:
            ctx = replace(ctx, sender_name=name)
        if routed is None:
            router = self.registry.route if ctx.group_id is not None else self.registry.route_private
            routed = router(text[:MAX_MESSAGE_CHARS])
        if routed is None:
            return await self._plain(ctx, text, verdict, view)
        screen: str | None = None
        if ctx.group_id is None and routed.spec.name in SCREEN_COMMANDS:
            try:  # a bound GM's private command acts on their group (the GM screen)
                moved = await enter_screen(self, ctx)
            except ChronoDiceError as err:
                return [Reply.say(err.user_message)]
            if moved is not None:
                ctx, screen, view = moved, moved.group_id, None
                routed = self.registry.route(text[:MAX_MESSAGE_CHARS]) or routed
        if verdict is None:
            verdict = self.admit(ctx)
        if verdict == "drop":
            return []
        attempt = _Attempt(routed.spec)
        failed = False
        try:
            replies = await self._handle(ctx, text, routed, attempt, verdict, claim, view)
            if replies is None:
                return None
        except DuplicateEvent:
            return None  # delivered twice: the first delivery was applied and answered
        except ChronoDiceError as err:
            replies, failed = [Reply.say(err.user_message)], True
        except RecursionError:
            replies, failed = [Reply.say(f"输入嵌套太深，无法处理\n格式：{attempt.usage()}")], True
        except Exception:
            log.exception("command %s failed on %r", attempt.spec.name, text[:200])
            replies = [
                Reply.say(
                    f"处理「.{attempt.spec.name}」时出错了，已记录。请检查输入\n格式：{attempt.usage()}"
                )
            ]
            failed = True
        clipped = [_clip(r) for r in replies]
        return deliver_screen(clipped, screen, failed=failed) if screen is not None else clipped

    async def plain_answer(
        self, group_id: str, text: str, user_id: str = "", group: GroupRecord | None = None
    ) -> bool:
        """Whether ``group_id`` answers ``text`` from ``user_id``, a message no command reads: a
        keyword reply or the unknown-command hint (``.reply``, ``.bot 未知指令``; never to an
        account on the group's ``.botlist``).  ``group``: the group's record when the caller read
        it (:meth:`group_view`), else it is read."""
        return (await self.habits.get(self.store, group_id, group)).answer(text, user_id) is not None

    async def welcome_text(self, group_id: str) -> str | None:
        """What to greet a newcomer of ``group_id`` with (``.welcome``), or None."""
        return await welcome_text(self.store, group_id)

    async def _plain(
        self, ctx: Context, text: str, verdict: Verdict | None, view: ContextView | None
    ) -> list[Reply] | None:
        """The keyword reply or unknown-command hint for a message no command reads, within
        flood control (a limited member gets nothing, not even a warning); ``None``: silence."""
        if ctx.group_id is None:
            return None
        group = view.group if view is not None else None
        answer = (await self.habits.get(self.store, ctx.group_id, group)).answer(text, ctx.user_id)
        if answer is None or (verdict or self.admit(ctx)) != "ok":
            return None
        return [_clip(Reply.say(answer))]

    async def _handle(
        self,
        ctx: Context,
        text: str,
        routed: Routed,
        attempt: _Attempt,
        verdict: Verdict,
        claim: Claim | None,
        view: ContextView | None,
    ) -> list[Reply] | None:
        """The command past routing and flood control: ``None`` where this group keeps it silent
        (switched off, a module off, another system's command), else the replies (a flood
        warning, a form error, or the handler's).  ``attempt`` records the command and form
        chosen so far, for the error replies of :meth:`dispatch`."""
        if view is None:
            view = await self.context_view(ctx)
        settings = view.group.settings if view.group is not None else None
        off = settings.get(OFF_KEY) if settings else None
        if not await self._heard(ctx, view, routed, attempt, off):
            return None
        refused = _refusal(ctx, text, verdict, attempt)
        if refused is not None:
            return refused
        spec = attempt.spec
        attempt.sub, values = spec.select(routed.args, ctx.at_ids)
        sub = attempt.sub
        if sub.group_only and ctx.group_id is None:
            hint = "；GM可在群里发 .gm 私聊 绑定后私聊操作" if spec.name in SCREEN_COMMANDS else ""
            return [Reply.say(f"该指令只能在群聊中使用{hint}\n格式：{attempt.usage()}")]
        if sub.perm is not Perm.ANYONE:
            gms = view.group.gms if view.group is not None else ()
            _require(ctx, sub.perm, sub.what, gms=gms)
        call = Call(
            ctx=ctx,
            args=routed.args,
            app=self,
            root=routed.root,
            raw_args=routed.raw_args,
            bare=routed.bare,
            spec=spec,
            view=view,
            sub=sub,
            claim=claim,
        )
        watch = watched(settings) if settings and not (off and SN_MODULE in off) else None
        seen = await cards_before(self, ctx, view, watch) if watch else None
        replies = await sub.handler(call, **values)
        if watch and seen is not None:  # .sn: group cards follow the cards
            replies = await follow_cards(self, ctx, replies, watch, seen)
        return replies

    async def _heard(
        self, ctx: Context, view: ContextView, routed: Routed, attempt: _Attempt, off: Any
    ) -> bool:
        """Whether this group answers the command at all; a command resolved by the group's
        system (``spec.resolve``) is recorded in ``attempt``."""
        spec = attempt.spec
        if view.group is not None:
            if not ctx.is_superuser and ctx.user_id in listed_bots(view.group.settings):
                return False  # .botlist: another bot of this group, never answered here
            self.flood.note_gms(view.group.group_id, view.group.gms)
            if not view.group.enabled and not spec.works_when_off:
                return False
            # .ext: a module switched off here is silent, as an unknown command (before
            # any reply, flood warnings included); a resolved command is judged as resolved
            if off and spec.resolve is None and is_off(spec, off):
                return False
        if spec.resolve is not None:
            resolved = await spec.resolve(self, ctx, view, routed.args)
            if resolved is None or (off and is_off(resolved, off)):
                return False  # another system's command in this group: leave it to other bots
            attempt.spec = resolved
        return True


@dataclass
class _Attempt:
    """The command being handled and the form chosen for it (once chosen): what an error reply
    shows as ``格式：``."""

    spec: CommandSpec
    sub: Sub | None = None

    def usage(self) -> str:
        """The form of the chosen sub-command, else the command's."""
        return self.sub.usage(self.spec.name) if self.sub is not None else self.spec.usage


def _refusal(ctx: Context, text: str, verdict: Verdict, attempt: _Attempt) -> list[Reply] | None:
    """A flood warning or a too-long message's reply, or ``None`` to go on."""
    if verdict == "warn":
        who = safe_name(ctx.sender_name or ctx.user_id)
        return [Reply.say(f"{who}，你发送指令太快了，稍等一会儿再试")]
    if verdict == "group_warn":
        return [Reply.say("本群指令太多，骰娘稍后再回应")]
    if len(text) > MAX_MESSAGE_CHARS:
        return [Reply.say(f"消息过长（超过{MAX_MESSAGE_CHARS}字），请缩短后再试\n格式：{attempt.usage()}")]
    return None


def _clip(reply: Reply) -> Reply:
    """A reply fit to send: within the length limit, not starting like a command."""
    text = clip_reply(safe_reply(reply.text))
    fallback = clip_reply(reply.fallback) if reply.fallback is not None else None
    if text == reply.text and fallback == reply.fallback:
        return reply
    return replace(reply, text=text, fallback=fallback)
