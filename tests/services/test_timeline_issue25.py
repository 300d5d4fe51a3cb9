"""Issue 25 (TimeLine battle): each defect's exact repro through ``App.dispatch``, with the book's
numbers (rule book: /work/shared/seeds/000_c731a0cf0506e62e.txt).

1. a stun re-chained a queued action into the past, ignoring the wait ``.bat 推进`` set;
2. ``.neg``: a roll equal to the rate failed (book 检定: 骰值小于等于成功率则成功);
3. an overloaded character acted (book 负重: 携带的物品超过了负重，则角色会无法行动);
4. an action starting exactly as a stun lands was postponed without a word (book 时间轴: 开始的
   一刻是准备阶段，不进行交互判定);
5. a death entered after the fact voided resolved actions without a word.
"""

from __future__ import annotations

from helpers import say

from chronodice.app import App
from chronodice.rules.timeline import battle as bt
from chronodice.rules.timeline import battle_actions as ba
from chronodice.rules.timeline import interactions as ix
from chronodice.rules.timeline.checks import negotiation_rate, negotiation_success

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:{intel},医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:{load}"
)
GM = {"user": "99999", "roles": ("admin",)}


async def setup(app: App, name: str, user: str, *, intel: int = 35, load: float = 0) -> None:
    text = await say(app, SHEET.format(name=name, intel=intel, load=load), user=user)
    assert f"[{name}] 的TL属性设置完成√" in text


class FixedRoll:
    """An ``app.rng`` whose every d100 is ``value``."""

    def __init__(self, value: int) -> None:
        self.value = value

    def randint(self, a: int, b: int) -> int:
        return self.value


# ---------------------------------------------------------------- 1 + 4: stun after a 推进 wait
async def stun_after_advance(app: App) -> str:
    """The issue's repro: 战士 (力量 175, 意志 150), 术士 (智力 250: 150 takes 20·150/250 = 12t)."""
    await setup(app, "战士", "10001")
    await setup(app, "术士", "10002", intel=50)
    assert "行动#1 战士：0.0t → 5.0t" in await say(app, ".bat 力量 5t", user="10001")
    assert "行动#2 术士：0.0t → 12.0t" in await say(app, ".bat 智力 150 侵蚀", user="10002")
    assert "战士等待到12.0t" in await say(app, ".bat 推进 12", **GM)
    assert "行动#3 战士：12.0t → 32.0t（前摇20.0t）" in await say(app, ".bat 力量 20t 重击", user="10001")
    return await say(app, ".bat 控制 #2 意志 >战士", **GM)


async def test_stun_keeps_the_wait_advance_set(app: App) -> None:
    # book 控制效果: 持续时间 = 目标抵抗影响数值的前摇 = 20·150/150 = 20t, from 12t to 32t.
    # #3 waited (推进) until 12t; it may start only when the stun ends: 32→52t (was 5→25t, in the past)
    text = await stun_after_advance(app)
    assert "💫 战士被行动#2控制：150.0 vs 意志 150.0 → 持续20.0t（12.0→32.0t）" in text
    assert "#3→25.0t" not in text
    assert "战士最早于52.0t再次行动；当前战斗时间12.0t" in text
    log = await say(app, ".bat 记录", **GM)
    assert "#3 战士 32.0→52.0t (20.0t) 力量 175.0 重击" in log
    # the text block agrees with the log
    assert "52.0t (20.0t) : 175.0 ⌛" in await say(app, ".bat 全", **GM)


async def test_action_starting_as_the_stun_lands_says_which_reading(app: App) -> None:
    # book 时间轴 (line 491): 一个行动开始的一刻……不会进行交互判定(例如打断,眩晕)
    text = await stun_after_advance(app)
    assert (
        "ℹ 行动#3恰在控制生效的12.0t开始：按规则书开始的一刻只是准备、不作交互判定，"
        "本骰读作不打断但控制期间不能开始，顺延为32.0→52.0t（若判其不受控制影响请 .undo）"
    ) in text
    assert "其后行动顺延" not in text  # #3 is told once, with the reading


