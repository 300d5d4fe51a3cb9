"""Issue 27, phone play and the group feed: everyone chooses a character at once with one
deadline; a bare number in private chat answers; hand numbers hold for the whole turn; optional
skills set to 总是/从不; no bare acknowledgements; one group message per action; the table
picture (phone-readable, public facts only)."""

from __future__ import annotations

import io
import random

from helpers import moe_game as game
from helpers import run
from PIL import Image

import chronodice.services.moe as moe
from chronodice.app import App
from chronodice.core.reply import Reply
from chronodice.render.moe import render_hand
from chronodice.render.moe_phone import unplayable_reason
from chronodice.render.moe_picture import SMALL, WIDTH, table_picture
from chronodice.rules.moe import auto_answer
from chronodice.rules.moe.record import new_record, start
from chronodice.rules.moe.testing import scenario
from chronodice.services.moe import feed
from chronodice.services.moe.numbers import number_map
from chronodice.services.moe.phone import bare_answer

G = "20002"
USERS = ["30001", "30002", "30003"]


def mine(replies: list[Reply], user: str) -> str:
    return "\n".join(r.text for r in replies if r.private and r.to_user == user)


async def lobby(app: App) -> list[Reply]:
    await run(app, ".moe new 乱斗森林", user=USERS[0], group=G)
    for u in USERS[1:]:
        await run(app, ".moe join", user=u, group=G)
    return await run(app, ".moe start", user=USERS[0], group=G)


async def test_everyone_chooses_at_once_and_the_deadline_picks_for_the_rest(app: App) -> None:
    replies = await lobby(app)
    group = [r.text for r in replies if not r.private]
    assert len(group) == 1 and group[0].endswith("请各位私聊选择角色（60秒内；回复序号即可，超时默认第一个）")
    for u in USERS:  # every seat has its offer at once
        assert "请选择你的角色" in mine(replies, u) and "60秒内未选择则取第一个" in mine(replies, u)
    state, g = await game(app)
    offers = state["offers"]
    last = state["players"][2]["user"]
    got = await run(app, "2", user=last, group=None)  # a bare number, out of turn order
    name = g.pack.characters[offers[2][1]].name
    assert mine(got, last) == f"你选择了【{name}】，还在等2人选择"
    assert [r for r in got if not r.private] == []  # nothing public, no acknowledgement
    assert "你已经选择了" in (await run(app, ".moe choose 1", user=last, group=None))[0].text
    state, g = await game(app)
    assert g.pending.reason == "character" and g.pending.seat == 0  # the engine waits for 1号
    assert state["deadline"] == state["pick_deadline"]
    out = await moe.sweep(app, state["pick_deadline"] + 1)
    text = "\n".join(r.text for _s, rs in out for r in rs if not r.private)
    assert text.startswith(
        f"1号{state['players'][0]['name']}、2号{state['players'][1]['name']}超时未选择角色，已选第一个"
    )
    state, g = await game(app)
    chosen = [p.character for p in g.state.players]
    assert chosen == [offers[0][0], offers[1][0], offers[2][1]]
    assert [i["source"] for i in g.inputs[:3]] == ["timeout", "timeout", "player"]


async def test_hand_before_choosing_shows_no_empty_numbers(app: App) -> None:
    await lobby(app)
    got = await run(app, ".moe hand", user=USERS[0], group=None)
    text = got[0].text
    assert "血量0/0" not in text and "手牌上限0" not in text
    assert "还没有选择角色" in text and "请选择你的角色" in text


def test_a_bare_number_is_an_answer_only_when_it_is_one_to_six_numbers() -> None:
    assert bare_answer("3") == ".moe 答 3"  # routed with `bare` set: told apart from a typed .moe 答
    assert bare_answer(" 2 3 ") == ".moe 答 2 3"
    assert bare_answer("2号") is None and bare_answer("1234") is None and bare_answer("你好") is None


async def test_a_bare_number_from_someone_without_a_game_is_not_ours(app: App) -> None:
    assert await run(app, "3", user="39999", group=None) == []


def test_hand_numbers_hold_for_the_turn_and_unplayable_cards_say_why() -> None:
    g = scenario(["alice", "red_hood", "snow_white", "cinderella"], pack="demo")
    ids = g.give_cards(0, ["attack", "defend", "attack"])
    state: dict = {}
    assert number_map(state, g, 0) == {ids[0]: 1, ids[1]: 2, ids[2]: 3}
    g.hand(0).remove(ids[0])  # played
    (new,) = g.give_cards(0, ["recover"])
    assert number_map(state, g, 0) == {ids[1]: 2, ids[2]: 3, new: 4}  # 3 is still the attack
    assert "\n手牌：2." in render_hand(g, 0, ["A", "B", "C", "D"], number_map(state, g, 0))
    assert unplayable_reason(g, 0, "defend") == "只能在响应时使用"
    g.state.turn.attacks = 1
    assert unplayable_reason(g, 0, "attack") == "本回合已使用过攻击类牌"


def test_one_group_message_per_action_and_at_most_three_per_ordinary_turn() -> None:
    """A seeded 4-player game through the feed: a turn costs one message for its start and one
    per card or skill used."""
    names = ["P1", "P2", "P3", "P4"]
    rec = new_record(
        "demo",
        list("1234"),
        seed=3,
        map_key="melee",
        characters=["alice", "red_hood", "snow_white", "cinderella"],
    )
    _rec, g, events = start(rec)
    state: dict = {}
    feed.advance(state, g, events, names)
    rng = random.Random(3)
    per_turn: dict[int, int] = {}
    uses: dict[int, int] = {}
    while g.pending is not None and g.state.turn_no < 40:
        ask = g.pending
        seat = ask.waiting[0]
        ans = auto_answer(g, ask.for_seat(seat), rng)
        if ask.kind == "play" and uses.get(g.state.turn_no, 0) >= 2:
            ans = {"a": "end"}
        if ask.kind == "play" and ans.get("a") != "end":
            uses[g.state.turn_no] = uses.get(g.state.turn_no, 0) + 1
        g.submit(seat, ans, source="auto")
        out = feed.advance(state, g, g.drain_events(), names)
        if out.text is not None:
            per_turn[g.state.turn_no] = per_turn.get(g.state.turn_no, 0) + 1
    turns = [t for t in per_turn if 1 < t < max(per_turn)]  # turn 1 started before the loop
    assert len(turns) >= 20
    assert all(per_turn[t] == 1 + uses.get(t, 0) for t in turns), per_turn
    assert max(per_turn[t] for t in turns) <= 3


def test_the_table_picture_is_phone_sized_and_shows_no_hidden_card() -> None:
    rec = new_record("demo", list("123456"), seed=5, map_key="kingdoms")
    _rec, g, _ = start(rec)
    rng = random.Random(1)
    for _ in range(200):
        g.submit(g.pending.seat, auto_answer(g, g.pending, rng))
    png = table_picture(g, ["甲", "乙", "丙", "丁", "戊", "己"])
    img = Image.open(io.BytesIO(png))
    assert img.size[0] == WIDTH == 1080 and SMALL >= 24
    assert img.size[1] == 28 * 2 + 70 + 56 + 168 * 6
