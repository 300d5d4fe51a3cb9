"""Issue 30: a check or ``.st`` never uses a card of another system; CoC derived values are
computed when a change needs them; ``.init begin`` over a prepared lineup asks first; paged help."""

from __future__ import annotations

from helpers import Scripted, say

from chronodice.app import App

GM = {"roles": ("owner",)}
COC_CARD = ".st 力量50 体质55 体型65 意志60 侦查60"
TO_TICK20 = (
    "<PL01> 是CoC7角色卡，不能用于D20刻度检定：用 .pc tag 换一张D20刻度卡（或 .pc new 名字 新建），"
    "或 .set coc7 切回CoC7模式"
)


async def card(app: App, user: str = "10001") -> dict[str, object]:
    char = await app.store.characters.active_character(user, "20002")
    assert char is not None
    return dict(char.attributes)


# ------------------------------------------------------------------------------ card guards
async def test_a_d20_check_refuses_a_coc_card(app: App) -> None:
    await say(app, COC_CARD)
    await say(app, ".set tick20", **GM)
    app.rng = Scripted([19])
    assert await say(app, ".rc 运动 15") == TO_TICK20
    # a bare number reads no card: answered
    assert "检定：" in await say(app, ".rc 0 20")
    # after .pc new, the new card is a D20-tick card and the check reads it
    assert await say(app, ".pc new 阿尔") == "已新建角色 <阿尔> 并在本群使用"
    assert "（D20刻度）" in await say(app, ".pc show")


async def test_st_never_rewrites_another_systems_card(app: App) -> None:
    await say(app, COC_CARD)
    await say(app, ".set dnd5e", **GM)
    assert await say(app, ".st str16 dex14") == (
        "<PL01> 是CoC7角色卡，本群是DnD5e模式，不改写它：用 .pc tag 换一张DnD5e卡（或 .pc new 名字 新建），"
        "或 .set coc7 切回CoC7模式"
    )
    assert (await card(app))["力量"] == 50
    assert await say(app, ".rc 力量 15") == (
        "<PL01> 是CoC7角色卡，不能用于DnD5e检定：用 .pc tag 换一张DnD5e卡（或 .pc new 名字 新建），"
        "或 .set coc7 切回CoC7模式"
    )
    # a card made in the dnd5e group is a DnD5e card: .st writes it, the check reads it
    await say(app, ".pc new 艾拉")
    assert await say(app, ".st str16 dex14") == "已录入 <艾拉>：力量:16 敏捷:14"
    assert "（DnD5e）" in await say(app, ".pc show")
    app.rng = Scripted([12])
    assert (
        await say(app, ".rc 力量 15") == "艾拉 的力量检定：D20=12+3(力量)=15 对 DC15 成功"
    )  # the card (issue 42)


async def test_coc_checks_refuse_a_d20_card(app: App) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, ".st 力量14 体质12")
    await say(app, ".set coc7", **GM)
    refusal = (
        "<PL01> 是D20刻度角色卡，不能用于CoC7检定：用 .pc tag 换一张CoC7卡（或 .pc new 名字 新建），"
        "或 .set tick20 切回D20刻度模式"
    )
    assert await say(app, ".ra 力量") == refusal
    assert await say(app, ".rc 力量") == refusal
    assert await say(app, ".sc 1/1d6") == refusal
    assert await say(app, ".st 侦查60") == (
        "<PL01> 是D20刻度角色卡，本群是CoC7模式，不改写它：用 .pc tag 换一张CoC7卡（或 .pc new 名字 新建），"
        "或 .set tick20 切回D20刻度模式"
    )
    # a written value reads no card
    app.rng = Scripted([50])
    assert await say(app, ".ra 侦查60") == "PL01 的侦查检定：D100=50/60 成功"


async def test_a_generic_card_is_still_adopted(app: App) -> None:
    await say(app, ".st 力量14")  # fresh group, no CoC name: a generic card
    await say(app, ".set tick20", **GM)
    await say(app, ".st 体质12")
    assert "（D20刻度）" in await say(app, ".pc show")


