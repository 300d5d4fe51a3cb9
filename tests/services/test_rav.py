"""``.rav`` opposed checks through the dispatcher (issue 30): SealDice's forms, exact replies
with scripted dice, the rule book's outcome rules, card access and the CoC-mode gate."""

from __future__ import annotations

from helpers import Scripted, run, say

from chronodice.app import App

A, B = "30001", "30002"


def script(app: App, *values: int) -> None:
    app.rng = Scripted(values)


async def cards(app: App) -> None:
    """The sender (PL01) and two members with cards bound in the group, and nicknames."""
    assert await say(app, ".st 斗殴60 闪避30")
    assert await say(app, ".st 斗殴40 闪避50 侦查70", user=A)
    assert await say(app, ".st 斗殴55 侦查70", user=B)
    await run(app, ".nn 阿尔法", user=A)
    await run(app, ".nn 贝塔", user=B)


async def test_same_skill_against_the_mentioned_player(app: App) -> None:
    await cards(app)
    script(app, 47, 12)
    assert await say(app, ".rav 斗殴", at=(A,)) == (
        "PL01 与 阿尔法 的对抗检定：\n"
        "PL01 的斗殴：D100=47/60 成功\n"
        "阿尔法 的斗殴：D100=12/40 困难成功\n"
        "结果：阿尔法 胜出（成功等级更高）"
    )


async def test_two_skills_and_equal_levels(app: App) -> None:
    await cards(app)
    script(app, 20, 25)  # 斗殴60: 20 困难成功; 闪避50: 25 困难成功 → the higher value, 60
    assert await say(app, ".rav 斗殴 闪避", at=(A,)) == (
        "PL01 与 阿尔法 的对抗检定：\n"
        "PL01 的斗殴：D100=20/60 困难成功\n"
        "阿尔法 的闪避：D100=25/50 困难成功\n"
        "结果：PL01 胜出（成功等级相同，技能值更高）"
    )


async def test_two_others_with_values_and_a_draw(app: App) -> None:
    await cards(app)
    script(app, 80, 99)
    assert await say(app, ".rav 斗殴50 闪避40", at=(A, B)) == (
        "阿尔法 与 贝塔 的对抗检定：\n"
        "阿尔法 的斗殴：D100=80/50 失败\n"
        "贝塔 的闪避：D100=99/40 大失败\n"
        "结果：平局（双方都失败）"
    )
    script(app, 50, 50)
    assert await say(app, ".rav 侦查", at=(A, B)) == (
        "阿尔法 与 贝塔 的对抗检定：\n"
        "阿尔法 的侦查：D100=50/70 成功\n"
        "贝塔 的侦查：D100=50/70 成功\n"
        "结果：平局（成功等级与技能值都相同）"
    )


async def test_house_rule_and_base_values(app: App) -> None:
    assert await say(app, ".setcoc 3", roles=("owner",))
    script(app, 5, 3)  # rule 3: 1-5 大成功 whatever the value; 侦查 base 25 for both
    text = await say(app, ".rav 侦查", at=(A,))
    assert text.splitlines()[1:] == [
        "PL01 的侦查：D100=5/25 大成功",
        f"{A} 的侦查：D100=3/25 大成功",
        "结果：平局（成功等级与技能值都相同）",
    ]


async def test_errors_and_silence(app: App) -> None:
    assert "请 @ 对抗的玩家" in await say(app, ".rav 斗殴")
    assert "两位不同的玩家" in await say(app, ".rav 斗殴", at=("10001",))
    assert "请写出技能名" in await say(app, ".rav", at=(A,))
    assert "没有「烹饪」的数值" in await say(app, ".rav 烹饪", at=(A,))
    assert await run(app, ".rav 斗殴", group=None, at=(A,)) != []  # private: the group-only note
    assert await run(app, ".set tl", roles=("owner",))
    assert await run(app, ".rav 斗殴", at=(A,)) == []  # a TimeLine group: another bot's command


async def test_typed_at_reads_no_unbound_card(app: App) -> None:
    """A typed ``@30001`` is no proof of membership: an unbound default card is not read."""
    await run(app, ".st 斗殴80", user=A, group=None)  # A's default card, made in private
    text = await say(app, ".rav 斗殴 @30001")
    assert "没有绑定角色卡" in text
    script(app, 50, 50)
    assert "D100=50/80" in await say(app, ".rav 斗殴", at=(A,))  # a real @: the default card


async def test_rcv_alias_and_log_note(app: App) -> None:
    script(app, 10, 90)
    replies = await run(app, ".rcv 斗殴50 斗殴40", at=(A,))
    assert replies[0].check is not None
    assert (replies[0].check.label, replies[0].check.outcome) == ("斗殴", "极难成功")


async def test_a_member_without_a_nickname_is_named_by_the_card(app: App) -> None:
    """Found playing it over the WebSocket: a typed @ of a member with no .nn read as his QQ number."""
    assert await say(app, ".st 斗殴60")
    assert await say(app, ".st 斗殴40", user=A, name="阿尔法卡")
    script(app, 47, 12)
    text = await say(app, f".rav 斗殴 @{A}")
    assert text.startswith("PL01 与 阿尔法卡 的对抗检定：") and A not in text, text
