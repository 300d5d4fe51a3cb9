"""End to end (issue 26): NPC cards the GM rolls for, over ``python bot.py`` and a real WebSocket.

The GM writes two NPC cards (哥布林, and 暗影 for a hidden boss), adds ``3# 哥布林`` and the boss
hidden, and runs three rounds in which every NPC attack is one ``.atk`` (check, defence, damage,
wounds in one reply); the player attacks the same way.  An effect gives the player
disadvantage, which shows on her next check; the GM makes a hidden D20 check for the boss.  Every
group message is collected: until the boss's first attack its name is never in one, nor its
turns (issue 39: its turn prompts reach the GM privately), and its card's numbers never.  Then a CoC scene: the
KP rolls ``.ra 哥布林:侦查`` from the NPC card.
"""

from __future__ import annotations

import re

import pytest
from onebot_client import OneBotClient

pytestmark = pytest.mark.e2e

GM = {"user": 10001, "role": "admin", "card": "主持人"}
AILIN = {"user": 10002, "card": "艾琳"}
PARTS = ("臂部", "腿部", "躯干")
GOBLIN = ".npc 哥布林 力量12 敏捷14 洞悉1 武器熟练1 LV4 DR1 hit2 dp2 侦查40"
BOSS = ".npc 暗影 力量16 敏捷12 洞悉3 武器熟练2 LV6 DR2 hit3 dp1"


def total_of(text: str, head: str) -> int | None:
    """The total on the line starting ``head`` (``ATK：D20=8+9=17（…）`` → 17, ``DEF：19（宣告）`` → 19)."""
    for line in text.splitlines():
        if line.startswith(head):
            return int(line.split("（")[0].removeprefix(head).rsplit("=", 1)[-1])
    return None


class Table:
    """The client, with every group and private text the bot sent kept apart."""

    def __init__(self, client: OneBotClient) -> None:
        self.c = client
        self.group: list[str] = []
        self.private: list[str] = []
        self.last_advance = 0

    async def send(self, text: str, who: dict) -> tuple[str, str]:
        calls = await self.c.send(text, **who)
        public = "\n".join(x.text for x in calls if x.to_group)
        secret = "\n".join(x.text for x in calls if x.is_private)
        self.group.append(public)
        self.private.append(secret)
        return public, secret

    async def advance(self, current: str) -> str:
        """The player ends her own turn, the GM the NPCs' (a GM's ``.init next`` right after a
        player's ``.ed`` counts as the same advance for a second, so he waits it out)."""
        who = AILIN if current == "艾琳" else GM
        if who is GM and self.last_advance != GM["user"]:
            self.c.advance_clock(1.1)  # the bot's clock, not a wait
        self.last_advance = who["user"]
        public, secret = await self.send(".ed" if who is AILIN else ".init next", who)
        return public or secret  # a hidden NPC's turn: nothing in the group, its prompt to the GM


def current_of(card: str) -> str:
    m = re.search(r"▶ (\S+) 的回合", card)
    assert m, card
    return m.group(1)


def check_attack(text: str) -> None:
    """An attack reply with both numbers: hit exactly when ATK ≥ DEF (002)."""
    atk, dfn = total_of(text, "ATK："), total_of(text, "DEF：")
    assert atk is not None and dfn is not None, text
    hit = "→ 命中" in text
    assert hit == (atk >= dfn), text
    assert hit or "伤害：" not in text, text


async def test_npc_cards_one_command_attacks_and_a_hidden_boss(onebot: OneBotClient) -> None:
    t = Table(onebot)
    assert "D20刻度" in (await t.send(".set tick20", GM))[0]
    public, secret = await t.send(GOBLIN, GM)
    assert public == "已录入NPC卡 <哥布林>（9项，数值已私聊GM）" and "力量:12" in secret
    await t.send(BOSS, GM)
    assert "已录入" in (await t.send(".st 力量12 敏捷14 闪避熟练1 武器熟练1 LV4 DR1 hit1 dp2", AILIN))[0]
    refused, _ = await t.send(".npc show 哥布林", AILIN)
    assert refused.startswith("只有") and "12" not in refused

    await t.send(".init begin", GM)
    combat_starts = len(t.group)  # from here on the boss is hidden (the GM typed its card's name)
    public, _ = await t.send(".ri 3# 哥布林, 暗 暗影", GM)
    assert [line.split(" ")[0] for line in public.splitlines()[:3]] == ["哥布林1", "哥布林2", "哥布林3"]
    assert "暗影" not in public and "?" not in public and "暗" not in public
    await t.send(".ri =12", AILIN)
    card, secret = await t.send(".init start", GM)
    card = card or secret
    revealed = 0  # the group messages before the boss's first attack

    attacks = player_attacks = 0
    effect_round = 0
    for _turn in range(40):
        rounds = re.findall(r"第(\d+)轮开始", "\n".join(t.group))
        if rounds and int(rounds[-1]) > 3:
            break
        current = current_of(card)
        if current == "艾琳":
            if effect_round == 0 and player_attacks:
                # an effect that gives disadvantage shows on her next check
                assert "检定劣势" in (await t.send(".init eff 艾琳 恐惧 2轮 -劣势", GM))[0]
                effect_round = 1
                check, _ = await t.send(".rc 运动 12", AILIN)
                assert "劣势→" in check and check.endswith("（效果：恐惧 劣势）"), check
            part = PARTS[player_attacks % 3]
            public, _ = await t.send(f".atk 哥布林1 {part}", AILIN)
            assert public.startswith(f"艾琳 攻击 哥布林1（近战，{part}）"), public
            check_attack(public)
            player_attacks += 1
        elif current == "暗影":  # the hidden boss: its first attack reveals it (issue 39)
            revealed = revealed or len(t.group)
            public, secret = await t.send(f".atk 暗影:艾琳 {PARTS[attacks % 3]}", GM)
            assert public.startswith(f"暗影 攻击 艾琳（近战，{PARTS[attacks % 3]}）\nATK："), public
            assert "+3力量+4武器熟练+2LV内在" in public, public
            check_attack(public)
            attacks += 1
        else:
            public, _ = await t.send(f".atk {current}:艾琳 {PARTS[attacks % 3]}", GM)
            assert public.startswith(f"{current} 攻击 艾琳（近战，{PARTS[attacks % 3]}）\nATK："), public
            assert "+1力量+2武器熟练" in public
            check_attack(public)
            attacks += 1
        card = await t.advance(current)
    assert attacks >= 9 and player_attacks >= 3, (attacks, player_attacks)

    # a hidden D20 check: N1/N20 and the degree by private message, the group told only that
    public, secret = await t.send(".rc 暗 暗影:洞悉 15", GM)
    assert public == "主持人 进行了一次暗中检定"
    assert "暗影 的洞悉检定：D20=" in secret and re.search(r"检定：-?\d+/15 \S+（(成功|失败)度\d+）", secret)

    for line in t.group:  # the boss's card never reaches the group
        assert "力量:16" not in line, line
    assert revealed > combat_starts
    for line in t.group[combat_starts:revealed]:  # nor, until it attacks, its name or its turns
        assert "暗影" not in line and "???" not in line, line
    assert any("暗影" in line for line in t.private)

    # a CoC scene: the KP rolls from the NPC card
    await t.send(".init end", GM)
    await t.send(".set coc7", GM)
    public, _ = await t.send(".ra 哥布林:侦查", GM)
    assert re.fullmatch(r"哥布林 的侦查检定：D100=\d+/40 \S+", public), public
    refused, _ = await t.send(".ra 哥布林:侦查", AILIN)
    assert refused.startswith("「哥布林」是GM的NPC卡"), refused
