"""Commands of the popular Chinese dice bots (SealDice, Dice!, OlivaDice, DicePP, cocdicer) that
ChronoDice does not implement, as players type them.

A group often runs one of those bots beside ours: these messages must get no reply from us at
all (``tests/core/test_other_bots.py`` walks this list through the real dispatcher).  Routing
needs no list — a root glued to Latin letters it cannot read is someone else's, and unknown
roots are ignored — the list is the test's evidence and the place to add a report from a group.
When ChronoDice starts implementing one of these (CoC checks in coc7 groups), move it out, as
``.rb``/``.rb2``/``.rp`` were when ``.r`` learnt the bonus/penalty dice ``b2``/``p``, and
``.log new/on/off/end`` when ChronoDice got its own ``.log``.
"""

from __future__ import annotations

OTHER_BOT_COMMANDS: tuple[str, ...] = (
    # CoC checks and friends (SealDice / Dice! / OlivaDice / cocdicer)
    ".ra 侦查",
    ".ra侦查60",
    ".rab2 侦查",
    ".rap 聆听 60",
    ".rah 侦查",
    ".rav 斗殴 @某人",
    ".rx 3d6",
    ".rxh 1d100",
    ".rs 3d6",
    ".rr 1d20",
    ".rsa 3d6",
    ".sc 1/1d6",
    ".sc1/1d6",
    ".en 侦查",
    ".coc",
    ".coc 5",
    ".coc7",
    ".dnd",
    ".dnd 3",
    ".ti",
    ".li",
    ".setcoc 2",
    ".setcoc2",
    ".setdnd",
    ".sn",
    ".sn coc",
    ".nnn",
    ".nnn 英",
    ".nnt",
    ".name",
    ".name 英",
    ".namedice",
    # fun and decks
    ".jrrp",
    ".draw 塔罗牌",
    ".drawh 塔罗牌",
    ".draw",
    ".deck 塔罗牌",
    ".gugu",
    ".jsr",
    ".rules 擒抱",
    ".wiki 擒抱",
    ".find 火球术",
    # observers and housekeeping
    ".ob",
    ".ob exit",
    ".send 你好",
    ".welcome 欢迎",
    ".reply on",
    ".text",
    ".botlist add @某人",
    ".master add 12345",
    ".admin",
    ".ext",
    ".tmpl",
    ".team add @某人",
    ".ping",
    ".group state",
    ".ban 12345",
    ".user",
    ".link",
    ".dismissall",
    ".botx",
    # D&D helpers
    ".ds",
    ".dss",
    ".ss 初始化",
    ".cast 火球术",
    ".longrest",
    ".dbr",
    ".buffs",
    ".chk 运动",
    ".check 运动",
    ".rihx",
    ".setx 20",
)

__all__ = ["OTHER_BOT_COMMANDS"]
