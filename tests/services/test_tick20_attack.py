"""Issue 26: an attack in one command (``.atk``), a hidden D20 check (``.rc 暗``) and effects that
change checks (``.init eff … -劣势`` / ``-检定 ±N类型`` / a tag ``残障:臂部``).  Seed 002 「攻击检定」「防御检定」「伤害」;
every number pinned with scripted dice."""

from __future__ import annotations

from helpers import Scripted, run, say

from chronodice.app import App
from chronodice.services.tick20.codec import COMBAT_CODEC

GM = {"user": "10001", "roles": ("owner",)}
P1 = {"user": "10002", "name": "艾琳"}


async def scene(app: App) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, ".npc 哥布林 力量12 敏捷14 运动1 武器熟练1 LV4 DR1 hit2 dp3", **GM)
    await say(app, ".npc 暗影 力量16 敏捷12 武器熟练2 LV6 DR2 hit3 dp2", **GM)
    await say(app, ".st 力量10 敏捷14 闪避熟练1 LV4", **P1)
    await say(app, ".init begin", **GM)
    await say(app, ".ri =15 哥布林*2, 暗 =12 暗影", **GM)  # 哥布林1 acts first (issue 39: .atk spends AP)
    await say(app, ".ri =10", **P1)
    await say(app, ".init start", **GM)


async def test_npc_attack_is_check_defence_damage_and_wounds(app: App) -> None:
    await scene(app)
    app.rng = Scripted([15])
    text = await say(app, ".atk 哥布林1:艾琳", **GM)
    # ATK: 15 + 1 力量 + 2 武器熟练 (the mode's proficiency, not 运动's) = 18;
    # DEF: passive 闪避 10 + 2 敏捷 + 2 闪避熟练 = 14 → hit by 4;
    # damage: the card's Hit2 DP3 against 艾琳's DR0 → 3 轻伤 on the default 躯干
    assert text == (
        "哥布林1 攻击 艾琳（近战，躯干）\n"
        "ATK：D20=15+3=18（+1力量+2武器熟练）\n"
        "DEF：闪避 被动10+4=14（+2敏捷+2熟练）\n"
        "→ 命中（成功，成功度4）\n"
        "伤害：Hit2 DP3 对 DR0\n"
        "艾琳：躯干 3/4：轻伤×3\n"
        "  艾琳 躯干 新增轻伤×3\n"
        "哥布林1 花2AP（AP 1/3）"  # issue 39: its 主要动作, in its own turn
    )


async def test_a_miss_makes_no_wound(app: App) -> None:
    await scene(app)
    app.rng = Scripted([3])
    text = await say(app, ".atk 哥布林2:艾琳 臂部 hit1 dp2 切割 ap0", **GM)  # outside its turn: no AP
    assert text.splitlines()[1:] == [
        "ATK：D20=3+3=6（+1力量+2武器熟练）",
        "DEF：闪避 被动10+4=14（+2敏捷+2熟练）",
        "→ 未命中（失败，失败度8）",
    ]
    state = await app.store.sessions.load_state("20002", COMBAT_CODEC)
    erin = next(c for c in state.combatants if c.name == "艾琳")
    assert all(not p.wounds for p in erin.health.parts)


async def test_a_hidden_attacker_is_revealed_by_its_attack(app: App) -> None:
    """Issue 39: the group reads the attack as its target lives it — the attacker's name and the
    hit (was: ``??? 攻击 艾琳``); from then on 暗影 is seen like any combatant."""
    await scene(app)
    app.rng = Scripted([12])
    replies = await run(app, ".atk 暗影:艾琳 ap0", **GM)
    public = "\n".join(r.text for r in replies if not r.private)
    assert "???" not in public
    # 12 + 3 力量 + 4 武器熟练 + 2 (LV6 − 4) = 21 against 14; Hit3 DP2 − DR0: 2 重伤
    assert public.startswith(
        "暗影 攻击 艾琳（近战，躯干）\nATK：D20=12+9=21（+3力量+4武器熟练+2LV内在）\nDEF：闪避 被动10+4=14"
    )
    assert "→ 命中（成功，成功度7）" in public
    assert "暗影" in await say(app, ".init", **P1)


async def test_player_attack_with_a_rolled_defence_and_the_npcs_dr(app: App) -> None:
    await scene(app)
    app.rng = Scripted([12, 5])
    replies = await run(app, ".atk 哥布林1 hit2 dp2 掷防御 ap0", **P1)
    public, private = replies[0].text, replies[1].text
    assert public.splitlines()[:4] == [
        "艾琳 攻击 哥布林1（近战，躯干）",
        "ATK：D20=12+0=12",
        "DEF：闪避 D20=5+2=7（+2敏捷）",
        "→ 命中（成功，成功度5）",
    ]
    assert "伤势已记录" in public and "轻伤" not in public  # hp_display 模糊: no wounds for players
    assert replies[1].private and "伤害：Hit2 DP2 对 DR1" in private and "躯干 1/4：轻伤" in private


