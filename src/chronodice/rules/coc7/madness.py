"""``.ti`` / ``.li``: the two 1d10 bouts-of-madness tables of CoC 7th (rule book: "real time"
and "summary" symptoms), worded for ChronoDice.  A real-time bout lasts 1d10 rounds, a summary
bout 1d10 hours.  Phobias and manias are named by the Keeper (the rule book's 1d100 lists are not
reproduced); the reply gives the 1d100 to look up.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

REAL_TIME: tuple[str, ...] = (
    "失忆：调查员只记得上一处安全的地方，之后发生的事一片空白，持续{d}轮。",
    "假性残疾：调查员因心理原因失明、失聪或某处肢体无法动弹，持续{d}轮。",
    "暴力倾向：调查员失控地攻击身边的人，不分敌友，持续{d}轮。",
    "偏执：调查员坚信所有人都在算计自己，谁也不信，持续{d}轮。",
    "重要之人：调查员把在场某人当成自己背景里的重要之人，并据此行事，持续{d}轮。",
    "昏厥：调查员当场晕倒，{d}轮后醒来。",
    "惊慌逃窜：调查员不顾一切地逃离，哪怕要抢走交通工具，持续{d}轮。",
    "情绪失控：调查员大哭、狂笑或尖叫，无法做别的事，持续{d}轮。",
    "恐惧症：调查员突然患上一种恐惧症（1d100={x}，由KP决定具体种类），即使恐惧源不在场也以为它就在眼前，持续{d}轮。",
    "躁狂症：调查员突然患上一种躁狂症（1d100={x}，由KP决定具体种类），一心只想满足它，持续{d}轮。",
)

SUMMARY: tuple[str, ...] = (
    "失忆：{d}小时后调查员回过神来，身处陌生的地方，连自己是谁都记不清，记忆会慢慢恢复。",
    "被窃：{d}小时后调查员醒来，身上值钱的东西不见了（若带着珍贵物品，进行幸运检定决定是否保住）。",
    "遍体鳞伤：{d}小时后调查员清醒过来，浑身是伤，体力只剩一半（不造成重伤），东西没有丢。",
    "暴力冲动：调查员在{d}小时里发泄暴力，伤人毁物；事后是否记得、伤了谁由KP决定。",
    "极端信念：调查员在{d}小时里以最极端的方式践行自己背景中的某条思想或信念。",
    "重要之人：调查员在{d}小时里不顾一切地去接近背景中的某位重要之人。",
    "被收容：调查员在{d}小时后发现自己身处精神病院或警局拘留室，慢慢想起发生了什么。",
    "惊慌逃窜：调查员醒来时已在很远的地方，可能在荒野、车站或长途汽车上，过去了{d}小时。",
    "恐惧症：调查员患上一种新的恐惧症（1d100={x}，由KP决定具体种类），{d}小时后回过神来，正在设法躲开恐惧源。",
    "躁狂症：调查员患上一种新的躁狂症（1d100={x}，由KP决定具体种类），{d}小时里沉溺其中。",
)


@dataclass(frozen=True)
class Bout:
    kind: str
    """``"ti"`` (real time, rounds) or ``"li"`` (summary, hours)."""
    entry: int
    """1–10: the row of the table."""
    duration: int
    """1d10: rounds (``ti``) or hours (``li``)."""
    extra: int
    """1d100 for a phobia or mania (rows 9 and 10), rolled always so the dice count is fixed."""

    @property
    def text(self) -> str:
        table = REAL_TIME if self.kind == "ti" else SUMMARY
        return table[self.entry - 1].format(d=self.duration, x=self.extra)


def roll_bout(rng: random.Random, kind: str) -> Bout:
    """Roll one bout of madness: 1d10 row, 1d10 duration, 1d100 for a phobia/mania."""
    if kind not in ("ti", "li"):
        raise ValueError(kind)
    entry = rng.randint(1, 10)
    duration = rng.randint(1, 10)
    extra = rng.randint(1, 100)
    return Bout(kind=kind, entry=entry, duration=duration, extra=extra)


__all__ = ["REAL_TIME", "SUMMARY", "Bout", "roll_bout"]
