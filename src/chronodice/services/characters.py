"""Character-card helpers shared by every system's service: find, create, bind, attribute parsing."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from chronodice.core.args import Candidates, Kind, ParseEnv
from chronodice.core.context import Context
from chronodice.core.errors import AmbiguousInput, IllegalAction, InputSyntaxError, NotFound
from chronodice.dice import DiceError, Expr, Num, parse
from chronodice.store import CharacterRecord, Claim, Store

MAX_NAME = 20
MAX_ATTRS = 200
MAX_VALUE = 10**9
MAX_FORMULA = 60
"""Characters of a formula attribute's dice expression (``&手枪=1d10``)."""
ST_USAGE = ".st 属性名数值（如 .st 力量60敏捷50 意志:40；公式：.st &手枪=1d10）"

Pair = tuple[str, str | None, int | str]
"""``(name, op, value)``: ``op`` ``+``/``-`` changes, ``None`` sets; a ``str`` value is a formula."""

_NAME_CHAR = r"[^\d\s:=+\-,;、|/*()]"
_PAIR = re.compile(rf"(?<!{_NAME_CHAR})({_NAME_CHAR}+?)\s*(?:([:=])\s*)?(?:([+\-])\s*)?(\d+)")
"""``名字 [:=] [±] 数字``, linear in the text (issue 23: a message must not freeze the bot).

A pair starts only where a run of name characters starts (the look-behind: a later start in
the same run would reach the same end and fail the same way), and every whitespace run belongs
to exactly one ``\\s*`` (``[:=]`` and ``±`` carry their own trailing space), so a failed pair
costs the length of its name and the spaces after it, not their cube.  It finds exactly the
pairs of the earlier ``([^…]+?)\\s*([:=])?\\s*([+\\-])?\\s*(\\d+)``."""
_BAD_NAME = re.compile(r"[\s\d:=+\-,;、|/*()@#$%^&\\<>\"'`]")
_FORMULA = re.compile(r"&([^\s&=:：]*)(?:\s*[=:：]\s*([^\s&]*))?")
"""``&名字=公式`` up to the next space or ``&``; it always matches at an ``&`` (the ``=公式`` part
is optional, so a missing one is named in the error), each run stops where the next part
starts, and the spaces a failed ``=`` gives back belong to this ``&`` only: linear."""
_EXPORTABLE = re.compile(rf"{_NAME_CHAR}+")


def check_name(name: str, what: str = "名字") -> str:
    """Validate a character or attribute name: 1–20 visible characters, no digits or operators."""
    name = name.strip()
    if not name:
        raise InputSyntaxError(f"{what}不能为空")
    if len(name) > MAX_NAME:
        raise InputSyntaxError(f"{what}太长（最多{MAX_NAME}个字）")
    if not name.isprintable():
        raise InputSyntaxError(f"{what}含有不可见字符")
    return name


def _shown(text: str) -> str:
    """``text`` as an error quotes it: each run of spaces or newlines as one space, 20 characters.

    >>> _shown("k" + "\\n" * 30 + "x")
    'k x'
    """
    return " ".join(text.split())[:20]


def parse_attribute_pairs(text: str, *, formulas: bool = True) -> list[Pair]:
    """Parse ``力量60敏捷50 意志:40 体力+5 &手枪=1d10`` into ``(name, op, value)``.

    ``op`` is ``"+"``/``"-"`` for a change (``体力+5``), ``None`` for setting; ``&名字=公式`` (as
    SealDice writes it) sets a formula attribute, its value the canonical dice text, which
    ``.r 名字`` rolls (:func:`dice_variables`).  The text is read once, left to right.

    >>> parse_attribute_pairs("力量60 &手枪=1D10+2 敏捷50")
    [('力量', None, 60), ('手枪', None, '1d10+2'), ('敏捷', None, 50)]
    >>> parse_attribute_pairs("&手枪")
    Traceback (most recent call last):
    ...
    chronodice.core.errors.InputSyntaxError: 「&手枪」缺少公式（公式属性写作 &名字=公式，如 &手枪=1d10）
    """
    text = text.replace("＆", "&")
    if "&" not in text:
        return _plain_pairs(text)
    pairs: list[Pair] = []
    pos = 0
    for m in _FORMULA.finditer(text):
        if not formulas:
            raise InputSyntaxError(
                f"「{_shown(m.group(0))}」：这里只能录数值，公式属性（&名字=公式）用 .st 录入"
            )
        gap = text[pos : m.start()]
        if gap.strip(" ,;、|"):
            pairs += _plain_pairs(gap)
        pairs.append(_formula_pair(m.group(0), m.group(1), m.group(2) or ""))
        pos = m.end()
    if text[pos:].strip(" ,;、|"):
        pairs += _plain_pairs(text[pos:])
    return pairs


