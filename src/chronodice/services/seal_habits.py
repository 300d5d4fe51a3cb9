"""Commands groups moving over from SealDice type on day one: .st export, .nnn/.name, .gugu, .bot about,
.pc cpy / .pc save (``.pc load`` is ``.pc tag``).

* ``.st export [@某人]``: the card as ``.st`` lines that ``.st`` reads back (SealDice's form,
  ``.st 力量50敏捷60 &手枪=1d10``); names no ``.st`` line can hold are listed, not dropped silently.
* ``.nnn [cn/en/jp] [数量]`` (alias ``.name``): random names from the small lists of
  :mod:`chronodice.rules.names`, up to :data:`~chronodice.rules.names.MAX_NAMES`.
* ``.gugu``: why the KP 咕了 today, one of :data:`GUGU` at random.
* ``.pc cpy 名字 新名字``: a new card with the attributes and data of one of the sender's cards
  (the card used here stays the same).  ``.pc save`` / ``.pc load 名字``: SealDice keeps a
  group's card apart from the player's saved list; here every card is always in the player's
  list and a group only names the one it uses, so ``load`` is ``.pc tag`` and ``save`` says so.
* ``.bot about``: name, version (the installed package's), the systems, where the help is.

The randomness is ``call.app.rng`` only.
"""

from __future__ import annotations

import importlib.metadata

import chronodice
from chronodice.core.args import Choice, Flag, Int, Mention, Word, arg, opt
from chronodice.core.commands import Call, define
from chronodice.core.errors import IllegalAction, NotFound
from chronodice.core.reply import Reply
from chronodice.rules.names import MAX_NAMES, random_names

from .card_access import member_card
from .characters import resolve_character, st_lines
from .common import CHAR_NAME, bot, new_card_name, pc, st
from .modes import MODES

# ---------------------------------------------------------------------- .st export


@st.sub(
    "export",
    "导出",
    params=[opt("who", Mention(), label="@某人")],
    help="把角色卡导出成 .st 指令（复制发回即可录入，海豹同款）",
)
async def st_export(call: Call, who: str | None) -> list[Reply]:
    ctx = call.ctx
    if who is None or who == ctx.user_id:
        char = await call.app.store.characters.active_character(ctx.user_id, ctx.scope)
    else:
        char = await member_card(call, who, "导出别人的角色卡", write=True)
        if char is None:
            raise NotFound(f"{who} 在本群没有使用中的角色")
    if char is None:
        raise NotFound("你还没有角色卡，用 .st 力量60 录入或 .pc new 名字 新建")
    lines, skipped = st_lines(dict(char.attributes))
    if not lines:
        head = f"<{char.name}> 没有可以导出的属性"
    else:
        head = f"<{char.name}> 的属性（复制 .st 这一行发送即可录回）："
    if skipped:
        more = f"等{len(skipped)}项" if len(skipped) > 10 else ""
        head += "\n名字含数字或符号、或数值不是整数，未导出：" + "、".join(skipped[:10]) + more
    # a reply starting with "." would be defused to "·": each .st line follows a heading
    texts = [head + "".join(f"\n{line}" for line in lines[:1])]
    texts += [f"（续{i}）\n{line}" for i, line in enumerate(lines[1:], 2)]
    return [Reply.say(t) for t in texts]


# ---------------------------------------------------------------------- .pc cpy / .pc save
@pc.sub(
    "cpy",
    "copy",
    "复制",
    params=[arg("ref", Word(label="名字或序号")), arg("new", CHAR_NAME, label="新名字")],
    help="复制一张角色卡（属性和数据）为新卡",
)
async def pc_cpy(call: Call, ref: str, new: str) -> list[Reply]:
    store, ctx = call.app.store, call.ctx
    src = await resolve_character(store, ctx, ref)
    name = new_card_name(call, new)
    chars = await store.characters.list_characters(ctx.user_id)
    if any(c.name == name for c in chars):
        raise IllegalAction(f"你已经有名为 <{name}> 的角色卡")
    if len(chars) >= 50:
        raise IllegalAction("每人最多50张角色卡，请先删除不用的")
    await store.characters.create_character(
        ctx.user_id,
        name,
        system=src.system,
        attributes=dict(src.attributes),
        data=dict(src.data),
        claim=call.claim,
    )
    here = await store.characters.active_character(ctx.user_id, ctx.scope)
    kept = f"（{'本群' if ctx.group_id else '此处'}仍使用 <{here.name}>）" if here is not None else ""
    return [Reply.say(f"已复制 <{src.name}> 为新角色 <{name}>{kept}")]


@pc.sub("save", "保存", help="海豹的 .pc save：这里的角色卡随时都在你的列表里，不用另存")
async def pc_save(call: Call) -> list[Reply]:
    ctx = call.ctx
    char = await call.app.store.characters.active_character(ctx.user_id, ctx.scope)
    head = f"<{char.name}> 已在你的角色卡列表里" if char is not None else "你的角色卡都在列表里"
    return [Reply.say(f"{head}：每次修改都已保存，.pc list 查看，.pc load 名字 在别的群使用")]


