"""Validation of a 萌E pack: every problem, in Chinese, with the file, the item and the field.

:func:`problems_of` reads the parsed YAML of a pack (after ``extends`` is merged) and returns a
list of lines such as ``my.yaml：卡牌 fireball（火球术）的 effect[0].damage：未知参数「nn」``.
It checks the shape of every card, skill, character and map one by one (so one bad card does not
hide the others), then what the models cannot see:

* expressions: syntax, **unknown functions** (and their number of arguments), unknown names;
* timings of skills and 奥秘 against :data:`TIMINGS` (every timing the engine fires);
* effect primitives: unknown names, **misspelt arguments** (unknown keys), missing required
  arguments, character references (``who: tagret``), phases, attributes;
* dangling references: skills of characters, cards and ``gain_skill``; cards of ``offset_by``,
  ``response_to``, ``convert``, ``rules`` and the deck; Python hooks;
* a pack needs at least one character, one map and a deck.

>>> problems_of({"pack": "x", "name": "X", "cards": {}, "deck": [], "characters": {}, "maps": {}}, "x.yaml")[:2]
['x.yaml：卡包没有角色（characters 为空）', 'x.yaml：卡包没有地图（maps 为空）']
"""

from __future__ import annotations

import ast
from typing import Any

from pydantic import BaseModel, ValidationError

from .cards import ATTRIBUTES, SUITS, rank_value
from .packnames import ARGS, FUNCTIONS, TIMINGS, VARIABLES
from .packtext import LINE_LIMIT, brief, brief_repr, pydantic_problems
from .primitives_cards import card_arg_problems
from .state import PHASES

__all__ = ["ARGS", "FUNCTIONS", "TIMINGS", "VARIABLES", "problems_of"]

EXTRA_PRIMITIVES = frozenset({"set", "python"})
REFS = frozenset({"me", "target", "source", "victim", "user", "killer", "current", "winner", "loser"})
"""Character references an effect may name (besides variables set by ``choose_player``…)."""
_REF_KEYS = ("who", "to", "of", "with", "a", "b", "from")
_EXPR_KEYS = ("n", "add", "cond", "filter", "feasible", "max", "min")
_EFFECT_LISTS = ("then", "else", "win", "tie", "red", "black")
_ZONES = frozenset({"hand", "equip", "secret"})
_OPTION_KEYS = frozenset({"label", "feasible", "effect"})

SECTIONS: dict[str, str] = {"cards": "卡牌", "skills": "技能", "characters": "角色", "maps": "地图"}


