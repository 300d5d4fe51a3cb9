"""Issue 42: the 5e attack in one command, monsters with hit points and AC, how the group sees
their hit points, and hidden monsters the group learns nothing of."""

from __future__ import annotations

from helpers import Scripted, run, say

from chronodice.app import App
from chronodice.core.reply import Reply
from chronodice.services.gamelog.formats import command_info
from chronodice.services.gamelog.recorder import check_dict
from chronodice.store import LogLine

DM = {"roles": ("owner",), "user": "90009"}
ELA = "10001"
BRAN = "10002"


async def _party(app: App, group: str = "20002") -> None:
    await say(app, ".set dnd5e", group=group, **DM)
    await say(app, ".pc new 托林", user=ELA, group=group)
    await say(app, ".st str16 dex12 lv1 hp12 ac16 &长剑=1d8+str", user=ELA, group=group)
    await say(app, ".pc new 布兰", user=BRAN, group=group)
    await say(app, ".st str10 dex16 lv5 hp9 ac14 &短弓=1d6+dex", user=BRAN, group=group)


async def _order(app: App) -> None:
    """托林 21, 哥布林 15 (7 HP, AC 15), 布兰 13."""
    app.rng = Scripted([20, 10, 15], faces=20)
    await say(app, ".ri", user=ELA)
    await say(app, ".ri", user=BRAN)
    assert (
        await say(app, ".ri 哥布林 hp7 ac15", **DM)
        == "哥布林 的先攻：D20=15\n共3名；.init 查看先攻表，.init next 开始"
    )


def _public(replies: list[Reply]) -> list[str]:
    return [r.text for r in replies if not r.private]


async def test_attack_with_a_card_weapon_hits_and_drops_a_monster(app: App) -> None:
    await _party(app)
    await _order(app)
    # 长剑 = 1d8+str: to-hit is STR +3 and proficiency +2 (level 1); the monster's AC is not shown
    app.rng = Scripted([13, 4])
    assert await say(app, ".atk 哥布林 长剑", user=ELA) == (
        "托林 攻击 哥布林（长剑）：D20=13+5(力量+熟练)=18 命中！伤害 1d8+str=[4]+3=7 → 哥布林 <倒下>"
    )
    replies = await run(app, ".init", **DM)
    assert _public(replies) == [
        "先攻表（未开始，.init next 开始第1轮）：\n  托林 21\n  哥布林 15 <倒下>\n  布兰 13"
    ]
    assert replies[1].private and replies[1].to_user == "90009"
    assert "哥布林 15 体力0/7 AC15" in replies[1].text
    # a player's .init shows no secret copy
    assert [r.private for r in await run(app, ".init", user=ELA)] == [False]


async def test_critical_hit_doubles_the_dice_a_natural_one_misses_advantage_keeps_the_higher(
    app: App,
) -> None:
    await _party(app)
    await _order(app)
    await say(app, ".init 设定 哥布林 hp20", **DM)
    app.rng = Scripted([20, 6, 5])
    assert await say(app, ".atk 哥布林 +4 1d6+2", user=BRAN) == (
        "布兰 攻击 哥布林：D20=20+4=24 暴击！伤害 2d6+2=[6,5]+2=13 → 哥布林 <重伤>"
    )
    app.rng = Scripted([1])
    assert await say(app, ".atk 哥布林 +9 1d6", user=BRAN) == "布兰 攻击 哥布林：D20=1+9=10 大失败，未命中"
    app.rng = Scripted([3, 15, 2])  # 布兰: level 5 (proficiency +3), DEX +3
    assert await say(app, ".atk 哥布林 短弓 优势", user=BRAN) == (
        "布兰 攻击 哥布林（短弓）：2D20优势=[3,15]→15+6(敏捷+熟练)=21 命中！伤害 1d6+dex=[2]+3=5 → 哥布林 <垂危>"
    )
    app.rng = Scripted([5])
    assert await say(app, ".atk 哥布林 +0 1d4", user=ELA) == "托林 攻击 哥布林：D20=5+0=5 未命中"


