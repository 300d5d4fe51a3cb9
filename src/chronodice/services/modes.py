"""The game-system mode of a group and its default die (``.set coc7``, ``.set 20``): which system
``.rc``/``.ra`` speak, the default die, and the attribute names ``.st`` understands.

Stored in the group settings (``settings["mode"]``, JSON; no column needed); a group without one
is "fresh".  What each mode does:

=========  ==========  ==============================================================
mode       default die ``.rc`` / CoC-only commands (``.ra .rah .rab .rap .sc .en .coc .ti .li .setcoc``)
=========  ==========  ==============================================================
(fresh)    d100        CoC-only commands answered; ``.rc`` follows the sender's active card
                       (a tick20 card → D20 check, a coc7 card → CoC check, a dnd5e card → the
                       D&D 5e check), and with any other
                       card or none it is the D20 check when its arguments read as the D20 form
                       (``.rc 0 20 被动``, ``.rc 运动 15``) and a CoC check otherwise (``.rc 侦查``)
coc7       d100        CoC checks (``.rc`` = ``.ra``)
dnd5e      d20         ``.rc`` = the D&D 5e check (:mod:`chronodice.services.dnd5e`); CoC-only commands silent
tick20     d20         ``.rc`` = the D20 check; CoC-only commands silent
tl         d100        CoC-only commands silent; ``.rc`` answers only the D20 form (or a tick20
                       card), anything else is left to another bot in the group
pool10     d10         as tl
=========  ==========  ==============================================================

Card guards (issue 30): a check never reads a card of another system (a CoC card in a tick20
group, a D20 card under ``.ra``): it answers one line naming the card's system and the way out
(``.pc tag`` another card, or ``.set`` the card's mode); ``.st`` in a group whose mode has its own
card system refuses such a card the same way instead of rewriting it.  ``generic`` cards serve
and are adopted by any system.

Why the fresh group answers CoC: most groups that add a dice bot play CoC, and ``.ra`` / ``.sc``
mean nothing else in any popular bot; a group that runs SealDice beside ChronoDice for CoC sets its
ChronoDice mode (``.set tl`` …) and ChronoDice falls silent on them.  ``.rc`` is the one command
both kinds of player type, so in a fresh group the player's own card decides, then the shape of
the arguments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chronodice.core.args import Choice, OneOf, Pattern, Rest, opt
from chronodice.core.commands import Call, CommandSpec, define
from chronodice.core.errors import ChronoDiceError, IllegalAction
from chronodice.core.reply import Reply
from chronodice.rules.coc7.derived import Derived, derive, derived_name
from chronodice.rules.coc7.skills import COC_MARKERS, canonical
from chronodice.store import CharacterRecord

from .views import group_of, own_card, update_settings


@dataclass(frozen=True)
class Mode:
    key: str
    label: str
    die: int
    card_system: str
    """The ``system`` of a card ``.st`` / ``.pc new`` creates in this mode (TimeLine cards are
    made by ``.tl``'s own commands, pool10 reads generic cards: both stay ``generic`` here)."""
    coc: bool
    """Whether the CoC-only commands are answered."""


MODES: dict[str, Mode] = {
    "coc7": Mode("coc7", "CoC7（克苏鲁的呼唤第七版）", 100, "coc7", True),
    "dnd5e": Mode("dnd5e", "DnD5e（龙与地下城第五版）", 20, "dnd5e", False),
    "timeline": Mode("timeline", "时间线（TimeLine）", 100, "generic", False),
    "tick20": Mode("tick20", "D20刻度", 20, "tick20", False),
    "pool10": Mode("pool10", "无限恐怖（D10骰池）", 10, "generic", False),
}

MODE_WORDS: dict[str, str] = {
    # CoC, as SealDice (.set coc), Dice! and OlivaDice players type it
    "coc7": "coc7",
    "coc": "coc7",
    "coc7th": "coc7",
    "克苏鲁": "coc7",
    "克苏鲁的呼唤": "coc7",
    "克系": "coc7",
    # D&D 5e (.set dnd)
    "dnd5e": "dnd5e",
    "dnd": "dnd5e",
    "5e": "dnd5e",
    "d&d": "dnd5e",
    "龙与地下城": "dnd5e",
    # ChronoDice's own systems
    "tl": "timeline",
    "timeline": "timeline",
    "时间线": "timeline",
    "时间轴": "timeline",
    "tick20": "tick20",
    "tick": "tick20",
    "d20刻度": "tick20",
    "刻度": "tick20",
    "pool10": "pool10",
    "pool": "pool10",
    "无限恐怖": "pool10",
    "骰池": "pool10",
}


RC_BY_MODE: dict[str, Any] = {}
"""What ``.rc`` means in a mode that has its own check (``"dnd5e"`` → the D&D 5e check, added by
:mod:`chronodice.services.dnd5e`); modes not listed use the CoC / D20-tick choice of
:func:`chronodice.services.coc7.checks.resolve_rc`."""


class Glueless(Choice):
    """A word table that never glues to a Latin root (``.setdnd`` stays another bot's)."""

    glue = False


MODE_CHOICE = Glueless(MODE_WORDS, label="coc7/dnd5e/tl/tick20/pool10")
CLEAR_WORDS = ("clr", "clear", "reset", "清除", "重置")


DND_ALIASES: dict[str, str] = {
    "str": "力量",
    "dex": "敏捷",
    "con": "体质",
    "int": "智力",
    "wis": "感知",
    "cha": "魅力",
    "hp": "体力",
    "ac": "护甲",
    "护甲等级": "护甲",
    "生命值": "体力",
}
"""D&D 5e ability names as ``.st`` stores them in a dnd5e group (``.st str16 dex14``)."""


CARD_SYSTEMS: dict[str, tuple[str, str]] = {
    "generic": ("通用", ""),
    "coc7": ("CoC7", "coc7"),
    "dnd5e": ("DnD5e", "dnd5e"),
    "tick20": ("D20刻度", "tick20"),
    "timeline": ("时间线", "tl"),
    "pool10": ("无限恐怖", "pool10"),
}
"""Each card ``system``: its name for players and the ``.set`` word of the mode that reads it."""


def system_label(system: str) -> str:
    """The players' name of a card system (``coc7`` → CoC7); unknown ones as stored."""
    return CARD_SYSTEMS.get(system, (system, ""))[0]


def card_system_for(mode: Mode | None, names: list[str], attributes: dict[str, Any] | None = None) -> str:
    """The system of a card ``.st`` creates (or turns a generic card into): the group mode's,
    else ``coc7`` when the pasted names include a CoC marker (理智, san, 侦查, 聆听, 克苏鲁神话…:
    :data:`~chronodice.rules.coc7.skills.COC_MARKERS`) or change a CoC derived value the card's
    characteristics give (``.st hp-2`` on a card with 体质 and 体型), else ``generic``."""
    if mode is not None:
        return mode.card_system
    if any(n.lower() in COC_MARKERS or n in COC_MARKERS for n in names):
        return "coc7"
    if attributes and any(derive(attributes, n) is not None for n in names):
        return "coc7"
    return "generic"


def attribute_name(system: str, mode: Mode | None, name: str) -> str:
    """The name ``.st`` stores ``name`` under: CoC aliases on a coc7 card (``san`` → 理智,
    ``hp`` → 体力, ``db`` → 伤害加值), D&D abbreviations on a dnd5e card or a generic card in a
    dnd5e group; else as typed."""
    if system == "coc7":
        return derived_name(name) or canonical(name)
    if system == "dnd5e" or (mode is not None and mode.key == "dnd5e" and system == "generic"):
        return DND_ALIASES.get(name.lower(), name)
    return name


# ---------------------------------------------------------------------- card guards
def fits(card_system: str, system: str) -> bool:
    """Whether a card of ``card_system`` may serve a command of ``system``: its own, or a
    ``generic`` card (plain ``.st`` numbers any system may read or adopt)."""
    return card_system in ("generic", system)


def wrong_card(char_name: str, card_system: str, system: str, *, writing: bool = False) -> str:
    """The one-line refusal when a card of another system is used for a check of ``system``
    (``writing``: when ``.st`` would write to it in a group of ``system``): the card's system and
    both ways out, another card or the mode that reads this one.

    >>> wrong_card("PL01", "coc7", "tick20")
    '<PL01> 是CoC7角色卡，不能用于D20刻度检定：用 .pc tag 换一张D20刻度卡（或 .pc new 名字 新建），或 .set coc7 切回CoC7模式'
    >>> wrong_card("PL01", "coc7", "dnd5e", writing=True)
    '<PL01> 是CoC7角色卡，本群是DnD5e模式，不改写它：用 .pc tag 换一张DnD5e卡（或 .pc new 名字 新建），或 .set coc7 切回CoC7模式'
    """
    label, mode_word = CARD_SYSTEMS.get(card_system, (card_system, ""))
    other = system_label(system)
    why = f"本群是{other}模式，不改写它" if writing else f"不能用于{other}检定"
    back = f"，或 .set {mode_word} 切回{label}模式" if mode_word else ""
    return f"<{char_name}> 是{label}角色卡，{why}：用 .pc tag 换一张{other}卡（或 .pc new 名字 新建）{back}"


def st_card_system(mode: Mode | None, names: list[str], char: Any) -> str:
    """The system ``char`` (a card record) has after ``.st`` writes ``names`` to it: a generic
    card is adopted by the group mode's system (or CoC's, see :func:`card_system_for`); a card of
    another system than the group mode's is refused with one line (:class:`IllegalAction`), never
    rewritten.  A fresh group, or a mode whose cards stay generic (tl, pool10), has no card system
    of its own: there the card decides."""
    wanted = card_system_for(mode, names, char.attributes)
    if char.system == "generic":
        return wanted
    if mode is not None and mode.card_system != "generic" and not fits(char.system, mode.card_system):
        raise IllegalAction(wrong_card(char.name, char.system, mode.card_system, writing=True))
    return str(char.system)


TL_CARD_ST = (
    "时间线角色卡的属性来自 .TLsetup 导入的人物卡，.st 不改它们（改属性：改好整行重新 .TLsetup，同名卡会被覆盖；"
    "体力/意志用 .crd，如 .crd hp -10）"
)
TL_GROUP_ST = "本群是时间线模式：人物卡用 .TLsetup 导入（.help TLsetup 看格式），.st 不建时间线角色卡"


async def st_guard(call: Call) -> tuple[Mode | None, CharacterRecord | None]:
    """Refuse a ``.st`` write that would go wrong in TimeLine (issue 39 defect 8): a TimeLine
    card's values are its sheet's (``.st 敏捷40`` changed only the mirror the dice read, not the
    check the battle uses), and in a TimeLine group a player without a card got a generic card
    named after them that then blocked their ``.TLsetup`` of the same name.  Returns the group's
    mode and the sender's card in use (what ``.st`` needs next), from the command's view."""
    mode = group_mode((await group_of(call)).settings)
    active = await own_card(call)
    if active is not None and active.system == "timeline":
        raise IllegalAction(TL_CARD_ST)
    if active is None and mode is not None and mode.key == "timeline":
        raise IllegalAction(TL_GROUP_ST)
    return mode, active


def refusal_spec(name: str, line: str) -> CommandSpec:
    """A one-off command that answers any arguments with ``line`` (a resolver hands a message
    to it when the sender's card cannot serve the command)."""
    spec = CommandSpec(name=name, summary="")

    @spec.sub(params=[opt("rest", Rest(label=""), default="")])
    async def refuse(call: Call, rest: str) -> list[Reply]:
        return [Reply.say(line)]

    return spec


def guard_card(
    spec: CommandSpec, system: str, view: Any, args: str, mentions: tuple[str, ...] = ()
) -> CommandSpec:
    """``spec``, or a one-line refusal when the sender's active card belongs to another system
    than the command's ``system`` and the message would read it (:func:`reads_card`)."""
    char = view.character if view is not None else None
    if char is None or fits(char.system, system) or not reads_card(spec, args, mentions):
        return spec
    return refusal_spec(spec.name, wrong_card(char.name, char.system, system))


def reads_card(spec: CommandSpec, args: str, mentions: tuple[str, ...] = ()) -> bool:
    """Whether ``spec`` would take a number from the sender's card for these arguments: not when
    the value is written (``.ra 侦查60``, ``.sc 1/1d6 60``), a bare number is checked (``.rc 0 20``)
    or an NPC is named (``.rc 哥布林:d8 13``); arguments that do not parse are left to the
    command's own error reply."""
    try:
        _, values = spec.select(args, mentions)
    except ChronoDiceError:
        return False
    if values.get("value") is not None or values.get("actor") is not None:
        return False
    return not isinstance(values.get("what"), int)


# ---------------------------------------------------------------------- CoC derived values
def with_derived(
    system: str, attributes: dict[str, Any], pairs: list[tuple[str, str | None, int | str]]
) -> tuple[dict[str, Any], dict[str, Derived]]:
    """The card's attributes with the CoC derived values a ``.st`` change needs written in first,
    and those values by name: ``体力-2`` on a coc7 card without 体力 starts from
    ⌊(体质+体型)/10⌋, not from 0.  Only changed (``+``/``-``) attributes missing from a coc7 card
    whose characteristics are there are derived.

    >>> attrs, found = with_derived("coc7", {"体质": 55, "体型": 65}, [("体力", "-", 2)])
    >>> attrs["体力"], derived_note(found["体力"])
    (12, '（由体质、体型算出12）')
    >>> with_derived("generic", {"体质": 55, "体型": 65}, [("体力", "-", 2)])[1]
    {}
    """
    if system != "coc7":
        return attributes, {}
    found: dict[str, Derived] = {}
    for name, op, _ in pairs:
        if op is None or name in attributes or name in found:
            continue
        value = derive(attributes, name)
        if value is not None and isinstance(value.value, int):
            found[name] = value
    if not found:
        return attributes, {}
    return {**attributes, **{k: d.value for k, d in found.items()}}, found


def derived_note(value: Derived) -> str:
    """How ``.st`` shows a value it computed: ``（由体质、体型算出12）``."""
    return f"（由{'、'.join(value.sources)}算出{value.value}）"


def group_mode(settings: dict[str, Any] | None) -> Mode | None:
    """The group's mode, ``None`` for a fresh group (or an unknown stored value)."""
    if not settings:
        return None
    return MODES.get(str(settings.get("mode") or ""))


def coc_answered(settings: dict[str, Any] | None) -> bool:
    """Whether the CoC-only commands are answered in a group with these settings."""
    mode = group_mode(settings)
    return mode is None or mode.coc


def mode_line(settings: dict[str, Any] | None, default_die: int) -> str:
    """One line for ``.help`` and ``.set``: this group's mode and die."""
    mode = group_mode(settings)
    if mode is None:
        return f"本群模式：未设置（CoC指令可用，.rc 按角色卡判断），默认骰 d{default_die}"
    return f"本群模式：{mode.label}，默认骰 d{default_die}"


DEFAULT_DIE = 100


# ---------------------------------------------------------------------- .set
async def default_die(call: Call) -> int:
    group = call.view.group if call.view is not None and call.view.group is not None else None
    if group is None:
        group = await call.app.store.groups.get_group(call.ctx.scope)
    return int(group.settings.get("default_die", DEFAULT_DIE))


FACES = Pattern(
    regex=r"[dD]?[0-9]{1,9}(?![0-9])", label="面数", convert=lambda m: int(m.group().lstrip("dD"))
)
CLEAR = Glueless({w: "clear" for w in CLEAR_WORDS}, label="clr")
set_ = define(
    "set",
    summary="设置本群的游戏模式（.set coc7/dnd5e/tl/tick20/pool10）或默认骰面数（.set 20）",
    detail=(
        "模式决定 .rc/.ra 的含义、默认骰和 .st 认识的属性名：coc7（d100，.rc=.ra CoC检定）、dnd5e（d20）、"
        "tl 时间线、tick20 D20刻度（d20，.rc=D20检定）、pool10 无限恐怖（d10）\n"
        "别名：coc、dnd、5e、克苏鲁、时间线、刻度、无限恐怖…；设为 dnd5e/tl/tick20/pool10 后，"
        ".ra .sc .coc 等CoC指令不再回应（留给群里的其他骰娘）\n"
        "未设置模式时：CoC指令可用，.rc 按你的角色卡（D20刻度卡→D20检定，CoC卡→CoC检定）或参数形式判断；"
        ".set clr 清除模式和默认骰"
    ),
)


@set_.sub(
    params=[opt("what", OneOf(MODE_CHOICE, CLEAR, FACES, label="模式或面数"))],
    help="设置模式或默认骰面数；不带参数则查看",
    when_empty=True,
)
async def cmd_set(call: Call, what: int | str | None) -> list[Reply]:
    if what is None:
        group = await call.app.store.groups.get_group(call.ctx.scope)
        return [Reply.say(mode_line(group.settings, await default_die(call)))]
    if isinstance(what, int) and not 1 <= what <= 1_000_000:
        raise call.usage_error("面数应为1到1000000之间的整数")
    if call.ctx.group_id is not None:
        await call.app.require_gm(call.ctx, "设置模式和默认骰")
    if what == "clear":
        await update_settings(
            call, lambda s: {k: v for k, v in s.items() if k not in ("mode", "default_die")}
        )
        return [Reply.say(f"已清除本群的模式和默认骰（默认骰 d{DEFAULT_DIE}）")]
    if isinstance(what, str):
        mode = MODES[what]
        await update_settings(call, lambda s: {**s, "mode": mode.key, "default_die": mode.die})
        return [Reply.say(f"已将本群设为 {mode.label} 模式，默认骰 d{mode.die}")]
    faces = what
    await update_settings(call, lambda s: {**s, "default_die": faces})
    return [Reply.say(f"已将默认骰设为 d{faces}")]


__all__ = [
    "CARD_SYSTEMS",
    "CLEAR_WORDS",
    "DEFAULT_DIE",
    "DND_ALIASES",
    "MODES",
    "MODE_CHOICE",
    "MODE_WORDS",
    "RC_BY_MODE",
    "TL_CARD_ST",
    "TL_GROUP_ST",
    "Mode",
    "attribute_name",
    "card_system_for",
    "coc_answered",
    "default_die",
    "derived_note",
    "fits",
    "group_mode",
    "guard_card",
    "mode_line",
    "reads_card",
    "refusal_spec",
    "st_card_system",
    "st_guard",
    "system_label",
    "with_derived",
    "wrong_card",
]
