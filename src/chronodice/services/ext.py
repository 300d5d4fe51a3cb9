"""``.ext``: switch whole command families (modules) on and off per group, as SealDice does.

A group that runs another bot for CoC, or does not want ``.jrrp`` at all, turns that module off:
its commands then get no reply in that group, exactly as an unknown command (the dispatcher
checks :func:`is_off` right after routing and the view read, before any reply, flood warnings
included).  The set of off modules lives in the group's settings under :data:`OFF_KEY`.

Which module a command belongs to comes from one table, :data:`MODULES`: a module names whole
systems (``CommandSpec.system``: every CoC7 command) and single commands of the common system
(``.draw``, ``.log``).  Commands in no module (``.r .st .pc .set .bot .help .ext``…) can never
be switched off, so a group can always turn a module back on.

>>> [m.key for m in MODULES][:4]
['coc7', 'dnd5e', 'tl', 'tick20']
>>> find_module("克苏鲁").key, find_module("DRAW").key, find_module("nope") is None
('coc7', 'deck', True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from chronodice.core.args import Word, many
from chronodice.core.commands import REGISTRY, Call, CommandSpec, define
from chronodice.core.errors import NotFound
from chronodice.core.permissions import Perm
from chronodice.core.reply import Reply

from .views import update_settings

OFF_KEY = "ext_off"
"""Group settings key: the sorted list of module keys switched off in that group."""


@dataclass(frozen=True)
class Module:
    """A command family: ``key`` (SealDice's name where it has one), ``label`` for players,
    ``words`` accepted as aliases, whole ``systems`` and single ``commands`` it holds."""

    key: str
    label: str
    words: tuple[str, ...] = ()
    systems: tuple[str, ...] = ()
    commands: tuple[str, ...] = ()
    note: str = ""
    """What ``.ext`` shows for a module without commands of its own."""


MODULES: tuple[Module, ...] = (
    Module("coc7", "CoC7检定", ("coc", "克苏鲁", "coc7th"), systems=("CoC7",)),
    Module("dnd5e", "DnD5e", ("dnd", "5e"), systems=("DnD5e",), note="DnD5e模式的 .rc 检定"),
    Module("tl", "时间线", ("timeline", "时间线"), systems=("时间线",)),
    Module("tick20", "D20刻度", ("刻度", "d20刻度"), systems=("D20刻度",)),
    Module("pool10", "无限恐怖骰池", ("无限恐怖", "pool"), systems=("无限恐怖",)),
    Module("moe", "萌E", ("萌e",), systems=("萌E",)),
    Module("log", "跑团日志", ("日志",), commands=("log",)),
    Module("deck", "牌堆", ("draw", "牌堆"), commands=("draw", "drawh", "deck")),
    Module("fun", "娱乐", ("娱乐",), commands=("jrrp", "send", "nnn", "gugu")),
    Module("team", "队伍与旁观", ("队伍",), commands=("team", "ob")),
    Module("sn", "自动群名片", ("名片", "群名片"), commands=("sn",)),
)
"""Every module, in the order ``.ext`` lists them.  The one table that maps commands to modules."""

_BY_WORD: dict[str, Module] = {w.lower(): m for m in MODULES for w in (m.key, *m.words)}
_BY_SYSTEM: dict[str, str] = {s: m.key for m in MODULES for s in m.systems}
_BY_COMMAND: dict[str, str] = {c.lower(): m.key for m in MODULES for c in m.commands}


def find_module(word: str) -> Module | None:
    """The module a player's word names (key or alias, any case), else ``None``."""
    return _BY_WORD.get(word.strip().lower())


def module_of(spec: CommandSpec) -> str | None:
    """The module key of a command, ``None`` for one that cannot be switched off.

    A one-off spec a resolver hands over (a refusal named after the command, system 通用) is
    found through the registered command of that name."""
    key = _BY_SYSTEM.get(spec.system) or _BY_COMMAND.get(spec.name.lower())
    if key is None:
        registered = REGISTRY.specs.get(spec.name)
        if registered is not None and registered is not spec:
            key = _BY_SYSTEM.get(registered.system)
    return key


def off_modules(settings: dict[str, Any] | None) -> list[str]:
    """The module keys switched off in a group with these settings."""
    return list((settings or {}).get(OFF_KEY) or ())


def is_off(spec: CommandSpec, off: Iterable[str]) -> bool:
    """Whether ``spec`` belongs to one of the ``off`` modules (the dispatcher's gate)."""
    key = module_of(spec)
    return key is not None and key in off


def _commands(module: Module) -> list[str]:
    """The registered commands of a module, as ``.name``, in registration order."""
    return [
        "." + s.name
        for s in REGISTRY.specs.values()
        if s.system in module.systems or s.name.lower() in module.commands
    ]


def help_line(settings: dict[str, Any] | None) -> str | None:
    """The ``.help`` line naming this group's off modules, ``None`` when all are on."""
    off = off_modules(settings)
    if not off:
        return None
    names = "、".join(f"{m.key}（{m.label}）" for m in MODULES if m.key in off)
    return f"本群已关闭的模块（不回应）：{names}；.ext on 模块名 开启"


# ---------------------------------------------------------------------- .ext
MAX_SHOWN = 6
"""Commands named per module in the ``.ext`` list before ``…``."""

ext = define(
    "ext",
    summary="查看或开关本群的指令模块（如 coc7、deck、fun），关闭的模块不回应",
    detail=(
        "模块：" + " ".join(m.key for m in MODULES) + "；也认中文名和别名（克苏鲁、牌堆、娱乐…）\n"
        "关闭的模块在本群完全不回应，留给群里的其他骰娘；.r .st .pc .set .bot .help .ext 等始终可用"
    ),
    group_only=True,
)


@ext.sub("list", "列表", help="列出本群的模块和开关", when_empty=True)
async def ext_list(call: Call) -> list[Reply]:
    group = await call.app.store.groups.get_group(call.ctx.scope)
    off = off_modules(group.settings)
    lines = ["本群模块（.ext on/off 模块名 开关，GM）："]
    for m in MODULES:
        cmds = _commands(m)
        shown = " ".join(cmds[:MAX_SHOWN]) + (" …" if len(cmds) > MAX_SHOWN else "")
        state = "关" if m.key in off else "开"
        shown = shown or m.note
        lines.append(f"[{state}] {m.key} {m.label}" + (f"：{shown}" if shown else ""))
    lines.append("始终开启：.r .st .pc .nn .set .bot .help .ext 等")
    return [Reply.say("\n".join(lines))]


@ext.sub(
    "on",
    "开",
    "开启",
    params=[many("names", Word(label="模块"))],
    perm=Perm.GM,
    what="开关模块",
    help="开启模块（可写多个）",
)
async def ext_on(call: Call, names: list[str]) -> list[Reply]:
    return await _switch(call, names, on=True)


@ext.sub(
    "off",
    "关",
    "关闭",
    params=[many("names", Word(label="模块"))],
    perm=Perm.GM,
    what="开关模块",
    help="关闭模块（可写多个）：这些指令在本群不再回应",
)
async def ext_off(call: Call, names: list[str]) -> list[Reply]:
    return await _switch(call, names, on=False)


async def _switch(call: Call, names: list[str], *, on: bool) -> list[Reply]:
    """Turn the named modules on or off in this group (one settings write)."""
    modules: list[Module] = []
    for word in names:
        found = find_module(word)
        if found is None:
            known = " ".join(m.key for m in MODULES)
            raise NotFound(f"没有模块「{word[:20]}」，可用：{known}")
        if found not in modules:
            modules.append(found)
    keys = {m.key for m in modules}

    def write(settings: dict[str, Any]) -> dict[str, Any]:
        off = set(off_modules(settings))
        off = off - keys if on else off | keys
        rest = {k: v for k, v in settings.items() if k != OFF_KEY}
        return {**rest, OFF_KEY: sorted(off)} if off else rest

    await update_settings(call, write)
    named = "、".join(f"{m.key}（{m.label}）" for m in modules)
    if on:
        return [Reply.say(f"已开启模块：{named}")]
    again = " ".join(m.key for m in modules)
    return [Reply.say(f"已关闭模块：{named}。这些指令在本群不再回应；.ext on {again} 重新开启")]


__all__ = [
    "MODULES",
    "OFF_KEY",
    "Module",
    "ext",
    "find_module",
    "help_line",
    "is_off",
    "module_of",
    "off_modules",
]
