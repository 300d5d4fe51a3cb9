"""萌E ``.moe``: how the declarations read each sub-command (``ROWS``), and the fixed bugs as a
player sees them through ``App.dispatch``."""

from __future__ import annotations

import pytest
from helpers import parse_of, run

from chronodice.app import App
from chronodice.core.clock import ManualClock
from chronodice.services.moe.kinds import Gift, Player, Seat

ROWS: list[tuple[str, object]] = [
    # bare command and help
    (".moe", ("moe", "help", {})),
    (".萌e 帮助", ("moe", "help", {})),
    (".moe fly", "「fly」不是 .moe 的子命令（.help moe 查看全部）"),
    # lobby
    (".moe new", ("moe", "new", {"pack": None, "map": None, "ai": None})),
    (".moe new 乱斗森林", ("moe", "new", {"pack": None, "map": "melee", "ai": None})),
    (".moe new 随机", ("moe", "new", {"pack": None, "map": None, "ai": None})),
    (".萌e 开局 melee", ("moe", "new", {"pack": None, "map": "melee", "ai": None})),
    (".moenew 圣殿", ("moe", "new", {"pack": None, "map": "temple", "ai": None})),
    (".moe 开局双王国", ("moe", "new", {"pack": None, "map": "kingdoms", "ai": None})),
    # packs: by file name, title or alias; a pack then a map; the test pack is hidden
    (".moe new demo", ("moe", "new", {"pack": "demo", "map": None, "ai": None})),
    (".moe new 爱丽丝与童话世界·演示包 乱斗", ("moe", "new", {"pack": "demo", "map": "melee", "ai": None})),
    (".moe new DEMO 随机", ("moe", "new", {"pack": "demo", "map": None, "ai": None})),
    (".moe new test", "没有地图「test」，可选：乱斗森林、双王国、信仰圣殿、随机"),
    (".moe new demo 火星", "没有地图「火星」，可选：乱斗森林、双王国、信仰圣殿、随机"),
    (".moe new demo melee x", "「x」不是有效的AI 人数（如 AI 2）"),
    # AI seats (issue 27): after the map, or alone; a bad count says the form
    (".moe new 双王国 AI 2", ("moe", "new", {"pack": None, "map": "kingdoms", "ai": 2})),
    (".moe new 双王国 ai2", ("moe", "new", {"pack": None, "map": "kingdoms", "ai": 2})),
    (".moe new AI 3", ("moe", "new", {"pack": None, "map": None, "ai": 3})),
    (".moe new 双王国 AI", "AI后面写人数，如 AI 2（1到7个）"),
    (".moe new 双王国 AI 8", "AI人数应为1到7"),
    (".moe ai 2", ("moe", "ai", {"n": 2})),
    (".moe ai 0", ("moe", "ai", {"n": 0})),
    (".moe ai x", "「x」不是有效的AI人数"),
    (".moe packs", ("moe", "packs", {})),
    (".moe 卡包", ("moe", "packs", {})),
    (".moe packs x", "多余的「x」"),
    (".moe new 火星", "没有地图「火星」，可选：乱斗森林、双王国、信仰圣殿、随机"),
    (".moe new 乱斗 森林", "「森林」不是有效的AI 人数（如 AI 2）"),
    (".moe join", ("moe", "join", {})),
    (".moe 加入", ("moe", "join", {})),
    (".moe join x", "多余的「x」"),
    (".moe leave", ("moe", "leave", {})),
    (".moe start", ("moe", "start", {})),
    (".ＭＯＥ 开始", ("moe", "start", {})),
    (".moe state", ("moe", "state", {})),
    (".moe 手牌", ("moe", "hand", {})),
    # play: its own errors (was: choose's usage), Unicode digits refused, glued forms
    (".moe play abc", ("moe", "play", {"n": "abc", "targets": [], "convert": False})),
    (".moe play 攻击 2号", ("moe", "play", {"n": "攻击", "targets": [Seat(2)], "convert": False})),
    (".moe play 攻击2号", ("moe", "play", {"n": "攻击", "targets": [Seat(2)], "convert": False})),
    (".moe play ¹", "「¹」不是有效的序号或牌名或当"),
    (".moe play", "缺少序号或牌名"),
    (".moe play 1", ("moe", "play", {"n": 1, "targets": [], "convert": False})),
    (".moe play 2 2号", ("moe", "play", {"n": 2, "targets": [Seat(2)], "convert": False})),
    (".moe 出牌1当2号", ("moe", "play", {"n": 1, "targets": [Seat(2)], "convert": True})),
    (".moe 出 ３ ＃３ 当", ("moe", "play", {"n": 3, "targets": [Seat(3)], "convert": True})),
    (".moeplay 1", ("moe", "play", {"n": 1, "targets": [], "convert": False})),
    (".moe play 1 Alice", ("moe", "play", {"n": 1, "targets": [Player("Alice")], "convert": False})),
    (".moe play 1 30002", ("moe", "play", {"n": 1, "targets": [Player("30002")], "convert": False})),
    (".moe play 1 @30002", ("moe", "play", {"n": 1, "targets": ["30002"], "convert": False})),
    (".moe play 1 2", ("moe", "play", {"n": 1, "targets": [Seat(2)], "convert": False})),  # issue 44
    (".moe play 1 9", "「9」不是有效的目标或当"),
    (
        ".moe skill 猎人的遗物 3",
        ("moe", "skill", {"name": "猎人的遗物", "pref": None, "targets": [Seat(3)], "cost": None}),
    ),
    (
        ".moe skill 猎人的遗物 3号",
        ("moe", "skill", {"name": "猎人的遗物", "pref": None, "targets": [Seat(3)], "cost": None}),
    ),
    (".moe play 1 当 当", "「当」不是有效的目标"),
    (".moe play 1000", "序号「1000」超出范围（至多为999）"),
    # skill
    (".moe skill 警觉", ("moe", "skill", {"name": "警觉", "pref": None, "targets": [], "cost": None})),
    (
        ".moe skill 毒苹果 2号 弃 1 2",
        ("moe", "skill", {"name": "毒苹果", "pref": None, "targets": [Seat(2)], "cost": [1, 2]}),
    ),
    (
        ".moe 技能 silver_edge Alice 弃1，3",
        ("moe", "skill", {"name": "silver_edge", "pref": None, "targets": [Player("Alice")], "cost": [1, 3]}),
    ),
    (".moe skill", "缺少技能名"),
    (".moe skill 警觉 弃 x", "「弃」不是有效的总是/从不/询问、目标或弃 序号…"),
    # resp / pass / yes / no / end
    (".moe resp", ("moe", "resp", {"n": None})),
    (".moe 响应2", ("moe", "resp", {"n": 2})),
    (".moe resp 防御", ("moe", "resp", {"n": "防御"})),
    (".moe resp ②", "「②」不是有效的序号或牌名"),
    (".moe card 攻击", ("moe", "card", {"ref": "攻击"})),
    (".moe card 3", ("moe", "card", {"ref": 3})),
    (".moe card", "缺少序号或牌名"),
    (".moe pass", ("moe", "pass", {})),
    (".moe 不响应", ("moe", "pass", {})),
    (".moe pass 1", "多余的「1」"),
    (".moe yes", ("moe", "yes", {})),
    (".moe 发动", ("moe", "yes", {})),
    (".moe no", ("moe", "no", {})),
    (".moe 结束出牌", ("moe", "end", {})),
    (".moe end", ("moe", "end", {})),
    # choose: ASCII / full-width digits only, commas too
    (".moe choose 1", ("moe", "choose", {"nums": [1]})),
    (".moe choose 1,2，3", ("moe", "choose", {"nums": [1, 2, 3]})),
    (".moe 选１ ２", ("moe", "choose", {"nums": [1, 2]})),
    (".moe 弃 1 2", ("moe", "choose", {"nums": [1, 2]})),
    (".moe discard 3", ("moe", "choose", {"nums": [3]})),
    (".moe choose", ("moe", "choose", {"nums": []})),
    (".moe choose ¹", "「¹」不是有效的序号"),
    (".moe choose ²", "「²」不是有效的序号"),
    (".moe choose ⑤", "「⑤」不是有效的序号"),
    (".moe choose 1 ¹", "「¹」不是有效的序号"),
    (".moe choose1", "「choose1」不是 .moe 的子命令（.help moe 查看全部）"),
    # give: several cards per seat (was split at the comma)
    (".moe give 2号:1,2 3号:3", ("moe", "give", {"gifts": [Gift(2, (1, 2)), Gift(3, (3,))]})),
    (".moe 给 2：1，2", ("moe", "give", {"gifts": [Gift(2, (1, 2))]})),
    (".moe give #3:4", ("moe", "give", {"gifts": [Gift(3, (4,))]})),
    (".moe give x", "「x」格式应为 座位号:序号,序号"),
    (".moe give 2号:¹", "「2号:¹」格式应为 座位号:序号,序号"),
    # auto / quit
    (".moe auto", ("moe", "auto", {"on": True})),
    (".moe auto off", ("moe", "auto", {"on": False})),
    (".moe 托管 关", ("moe", "auto", {"on": False})),
    (".moe auto maybe", "「maybe」不是有效的on/off"),
    (".moe quit", ("moe", "quit", {"how": None})),
    (".moe 投降", ("moe", "quit", {"how": None})),
    (".moe quit 确认", ("moe", "quit", {"how": "confirm"})),
    (".moe quit ai", ("moe", "quit", {"how": "ai"})),
    (".moe 投降 AI", ("moe", "quit", {"how": "ai"})),
    (".moe quit 交给AI", ("moe", "quit", {"how": "ai"})),
    # kick / abort / timeout
    (".moe kick 2号", ("moe", "kick", {"who": Seat(2)})),
    (".moe 踢 #2", ("moe", "kick", {"who": Seat(2)})),
    (".moe kick @30002", ("moe", "kick", {"who": "30002"})),
    (".moe kick", "缺少@某人或2号"),
    (".moe kick 2号 3号", "多余的「3号」"),
    (".moe abort", ("moe", "abort", {})),
    (".moe 解散 现在", "多余的「现在」"),
    (".moe timeout", ("moe", "timeout", {"which": None, "secs": None})),
    (".moe timeout 30", ("moe", "timeout", {"which": None, "secs": 30})),
    (".moe timeout 响应 30", ("moe", "timeout", {"which": "respond", "secs": 30})),
    (".moe 超时 出牌６０秒", ("moe", "timeout", {"which": "play", "secs": 60})),
    (".moe timeout x", "「x」不是有效的出牌/响应/选择或秒数"),
    (".moe timeout ³", "「³」不是有效的出牌/响应/选择或秒数"),
    # not ours
    (".moes", None),
    ("moe new", None),
]


