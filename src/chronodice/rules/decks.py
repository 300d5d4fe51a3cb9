"""Decks for ``.draw``: reading the deck files SealDice and Dice! users share, and drawing.

A deck file maps deck names to lists of items (cards)::

    {"塔罗牌": ["愚者", "魔术师"], "_隐藏": ["只能被引用"], "抽两次": ["{%塔罗牌%}和{塔罗牌}"]}

in JSON, or the same mapping in YAML.  What an item may contain (the Dice! conventions that
SealDice also reads):

* ``::N::文本`` at the start — ``N`` copies of the item (0–10000; default 1): it comes up ``N``
  times as often, and a draw of several cards may take up to ``N`` of them (``::0::`` never);
* ``{%牌堆名}`` or ``{%牌堆名%}`` — one item of that deck, drawn *with* replacement;
* ``{牌堆名}`` — one item drawn *without* replacement within this draw (a deck used up this way
  is shuffled back);
* ``[1d6+2]`` — a dice expression, replaced by its total.

An item that is nothing but one reference (``::52::{%扑克%}``: the 52 cards of 扑克, as SealDice
decks write a deck with jokers) stands for that deck's cards: a draw of several cards takes them
without replacement too, so ``.draw 扑克含王 5`` gives five different cards of the 54.

Names starting with ``_`` are hidden: they can be referenced but not drawn or listed.  Keys whose
value is not a list (``_title``, ``name``, ``author`` …) are metadata and ignored.  A reference
to an unknown deck and a bracket that is not a dice expression stay as written.  Expansion stops
with :class:`DeckError` past :data:`MAX_DEPTH` nested references, past :data:`MAX_STEPS`
references and dice in one draw, past :data:`MAX_TEXT` characters, or when a deck is met again
inside its own expansion (a cycle).

>>> import random
>>> decks, problems = decks_from_data({"门": ["::3::木门", "铁门"], "房": ["{%门%}后有[1d1+1]只猫"]}, "x.json")
>>> problems, decks["门"].cards
([], (Card(text='木门', weight=3), Card(text='铁门', weight=1)))
>>> Drawer(decks, random.Random(1)).draw("房", 1)
['木门后有2只猫']
"""

from __future__ import annotations

import json
import random
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chronodice.dice import DiceError, evaluate, parse
from chronodice.rules.moe.packyaml import PackError, parse_yaml

MAX_DECK_BYTES = 1_000_000
"""A deck file larger than this is refused unread."""
MAX_DEPTH = 10
"""References nested deeper than this stop the draw."""
MAX_STEPS = 500
"""References and dice expanded in one draw."""
MAX_TEXT = 3000
"""Characters one drawn card may grow to."""
MAX_ITEM = 2000
"""Characters one item may have in a file (longer items are skipped with a problem)."""
MAX_NAME = 40
"""Characters a deck name may have."""
MAX_WEIGHT = 10000
DECK_SUFFIXES = (".json", ".yaml", ".yml")

_WEIGHT = re.compile(r"::([0-9]{1,6})::")
_TOKEN = re.compile(r"\{(%?)([^{}%\n]{1,40})%?\}|\[([0-9dD%+\-*/() kKqQ!#a]{1,40})\]")
"""One reference or one dice bracket; every alternative is bounded, so a scan is linear."""


class DeckError(Exception):
    """A draw that cannot finish (too deep, too long, a cycle): ``message`` is for the player."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Card:
    """One item of a deck: its text (references unexpanded) and its weight."""

    text: str
    weight: int = 1


@dataclass(frozen=True)
class Deck:
    """A named list of cards and the file it came from (for ``.draw list``)."""

    name: str
    cards: tuple[Card, ...]
    source: str

    @property
    def hidden(self) -> bool:
        """Dice!'s convention: ``_名字`` can be referenced, not drawn or listed."""
        return self.name.startswith("_")


def parse_item(raw: str) -> Card:
    """An item with its ``::N::`` weight prefix read off.

    >>> parse_item("::5::金币"), parse_item("铜币"), parse_item("::0::空")
    (Card(text='金币', weight=5), Card(text='铜币', weight=1), Card(text='空', weight=0))
    """
    m = _WEIGHT.match(raw)
    if m is None:
        return Card(raw)
    return Card(raw[m.end() :], min(int(m.group(1)), MAX_WEIGHT))


