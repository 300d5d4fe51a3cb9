"""The fragments the command fuzzer (:mod:`command_fuzz`) builds messages from.

``NAMES``: names the fuzzed world knows; ``REALISTIC``: what players type (names, attributes, numbers, dice, keywords of every system).
``HOSTILE``: what breaks parsers (NUL, lone surrogates, zero-width and bidi characters, full-width
and superscript digits, huge numbers and dice, emoji, brackets, prefixes inside the text).
``SEEDS``: whole argument lines per command, the fuzzer's starting points besides the examples
the help texts give (:func:`help_examples`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from chronodice.core.commands import CommandSpec

SEPARATORS = (" ", "", "  ", "\t", "\n", "\u3000", ",", "，", ":", "：", "、", ";", "|", "/")

NAMES = (
    "哥布林",
    "甲",
    "乙",
    "丙",
    "艾琳",
    "布鲁诺",
    "PL02",
    "PL03",
    "狼",
    "守卫",
    "躯干",
    "腿部",
    "力量",
    "侦查",
)
"""Names the fuzzed world holds (combatants, characters, body parts, attributes)."""

REALISTIC = (
    *("力量", "敏捷", "意志", "体质", "侦查", "图书馆", "斗殴", "聆听", "san", "hp", "运动", "洞悉"),
    *("哥布林", "艾琳", "布鲁诺", "甲", "乙", "丙", "守卫", "狼", "躯干", "腿部", "臂部", "头部"),
    *("0", "1", "2", "3", "10", "12", "15", "17", "20", "50", "60", "99", "100", "150", "-1", "-3"),
    *("+2", "+5", "-2", "=17", "=8", "1.5", "50%", "3#", "2#", "#1", "#2", "x2", "×3", "*2"),
    *("1d6", "3d6+2", "d20", "1d20+5", "d100", "4d6k3", "2d10", "1d4", "0/1d4", "1/1d6", "d8+d6"),
    *("10t", "5t", "3刻", "2轮", "1d4轮", "hit3", "dp2", "dr1", "轻伤x2", "擦伤", "重伤", "治疗", "临时2"),
    *("优势", "劣势", "被动", "暗", "全", "确认", "困难", "极难", "on", "off", "开", "关", "clr"),
    *("a8", "a9", "dc3", "难度2", "+2s", "-1s", "vs", "对抗", "?", "攻击", "防御", "行动", "附加"),
    *("防2", "破防", "传奇3", "命中+1", "@守卫", "守卫:", "哥布林:", ">哥布林", "→甲", "伤害5"),
    *("眩晕", "中毒", "-源 甲", "-说明 测试", "-lv 3", "-ap 2", "主要", "次要", "即时", "自由"),
    *("sp", "hg", "mp", "危机", "杂兵", "抗性", "灼烧1", "重击", "斩杀", "自愈", "-由", "贯通"),
    *("list", "show", "del", "rm", "new", "tag", "rename", "all", "re", "第一夜", "乱斗森林"),
    *("@10002", "@10003", "@12345", "1号", "2号", "#2号", "1:1,2", "弃 1,2", "当", "随机"),
    *("open", "sheet", "RP", "35%", "体力", "现金", "hp -30", "mp +5", "休息", "reset", "皮甲"),
)

HOSTILE = (
    *("\x00", "\ud83d", "\udc00", "\u200b", "\u200d", "\ufeff", "\u202e", "\u2066", "\x7f", "\x1b[31m"),
    *("\r", "\r\n", "\u2028", "\x0b", "\x0c", "\u3000", "\u00a0", "\t\t"),
    *("１２３", "＋５", "－３", "：", "，", "（１）", "２ｄ６", "ｄ２０", "ＡＢＣ", "＃２", "＠"),
    *("²", "³", "①", "③", "⑤", "¹²", "٣", "९", "𝟙", "½", "⁹", "₂", "Ⅻ", "〇", "十二"),
    *("−5", "—", "～", "‐", "﹣3", "⁺", "⁻"),
    *("9" * 25, "1" * 300, "-" + "9" * 25, "0" * 40 + "1", "99999d99999", "1000d1000000"),
    *("10000#d6", "20#1000d6", "d" * 30, "1d" * 40, "1e309", "nan", "inf", "-0", "0x1f", "1_000"),
    *("😀", "👨\u200d👩\u200d👧", "🎲" * 30, "🏳️\u200d🌈", "e\u0301", "\U0001f600" * 5),
    *("'", '"', "<b>", "&amp;", "%s", "{0}", "\\", "$(id)", "';--"),
    *("(" * 12 + "1", "1" + ")" * 12, "(" * 60 + "1" + ")" * 60, "()", ")(", "（）"),
    *("#", "@", "@@", "@" + "1" * 20, "@ 10002", "..", "。", ".r", "。r 1d6", ".st 力量1"),
    *("+-+-", "=" * 10, ":" * 10, "，" * 10, "/" * 10, "|" * 5, "、" * 5, "+" * 40),
    *("甲" * 30, "a" * 100, "名" * 21, " " * 50, "\n" * 20, "x" * 2001),
    *("力量" * 30, "力量60" * 40, "a1" * 100, "1 " * 200, "+1" * 200, "k " * 200),
)

SEEDS: dict[str, tuple[str, ...]] = {
    "set": ("coc7", "dnd5e", "tl", "tick20", "pool10", "20", "d100", "clr", ""),
    "rc": ("侦查", "侦查60", "运动 15 优势", "DEX+INS 13", "哥布林:d8+d6 13 伤害5", "被动 洞悉", "困难侦查"),
    "ri": ("", "+3", "=17", "=8 哥布林", "3#卫兵", "暗 +4 伏兵", "=1d6+10 巨魔", "25 巢穴", "+2环境 哥布林"),
    "init": ("", "list", "begin", "start", "next", "skip", "delay", "undo 2", "log 5", "end 确认"),
    "ed": ("",),
    "延后": ("",),
    "ap": ("-1 次要", "-2 攻击", "pay 3", "ta 9 大招 3", "哥布林 +1", "=3"),
    "wound": ("哥布林 躯干 轻伤x2", "哥布林 躯干 hit3 dp2 dr1 贯通", "甲 腿部 治疗 2", "哥布林 躯干 临时2"),
    "hp": (
        "哥布林 -7 -由 艾琳",
        "哥布林 -4 重击",
        "哥布林 -3 斩杀 11",
        "哥布林 hg 10",
        "全体 自愈",
        "狼 杂兵",
    ),
    "动作": ("哥布林 攻击", "攻击", "艾琳 +1"),
    "mov": ("-2", "哥布林 -1", "艾琳 =3"),
    "濒死": ("哥布林", ""),
    "ra": ("侦查", "侦查60", "困难侦查", "3#侦查", "聆听 60 +10", ""),
    "rah": ("侦查", "图书馆 50"),
    "rab": ("2 侦查", "侦查"),
    "rap": ("聆听 60", "2 聆听"),
    "sc": ("0/1d4 60", "1/1d6", "1d10/1d100", "0/1"),
    "en": ("侦查", "侦查 60"),
    "coc": ("", "5", "20"),
    "ti": ("",),
    "li": ("",),
    "setcoc": ("0", "2", "5", ""),
    "r": ("", "3d6+2 侦查", "1d20+敏捷", "2#d20", "4d6k3", "b2", "d100", "1d6 理由"),
    "rh": ("d100", "3d6"),
    "st": ("力量60敏捷50 意志:40", "体力-5", "@10002 体力-5", "show", "show 力量", "del 力量", "clr"),
    "pc": ("list", "new 乙", "tag 1", "tag 乙", "rename 乙 丙", "del 丙 确认", "show", "show 1"),
    "nn": ("", "阿梓", "甲乙丙"),
    "gm": ("list", "add @10002", "del @10002"),
    "bot": ("on", "off", ""),
    "dismiss": ("",),
    "help": ("", "st", "init eff", "bat", "moe"),
    "undo": ("",),
    "log": ("show", "new 第一夜", "on", "off", "end", "get", "list", "del 第一夜", "stat"),
    "moe": ("state", "hand", "card 1", "play 1", "play 1 2号", "pass", "resp", "choose 1", "skill 1", "yes"),
    "w": (
        "7",
        "10a8",
        "敏捷+潜行 vs @对手 感知+调查",
        "攻击 6 @守卫",
        "防御 2 守卫",
        "倍率 30 ×2 +5",
        "分配 5 甲×2=1/1",
    ),
    "ww": ("敏捷+潜行 +2s dc4", "附加 潜行1", "附加 show", "set a9", "行动"),
    "wh": ("5", "力量+格斗-2"),
    "TLsetup": (
        "姓名:甲,等级:10",
        "姓名:丁,种族:人类,外貌:50,资产:50,性别:女,职业:学者,等级:8,物理思维比值:400,体质:30,敏捷:35,力量:35,"
        "意志:30,教育:35,智力:35,医学及生命科学:20,工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0",
    ),
    "chr": ("", "1", "show", "del 1"),
    "lv": ("+5", "-1", "5"),
    "crd": ("", "hp -30", "mp +5", "reset", "休息 2", "甲: hp -3 #1 灼烧"),
    "buff": ("装备 力量 10", "list", "del 1", "del all"),
    "dr": ("护甲 +hp 5", "list", "del all"),
    "setupWP": (
        "名称:长剑,类型:火力,伤害:50,前摇:10,射程:1",
        "名称:短弓,类型:火力,增幅属性:敏捷,伤害:40,前摇:8,射程:30,载弹量:1,装填时间:5,负重:2,备注:无",
    ),
    "wp": ("", "1", "show", "del 1"),
    "armor": ("皮甲 30 20", "list", "del 1"),
    "tar": ("10 10", "100", "10d", "查看"),
    "ex": ("力量", "力", "敏捷"),
    "neg": ("10 35", "100", "RP 10 35%"),
    "pre": ("力量 150", "10t 力量", "力量150"),
    "coop": ("力量 甲 乙", "力量 @10002 100"),
    "opp": ("力量 乙 敏捷", "50% 乙"),
    "clash": ("150 200", "#1 #2"),
    "tlconf": ("查看", "open 开", "sheet 关"),
    "debuff": ("哥布林: 100 虚弱", "查看", "清除 哥布林:"),
    "bat": ("力量 150 重拳", "敏捷 5t", "show", "图", "记录", "end", "推进 30", "取消 #1", ">哥布林"),
    "heal": ("体力 30", "甲: 体力 30", "@10002 意志 20"),
    "dist": ("3 4", "3 4 12", "1"),
}
"""Argument lines per command (by spec name); a spec without one still gets generated lines."""

_EXAMPLE = re.compile(r"[.。]([A-Za-z\u4e00-\u9fff]+)([^、，；;\n（）()：]*)")


def help_examples(specs: Iterable[CommandSpec]) -> dict[str, list[str]]:
    """The argument lines of the examples the help texts show (``例 .wound 哥布林 躯干 轻伤x2``),
    by spec name (an example naming another command goes to that command)."""
    by_root = {root.lower(): spec.name for spec in specs for root in spec.roots}
    out: dict[str, list[str]] = {}
    for spec in specs:
        text = "\n".join([spec.detail, spec.summary, *(s.help for s in spec.subs)])
        for m in _EXAMPLE.finditer(text):
            name = by_root.get(m.group(1).lower())
            if name is not None:
                out.setdefault(name, []).append(m.group(2).strip())
    return out
