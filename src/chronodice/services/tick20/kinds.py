"""Argument kinds of the D20 tick commands (:mod:`chronodice.core.args`): typed modifiers, the
``=表达式`` initiative, the 004 two-die check, combatant names and lists, ``-键 值`` options,
durations (one ``.ri`` entry: :mod:`.kinds_ri`, which builds on these).

>>> from chronodice.core.args import ParseEnv, parse_args, arg
>>> parse_args("狼2 -5", (arg("who", COMBATANT), arg("n", Int(signed=True, sign_required=True))))
{'who': '狼2', 'n': -5}
>>> [v for v, _ in TWO_DIE.candidates("d8+d6 13", 0, ParseEnv())]
[('d8', 'd6')]
"""

from __future__ import annotations

from dataclasses import dataclass, field

from chronodice.core.args import (
    Candidates,
    Choice,
    Flag,
    Int,
    Kind,
    Mention,
    Mod,
    Name,
    OneOf,
    ParseEnv,
    Pattern,
    TypedMod,
    flag,
    is_ascii_digit,
    match_word,
    word_end,
)
from chronodice.rules.tick20.card import SECONDARY_DOMAINS
from chronodice.rules.tick20.durations import looks_like_duration
from chronodice.rules.tick20.modifiers import MOD_TYPES, Modifier, parse_mod_type
from chronodice.rules.tick20.variants import VARIANT_ALIASES

# --------------------------------------------------------------------------- modifiers
MOD_ALIASES = {t[0]: t for t in MOD_TYPES}
"""One-character aliases of the four types: 通 环 内 状."""

TYPED_MOD = TypedMod(label="±N类型", types=MOD_TYPES, aliases=MOD_ALIASES)
MODS = Flag("mods", TYPED_MOD, many=True, label="±N类型")


def modifiers(mods: list[Mod]) -> list[Modifier]:
    """Parsed ``±N类型`` flags as rule modifiers (untyped = 通用)."""
    return [Modifier(m.value, parse_mod_type(m.type)) for m in mods]


_TYPE_START = tuple(sorted([*MOD_TYPES, *MOD_ALIASES], key=len, reverse=True))


@dataclass(frozen=True)
class PlainInt(Int):
    """A whole number not glued to a modifier type word: ``+5状态`` is a typed modifier, never
    the number 5 followed by the word 状态.  ``plus=False``: a leading ``+`` marks a modifier, not
    this number (a target value is ``15`` or ``-2``, never ``+3``)."""

    plus: bool = True

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        if not self.plus and text[pos] == "+":
            return
        for value, end in super().candidates(text, pos, env):
            if not text.startswith(_TYPE_START, end):
                yield value, end


# --------------------------------------------------------------------------- words
@dataclass(frozen=True)
class NotWords(Kind):
    """``kind``, except where the text is one of ``words`` (a flag such as 优势 or 暗), alone or
    glued to a number (``优势+2``): those belong to the flags, not to a name.  Words starting
    with a Unicode digit (``²``, ``⑤``) are refused too."""

    kind: Kind = field(default_factory=Name)
    words: tuple[str, ...] = ()
    label: str = ""
    glue: bool = False

    def __post_init__(self) -> None:
        if not self.label:
            object.__setattr__(self, "label", self.kind.label)

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        for value, end in self.kind.candidates(text, pos, env):
            if isinstance(value, str) and self._is_flag(value):
                continue
            yield value, end

    def _is_flag(self, value: str) -> bool:
        if value[:1].isnumeric():  # ``²``, ``⑤``: never a name, and never a number either
            return True
        low = value.lower()
        for w in self.words:
            w = w.lower()
            if low == w or (low.startswith(w) and (low[len(w)] in "+-=" or is_ascii_digit(low[len(w)]))):
                return True
        return False

    def usage(self) -> str:
        return self.kind.usage() if not self.label else self.label


EDGE_WORDS = ("优势", "adv", "劣势", "dis", "被动", "passive", "DC")
ADV = flag("adv", "优势", "adv", label="优势")
DIS = flag("dis", "劣势", "dis", label="劣势")
PASSIVE = flag("passive", "被动", "passive", "DC", label="被动")

SELF_WORDS = ("我", "me", "自己")


def combatant(label: str = "参战者", *, extra: tuple[str, ...] = ()) -> Kind:
    """A combatant's name (``我`` = your own); a glued number splits off first (``运动15``) and the
    whole word is kept when nothing else fits (``狼2``)."""
    return NotWords(kind=Name(label=label, stop="/"), words=extra, label=label)


