"""Issue 44, the smaller defects, each with its repro: the lobby's AI count and the map's player
count, 血量 below 0, skill targets by number, choice prompts that say a bare number answers and
what a choice is for, ``.moe 答`` from someone with no game, and a bare ``.moe choose``."""

from __future__ import annotations

from helpers import moe_game as game
from helpers import run

from chronodice.app import App
from chronodice.core.reply import Reply
from chronodice.render import moe as R
from chronodice.rules.moe.base import Ask
from chronodice.rules.moe.testing import scenario
from chronodice.services.moe.expect import expected
from chronodice.services.moe.numbers import number_map

G = "20002"
A, B, C, D = "30001", "30002", "30003", "30004"


def group_text(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies if not r.private)


def private_text(replies: list[Reply], user: str) -> str:
    return "\n".join(r.text for r in replies if r.private and r.to_user == user)


async def test_five_on_kingdoms_says_how_to_fix_and_fewer_ai_seats_say_removed(app: App) -> None:
    await run(app, ".moe new 双王国", user=A, group=G)
    await run(app, ".moe join", user=B, group=G)
    await run(app, ".moe ai 2", user=A, group=G)
    assert "（5人）" in group_text(await run(app, ".moe join", user=C, group=G))
    refused = group_text(await run(app, ".moe start", user=A, group=G))
    assert refused == (
        "【双王国】需要4/6/8人，现有5人（3名玩家、2个AI）：房主可发送 .moe ai 1 补到4人，或 .moe ai 3 补到6人"
    )
    assert group_text(await run(app, ".moe ai 1", user=A, group=G)) == "已移除1个AI座位，现有AI·1（共4人）"
    assert "已加入2个AI座位，现有AI·1、AI·2、AI·3（共6人）" in group_text(
        await run(app, ".moe ai 3", user=A, group=G)
    )
    assert "AI座位不变" in group_text(await run(app, ".moe ai 3", user=A, group=G))
    assert "请各位私聊选择角色" in group_text(await run(app, ".moe start", user=A, group=G))


def test_hp_below_zero_reads_as_its_value_zero() -> None:
    """Seed §4.4: at 0 or below, the 血量值 is 0 — never ``（血量-1/3）``."""
    g = scenario(["alice", "red_hood"], pack="demo")
    g.p(1).hp = -1
    ev = {"t": "damage", "victim": 1, "source": 0, "n": 2, "attribute": None, "hp": -1}
    public, _private = R.render_events(g, [ev, {"t": "lose_hp", "who": 1, "n": 1, "hp": -2}], ["甲", "乙"])
    assert "（血量0/4）" in public[0] and "（血量0/4）" in public[1]
    assert "-1" not in "".join(public)
    assert "血量0/4" in R.render_public_state(g, ["甲", "乙"])


def test_choice_prompts_say_a_bare_number_answers_and_what_it_is_for() -> None:
    g = scenario(["emperor", "alice"], pack="demo")
    g.give_cards(0, ["attack", "defend"])
    g.run(g.turn(0, False))
    for _ in range(20):
        ask = g.pending
        if ask.kind == "choose_cards" and ask.reason == "show":
            break
        g.submit(ask.waiting[0], True if ask.kind == "invoke" else None)
    else:
        raise AssertionError("炫耀 never asked for a card")
    text = R.private_prompt(g, ask, ["甲", "乙"])
    assert text.startswith("【炫耀】：请选择要展示的1张牌："), text
    assert "直接回复序号" in text and ".moe choose 序号… 回答" not in text


async def test_answer_from_someone_with_no_game_is_told_so(app: App) -> None:
    assert group_text(await run(app, ".moe 答 1", user=D, group=G)) == "你不在萌E游戏中"
    assert group_text(await run(app, ".moe 答 1", user=D, group=None)) == "你不在萌E游戏中"
    assert await run(app, "1", user=D, group=None) == []  # a bare number: not ours


async def test_bare_choose_says_what_is_expected(app: App) -> None:
    await run(app, ".moe new 乱斗森林", user=A, group=G)
    await run(app, ".moe join", user=B, group=G)
    await run(app, ".moe start", user=A, group=G)
    for u in (A, B):
        await run(app, ".moe choose 1", user=u, group=None)
    seen: set[str] = set()
    for _ in range(60):
        state, g = await game(app)
        ask = g.pending
        if ask is None or state["status"] != "running":
            break
        seat = ask.waiting[0]
        user = state["players"][seat]["user"]
        mine = ask.for_seat(seat)
        got = await run(app, ".moe choose", user=user, group=None)
        assert got and got[0].text, (mine.kind, mine.reason)  # never silence
        seen.add(mine.kind)
        in_group = await run(app, ".moe choose", user=user, group=G)
        assert group_text(in_group).endswith("回复已私聊发送（出牌、响应请私聊骰娘）")
        assert private_text(in_group, user) == got[0].text
        _state, after = await game(app)
        assert after.pending.serial == ask.serial  # nothing was answered for the sender
        if mine.kind == "play":
            cmd = ".moe end"
        elif mine.kind == "choose_cards" and not mine.optional:
            nums = number_map(state, g, seat)
            cmd = ".moe choose " + " ".join(str(nums[c]) for c in mine.options[: mine.lo])
        elif mine.kind == "invoke":
            cmd = ".moe no"
        else:
            cmd = ".moe pass"
        await run(app, cmd, user=user, group=G)
    assert {"play", "choose_cards"} <= seen, seen


def test_what_each_request_expects() -> None:
    """A bare ``.moe choose`` in a response window used to pass, in a 是否发动 question to say
    no: often nothing came back at all."""
    window = expected(Ask("respond", 0, "offset", options=[], optional=True))
    assert ".moe pass" in window and "序号" in window
    assert ".moe yes" in expected(Ask("invoke", 0, "invoke"))
    assert "如 .moe choose 1 2" in expected(
        Ask("choose_cards", 0, "discard_phase", options=[1, 2, 3], lo=2, hi=2)
    )
    assert "不选请 .moe pass" in expected(
        Ask("choose_players", 0, "x", options=[1], lo=1, hi=1, optional=True)
    )
