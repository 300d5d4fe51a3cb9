"""TimeLine arguments as declared (``helpers.parse_of``), and the fixed bugs as players see them.

``ROWS``: ``(text, expected)`` where ``expected`` is exactly what ``parse_of(text)`` returns —
``(command, sub-command keyword or "", typed values)``, the one-line error, or ``None``
(another bot's command: silence).  The lead's cross-system test imports ``ROWS``.
"""

from __future__ import annotations

import pytest
from helpers import parse_of, say

from chronodice.app import App
from chronodice.services.timeline.kinds import Action, ActionRef, Amount, RandomLevel, Ratio

ROWS: list[tuple[str, object]] = [
    (".tar xd", "「xd」不是有效的目标数值或等级"),
    (".neg abc", "「abc」不是有效的RP、对象等级或对象智力%"),
    (".ex abc", "没有找到属性[abc]×"),
    (".pre abc 100", "没有找到属性[abc]×"),
    (
        ".bat Goblin:力量 100",
        (
            "bat",
            "",
            {
                "actor": "Goblin",
                "who": None,
                "action": Action(attr="strength", impact=100.0, time=None),
                "target": None,
                "note": "",
                "secret": False,
            },
        ),
    ),
    (
        ".bat 力量150",
        (
            "bat",
            "",
            {
                "actor": None,
                "who": None,
                "action": Action(attr="strength", impact=150.0, time=None),
                "target": None,
                "note": "",
                "secret": False,
            },
        ),
    ),
    (
        ".bat 角色名:力量 150",
        (
            "bat",
            "",
            {
                "actor": "角色名",
                "who": None,
                "action": Action(attr="strength", impact=150.0, time=None),
                "target": None,
                "note": "",
                "secret": False,
            },
        ),
    ),
    (
        ".bat @12345 力量 150",
        (
            "bat",
            "",
            {
                "actor": None,
                "who": "12345",
                "action": Action(attr="strength", impact=150.0, time=None),
                "target": None,
                "note": "",
                "secret": False,
            },
        ),
    ),
    (
        ".crd 名字: 体力 -5",
        (
            "crd",
            "",
            {
                "actor": "名字",
                "who": None,
                "resource": "体力",
                "amount": -5.0,
                "hit": None,
                "damage_type": None,
            },
        ),
    ),
    (
        ".crd @12345 体力 -5",
        (
            "crd",
            "",
            {
                "actor": None,
                "who": "12345",
                "resource": "体力",
                "amount": -5.0,
                "hit": None,
                "damage_type": None,
            },
        ),
    ),
    (".tar", ("tar", "查看", {})),
    (".tar 100", ("tar", "", {"level": 100.0, "difficulty": None})),
    (".tar 10 10", ("tar", "", {"level": 10.0, "difficulty": 10.0})),
    (".tar 15d", ("tar", "", {"level": RandomLevel(level=15.0), "difficulty": None})),
    (".tar 0d", ("tar", "", {"level": RandomLevel(level=0.0), "difficulty": None})),
    (".ta 20", ("tar", "", {"level": 20.0, "difficulty": None})),
    (".dra", None),
    (".dismiss", ("dismiss", "", {"confirm": False})),
    (".battle", None),
    (".tarot", None),
    (".chat hello", None),
    (".dice", None),
    (".press", None),
    (".negative", None),
    (".exit", None),
    (".lv5", "「5」不是有效的带正负号的数字"),
    (".TLsetup 姓名:甲,等级:10", ("TLsetup", "", {"sheet": "姓名:甲,等级:10"})),
    ("。tlsetup 姓名：甲，等级：10，", ("TLsetup", "", {"sheet": "姓名:甲,等级:10,"})),
    (".TLsetu a:1", ("TLsetup", "", {"sheet": "a:1"})),
    (".TLsetup", ("TLsetup", "", {"sheet": ""})),
    (".chr", ("chr", "", {"index": None})),
    (".chr 2", ("chr", "", {"index": 2})),
    (".chr2", ("chr", "", {"index": 2})),
    (".ch 1", ("chr", "", {"index": 1})),
    (".chr show", ("chr", "show", {})),
    (".chr 文字", ("chr", "文字", {})),
    (".chrshow", ("chr", "show", {})),
    (".chr 查看", ("chr", "show", {})),
    (".chr del 2", ("chr", "del", {"index": 2})),
    (".chr del", "缺少序号"),
    (".chr 某", "「某」不是有效的序号"),
    (".chr ²", "「²」不是有效的序号"),
    (".lv +5", ("lv", "", {"delta": 5.0})),
    (".lv -1.5", ("lv", "", {"delta": -1.5})),
    (".lv 5", "「5」不是有效的带正负号的数字"),
    (".lv abc", "「abc」不是有效的带正负号的数字"),
    (".lv", "缺少带正负号的数字"),
    (
        ".crd",
        (
            "crd",
            "",
            {"actor": None, "who": None, "resource": None, "amount": None, "hit": None, "damage_type": None},
        ),
    ),
    (".crd reset", ("crd", "reset", {"actor": None, "who": None})),
    (".crd 重置 哥布林:", ("crd", "reset", {"actor": "哥布林", "who": None})),
    (
        ".crd hp -30",
        (
            "crd",
            "",
            {"actor": None, "who": None, "resource": "hp", "amount": -30.0, "hit": None, "damage_type": None},
        ),
    ),
    (
        ".crd 体力-5",
        (
            "crd",
            "",
            {
                "actor": None,
                "who": None,
                "resource": "体力",
                "amount": -5.0,
                "hit": None,
                "damage_type": None,
            },
        ),
    ),
    (
        ".crd hp -200 物理",
        (
            "crd",
            "",
            {
                "actor": None,
                "who": None,
                "resource": "hp",
                "amount": -200.0,
                "hit": None,
                "damage_type": "物理",
            },
        ),
    ),
    (
        ".crd hp -200物理",
        (
            "crd",
            "",
            {
                "actor": None,
                "who": None,
                "resource": "hp",
                "amount": -200.0,
                "hit": None,
                "damage_type": "物理",
            },
        ),
    ),
    (
        ".crd 现金 -25",
        (
            "crd",
            "",
            {
                "actor": None,
                "who": None,
                "resource": "现金",
                "amount": -25.0,
                "hit": None,
                "damage_type": None,
            },
        ),
    ),
    (
        ".crd sp -1",
        (
            "crd",
            "",
            {"actor": None, "who": None, "resource": "sp", "amount": -1.0, "hit": None, "damage_type": None},
        ),
    ),
    (
        ".crd hp abc",
        (
            "crd",
            "",
            {"actor": None, "who": None, "resource": "hp", "amount": None, "hit": None, "damage_type": "abc"},
        ),
    ),
    (
        ".crd Goblin: hp -10",
        (
            "crd",
            "",
            {
                "actor": "Goblin",
                "who": None,
                "resource": "hp",
                "amount": -10.0,
                "hit": None,
                "damage_type": None,
            },
        ),
    ),
    (
        ".crd 哥布林:hp-10",
        (
            "crd",
            "",
            {
                "actor": "哥布林",
                "who": None,
                "resource": "hp",
                "amount": -10.0,
                "hit": None,
                "damage_type": None,
            },
        ),
    ),
    (".buff", ("buff", "list", {})),
    (".buff a 力量 20 1", ("buff", "", {"source": "a", "range": "力量", "value": "20", "kind": "1"})),
    (".buf e 所有 10% 4", ("buff", "", {"source": "e", "range": "所有", "value": "10%", "kind": "4"})),
    (".bu 物理", ("buff", "", {"source": "物理", "range": None, "value": None, "kind": None})),
    (".buff 魔力", ("buff", "", {"source": "魔力", "range": None, "value": None, "kind": None})),
    (".buff del 1", ("buff", "del", {"which": 1})),
    (".buff del all", ("buff", "del", {"which": "all"})),
    (".buff del", "缺少序号或all"),
    (".buff del x", "「x」不是有效的序号或all"),
    (".dr", ("dr", "list", {})),
    (
        ".dr 甲胄 -hp 100d 物理",
        ("dr", "", {"source": "甲胄", "range": "-hp", "value": "100d", "kind": "物理"}),
    ),
    (".d 结界 -all 50%", ("dr", "", {"source": "结界", "range": "-all", "value": "50%", "kind": None})),
    (".dr -hp", ("dr", "", {"source": "-hp", "range": None, "value": None, "kind": None})),
    (".dr del all", ("dr", "del", {"which": "all"})),
    (".dr del ⑤", "「⑤」不是有效的序号或all"),
    (".setupWP 名称：左轮，类型：火力，", ("setupWP", "", {"line": "名称:左轮,类型:火力,"})),
    (".wp", ("wp", "", {"index": None})),
    (".wp 2", ("wp", "", {"index": 2})),
    (".wp show", ("wp", "show", {})),
    (".wp del 1", ("wp", "del", {"index": 1})),
    (".wp del x", "「x」不是有效的序号"),
    (".ex 力量", ("ex", "", {"attr": "strength"})),
    (".ex力量", ("ex", "", {"attr": "strength"})),
    (".ex 力", ("ex", "", {"attr": "strength"})),
    (".ex strength", ("ex", "", {"attr": "strength"})),
    (".ex", "缺少属性"),
    (".ex ²", "没有找到属性[²]×"),
    (".ex 力量 x", "多余的「x」"),
    (".ex 魔力", "没有找到属性[魔力]×"),
    (".neg 100", ("neg", "", {"a": 100.0, "b": None, "c": None})),
    (".neg 10 35", ("neg", "", {"a": 10.0, "b": 35.0, "c": None})),
    (".neg 100 10 35", ("neg", "", {"a": 100.0, "b": 10.0, "c": 35.0})),
    (".ne100", ("neg", "", {"a": 100.0, "b": None, "c": None})),
    (".neg", ("neg", "", {"a": None, "b": None, "c": None})),
    (".neg 1a", "「1a」不是有效的RP、对象等级或对象智力%"),
    (".neg 1 2 3 4", "多余的「4」"),
    (".neg ¹", "「¹」不是有效的RP、对象等级或对象智力%"),
    (".pre 力量 150", ("pre", "", {"action": Action(attr="strength", impact=150.0, time=None)})),
    (".pre 10t 力量", ("pre", "", {"action": Action(attr="strength", impact=None, time=10.0)})),
    (".pre力量150", ("pre", "", {"action": Action(attr="strength", impact=150.0, time=None)})),
    (".pr 敏捷 5T", ("pre", "", {"action": Action(attr="dexterity", impact=None, time=5.0)})),
    (".pre 力量", "需要属性和影响数值（或前摇时间，如 10t）"),
    (".pre 力量 abc", "[abc]不是数字（影响数值如 150，前摇如 10t）"),
    (".pre 100 abc", "没有找到属性[abc]×"),
    (".pre ²", "没有找到属性[²]×"),
    (".tar ⑤", "「⑤」不是有效的目标数值或等级"),
    (".tar １０", ("tar", "", {"level": 10.0, "difficulty": None})),
    (".tar 1 2 3", "多余的「3」"),
    (".coop 力量 80", ("coop", "", {"attr": "strength", "who": [], "others": [80.0]})),
    (".coop 力量 甲 80", ("coop", "", {"attr": "strength", "who": [], "others": ["甲", 80.0]})),
    (".coop", "缺少属性"),
    (".协同 力量 @12345", ("coop", "", {"attr": "strength", "who": ["12345"], "others": []})),
    (
        ".opp 25/50 35/80",
        (
            "opp",
            "",
            {
                "first": Ratio(roll=25, rate=50.0, text="25/50"),
                "who": [],
                "rest": [Ratio(roll=35, rate=80.0, text="35/80")],
            },
        ),
    ),
    (".opp 意志 乙", ("opp", "", {"first": "will", "who": [], "rest": ["乙"]})),
    (".opp 意志 乙 智力", ("opp", "", {"first": "will", "who": [], "rest": ["乙", "智力"]})),
    (".opp abc", "没有找到属性[abc]×"),
    (".对抗 意志 @12345", ("opp", "", {"first": "will", "who": ["12345"], "rest": []})),
    (".clash 200 150", ("clash", "", {"a": 200.0, "b": 150.0})),
    (".clash #1 #2", ("clash", "", {"a": ActionRef(id=1), "b": ActionRef(id=2)})),
    (".clash #1#2", ("clash", "", {"a": ActionRef(id=1), "b": ActionRef(id=2)})),
    (".交互 80 80", ("clash", "", {"a": 80.0, "b": 80.0})),
    (".clash 1", "缺少影响数值或#行动"),
    (".clash -1 2", "「-1」不是有效的影响数值或#行动"),
    (".tlconf", ("tlconf", "查看", {})),
    (".tlconf open 开", ("tlconf", "", {"open": True, "sheet": None})),
    (".tlconf sheet on open off", ("tlconf", "", {"open": False, "sheet": True})),
    (".tlconf foo bar", "「foo」不是有效的open 开/关或sheet 开/关"),
    (".tlconf open x", "设置值应为 开/关（on/off）"),
    (".bat", ("bat", "show", {})),
    (".ba", ("bat", "show", {})),
    (
        ".bat 力量 150 重拳",
        (
            "bat",
            "",
            {
                "actor": None,
                "who": None,
                "action": Action(attr="strength", impact=150.0, time=None),
                "target": None,
                "note": "重拳",
                "secret": False,
            },
        ),
    ),
    (
        ".bat 敏捷 5t",
        (
            "bat",
            "",
            {
                "actor": None,
                "who": None,
                "action": Action(attr="dexterity", impact=None, time=5.0),
                "target": None,
                "note": "",
                "secret": False,
            },
        ),
    ),
    (
        ".bat 10t 力量",
        (
            "bat",
            "",
            {
                "actor": None,
                "who": None,
                "action": Action(attr="strength", impact=None, time=10.0),
                "target": None,
                "note": "",
                "secret": False,
            },
        ),
    ),
    (".bat 力量", "需要属性和影响数值（或前摇时间，如 10t）"),
    (".bat 力量 abc", "[abc]不是数字（影响数值如 150，前摇如 10t）"),
    (".bat 魔力 10", "没有找到属性[魔力]×"),
    (
        ".bat wp 3 连射",
        (
            "bat",
            "wp",
            {
                "actor": None,
                "who": None,
                "arg": Amount(value=3.0, time=False),
                "target": None,
                "note": "连射",
                "secret": False,
            },
        ),
    ),
    (
        ".bat wp re",
        ("bat", "wp", {"actor": None, "who": None, "arg": "re", "target": None, "note": "", "secret": False}),
    ),
    (
        ".bat wp 5t",
        (
            "bat",
            "wp",
            {
                "actor": None,
                "who": None,
                "arg": Amount(value=5.0, time=True),
                "target": None,
                "note": "",
                "secret": False,
            },
        ),
    ),
    (".bat wp", "缺少影响数值|前摇t|发数|re"),
    (
        ".bat wp 哥布林: 3",
        (
            "bat",
            "wp",
            {
                "actor": "哥布林",
                "who": None,
                "arg": Amount(value=3.0, time=False),
                "target": None,
                "note": "",
                "secret": False,
            },
        ),
    ),
    (".bat out", ("bat", "out", {"actor": None, "who": None})),
    (".bat 退出 哥布林", ("bat", "out", {"actor": "哥布林", "who": None})),
    (
        ".bat 哥布林: out",
        (
            "bat",
            "",
            {"actor": "哥布林", "who": None, "action": "out", "target": None, "note": "", "secret": False},
        ),
    ),
    (
        ".bat Goblin: cancel",
        (
            "bat",
            "",
            {"actor": "Goblin", "who": None, "action": "cancel", "target": None, "note": "", "secret": False},
        ),
    ),
    (".bat 图", ("bat", "图", {"page": None})),
    (".bat pic", ("bat", "图", {"page": None})),
    (".bat 图 2", ("bat", "图", {"page": 2})),
    (".bat 图2", ("bat", "图", {"page": 2})),
    (".bat 记录 1", ("bat", "记录", {"page": 1})),
    (".bat log", ("bat", "记录", {"page": None})),
    (".bat end", ("bat", "end", {})),
    (".bat 结束", ("bat", "end", {})),
    (".bat 推进 40", ("bat", "推进", {"to": 40.0})),
    (".bat 推进40", ("bat", "推进", {"to": 40.0})),
    (".bat advance", "缺少时间"),
    (".bat 推进 x", "「x」不是有效的时间"),
    (".bat 开始", ("bat", "开始", {"names": ""})),
    (".bat start 甲 乙 @12345", ("bat", "开始", {"names": "甲 乙 @12345"})),
    (".bat 先攻", ("bat", "先攻", {"actor": None, "who": None})),
    (".bat 先攻 甲:", ("bat", "先攻", {"actor": "甲", "who": None})),
    (".bat init Goblin:", ("bat", "先攻", {"actor": "Goblin", "who": None})),
    (
        ".bat 图书管理员:力量 100",
        (
            "bat",
            "",
            {
                "actor": "图书管理员",
                "who": None,
                "action": Action(attr="strength", impact=100.0, time=None),
                "target": None,
                "note": "",
                "secret": False,
            },
        ),
    ),
    (".bat 力量 ١٠", "[١٠]不是数字（影响数值如 150，前摇如 10t）"),
    (
        ".bat 力量 150 >Goblin 重拳",
        (
            "bat",
            "",
            {
                "actor": None,
                "who": None,
                "action": Action(attr="strength", impact=150.0, time=None),
                "target": "Goblin",
                "note": "重拳",
                "secret": False,
            },
        ),
    ),
    (
        ".bat wp 3 →哥布林",
        (
            "bat",
            "wp",
            {
                "actor": None,
                "who": None,
                "arg": Amount(value=3.0, time=False),
                "target": "哥布林",
                "note": "",
                "secret": False,
            },
        ),
    ),
    (".bat 取消 #3", ("bat", "取消", {"ref": ActionRef(id=3), "actor": None, "who": None})),
    (".bat 取消", ("bat", "取消", {"ref": None, "actor": None, "who": None})),
    (".bat 控制 #2 意志", ("bat", "控制", {"ref": ActionRef(id=2), "attr": "will", "target": None})),
    (
        ".bat 眩晕 #2 体质 >乙",
        ("bat", "控制", {"ref": ActionRef(id=2), "attr": "constitution", "target": "乙"}),
    ),
    (".bat 控制 2 意志", "「2」不是有效的#行动"),
    (".bat 全", ("bat", "全", {})),
    (".bat full", ("bat", "全", {})),
    (".bat 类型 #3 治疗", ("bat", "类型", {"ref": ActionRef(id=3), "kind": "治疗", "resist": None})),
    (".bat kind #3 眩晕 意志", ("bat", "类型", {"ref": ActionRef(id=3), "kind": "控制", "resist": "will"})),
    (".bat 类型 #3 飞翔", "「飞翔」不是有效的种类"),
    # issue 25: the GM's battle settings
    (".bat 自动伤害 开", ("bat", "自动伤害", {"on": True})),
    (".bat 隐藏 暗影刺客", ("bat", "隐藏", {"name": "暗影刺客"})),
    (".bat 现身 暗影刺客", ("bat", "现身", {"name": "暗影刺客"})),
    (".bat 暗宣言 开", ("bat", "暗宣言", {"on": True})),
    (".bat 暗宣言", "缺少开/关"),
    (
        ".bat 暗 暗影刺客:敏捷 80 >米娅 背刺",
        (
            "bat",
            "",
            {
                "actor": "暗影刺客",
                "who": None,
                "action": Action(attr="dexterity", impact=80.0, time=None),
                "target": "米娅",
                "note": "背刺",
                "secret": True,
            },
        ),
    ),
    (
        ".bat 暗影刺客:敏捷 80",
        (
            "bat",
            "",
            {
                "actor": "暗影刺客",
                "who": None,
                "action": Action(attr="dexterity", impact=80.0, time=None),
                "target": None,
                "note": "",
                "secret": False,
            },
        ),
    ),
    (".bat autodamage off", ("bat", "自动伤害", {"on": False})),
    (".bat 自动伤害", ("bat", "自动伤害", {"on": None})),
    (".bat 详细 关", ("bat", "详细", {"on": False})),
    (".bat verbose on", ("bat", "详细", {"on": True})),
    (".bat 详细 好", "「好」不是有效的开/关"),
    # issue 28: the live page's link
    (".bat 网页", ("bat", "网页", {"reset": False})),
    (".bat web", ("bat", "网页", {"reset": False})),
    (".bat 网页 重置", ("bat", "网页", {"reset": True})),
    (".bat web reset", ("bat", "网页", {"reset": True})),
    (
        ".crd 乙:hp -50 #3",
        (
            "crd",
            "",
            {
                "actor": "乙",
                "who": None,
                "resource": "hp",
                "amount": -50.0,
                "hit": ActionRef(id=3),
                "damage_type": None,
            },
        ),
    ),
    # issue 11 §2: rest, healing by 医学, box distance
    (".crd 休息", ("crd", "休息", {"actor": None, "who": None, "nights": None})),
    (".crd rest 2", ("crd", "休息", {"actor": None, "who": None, "nights": 2})),
    (".crd 休息 3夜", ("crd", "休息", {"actor": None, "who": None, "nights": 3})),
    (".heal 体力 30", ("heal", "", {"actor": None, "who": None, "resource": "hp", "amount": 30.0})),
    (".heal 甲: 意志 20", ("heal", "", {"actor": "甲", "who": None, "resource": "mp", "amount": 20.0})),
    (".治疗 hp 30", ("heal", "", {"actor": None, "who": None, "resource": "hp", "amount": 30.0})),
    (".heal 体力", "缺少恢复数值"),
    (".heal 生命 3", "「生命」不是有效的角色名:、@玩家或体力/意志"),
    (".dist 3 4 12", ("dist", "", {"sides": [3.0, 4.0, 12.0]})),
    (".距离 3 4", ("dist", "", {"sides": [3.0, 4.0]})),
    (".dist", "缺少边长"),
    (".dist 1 2 x", "「x」不是有效的边长"),
    (".dist -3", "「-3」不是有效的边长"),
    (".debuff", ("debuff", "查看", {"actor": None, "who": None})),
    (".debuff 查看 乙:", ("debuff", "查看", {"actor": "乙", "who": None})),
    (".debuff 100 虚弱", ("debuff", "", {"actor": None, "who": None, "value": 100.0, "source": "虚弱"})),
    (".debuff 哥布林: 50", ("debuff", "", {"actor": "哥布林", "who": None, "value": 50.0, "source": ""})),
    (".减益 清除 Goblin:", ("debuff", "清除", {"actor": "Goblin", "who": None})),
    (".debuff -5", "「-5」不是有效的角色名:、@玩家或减益数值"),
    (".armor", ("armor", "list", {})),
    (".armor 皮甲 30 20", ("armor", "", {"name": "皮甲", "hp": 30.0, "weight": 20.0})),
    (".护甲 板甲 100 200", ("armor", "", {"name": "板甲", "hp": 100.0, "weight": 200.0})),
    (".armor del 1", ("armor", "del", {"index": 1})),
    (".armor 皮甲 30", "缺少负重"),
]