def test_rechain_keeps_each_actions_own_wait_after_two_advances() -> None:
    # 推进 12, an action 12→20, 推进 40; a stun entered at 10t for 20t ([10, 30)) re-chains from #1:
    # #2 keeps its own 12t wait and cannot start in the stun → 30→38t (not 5→13t)
    a, b = bt.ParticipantRef(1, "甲", "1"), bt.ParticipantRef(2, "乙", "2")
    s, _, _ = ba.attribute_action(bt.new_battle(), a, "strength", 175.0, time=5.0)
    s, _, _ = ba.attribute_action(s, b, "intelligence", 175.0, time=10.0)
    s, _ = bt.advance(s, 12.0)
    s, second, _ = ba.attribute_action(s, a, "strength", 175.0, time=8.0)
    assert (second.start, second.not_before) == (12.0, 12.0)
    s, _ = bt.advance(s, 40.0)
    s, _, moved = ix.apply_control(s, 2, "c1", 20.0)
    assert [(x.id, x.start, x.end) for x in moved] == [(3, 30.0, 38.0)]


# ---------------------------------------------------------------- 2: negotiation, equal succeeds
def test_negotiation_book_examples_equal_succeeds() -> None:
    # book 检定 (line 311): 骰值小于等于成功率则成功; its examples: 成功率 50 → "50 及以下",
    # 40 → "40 及以下"; the 交涉 calculator: 对象等级 10, 智力% 35, RP 100, 加成 75 → 50%; RP 0 → 21%
    rate = negotiation_rate(100, 75.0, 10, 10, 35)
    assert rate == 50.0
    assert negotiation_success(50, rate) and not negotiation_success(51, rate)
    assert negotiation_success(40, 40.0) and not negotiation_success(41, 40.0)
    assert negotiation_rate(0, 75.0, 10, 10, 35) == 21.0 and negotiation_success(21, 21.0)


async def test_neg_roll_equal_to_rate_succeeds(app: App) -> None:
    await setup(app, "甲", "10001")
    assert await say(app, ".neg 10 35") == "已设定交涉对象！"
    app.rng = FixedRoll(50)  # type: ignore[assignment]
    assert await say(app, ".neg 100") == "[甲]进行交涉检定\nRP：100\n成功率：50%\n检定：50/50\n🎉成功！"
    app.rng = FixedRoll(21)  # type: ignore[assignment]
    assert (await say(app, ".neg 0")).endswith("检定：21/21\n🎉成功！")
    app.rng = FixedRoll(51)  # type: ignore[assignment]
    assert (await say(app, ".neg 100")).endswith("检定：51/50\n❗️失败！")


# ---------------------------------------------------------------- 3: overloaded cannot act
REFUSED = "[战士]超重（负重 200.0/175.0），规则书：携带物品超过负重则无法行动× GM可代为行动放行（.bat @玩家 … 或 .bat 角色名:…）"


async def test_overloaded_character_cannot_act_unless_the_gm_acts_for_it(app: App) -> None:
    # book 负重 (line 210): 如果角色携带的物品超过了负重，则角色会无法行动 (力量 175 = 总负重; 负重 200)
    await setup(app, "战士", "10001", load=200)
    assert await say(app, ".bat 力量 150", user="10001") == REFUSED
    assert await say(app, ".bat 力量 5t", user="10001") == REFUSED
    assert "没有战斗数据" in await say(app, ".bat 全", user="10001")  # nothing recorded
    text = await say(app, ".bat @10001 力量 5t", at=("10001",), **GM)
    assert text.startswith("⚠战士超重，规则书：超过负重无法行动；GM代为行动，已放行\n")
    assert "行动#1 战士：0.0t → 5.0t" in text
    assert "⚠超重" in await say(app, ".bat 全", **GM)  # the timeline keeps the load warning
    # joined now: the GM may name it; the player still may not act
    assert "GM代为行动，已放行" in await say(app, ".bat 战士:力量 5t", **GM)
    assert await say(app, ".bat 力量 5t", user="10001") == REFUSED