COMBATANT = combatant()

TARGET_SEPS = ",;/、"


@dataclass(frozen=True)
class Targets(Kind):
    """One or more combatants separated by ``,`` ``;`` ``/`` ``、`` (``哥布林;狼2``): a list."""

    label: str = "目标[;目标]"
    glue: bool = False
    item: Kind = field(default_factory=lambda: COMBATANT)

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        yield from self._read(text, pos, env, 0)

    def _read(self, text: str, pos: int, env: ParseEnv, depth: int) -> Candidates:
        if depth > 12:
            return
        for value, end in self.item.candidates(text, pos, env):
            if end < len(text) and text[end] in TARGET_SEPS:
                nxt = end + 1
                if nxt < len(text) and text[nxt] not in " \t\n":
                    for more, e2 in self._read(text, nxt, env, depth + 1):
                        yield [value, *more], e2
                yield [value], nxt
            yield [value], end


@dataclass(frozen=True)
class Option(Kind):
    """``-键 值`` (``-p 10``, ``-阵营 敌方``, ``-先攻 -4状态``): one of ``keys`` then a value of
    ``kind`` (a space between is optional)."""

    keys: tuple[str, ...] = ()
    kind: Kind = field(default_factory=Name)
    label: str = ""
    glue: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        for key in sorted(self.keys, key=len, reverse=True):
            if not match_word(text, pos, key):
                continue
            at = pos + len(key)
            while at < len(text) and text[at] in " \t\n":
                at += 1
            if at < len(text):
                yield from self.kind.candidates(text, at, env)
            elif not self.kind.consumes_text and env.mentions:
                yield env.mentions[0], at
            return

    def usage(self) -> str:
        return self.label or f"{self.keys[0]} {self.kind.usage()}"


def option(name: str, keys: tuple[str, ...], kind: Kind, label: str = "") -> Flag:
    """A ``-键 值`` flag (anywhere after the positional arguments)."""
    return Flag(name, Option(keys=keys, kind=kind, label=label or f"{keys[0]} {kind.usage()}"))


def num(label: str, *, signed: bool = False) -> Int:
    """A number of one to three digits, as the tracker's old ``number``."""
    return Int(label=label, signed=signed, min=-999 if signed else 0, max=999)


WORD10 = Pattern(regex=r"[^\s,;]{1,10}", label="文字")
"""A short word (a side: 我方/敌方/X)."""

QQ_ID = OneOf(
    Mention(), Pattern(regex=r"@?([0-9]{5,12})(?![0-9])", convert=lambda m: m.group(1)), label="@某人"
)
"""A QQ user: the message's @, ``@12345`` typed, or a 5–12 digit QQ id."""


# --------------------------------------------------------------------------- .rc
TWO_DIE = Pattern(
    regex=r"(?i)([a-z]{3}|d[0-9]{1,3})\+([a-z]{3}|d[0-9]{1,3})(?![0-9a-z])",
    label="双骰（DEX+INS/d8+d6）",
    convert=lambda m: (m.group(1), m.group(2)),
)
"""The 004 two-die check: two attribute abbreviations or two written dice (``DEX+INS``, ``d8+d6``)."""

OPPOSED = Flag(
    "opposed",
    Pattern(
        regex=r"(?i)(?:对抗|vs) ?(-?[0-9]{1,3})(?![0-9])",
        label="对抗N",
        convert=lambda m: int(m.group(1)),
    ),
    label="对抗N",
)
DOMAIN = Flag(
    "domain",
    Pattern(
        regex="《("
        + "|".join(SECONDARY_DOMAINS)
        + ")》|("
        + "|".join(SECONDARY_DOMAINS)
        + r")(?:领域)?(?=\s|$)",
        label="工程/学术/神秘/游艺",
        convert=lambda m: m.group(1) or m.group(2),
    ),
    label="次要领域",
)
"""The 次要领域 of the ability a check is for (002 次要领域): ``工程``, ``《工程》`` or ``工程领域``
as a word of its own (``神秘的符号`` stays a reason)."""
CHECK_WORDS = (
    *EDGE_WORDS,
    "对抗",
    "vs",
    "伤害",
    "暗",
    "量谱",
    "自我",
    *SECONDARY_DOMAINS,
    *(f"《{d}》" for d in SECONDARY_DOMAINS),
    *(f"{d}领域" for d in SECONDARY_DOMAINS),
)