@pytest.mark.parametrize(("text", "expected"), ROWS, ids=[repr(t) for t, _ in ROWS])
def test_row(text: str, expected: object) -> None:
    assert parse_of(text) == expected


def test_rows_cover_every_sub_command() -> None:
    from chronodice.core.commands import REGISTRY
    from chronodice.services import load_all

    load_all()
    seen = {(r[0], r[1]) for _, r in ROWS if isinstance(r, tuple)}
    for spec in REGISTRY.by_system()["时间线"]:
        for sub in spec.subs:
            assert (spec.name, sub.words[0] if sub.words else "") in seen, (spec.name, sub.words)
    assert len(ROWS) >= 45


def test_qq_mentions_are_the_actor() -> None:
    got = parse_of(".bat 力量 150", at=("10002",))
    assert got == (
        "bat",
        "",
        {
            "actor": None,
            "who": "10002",
            "action": Action("strength", 150.0, None),
            "target": None,
            "note": "",
            "secret": False,
        },
    )
    assert parse_of(".crd 体力 -5", at=("10002",)) == (
        "crd",
        "",
        {"actor": None, "who": "10002", "resource": "体力", "amount": -5.0, "hit": None, "damage_type": None},
    )
    assert parse_of(".coop 力量", at=("10002", "10003")) == (
        "coop",
        "",
        {"attr": "strength", "who": ["10002", "10003"], "others": []},
    )