def decks_from_data(data: Any, file: str) -> tuple[dict[str, Deck], list[str]]:
    """The decks of one parsed file and its problems (one line each, naming ``file``)."""
    if not isinstance(data, Mapping):
        return {}, [f'{file}：顶层应为 {{"牌堆名": ["项1", "项2"]}} 这样的映射']
    decks: dict[str, Deck] = {}
    problems: list[str] = []
    for key, value in data.items():
        if not isinstance(value, list):
            continue  # metadata: name / author / version / _title …
        name = str(key).strip()
        if not name or len(name) > MAX_NAME or any(c.isspace() for c in name):
            problems.append(f"{file}：牌堆名「{name[:20]}」不能为空、含空格或超过{MAX_NAME}字，已跳过")
            continue
        cards: list[Card] = []
        for item in value:
            if isinstance(item, bool) or not isinstance(item, str | int | float):
                problems.append(f"{file}：牌堆「{name}」有一项不是文字，已跳过")
                continue
            text = str(item)
            if len(text) > MAX_ITEM:
                problems.append(f"{file}：牌堆「{name}」有一项超过{MAX_ITEM}字，已跳过")
                continue
            cards.append(parse_item(text))
        if not any(c.weight > 0 for c in cards):
            problems.append(f"{file}：牌堆「{name}」是空的，已跳过")
            continue
        decks[name] = Deck(name, tuple(cards), file)
    if not decks and not problems:
        problems.append(f'{file}：没有牌堆（应为 {{"牌堆名": ["项1", "项2"]}}）')
    return decks, problems