async def test_defence_mode_is_the_gms_choice_per_combat(app: App) -> None:
    await scene(app)
    assert "防御=掷骰" in await say(app, ".init meta -防御 掷骰", **GM)
    app.rng = Scripted([15, 9])
    text = await say(app, ".atk 哥布林1:艾琳", **GM)
    assert "DEF：闪避 D20=9+4=13（+2敏捷+2熟练）" in text
    app.rng = Scripted([15])
    text = await say(app, ".atk 哥布林1:艾琳 def19", **GM)
    assert "DEF：19（宣告）\n→ 未命中（失败，失败度1）" in text


async def test_a_player_cannot_attack_for_an_npc(app: App) -> None:
    await scene(app)
    assert await say(app, ".atk 哥布林1:艾琳", **P1) == "只有 哥布林1 的玩家或 GM 可以替他攻击"


async def test_effect_disadvantage_shows_on_the_next_check_and_attack(app: App) -> None:
    await scene(app)
    assert await say(app, ".init eff 艾琳 恐惧 2轮 -劣势", **GM) == "艾琳 获得「恐惧」（2轮） 检定劣势"
    app.rng = Scripted([12, 5])
    text = await say(app, ".rc 运动 12", **P1)
    assert text == "艾琳 的运动检定：D20=[12,5]劣势→5+0=5\n检定：5/12 失败（失败度7）\n（效果：恐惧 劣势）"
    await say(app, ".init eff 哥布林1 祝福 2轮 -检定 +2状态", **GM)
    app.rng = Scripted([10])
    text = await say(app, ".atk 哥布林1:艾琳", **GM)
    assert "ATK：D20=10+5=15（+1力量+2武器熟练+2祝福状态）" in text


async def test_effect_tag_makes_a_part_count_as_crippled(app: App) -> None:
    await scene(app)
    assert "获得「残障:臂部」" in await say(app, ".init eff 艾琳 残障:臂部 3轮", **GM)
    app.rng = Scripted([10])
    text = await say(app, ".rc 运动 12 -部位 臂部", **P1)
    assert "-4臂部残障状态" in text


async def test_hidden_d20_check_keeps_n20_and_degrees(app: App) -> None:
    await scene(app)
    app.rng = Scripted([20])
    replies = await run(app, ".rc 暗 暗影:洞悉 15", **GM)
    assert replies[0].text == "PL01 进行了一次暗中检定" and not replies[0].private
    assert replies[1].private
    assert replies[1].text == (
        "在群20002中的暗中检定：\n暗影 的洞悉检定：D20=20+3+10(N20)=33\n修正：+1敏捷+2LV内在\n检定：33/15 大成功（成功度18）"
    )


async def test_concealed_targets_lower_atk_and_untraceable_ones_in_secret(app: App) -> None:
    """002 感知: 匿迹 "ATK会受到5点减值"; 无踪 "GM会将ATK暗中-10，并且不会告知角色失手的原因"."""
    await scene(app)
    app.rng = Scripted([15])
    text = await say(app, ".atk 哥布林1:艾琳 匿迹", **GM)
    assert "ATK：D20=15-2=13（+1力量+2武器熟练-5匿迹）" in text
    app.rng = Scripted([15])
    replies = await run(app, ".atk 哥布林1:艾琳 无踪", **GM)
    public, private = replies[0].text, replies[1].text
    assert public.splitlines()[:2] == ["哥布林1 攻击 艾琳（近战，躯干）", "→ 未命中"]
    assert "ATK" not in public and "DEF" not in public and "无踪" not in public
    assert "ATK：D20=15-7=8（+1力量+2武器熟练-10无踪）" in private and replies[1].private
    assert (
        await say(app, ".atk 哥布林1 无踪 hit1 dp1 ap0", **P1)
        == "只有本场战斗的GM（开战者、.init gm 指定者）或群管理可以暗中结算对无踪目标的攻击"
    )


async def test_a_hidden_combatants_check_is_hidden_without_asking(app: App) -> None:
    await scene(app)
    app.rng = Scripted([9])
    replies = await run(app, ".rc 暗影:洞悉 15", **GM)
    assert replies[0].text == "PL01 进行了一次暗中检定"
    assert replies[1].private and "暗影 的洞悉检定：D20=9+3=12" in replies[1].text


async def test_an_attack_line_carries_its_d20_for_the_sealdice_export(app: App) -> None:
    """The log's SealDice JSON shows an attack's to-hit die (``cmd: "roll"``): 15 + 3 = 18."""
    await scene(app)
    app.rng = Scripted([15])
    [reply] = await run(app, ".atk 哥布林1:艾琳", **GM)
    assert reply.check is not None and reply.check.rule == "tick20"
    assert (reply.check.label, reply.check.success, reply.check.items) == (
        "攻击",
        True,
        (("D20+3", "攻击艾琳", 18),),
    )
