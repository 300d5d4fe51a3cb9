"""The bot owner's (骰主) commands as SealDice users type them: ``.master`` and ``.text`` (issue 42).

* ``.master`` / ``.master list``: who the 骰主 are — NoneBot's ``SUPERUSERS`` (``App.owners``),
  public as in SealDice; with none set, how to set them.  ChronoDice's 骰主 come only from that
  setting: claiming the bot by chat (SealDice's ``.master add me``) would let anyone who is
  quicker take over a public bot, so ``add``/``del`` say where to edit it, and SealDice's other
  sub-commands (``reboot``, ``relogin``, ``backup``, ``reload``, ``unlock``, ``checkupdate``,
  ``quitgroup``) say in one line what to do instead.  Nothing here writes.
* ``.text 文本`` (superuser only; SealDice advises restricting it to the master too): says
  ``文本`` with every ``{表达式}`` rolled (``{1d6}``, ``{2d6+3}``: the total, with the group's
  default die and the sender's card as ``.r`` has them) and ``{玩家}`` / ``{$t玩家}`` as the
  sender's name.  At most :data:`MAX_TEXT` characters and :data:`MAX_SLOTS` ``{…}``; a bad
  expression is named in the one-line error; a result that starts like a command is defused.
"""

from __future__ import annotations

import re

from chronodice.core.args import Text, opt, rest
from chronodice.core.commands import Call, Handler, define
from chronodice.core.errors import InputSyntaxError
from chronodice.core.permissions import Perm
from chronodice.core.reply import Reply
from chronodice.core.text import normalize, safe_reply
from chronodice.dice import DiceBudget, DiceError, evaluate, parse
from chronodice.dice.errors import snippet

from .characters import dice_variables
from .group_habits import as_typed
from .modes import default_die

# ---------------------------------------------------------------------- .master
SET_OWNERS = '在 .env 里写 SUPERUSERS=["你的QQ号"]，重启骰娘后生效'
CONFIG_ONLY = "骰主只能在 .env 的 SUPERUSERS 里设置（在聊天里认领骰主，公开的骰娘会被人抢走），改完重启骰娘"

master = define(
    "master",
    summary="骰主：.master list 查看骰主是谁（骰主在 .env 的 SUPERUSERS 里设置）",
    detail=(
        "骰主是 .env 里 SUPERUSERS 列出的 QQ 号，不能在聊天里认领或转让；"
        "海豹的 .master add/del/reboot/backup 等在这里回复一行应该怎么做"
    ),
)


@master.sub("list", "ls", "列表", help="查看骰主是谁", when_empty=True)
async def master_list(call: Call) -> list[Reply]:
    owners = call.app.owners
    if not owners:
        return [Reply.say(f"还没有设置骰主：{SET_OWNERS}")]
    return [Reply.say(f"骰主：{'、'.join(owners)}（在 .env 的 SUPERUSERS 里设置）")]


def _saying(text: str) -> Handler:
    async def handler(call: Call, note: str = "") -> list[Reply]:
        return [Reply.say(text)]

    return handler