@pytest.mark.parametrize(("text", "expected"), ROWS)
def test_rows(text: str, expected: object) -> None:
    assert parse_of(text) == expected


def test_mentions_are_targets() -> None:
    assert parse_of(".moe kick", at=("30002",)) == ("moe", "kick", {"who": "30002"})
    assert parse_of(".moe play 1 当", at=("30002", "30003")) == (
        "moe",
        "play",
        {"n": 1, "targets": ["30002", "30003"], "convert": True},
    )


# ---------------------------------------------------------------------- the fixed bugs, as seen
G = "20002"
HOST, P2, P3 = "30001", "30002", "30003"


async def _running(app: App) -> None:
    await run(app, ".moe new 乱斗森林", user=HOST, group=G)
    for u in (P2, P3):
        await run(app, ".moe join", user=u, group=G)
    await run(app, ".moe start", user=HOST, group=G)


async def test_each_sub_command_shows_its_own_usage(app: App) -> None:
    await _running(app)
    replies = await run(app, ".moe play ¹", user=P2, group=G)
    assert [r.text for r in replies] == [
        "「¹」不是有效的序号或牌名或当\n格式：.moe play <序号或牌名> [目标…] [当]"
    ]
    text = (await run(app, ".moe resp ②", user=P2, group=G))[0].text
    assert text == "「②」不是有效的序号或牌名\n格式：.moe resp [序号或牌名]"