def _formula_pair(whole: str, name: str, expr: str) -> Pair:
    """One ``&名字=公式``: the name checked, the formula parsed (a plain number is stored as one)."""
    shown = _shown(whole)
    form = "公式属性写作 &名字=公式，如 &手枪=1d10"
    if not name:
        raise InputSyntaxError(f"「{shown}」缺少属性名（{form}）", usage=ST_USAGE)
    if not expr:
        raise InputSyntaxError(f"「{shown}」缺少公式（{form}）", usage=ST_USAGE)
    name = check_name(name, "属性名")
    if _BAD_NAME.search(name):
        raise InputSyntaxError(f"「{_shown(name)}」不能作属性名（不能含数字或符号）", usage=ST_USAGE)
    if len(expr) > MAX_FORMULA:
        raise InputSyntaxError(f"「{name}」的公式太长（最多{MAX_FORMULA}个字符）", usage=ST_USAGE)
    try:
        tree = parse(expr)
    except DiceError as err:
        raise InputSyntaxError(
            f"「{shown}」的公式不是有效的掷骰表达式：{err.message}", usage=ST_USAGE
        ) from None
    if isinstance(tree, Num):
        if abs(tree.value) > MAX_VALUE:
            raise InputSyntaxError(f"「{name}」的数值太大（绝对值最多{MAX_VALUE}）")
        return (name, None, tree.value)
    return (name, None, str(tree))


def _plain_pairs(text: str) -> list[Pair]:
    """``力量60敏捷50 意志:40 体力+5`` (no formulas) into ``(name, op, value)``.

    >>> parse_attribute_pairs("力量60敏捷50 意志:40,体力+5 魔力-2 幸运:-3")
    [('力量', None, 60), ('敏捷', None, 50), ('意志', None, 40), ('体力', '+', 5), ('魔力', '-', 2), ('幸运', None, -3)]
    >>> parse_attribute_pairs("hp10mp12")
    [('hp', None, 10), ('mp', None, 12)]
    >>> parse_attribute_pairs("伤害1d6")
    Traceback (most recent call last):
    ...
    chronodice.core.errors.InputSyntaxError: 「伤害1d6」：属性值只能是整数（公式写作 &伤害=1d6）
    """
    pairs: list[Pair] = []
    pos = 0
    text = text.strip()
    for m in _PAIR.finditer(text):
        after = text[m.end() : m.end() + 2]
        if after[:1] in ("d", "D", ".") and after[1:2].isascii() and after[1:2].isdigit():
            word = text[m.start() : m.end() + 8].split()[0] if text[m.start() :].split() else ""
            formula = word[len(m.group(1)) :].lstrip(":=")
            raise InputSyntaxError(
                f"「{word[:20]}」：属性值只能是整数（公式写作 &{m.group(1)[:20]}={formula}）",
                usage=ST_USAGE,
            )
        gap = text[pos : m.start()].strip(" ,;、|")
        if gap:
            raise InputSyntaxError(f"无法理解「{_shown(gap)}」", usage=ST_USAGE)
        name, sep, op, digits = m.group(1), m.group(2), m.group(3), m.group(4)
        if len(digits) > 10:
            raise InputSyntaxError(f"「{name}」的数值太大（绝对值最多{MAX_VALUE}）")
        value = int(digits)
        if sep and op == "-":
            value, op = -value, None
        elif sep and op == "+":
            op = None
        if value > MAX_VALUE:
            raise InputSyntaxError(f"「{name}」的数值太大（绝对值最多{MAX_VALUE}）")
        pairs.append((check_name(name, "属性名"), op, value))
        pos = m.end()
    rest = text[pos:].strip(" ,;、|")
    if rest:
        raise InputSyntaxError(f"「{_shown(rest)}」缺少数值", usage=ST_USAGE)
    if not pairs:
        raise InputSyntaxError("没有找到属性和数值", usage=ST_USAGE)
    return pairs