# ---------------------------------------------------------------------- the fixed bugs, as replies
SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
GM = {"roles": ("admin",)}


async def _setup(app: App, name: str = "甲", user: str = "10001") -> None:
    assert "设置完成√" in await say(app, SHEET.format(name=name), user=user)


@pytest.mark.parametrize(
    ("text", "reply"),
    [
        (".tar xd", "「xd」不是有效的目标数值或等级\n格式：.tar <目标数值或等级> [难度]"),
        (".neg abc", "「abc」不是有效的RP、对象等级或对象智力%\n格式：.neg [RP] [对象等级] [对象智力%]"),
        (".ex abc", "没有找到属性[abc]×\n格式：.ex <属性>"),
        (".pre abc 100", "没有找到属性[abc]×\n格式：.pre <属性 影响数值|前摇t>"),
        (".ex ²", "没有找到属性[²]×\n格式：.ex <属性>"),
        (".tar ⑤", "「⑤」不是有效的目标数值或等级\n格式：.tar <目标数值或等级> [难度]"),
    ],
)
async def test_malformed_input_gets_one_short_error(app: App, text: str, reply: str) -> None:
    await _setup(app)
    assert await say(app, text, **GM) == reply


@pytest.mark.parametrize("text", [".dra", ".battle", ".tarot", ".dice 3", ".exit"])
async def test_other_bots_commands_are_ignored(app: App, text: str) -> None:
    assert await say(app, text) == ""


