"""萌E wording (issue 27, last pass): the private play prompt says exactly why each card cannot be
played (an 攻击 out of range, a 恢复 at full 血量); an 打出 request says 打出, not 使用; ``.moe
state`` marks AI seats as AI and shows the cards on a character (face up by name, face down by
count), in text and in the picture."""

from __future__ import annotations

import io

from PIL import Image

from chronodice.render import moe as R
from chronodice.render.moe_phone import character_piles
from chronodice.render.moe_picture import BLOCK, PILE_ROW, table_picture
from chronodice.rules.moe.base import Ask
from chronodice.rules.moe.cards import VirtualCard
from chronodice.rules.moe.testing import Script, first_option, play, scenario
from chronodice.services.moe import feed

NAMES = ["甲", "乙", "丙"]


def test_the_play_prompt_says_why_each_card_cannot_be_played() -> None:
    g = scenario(["alice", "peter_pan"], pack="demo")  # 飞翔: others are at distance 2 from 彼得潘
    ids = g.give_cards(0, ["attack", "defend", "recover"])
    ask = Ask("play", 0, "play", options=g.play_options(0))
    numbers = {c: i + 1 for i, c in enumerate(ids)}
    assert R.private_prompt(g, ask, NAMES, numbers, full=False) == (
        "你的行动阶段（回复 序号 目标，如 1 2；序号本回合不变）：\n"
        "不能使用：\n"
        "  1.♠A【攻击】：没有目标在攻击范围内（你的攻击范围1，最近的目标距离2）\n"
        "  2.♠4【防御】：只能在响应时使用\n"
        "  3.♣9【恢复】：你未受伤\n"
        "  0 或 .moe end  结束出牌"
    )
    g.p(0).hp = 3  # injured: 恢复 is playable on oneself, the 攻击 still out of range
    ask = Ask("play", 0, "play", options=g.play_options(0))
    assert R.private_prompt(g, ask, NAMES, numbers, full=False).splitlines()[1:4] == [
        "  3.♣9【恢复】",
        "不能使用：",
        "  1.♠A【攻击】：没有目标在攻击范围内（你的攻击范围1，最近的目标距离2）",
    ]


def test_an_attack_in_range_is_offered_with_its_target() -> None:
    g = scenario(["alice", "pinocchio"], pack="demo")
    (atk,) = g.give_cards(0, ["attack"])
    ask = Ask("play", 0, "play", options=g.play_options(0))
    assert R.private_prompt(g, ask, NAMES, {atk: 1}, full=False).splitlines()[1] == "  1.♠A【攻击】 → 2号"


def test_a_play_card_request_says_play_out_not_use() -> None:
    """8.3 (狼群来袭): both targets are asked, with a card to 打出 or without."""
    g = scenario(["pinocchio", "pinocchio", "pinocchio"], pack="demo")
    (dark,) = g.give_cards(1, ["attack_dark"])
    (wolves,) = g.give_cards(0, ["wolf_pack"])
    script = Script(first_option)
    play(g, g.use_card(0, VirtualCard.of(g.card(wolves)), [1, 2]), script)
    asks = [a for a in script.asks if a.reason == "play_card"]
    assert [a.seat for a in asks] == [1, 2]
    wanted = "1号甲(匹诺曹)的【狼群来袭】：你可以打出一张【攻击】/【元素攻击】/【光攻击】/【暗攻击】"
    assert R.private_prompt(g, asks[0], NAMES, {dark: 3}) == (
        f"{wanted}。.moe resp 3 ♥2【暗攻击】；或 .moe pass 不打出"
    )
    assert R.private_prompt(g, asks[1], NAMES) == (
        f"{wanted}，但你没有。.moe pass 继续（有没有可用的牌都会询问，群里看不出区别）"
    )
    assert not any("使用牌" in R.private_prompt(g, a, NAMES) for a in asks)


def test_state_marks_ai_seats_and_shows_the_cards_on_a_character() -> None:
    g = scenario(["pinocchio", "pinocchio", "pinocchio"], pack="demo")
    flowers = g.give_cards(0, ["attack", "defend"])
    play(g, g.put_on_character(0, flowers, "花"))
    (sealed,) = g.give_cards(1, ["recover"])
    play(g, g.put_on_character(1, [sealed], "封印", face_down=True))
    g.p(1).auto = True  # a player on 托管
    g.p(2).user, g.p(2).auto = "ai:1", True  # an AI seat (on 托管 from the start)
    assert R.render_public_state(g, NAMES).splitlines()[1:] == [
        "▶1号甲(匹诺曹) 血量4/4 信仰0/3 手牌0 无装备 角色牌上：花×2（♠A【攻击】、♠4【防御】）",
        " 2号乙(匹诺曹) 血量4/4 信仰0/3 手牌0 无装备 角色牌上：封印×1 [托管]",
        " 3号丙(匹诺曹) 血量4/4 信仰0/3 手牌0 无装备 [AI]",
    ]
    assert character_piles(g, 1) == "封印×1"  # face down: the count, never the face
    assert "恢复" not in R.render_public_state(g, NAMES)
    # the picture: one more row for each character with cards on it
    with Image.open(io.BytesIO(table_picture(g, NAMES))) as img:
        plain = Image.open(io.BytesIO(table_picture(scenario(["pinocchio"] * 3, pack="demo"), NAMES)))
        assert img.height - plain.height == 2 * PILE_ROW
        assert plain.height > 3 * BLOCK


def test_the_feed_folds_runs_of_faith_and_says_when_cards_are_discarded() -> None:
    g = scenario(["pinocchio", "pinocchio", "pinocchio"], pack="demo")
    faith = [{"t": "faith", "who": 0, "faith": 1}, {"t": "faith", "who": 1, "faith": 2}]
    assert feed.public_lines({}, g, faith, NAMES) == ["信仰值：1号甲(匹诺曹)1/3，2号乙(匹诺曹)2/3"]
    assert feed.public_lines({}, g, faith[:1], NAMES) == ["1号甲(匹诺曹)信仰值：1/3"]
    (cid,) = g.give_cards(0, ["attack"])
    drop = {"t": "move", "to": "processing", "n": 1, "reason": "discard_phase", "by": 0, "cards": [cid]}
    assert feed.public_lines({}, g, [drop], NAMES) == ["1号甲(匹诺曹)在弃牌阶段弃置了♠A【攻击】"]
