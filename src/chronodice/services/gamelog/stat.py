"""``.log stat``: each player's messages and checks, from the recorded lines (pure).

A check is counted from the :class:`~chronodice.core.reply.CheckNote` the bot's reply carried
(recorded as the line's ``check`` with the player it was for); replies without one count
nothing.  ``success`` None (a roll without a target) counts as a check but neither a success nor
a failure, so the rate is successes / (successes + failures).  Spectators (``.ob``, passed as
``skip``) are left out: their chatter and checks are not the players' statistics.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass, field

from chronodice.store import LogLine


@dataclass
class PlayerStat:
    name: str
    messages: int = 0
    checks: int = 0
    successes: int = 0
    failures: int = 0
    criticals: int = 0
    fumbles: int = 0
    labels: dict[str, int] = field(default_factory=dict)

    @property
    def rate(self) -> float | None:
        judged = self.successes + self.failures
        return self.successes / judged if judged else None


def player_stats(lines: Sequence[LogLine], skip: Collection[str] = ()) -> dict[str, PlayerStat]:
    """User id → stats, players in order of first appearance (the bot's own lines and the users
    in ``skip``, the group's spectators, left out)."""
    stats: dict[str, PlayerStat] = {}
    for ln in lines:
        if not ln.is_bot:
            if ln.user_id in skip:
                continue
            st = stats.setdefault(ln.user_id, PlayerStat(ln.nickname or ln.user_id))
            st.messages += 1
            st.name = ln.nickname or st.name
            continue
        note = ln.check
        if not note:
            continue
        uid = str(note.get("user_id") or "")
        if uid in skip:
            continue
        st = stats.setdefault(uid, PlayerStat(str(note.get("name") or uid or "?")))
        st.checks += 1
        label = str(note.get("label") or "")
        st.labels[label] = st.labels.get(label, 0) + 1
        success = note.get("success")
        outcome = str(note.get("outcome") or "")
        if success is True:
            st.successes += 1
        elif success is False:
            st.failures += 1
        if outcome.startswith("大成功"):
            st.criticals += 1
        elif outcome.startswith("大失败"):
            st.fumbles += 1
    return stats


def stat_text(name: str, lines: Sequence[LogLine], skip: Collection[str] = ()) -> str:
    """The reply of ``.log stat`` (``skip``: user ids left out, the group's spectators).

    >>> from chronodice.store import LogLine
    >>> ck = lambda ok, out: LogLine("bot", "骰娘", [], None, True, {"label": "侦查", "outcome": out,
    ...     "success": ok, "user_id": "1", "name": "艾拉"})
    >>> print(stat_text("夜", [LogLine("1", "艾拉", [["text", "hi"]], None), ck(True, "大成功"), ck(False, "失败"),
    ...     ck(None, "掷出12")]))
    日志「夜」统计
    艾拉：发言1条，检定3次（成功1，失败1，成功率50%；大成功1）
    >>> print(stat_text("夜", [LogLine("1", "艾拉", [["text", "hi"]], None), ck(True, "大成功")], skip={"1"}))
    日志「夜」统计
    （还没有记录）
    """
    stats = player_stats(lines, skip)
    out = [f"日志「{name}」统计"]
    if not stats:
        out.append("（还没有记录）")
    for st in stats.values():
        if not st.checks:
            out.append(f"{st.name}：发言{st.messages}条，没有检定")
            continue
        rate = "—" if st.rate is None else f"{round(st.rate * 100)}%"
        extra = "".join(f"；{word}{n}" for word, n in (("大成功", st.criticals), ("大失败", st.fumbles)) if n)
        out.append(
            f"{st.name}：发言{st.messages}条，检定{st.checks}次"
            f"（成功{st.successes}，失败{st.failures}，成功率{rate}{extra}）"
        )
    return "\n".join(out)
