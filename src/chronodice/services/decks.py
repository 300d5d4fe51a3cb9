""".draw / .drawh / .deck: draw cards from the bundled decks and the deck files in ``<data dir>/decks/``.

The deck format (JSON or YAML, ``::N::`` weights, ``{%牌堆%}``/``{牌堆}`` references, ``[1d6]``
dice) is read by :mod:`chronodice.rules.decks`.  The files are read again when one of them is
added, removed or edited (checked by name, size and time at each command, no watcher), and a
bad file's problems are logged once per change and shown in ``.draw list`` — never a crash.
"""

from __future__ import annotations

import difflib
import logging
from pathlib import Path

from chronodice.core.args import Int, Word, arg, opt
from chronodice.core.commands import Call, define
from chronodice.core.reply import Reply
from chronodice.rules.decks import DeckError, DeckSet, Drawer, drawable, folder_signature, load_decks

from .hidden import hidden_result

log = logging.getLogger("chronodice.decks")

BUNDLED_DECKS = Path(__file__).resolve().parent.parent / "data" / "decks"
"""Our own small decks (塔罗牌, 扑克, 调查员职业, 随机事件); the data dir's files override them."""
MAX_DRAW = 10
LIST_NAMES = 80
"""Deck names ``.draw list`` shows before it only counts the rest."""
LIST_PROBLEMS = 10

_cache: dict[tuple[Path, ...], tuple[tuple[object, ...], DeckSet]] = {}
"""Per folder list: the signature the decks were read at and the decks."""


def deck_folders(call: Call) -> list[Path]:
    """Where decks come from, later ones winning: the bundled decks, then ``<data dir>/decks``."""
    return [BUNDLED_DECKS, call.app.data_dir.decks]


def current_decks(folders: list[Path]) -> DeckSet:
    """The decks in ``folders``, read again only when a file changed; problems go to the log."""
    key = tuple(folders)
    sig = folder_signature(folders)
    cached = _cache.get(key)
    if cached is not None and cached[0] == sig:
        return cached[1]
    decks = load_decks(folders)
    for problem in decks.problems:
        log.warning("牌堆文件有问题：%s", problem)
    _cache[key] = (sig, decks)
    return decks


def close_names(name: str, names: list[str]) -> list[str]:
    """Deck names a mistyped ``name`` may mean: containing it (or contained), then similar.

    >>> close_names("塔罗", ["扑克", "塔罗牌", "塔罗牌正逆"])
    ['塔罗牌', '塔罗牌正逆']
    """
    inside = [n for n in names if name in n or n in name]
    similar = difflib.get_close_matches(name, names, n=5, cutoff=0.5)
    return list(dict.fromkeys([*inside, *similar]))[:5]


DRAW_DETAIL = (
    "牌堆文件放在数据目录的 decks/ 里（SealDice / Dice! 通用的 json、yaml 格式），改动后自动重新读取\n"
    "一次抽多张时不放回；.drawh 结果私聊发给你"
)
DECK_NAME = arg("name", Word(label="牌堆名"))
COUNT = opt("n", Int(label="张数", min=1, max=MAX_DRAW), default=1)

draw = define("draw", summary="从牌堆抽牌，如 .draw 塔罗牌、.draw 扑克 3", detail=DRAW_DETAIL)
drawh = define("drawh", summary="暗抽：结果私聊发给你，群里只说抽了牌")


@draw.sub("list", "ls", help="列出可用的牌堆", when_empty=True)
async def draw_list(call: Call) -> list[Reply]:
    decks = current_decks(deck_folders(call))
    visible = decks.visible()
    names = [f"{d.name}({drawable(d)})" for d in visible[:LIST_NAMES]]
    lines = [f"可用牌堆（{len(visible)}个，括号内为张数）：" + ("、".join(names) or "（无）")]
    if len(visible) > LIST_NAMES:
        lines.append(f"……另有{len(visible) - LIST_NAMES}个未列出")
    if decks.problems:
        lines.append("以下牌堆文件有问题，已跳过：")
        lines += decks.problems[:LIST_PROBLEMS]
        if len(decks.problems) > LIST_PROBLEMS:
            lines.append(f"……另有{len(decks.problems) - LIST_PROBLEMS}处问题，见骰娘日志")
    return [Reply.say("\n".join(lines))]


deck = define("deck", summary="列出可用的牌堆（同 .draw list），或看一个牌堆有几张、来自哪个文件")


@deck.sub("list", "ls", help="列出可用的牌堆", when_empty=True)
async def deck_list(call: Call) -> list[Reply]:
    return await draw_list(call)


@deck.sub(params=[DECK_NAME], help="一个牌堆的张数和来源文件")
async def deck_info(call: Call, name: str) -> list[Reply]:
    decks = current_decks(deck_folders(call))
    found = decks.decks.get(name)
    if found is None or found.hidden:
        return [Reply.say(not_found(decks, name))]
    return [Reply.say(f"牌堆「{name}」：{drawable(found)}张，来自 {found.source}；.draw {name} 抽牌")]


def not_found(decks: DeckSet, name: str) -> str:
    """The line for a deck name that is not there, with the names it may mean."""
    line = f"没有牌堆「{name[:20]}」，发送 .draw list 查看"
    near = close_names(name, [d.name for d in decks.visible()])
    return line + (f"。相近的有：{'、'.join(near)}" if near else "")


@draw.sub(params=[DECK_NAME, COUNT], help=f"抽牌，一次最多{MAX_DRAW}张（不放回）")
async def cmd_draw(call: Call, name: str, n: int) -> list[Reply]:
    return [Reply.say(draw_text(call, name, n))]


@drawh.sub(params=[DECK_NAME, COUNT], help="暗抽，结果私聊")
async def cmd_drawh(call: Call, name: str, n: int) -> list[Reply]:
    decks = current_decks(deck_folders(call))
    deck = decks.decks.get(name)
    if deck is None or deck.hidden:
        return [Reply.say(draw_text(call, name, n))]  # the not-found line says nothing secret
    return hidden_result(call, draw_text(call, name, n), what="暗抽")


def draw_text(call: Call, name: str, n: int) -> str:
    """The reply to ``.draw name n``: the cards, or one line saying why not."""
    decks = current_decks(deck_folders(call))
    deck = decks.decks.get(name)
    if deck is None or deck.hidden:
        return not_found(decks, name)
    if n > drawable(deck):
        return f"牌堆「{name}」只有{drawable(deck)}张，一次最多抽{drawable(deck)}张"
    try:
        cards = Drawer(decks.decks, call.app.rng).draw(name, n)
    except DeckError as err:
        return f"牌堆「{name}」抽不出来：{err.message}"
    if n == 1:
        return f"{call.name} 从「{name}」中抽出了：{cards[0]}"
    body = "\n".join(f"{i}. {c}" for i, c in enumerate(cards, 1))
    return f"{call.name} 从「{name}」中抽出了{n}张：\n{body}"


__all__ = [
    "close_names",
    "current_decks",
    "deck",
    "deck_info",
    "deck_list",
    "draw",
    "draw_list",
    "drawh",
    "not_found",
]