def apply_pairs(attrs: dict[str, Any], pairs: list[Pair]) -> dict[str, Any]:
    """Apply parsed pairs to a copy of ``attrs``; raises when the card would grow too big."""
    out = dict(attrs)
    for name, op, value in pairs:
        if op is None:
            out[name] = value
        else:
            old = out.get(name, 0)
            if not isinstance(old, int | float) or not isinstance(value, int):
                raise IllegalAction(f"「{name}」不是数值，不能加减")
            new = old + value if op == "+" else old - value
            if abs(new) > MAX_VALUE:
                raise IllegalAction(f"「{name}」的结果超出范围")
            out[name] = new
    if len(out) > MAX_ATTRS:
        raise IllegalAction(f"一张角色卡最多{MAX_ATTRS}个属性")
    return out


async def resolve_character(store: Store, ctx: Context, ref: str) -> CharacterRecord:
    """Find one of the sender's characters by name or by its 1-based number in ``.pc list``."""
    chars = await store.characters.list_characters(ctx.user_id)
    ref = ref.strip()
    if ref.isascii() and ref.isdigit():  # not ``²`` or ``①``: isdigit() takes them, int() does not
        idx = int(ref)
        if 1 <= idx <= len(chars):
            return chars[idx - 1]
    exact = [c for c in chars if c.name == ref]
    if exact:
        return exact[0]
    partial = [c for c in chars if ref and ref in c.name]
    if len(partial) == 1:
        return partial[0]
    if len(partial) > 1:
        raise AmbiguousInput("有多个角色匹配：" + "、".join(c.name for c in partial[:10]))
    raise NotFound(f"没有找到角色「{ref[:20]}」，用 .pc list 查看你的角色")


async def active_or_create(
    store: Store, ctx: Context, default_name: str, system: str = "generic", *, claim: Claim | None
) -> CharacterRecord:
    """The active character, or a new one named after the user, bound here and as default
    (``claim``: the command's, see :class:`~chronodice.store.Claim`)."""
    char = await store.characters.active_character(ctx.user_id, ctx.scope)
    if char is not None:
        return char
    name = check_name(default_name[:MAX_NAME] or ctx.user_id, "名字")
    existing = await store.characters.find_character(ctx.user_id, name)
    if existing is None:
        try:
            existing = await store.characters.create_character(ctx.user_id, name, system=system, claim=claim)
        except IllegalAction:
            existing = await store.characters.find_character(ctx.user_id, name)
            if existing is None:
                raise
    await bind_here(store, ctx, existing.id, claim=claim)
    return existing


async def bind_here(store: Store, ctx: Context, character_id: int, *, claim: Claim | None) -> None:
    """Bind in this scope, and as the user's default if they have none yet."""
    await store.characters.bind(ctx.user_id, ctx.scope, character_id, claim=claim)
    if await store.characters.active_character(ctx.user_id, None) is None:
        await store.characters.bind(ctx.user_id, "", character_id, claim=claim)


def numeric_attributes(char: CharacterRecord | None) -> dict[str, int]:
    """The integer attributes of a character, for dice expressions."""
    if char is None:
        return {}
    return {
        k: int(v)
        for k, v in char.attributes.items()
        if isinstance(v, int | float) and not isinstance(v, bool)
    }