async def test_unicode_digits_get_the_short_error(app: App) -> None:
    await _running(app)
    for digit in ("¹", "²", "⑤"):
        replies = await run(app, f".moe choose {digit}", user=P2, group=None)
        assert [r.text for r in replies] == [f"「{digit}」不是有效的序号\n格式：.moe choose [序号…]"]
    state, _v = await app.store.sessions.load_session(G, "moe")
    assert state["status"] == "running" and not state["outbox"]


async def test_private_abort_and_kick_need_the_host_or_a_gm_of_that_group(app: App) -> None:
    await _running(app)
    # a player who is neither the host nor a GM of the group: refused, also in private chat
    for text in (".moe abort", ".moe kick 1号", ".moe 踢 #3"):
        replies = await run(app, text, user=P2, group=None)
        assert len(replies) == 1 and replies[0].text.startswith("只有房主或GM可以"), text
    state, _v = await app.store.sessions.load_session(G, "moe")
    assert state["status"] == "running" and not state["outbox"]
    # in the group too
    assert (await run(app, ".moe abort", user=P3, group=G))[0].text == "只有房主或GM可以解散对局"
    # a GM appointed in that group may, from private chat
    await app.store.groups.add_gm(G, P3)
    kicked = await run(app, ".moe kick 2号", user=P3, group=None)
    assert not [r for r in kicked if not r.private]  # nothing public in the private chat
    state, _v = await app.store.sessions.load_session(G, "moe")
    told = [e["text"] for e in state["outbox"]] + state["feed"]
    assert any("2号" in t and "被房主或GM移出了对局" in t for t in told)  # for the group, in order
    # the host may, from private chat
    assert [r.text for r in await run(app, ".moe abort", user=HOST, group=None)] == ["萌E对局已解散"]
    state, _v = await app.store.sessions.load_session(G, "moe")
    assert state["status"] == "over" and state["aborted"]