# ------------------------------------------------------------------------------ derived values
async def test_hp_change_starts_from_the_derived_value(app: App) -> None:
    await say(app, ".set coc7", **GM)
    await say(app, ".st 体质55 体型65 意志62")
    assert await say(app, ".st hp-2") == "已录入 <PL01>：体力-2→10（由体质、体型算出12）"
    assert await say(app, ".st hp-1") == "已录入 <PL01>：体力-1→9"
    assert await say(app, ".st mp-1 san-5") == (
        "已录入 <PL01>：魔法-1→11（由意志算出12） 理智-5→57（由意志算出62）"
    )
    # a card without the characteristics: the change starts from 0, as before
    await say(app, ".pc new 空卡")
    assert await say(app, ".st hp-2") == "已录入 <空卡>：体力-2→-2"


async def test_a_small_card_in_a_fresh_group_becomes_coc(app: App) -> None:
    assert await say(app, ".st 体质55 体型65") == "已录入 <PL01>：体质:55 体型:65"
    assert await say(app, ".st hp-2") == "已录入 <PL01>：体力-2→10（由体质、体型算出12）"
    assert "（CoC7）" in await say(app, ".pc show")
    # a plain generic card stays generic, hp as typed
    await say(app, ".st 力量3", user="10003")
    assert await say(app, ".st hp-2", user="10003") == "已录入 <PL03>：hp-2→-2"


async def test_checks_read_derived_values(app: App) -> None:
    await say(app, ".st 意志60 侦查50")
    app.rng = Scripted([40, 70, 3])
    assert await say(app, ".ra 理智") == "PL01 的理智检定：D100=40/60 成功"
    text = await say(app, ".sc 0/1d6")
    assert text.splitlines()[0] == "PL01 的理智检定：D100=70/60 失败"
    assert "理智 60→57" in text


# ------------------------------------------------------------------------------ .init begin
async def test_init_begin_over_a_prepared_lineup_asks_first(app: App) -> None:
    await say(app, ".set tick20", **GM)
    await say(app, ".init begin", **GM)
    await say(app, ".ri =8 哥布林", **GM)
    assert await say(app, ".init begin 速度", **GM) == (
        "已有准备中的战斗（1名参战者，尚未开战），重新开始会清空先攻表。确定吗？发送 .init begin 确认"
    )
    assert "哥布林" in await say(app, ".init", **GM)
    assert "新战斗" in await say(app, ".init begin 确认", **GM)
    assert "哥布林" not in await say(app, ".init", **GM)
    # an empty prepared combat is replaced without asking
    assert "新战斗" in await say(app, ".init begin", **GM)


# ------------------------------------------------------------------------------ paged help
async def test_help_init_on_pages(app: App) -> None:
    first = await say(app, ".help init")
    lines = first.splitlines()
    assert lines[1] == "（以下指令仅群聊）"
    assert "（仅群聊）" not in first and "已截断" not in first
    assert len(first) <= 900
    n = int(lines[-1].split("/")[1].split("页")[0])
    assert n >= 2 and lines[-1] == f"第1/{n}页，发送 .help init 2 查看下一页"
    pages = [first] + [await say(app, f".help init {k}") for k in range(2, n + 1)]
    assert all(len(p) <= 900 for p in pages)
    assert pages[-1].splitlines()[-1] == f"第{n}/{n}页（完）"
    body = [line for p in pages for line in p.splitlines()[:-1]]
    assert len(body) == len(set(body))  # each line once
    assert any(line.startswith(".init begin ") for line in body)
    assert (
        await say(app, f".help init {n + 1}")
        == f"没有第{n + 1}页：.init 的帮助共{n}页，发送 .help init 1 到 {n}"
    )


async def test_help_sub_commands_still_work(app: App) -> None:
    assert await say(app, ".help st show") == "查看属性\n格式：.st show [@某人] [属性…]\n别名：list"
    assert "没有子命令" in await say(app, ".help st 2x")
    short = await say(app, ".help r")
    assert "页" not in short.splitlines()[-1]


async def test_st_show_lists_what_the_characteristics_give(app: App) -> None:
    """CoC derived values a card lacks are shown as such (computed, not stored)."""
    assert "CoC7" in await say(app, ".set coc7", roles=("owner",))
    await say(app, ".st 力量60体质55体型65敏捷60意志55侦查70")
    assert await say(app, ".st show") == (
        "<PL01> 的属性：\n力量:60 体质:55 体型:65 敏捷:60 意志:55 侦查:70\n"
        "由属性算出（未录入）：体力:12 魔法:11 理智:55 伤害加值:1d4 体格:1 移动:7"
    )
    await say(app, ".st hp-2")  # stored now: no longer listed as computed
    assert "由属性算出（未录入）：魔法:11 理智:55" in await say(app, ".st show")