# ---------------------------------------------------------------------- .nnn / .name
LANG = Choice(
    {
        "cn": "cn",
        "zh": "cn",
        "中": "cn",
        "中文": "cn",
        "en": "en",
        "英": "en",
        "英文": "en",
        "jp": "jp",
        "ja": "jp",
        "日": "jp",
        "日文": "jp",
    },
    label="cn/en/jp",
)
LANG_LABEL = {"cn": "中文", "en": "英文", "jp": "日文"}

nnn = define(
    "nnn",
    aliases=("name",),
    summary="随机起名：.nnn 中文名，.nnn en 英文名，.nnn jp 日文名，.nnn 5 一次5个",
    detail=f"语言：cn（默认）/en/jp，也可写 中文/英文/日文；数量 1–{MAX_NAMES}，写在语言前后都行",
)


@nnn.sub(
    params=[opt("n", Int(label="数量", min=1, max=MAX_NAMES), default=1)],
    flags=[Flag("lang", LANG, default="cn", label="cn/en/jp")],
    help=f"生成随机名字，最多{MAX_NAMES}个",
    when_empty=True,
)
async def cmd_nnn(call: Call, n: int, lang: str) -> list[Reply]:
    names = random_names(call.app.rng, lang, n)
    return [Reply.say(f"{call.name} 的随机{LANG_LABEL[lang]}名：" + "、".join(names))]


# ---------------------------------------------------------------------- .gugu
GUGU: tuple[str, ...] = (
    "KP 的猫把模组文件踩进了回收站，还顺手清空了。",
    "KP 在查资料时读到了不该读的书，理智值暂时不够主持了。",
    "KP 被老板抓去加班，老板的眼神像极了深潜者。",
    "KP 昨晚熬夜写模组，今天醒来发现写的全是拉莱耶语。",
    "KP 家的 Wi-Fi 被旧日支配者占用了带宽。",
    "KP 出门买骰子，在店里迷路了三个小时，至今没找到出口。",
    "KP 突然发现 NPC 比玩家还多，正在紧急裁员。",
    "KP 的电脑蓝屏了，屏幕上浮现出一行看不懂的字。",
    "KP 说今天星辰的位置不对，不宜开团。",
    "KP 正在和模组作者吵架：线索到底藏在哪一页。",
    "KP 吃坏了肚子，医学检定大失败。",
    "KP 去图书馆查资料，图书馆使用检定失败，还在找书。",
    "KP 被家里人拉去相亲，对方问他职业，他说“守秘人”，现在还在解释。",
    "KP 梦见了团灭结局，醒来决定先让大家多活一周。",
    "KP 的骰子全部离家出走了，正在贴寻骰启事。",
    "KP 误把明天当成了今天，今天当成了昨天，总之不是今天。",
    "KP 在给 NPC 起名字，已经卡在第一个名字上两个小时了。",
    "KP 家楼下来了一群穿长袍的人唱歌，KP 下去看看就没回来。",
    "KP 的地图画到一半，发现整张地图是倒着画的。",
    "KP 说今天状态不好，怕一开口就把真相全剧透了。",
    "KP 被自己模组里的谜题难住了，正在偷偷看答案。",
)

gugu = define("gugu", summary="随机一条KP咕咕的理由")


@gugu.sub(help="KP今天为什么咕了", when_empty=True)
async def cmd_gugu(call: Call) -> list[Reply]:
    return [Reply.say("今天KP咕了，理由是：" + call.app.rng.choice(GUGU))]


# ---------------------------------------------------------------------- .bot about
def version() -> str:
    """The installed package's version (its metadata), else the source tree's."""
    for dist in ("nonebot-plugin-chronodice", "chronodice"):  # the distribution's name before issue 41
        try:
            return importlib.metadata.version(dist)
        except importlib.metadata.PackageNotFoundError:
            continue
    return chronodice.__version__


def about_text() -> str:
    systems = [*(m.label for m in MODES.values()), "萌E（卡牌游戏）"]
    return "\n".join(
        [
            f"ChronoDice 时序骰娘 v{version()}",
            "支持的规则：" + "、".join(systems),
            "指令列表：.help；某条指令的用法：.help 指令名（如 .help st）",
        ]
    )


@bot.sub("about", "关于", help="骰娘的名字、版本和支持的规则")
async def bot_about(call: Call) -> list[Reply]:
    ctx = call.ctx
    if ctx.group_id is not None and not (await call.app.store.groups.get_group(ctx.group_id)).enabled:
        return []  # switched off here: only .bot on answers
    return [Reply.say(about_text())]


__all__ = [
    "GUGU",
    "about_text",
    "bot_about",
    "cmd_gugu",
    "cmd_nnn",
    "gugu",
    "nnn",
    "pc_cpy",
    "pc_save",
    "st_export",
    "version",
]
