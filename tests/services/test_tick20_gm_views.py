"""Issue 12, D20 tick: what a GM needs to see.  The GM gets NPC numbers privately where he works
(``.hp``, ``.wound``, ``.init status``, ``.init 全``); the group never sees a hidden NPC's
numbers; replies say what happened (wound levels and what each part holds, an effect's source,
``.init mod`` listed once, the list in initiative order, a lost turn, 004 ``.ri 优势``)."""

from __future__ import annotations

import re

import pytest
from helpers import run, say

from chronodice.app import App
from chronodice.core.reply import Reply
from chronodice.rules.tick20.model import Combat
from chronodice.services.tick20 import tracker

GM = {"user": "10001", "roles": ("admin",)}
P1 = {"user": "10002", "name": "艾琳"}
P2 = {"user": "10003", "name": "布鲁诺"}


@pytest.fixture(autouse=True)
def no_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(tracker, "ADVANCE_GRACE", 0.0)


async def state_of(app: App) -> Combat:
    raw, _ = await app.store.sessions.load_session("20002", "tick20")
    assert raw is not None
    return Combat.from_dict(raw)


def names(listing: str) -> list[str]:
    """The combatants of a ``.init`` list, in the order listed."""
    return [m.group(1) for m in re.finditer(r"^[▶ ]\s*-?\d+\S*\s+(\S+)", listing, re.M)]


def public(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies if not r.private)


def private(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies if r.private)


async def setup(app: App, *, hidden: bool = True) -> None:
    """艾琳 17, 布鲁诺 12 (players), 哥布林 8 and (hidden) 刺客 15, NPCs."""
    await say(app, ".init begin", **GM)
    await say(app, ".ri =17", **P1)
    await say(app, ".ri =12", **P2)
    await say(app, ".ri =8 哥布林", **GM)
    if hidden:
        await say(app, ".init add 刺客 -p 15 -隐藏", **GM)


async def test_hp_answers_the_gm_with_the_numbers_privately(app: App) -> None:
    await setup(app, hidden=False)
    await say(app, ".init start", **GM)
    await say(app, ".hp 哥布林 hg 10", **GM)
    replies = await run(app, ".hp 哥布林 -7", **GM)
    assert public(replies).splitlines()[0] == "哥布林：HP▮▮▮▮▯"
    assert private(replies).splitlines()[0] == "哥布林：HP43/50（-7）"
    replies = await run(app, ".init status 哥布林", **GM)  # was HP43/50 in the group
    assert "43" not in public(replies) and "HP▮▮▮▮▯" in public(replies)
    assert "HP43/50" in private(replies)
    # a player's own numbers stay in the group, with nothing private
    await say(app, ".hp 艾琳 hg 6", **GM)
    replies = await run(app, ".hp 艾琳 -4", **P1)
    assert public(replies) == "艾琳：HP26/30（-4）" and not private(replies)


async def test_init_all_lists_everything_to_the_gm_privately(app: App) -> None:
    await setup(app)
    await say(app, ".hp 刺客 hg 12", **GM)
    replies = await run(app, ".init 全", **GM)
    assert public(replies) == ""
    text = private(replies)
    assert text.splitlines()[0] == "战斗准备中（基础）：4名参战者（含暗中1名），GM 发送 .init start 开战"
    assert "15  刺客　AP 0/3　HP60/60" in text
    assert "只有" in await say(app, ".init 全", **P1)


async def test_setup_list_is_in_initiative_order_and_counts_what_it_lists(app: App) -> None:
    await setup(app)
    await say(app, ".init set 哥布林 20", **GM)
    listing = await say(app, ".init", **P1)
    assert listing.splitlines()[0] == "战斗准备中（基础）：3名参战者，GM 发送 .init start 开战"
    assert names(listing) == ["哥布林", "艾琳", "布鲁诺"]
    assert listing.splitlines()[1].split()[0] == "20"
    assert names(private(await run(app, ".init 全", **GM))) == ["哥布林", "艾琳", "刺客", "布鲁诺"]