async def test_a_monster_hits_a_player_by_the_5e_rules_and_players_do_not_hurt_each_other(app: App) -> None:
    await _party(app)
    await _order(app)
    app.rng = Scripted([15, 6])
    assert await say(app, ".atk 哥布林:托林 +4 1d6+2", **DM) == (
        "哥布林 攻击 托林：D20=15+4=19 对 AC16 命中！伤害 1d6+2=[6]+2=8 → 托林 体力12→4"
    )
    app.rng = Scripted([20, 3, 4])
    assert await say(app, ".atk 哥布林:托林 +4 1d6+2", **DM) == (
        "哥布林 攻击 托林：D20=20+4=24 对 AC16 暴击！伤害 2d6+2=[3,4]+2=9 → 托林 体力4→0，倒地昏迷（用 .ds 做死亡豁免）"
    )
    # one player's attack on another's character says the damage and leaves the card alone
    app.rng = Scripted([18, 5])
    assert await say(app, ".atk 布兰 +5 1d8", user=ELA) == (
        "托林 攻击 布兰：D20=18+5=23 对 AC14 命中！伤害 1d8=5（布兰 的体力由DM或本人结算：.st hp-5）"
    )
    assert "体力:9" in await say(app, ".st show", user=BRAN)
    # only the DM attacks for a monster
    assert (
        await say(app, ".atk 哥布林:托林 +4 1d6", user=BRAN) == "只有群主、管理员、骰主或本群GM可以替怪物攻击"
    )


async def test_how_the_group_sees_monsters_hit_points(app: App) -> None:
    await _party(app)
    await _order(app)
    assert await say(app, ".init 血量 精确", **DM) == "怪物体力：精确（群里显示数值；玩家角色的体力照常显示）"
    app.rng = Scripted([12, 8])
    replies = await run(app, ".atk 哥布林 长剑", user=ELA)
    assert _public(replies) == [
        "托林 攻击 哥布林（长剑）：D20=12+5(力量+熟练)=17 对 AC15 命中！伤害 1d8+str=[8]+3=11 → 哥布林 体力0/7，倒下了"
    ]
    assert len(replies) == 1  # nothing secret to whisper
    await say(app, ".init 设定 哥布林 hp7", **DM)
    assert await say(app, ".init 血量 隐藏", **DM) == "怪物体力：隐藏（群里不显示；玩家角色的体力照常显示）"
    app.rng = Scripted([12, 2])
    replies = await run(app, ".atk 哥布林 长剑", user=ELA)
    assert _public(replies) == ["托林 攻击 哥布林（长剑）：D20=12+5(力量+熟练)=17 命中！伤害 1d8+str=[2]+3=5"]
    assert [(r.to_user, r.text) for r in replies if r.private] == [("90009", "哥布林 体力7→2/7")]  # the DM's
    assert "体力" not in await say(app, ".init", user=ELA)
    # by hand (the DM): a monster's hit points; a player's are on the card
    assert (
        await say(app, ".init 血量 模糊", **DM)
        == "怪物体力：模糊（群里只显示满血/轻伤/重伤/垂危/倒下；玩家角色的体力照常显示）"
    )
    replies = await run(app, ".init hp 哥布林 +4", **DM)
    assert _public(replies) == ["哥布林 恢复4点体力：<轻伤>"]
    assert [r.text for r in replies if r.private] == ["哥布林 体力2→6/7"]
    assert await say(app, ".init hp 托林 -3", **DM) == "托林 是玩家角色：体力在角色卡上（.st hp-5 @某人）"
    assert (
        await say(app, ".init hp 哥布林 -3", user=ELA) == "只有群主、管理员、骰主或本群GM可以修改怪物的体力"
    )