MASTER_HABITS: tuple[tuple[tuple[str, ...], str, str, str], ...] = (
    (("add", "添加"), "me或@某人", "海豹的添加骰主：这里的骰主只在 .env 的 SUPERUSERS 里设置", CONFIG_ONLY),
    (("del", "rm", "删除"), "@某人", "海豹的删除骰主：同样改 .env 的 SUPERUSERS", CONFIG_ONLY),
    (
        ("unlock", "解锁"),
        "",
        "海豹的解锁骰主：这里用不着",
        "不用解锁：骰主只来自 .env 的 SUPERUSERS，改好后重启骰娘即可",
    ),
    (
        ("reboot", "重启"),
        "",
        "海豹的重启：请在服务器上重启进程",
        "聊天里不能重启：请在服务器上重启骰娘的进程（如 docker compose restart）",
    ),
    (
        ("relogin", "重新登录"),
        "",
        "海豹的重新登录：在 NapCat / Lagrange 那边登录",
        "QQ 的登录由 NapCat / Lagrange 管理：请在那边重新登录，骰娘会自动重连",
    ),
    (
        ("backup", "备份"),
        "",
        "海豹的备份：复制数据目录即可",
        "数据都在数据目录里（SQLite 即其中的 chronodice.db）：停下骰娘后复制整个数据目录就是备份，PostgreSQL 用 pg_dump",
    ),
    (
        ("reload", "重载"),
        "deck/js",
        "海豹的重载：这里用不着",
        "不用重载：改动即时生效；改了 .env 请重启骰娘的进程",
    ),
    (
        ("checkupdate", "检查更新"),
        "",
        "海豹的检查更新：在服务器上更新",
        "聊天里不检查更新：在服务器上更新（git pull 后重新 pip install，或拉取新镜像），再重启骰娘",
    ),
    (
        ("quitgroup", "退群"),
        "群号",
        "海豹的退群：在那个群里发 .dismiss",
        "请在要退出的群里发 .dismiss（群主、管理员或骰主），确认后骰娘退群",
    ),
)
"""SealDice's ``.master`` sub-commands: (words, what they take, help, the one-line answer)."""

for _words, _label, _help, _text in MASTER_HABITS:
    master.sub(*_words, params=[rest("note", _label)] if _label else [], help=_help)(_saying(_text))


# ---------------------------------------------------------------------- .text
MAX_TEXT = 300
MAX_SLOTS = 10
SLOT = re.compile(r"\{([^{}]*)\}")
"""A ``{…}`` of the template (no nesting: an outer brace of ``{{1d6}}`` stays as typed)."""
PLAYER = ("玩家", "$t玩家")

text_ = define(
    "text",
    summary="骰主用：说一段话，{1d6} 换成掷骰结果，{玩家} 换成你的名字，如 .text 看看手气：{1d100}",
    detail=(
        f"文本最多{MAX_TEXT}字，最多{MAX_SLOTS}处 {{…}}；{{}} 里是 .r 的表达式（取总数，可用角色卡属性），"
        "{玩家} 或 {$t玩家} 是你的名字。只有骰主能用（海豹也建议只给骰主用）"
    ),
)


@text_.sub(
    params=[opt("body", Text(label="文本", max_len=MAX_TEXT))],
    perm=Perm.SUPERUSER,
    what="用 .text",
    help="按模板说一段话：{1d6} 换成掷骰结果，{玩家} 换成你的名字",
    when_empty=True,
)
async def cmd_text(call: Call, body: str | None) -> list[Reply]:
    if body is None:
        raise call.usage_error("缺少文本")
    template = as_typed(call, body)
    slots = SLOT.findall(template)
    if len(slots) > MAX_SLOTS:
        raise InputSyntaxError(f"最多{MAX_SLOTS}处 {{…}}（这里有{len(slots)}处）")
    values = await _slot_values(call, slots)
    parts = iter(values)
    return [Reply.say(safe_reply(SLOT.sub(lambda _m: next(parts), template)))]


async def _slot_values(call: Call, slots: list[str]) -> list[str]:
    """What each ``{…}`` becomes, in order; a bad one raises naming itself."""
    budget = DiceBudget()
    variables = dice_variables(call.view.character if call.view is not None else None)
    faces = await default_die(call)
    out: list[str] = []
    for raw in slots:
        inner = raw.strip()
        if inner in PLAYER:
            out.append(call.name)
            continue
        try:
            if not inner:
                raise InputSyntaxError("里面没有表达式")
            tree = parse(normalize(inner), known=variables)
            rolled = evaluate(tree, call.app.rng, default_faces=faces, variables=variables, budget=budget)
            out.append(str(rolled.value))
        except DiceError as err:
            raise InputSyntaxError(f"「{{{snippet(raw, 20)}}}」算不出来：{err.message}") from None
        except InputSyntaxError as err:
            raise InputSyntaxError(f"「{{{snippet(raw, 20)}}}」{err.message}") from None
    return out


__all__ = ["MASTER_HABITS", "MAX_SLOTS", "MAX_TEXT", "cmd_text", "master", "master_list", "text_"]