async def test_mid_round_change_reorders_the_list(app: App) -> None:
    await setup(app, hidden=False)
    await say(app, ".init start", **GM)  # 艾琳 17 is current
    text = await say(app, ".init set 布鲁诺 16", **GM)
    assert text == "布鲁诺 的先攻设为 16，本轮按新值行动"
    assert names(await say(app, ".init", **P1)) == ["艾琳", "布鲁诺", "哥布林"]
    # a value whose tick has passed costs 哥布林 its turn this round, and the reply says so
    text = await say(app, ".init set 哥布林 19", **GM)
    assert (
        text
        == "哥布林 的先攻设为 19：第19刻在本轮已经过去（现在第17刻），哥布林本轮失去回合，从下一轮起按新值行动"
    )
    assert await say(app, ".init set 布鲁诺 0", **GM) == (
        "布鲁诺 的先攻设为 0：先攻不在1~20刻之间，布鲁诺本轮失去回合，之后也无法开始回合，直到先攻回到1以上"
    )


async def test_wound_reply_says_which_levels_were_added_and_what_each_part_holds(app: App) -> None:
    await setup(app, hidden=False)
    await say(app, ".init start", **GM)
    text = await say(app, ".wound 艾琳 躯干 hit3 dp1", **GM)
    assert text == "艾琳：躯干 1/4：重伤\n  艾琳 躯干 新增重伤×1"
    text = await say(app, ".wound 艾琳 躯干 轻伤x4", **GM)
    assert text.splitlines()[1] == "  艾琳 躯干 新增轻伤×3，1道最轻的伤势恶化一级（已满4道），现为<残障>"
    assert text.splitlines()[0].startswith("艾琳：躯干 4/4：重伤×2、轻伤×2")
    text = await say(app, ".wound 艾琳 臂部 hit2 dp2", **GM)
    assert text.splitlines()[0] == "艾琳：臂部 2/4：轻伤×2；躯干 4/4：重伤×2、轻伤×2 <残障>"
    # an NPC: the group sees what hp_display lets players see, the GM the wounds
    replies = await run(app, ".wound 哥布林 躯干 hit3 dp1", **GM)
    assert "重伤" not in public(replies)
    assert private(replies) == "哥布林：躯干 1/4：重伤\n  哥布林 躯干 新增重伤×1"


async def test_gm_effects_are_credited_to_their_source_and_mod_is_listed_once(app: App) -> None:
    await setup(app, hidden=False)
    await say(app, ".init start", **GM)
    await say(app, ".ed", **P1)
    await say(app, ".ed", **P2)  # 哥布林's turn
    assert await say(app, ".init eff 艾琳 祝福 2轮", **GM) == "艾琳 获得「祝福」（2轮）"
    text = await say(app, ".init eff 艾琳 迟缓 2轮 -源 布鲁诺", **GM)
    assert text == "艾琳 获得「迟缓」（2轮，来源：布鲁诺）"
    sources = {e.name: e.source for e in (await state_of(app)).effects}
    assert sources == {"祝福": None, "迟缓": "c2"}
    await say(app, ".init mod 艾琳 +2 2轮", **GM)
    status = await say(app, ".init status 艾琳", **P1)
    assert "[先攻+2通用 剩2轮]" in status and status.count("先攻+2通用") == 1


async def test_004_ri_advantage_says_why_not(app: App) -> None:
    await say(app, ".init begin 速度", **GM)
    text = await say(app, ".ri 优势", **P1)
    assert text.startswith("速度规则（004）的先攻检定是 DEX+INS 两颗骰子的开放检定（+6环境），没有优势")
    assert "劣势" in await say(app, ".ri 劣势 +2 哥布林", **GM)
    raw, _ = await app.store.sessions.load_session("20002", "tick20")
    assert raw is not None and not Combat.from_dict(raw).combatants


