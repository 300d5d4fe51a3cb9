"""How the D20 tick commands read their arguments (tests/helpers.py::parse_of): every sub-command,
the listed repros, glued forms, full-width and Unicode digits, missing and extra arguments."""

from __future__ import annotations

import re

import pytest
from helpers import parse_of, run, say

from chronodice.app import App
from chronodice.core.args import Mod
from chronodice.rules.tick20.model import Combat, Variant
from chronodice.services.tick20.kinds_ri import RiEntry

ROWS: list[tuple[str, object]] = [
    (
        ".rc 0 20 被动 +5状态 +3状态",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": 0,
                "target": 20,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": True,
                "mods": [Mod(value=5, type="状态"), Mod(value=3, type="状态")],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc 0 20 被动 +5状 +3状",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": 0,
                "target": 20,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": True,
                "mods": [Mod(value=5, type="状态"), Mod(value=3, type="状态")],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc 0 被动 +5通 +3",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": 0,
                "target": None,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": True,
                "mods": [Mod(5, "通用"), Mod(3, "")],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc 运动 +2",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": "运动",
                "target": None,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [Mod(2, "")],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc 运动 -2",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": "运动",
                "target": -2,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc +3 15",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": 3,
                "target": 15,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc d8+d6 13",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": ("d8", "d6"),
                "target": 13,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc DEX+INS 13",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": ("DEX", "INS"),
                "target": 13,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc dex+ins",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": ("dex", "ins"),
                "target": None,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc 运动 15 优势",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": "运动",
                "target": 15,
                "reason": [],
                "adv": True,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc 运动15",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": "运动",
                "target": 15,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc 运动15优势 攀爬",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": "运动",
                "target": 15,
                "reason": ["攀爬"],
                "adv": True,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc 被动 洞悉 优势",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": "洞悉",
                "target": None,
                "reason": [],
                "adv": True,
                "dis": False,
                "passive": True,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc 先攻 劣势 -2环境",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": "先攻",
                "target": None,
                "reason": [],
                "adv": False,
                "dis": True,
                "passive": False,
                "mods": [Mod(value=-2, type="环境")],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc +3 12 对抗12",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": 3,
                "target": 12,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": 12,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc 力量 vs 14",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": "力量",
                "target": None,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": 14,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc STR 12",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": "STR",
                "target": 12,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc ＋３ １５",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": 3,
                "target": 15,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (".rc 运动 15 ²", "「²」不是有效的理由、优势、劣势或被动"),
    (".rc", "缺少技能/属性/修正"),
    (
        ".rc 运动 xd",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": "运动",
                "target": None,
                "reason": ["xd"],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rcd8+d6 13",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": ("d8", "d6"),
                "target": 13,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc 运动 +5通",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": "运动",
                "target": None,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [Mod(value=5, type="通用")],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (".ri", ("ri", "", {"entries": []})),
    (
        ".ri +2环境 哥布林",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="哥布林", mods=(Mod(value=2, type="环境"),))]},
        ),
    ),
    (
        ".ri +2环境哥布林",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="哥布林", mods=(Mod(value=2, type="环境"),))]},
        ),
    ),
    (".ri =abc", "「=abc」不是有效的先攻值或骰子表达式（如 =25、=1d6+10）"),
    (
        ".ri =25 巢穴",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="巢穴", fixed=25)]},
        ),
    ),
    (
        ".ri 12 巢穴",  # SealDice: a bare number is a fixed value
        (
            "ri",
            "",
            {"entries": [RiEntry(name="巢穴", fixed=12)]},
        ),
    ),
    (
        ".ri 12",
        (
            "ri",
            "",
            {"entries": [RiEntry(fixed=12)]},
        ),
    ),
    (
        ".ri20巢穴",  # DicePP, glued (tick20.md §4.1)
        (
            "ri",
            "",
            {"entries": [RiEntry(name="巢穴", fixed=20)]},
        ),
    ),
    (
        ".ri =1d6+10 巨魔",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="巨魔", fixed="1d6+10")]},
        ),
    ),
    (
        ".ri =1d6+10巨魔 暗",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="巨魔", fixed="1d6+10", hidden=True)]},
        ),
    ),
    (
        ".ri 3#卫兵",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="卫兵", count=3)]},
        ),
    ),
    (
        ".ri 3#卫兵 -各自",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="卫兵", count=3, each=True)]},
        ),
    ),
    (
        ".ri 优势",
        (
            "ri",
            "",
            {"entries": [RiEntry(adv=True)]},
        ),
    ),
    (
        ".ri 暗",
        (
            "ri",
            "",
            {"entries": [RiEntry(hidden=True)]},
        ),
    ),
    (
        ".ri 暗 +4 伏兵",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="伏兵", mods=(Mod(value=4, type=""),), hidden=True)]},
        ),
    ),
    (
        ".ri 优势+2 刺客",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="刺客", mods=(Mod(value=2, type=""),), adv=True)]},
        ),
    ),
    (
        ".ri =15 哥布林, =8 狼",
        (
            "ri",
            "",
            {
                "entries": [
                    RiEntry(name="哥布林", fixed=15),
                    RiEntry(name="狼", fixed=8),
                ]
            },
        ),
    ),
    (
        ".ri =15 哥布林，=8 狼",
        (
            "ri",
            "",
            {
                "entries": [
                    RiEntry(name="哥布林", fixed=15),
                    RiEntry(name="狼", fixed=8),
                ]
            },
        ),
    ),
    (
        ".ri =12 狼2",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="狼2", fixed=12)]},
        ),
    ),
    (
        ".ri +3 Goblin",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="Goblin", mods=(Mod(value=3, type=""),))]},
        ),
    ),
    (
        ".ri 被动 3#卫兵",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="卫兵", count=3, passive=True)]},
        ),
    ),
    (
        ".ri3#卫兵",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="卫兵", count=3)]},
        ),
    ),
    (
        ".ri+2",
        (
            "ri",
            "",
            {"entries": [RiEntry(mods=(Mod(value=2, type=""),))]},
        ),
    ),
    (".ri 3#", "「N#」后面要写名称（如 3#卫兵）"),
    (
        ".ri ＝２５ 巢穴",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="巢穴", fixed=25)]},
        ),
    ),
    (".rihx", None),
    (".init2", "「2」不是有效的参战者"),
    (".init", ("init", "list", {"full": False})),
    (".init list", ("init", "list", {"full": False})),
    (".init 全", ("init", "全", {})),
    (".init all", ("init", "全", {})),
    (".init gm视图", ("init", "全", {})),
    (".init 查看 全", ("init", "list", {"full": True})),
    (".init 哥布林", ("init", "", {"who": "哥布林"})),
    (".init status", ("init", "status", {"who": None})),
    (".init 详情 狼2", ("init", "status", {"who": "狼2"})),
    (".init begin", ("init", "begin", {"variant": None, "settle": False, "name": None, "confirm": False})),
    (
        ".init begin 确认",
        ("init", "begin", {"variant": None, "settle": False, "name": None, "confirm": True}),
    ),
    (
        ".init begin 速度 -沉淀 -名 遭遇战",
        ("init", "begin", {"variant": Variant.SPD, "settle": True, "name": "遭遇战", "confirm": False}),
    ),
    (
        ".init 开始战斗 004",
        ("init", "begin", {"variant": Variant.SPD, "settle": False, "name": None, "confirm": False}),
    ),
    (".init begin 火星", "「火星」不是有效的基础/速度、-沉淀、-名 X或确认"),
    (".init start", ("init", "start", {})),
    (".init 开战", ("init", "start", {})),
    (".init next", ("init", "next", {})),
    (".init ed", ("init", "next", {})),
    (".init n", ("init", "next", {})),
    (".init 下一个", ("init", "next", {})),
    (".init skip", ("init", "skip", {})),
    (".init 跳过", ("init", "skip", {})),
    (".init delay", ("init", "delay", {})),
    (".init 延后", ("init", "delay", {})),
    (".init undo", ("init", "undo", {"n": 1})),
    (".init undo 3", ("init", "undo", {"n": 3})),
    (".init 撤销 ３", ("init", "undo", {"n": 3})),
    (".init undo ²", "「²」不是有效的步数"),
    (".init undo ⑤", "「⑤」不是有效的步数"),
    (".init log", ("init", "log", {"page": 1})),
    (".init log 2", ("init", "log", {"page": 2})),
    (".init log ²", "「²」不是有效的页码"),
    (".init 战报 ¹", "「¹」不是有效的页码"),
    (".init gm ²", "「²」不是有效的@某人"),
    (".init gm", "缺少@某人"),
    (".init gm 12345678", ("init", "gm", {"uid": "12345678"})),
    (".init gm @12345678", ("init", "gm", {"uid": "12345678"})),
    (".init gm 123", "「123」不是有效的@某人"),
    (".init set 卫兵b 20", ("init", "set", {"who": "卫兵b", "value": 20})),
    (".init set 狼2 -3", ("init", "set", {"who": "狼2", "value": -3})),
    (".init 设定 狼2", ("init", "set", {"who": "狼", "value": 2})),
    (
        ".init add 卫兵 +2 -p 10 -n 3",
        (
            "init",
            "add",
            {
                "name": "卫兵",
                "mod": 2,
                "fixed": 10,
                "lv": None,
                "side": None,
                "ap_max": None,
                "spd_base": None,
                "hidden": False,
                "count": 3,
            },
        ),
    ),
    (
        ".init add 狼2 -lv 3 -阵营 敌方 -隐藏",
        (
            "init",
            "add",
            {
                "name": "狼2",
                "mod": 0,
                "fixed": None,
                "lv": 3,
                "side": "敌方",
                "ap_max": None,
                "spd_base": None,
                "hidden": True,
                "count": None,
            },
        ),
    ),
    (
        ".init add Goblin",
        (
            "init",
            "add",
            {
                "name": "Goblin",
                "mod": 0,
                "fixed": None,
                "lv": None,
                "side": None,
                "ap_max": None,
                "spd_base": None,
                "hidden": False,
                "count": None,
            },
        ),
    ),
    (".init rm 哥布林", ("init", "rm", {"names": [["哥布林"]], "force": False})),
    (".init rm 哥布林,狼2 -force", ("init", "rm", {"names": [["哥布林", "狼2"]], "force": True})),
    (".init del 哥布林;狼", ("init", "rm", {"names": [["哥布林", "狼"]], "force": False})),
    (".init swap 艾琳 布鲁诺", ("init", "swap", {"a": "艾琳", "b": "布鲁诺"})),
    (".init first 艾琳", ("init", "first", {"who": "艾琳"})),
    (
        ".init opt 卫兵a -lv 3",
        (
            "init",
            "opt",
            {
                "who": "卫兵a",
                "lv": 3,
                "init_mod": None,
                "ap_max": None,
                "spd_base": None,
                "speed": None,
                "side": None,
                "controller": None,
                "hide": False,
                "reveal": False,
            },
        ),
    ),
    (
        ".init opt 卫兵a -控制 @12345",
        (
            "init",
            "opt",
            {
                "who": "卫兵a",
                "lv": None,
                "init_mod": None,
                "ap_max": None,
                "spd_base": None,
                "speed": None,
                "side": None,
                "controller": "12345",
                "hide": False,
                "reveal": False,
            },
        ),
    ),
    (
        ".init meta -延后 原文 -当前先攻 重置",
        (
            "init",
            "meta",
            {
                "settle": None,
                "delay_rule": "literal",
                "carry_rule": "reset",
                "remind": None,
                "hp_display": None,
                "defense": None,
            },
        ),
    ),
    (
        ".init meta -血量 模糊",
        (
            "init",
            "meta",
            {
                "settle": None,
                "delay_rule": None,
                "carry_rule": None,
                "remind": None,
                "hp_display": "fuzzy",
                "defense": None,
            },
        ),
    ),
    (
        ".init meta -沉淀 也许",
        "「-沉淀」不是有效的-沉淀 开/关、-延后 规则/原文、-当前先攻 累加/重置或-提醒 开/关",
    ),
    (".init surprise 卫兵c", ("init", "surprise", {"names": [["卫兵c"]]})),
    (".init 突袭 卫兵a,卫兵b", ("init", "surprise", {"names": [["卫兵a", "卫兵b"]]})),
    (
        ".init eff 哥布林 迟缓 3刻",
        (
            "init",
            "eff",
            {
                "targets": ["哥布林"],
                "name": "迟缓",
                "duration": "3刻",
                "source": None,
                "anchor": None,
                "init_mod": None,
                "parent": None,
                "description": None,
                "concentration": False,
                "replace": False,
                "hidden": False,
                "boundary": None,
                "check_mod": None,
                "edge": None,
            },
        ),
    ),
    (
        ".init eff 我 祝福 2轮",
        (
            "init",
            "eff",
            {
                "targets": ["我"],
                "name": "祝福",
                "duration": "2轮",
                "source": None,
                "anchor": None,
                "init_mod": None,
                "parent": None,
                "description": None,
                "concentration": False,
                "replace": False,
                "hidden": False,
                "boundary": None,
                "check_mod": None,
                "edge": None,
            },
        ),
    ),
    (
        ".init eff 哥布林 诅咒 1d4轮 暗",
        (
            "init",
            "eff",
            {
                "targets": ["哥布林"],
                "name": "诅咒",
                "duration": "1d4轮",
                "source": None,
                "anchor": None,
                "init_mod": None,
                "parent": None,
                "description": None,
                "concentration": False,
                "replace": False,
                "hidden": True,
                "boundary": None,
                "check_mod": None,
                "edge": None,
            },
        ),
    ),
    (
        ".init eff 哥布林;狼2 眩晕 1回合 -源 艾琳",
        (
            "init",
            "eff",
            {
                "targets": ["哥布林", "狼2"],
                "name": "眩晕",
                "duration": "1回合",
                "source": "艾琳",
                "anchor": None,
                "init_mod": None,
                "parent": None,
                "description": None,
                "concentration": False,
                "replace": False,
                "hidden": False,
                "boundary": None,
                "check_mod": None,
                "edge": None,
            },
        ),
    ),
    (
        ".init eff 艾琳 专注维持 永久 -父 巨魔/束缚",
        (
            "init",
            "eff",
            {
                "targets": ["艾琳"],
                "name": "专注维持",
                "duration": "永久",
                "source": None,
                "anchor": None,
                "init_mod": None,
                "parent": ("巨魔", "束缚"),
                "description": None,
                "concentration": False,
                "replace": False,
                "hidden": False,
                "boundary": None,
                "check_mod": None,
                "edge": None,
            },
        ),
    ),
    (
        ".init eff 哥布林 减速 2轮 -先攻 -4状态",
        (
            "init",
            "eff",
            {
                "targets": ["哥布林"],
                "name": "减速",
                "duration": "2轮",
                "source": None,
                "anchor": None,
                "init_mod": Mod(value=-4, type="状态"),
                "parent": None,
                "description": None,
                "concentration": False,
                "replace": False,
                "hidden": False,
                "boundary": None,
                "check_mod": None,
                "edge": None,
            },
        ),
    ),
    (".init eff 哥布林", "缺少效果名"),
    (
        ".init mod 卫兵a -4 状态 2轮",
        (
            "init",
            "mod",
            {
                "targets": ["卫兵a"],
                "mod": Mod(value=-4, type=""),
                "type": "状态",
                "duration": "2轮",
                "source": None,
                "anchor": None,
                "parent": None,
                "description": None,
                "concentration": False,
                "replace": False,
                "hidden": False,
                "boundary": None,
                "check_mod": None,
                "edge": None,
            },
        ),
    ),
    (
        ".init mod 卫兵a -4状态",
        (
            "init",
            "mod",
            {
                "targets": ["卫兵a"],
                "mod": Mod(value=-4, type="状态"),
                "type": None,
                "duration": None,
                "source": None,
                "anchor": None,
                "parent": None,
                "description": None,
                "concentration": False,
                "replace": False,
                "hidden": False,
                "boundary": None,
                "check_mod": None,
                "edge": None,
            },
        ),
    ),
    (".init re 布鲁诺 全部 确认", ("init", "re", {"who": "布鲁诺", "effect": "全部", "confirm": True})),
    (".init re 巨魔 束缚", ("init", "re", {"who": "巨魔", "effect": "束缚", "confirm": False})),
    (".init focus 我 护盾", ("init", "focus", {"who": "我", "effect": "护盾"})),
    (".init end", ("init", "end", {"confirm": False})),
    (".init end 确认", ("init", "end", {"confirm": True})),
    (".init clr", ("init", "end", {"confirm": False})),
    (".init 飞", ("init", "", {"who": "飞"})),
    (".ed", ("ed", "", {})),
    (".延后", ("延后", "", {})),
    (".结束回合", ("ed", "", {})),
    (".edit", None),
    (
        ".ap -2 攻击",
        (
            "ap",
            "",
            {"who": None, "op": ("-", 2), "amount": None, "label": ["攻击"], "pay": None, "kind": None},
        ),
    ),
    (
        ".ap -1 次要",
        ("ap", "", {"who": None, "op": ("-", 1), "amount": None, "label": [], "pay": None, "kind": "MA"}),
    ),
    (
        ".ap 哥布林 +1",
        ("ap", "", {"who": "哥布林", "op": ("+", 1), "amount": None, "label": [], "pay": None, "kind": None}),
    ),
    (
        ".ap 狼2 =3",
        ("ap", "", {"who": "狼2", "op": ("=", 3), "amount": None, "label": [], "pay": None, "kind": None}),
    ),
    (".ap ta 9 大招 3", ("ap", "ta", {"amount": 9, "label": "大招", "pay": 3})),
    (".ap 全力 9 大招", ("ap", "ta", {"amount": 9, "label": "大招", "pay": None})),
    (".ap pay 3", ("ap", "pay", {"amount": 3})),
    (".ap 支付", ("ap", "pay", {"amount": None})),
    (
        ".ap 艾琳 ta 9 大招",
        ("ap", "", {"who": "艾琳", "op": "ta", "amount": 9, "label": ["大招"], "pay": None, "kind": None}),
    ),
    (".ap", ("ap", "查看", {"who": None})),  # issue 39: the sender's AP, no longer an error
    (".ap 查看 哥布林", ("ap", "查看", {"who": "哥布林"})),
    (".ap ²", "「²」不是有效的名称、主要/次要/即时/自由或±n/=n/ta/pay"),
    (
        ".wound 哥布林 躯干 轻伤x4",
        ("wound", "", {"who": "哥布林", "part": "躯干", "items": [("level", 2, 4)]}),
    ),
    (
        ".wound 狼 腿部 擦伤*4 侵蚀",
        ("wound", "", {"who": "狼", "part": "腿部", "items": [("level", 1, 4), ("tag", "侵蚀")]}),
    ),
    (
        ".wound 哥布林 躯干 hit5 dp2 dr0",
        ("wound", "", {"who": "哥布林", "part": "躯干", "items": [("hit", 5), ("dp", 2), ("dr", 0)]}),
    ),
    (
        ".wound 哥布林 躯干 治疗 2",
        ("wound", "", {"who": "哥布林", "part": "躯干", "items": [("heal",), ("level", 2, 1)]}),
    ),
    (".wound 哥布林 躯干", "缺少等级x数量/hit dp dr/治疗 [级数]"),
    (
        ".hp 狼2 -5",
        (
            "hp",
            "",
            {
                "who": "狼2",
                "op": -5,
                "value": None,
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (
        ".hp 狼2-5",
        (
            "hp",
            "",
            {
                "who": "狼2",
                "op": -5,
                "value": None,
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (
        ".hp 哥布林 -7 -由 艾琳",
        (
            "hp",
            "",
            {
                "who": "哥布林",
                "op": -7,
                "value": None,
                "attacker": "艾琳",
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (
        ".hp 哥布林 hg 10",
        (
            "hp",
            "",
            {
                "who": "哥布林",
                "op": "hg",
                "value": 10,
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (
        ".hp 我 mp -7",
        (
            "hp",
            "",
            {
                "who": "我",
                "op": "mp",
                "value": -7,
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (
        ".hp 我 sp =3",
        (
            "hp",
            "",
            {
                "who": "我",
                "op": "sp",
                "value": ("=", 3),
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (
        ".hp 我 sp上限 5",
        (
            "hp",
            "",
            {
                "who": "我",
                "op": "spmax",
                "value": 5,
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (".hp 我 ²", "「²」不是有效的±n/hg/mg/mp/sp、-由 攻击者、重击或斩杀[结果/d8+d10]"),
    (
        ".hp Goblin +4",
        (
            "hp",
            "",
            {
                "who": "Goblin",
                "op": 4,
                "value": None,
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (".先攻 开战", ("init", "start", {})),
    (
        ".先攻骰 +3 哥布林",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="哥布林", mods=(Mod(value=3, type=""),))]},
        ),
    ),
    ("。init next", ("init", "next", {})),
    (
        "．ＲＩ ＋３ 哥布林",
        (
            "ri",
            "",
            {"entries": [RiEntry(name="哥布林", mods=(Mod(value=3, type=""),))]},
        ),
    ),
    (".INIT UNDO 2", ("init", "undo", {"n": 2})),
    (
        ".行动值 -1 主要",
        ("ap", "", {"who": None, "op": ("-", 1), "amount": None, "label": [], "pay": None, "kind": "SA"}),
    ),
    (".伤势 狼 腿部 轻伤x1", ("wound", "", {"who": "狼", "part": "腿部", "items": [("level", 2, 1)]})),
    (".init 设定", "缺少参战者"),
    (".init eff", "缺少目标[;目标]"),
    (".hp ⑤ -3", "「⑤」不是有效的名称、-由 攻击者、重击或斩杀[结果/d8+d10]"),
    (".init undo 0", ("init", "undo", {"n": 0})),
    (".ri =15 哥布林 =8", "「=8」不是有效的±N类型、优势、劣势或被动"),
    (".ri 哥布林 首领", "「首领」不是有效的=先攻值/表达式、±N类型、优势或劣势"),
    (".init gm x", "「x」不是有效的@某人"),
    # issue 12: damage tags, 临时生命, gauges, traits, crit/execute, 004 damage, actions, Mov, 濒死
    (
        ".wound 狼 臂部 hit2 dp2 dr2 贯通",
        (
            "wound",
            "",
            {"who": "狼", "part": "臂部", "items": [("hit", 2), ("dp", 2), ("dr", 2), ("tag", "贯通")]},
        ),
    ),
    (
        ".wound 狼 臂部 hit1 dp1 切断",
        ("wound", "", {"who": "狼", "part": "臂部", "items": [("hit", 1), ("dp", 1), ("tag", "切断")]}),
    ),
    (
        ".wound 狼 躯干 hit2 dp1 灼烧/腐蚀 爆发",
        (
            "wound",
            "",
            {
                "who": "狼",
                "part": "躯干",
                "items": [("hit", 2), ("dp", 1), ("tag", "灼烧/腐蚀"), ("tag", "爆发")],
            },
        ),
    ),
    (".wound 狼 躯干 临时2", ("wound", "", {"who": "狼", "part": "躯干", "items": [("temp", 2)]})),
    (".wound 狼 躯干 临时生命3", ("wound", "", {"who": "狼", "part": "躯干", "items": [("temp", 3)]})),
    (
        ".hp 哥布林 -7 重击",
        (
            "hp",
            "",
            {
                "who": "哥布林",
                "op": -7,
                "value": None,
                "attacker": None,
                "crit": True,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (
        ".hp 哥布林 -1 斩杀 12",
        (
            "hp",
            "",
            {
                "who": "哥布林",
                "op": -1,
                "value": None,
                "attacker": None,
                "crit": False,
                "execute": ("n", 12),
                "cost": False,
            },
        ),
    ),
    (
        ".hp 哥布林 -1 斩杀d8+d10",
        (
            "hp",
            "",
            {
                "who": "哥布林",
                "op": -1,
                "value": None,
                "attacker": None,
                "crit": False,
                "execute": ("dice", 8, 10),
                "cost": False,
            },
        ),
    ),
    (
        ".hp 哥布林 -1 斩杀",
        (
            "hp",
            "",
            {
                "who": "哥布林",
                "op": -1,
                "value": None,
                "attacker": None,
                "crit": False,
                "execute": ("none",),
                "cost": False,
            },
        ),
    ),
    (
        ".hp 艾琳 mp +2",
        (
            "hp",
            "",
            {
                "who": "艾琳",
                "op": "mp",
                "value": 2,
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (
        ".hp 哥布林 hg 6/6/5/5",
        (
            "hp",
            "",
            {
                "who": "哥布林",
                "op": "hg",
                "value": ("caps", [6, 6, 5, 5]),
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (
        ".hp 哥布林 危机 2",
        (
            "hp",
            "",
            {
                "who": "哥布林",
                "op": "crisis",
                "value": 2,
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (
        ".hp 全体 自愈",
        (
            "hp",
            "",
            {
                "who": "全体",
                "op": "selfheal",
                "value": None,
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (
        ".hp 狼 杂兵",
        (
            "hp",
            "",
            {
                "who": "狼",
                "op": "minion",
                "value": None,
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (
        ".hp 狼 抗性 灼烧1",
        (
            "hp",
            "",
            {
                "who": "狼",
                "op": "resist",
                "value": ("type", "灼烧", 1),
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (
        ".hp 狼 易伤 冷冻 2",
        (
            "hp",
            "",
            {
                "who": "狼",
                "op": "vuln",
                "value": ("type", "冷冻", 2),
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (
        ".hp 狼 强韧 +3",
        (
            "hp",
            "",
            {
                "who": "狼",
                "op": "fort",
                "value": 3,
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": False,
            },
        ),
    ),
    (
        ".rc d8+d6 13 伤害5",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": ("d8", "d6"),
                "target": 13,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": 5,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc 闪避 20 被动",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": "闪避",
                "target": 20,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": True,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc 0 被动 -部位 哥布林/臂部",
        (
            "rc",
            "",
            {
                "actor": None,
                "what": 0,
                "target": None,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": True,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": ("哥布林", "臂部"),
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".hp 坦克 sp -2 消耗",
        (
            "hp",
            "",
            {
                "who": "坦克",
                "op": "sp",
                "value": -2,
                "attacker": None,
                "crit": False,
                "execute": None,
                "cost": True,
            },
        ),
    ),
    (
        ".rc 哥布林:d8+d6 13",
        (
            "rc",
            "",
            {
                "actor": "哥布林",
                "what": ("d8", "d6"),
                "target": 13,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc 哥布林: d8+d6 13 伤害5",
        (
            "rc",
            "",
            {
                "actor": "哥布林",
                "what": ("d8", "d6"),
                "target": 13,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": 5,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (
        ".rc Goblin:+3 15",
        (
            "rc",
            "",
            {
                "actor": "Goblin",
                "what": 3,
                "target": 15,
                "reason": [],
                "adv": False,
                "dis": False,
                "passive": False,
                "mods": [],
                "opposed": None,
                "damage": None,
                "part": None,
                "hidden": False,
                "gauge": False,
                "ego": False,
                "domain": None,
            },
        ),
    ),
    (".init 动作数 2", ("init", "动作数", {"n": 2})),
    (".init actions 2", ("init", "动作数", {"n": 2})),
    (".init 动作数 9", "N「9」超出范围（应在1到5之间）"),
    (".动作", ("动作", "", {"who": None, "extra": None, "label": None})),
    (".动作 攻击", ("动作", "", {"who": "攻击", "extra": None, "label": None})),
    (".动作 艾琳 +1", ("动作", "", {"who": "艾琳", "extra": 1, "label": None})),
    (".动作 哥布林 攻击", ("动作", "", {"who": "哥布林", "extra": None, "label": "攻击"})),
    (".mov -2", ("mov", "", {"who": None, "op": ("-", 2)})),
    (".mov 艾琳 =3", ("mov", "", {"who": "艾琳", "op": ("=", 3)})),
    (".mov", "缺少-n/=n"),
    (".濒死 哥布林", ("濒死", "", {"who": "哥布林"})),
    (".濒死", ("濒死", "", {"who": None})),
    (".init 濒死 哥布林", ("init", "濒死", {"who": "哥布林"})),
]


@pytest.mark.parametrize(("text", "expected"), ROWS, ids=[t for t, _ in ROWS])
def test_parse(text: str, expected: object) -> None:
    assert parse_of(text) == expected


def test_enough_rows() -> None:
    assert len(ROWS) >= 50


# ------------------------------------------------------------------ the fixed bugs, as players see them
GM = {"user": "10001", "roles": ("admin",)}
P1 = {"user": "10002", "name": "艾琳"}
P2 = {"user": "10003", "name": "布鲁诺"}


async def combat(app: App) -> Combat:
    raw, _ = await app.store.sessions.load_session("20002", "tick20")
    assert raw is not None
    return Combat.from_dict(raw)


async def test_typed_modifiers_of_one_type_take_the_largest(app: App) -> None:
    # 被动 10, skill modifier 0, 状态 +5 and +3 do not stack (the larger counts): 15, not 18
    text = await say(app, ".rc 0 20 被动 +5状态 +3状态", **P1)
    assert text.splitlines()[0] == "艾琳 的D20检定：被动10+5=15"
    assert "检定：15/20 失败（失败度5）" in text
    # 通用 modifiers stack; one-character aliases name the types
    assert (await say(app, ".rc 0 被动 +5通 +3", **P1)).startswith("艾琳 的D20检定：被动10+8=18")
    assert (await say(app, ".rc 0 被动 +5状 +3状 -2环", **P1)).startswith("艾琳 的D20检定：被动10+3=13")


async def test_ri_typed_modifier_before_a_glued_name(app: App) -> None:
    await say(app, ".init begin", **GM)
    text = await say(app, ".ri +2环境 哥布林", **GM)
    assert re.match(r"哥布林 的先攻：D20=\d+\+2=\d+", text), text
    assert [c.name for c in (await combat(app)).combatants] == ["哥布林"]
    text = await say(app, ".ri +2环境狼", **GM)
    assert re.match(r"狼 的先攻：D20=\d+\+2=\d+", text), text


async def test_rc_modifier_then_target_has_a_verdict(app: App) -> None:
    text = await say(app, ".rc +3 15", **P1)
    assert re.match(r"艾琳 的D20检定：D20=\d+\+3=\d+", text), text
    assert "修正：+3\n" in text and re.search(r"检定：\d+/15 (大成功|成功|失败|大失败)", text)


async def test_two_die_check_with_written_dice_needs_no_card(app: App) -> None:
    text = await say(app, ".rc d8+d6 13", **P2)
    assert re.match(r"布鲁诺 的［D8\+D6］检定：d8\+d6=\[[1-8],[1-6]\]\+0=\d+（HR\d）", text), text
    assert re.search(r"检定：\d+/13 (成功|失败)", text)
    assert "没有「d」这项技能" not in text


async def test_ri_bad_fixed_value_is_a_short_error(app: App) -> None:
    await say(app, ".init begin", **GM)
    text = await say(app, ".ri =abc", **GM)
    assert text.splitlines()[0] == "「=abc」不是有效的先攻值或骰子表达式（如 =25、=1d6+10）"
    assert (await combat(app)).combatants == []
    assert "巢穴 的先攻：=25" in await say(app, ".ri =25 巢穴", **GM)
    assert "树人 的先攻：=12" in await say(app, ".ri 12 树人", **GM)  # SealDice's fixed value
    assert re.search(r"巨魔 的先攻：=1[1-6]", await say(app, ".ri =1d6+10 巨魔", **GM))
    text = await say(app, ".ri 3#卫兵", **GM)
    assert all(f"卫兵{x} 的先攻：D20=" in text for x in "123")  # issue 39: numbered, each its own roll
    # issue 26: the roll says which die 优势 kept
    assert re.match(r"艾琳 的先攻：D20=\[\d+,\d+\]优势→\d+", await say(app, ".ri 优势", **P1))
    replies = await run(app, ".ri 暗", **P2)  # issue 39: a hidden combatant is not seen joining
    assert replies and all(r.private for r in replies) and replies[0].text.startswith("暗先攻：")


@pytest.mark.parametrize(
    ("text", "error"),
    [
        (".init undo ²", "「²」不是有效的步数"),
        (".init log ²", "「²」不是有效的页码"),
        (".init gm ²", "「²」不是有效的@某人"),
        (".init undo ⑤", "「⑤」不是有效的步数"),
        (".init gm 123", "「123」不是有效的@某人"),
    ],
)
async def test_unicode_digits_and_junk_ids_are_short_errors(app: App, text: str, error: str) -> None:
    await say(app, ".init begin", **GM)
    before = (await combat(app)).to_dict()
    reply = await say(app, text, **GM)
    assert reply.splitlines()[0] == error
    assert (await combat(app)).to_dict() == before


async def test_gm_id_is_a_mention_or_a_qq_number(app: App) -> None:
    await say(app, ".init begin", **GM)
    assert await say(app, ".init gm 12345678", **GM) == "已添加副GM：12345678"
    assert await say(app, ".init gm", at=("10003",), **GM) == "已添加副GM：10003"
    assert (await combat(app)).gms == ["10001", "12345678", "10003"]


async def test_names_ending_in_digits(app: App) -> None:
    await say(app, ".init begin 速度", **GM)
    assert "狼2 的先攻：=12" in await say(app, ".ri =12 狼2", **GM)
    await say(app, ".hp 狼2 hg 10", **GM)
    text = await say(app, ".hp 狼2 -5", **GM)
    assert text.startswith("狼2：") and "不认识" not in text
    assert [g.hp for g in (await combat(app)).get("c1").health.hg[:2]] == [0, 5]


async def test_one_permission_policy_for_the_combat(app: App) -> None:
    """GM = the policy's GM (owner/admin/superuser, the group's .gm appointees) plus the combat's own
    GMs (its opener, .init gm appointees); everyone else gets the one refusal."""
    await say(app, ".init begin", user="10005")  # a plain member opens the combat: its GM
    await say(app, ".ri =17", **P1)
    refusal = "只有本场战斗的GM（开战者、.init gm 指定者）或群管理可以开战"
    assert await say(app, ".init start", **P1) == refusal
    assert await say(app, ".ri =5 龙", **P1) == (
        "只有本场战斗的GM（开战者、.init gm 指定者）或群管理可以加入NPC（不写名称则以自己的角色加入）"
    )
    await say(app, ".gm add", at=("10003",), **GM)  # the group's own GM (common .gm)
    assert "哥布林 的先攻" in await say(app, ".ri =8 哥布林", **P2)
    assert "已添加副GM：10002" in await say(app, ".init gm", at=("10002",), user="10005")
    assert "⚔ 第1轮" in await say(app, ".init start", **P1)


@pytest.mark.parametrize("text", [".rihx", ".rihx 3", ".initx", ".rix 3"])
async def test_other_bots_forms_stay_silent(app: App, text: str) -> None:
    assert await run(app, text, **GM) == []