async def _scene(app: App, group: str, hidden: bool) -> list[str]:
    """Three rounds a group plays; with ``hidden`` the DM also has an ambusher in the order.
    Returns every public reply the group read."""
    await _party(app, group)
    seen: list[str] = []

    async def play(text: str, **kw: object) -> list[Reply]:
        replies = await run(app, text, group=group, **kw)  # type: ignore[arg-type]
        seen.extend(_public(replies))
        return replies

    app.rng = Scripted([20, 10, 15], faces=20)
    await play(".ri", user=ELA)
    await play(".ri", user=BRAN)
    await play(".ri 哥布林 hp7 ac15", **DM)
    if hidden:
        app.rng = Scripted([16], faces=20)
        replies = await run(app, ".ri 暗 +3 伏兵 hp30 ac13", group=group, **DM)
        assert _public(replies) == []
        assert [(r.to_user, r.text.splitlines()[0]) for r in replies] == [
            ("90009", "（暗中，群里看不到）伏兵 的先攻：D20=16+3=19，体力30 AC13")
        ]
    app.rng = Scripted([11, 3, 9, 4, 14, 2], then_seed=3)
    await play(".init", user=ELA)
    for _ in range(7):
        replies = await play(".init next", user=ELA)
        whispers = [r for r in replies if r.private]
        assert all(r.to_user == "90009" for r in whispers)
        if hidden and replies[0].text.startswith("轮到 哥布林"):
            assert whispers and whispers[0].text.startswith("（暗中）伏兵 的回合已跳过")
    await play(".atk 哥布林 长剑", user=ELA)
    await play(".atk 伏兵 +5 1d8", user=ELA)  # a player naming the hidden one: as for nobody
    await play(".init rm 伏兵", user=BRAN)
    await play(".init 状态 伏兵 中毒 2", user=BRAN)
    await play(".init 状态 托林 祝福 2", user=BRAN)
    await play(".init", user=BRAN)
    await play(".undo", user=BRAN)
    return seen


async def test_a_hidden_monster_leaves_no_trace_in_the_group(app: App) -> None:
    with_ambush = await _scene(app, "20002", hidden=True)
    without = await _scene(app, "20003", hidden=False)
    undo_with, undo_without = with_ambush.pop(), without.pop()
    assert with_ambush == without
    # the only lines naming it echo a player's own word, exactly as for a name nobody has
    assert all("没有「伏兵」" in t for t in with_ambush if "伏兵" in t)
    assert not any("暗" in t or "体力30" in t for t in with_ambush)
    # .undo tells the undoer privately what it undid when the combat holds a hidden entry
    assert undo_without == "已撤销：.init 状态 托林 祝福 2"
    assert undo_with == "已撤销上一条操作（本场有隐藏单位，撤销的内容已私聊发给你）"


async def test_a_hidden_monster_reveals_itself_by_attacking_or_by_the_dm(app: App) -> None:
    await _party(app)
    await _order(app)
    app.rng = Scripted([16], faces=20)
    await run(app, ".ri 暗 +3 伏兵 hp30 ac13", **DM)
    assert "伏兵" not in await say(app, ".init", user=ELA)
    # a player cannot add a hidden monster, nor take its name
    assert await say(app, ".ri 暗 +3 刺客", user=ELA) == "只有群主、管理员、骰主或本群GM可以加入隐藏的怪物"
    app.rng = Scripted([7], faces=20)
    assert await say(app, ".ri +1 伏兵", user=ELA) == "这个名字现在不能用（GM处理中），换个名字"
    app.rng = Scripted([15, 2])
    assert await say(app, ".atk 伏兵:布兰 +5 1d6", **DM) == (
        "伏兵 攻击 布兰：D20=15+5=20 对 AC14 命中！伤害 1d6=2 → 布兰 体力9→7"
    )
    assert "伏兵 19 <满血>" in await say(app, ".init", user=ELA)
    assert [r.text for r in await run(app, ".init 隐藏 伏兵", **DM)] == [
        "伏兵 已隐藏：群里不再显示它和它的回合；.init 现身 伏兵 公开"
    ]
    assert "伏兵" not in await say(app, ".init", user=ELA)
    assert await say(app, ".init 现身 伏兵", **DM) == (
        "伏兵 现身了！\n先攻表（未开始，.init next 开始第1轮）：\n  托林 21\n  伏兵 19 <满血>\n  哥布林 15 <满血>\n  布兰 13"
    )
    assert await say(app, ".init 隐藏 托林", **DM) == "托林 是玩家角色：只有怪物可以隐藏"