class Checker:
    """Collects the problems of one pack (``file`` names it in every message)."""

    def __init__(self, raw: dict[str, Any], file: str) -> None:
        self.raw = raw
        self.file = file
        self.problems: list[str] = []
        self.cards = _mapping(raw.get("cards"))
        self.skills = _mapping(raw.get("skills"))
        self.characters = _mapping(raw.get("characters"))
        self.maps = _mapping(raw.get("maps"))

    # ------------------------------------------------------------------ reporting
    def label(self, section: str, key: str) -> str:
        item = _mapping(self.raw.get(section)).get(key)
        name = item.get("name") if isinstance(item, dict) else None
        return f"{SECTIONS.get(section, section)} {brief(key)}" + (f"（{brief(name)}）" if name else "")

    def add(self, where: str, field: str, msg: str) -> None:
        """Note one problem; ``field`` (a path of keys from the pack) is cut to
        :data:`QUOTE_LIMIT` and the whole line to a few times that."""
        head = f"{self.file}：{where}" if where else self.file
        field = brief(field)
        self.problems.append(brief(f"{head}的 {field}：{msg}" if field else f"{head}：{msg}", LINE_LIMIT))

    # ------------------------------------------------------------------ expressions
    def expr(self, where: str, field: str, text: Any, names: set[str], *, allow_t: bool = False) -> None:
        if isinstance(text, bool) or isinstance(text, int) or text is None:
            return
        if not isinstance(text, str):
            self.add(where, field, f"应为表达式或数字，实为 {brief_repr(text)}")
            return
        from .expr import check_expr

        err = check_expr(text)
        if err:
            self.add(where, field, f"表达式「{brief(text)}」有误：{brief(err)}")
            return
        tree = ast.parse(text, mode="eval")
        called = {id(n.func) for n in ast.walk(tree) if isinstance(n, ast.Call)}
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                fn = node.func.id
                if fn not in FUNCTIONS:
                    self.add(where, field, f"表达式「{brief(text)}」用了未知函数「{brief(fn)}」")
                elif len(node.args) != FUNCTIONS[fn]:
                    self.add(
                        where, field, f"函数「{fn}」需要 {FUNCTIONS[fn]} 个参数，写了 {len(node.args)} 个"
                    )
            elif isinstance(node, ast.Name) and id(node) not in called:
                name = node.id
                if name in FUNCTIONS:
                    self.add(where, field, f"「{name}」是函数，应写作 {name}(…)")
                elif name not in VARIABLES and name not in names and not (allow_t and name == "t"):
                    self.add(where, field, f"表达式「{brief(text)}」用了未知的名字「{brief(name)}」")

    # ------------------------------------------------------------------ effects
    def effects(self, where: str, field: str, effects: Any, names: set[str]) -> None:
        if effects is None:
            return
        if not isinstance(effects, list):
            self.add(where, field, "应为效果列表")
            return
        for i, eff in enumerate(effects):
            self.effect(where, f"{field}[{i}]", eff, names)

    def effect(self, where: str, field: str, eff: Any, names: set[str]) -> None:
        if not isinstance(eff, dict) or len(eff) != 1:
            shape = "一个效果应是只有一个键的映射（如 draw: {who: me, n: 1}）"
            self.add(where, field, f"{shape}，实为 {brief_repr(eff)}")
            return
        ((op, arg),) = eff.items()
        field = f"{field}.{brief(op)}"
        if op == "python":
            self.hook(where, field, arg)
            return
        if op == "set":
            if not isinstance(arg, dict) or not arg:
                self.add(where, field, "set 需要 名字: 表达式")
                return
            for k, v in arg.items():
                self.expr(where, f"{field}.{k}", v, names)
            return
        if op not in ARGS:
            self.add(where, field, f"未知的效果「{brief(op)}」")
            return
        allowed, required = ARGS[op]
        if arg is None:
            arg = {}
        if not isinstance(arg, dict):
            self.add(where, field, f"参数应为映射，实为 {brief_repr(arg)}")
            return
        for k in arg:
            if k not in allowed:
                hint = "、".join(sorted(allowed)) or "无"
                self.add(where, field, f"未知参数「{brief(k)}」（可用：{hint}）")
        for k in sorted(required - set(arg)):
            self.add(where, field, f"缺少参数「{k}」")
        for k in _REF_KEYS:
            if k in arg:
                self.ref(where, f"{field}.{k}", arg[k], names, none_ok=k == "from")
        for k in _EXPR_KEYS:
            if k in arg and k in allowed:
                self.expr(where, f"{field}.{k}", arg[k], names, allow_t=k == "filter")
        for k in _EFFECT_LISTS:
            if k in arg and k in allowed:
                self.effects(where, f"{field}.{k}", arg[k], names)
        self.special(where, field, op, arg, names)

    def special(self, where: str, field: str, op: str, arg: dict[str, Any], names: set[str]) -> None:
        """Values that must come from a fixed set or name another item of the pack."""
        for sub, msg in card_arg_problems(op, arg, self.cards):
            self.add(where, f"{field}.{sub}", msg)
        for zone in arg.get("zones", []) if isinstance(arg.get("zones"), list) else []:
            if zone not in _ZONES:
                self.add(where, f"{field}.zones", f"未知区域「{brief(zone)}」（可用：hand、equip、secret）")
        in_phases = f"（可用：{'、'.join(PHASES)}）"
        attr = arg.get("attribute")
        if op == "damage" and attr not in (None, *ATTRIBUTES):
            self.add(where, f"{field}.attribute", f"未知属性「{brief(attr)}」（可用：元素、光、暗）")
        if op == "skip_phases":
            phases = arg.get("phases")
            for ph in phases if isinstance(phases, list) else [phases]:
                if ph not in PHASES:
                    self.add(where, f"{field}.phases", f"未知阶段「{brief(ph)}」{in_phases}")
        if op == "extra_phase" and "phase" in arg and arg["phase"] not in PHASES:
            self.add(where, f"{field}.phase", f"未知阶段「{brief(arg['phase'])}」{in_phases}")
        if op in ("gain_skill", "lose_skill") and "skill" in arg and arg["skill"] not in self.skills:
            self.add(where, f"{field}.skill", f"技能「{brief(arg['skill'])}」不存在")
        if op == "hand_limit" and arg.get("op") not in (None, "为", "加", "视为"):
            self.add(where, f"{field}.op", f"应为 为、加 或 视为，实为「{brief(arg['op'])}」")
        if op == "exchange" and arg.get("zone", "hand") not in ("hand", "equip"):
            self.add(where, f"{field}.zone", f"应为 hand 或 equip，实为「{brief(arg['zone'])}」")
        if op == "choose_option":
            self.options(where, field, arg.get("options"), names)

    def options(self, where: str, field: str, options: Any, names: set[str]) -> None:
        if not isinstance(options, list) or not options:
            self.add(where, f"{field}.options", "应为至少一项的选项列表")
            return
        for i, opt in enumerate(options):
            f = f"{field}.options[{i}]"
            if not isinstance(opt, dict):
                self.add(where, f, "选项应为映射（label / feasible / effect）")
                continue
            for k in opt:
                if k not in _OPTION_KEYS:
                    self.add(where, f, f"未知参数「{brief(k)}」（可用：effect、feasible、label）")
            if "label" not in opt:
                self.add(where, f, "缺少参数「label」")
            self.expr(where, f"{f}.feasible", opt.get("feasible"), names)
            self.effects(where, f"{f}.effect", opt.get("effect", []), names)

    def ref(self, where: str, field: str, value: Any, names: set[str], *, none_ok: bool = False) -> None:
        if isinstance(value, int) and not isinstance(value, bool):
            return
        if value is None or value == "none":
            if not none_ok:
                self.add(where, field, "缺少角色")
            return
        if not isinstance(value, str) or (value not in REFS and value not in names):
            hint = "、".join(sorted(REFS))
            self.add(where, field, f"未知的角色「{brief(value)}」（可用：{hint}，或 choose_player 的 var）")

    def hook(self, where: str, field: str, arg: Any) -> None:
        from .packs import hooks

        name = arg if isinstance(arg, str) else arg.get("name") if isinstance(arg, dict) else None
        if not isinstance(name, str) or not callable(getattr(hooks, name, None)):
            self.add(where, field, f"Python 钩子「{brief(name)}」不存在")

    def timing(self, where: str, field: str, value: Any) -> None:
        if value is not None and value not in TIMINGS:
            near = sorted(t for t in TIMINGS if str(value).split(".")[0] == t.split(".")[0])[:6]
            hint = f"（同类时机：{'、'.join(near)}）" if near else ""
            self.add(where, field, f"未知时机「{brief(value)}」{hint}")

    def card_ref(self, where: str, field: str, key: Any) -> None:
        if key not in self.cards:
            self.add(where, field, f"卡牌「{brief(key)}」不存在")

    def skill_ref(self, where: str, field: str, key: Any) -> None:
        if key not in self.skills:
            self.add(where, field, f"技能「{brief(key)}」不存在")