@dataclass(frozen=True)
class NoColon(Kind):
    """``kind``, except a reading with a colon (``哥布林:d8+d6`` names who rolls, it is no skill)."""

    kind: Kind = field(default_factory=Name)
    label: str = ""

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        for value, end in self.kind.candidates(text, pos, env):
            if ":" not in str(value):
                yield value, end

    def usage(self) -> str:
        return self.kind.usage()


CHECK_WHAT = OneOf(
    TWO_DIE,
    PlainInt(label="修正", signed=True, min=-999, max=999),
    NoColon(kind=NotWords(kind=Name(label="技能/属性"), words=CHECK_WORDS), label="技能/属性"),
    label="技能/属性/修正",
)
REASON = NotWords(kind=Name(label="理由", max_len=30), words=CHECK_WORDS, label="理由")
TARGET = PlainInt(label="目标值", signed=True, min=-999, max=999, plus=False)


# --------------------------------------------------------------------------- .init
@dataclass(frozen=True)
class Duration(Kind):
    """A duration word (``3刻``, ``2轮``, ``1d4轮``, ``焦点``, ``条件:…``); checked when applied."""

    label: str = "时长"
    glue: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        end = word_end(text, pos)
        word = text[pos:end]
        if looks_like_duration(word):
            yield word, end


VARIANT = Flag("variant", Choice(table=dict(VARIANT_ALIASES), label="基础/速度"))
CONFIRM = flag("confirm", "确认", "confirm", label="确认")
EFFECT_NAME = Name(label="效果名")
PARENT = Pattern(
    regex=r"([^\s/]{1,20})/([^\s/]{1,20})", label="目标/效果", convert=lambda m: (m.group(1), m.group(2))
)


@dataclass(frozen=True)
class Rest1(Kind):
    """Text to the end of the message (after ``-说明``)."""

    label: str = "说明"
    glue: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        value = text[pos:].strip()
        if value:
            yield value[:200], len(text)


EFF_FLAGS = (
    option("source", ("-源", "-src"), COMBATANT, "-源 X"),
    option("anchor", ("-锚", "-anchor"), COMBATANT, "-锚 X"),
    option("init_mod", ("-先攻", "-init"), TYPED_MOD, "-先攻 ±n类型"),
    option("parent", ("-父", "-parent"), PARENT, "-父 目标/效果"),
    option("description", ("-说明", "-desc"), Rest1(), "-说明 …"),
    flag("concentration", "-专注", "专注", label="-专注"),
    option("check_mod", ("-检定",), TYPED_MOD, "-检定 ±n类型"),
    Flag("edge", Choice(table={"-优势": "优势", "-劣势": "劣势"}, label="-优势/-劣势")),
    flag("replace", "-replace", "-替换", label="-替换"),
    flag("hidden", "暗", "-暗", label="暗"),
    Flag("boundary", Choice(table={"-开始": "start", "-结束": "end"}, label="-开始/-结束")),
)

META_FLAGS = (
    option("settle", ("-沉淀",), Choice(table={"开": True, "关": False}, label="开/关")),
    option(
        "delay_rule", ("-延后",), Choice(table={"规则": "next_tick", "原文": "literal"}, label="规则/原文")
    ),
    option("carry_rule", ("-当前先攻",), Choice(table={"累加": "carry", "重置": "reset"}, label="累加/重置")),
    option("remind", ("-提醒",), Choice(table={"开": True, "关": False}, label="开/关")),
    option(
        "hp_display",
        ("-血量",),
        Choice(table={"显示": "show", "模糊": "fuzzy", "隐藏": "hide"}, label="显示/模糊/隐藏"),
    ),
    option(
        "defense",
        ("-防御",),
        Choice(table={"被动": "passive", "掷骰": "roll", "检定": "roll"}, label="被动/掷骰"),
    ),
)

# --------------------------------------------------------------------------- resources
AP_KINDS = {
    "主要": "SA",
    "次要": "MA",
    "即时": "RA",
    "自由": "FA",
    "SA": "SA",
    "MA": "MA",
    "RA": "RA",
    "FA": "FA",
}
AP_OPS = ("ta", "全力", "pay", "支付")
AP_CHANGE = Pattern(
    regex=r"([+=-])([0-9]{1,2})(?![0-9])", label="±n/=n", convert=lambda m: (m.group(1), int(m.group(2)))
)
AP_OP = OneOf(
    AP_CHANGE,
    Choice(table={"ta": "ta", "全力": "ta", "pay": "pay", "支付": "pay"}, label="ta/pay"),
    label="±n/=n/ta/pay",
)
AP_WHO = combatant(extra=(*AP_OPS, *AP_KINDS))
AP_LABEL = NotWords(kind=Name(label="理由"), words=tuple(AP_KINDS), label="理由")
AP_KIND = Flag("kind", Choice(table=AP_KINDS, label="主要/次要/即时/自由"))