async def test_lobby_kick_from_private_by_a_player_is_refused(app: App) -> None:
    await run(app, ".moe new", user=HOST, group=G)
    await run(app, ".moe join", user=P2, group=G)
    await run(app, ".moe join", user=P3, group=G)
    assert (await run(app, ".moe kick 3号", user=P2, group=None))[0].text == "只有房主或GM可以踢人"
    assert (await run(app, ".moe kick 3号", user=HOST, group=None))[0].text.startswith("已将")
    state, _v = await app.store.sessions.load_session(G, "moe")
    assert [p["user"] for p in state["players"]] == [HOST, P2]


async def test_private_answers_stay_private(app: App) -> None:
    await _running(app)
    state, _v = await app.store.sessions.load_session(G, "moe")
    from chronodice.rules.moe.record import rebuild

    g = rebuild(state["record"])
    user = state["players"][g.pending.seat]["user"]
    replies = await run(app, ".moe choose 1", user=user, group=None)
    public = [r.text for r in replies if not r.private]
    assert public == []  # no bare acknowledgement: the choice itself is the answer
    assert any(r.text.startswith("你选择了【") for r in replies if r.private and r.to_user == user)
    assert all(r.to_user in (HOST, P2, P3) for r in replies if r.private)


async def test_package_keeps_the_plugin_api(app: App, clock: ManualClock) -> None:
    """``nonebot_plugin_chronodice.moe`` imports ``chronodice.services.moe`` and calls ``sweep(app)``;
    moving the app's clock moves every deadline check."""
    import chronodice.services.moe as moe

    await _running(app)
    state, _v = await app.store.sessions.load_session(G, "moe")
    assert state["deadline"] is not None
    clock.advance(state["deadline"] + 1 - clock.timestamp())
    out = await moe.sweep(app)
    assert out and out[0][0] == G and "超时" in out[0][1][0].text