async def test_monsters_from_the_groups_npc_card(app: App) -> None:
    await _party(app)
    await say(app, ".npc 哥布林 敏捷14 hp7 ac15 &弯刀=1d6+dex", **DM)
    app.rng = Scripted([20, 11, 6], faces=20)
    await say(app, ".ri", user=ELA)
    replies = await run(app, ".ri 2# 哥布林", **DM)
    assert _public(replies) == [
        "哥布林1 的先攻：D20=11+2(敏捷)=13\n哥布林2 的先攻：D20=6+2(敏捷)=8\n共3名；.init 查看先攻表，.init next 开始"
    ]
    assert [r.text for r in replies if r.private] == ["按NPC卡 <哥布林>：体力7 AC15"]
    # the DM attacks with the card's weapon: DEX +2 and proficiency +2
    app.rng = Scripted([9, 3])
    assert await say(app, ".atk 哥布林2:托林 弯刀", **DM) == (
        "哥布林2 攻击 托林（弯刀）：D20=9+4(敏捷+熟练)=13 对 AC16 未命中"
    )
    # the card's numbers are the DM's: a player's .ri of that name is a plain entry
    app.rng = Scripted([10], faces=20)
    assert (
        await say(app, ".ri 哥布林", user=ELA)
        == "哥布林 的先攻：D20=10\n共4名；.init 查看先攻表，.init next 开始"
    )


async def test_dnd_lines_carry_sealdice_dnd5e_command_info(app: App) -> None:
    await _party(app)
    await _order(app)
    app.rng = Scripted([13, 4])
    attack, whisper = await run(app, ".atk 哥布林 长剑", user=ELA)
    assert whisper.private and whisper.to_user == "90009" and whisper.check is None
    app.rng = Scripted([12])
    (save,) = await run(app, ".rs 敏捷", user=ELA)

    def info(reply: Reply) -> object:
        assert reply.check is not None
        line = LogLine(
            "bot", "骰娘", [["text", reply.text]], None, True, check_dict(reply.check, ELA, "托林")
        )
        return command_info(line, None)

    assert info(attack) == {
        "cmd": "rc",
        "rule": "dnd5e",
        "pcName": "托林",
        "items": [
            {"expr": "D20 + 5", "reason": "攻击哥布林", "result": 18},
            {"expr": "1d8+str", "reason": "伤害", "result": 7},
        ],
    }
    assert info(save) == {
        "cmd": "rc",
        "rule": "dnd5e",
        "pcName": "托林",
        "items": [{"expr": "D20 + 1", "reason": "敏捷豁免", "result": 13}],
    }


async def test_help_shows_the_meaning_a_command_has_in_this_group(app: App) -> None:
    await say(app, ".set dnd5e", **DM)
    assert (await say(app, ".help atk")).startswith("DnD5e攻击：命中对AC、伤害、暴击加倍骰子，一条指令")
    assert (await say(app, ".help init")).startswith("DnD5e先攻表：")
    assert (
        "【DnD5e】.rs .dnd .ds .ss .longrest .shortrest 以及本群的 .rc .st .ri .init .ed .atk"
        in await say(app, ".help")
    )
    await say(app, ".set tick20", group="30003", **DM)
    assert (await say(app, ".help atk", group="30003")).startswith("一条指令完成攻击：ATK检定→对DEF")
    assert "以及本群的" not in await say(app, ".help", group="30003")


async def test_a_card_of_another_system_is_told_so(app: App) -> None:
    await say(app, ".set coc7", group="30003", **DM)
    await say(app, ".pc new 老李", user="10006", group="30003")
    await say(app, ".st 力量60", user="10006", group="30003")
    await _party(app)
    await _order(app)
    await say(app, ".pc tag 老李", user="10006")
    assert await say(app, ".atk 哥布林 +5 1d8+str", user="10006") == (
        "<老李> 是CoC7角色卡，不能用于DnD5e检定：用 .pc tag 换一张DnD5e卡（或 .pc new 名字 新建），或 .set coc7 切回CoC7模式"
    )


async def test_hostile_text_gets_one_short_reply_fast(app: App) -> None:
    import time

    await _party(app)
    await _order(app)
    app.rng = Scripted([], then_seed=1)
    for head in (
        ".atk",
        ".atk 哥布林",
        ".ri",
        ".ri 暗",
        ".init 设定",
        ".init hp 哥布林",
        ".init 血量",
        ".init 状态 哥布林",
    ):
        for filler in (" " * 2000 + "x", "哥布林:" * 300, "+5 " * 600, "ac1" * 600):
            start = time.perf_counter()
            replies = await run(app, f"{head} {filler}"[:2000], **DM)
            took = time.perf_counter() - start
            assert took < 0.5, (head, filler[:10], took)
            assert len(_public(replies)) == 1 and all(len(r.text) <= 300 for r in replies), (head, replies)
