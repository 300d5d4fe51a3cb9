"""Issue 39 defect 6: hidden NPCs and veiled declarations in TimeLine, and the GM screen
(``.gm 私聊``): what a hidden NPC declares reaches the GM alone; the group learns of it when it
resolves, as its target lives it.

The table: players 艾拉 (10001), 托林 (10002), 米娅 (10003); the GM (99999, admin) owns 萨满 and
暗影刺客.  Every sheet has 敏捷/力量/智力 175, so ``I`` of 敏捷 winds up ``20·I/175`` t.
"""

from __future__ import annotations

from helpers import run, say

from chronodice.app import App
from chronodice.core.reply import Reply

SHEET = (
    ".TLsetup 姓名:{name},种族:人类,成年年龄:,标准体型:,年龄:,体型:,外貌:50,资产:50,性别:男,职业:商人,"
    "等级:10,物理思维比值:500,体质:30,敏捷:35,力量:35,意志:30,教育:35,智力:35,医学及生命科学:20,"
    "工程与科技:20,军事与生存:20,文学:20,视觉及表演艺术:20,负重:0"
)
G = "20002"
GM = {"user": "99999", "roles": ("admin",)}
ELLA, TORIN, MIA = {"user": "10001"}, {"user": "10002"}, {"user": "10003"}
SECRETS = ("暗影刺客", "背刺", "80.0")


async def table(app: App) -> None:
    """The sheets; the GM makes the hidden NPC's card in private chat (one made in the group is
    known to everybody there, so a player could name it)."""
    for name, who in (("艾拉", ELLA), ("托林", TORIN), ("米娅", MIA), ("萨满", GM)):
        assert "设置完成√" in await say(app, SHEET.format(name=name), **who)
    made = await run(app, SHEET.format(name="暗影刺客"), user=GM["user"], group=None)
    assert "设置完成√" in made[0].text
    assert "自动伤害：开√" in await say(app, ".bat 自动伤害 开", **GM)
    assert "已绑定私聊操作" in await say(app, ".gm 私聊", **GM)


async def private(app: App, text: str) -> list[Reply]:
    """The GM's private message (the GM screen)."""
    return await run(app, text, user=GM["user"], group=None)


def group_texts(replies: list[Reply]) -> list[str]:
    """What reaches the group of a private command's replies."""
    return [r.text for r in replies if r.group == G]


async def test_a_hidden_npc_declared_in_private_leaves_no_trace_until_it_resolves(app: App) -> None:
    await table(app)
    await say(app, ".bat 力量 100 >萨满", **ELLA)  # #1 0 → 11.43
    await say(app, ".bat 智力 50", **TORIN)  # #2 0 → 5.71
    replies = await private(app, ".bat 暗 暗影刺客:敏捷 80 >米娅 背刺")  # secret, 0 → 9.14
    assert group_texts(replies) == []
    told = "\n".join(r.text for r in replies if r.private)
    assert "〔暗〕" in told and "行动#100001 暗影刺客" in told and "→米娅 背刺" in told
    await say(app, ".bat 敏捷 30", **MIA)  # #3: public numbers do not skip the secret one
    shown = await say(app, ".bat", **MIA)
    assert "行动3个" in shown and not any(s in shown for s in SECRETS)
    for form in (".bat 全", ".bat 记录"):
        text = await say(app, form, **TORIN)
        assert not any(s in text for s in SECRETS), form
    # a player naming the secret number is told what a wrong number gets
    refused = await say(app, ".bat 取消 #100001", **MIA)
    assert refused == (await say(app, ".bat 取消 #100002", **MIA)).replace("100002", "100001")
    # the GM sees everything from private chat, and only the GM
    full = await private(app, ".bat")
    assert group_texts(full) == [] and "暗影刺客" in full[0].text
    opening = await say(app, ".bat 开始", **GM)
    assert not any(s in opening for s in SECRETS)
    fed = await say(app, ".bat 推进 12", **GM)
    assert "✔#100001 暗影刺客 背刺 80.0" in fed and "→米娅" in fed


async def test_the_gm_screen_posts_public_results_to_the_group_and_errors_to_the_gm(app: App) -> None:
    await table(app)
    await say(app, ".bat 力量 100", **ELLA)
    replies = await private(app, ".bat 萨满:力量 50 >艾拉 爪击")
    posted = group_texts(replies)
    assert len(posted) == 1 and "萨满" in posted[0] and "爪击" in posted[0]
    assert any(r.private and "[已发到群20002]" in r.text for r in replies)
    wrong = await private(app, ".bat 取消 #77")
    assert group_texts(wrong) == [] and all(r.private for r in wrong) and "#77" in wrong[0].text


async def test_the_screen_needs_a_binding_and_a_gm(app: App) -> None:
    refused = await private(app, ".bat")
    assert "该指令只能在群聊中使用" in refused[0].text and ".gm 私聊" in refused[0].text
    assert "只有" in await say(app, ".gm 私聊", **ELLA)  # a player cannot bind
    await table(app)
    assert "▶ 群20002" in (await private(app, ".gm 私聊"))[0].text
    assert "已解除" in (await private(app, ".gm 私聊 关"))[0].text
    assert "只能在群聊" in (await private(app, ".bat"))[0].text


async def test_veiled_declarations_show_the_npc_busy_and_reveal_at_resolution(app: App) -> None:
    await table(app)
    assert "暗宣言：开√" in await say(app, ".bat 暗宣言 开", **GM)
    await say(app, ".bat 力量 100", **ELLA)  # #1 0 → 11.43
    replies = await run(app, ".bat 萨满:智力 50 >艾拉 火球", user=GM["user"], group=G, roles=("admin",))
    public = "\n".join(r.text for r in replies if not r.private)
    assert "火球" not in public and "50.0" not in public
    shown = await say(app, ".bat", **TORIN)
    assert "萨满[NPC]：行动未公开" in shown and "火球" not in shown and "行动1个" in shown
    replies = await run(app, ".bat 开始", user=GM["user"], group=G, roles=("admin",))
    fed = "\n".join(r.text for r in replies if not r.private)
    assert "✔#100001 萨满 火球 50.0 @5.71t →艾拉" in fed and "体力150.0→100.0" in fed
    # 萨满 may declare again: the GM is told privately, the group's ▶ line names it as usual
    assert any(r.private and r.to_user == GM["user"] and "轮到萨满宣言" in r.text for r in replies)


async def test_a_player_naming_a_hidden_npc_is_told_what_a_stranger_gets(app: App) -> None:
    await table(app)
    await say(app, ".bat 力量 100", **ELLA)
    await private(app, ".bat 暗 暗影刺客:敏捷 80 >米娅 背刺")
    aimed = await say(app, ".bat 力量 50 >暗影刺客", **TORIN)
    stranger = await say(app, ".bat 力量 50 >无名刺客", **TORIN)
    assert aimed.replace("暗影刺客", "X") == stranger.replace("无名刺客", "X")
    # 米娅, brought in only as the secret's target, joins as anyone would when she declares
    assert "[米娅]在0.0t加入战斗" in await say(app, ".bat 敏捷 30", **MIA)
    opening = await say(app, ".bat 开始", **GM)
    assert "暗影刺客" not in opening
    advanced = await say(app, ".bat 推进 5", **GM)  # before the strike lands (9.14t)
    assert "暗影刺客" not in advanced and "等待到5.0t" in advanced