async def test_exactly_full_load_may_act(app: App) -> None:
    # "超过" 负重: 175/175 is full, not over — it acts (the text block keeps its load warning)
    await setup(app, "战士", "10001", load=175)
    text = await say(app, ".bat 力量 5t", user="10001")
    assert text.startswith("[战士]在0.0t加入战斗\n行动#1 战士：0.0t → 5.0t") and "放行" not in text


# ---------------------------------------------------------------- 5: a death entered after the fact
async def goblin_battle(app: App) -> None:
    """#1 哥布林 0→9.52t, #5 甲's hit at 7.0t, #6 哥布林 9.52→12.69t >乙 (interaction told), clock 12.69t."""
    await setup(app, "甲", "10001")
    await setup(app, "乙", "10002")
    await setup(app, "哥布林", GM["user"])
    for user, cmd in (
        (GM["user"], ".bat 哥布林:力量 9.52t"),
        ("10001", ".bat 力量 2t"),
        ("10002", ".bat 力量 20t"),
        (GM["user"], ".bat 开始"),  # the GM ends the opening (a second declaration no longer does)
        ("10001", ".bat 力量 2t"),
        ("10001", ".bat 力量 3t >哥布林"),
        (GM["user"], ".bat 哥布林:力量 3.17t >乙"),
    ):
        await say(app, cmd, **(GM if user == GM["user"] else {"user": user}))
    text = await say(app, ".bat 力量 10t", user="10001")
    # issue 25 defect 6: the feed lists what settled — #1 at 9.52t, then #6's hit on 乙
    assert "✔#1 哥布林 力量 83.3 @9.52t（无目标）\n✔#6 哥布林 力量 27.7 @12.69t →乙：" in text
    assert "乙#3（175.0）前摇中，非防御动作，全额命中27.7，记伤害：.crd 乙:hp -27.7 #6" in text
    assert "⏱ 战斗时间 12.69t" in text


async def test_retroactive_death_lists_the_actions_it_voids(app: App) -> None:
    # book 死亡 (line 519): 体力降低至 0，则角色死亡 — at 7.0t, so #1 (due 9.52t) and #6 are void
    await goblin_battle(app)
    text = await say(app, ".crd 哥布林:hp -200 #5", **GM)
    assert text.endswith(
        "（已记入时间轴 @7.0t）\n"
        "#1、#6 因哥布林在7.0t死亡而作废\n"
        "其中#1、#6原已结算（#6的交互已提示）；若不应作废：.undo 后不带 #行动 记在当前时刻\n"
        # defect 6: the dead no longer hold the clock, which moves to 17.0t: 甲's #7 settles
        "✔#7 甲 力量 87.5 @17.0t（无目标）"
    )
    log = await say(app, ".bat 记录", **GM)
    assert "#1 哥布林 0.0→9.52t (9.52t) 力量 83.3 ✖取消@7.0t" in log


async def test_retroactive_death_names_recorded_changes_it_leaves(app: App) -> None:
    await goblin_battle(app)
    assert "已记入时间轴 @12.69t" in await say(app, ".crd 乙:hp -30 #6", **GM)
    text = await say(app, ".crd 哥布林:hp -200 #5", **GM)
    assert (
        "其中#1、#6原已结算（#6的交互已提示），已记入的乙体力-30.0（#6）不会自动撤销；"
        "若不应作废：.undo 后不带 #行动 记在当前时刻"
    ) in text


async def test_death_at_the_clock_lists_unresolved_actions(app: App) -> None:
    await goblin_battle(app)
    await say(app, ".bat 哥布林:力量 5t", **GM)  # #8 12.69→17.69t; the clock moves to 甲's 17.0t
    text = await say(app, ".crd 哥布林:hp -200", **GM)
    assert text.endswith("（已记入时间轴 @17.0t）\n#8 因哥布林在17.0t死亡而作废")
