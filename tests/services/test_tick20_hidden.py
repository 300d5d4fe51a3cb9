"""Issue 39 defect 10, D20 tick part: a hidden combatant is not seen.

Was: after ``.ri 暗 +4 首领`` and ``.init start`` the group read ``??? 加入了先攻（暗）``, ``▶ ??? 的回合``
three times a round, ``▶ ? ???`` in the list, ``???×4`` in the summary, and ``.atk 首领:小艾 躯干``
posted ``??? 攻击 小艾 … Hit2 DP4``.  Now the group learns nothing of it until it attacks someone:
not its name, count, initiative, turns, numbers — by text, or by how many lines or prompts appear.

The table: players 小艾 (10002), 老托 (10003), 米娅 (10004); the GM (99999, group admin) runs 哥布林
(visible) and 首领 (hidden), from the group's NPC cards.  Every die is scripted per command
(:class:`helpers.Scripted`), so the boss's own initiative roll shifts nobody else's.

Seed: ``/work/shared/seeds/002_af7fdeaa609c9fb6.txt`` (先攻检定, 行动值, 攻击检定, 伤害).
"""

from __future__ import annotations

import pytest
from helpers import Scripted, run

from chronodice.app import App
from chronodice.core.reply import Reply
from chronodice.rules.tick20.model import Combat
from chronodice.services.tick20 import tracker
from chronodice.services.tick20.codec import COMBAT_CODEC

G = "20002"
GM = {"user": "99999", "roles": ("admin",)}
XIAOAI = {"user": "10002", "name": "小艾"}
LAOTUO = {"user": "10003", "name": "老托"}
MIYA = {"user": "10004", "name": "米娅"}
PLAYERS = {"10002": XIAOAI, "10003": LAOTUO, "10004": MIYA}
BOSS = "首领"
Said = tuple[str, tuple[str, ...]]
"""A message the group got: its text and whom it @-mentions."""


@pytest.fixture(autouse=True)
def no_grace(monkeypatch: pytest.MonkeyPatch) -> None:
    """Commands come faster than people type them (the grace window has its own tests)."""
    monkeypatch.setattr(tracker, "ADVANCE_GRACE", 0.0)


async def combat(app: App) -> Combat:
    state = await app.store.sessions.load_state(G, COMBAT_CODEC)
    assert state is not None
    return state


def to_group(replies: list[Reply], *, private: bool) -> list[Said]:
    """What of a command's replies the group reads (a private command's: those posted there)."""
    if private:
        return [(r.text, r.mentions) for r in replies if r.group == G]
    return [(r.text, r.mentions) for r in replies if not r.private and r.group in (None, G)]


class Table:
    """One group: every message the group reads, in order."""

    def __init__(self, app: App) -> None:
        self.app = app
        self.seen: list[Said] = []
        self.whispers: list[Reply] = []

    async def group(self, text: str, who: dict[str, object], dice: list[int] | None = None) -> list[Said]:
        self.app.rng = Scripted(dice or [], then_seed=1)
        replies = await run(self.app, text, group=G, **who)  # type: ignore[arg-type]
        got = to_group(replies, private=False)
        self.seen += got
        self.whispers += [r for r in replies if r.private]
        return got

    async def screen(self, text: str, dice: list[int] | None = None) -> list[Reply]:
        """The GM's private message (bound to the group with ``.gm 私聊``)."""
        self.app.rng = Scripted(dice or [], then_seed=1)
        replies = await run(self.app, text, user=GM["user"], group=None)
        self.seen += to_group(replies, private=True)
        return replies


async def lineup(app: App, *, boss: bool, boss_command: str = f".ri 暗 +4 {BOSS}") -> Table:
    """小艾 17, 老托 13, 米娅 10, 哥布林 9; with ``boss``, 首领 added from the GM's private chat:
    D20=18+7 (+4, and its card's 洞悉) = 25 — above 20, so it acts at tick 20 and again at 5."""
    t = Table(app)
    await t.group(".set tick20", GM)
    await t.group(".npc 哥布林 力量12 敏捷12 LV4 DR0 hit1 dp2", GM)
    await t.group(f".npc {BOSS} 力量16 敏捷12 武器熟练2 LV6 DR2 hit2 dp4", GM)
    for who in PLAYERS.values():
        await t.group(".st 力量10 敏捷10 LV4", who)
    t.seen = []  # the GM's preparation (the NPC cards: .npc is typed in the group) is not the combat
    await t.group(".init begin", GM)
    assert "已绑定私聊操作" in (await t.group(".gm 私聊", GM))[0][0]
    await t.group(".ri +0", XIAOAI, [17])
    await t.group(".ri +0", LAOTUO, [13])
    await t.group(".ri +0", MIYA, [10])
    await t.group(".ri +0 哥布林", GM, [8])
    if boss:
        replies = await t.screen(boss_command, [18])
        assert replies and all(r.private for r in replies), [r.text for r in replies]
        assert "首领：D20=18+7=25" in replies[0].text
    return t