def read_deck_file(path: Path) -> tuple[dict[str, Deck], list[str]]:
    """One deck file (JSON, or YAML through the 萌E pack reader with its alias budget)."""
    file = path.name
    try:
        if not path.is_file():
            return {}, [f"{file}：不是普通文件，已跳过"]
        with path.open("rb") as f:
            raw = f.read(MAX_DECK_BYTES + 1)
        if len(raw) > MAX_DECK_BYTES:
            return {}, [f"{file}：文件超过 {MAX_DECK_BYTES // 1000} kB，未读取"]
        text = raw.decode("utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        return {}, [f"{file}：无法读取（{exc.__class__.__name__}，请用 UTF-8 编码保存）"]
    if path.suffix.lower() == ".json":
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            return {}, [f"{file}：JSON 格式错误（第{exc.lineno}行：{exc.msg}）"]
        except RecursionError:
            return {}, [f"{file}：JSON 嵌套过深，已拒绝"]
    else:
        try:
            data = parse_yaml(text, file)
        except PackError as exc:
            return {}, [str(p) for p in exc.problems[:1]]
    return decks_from_data(data, file)


@dataclass
class DeckSet:
    """Every loaded deck by name (later folders override earlier ones) and the files' problems."""

    decks: dict[str, Deck] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def visible(self) -> list[Deck]:
        """The decks a player may draw, in load order."""
        return [d for d in self.decks.values() if not d.hidden]


def load_decks(folders: list[Path]) -> DeckSet:
    """Read every ``*.json``/``*.yaml``/``*.yml`` in ``folders`` (missing folders are skipped)."""
    out = DeckSet()
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.suffix.lower() not in DECK_SUFFIXES:
                continue
            decks, problems = read_deck_file(path)
            out.decks.update(decks)
            out.problems.extend(problems)
    return out


def folder_signature(folders: list[Path]) -> tuple[object, ...]:
    """What changes when a deck file is added, removed or edited (for a reload check)."""
    sig: list[object] = []
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            if path.suffix.lower() in DECK_SUFFIXES:
                try:
                    st = path.stat()
                except OSError:
                    continue
                sig.append((str(path), st.st_mtime_ns, st.st_size))
    return tuple(sig)


class Drawer:
    """One draw: picks cards with ``rng`` and expands their references and dice."""

    def __init__(self, decks: Mapping[str, Deck], rng: random.Random) -> None:
        self.decks = decks
        self.rng = rng
        self.steps = 0
        self.used: dict[str, dict[int, int]] = {}
        """Per deck, per card: the copies taken without replacement in this draw."""

    def draw(self, name: str, n: int) -> list[str]:
        """``n`` different cards (copies) of deck ``name``, expanded (``n`` ≤ :func:`drawable`)."""
        out: list[str] = []
        for _ in range(n):
            text = self.decks[name].cards[self.pick(name, fresh=True)].text
            ref = _TOKEN.fullmatch(text)
            target = ref.group(2).strip() if ref is not None and ref.group(2) is not None else ""
            if target in self.decks:  # a stand-in for that deck's cards: no repeats either
                out.append(self._reference(target, [name], fresh=True))
            else:
                out.append(self.expand(text, [name]))
        return out

    def pick(self, name: str, *, fresh: bool) -> int:
        """The index of a card by weight; ``fresh``: one of the copies not yet taken in this draw."""
        cards = self.decks[name].cards
        taken = self.used.setdefault(name, {}) if fresh else {}
        left = [max(c.weight - taken.get(i, 0), 0) for i, c in enumerate(cards)]
        total = sum(left)
        if total <= 0:  # used up by {名} references: shuffled back
            taken.clear()
            left = [max(c.weight, 0) for c in cards]
            total = sum(left)
        roll = self.rng.randrange(total)
        for i, weight in enumerate(left):
            roll -= weight
            if roll < 0:
                if fresh:
                    taken[i] = taken.get(i, 0) + 1
                return i
        raise AssertionError("weights changed during a pick")  # pragma: no cover

    def expand(self, text: str, chain: list[str]) -> str:
        """``text`` with its references and dice replaced; ``chain``: the decks being expanded."""
        if len(chain) > MAX_DEPTH:
            raise DeckError(f"牌堆引用超过{MAX_DEPTH}层（{'→'.join(chain[:4])}→…），已停止")
        parts: list[str] = []
        size = 0
        last = 0
        for m in _TOKEN.finditer(text):
            piece = self._token(m, chain)
            if piece is None:
                continue
            parts.append(text[last : m.start()])
            parts.append(piece)
            size += m.start() - last + len(piece)
            last = m.end()
            if size > MAX_TEXT:
                raise DeckError(f"抽出的内容超过{MAX_TEXT}字，已停止")
        parts.append(text[last:])
        out = "".join(parts)
        if len(out) > MAX_TEXT:
            raise DeckError(f"抽出的内容超过{MAX_TEXT}字，已停止")
        return out

    def _token(self, m: re.Match[str], chain: list[str]) -> str | None:
        """The text for one ``{…}`` or ``[…]`` match; ``None``: leave it as written."""
        if m.group(3) is not None:
            return self._dice(m.group(3))
        name = m.group(2).strip()
        if name not in self.decks:
            return None
        return self._reference(name, chain, fresh=not m.group(1))

    def _reference(self, name: str, chain: list[str], *, fresh: bool) -> str:
        """One card of deck ``name`` expanded, referenced from the decks in ``chain``."""
        self._step()
        if name in chain:
            raise DeckError(f"牌堆循环引用（{'→'.join([*chain, name])}），已停止")
        index = self.pick(name, fresh=fresh)
        return self.expand(self.decks[name].cards[index].text, [*chain, name])

    def _dice(self, expr: str) -> str | None:
        try:
            tree = parse(expr.strip())
        except DiceError:
            return None
        self._step()
        try:
            return str(evaluate(tree, self.rng).value)
        except DiceError:
            return None

    def _step(self) -> None:
        self.steps += 1
        if self.steps > MAX_STEPS:
            raise DeckError(f"一次抽牌展开超过{MAX_STEPS}次引用或掷骰，已停止")


def drawable(deck: Deck) -> int:
    """How many cards one draw of ``deck`` can give: its copies (``::N::`` counts ``N``; 0 never)."""
    return sum(c.weight for c in deck.cards if c.weight > 0)


__all__ = [
    "MAX_DEPTH",
    "MAX_STEPS",
    "Card",
    "Deck",
    "DeckError",
    "DeckSet",
    "Drawer",
    "decks_from_data",
    "drawable",
    "folder_signature",
    "load_decks",
    "parse_item",
    "read_deck_file",
]
