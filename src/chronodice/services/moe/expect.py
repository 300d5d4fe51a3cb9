"""What the open request expects from the sender, said when ``.moe choose`` comes without the
numbers it needs (issue 44: a bare ``.moe choose`` in a response window passed and in a 是否发动
question said no, so the sender often heard nothing at all).

The text names only the kind of the request and how many to choose — never the sender's cards
— and is told the way every refusal about one's own request is (privately, when typed in a
group: :func:`chronodice.services.moe._common.about_hidden_cards`).
"""

from __future__ import annotations

from typing import Any

GIVE = "请用 .moe give 2号:1,2 分配牌，或 .moe pass 不分配"


def _count(ask: Any) -> str:
    return f"{ask.lo}" if ask.lo == ask.hi else f"{ask.lo}到{ask.hi}"


def expected(ask: Any) -> str:
    """The sentence for ``ask`` (one seat's view of the open request)."""
    k = ask.kind
    if k == "play":
        return (
            "现在是你的出牌阶段：私聊回复 序号 [座位] 出牌（或 .moe play 序号 2号），0 或 .moe end 结束出牌"
        )
    if k == "respond" and ask.reason == "secret":
        return "请写要翻开的奥秘序号：.moe choose 1（私聊直接回复 1），不翻开请 .moe pass"
    if k == "respond":
        return "请写用来响应的手牌序号：.moe choose 序号（私聊直接回复序号），不响应请 .moe pass（或回复 0）"
    if k == "invoke":
        return "这是是否发动的询问：.moe yes 发动、.moe no 不发动（私聊直接回复 1 或 0）"
    if k == "distribute":
        return GIVE
    if k == "arrange":
        return f"请写出{len(ask.options)}张牌的新顺序：如 .moe choose 3 1 2（私聊直接回复 3 1 2）"
    what = {"choose_players": "座位号", "choose_option": "选项序号", "order": "序号"}.get(k, "序号")
    skip = "，不选请 .moe pass（或回复 0）" if ask.optional else ""
    example = " ".join(str(i + 1) for i in range(max(ask.lo, 1)))
    return f"请写出要选的{_count(ask)}个{what}：如 .moe choose {example}（私聊直接回复 {example}）{skip}"


__all__ = ["expected"]
