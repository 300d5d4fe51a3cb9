"""The 5e combat a group runs (one session per group, system ``dnd5e_init``): loading and
changing it, and what the group and the DM read of it.

What the group reads never names a hidden entry nor shows a monster's numbers beyond the DM's
choice (:data:`~chronodice.rules.dnd5e.initiative.HP_VIEWS`); the DM gets the whole picture
privately (:func:`dm_whisper`).  ``.undo`` of a command in a combat with a hidden entry tells
only the undoer what it undid (:data:`~chronodice.services.common.UNDO_HIDDEN`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chronodice.core.commands import Call
from chronodice.core.reply import Reply
from chronodice.rules.dnd5e.initiative import Entry, Tracker, TurnEvents, health_word

from ..common import UNDO_HIDDEN

SESSION = "dnd5e_init"


async def apply_tracker(call: Call, fn: Callable[[Tracker], tuple[Tracker, Any]]) -> tuple[Tracker, Any]:
    """Change the group's combat with ``fn`` (one transaction; ``.undo`` can take it back)."""

    def step(state: dict[str, Any] | None) -> tuple[dict[str, Any] | None, tuple[Tracker, Any]]:
        tracker, result = fn(Tracker.from_dict(state))
        return tracker.to_dict(), (tracker, result)

    return await call.app.store.sessions.apply_session(
        call.ctx.scope, SESSION, step, user_id=call.ctx.user_id, command=call.command_text, claim=call.claim
    )


async def load_tracker(call: Call) -> Tracker:
    state, _ = await call.app.store.sessions.load_session(call.ctx.scope, SESSION)
    return Tracker.from_dict(state)


async def is_dm(call: Call) -> bool:
    """The group's GM (owner, admin, appointed with ``.gm add``, or bound in private)."""
    return await call.app.is_gm(call.ctx)


def seen(t: Tracker, name: str, dm: bool) -> Entry | None:
    """The entry ``name`` as the sender may know it: a hidden one only for the DM."""
    entry = t.find(name)
    return entry if entry is not None and (dm or not entry.hidden) else None


def hp_shown(entry: Entry, view: str, *, dm: bool = False) -> str:
    """A monster's hit points as the group (or, ``dm``, the DM) reads them; ``""`` for none."""
    if entry.hp is None or entry.owner is not None:
        return ""
    if dm or view == "exact":
        top = f"/{entry.max_hp}" if entry.max_hp is not None else ""
        return f"体力{entry.hp}{top}"
    return "" if view == "hidden" else f"<{health_word(entry.hp, entry.max_hp)}>"


def hp_change(entry: Entry, old: int) -> str:
    """A monster's hit points before and after, for the DM: ``哥布林 体力7→2/7``."""
    top = f"/{entry.max_hp}" if entry.max_hp is not None else ""
    return f"{entry.name} 体力{old}→{entry.hp}{top}"


def entry_line(t: Tracker, e: Entry, *, dm: bool) -> str:
    conds = " ".join(f"[{c}{'' if n is None else n}]" for c, n in e.conditions)
    parts = [f"{'▶' if e.name == t.turn else '  '}{e.name} {e.total}"]
    parts += [p for p in (hp_shown(e, t.hp_view, dm=dm), conds) if p]
    if dm and e.ac is not None:
        parts.append(f"AC{e.ac}")
    if dm and e.hidden:
        parts.append("（隐藏）")
    return " ".join(parts)


def order_text(t: Tracker, *, dm: bool = False) -> str:
    """The order as the group reads it (``dm``: everything, for the DM's private copy)."""
    entries = t.entries if dm else t.visible
    if not entries:
        return "先攻表是空的：.ri 掷先攻加入，.ri +3 哥布林 加入NPC"
    head = f"先攻表（第{t.round}轮）：" if t.turn is not None else "先攻表（未开始，.init next 开始第1轮）："
    return head + "\n" + "\n".join(entry_line(t, e, dm=dm) for e in entries)


def turn_text(t: Tracker, ev: TurnEvents) -> str:
    """The group's lines for a turn change: conditions that ended (of visible entries), whose turn."""
    lines = [f"{name} 的「{cond}」结束了" for name, cond in ev.expired if not _hidden(t, name)]
    cur = t.current
    if cur is not None and not cur.hidden:
        head = f"第{t.round}轮，" if ev.new_round else ""
        lines.append(f"{head}轮到 {cur.name}（先攻{cur.total}）")
    elif not t.visible:
        lines.append("先攻表是空的：先用 .ri 掷先攻")
    return "\n".join(lines)


def hidden_turn_text(t: Tracker, ev: TurnEvents) -> str:
    """The DM's private note of the hidden turns a turn change passed (``""`` when none)."""
    if not ev.skipped:
        return ""
    ended = [f"{name} 的「{cond}」结束了" for name, cond in ev.expired if _hidden(t, name)]
    names = "、".join(ev.skipped)
    return "\n".join(
        [
            f"（暗中）{names} 的回合已跳过，群里看不到。",
            *ended,
            "要它按先攻行动，先私聊 .init 现身 名字；它随时可以 .atk 名字:目标 攻击（攻击即现身）",
        ]
    )


def _hidden(t: Tracker, name: str) -> bool:
    entry = t.find(name)
    return entry is not None and entry.hidden


def dm_whisper(text: str, to: list[str]) -> list[Reply]:
    """``text`` privately to each of ``to``, never a word in the
    group — not even when the private message fails (a fallback would say something was hidden)."""
    if not text:
        return []
    return [Reply.whisper(text, to_user=uid) for uid in dict.fromkeys(to)]


def skipped_dms(t: Tracker, ev: TurnEvents) -> list[str]:
    """Who hears of the hidden turns passed: the DMs who added those entries."""
    return [e.by for name in ev.skipped if (e := t.find(name)) is not None and e.by]


def holds_hidden(state: dict[str, Any] | None) -> bool:
    return Tracker.from_dict(state).has_hidden


UNDO_HIDDEN[SESSION] = holds_hidden

__all__ = [
    "SESSION",
    "apply_tracker",
    "dm_whisper",
    "entry_line",
    "hidden_turn_text",
    "holds_hidden",
    "hp_change",
    "hp_shown",
    "is_dm",
    "load_tracker",
    "order_text",
    "seen",
    "skipped_dms",
    "turn_text",
]