SYSTEM_VARIABLES: dict[str, Callable[[CharacterRecord], dict[str, int]]] = {}
"""Per card system, the names its rules add to dice expressions (a DnD5e card: ``dex`` = the DEX
modifier, ``熟练`` the proficiency bonus); a service registers its system's on import."""


def dice_variables(char: CharacterRecord | None) -> dict[str, int | Expr]:
    """What ``.r`` may name: the integer attributes and the formula attributes (parsed), so
    ``.r 手枪`` rolls the ``1d10`` of ``.st &手枪=1d10``.  A formula that no longer parses is left out.
    A card of a system in :data:`SYSTEM_VARIABLES` adds (and overrides with) its rules' names."""
    out: dict[str, int | Expr] = dict(numeric_attributes(char))
    if char is not None:
        for k, v in char.attributes.items():
            if isinstance(v, str) and len(v) <= MAX_FORMULA:
                try:
                    out[k] = parse(v)
                except DiceError:
                    continue
        extra = SYSTEM_VARIABLES.get(char.system)
        if extra is not None:
            out.update(extra(char))
    return out


def attr_text(name: str, value: object) -> str:
    """One attribute as ``.st show`` lists it: ``力量:60``, a formula as ``&手枪=1d10``.

    >>> attr_text("力量", 60), attr_text("手枪", "1d10")
    ('力量:60', '&手枪=1d10')
    """
    return f"&{name}={value}" if isinstance(value, str) else f"{name}:{value}"


def st_lines(attrs: dict[str, Any], limit: int = 1200) -> tuple[list[str], list[str]]:
    """The card as ``.st`` lines that read back to the same attributes (SealDice's ``.st
    export``), each at most ``limit`` characters, and the names no ``.st`` line can hold
    (digits or symbols in the name, a fraction).  Numbers glue (``力量60敏捷50``; a Latin name
    after a space, so ``60d`` never reads as dice), negative ones as ``幸运:-3``, formulas last.

    >>> st_lines({"力量": 60, "str": 12, "幸运": -3, "手枪": "1d10", "2号": 1})
    (['.st 力量60 str12幸运:-3 &手枪=1d10'], ['2号'])
    >>> st_lines({"手枪": "1d10"})
    (['.st &手枪=1d10'], [])
    """
    items: list[str] = []
    formulas: list[str] = []
    skipped: list[str] = []
    for name, value in attrs.items():
        if not _EXPORTABLE.fullmatch(name) or len(name) > MAX_NAME or "&" in name or "＆" in name:
            skipped.append(name)
        elif isinstance(value, str) and value and not any(c.isspace() or c == "&" for c in value):
            formulas.append(f"&{name}={value}")
        elif isinstance(value, int | float) and not isinstance(value, bool) and value == int(value):
            n = int(value)
            items.append(f"{name}{n}" if n >= 0 else f"{name}:{n}")
        else:
            skipped.append(name)
    lines: list[str] = []
    line = ".st "
    for item in items + formulas:
        sep = " " if item[0].isascii() and line != ".st " else ""
        if len(line) + len(sep) + len(item) > limit and line != ".st ":
            lines.append(line)
            line, sep = ".st ", ""
        line += sep + item
    if line != ".st ":
        lines.append(line)
    return lines, skipped


def with_attributes(char: CharacterRecord, attrs: dict[str, Any]) -> CharacterRecord:
    return replace(char, attributes=attrs)


@dataclass(frozen=True)
class AttributePairs(Kind):
    """``力量60敏捷50 意志:40 体力-5`` to the end: a list of ``(name, op, value)`` (see
    :func:`parse_attribute_pairs`, whose positioned errors reach the player).  ``formulas``:
    ``&手枪=1d10`` allowed (``.st``; cards other commands read stay numbers)."""

    label: str = "属性名数值"
    glue: bool = False
    formulas: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        if text[pos:].strip():
            yield parse_attribute_pairs(text[pos:], formulas=self.formulas), len(text)
