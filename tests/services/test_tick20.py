"""D20 tick system commands through App.dispatch on a real SQLite file (tick20.md §4, C02, C03)."""

from __future__ import annotations

import asyncio
import re

import pytest
from helpers import Scripted, run, say

from chronodice.app import App
from chronodice.core.clock import ManualClock
from chronodice.rules.tick20.model import Combat
from chronodice.services.tick20 import tracker


@pytest.fixture(autouse=True)
def no_grace(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """Tests send commands faster than people do; the grace window has its own tests."""
    if "grace" not in request.node.name:
        monkeypatch.setattr(tracker, "ADVANCE_GRACE", 0.0)


GM = {"user": "10001", "roles": ("admin",)}
P1 = {"user": "10002", "name": "艾琳"}
P2 = {"user": "10003", "name": "布鲁诺"}


async def state_of(app: App, group: str = "20002") -> Combat:
    raw, _ = await app.store.sessions.load_session(group, "tick20")
    assert raw is not None
    return Combat.from_dict(raw)


async def setup_basic(app: App) -> None:
    """GM begins; A 17 and B 12 are PCs (fixed values), D 8 an NPC."""
    await say(app, ".init begin", **GM)
    await say(app, ".ri =17", **P1)
    await say(app, ".ri =12", **P2)
    await say(app, ".ri =8 哥布林", **GM)


async def test_turn_card_mentions_the_player_whose_turn_it_is(app: App) -> None:
    await setup_basic(app)
    start = (await run(app, ".init start", **GM))[0]
    # a real QQ @, so the player is notified; the next player too (「请准备」, issue 26)
    assert start.mentions == (P1["user"], P2["user"])
    assert "请准备：布鲁诺（下一个回合）" in start.text
    assert (await run(app, ".init", **GM))[0].mentions == ()
    assert (await run(app, ".init next", **P1))[0].mentions == (P2["user"],)  # next: the NPC
    # the NPC's turn: nobody to ping for it, but 艾琳 comes next (round 2)
    assert (await run(app, ".init next", **P2))[0].mentions == (P1["user"],)
    await say(app, ".init meta -提醒 关", **GM)  # the GM can turn the pings of the next player off
    assert (await run(app, ".init next", **GM))[0].mentions == (P1["user"],)


async def test_begin_join_start_and_turn_card(app: App) -> None:
    await setup_basic(app)
    text = await say(app, ".init start", **GM)
    assert "⚔ 第1轮 · 第17刻（基础）" in text
    assert "▶ 艾琳 的回合 @艾琳　AP 3/3" in text
    assert "接下来：第12刻 布鲁诺 → 第8刻 哥布林 → 第2轮 第17刻 艾琳" in text
    listing = await say(app, ".init", **P2)
    assert listing.splitlines()[0] == "第1轮 · 第17刻（基础）　当前：艾琳"
    assert re.search(r"▶ 17  艾琳　AP 3/3", listing)


async def test_c03_wrong_player_and_bad_duration_leave_state_unchanged(app: App) -> None:
    await setup_basic(app)
    await say(app, ".init start", **GM)
    await say(app, ".ed", **P1)
    before = (await state_of(app)).model_dump_json()
    text = await say(app, ".init next", **P1)
    assert text == "现在是 布鲁诺 的回合（第12刻），只有 布鲁诺 的玩家或 GM 可以结束"
    text = await say(app, ".init eff 哥布林 眩晕 三轮", **GM)
    assert "时长格式：数字+单位（刻/轮/回合），例 .init eff 哥布林 眩晕 2轮" in text
    assert (await state_of(app)).model_dump_json() == before


async def test_c02_grace_two_advances_at_once_move_the_turn_once(app: App, clock: ManualClock) -> None:
    await setup_basic(app)
    await say(app, ".init start", **GM)
    await say(app, ".ed", **P1)  # now 布鲁诺 (t12)
    clock.advance(tracker.ADVANCE_GRACE + 0.05)
    r1, r2 = await asyncio.gather(run(app, ".init next", **P2), run(app, ".init next", **GM))
    st = await state_of(app)
    assert st.get("c2").turns_total == 1
    assert st.current == "c3" and st.tick == 8
    texts = [r1[0].text, r2[0].text]
    assert sum("▶ 哥布林 的回合" in t for t in texts) == 1
    assert (
        sum("布鲁诺 刚刚已经结束回合，现在是 哥布林 的回合（第8刻）；无需再发 .init next" in t for t in texts)
        == 1
    )


async def test_c02_grace_sequential_duplicates_are_refused(app: App, clock: ManualClock) -> None:
    await setup_basic(app)
    await say(app, ".init start", **GM)
    await say(app, ".ed", **P1)  # 布鲁诺 (t12)
    assert "▶ 哥布林 的回合" in await say(app, ".init next", **P2)
    # the GM pressed at the same moment; processed right after: refused, nothing advanced twice
    assert (
        await say(app, ".init next", **GM)
        == "布鲁诺 刚刚已经结束回合，现在是 哥布林 的回合（第8刻）；无需再发 .init next，没有重复推进"
    )
    st = await state_of(app)
    assert st.current == "c3" and st.get("c3").turns_total == 0
    clock.advance(tracker.ADVANCE_GRACE - 0.05)  # still within the grace
    assert "没有重复推进" in await say(app, ".init next", **GM)
    clock.advance(0.1)
    assert "▶ 艾琳 的回合" in await say(app, ".init next", **GM)
    # the same GM may go on advancing at once, and a player may end her own new turn at once
    assert "▶ 布鲁诺 的回合" in await say(app, ".init next", **GM)
    assert "▶ 哥布林 的回合" in await say(app, ".ed", **P2)


async def test_c02_grace_window_ends(app: App, clock: ManualClock) -> None:
    await setup_basic(app)
    await say(app, ".init start", **GM)
    await say(app, ".ed", **P1)
    await say(app, ".init next", **P2)
    clock.advance(tracker.ADVANCE_GRACE + 0.05)
    assert "▶ 艾琳 的回合" in await say(app, ".init next", **GM)


async def test_delay_effects_ap_and_undo(app: App) -> None:
    await setup_basic(app)
    await say(app, ".init start", **GM)
    text = await say(app, ".延后", **P1)
    assert "艾琳 延后（先攻16）" in text and "▶ 艾琳 的回合" in text and "第16刻" in text
    assert "AP 2/3" in await say(app, ".ap -1 攻击", **P1)
    assert "已经行动过" in await say(app, ".延后", **P1)
    text = await say(app, ".init eff 哥布林 迟缓 3刻", **GM)
    assert "哥布林 获得「迟缓」（3刻）" in text
    await say(app, ".ed", **P1)  # t12 布鲁诺: 迟缓 counted at t15..t12 tick starts (4 > 3): gone
    st = await state_of(app)
    assert st.current == "c2" and not st.effects
    text = await say(app, ".init undo", **GM)
    assert "已撤销1步" in text
    st = await state_of(app)
    assert st.current == "c1" and st.tick == 16 and st.get("c1").ap == 2
    assert [e.name for e in st.effects] == ["迟缓"]


async def test_init_undo_restores_the_stored_state_exactly(app: App) -> None:
    """Was engine scenario B26: the engine keeps no undo stack; ``.init undo [n]`` takes back whole
    commands through the store's session log, effects, AP and the turn included."""
    await setup_basic(app)
    await say(app, ".init start", **GM)
    await say(app, ".ed", **P1)  # t12 布鲁诺
    before_effect = (await state_of(app)).to_dict()
    await say(app, ".init eff 哥布林 迟缓 3刻 -源 布鲁诺", **GM)
    with_effect = (await state_of(app)).to_dict()
    await say(app, ".ed", **P2)  # t8 哥布林: AP granted, 迟缓 counted down
    assert (await state_of(app)).to_dict() != with_effect
    assert "已撤销1步" in await say(app, ".init undo", **GM)
    assert (await state_of(app)).to_dict() == with_effect
    await say(app, ".ed", **P2)
    assert "已撤销2步" in await say(app, ".init undo 2", **GM)
    assert (await state_of(app)).to_dict() == before_effect
    assert "一次最多撤销20步" in await say(app, ".init undo 21", **GM)


async def test_states_stored_with_the_old_undo_stack_still_load(app: App) -> None:
    """Combats saved before the engine's own undo stack went still carry ``undo`` and
    ``options.undo_depth``: they load, and the next save drops them."""
    await setup_basic(app)
    await say(app, ".init start", **GM)
    raw, _ = await app.store.sessions.load_session("20002", "tick20")
    assert raw is not None
    old = raw | {"undo": [Combat.from_dict(raw).model_dump_json()], "options": {"undo_depth": 20}}
    await app.store.sessions.apply_session(
        "20002", "tick20", lambda _s: (old, None), user_id="10001", command="old"
    )
    assert "当前：艾琳" in await say(app, ".init", **P1)
    assert "▶ 布鲁诺 的回合" in await say(app, ".ed", **P1)
    raw, _ = await app.store.sessions.load_session("20002", "tick20")
    assert raw is not None and "undo" not in raw and "undo_depth" not in raw.get("options", {})


async def test_permissions_and_npc_join_need_gm(app: App) -> None:
    await setup_basic(app)
    assert "只有" in await say(app, ".ri =5 龙", **P1)
    assert "只有" in await say(app, ".init start", **P1)
    assert "只有" in await say(app, ".init rm 哥布林", **P1)
    assert "只能给自己的角色添加效果" in await say(app, ".init eff 哥布林 中毒 2轮", **P1)
    assert "艾琳 获得「祝福」（2轮）" in await say(app, ".init eff 我 祝福 2轮", **P1)


async def test_hidden_npc_and_hidden_duration_go_to_the_gm_privately(app: App) -> None:
    await setup_basic(app)
    replies = await run(app, ".ri 暗 +4 伏兵", **GM)
    public = [r for r in replies if not r.private]
    private = [r for r in replies if r.private]
    assert public == []  # issue 39: not a line, not a count in the group
    assert private and "伏兵：D20=" in private[0].text and private[0].to_user == "10001"
    await say(app, ".init start", **GM)
    listing = await say(app, ".init", **P1)
    assert "伏兵" not in listing
    replies = await run(app, ".init eff 哥布林 诅咒 1d4轮 暗", **GM)
    assert "哥布林 获得「诅咒」（?（暗））" in replies[0].text
    secret = [r.text for r in replies if r.private]
    assert secret and re.search(r"暗时长：「诅咒」[1-4]轮", secret[0])
    assert "剩?" in await say(app, ".init", **P1)


async def test_rc_checks_from_the_card(app: App) -> None:
    await say(app, ".st 力量14 体质12 LV4 运动熟练度1", **P1)
    text = await say(app, ".rc 运动 15", **P1)
    m = re.search(r"艾琳 的运动检定：D20=(\d+)([+-]\d+)(?:[+-]10\(N\d+\))?=(-?\d+)", text)
    assert m, text
    assert m.group(2) == "+4"  # 力量 +2, 熟练 +2, LV−4 = 0 内在
    assert re.search(r"检定：-?\d+/15 (大成功|成功|失败|大失败)", text)
    text = await say(app, ".rc 被动 洞悉 优势", **P1)
    assert "被动10" in text
    text = await say(app, ".rc +3 12 对抗12", **P1)
    assert "对抗：" in text
    await say(app, ".st DEX8 INS6", **P1)
    text = await say(app, ".rc DEX+INS 13", **P1)
    assert re.search(r"d8\+d6=\[\d,\d\]\+0=\d+", text) and "检定：" in text
    # a fresh group with a generic card: a name the D20 system does not know is a CoC check
    assert "没有「烹饪」的数值" in await say(app, ".rc 烹饪", **P1)
    await say(app, ".set tick20", **P1, roles=("owner",))
    assert "没有「烹饪」这项技能" in await say(app, ".rc 烹饪", **P1)


async def test_spd_variant_with_gauges_and_advantage(app: App) -> None:
    await say(app, ".init begin 速度", **GM)
    await say(app, ".ri =17", **P1)
    await say(app, ".ri =12 哥布林", **GM)
    await say(app, ".hp 哥布林 hg 10", **GM)
    text = await say(app, ".init start", **GM)
    assert "（速度）" in text and "AP" not in text
    text = await say(app, ".hp 哥布林 -7", **GM)
    assert "击破HG：我方获得1点优势点（共1）" in text
    st = await state_of(app)
    assert [g.hp for g in st.get("c2").health.hg[:3]] == [0, 3, 5]
    assert "HP▮▮▮▮" in text  # NPC numbers are blurred for the group by default
    assert "速度规则（004）没有AP" in await say(app, ".ap -1", **P1)


async def test_wounds_and_dying_check_reminder(app: App) -> None:
    await setup_basic(app)
    await say(app, ".init start", **GM)
    text = await say(app, ".wound 哥布林 躯干 轻伤x4", **GM)
    assert "<残障:躯干>" in text
    await say(app, ".ed", **P1)
    await say(app, ".ed", **P2)
    text = await say(app, ".init next", **GM)
    assert re.search(r"哥布林 濒死检定（躯干）：强韧防御 D20=[\d/]+→-?\d+/20 ", text)  # rolled by the bot
    text = await say(app, ".wound 哥布林 躯干 hit5 dp2 dr0", **GM)
    assert "<解体>" in text


async def test_ap_total_action_and_log_and_end(app: App) -> None:
    await setup_basic(app)
    await say(app, ".init start", **GM)
    text = await say(app, ".ap ta 9 大招 3", **P1)
    assert "全力动作「大招」3/9" in text
    text = await say(app, ".ed", **P1)
    assert "▶ 布鲁诺 的回合" in text
    log = await say(app, ".init log", **GM)
    assert log.startswith("战报：\n—— 第1轮开始 ——")
    assert re.search(r"第\d+刻 艾琳 的回合\n.*第\d+刻 布鲁诺 的回合", log, re.S), log  # whose turn, in order
    assert "确定结束战斗" in await say(app, ".init end", **GM)
    text = await say(app, ".init end 确认", **GM)
    assert text.startswith("战斗结束：共1轮") and "艾琳×1" in text
    assert "没有进行中的战斗" in await say(app, ".init", **P1)


async def test_common_undo_reverts_a_tracker_command(app: App) -> None:
    await setup_basic(app)
    await say(app, ".init start", **GM)
    await say(app, ".ed", **P1)
    await say(app, ".undo", **GM)
    st = await state_of(app)
    assert st.current == "c1"


async def test_gm_tools_set_mod_swap_surprise_meta_add_focus(app: App) -> None:
    await say(app, ".init begin -名 遭遇战", **GM)
    await say(app, ".ri =14", **P1)
    await say(app, ".ri =14", **P2)
    text = await say(app, ".init add 卫兵 +2 -p 10 -n 3", **GM)
    assert "卫兵1 加入（=10）" in text and "卫兵3 加入（=10）" in text
    assert "被突袭" in await say(app, ".init surprise 卫兵3", **GM)
    assert "交换了同值顺序" in await say(app, ".init swap 艾琳 布鲁诺", **P1)
    text = await say(app, ".init meta -延后 原文 -当前先攻 重置", **GM)
    assert "延后=原文+1" in text and "当前先攻=每轮重置" in text
    text = await say(app, ".init start", **GM)
    assert "▶ 布鲁诺 的回合" in text  # swapped ahead of 艾琳 at t14
    text = await say(app, ".init mod 卫兵1 -4 状态 2轮", **GM)
    assert "卫兵1 获得「先攻-4状态」（2轮）" in text
    st = await state_of(app)
    assert st.get("c3").main == 6 and st.get("c3").cur == 6
    text = await say(app, ".init set 卫兵2 20", **GM)  # 卫兵2 (10) had not acted; tick 14 is past 20
    assert (
        text
        == "卫兵2 的先攻设为 20：第20刻在本轮已经过去（现在第14刻），卫兵2本轮失去回合，从下一轮起按新值行动"
    )
    assert "护盾" in await say(app, ".init eff 我 护盾 焦点", **P2)
    assert "持续至第2轮结束" in await say(app, ".init focus 我 护盾", **P2)
    assert "已修改 卫兵1：lv" in await say(app, ".init opt 卫兵1 -lv 3", **GM)
    assert "将移除 布鲁诺 的全部效果" in await say(app, ".init re 布鲁诺 全部", **P2)
    assert "移除了：护盾" in await say(app, ".init re 布鲁诺 全部 确认", **P2)
    text = await say(app, ".init", **P1)
    assert "（遭遇战）" in text and "-4状态" in text and "下轮加入" in text
    assert "已添加副GM：10003" in await say(app, ".init gm", at=("10003",), **GM)
    assert "已有进行中的战斗（第1轮）" in await say(app, ".init begin", **GM)


async def test_mind_gauges_overdraw_and_sp(app: App) -> None:
    await say(app, ".init begin 速度", **GM)
    await say(app, ".ri =15", **P1)
    await say(app, ".hp 我 hg 6", **P1)
    await say(app, ".hp 我 mg 1", **P1)
    await say(app, ".hp 我 mp -7", **P1)
    st = await state_of(app)
    h = st.get("c1").health
    assert h.mp_debt == 2 and sum(max(0, g.hp - h.mp_debt) for g in h.hg) == 18
    assert "HG容量不足" in await say(app, ".hp 我 mp -3", **P1)
    assert "确定吗" in await say(app, ".init begin", **GM)  # a prepared lineup: asked first
    await say(app, ".init begin 确认", **GM)  # SETUP combats may be replaced once confirmed
    await say(app, ".ri =15", **P1)
    assert "SP5/5" in await say(app, ".hp 我 sp上限 5", **P1)
    assert "SP2/5" in await say(app, ".hp 我 sp -3", **P1)


async def test_child_effect_goes_with_its_parent_and_ri_expression(app: App) -> None:
    await say(app, ".init begin", **GM)
    text = await say(app, ".ri =1d6+10 巨魔", **GM)
    m = re.search(r"巨魔 的先攻：=(\d+)", text)
    assert m and 11 <= int(m.group(1)) <= 16
    await say(app, ".ri =12", **P1)
    await say(app, ".init eff 巨魔 束缚 永久", **GM)
    await say(app, ".init eff 艾琳 专注维持 永久 -父 巨魔/束缚", **GM)
    text = await say(app, ".init re 巨魔 束缚", **GM)
    assert "移除了：束缚" in text
    st = await state_of(app)
    assert st.effects == []


async def test_an_initiative_roll_shows_the_n1_or_n20_bonus_apart(app: App) -> None:
    """``.init add 狼 5`` rolling a 1 reads D20=1+5-10(N1)=-4 (not "1-5", which looks like a −5
    modifier); ``.ri`` the same way, as checks show it."""
    await say(app, ".init begin", **GM)
    app.rng = Scripted([1])
    assert "狼 加入（D20=1+5-10(N1)=-4）" in await say(app, ".init add 狼 5", **GM)
    app.rng = Scripted([20])
    assert "哥布林 的先攻：D20=20+2+10(N20)=32" in await say(app, ".ri +2 哥布林", **GM)


async def test_c02_on_postgres_commands_read_at_once_advance_as_if_one_after_another(pg_url: str) -> None:
    """On PostgreSQL a group's commands may all read the combat before the first is written.
    The same GM's `.init next` ×3 sent at GM speed still advance three turns (as they do when
    each is read after the one before); a player's end of the turn and the GM's at the same
    moment advance once (C02)."""
    import random

    from chronodice.core.ratelimit import FloodSettings
    from chronodice.store import Store

    store = Store(pg_url)
    await store.migrate()
    app = App(store, random.Random(5), flood=FloodSettings(enabled=False))
    group = f"c02-{random.randrange(10**9)}"
    try:
        await say(app, ".init begin", **GM, group=group)
        await say(app, ".ri =17", **P1, group=group)
        await say(app, ".ri =12", **P2, group=group)
        await say(app, ".ri =8 哥布林", **GM, group=group)
        await say(app, ".init start", **GM, group=group)  # 艾琳's turn
        texts = await asyncio.gather(*(say(app, ".init next", **GM, group=group) for _ in range(3)))
        turns = [next(line for line in t.splitlines() if line.startswith("▶")) for t in texts]
        # which of three identical messages gets which turn is the order their reads finished
        # in; what counts is that each advanced one turn
        assert sorted(turns) == sorted(
            [
                "▶ 布鲁诺 的回合 @布鲁诺　AP 3/3　（可 .延后）",
                "▶ 哥布林 的回合　AP 3/3",
                "▶ 艾琳 的回合 @艾琳　AP 3/3　（可 .延后）",
            ]
        )
        st = await state_of(app, group)
        assert st.round == 2 and st.current == "c1"
        both = await asyncio.gather(
            say(app, ".ed", **P1, group=group), say(app, ".init next", **GM, group=group)
        )
        assert sum("▶ 布鲁诺 的回合" in t for t in both) == 1
        # in the words a message read after the first gets (the grace check of init_next)
        assert (
            sum(
                "艾琳 刚刚已经结束回合，现在是 布鲁诺 的回合（第12刻）；无需再发 .init next" in t
                for t in both
            )
            == 1
        )
        assert (await state_of(app, group)).current == "c2"
        # a player ending her turn twice at once: the second would end the next person's turn
        texts = await asyncio.gather(*(say(app, ".ed", **P2, group=group) for _ in range(2)))
        # (which of the two identical messages is first is the order their reads finished in)
        assert sorted("▶ 哥布林 的回合" in t for t in texts) == [False, True]
        assert any(t.startswith("现在是 哥布林 的回合") for t in texts)
        assert (await state_of(app, group)).current == "c3"
    finally:
        await say(app, ".init end 确认", **GM, group=group)
        await store.close()
