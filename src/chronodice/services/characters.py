"""Character-card helpers shared by every system's service: find, create, bind, attribute parsing."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from chronodice.core.args import Candidates, Kind, ParseEnv
from chronodice.core.context import Context
from chronodice.core.errors import AmbiguousInput, IllegalAction, InputSyntaxError, NotFound
from chronodice.store import CharacterRecord, Claim, Store

MAX_NAME = 20
MAX_ATTRS = 200
MAX_VALUE = 10**9

_NAME_CHAR = r"[^\d\s:=+\-,;、|/*()]"
_PAIR = re.compile(rf"(?<!{_NAME_CHAR})({_NAME_CHAR}+?)\s*(?:([:=])\s*)?(?:([+\-])\s*)?(\d+)")
"""``名字 [:=] [±] 数字``, linear in the text (issue 23: a message must not freeze the bot).

A pair starts only where a run of name characters starts (the look-behind: a later start in
the same run would reach the same end and fail the same way), and every whitespace run belongs
to exactly one ``\\s*`` (``[:=]`` and ``±`` carry their own trailing space), so a failed pair
costs the length of its name and the spaces after it, not their cube.  It finds exactly the
pairs of the earlier ``([^…]+?)\\s*([:=])?\\s*([+\\-])?\\s*(\\d+)``."""
_BAD_NAME = re.compile(r"[\s\d:=+\-,;、|/*()@#$%^&\\<>\"'`]")


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


def parse_attribute_pairs(text: str) -> list[tuple[str, str | None, int]]:
    """Parse ``力量60敏捷50 意志:40 体力+5`` into ``(name, op, value)``.

    ``op`` is ``"+"``/``"-"`` for a change (``体力+5``), ``None`` for setting.

    >>> parse_attribute_pairs("力量60敏捷50 意志:40,体力+5 魔力-2 幸运:-3")
    [('力量', None, 60), ('敏捷', None, 50), ('意志', None, 40), ('体力', '+', 5), ('魔力', '-', 2), ('幸运', None, -3)]
    >>> parse_attribute_pairs("hp10mp12")
    [('hp', None, 10), ('mp', None, 12)]
    >>> parse_attribute_pairs("伤害1d6")
    Traceback (most recent call last):
    ...
    chronodice.core.errors.InputSyntaxError: 「伤害1d6」：属性值只能是整数（不能是表达式或小数）
    """
    pairs: list[tuple[str, str | None, int]] = []
    pos = 0
    text = text.strip()
    for m in _PAIR.finditer(text):
        after = text[m.end() : m.end() + 2]
        if after[:1] in ("d", "D", ".") and after[1:2].isascii() and after[1:2].isdigit():
            word = text[m.start() : m.end() + 8].split()[0] if text[m.start() :].split() else ""
            raise InputSyntaxError(
                f"「{word[:20]}」：属性值只能是整数（不能是表达式或小数）",
                usage=".st 属性名数值（如 .st 力量60敏捷50 意志:40）",
            )
        gap = text[pos : m.start()].strip(" ,;、|")
        if gap:
            raise InputSyntaxError(
                f"无法理解「{_shown(gap)}」", usage=".st 属性名数值（如 .st 力量60敏捷50 意志:40）"
            )
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
        raise InputSyntaxError(
            f"「{_shown(rest)}」缺少数值", usage=".st 属性名数值（如 .st 力量60敏捷50 意志:40）"
        )
    if not pairs:
        raise InputSyntaxError("没有找到属性和数值", usage=".st 属性名数值（如 .st 力量60敏捷50 意志:40）")
    return pairs


def apply_pairs(attrs: dict[str, Any], pairs: list[tuple[str, str | None, int]]) -> dict[str, Any]:
    """Apply parsed pairs to a copy of ``attrs``; raises when the card would grow too big."""
    out = dict(attrs)
    for name, op, value in pairs:
        if op is None:
            out[name] = value
        else:
            old = out.get(name, 0)
            if not isinstance(old, int | float):
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
    chars = await store.list_characters(ctx.user_id)
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
    char = await store.active_character(ctx.user_id, ctx.scope)
    if char is not None:
        return char
    name = check_name(default_name[:MAX_NAME] or ctx.user_id, "名字")
    existing = await store.find_character(ctx.user_id, name)
    if existing is None:
        try:
            existing = await store.create_character(ctx.user_id, name, system=system, claim=claim)
        except IllegalAction:
            existing = await store.find_character(ctx.user_id, name)
            if existing is None:
                raise
    await bind_here(store, ctx, existing.id, claim=claim)
    return existing


async def bind_here(store: Store, ctx: Context, character_id: int, *, claim: Claim | None) -> None:
    """Bind in this scope, and as the user's default if they have none yet."""
    await store.bind(ctx.user_id, ctx.scope, character_id, claim=claim)
    if await store.active_character(ctx.user_id, None) is None:
        await store.bind(ctx.user_id, "", character_id, claim=claim)


def numeric_attributes(char: CharacterRecord | None) -> dict[str, int]:
    """The integer attributes of a character, for dice expressions."""
    if char is None:
        return {}
    return {
        k: int(v)
        for k, v in char.attributes.items()
        if isinstance(v, int | float) and not isinstance(v, bool)
    }


def with_attributes(char: CharacterRecord, attrs: dict[str, Any]) -> CharacterRecord:
    return replace(char, attributes=attrs)


@dataclass(frozen=True)
class AttributePairs(Kind):
    """``力量60敏捷50 意志:40 体力-5`` to the end: a list of ``(name, op, value)`` (see
    :func:`parse_attribute_pairs`, whose positioned errors reach the player)."""

    label: str = "属性名数值"
    glue: bool = False

    def candidates(self, text: str, pos: int, env: ParseEnv) -> Candidates:
        if text[pos:].strip():
            yield parse_attribute_pairs(text[pos:]), len(text)