def _mapping(value: Any) -> dict[str, Any]:
    return value if isinstance(value, dict) else {}


def _declared(node: Any) -> set[str]:
    """Variable names an item's effects set (``set`` keys, ``var`` of choose_player/discard)."""
    out: set[str] = set()
    if isinstance(node, dict):
        for k, v in node.items():
            if k == "set" and isinstance(v, dict):
                out.update(str(x) for x in v)
            if k == "var" and isinstance(v, str):
                out.add(v)
            out |= _declared(v)
    elif isinstance(node, list):
        for v in node:
            out |= _declared(v)
    return out


def problems_of(raw: Any, file: str) -> list[str]:
    """Every problem of the parsed pack ``raw`` (empty when it is valid)."""
    from .pack import CardDef, CharacterDef, MapDef, Pack, Rules, SkillDef

    if not isinstance(raw, dict):
        return [f"{file}：文件内容应为 YAML 映射（pack: … name: … cards: …）"]
    c = Checker(raw, file)
    models: dict[str, type[BaseModel]] = {
        "cards": CardDef,
        "skills": SkillDef,
        "characters": CharacterDef,
        "maps": MapDef,
    }
    for key in raw:
        if key not in Pack.model_fields:
            c.add("", "", f"未知字段「{brief(key)}」（拼写错误？）")
    for key in ("pack", "name"):
        if not isinstance(raw.get(key), str) or not raw.get(key):
            c.add("", key, "缺少卡包的标识或名字")
    for section, model in models.items():
        if section in raw and not isinstance(raw[section], dict) and raw[section] is not None:
            c.add("", section, "应为映射（键: 定义）")
        for key, item in _mapping(raw.get(section)).items():
            try:
                model.model_validate(item)
            except ValidationError as exc:
                for loc, msg in pydantic_problems(exc):
                    c.add(c.label(section, key), loc or "定义", msg)
    raw_rules = _mapping(raw.get("rules"))
    try:
        Rules.model_validate(raw_rules)
    except ValidationError as exc:
        for loc, msg in pydantic_problems(exc):
            c.add("规则", f"rules.{loc}", msg)
    if not c.characters:
        c.add("", "", "卡包没有角色（characters 为空）")
    if not c.maps:
        c.add("", "", "卡包没有地图（maps 为空）")
    _check_deck(c, raw.get("deck"))
    _check_cards(c)
    _check_skills(c)
    _check_characters_and_maps(c)
    for role in ("attack_card", "defend_card", "rescue_card", "nullify_card"):
        c.card_ref("规则", f"rules.{role}", raw_rules.get(role, Rules.model_fields[role].default))
    return c.problems