async def test_hidden_npc_numbers_never_reach_the_group(app: App) -> None:
    """Many GM and player commands in a combat with a hidden NPC: its name, initiative, HP,
    wounds and effect durations only ever go to the GM privately."""
    await setup(app)
    group: list[str] = []
    gm_private: list[str] = []

    async def send(text: str, who: dict[str, object]) -> None:
        replies = await run(app, text, **who)  # type: ignore[arg-type]
        group.extend(r.text for r in replies if not r.private)
        gm_private.extend(r.text for r in replies if r.private)

    script = [
        (".init surprise 刺客", GM),
        (".init opt 刺客 -lv 3", GM),
        (".init", P1),
        (".init 全", GM),
        (".hp 刺客 hg 13", GM),
        (".init start", GM),
        (".hp 刺客 -9", GM),
        (".init status 刺客", GM),
        (".init list 全", GM),
        (".wound 刺客 躯干 hit3 dp2", GM),
        (".init eff 刺客 隐身 3轮 -暗", GM),
        (".init mod 刺客 +1 状态 2轮", GM),
        (".ed", P1),  # 艾琳 17 → 刺客 15+1
        (".init", P2),
        (".hp 刺客 +3", GM),
        (".ed", GM),
        (".init set 刺客 9", GM),
        (".init log", P1),
        (".ed", P2),
        (".ed", GM),
        (".init", P1),
        (".init re 刺客 隐身", GM),
        (".ap 刺客 +1", GM),
        (".init rm 刺客", GM),
        (".init undo", GM),
        (".init status", P1),
        (".init end 确认", GM),
    ]
    for text, who in script:
        await send(text, who)
    secrets = ["刺客", "68", "59/68", "62/68", "重伤", "隐身", "先攻+1", "=15", " 16 ", " 9 "]
    for line in group:
        for secret in secrets:
            assert secret not in line, (secret, line)
        assert not re.search(r"\?\?\?[^\n]*(AP \d|HP|先攻 ?[-=\d])", line), line  # not even its AP
    # a player asking after the hidden NPC gets the answer a name not in the combat gets
    assert await say(app, ".init status 刺客", **P1) == "本群没有进行中的战斗（.init begin 开始）"
    joined = "\n".join(gm_private)
    # 13 gauges at LV 3: three of 6 and ten of 5 (gauge capacities by LV) = 68
    assert "HP59/68（-9）" in joined and "HP62/68（+3）" in joined
    assert "刺客 躯干 新增重伤×2" in joined


async def test_list_follows_the_round_acted_current_then_by_tick(app: App) -> None:
    """tick20.md §4.4's layout: who acted, the current actor, then who is still to act by tick."""
    await setup(app, hidden=False)
    await say(app, ".ri =25 X", **GM)  # acts at 20 and again at 4
    await say(app, ".init start", **GM)
    await say(app, ".ed", **GM)  # X at 20 → 艾琳 17
    assert names(await say(app, ".init", **P1)) == ["艾琳", "布鲁诺", "哥布林", "X"]
    await say(app, ".ed", **P1)  # → 布鲁诺 12
    assert names(await say(app, ".init", **P1)) == ["艾琳", "布鲁诺", "哥布林", "X"]
    await say(app, ".init set 哥布林 10", **GM)  # still to act: moves, stays ahead of X
    listing = await say(app, ".init", **P1)
    assert names(listing) == ["艾琳", "布鲁诺", "哥布林", "X"]
    assert "25(当前4)  X" in listing


async def test_a_hidden_npc_is_not_there_for_a_player(app: App) -> None:
    """Whatever a player types about a hidden NPC is answered as for a name nobody has: no
    "只有 刺客 的玩家或 GM 可以…" that tells it exists, no list of candidates that names it."""
    await say(app, ".init begin", **GM)
    await say(app, ".ri =8 刺客 暗", **GM)
    await say(app, ".ri =5 剑客", **GM)
    await say(app, ".ri =17", **P1)
    await say(app, ".init start", **GM)
    commands = (
        ".hp {} -3",
        ".wound {} 躯干 hit1",
        ".init status {}",
        ".init rm {}",
        ".init set {} 5",
        ".init eff {} 眩晕 2轮",
        ".init re {} 眩晕",
        ".init swap {} 剑客",
        ".init first {}",
        ".ap {} +1",
        ".init mod {} +1 状态 2轮",
        ".init eff 艾琳 眩晕 2轮 -源 {}",
    )
    for command in commands:
        hidden = public(await run(app, command.format("刺客"), **P1))
        nobody = public(await run(app, command.format("无名氏"), **P1))
        assert hidden == nobody.replace("无名氏", "刺客"), (command, hidden, nobody)
    assert "刺客" not in public(await run(app, ".init status 客", **P1))  # only 剑客 is a candidate
    assert "刺客" in "\n".join(r.text for r in await run(app, ".init status 刺客", **GM))
