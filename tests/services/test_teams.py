"""``.ob`` spectators and ``.team`` through the dispatcher (issue 30): storage per group, the GM
checks, ``.team call``'s real mentions, ``.team pick`` from the injected rng, ``.team st`` through
the one card rule, ``.team show``, and spectators left out of ``.log stat``."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from helpers import Scripted, run, say

from chronodice.app import App
from chronodice.core.ratelimit import FloodSettings
from chronodice.core.reply import CheckNote
from chronodice.datadir import DataDir
from chronodice.services.gamelog import recorder

GM = {"roles": ("owner",)}
A, B, C = "30001", "30002", "30003"


async def test_ob_join_leave_list(app: App) -> None:
    assert await say(app, ".ob") == "PL01 开始旁观"
    assert await say(app, ".ob join") == "PL01 已经在旁观了"
    assert await say(app, ".ob join", user=A, name="看客") == "看客 开始旁观"
    assert await say(app, ".ob list") == f"本群旁观者（2人）：PL01(10001)、{A}"
    assert await say(app, ".ob exit") == "PL01 退出了旁观"
    assert await say(app, ".ob leave") == "PL01 没有在旁观"
    assert await say(app, ".ob list", group="40004") == "本群没有旁观者"  # per group
    assert "只有" in await say(app, ".ob clr")
    assert await say(app, ".ob clr", **GM) == "已清空本群旁观者"
    assert await say(app, ".ob list") == "本群没有旁观者"


async def test_spectators_left_out_of_log_stat(app: App, tmp_path: Path) -> None:
    lapp = App(app.store, app.rng, flood=FloodSettings(enabled=False), data_dir=DataDir(tmp_path))
    assert await run(lapp, ".log new 夜", **GM)

    async def line(user: str, name: str, check: CheckNote | None = None) -> None:
        await recorder.record(
            lapp.store,
            lapp.log_limits,
            "20002",
            user_id="123456" if check else user,
            nickname="骰娘" if check else name,
            parts=[["text", "……"]],
            when=datetime.now(timezone.utc),
            is_bot=check is not None,
            check=recorder.check_dict(check, user, name) if check else None,
        )

    await line("10001", "艾拉")
    await line("10001", "艾拉", CheckNote("侦查", "成功", True))
    await line(A, "看客")
    await line(A, "看客", CheckNote("侦查", "失败", False))
    assert await say(lapp, ".log stat") == (
        "日志「夜」统计\n艾拉：发言1条，检定1次（成功1，失败0，成功率100%）\n看客：发言1条，检定1次（成功0，失败1，成功率0%）"
    )
    await run(lapp, ".ob", user=A)
    assert (
        await say(lapp, ".log stat") == "日志「夜」统计\n艾拉：发言1条，检定1次（成功1，失败0，成功率100%）"
    )


async def test_team_add_list_del_clr(app: App) -> None:
    assert "只有" in await say(app, ".team add", at=(A,))
    assert await say(app, ".team add", at=(A, B, A), **GM) == f"已加入队伍：{A}、{B}（共2人）"
    assert await say(app, ".team add @30003", **GM) == f"已加入队伍：{C}（共3人）"
    assert await say(app, ".team add", at=(A,), **GM) == "没有变化（都已在队伍中）"
    assert await say(app, ".team") == f"本群队伍（3人）：{A}、{B}、{C}"
    assert await say(app, ".team del", at=(B,), **GM) == f"已移出队伍：{B}（剩2人）"
    assert await say(app, ".team list") == f"本群队伍（2人）：{A}、{C}"
    assert await say(app, ".team clr", **GM) == "已清空本群队伍"
    assert await say(app, ".team list") == "本群队伍是空的（.team add @某人 添加）"


async def test_team_call_mentions_everyone(app: App) -> None:
    assert await say(app, ".team call") == "本群队伍是空的（.team add @某人 添加）"
    await run(app, ".team add", at=(A, B), **GM)
    replies = await run(app, ".team call 集合了")
    assert [(r.text, r.mentions) for r in replies] == [("集合了", (A, B))]
    replies = await run(app, ".team call")
    assert [(r.text, r.mentions) for r in replies] == [("PL01 召集队伍！", (A, B))]


async def test_team_pick_uses_the_app_rng(app: App) -> None:
    await run(app, ".team add", at=(A, B, C), **GM)
    app.rng = Scripted([2])  # swap index 0 with 2
    assert await say(app, ".team pick") == f"从队伍中抽取1人：{C}"
    app.rng = Scripted([1, 2])  # [A,B,C] → [B,A,C] → [B,C,A]
    assert await say(app, ".team pick 2") == f"从队伍中抽取2人：{B}、{C}"
    assert await say(app, ".team pick 4") == "队伍只有3人，不能抽4人"


async def test_team_st_changes_each_bound_card(app: App) -> None:
    await run(app, ".st 体力10 理智50", user=A)
    await run(app, ".st 体力8 理智40", user=B)
    await run(app, ".nn 阿尔法", user=A)
    await run(app, ".team add", at=(A, B, C), **GM)
    assert "只有" in await say(app, ".team st 体力-1")
    assert await say(app, ".team st hp-1", **GM) == (
        "已录入 <PL01>：体力-1→9\n"
        "已录入 <PL02>：体力-1→7\n"
        f"{C}：{C} 在本群没有绑定角色卡（在消息里 @ 他，或请他在本群用 .pc tag 角色名 绑定）"
    )
    assert await say(app, ".team show 体力 san") == (
        "阿尔法 <PL01> 体力:9 理智:50\n"
        f"{B} <PL02> 体力:7 理智:40\n"
        f"{C}：{C} 在本群没有绑定角色卡（在消息里 @ 他，或请他在本群用 .pc tag 角色名 绑定）"
    )


async def test_group_only(app: App) -> None:
    assert "群" in await say(app, ".team list", group=None)
    assert "群" in await say(app, ".ob", group=None)


async def test_team_st_follows_the_dnd5e_hp_rules(app: App) -> None:
    """Issue 42: in a DnD5e group ``.team st hp-25`` gives each member's card what ``.st hp-25``
    gives it — floored at 0, temporary HP first, the same words."""
    await run(app, ".set dnd5e", **GM)
    await run(app, ".pc new 托林", user=A)
    await run(app, ".pc new 薇拉", user=B)
    assert await say(app, ".st hp20 thp3", user=A) == "已录入 <托林>：体力:20（上限20） 临时体力:3"
    assert await say(app, ".st hp20", user=B) == "已录入 <薇拉>：体力:20（上限20）"
    await run(app, ".team add", at=(A, B), **GM)
    assert await say(app, ".team st hp-25", **GM) == (
        "已录入 <托林>：体力-25→0（临时体力抵消3），倒地昏迷（用 .ds 做死亡豁免）\n"
        "已录入 <薇拉>：体力-25→0，倒地昏迷（用 .ds 做死亡豁免）"
    )
    assert (
        await say(app, ".team show hp 临时体力")
        == f"{A} <托林> 体力:0 临时体力:0\n{B} <薇拉> 体力:0 临时体力:—"
    )
    assert await say(app, ".team st hp-3", **GM) == (
        "已录入 <托林>：体力-3→0，昏迷中受伤：死亡豁免失败+1（成功0/失败1）\n"
        "已录入 <薇拉>：体力-3→0，昏迷中受伤：死亡豁免失败+1（成功0/失败1）"
    )
    assert await say(app, ".team st hp+5", **GM) == (
        "已录入 <托林>：体力+5→5，恢复意识\n已录入 <薇拉>：体力+5→5，恢复意识"
    )
    assert await say(app, ".team st hp-25", **GM) == (
        "已录入 <托林>：体力-25→0，伤害溢出达到体力上限：当场死亡\n"
        "已录入 <薇拉>：体力-25→0，伤害溢出达到体力上限：当场死亡"
    )


async def test_team_st_in_a_coc_group_keeps_the_coc_st(app: App) -> None:
    await run(app, ".set coc7", **GM)
    await run(app, ".pc new 艾拉", user=A)
    await run(app, ".st 体质50 体型60", user=A)
    await run(app, ".st 体力3", user=B)
    await run(app, ".team add", at=(A, B), **GM)
    assert await say(app, ".team st 体力-1", **GM) == (
        "已录入 <艾拉>：体力-1→10（由体质、体型算出11）\n已录入 <PL02>：体力-1→2"
    )
    assert await say(app, ".team st 体力-5", **GM) == "已录入 <艾拉>：体力-5→5\n已录入 <PL02>：体力-5→-3"


async def test_team_st_in_a_group_without_mode_goes_by_each_card(app: App) -> None:
    """No mode set: ``.st`` follows the DnD5e rules for a DnD5e card (as the member's own ``.st``
    would), the common ``.st`` for another card — whatever the GM's own card is."""
    other = "40004"
    await run(app, ".set dnd5e", group=other, **GM)
    await run(app, ".pc new 托林", user=A, group=other)
    await run(app, ".pc tag 托林", user=A)
    await run(app, ".st hp20", user=A)
    await run(app, ".st 体力3", user=B)
    await run(app, ".st 体力9", **GM)  # the GM's own card is a generic one
    await run(app, ".team add", at=(A, B), **GM)
    assert await say(app, ".team st 体力-25", **GM) == (
        "已录入 <托林>：体力-25→0，倒地昏迷（用 .ds 做死亡豁免）\n已录入 <PL02>：体力-25→-22"
    )