WOUND_LEVELS = {"擦伤": 1, "轻伤": 2, "重伤": 3, "1": 1, "2": 2, "3": 3}
WOUND_ITEM = OneOf(
    Pattern(
        regex=r"(擦伤|轻伤|重伤|[123])(?:[xX*]([0-9]{1,2}))?(?![0-9])",
        label="等级x数量",
        convert=lambda m: ("level", WOUND_LEVELS[m.group(1)], int(m.group(2) or 1)),
    ),
    Pattern(
        regex=r"(?i)(hit|dp|dr)([0-9]{1,2})(?![0-9])",
        label="hit/dp/dr",
        convert=lambda m: (m.group(1).lower(), int(m.group(2))),
    ),
    Choice(table={"直接": ("direct",), "direct": ("direct",), "治疗": ("heal",), "heal": ("heal",)}),
    Pattern(
        regex=r"临时(?:生命)?([0-9]{1,2})(?![0-9])",
        label="临时N",
        convert=lambda m: ("temp", int(m.group(1))),
    ),
    Pattern(regex=r"[0-9]{1,3}(?![0-9])", label="级数", convert=lambda m: ("n", int(m.group()))),
    Pattern(regex=r"[^\s0-9+=-][^\s]{0,19}", label="类型", convert=lambda m: ("tag", m.group()[:6])),
    label="伤势",
)

HP_OPS = {
    "hg": "hg",
    "mg": "mg",
    "mp": "mp",
    "spmax": "spmax",
    "sp上限": "spmax",
    "sp": "sp",
    "危机值": "crisis",
    "危机": "crisis",
    "杂兵": "minion",
    "抗性": "resist",
    "易伤": "vuln",
    "强韧": "fort",
    "自愈": "selfheal",
    "短休": "short_rest",
    "长休": "long_rest",
}
HP_OP = OneOf(
    Pattern(
        regex=r"(?i)(sp上限|spmax|hg|mg|mp|sp|危机值|危机|杂兵|抗性|易伤|强韧|自愈|短休|长休)(?![a-z])",
        label="hg/mg/mp/sp/sp上限/危机/杂兵/抗性/易伤/强韧/自愈/短休/长休",
        convert=lambda m: HP_OPS[m.group(1).lower()],
    ),
    Int(label="±n", signed=True, sign_required=True, min=-9999, max=9999),
    label="±n/hg/mg/mp/sp",
)
HP_WHO = combatant(extra=tuple(HP_OPS))
DAMAGE_TYPE_RE = "冲击|切割|穿刺|毒素|失血|灼烧|冷冻|腐蚀"
HP_VALUE = OneOf(
    Pattern(regex=r"=(-?[0-9]{1,3})(?![0-9])", label="=n", convert=lambda m: ("=", int(m.group(1)))),
    Pattern(
        regex=r"[0-9]{1,2}(?:/[0-9]{1,2})+(?![0-9/])",
        label="容量/容量…",
        convert=lambda m: ("caps", [int(x) for x in m.group().split("/")]),
    ),
    Pattern(
        regex=rf"({DAMAGE_TYPE_RE}) ?([0-9]{{1,2}})(?![0-9])",
        label="类型N",
        convert=lambda m: ("type", m.group(1), int(m.group(2))),
    ),
    num("数值", signed=True),
    label="数值",
)

__all__ = [
    "AP_KIND",
    "AP_LABEL",
    "AP_OP",
    "AP_WHO",
    "CHECK_WHAT",
    "COMBATANT",
    "CONFIRM",
    "DOMAIN",
    "EFFECT_NAME",
    "EFF_FLAGS",
    "HP_OP",
    "HP_VALUE",
    "HP_WHO",
    "META_FLAGS",
    "MODS",
    "OPPOSED",
    "QQ_ID",
    "REASON",
    "TARGET",
    "TWO_DIE",
    "TYPED_MOD",
    "VARIANT",
    "WORD10",
    "WOUND_ITEM",
    "Duration",
    "NotWords",
    "Option",
    "PlainInt",
    "Targets",
    "modifiers",
    "num",
    "option",
]