async def test_draw_is_never_read_as_dr(app: App) -> None:
    """``.draw`` is the deck command now, never ``.dr`` + ``aw``."""
    assert await say(app, ".draw 3") == "没有牌堆「3」，发送 .draw list 查看"


async def test_latin_named_npc_acts_with_a_prefix(app: App) -> None:
    await _setup(app, "甲", "10001")
    await _setup(app, "Goblin", "99999")
    await say(app, ".chr 1", user="99999")
    text = await say(app, ".bat Goblin:力量 100", user="99999", **GM)
    assert "[Goblin]（NPC）在0.0t加入战斗" in text and "行动#1 Goblin：" in text
    # a player may not act for the GM's NPC, unless the group opened it
    assert "只有" in await say(app, ".bat Goblin:力量 100", user="10001")
    await say(app, ".tlconf open 开", **GM)
    assert "行动#2 Goblin：" in await say(app, ".bat Goblin:力量 100", user="10001")
    assert "[体力]变更: [↓]-5.0" in await say(app, ".crd Goblin: 体力 -5", user="10001")


async def test_glued_and_acting_for_someone(app: App) -> None:
    await _setup(app, "甲", "10001")
    await _setup(app, "乙", "10002")
    assert "行动#1 甲：0.0t → 17.14t" in await say(app, ".bat 力量150")
    assert "只有" in await say(app, ".bat 力量 150", user="10001", at=("10002",))
    assert "行动#2 乙：" in await say(app, ".bat 力量 150", at=("10002",), **GM)
    assert "行动#3 乙：" in await say(app, ".bat 乙:力量 150", **GM)
    assert "乙: \n[体力]变更: [↓]-5.0" in await say(app, ".crd 乙: 体力 -5", **GM)
    assert "乙: \n[体力]变更: [↓]-5.0" in await say(app, ".crd 体力 -5", at=("10002",), **GM)
    assert "只有" in await say(app, ".crd 体力 -5", user="10001", at=("10002",))


async def test_tar_forms_and_appointed_gm(app: App) -> None:
    await _setup(app)
    assert await say(app, ".tar") == "未设定目标数值×"
    assert "只有" in await say(app, ".tar 100")
    await say(app, ".gm add @10001", **GM, user="10009")
    assert await say(app, ".tar 100") == "已设定目标数值为100√"
    assert await say(app, ".tar 10 15") == "已设定目标数值为150√"
    text = await say(app, ".tar 10d")
    assert text.startswith("随机难度：") and "已设定目标数值为" in text
    assert await say(app, ".ta 20") == "已设定目标数值为20√"
    assert await say(app, ".tar") == "目标数值: 20"
    assert "指令错误" in await say(app, ".tar 10d 3")