async def current(app: App) -> tuple[int, str]:
    st = await combat(app)
    return st.round, st.get(st.current or "").name


async def play(t: Table) -> list[Said]:
    """Two rounds as a group plays them: each player ends her own turn in
    the group, the GM the goblin's (after its attack on 小艾) there too, and the boss's from
    private chat; the boss attacks 小艾 on its turn of round 2 (after the goblin's).  Stops when
    小艾's turn of round 3 is announced; returns what the boss's attack posted."""
    await t.group(".init eff 哥布林 祝福 1回合", GM)  # ends with the goblin's turn: before the boss's
    await t.group(".init start", GM)
    attack: list[Said] = []
    for _ in range(30):
        rnd, name = await current(t.app)
        if (rnd, name) == (3, "小艾"):
            return attack
        if name == BOSS:
            if rnd == 2:
                before = len(t.seen)
                await t.screen(f".atk {BOSS}:小艾 臂部", [12])
                attack = t.seen[before:]
                del t.seen[before:]  # kept apart: the transcripts are compared without it
            await t.screen(".ed")
        elif name == "哥布林":
            if rnd == 1:
                await t.group(".atk 哥布林:小艾 躯干 ap0", GM, [15])
            await t.group(".ed", GM)
        else:
            await t.group(".ed", next(p for p in PLAYERS.values() if p["name"] == name))
    raise AssertionError("round 2 never came")


def mentions_boss(said: list[Said]) -> list[str]:
    return [text for text, _ in said if BOSS in text or "???" in text or "暗" in text]


# --------------------------------------------------------------------------- the transcript
async def test_the_group_reads_the_same_lines_with_a_hidden_boss_only_later(app: App) -> None:
    """The same combat twice — with the hidden boss added and run from the GM's private chat, and
    without it: up to the boss's first attack the group's messages are the same, line for line
    and mention for mention; the boss's turns only delay them (its round-1 turn at 20 holds back
    the first card, its turn at 4 the round-2 card with the goblin's ended effect).  Every die is
    scripted per command, so no number needed normalising (the boss's roll shifts no one else's)."""
    with_boss = await lineup(app, boss=True)
    listing = await with_boss.screen(".init")  # the GM's list from private chat: his, not the group's
    assert [r.group for r in listing] == [None] and listing[0].private and "首领" in listing[0].text
    attack = await play(with_boss)
    await run(app, ".init end 确认", group=G, **GM)  # type: ignore[arg-type]
    await run(app, ".init begin 确认", group=G, **GM)  # type: ignore[arg-type]
    without = await lineup(app, boss=False)
    assert await play(without) == []
    *before, after = with_boss.seen
    assert mentions_boss(before) == []
    assert before == without.seen[:-1]
    # the card the boss's last turn held back: the same lines, and now the boss in the forecast
    # (it has attacked: it is seen)
    assert after[0].splitlines()[:3] == without.seen[-1][0].splitlines()[:3]
    assert after[0].startswith("—— 第3轮开始 ——\n⚔ 第3轮 · 第17刻（基础）\n▶ 小艾 的回合 @小艾")
    assert "第12刻 首领" in after[0] and after[1] == without.seen[-1][1]
    held = next(text for text, _ in before if "结束：哥布林的祝福" in text)
    assert held.startswith("—— 第2轮开始 ——\n⚔ 第2轮 · 第17刻（基础）\n▶ 小艾 的回合 @小艾")
    # its first attack: what its target sees, its name and the hit
    assert len(attack) == 1 and attack[0][0].startswith("首领 攻击 小艾（近战，臂部）\nATK：D20=12")
    assert "伤害：Hit2 DP4 对 DR0" in attack[0][0]


# --------------------------------------------------------------------------- each leak
async def scene(app: App) -> Table:
    """The issue's repro, typed in the group: ``.ri 暗 +4 首领`` (25: turns at 20 and 5), then
    ``.init start``."""
    t = Table(app)
    await t.group(".set tick20", GM)
    await t.group(f".npc {BOSS} 力量16 敏捷12 武器熟练2 LV6 DR2 hit2 dp4", GM)
    await t.group(".st 力量10 敏捷10 LV4", XIAOAI)
    await t.group(".st 力量10 敏捷10 LV4", LAOTUO)
    await t.group(".init begin", GM)
    await t.group(".ri =17", XIAOAI)
    await t.group(".ri =13", LAOTUO)
    t.seen = []
    assert await t.group(f".ri 暗 +4 {BOSS}", GM, [18]) == []  # was: ??? 加入了先攻（暗）
    told = t.whispers[-1]
    assert told.to_user == GM["user"] and "首领：D20=18+7=25" in told.text
    return t


