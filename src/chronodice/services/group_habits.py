"""What SealDice groups set up on day one (issue 42): a welcome text, keyword replies, and an
answer to unknown commands.

* ``.welcome 文本`` (GM/admin) sets the text the bot sends, with an @ of the newcomer, when
  someone joins the group (the plugin's ``group_increase`` notice handler asks
  :func:`welcome_text`); ``.welcome`` shows it, ``.welcome 关`` / ``off`` clears it.
* ``.reply add 关键词=回复`` / ``del 关键词`` / ``list`` / ``on`` / ``off`` (GM/admin to change):
  a plain group message that *equals* a keyword (after trimming spaces) gets its reply — SealDice's
  default condition for a new custom reply is the exact text match; "contains" would answer in
  the middle of every sentence that happens to hold a short word.  At most
  :data:`MAX_REPLIES` entries a group, keyword ≤ :data:`MAX_KEYWORD` characters, reply ≤
  :data:`MAX_REPLY`; neither may start with a command prefix (``. 。 / !`` …: the reply would
  make other bots run a command, the keyword would be a command).  The data lives in the group's
  own settings, so a reply is only ever said in the group that set it; flood control applies
  (a flood-limited member gets no keyword reply, and no warning either).
* ``.bot 未知指令 开/关`` (GM/admin, off by default): in a group running ChronoDice alone, a
  dot-command that no command here reads is answered :data:`UNKNOWN_TEXT` — other bots'
  commands too (the admin said there is none); never a message that is not a dot-command.

Hot path: every plain group message asks :func:`plain_answer`; the group's keywords are kept
in memory (:class:`HabitsCache`) by the group record's version, so a change (here or in another
process) is seen at once, and a group with no replies costs one cached read and a dict lookup.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from chronodice.core.args import Text, arg, opt, rest
from chronodice.core.commands import Call, define
from chronodice.core.errors import IllegalAction, InputSyntaxError, NotFound
from chronodice.core.permissions import Perm
from chronodice.core.reply import Reply
from chronodice.core.text import PREFIX_START, normalize

from .common import ON_OFF, bot
from .seal_botlist import listed_bots
from .views import update_settings

if TYPE_CHECKING:
    from chronodice.store import GroupRecord, Store

WELCOME_KEY = "welcome"
REPLIES_KEY = "replies"
"""Group settings key: ``{keyword: reply}`` in the order added."""
REPLIES_OFF_KEY = "replies_off"
UNKNOWN_KEY = "unknown_command"
MAX_WELCOME = 300
MAX_REPLIES = 50
MAX_KEYWORD = 20
MAX_REPLY = 200
UNKNOWN_TEXT = "不认识这个指令，.help 查看"
OFF_WORDS = ("关", "关闭", "off", "清除")


def _no_prefix(text: str, what: str) -> str:
    text = text.strip()
    if not text:
        raise InputSyntaxError(f"{what}不能为空")
    if text[0] in PREFIX_START:
        raise InputSyntaxError(f"{what}不能以 . 。 / ! 等指令前缀开头")
    if not text.replace("\n", "").isprintable():
        raise InputSyntaxError(f"{what}含有不可见字符")
    return text


def as_typed(call: Call, value: str) -> str:
    """``value`` (the end of the command's arguments) as the sender typed it: the router folds
    full-width punctuation (``，`` → ``,``) for parsing, a text to repeat keeps it."""
    raw = call.raw_args
    if len(normalize(raw)) == len(raw) and normalize(raw).endswith(value):
        return raw[len(raw) - len(value) :]
    return value


# ---------------------------------------------------------------------- .welcome
welcome = define(
    "welcome",
    summary="入群欢迎词：.welcome 文本 设置（GM/管理员），.welcome 查看，.welcome 关 清除",
    group_only=True,
    system="通用",
)


@welcome.sub(*OFF_WORDS, perm=Perm.GM, what="清除欢迎词", help="清除欢迎词")
async def welcome_clear(call: Call) -> list[Reply]:
    assert call.ctx.group_id is not None
    await update_settings(call, lambda s: {k: v for k, v in s.items() if k != WELCOME_KEY})
    return [Reply.say("已清除本群的欢迎词")]


@welcome.sub(
    params=[opt("text", Text(label="欢迎词", max_len=MAX_WELCOME))],
    help=f"不带参数：查看欢迎词；带文本：设置新成员入群时的欢迎词（GM/管理员，最多{MAX_WELCOME}字）",
    when_empty=True,
)
async def welcome_set(call: Call, text: str | None) -> list[Reply]:
    ctx = call.ctx
    assert ctx.group_id is not None
    if text is None:
        shown = (call.view.group.settings if call.view.group else {}).get(WELCOME_KEY)
        if not shown:
            return [Reply.say("本群没有设置欢迎词（.welcome 文本 设置）")]
        return [Reply.say(f"本群的欢迎词：\n{shown}")]
    await call.app.require_gm(ctx, "设置欢迎词")
    text = _no_prefix(as_typed(call, text), "欢迎词")
    await update_settings(call, lambda s: {**s, WELCOME_KEY: text})
    return [Reply.say(f"已设置本群的欢迎词：\n{text}")]


async def welcome_text(store: Store, group_id: str) -> str | None:
    """The text to greet a newcomer of ``group_id`` with, or None (none set, or the bot is off)."""
    group = await store.groups.get_group(group_id)
    text = group.settings.get(WELCOME_KEY) if group.enabled else None
    return text if isinstance(text, str) and text else None


# ---------------------------------------------------------------------- .reply
reply = define(
    "reply",
    summary="关键词回复：.reply add 关键词=回复，.reply del 关键词，.reply list，.reply on/off",
    detail=(
        f"群友的消息与关键词完全相同时（首尾空格不计）骰娘发送回复；每群最多{MAX_REPLIES}条，"
        f"关键词最多{MAX_KEYWORD}字，回复最多{MAX_REPLY}字，都不能以指令前缀开头；只在设置的群里生效"
    ),
    group_only=True,
    system="通用",
)


def _entries(settings: dict[str, Any]) -> dict[str, str]:
    got = settings.get(REPLIES_KEY)
    return dict(got) if isinstance(got, dict) else {}


@reply.sub("list", "ls", "列表", help="列出本群的关键词回复", when_empty=True)
async def reply_list(call: Call) -> list[Reply]:
    settings = call.view.group.settings if call.view.group else {}
    entries = _entries(settings)
    if not entries:
        return [Reply.say("本群没有关键词回复（.reply add 关键词=回复 添加）")]
    state = "已关闭（.reply on 开启）" if settings.get(REPLIES_OFF_KEY) else "开启中"
    lines = [f"{k} → {v}" for k, v in entries.items()]
    return [Reply.say(f"本群的关键词回复（{len(entries)}条，{state}）：\n" + "\n".join(lines))]


@reply.sub(
    "add",
    "添加",
    params=[rest("line", "关键词=回复")],
    perm=Perm.GM,
    what="设置关键词回复",
    help="添加或改写一条关键词回复",
)
async def reply_add(call: Call, line: str) -> list[Reply]:
    assert call.ctx.group_id is not None
    if len(line) > MAX_KEYWORD + MAX_REPLY + 10:
        raise InputSyntaxError(f"太长了：关键词最多{MAX_KEYWORD}字，回复最多{MAX_REPLY}字")
    line = as_typed(call, line)
    cut = min((i for i in (line.find("="), line.find("＝")) if i >= 0), default=-1)
    if cut < 0:
        raise call.usage_error("缺少「=」：关键词=回复")
    key, text = _no_prefix(line[:cut], "关键词"), _no_prefix(line[cut + 1 :], "回复")
    if len(key) > MAX_KEYWORD or "\n" in key:
        raise InputSyntaxError(f"关键词最多{MAX_KEYWORD}字，且只能一行")
    if len(text) > MAX_REPLY:
        raise InputSyntaxError(f"回复最多{MAX_REPLY}字")

    def add(s: dict[str, Any]) -> dict[str, Any]:
        entries = _entries(s)
        if key not in entries and len(entries) >= MAX_REPLIES:
            raise IllegalAction(f"每群最多{MAX_REPLIES}条关键词回复，请先删除不用的")
        entries[key] = text
        return {**s, REPLIES_KEY: entries}

    await update_settings(call, add)
    return [Reply.say(f"已添加关键词回复：{key} → {text}")]


@reply.sub(
    "del",
    "rm",
    "删除",
    params=[arg("key", Text(label="关键词", max_len=MAX_KEYWORD))],
    perm=Perm.GM,
    what="删除关键词回复",
    help="删除一条关键词回复",
)
async def reply_del(call: Call, key: str) -> list[Reply]:
    assert call.ctx.group_id is not None
    key = as_typed(call, key)
    if key not in _entries(call.view.group.settings if call.view.group else {}):
        raise NotFound(f"本群没有关键词「{key}」")

    def drop(s: dict[str, Any]) -> dict[str, Any]:
        entries = _entries(s)
        entries.pop(key, None)
        return {**s, REPLIES_KEY: entries}

    await update_settings(call, drop)
    return [Reply.say(f"已删除关键词回复：{key}")]


@reply.sub(params=[arg("on", ON_OFF)], perm=Perm.GM, what="开关关键词回复", help="开启或关闭本群的关键词回复")
async def reply_switch(call: Call, on: bool) -> list[Reply]:
    assert call.ctx.group_id is not None
    await update_settings(call, lambda s: {**s, REPLIES_OFF_KEY: not on})
    return [Reply.say("本群的关键词回复已开启" if on else "本群的关键词回复已关闭")]


# ---------------------------------------------------------------------- .bot 未知指令
@bot.sub(
    "未知指令",
    "unknown",
    params=[opt("on", ON_OFF)],
    group_only=True,
    help="开启后，本群没人认识的 . 指令会得到提示（只有 ChronoDice 一个骰娘的群使用；默认关闭）",
)
async def bot_unknown(call: Call, on: bool | None) -> list[Reply]:
    ctx, group = call.ctx, call.view.group
    assert ctx.group_id is not None and group is not None
    if not group.enabled:
        return []  # switched off here: only .bot on answers
    if on is None:
        state = "开启" if group.settings.get(UNKNOWN_KEY) else "关闭"
        return [Reply.say(f"未知指令提示：{state}（.bot 未知指令 开/关）")]
    await call.app.require_gm(ctx, "设置未知指令提示")
    await update_settings(call, lambda s: {**s, UNKNOWN_KEY: on})
    if on:
        return [Reply.say(f"已开启：本群不认识的 . 指令会回复「{UNKNOWN_TEXT}」（本群有别的骰娘时请关闭）")]
    return [Reply.say("已关闭未知指令提示")]


# ---------------------------------------------------------------------- the hot path
@dataclass(frozen=True)
class Habits:
    """What a group answers to plain messages: its keyword replies (when on) and whether an
    unknown dot-command gets :data:`UNKNOWN_TEXT` — to anyone but the accounts on its
    ``.botlist`` (:mod:`.seal_botlist`)."""

    replies: dict[str, str] = field(default_factory=dict)
    unknown: bool = False
    bots: frozenset[str] = frozenset()

    @classmethod
    def of(cls, settings: dict[str, Any]) -> Habits:
        replies = {} if settings.get(REPLIES_OFF_KEY) else _entries(settings)
        return cls(replies=replies, unknown=bool(settings.get(UNKNOWN_KEY)), bots=listed_bots(settings))

    def answer(self, text: str, user_id: str = "") -> str | None:
        """The reply to ``text`` (a message no command reads) from ``user_id``, or None."""
        if (not self.replies and not self.unknown) or user_id in self.bots:
            return None
        if len(text) <= MAX_KEYWORD + 40:
            hit = self.replies.get(text.strip())
            if hit is not None:
                return hit
        if self.unknown and is_dot_command(text):
            return UNKNOWN_TEXT
        return None


NOTHING = Habits()


def is_dot_command(text: str) -> bool:
    """``.xyz`` / ``。xyz``: a prefix then a letter, digit or CJK character (not ``...``, ``。。``)."""
    return len(text) > 1 and text[0] in ".。" and text[1].isalnum()


class HabitsCache:
    """Group → (record version, :class:`Habits`), in memory; a group's entry is rebuilt when its
    record's version changed (any settings write), so nothing needs to invalidate it."""

    LIMIT = 20000

    def __init__(self) -> None:
        self._groups: dict[str, tuple[int, Habits]] = {}

    async def get(self, store: Store, group_id: str, group: GroupRecord | None = None) -> Habits:
        """``group_id``'s habits (``group``: its record, when the caller read it)."""
        if group is None:
            group = await store.groups.get_group(group_id)
        if not group.enabled:
            return NOTHING
        hit = self._groups.get(group_id)
        if hit is not None and hit[0] == group.version:
            return hit[1]
        habits = Habits.of(group.settings) if group.settings else NOTHING
        if len(self._groups) >= self.LIMIT:
            self._groups.clear()
        self._groups[group_id] = (group.version, habits)
        return habits


__all__ = [
    "MAX_KEYWORD",
    "MAX_REPLIES",
    "MAX_REPLY",
    "UNKNOWN_TEXT",
    "Habits",
    "HabitsCache",
    "is_dot_command",
    "welcome_text",
]