def _check_deck(c: Checker, deck: Any) -> None:
    if not isinstance(deck, list) or not deck:
        c.add("牌堆", "deck", "牌堆为空（每行 [卡牌, 花色, 点数]）")
        return
    for i, row in enumerate(deck):
        where = f"牌堆第{i + 1}张"
        if not isinstance(row, list) or len(row) != 3:
            c.add(where, "deck", f"应为 [卡牌, 花色, 点数]，实为 {brief_repr(row)}")
            continue
        key, suit, rank = row
        c.card_ref(where, "卡牌", key)
        if suit not in SUITS:
            c.add(where, "花色", f"未知花色「{brief(suit)}」（可用：spade、heart、club、diamond）")
        try:
            rank_value(rank)
        except (ValueError, KeyError, AttributeError):
            c.add(where, "点数", f"点数「{brief(rank)}」无效（A、2…10、J、Q、K）")


def _check_cards(c: Checker) -> None:
    for key, card in c.cards.items():
        if not isinstance(card, dict):
            continue
        w = c.label("cards", key)
        names = _declared(card)
        for s in card.get("skills") or []:
            c.skill_ref(w, "skills", s)
        for f in ("offset_by", "response_to"):
            for k in card.get(f) or []:
                c.card_ref(w, f, k)
        if card.get("category") == "equipment" and not card.get("slot"):
            c.add(w, "slot", "装备牌需要 slot（weapon 或 armour）")
        if card.get("action_kind") == "secret" and not card.get("secret_timing"):
            c.add(w, "secret_timing", "奥秘需要 secret_timing（翻开的时机）")
        c.timing(w, "secret_timing", card.get("secret_timing"))
        c.expr(w, "target_filter", card.get("target_filter"), names, allow_t=True)
        c.expr(w, "can_use", card.get("can_use"), names)
        c.expr(w, "secret_condition", card.get("secret_condition"), names)
        c.effects(w, "effect", card.get("effect"), names)
        c.effects(w, "bonus", card.get("bonus"), names)


def _check_skills(c: Checker) -> None:
    for key, skill in c.skills.items():
        if not isinstance(skill, dict):
            continue
        w = c.label("skills", key)
        names = _declared(skill)
        kind = skill.get("kind")
        if kind in ("passive", "trigger", "awakening") and not skill.get("timing"):
            c.add(w, "timing", f"{kind} 技能需要 timing（发动时机）")
        c.timing(w, "timing", skill.get("timing"))
        c.expr(w, "condition", skill.get("condition"), names)
        c.expr(w, "target_filter", skill.get("target_filter"), names, allow_t=True)
        c.effects(w, "cost", skill.get("cost"), names)
        c.effects(w, "effect", skill.get("effect"), names)
        convert = skill.get("convert") or {}
        if isinstance(convert, dict):
            for a, b in convert.items():
                c.card_ref(w, f"convert.{brief(a)}", a)
                c.card_ref(w, f"convert.{brief(a)}", b)


def _check_characters_and_maps(c: Checker) -> None:
    for key, ch in c.characters.items():
        if isinstance(ch, dict):
            for s in ch.get("skills") or []:
                c.skill_ref(c.label("characters", key), "skills", s)
    for key, m in c.maps.items():
        if not isinstance(m, dict):
            continue
        w = c.label("maps", key)
        for n in m.get("players") or []:
            if not isinstance(n, int) or not 2 <= n <= 8:
                c.add(w, "players", f"人数「{brief(n)}」应在 2 到 8 之间")
        names = _declared(m)
        c.effects(w, "on_kill", m.get("on_kill"), names)
        c.effects(w, "on_kill_ally", m.get("on_kill_ally"), names)