async def test_joining_hidden_says_nothing_in_the_group_not_even_a_count(app: App) -> None:
    t = await scene(app)
    assert await t.group(".ri =9 狼", GM) == [("狼 的先攻：=9\n共3名参战者；GM 发送 .init start 开战", ())]
    listing = (await t.group(".init", XIAOAI))[0][0]
    assert listing.startswith("战斗准备中（基础）：3名参战者") and BOSS not in listing and "?" not in listing
    assert await t.group(".init add 影子 -隐藏 -p 5", GM) == []


async def test_start_and_its_turns_show_nothing_and_prompt_the_gm_privately(app: App) -> None:
    t = await scene(app)
    whispered = len(t.whispers)
    assert await t.group(".init start", GM) == []  # the boss acts first, at 20
    prompt = t.whispers[whispered:]
    assert [r.to_user for r in prompt] == [GM["user"]]
    assert "▶ 首领 的回合（暗中，群里看不到）　AP 3/3" in prompt[0].text
    card = await t.group(".ed", GM)  # the GM ends it (here in the group): the first card
    assert card[0][0].startswith("—— 第1轮开始 ——\n⚔ 第1轮 · 第17刻（基础）\n▶ 小艾 的回合")
    await t.group(".ed", XIAOAI)
    assert await t.group(".ed", LAOTUO) == []  # 老托 → the boss at 5: nothing in the group
    assert "▶ 首领 的回合" in t.whispers[-1].text and t.whispers[-1].to_user == GM["user"]
    # during its turn: the list leaves it out, a player's .ed does not say whose turn it is
    listing = (await t.group(".init", XIAOAI))[0][0]
    assert listing.splitlines()[0] == "第1轮（基础）　GM处理中，请稍候" and BOSS not in listing
    assert "?" not in listing
    assert await t.group(".ed", XIAOAI) == [("还没有轮到你的回合（GM处理中，请稍候）", ())]
    assert (await t.group(".ed", GM))[0][0].startswith("—— 第2轮开始 ——")
    # its turns were never named: not in the cards, not in the log, not at the end
    assert mentions_boss(t.seen) == []
    log = (await t.group(".init log", XIAOAI))[0][0]
    assert BOSS not in log and "?" not in log
    end = await t.group(".init end 确认", GM)
    assert end[0][0].startswith("战斗结束：共2轮\n回合数：小艾×1，老托×1") and BOSS not in end[0][0]
    assert "???" not in end[0][0]


async def test_a_player_naming_it_gets_the_reply_for_nobody(app: App) -> None:
    t = await scene(app)
    await t.group(".init start", GM)
    await t.group(".ed", GM)
    for form in (".init {}", ".atk {} 躯干", ".init note {} 笑", ".init swap 小艾 {}"):
        hidden = await t.group(form.format(BOSS), XIAOAI)
        nobody = await t.group(form.format("无名"), XIAOAI)
        assert hidden == [(text.replace("无名", BOSS), m) for text, m in nobody], form


async def test_gm_commands_on_it_answer_privately(app: App) -> None:
    t = await scene(app)
    for form in (
        f".init set {BOSS} 12",
        f".init eff {BOSS} 狂暴 2轮",
        f".hp {BOSS} sp上限 6",
        f".init 击败 {BOSS}",
    ):
        assert await t.group(form, GM) == [], form
    assert mentions_boss(t.seen) == []


async def test_its_attack_shows_its_name_and_the_hit_and_reveals_it(app: App) -> None:
    t = await scene(app)
    await t.group(".init start", GM)
    said = await t.group(f".atk {BOSS}:小艾 躯干", GM, [12])  # was: ??? 攻击 小艾 … Hit2 DP4
    assert said[0][0].startswith("首领 攻击 小艾（近战，躯干）\nATK：D20=12+9=21（+3力量+4武器熟练+2LV内在）")
    assert "伤害：Hit2 DP4 对 DR0" in said[0][0] and "???" not in said[0][0]
    listing = (await t.group(".init", LAOTUO))[0][0]
    assert "▶25(当前20)  首领　AP 1/3" in listing  # seen from now on, like any combatant
    card = await t.group(".ed", GM)
    assert "第4刻 首领" in card[0][0]  # its turns are announced too


async def test_hide_and_reveal_by_command(app: App) -> None:
    t = await scene(app)
    assert await t.group(".ri =9 狼", GM)
    assert await t.group(".init 隐藏 狼", GM) == []
    assert "狼 已隐藏" in t.whispers[-1].text
    assert "狼" not in (await t.group(".init", XIAOAI))[0][0]
    shown = (await t.group(f".init 现身 {BOSS}", GM))[0][0]
    assert shown.startswith("首领 现身了！\n战斗准备中（基础）：3名参战者")
    assert (await t.group(".init 隐藏 狼", XIAOAI))[0][0].startswith("只有")
    assert (await t.group(".init 隐藏 小艾", GM))[0][0] == "小艾 是玩家的参战者：只有NPC可以隐藏"
