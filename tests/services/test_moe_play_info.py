"""萌E play comfort and hidden information through chat commands: ``.moe card`` / ``.moe skill``
texts, cards played and answered by name, the 拼点 and "是否发动" prompts, and a game played by
commands in which no group message names a card hidden from some player at that moment."""

from __future__ import annotations

from helpers import moe_game as game
from helpers import moe_started, run

import chronodice.services.moe as moe
from chronodice.app import App
from chronodice.core.reply import Reply
from chronodice.render import moe as R
from chronodice.rules.moe.cards import VirtualCard
from chronodice.rules.moe.state import ALL
from chronodice.rules.moe.testing import play, scenario
from chronodice.services.moe.numbers import card_number as num

G = "20002"
USERS = ["30001", "30002", "30003", "30004"]
NAMES = ["甲", "乙", "丙", "丁"]


def group_text(replies: list[Reply]) -> str:
    return "\n".join(r.text for r in replies if not r.private)


async def started(app: App, n: int = 3) -> None:
    await moe_started(app, G, USERS[:n])


# ---------------------------------------------------------------------- .moe card / .moe skill
async def test_card_text_by_name_anywhere(app: App) -> None:
    text = group_text(await run(app, ".moe card 攻击", user=USERS[0], group=G))
    assert text.startswith("【攻击】基础牌") and "\n" in text
    assert "奥秘" in group_text(await run(app, ".moe card 镜之结界", user=USERS[0], group=None))
    assert "攻击范围无限" in group_text(await run(app, ".moe card 魔镜", user=USERS[0], group=G))
    assert "没有名为「火星」的牌" in group_text(await run(app, ".moe card 火星", user=USERS[0], group=G))


async def test_card_text_of_a_hand_card_goes_by_private_message(app: App) -> None:
    await started(app)
    _state, g = await game(app)
    replies = await run(app, ".moe card 1", user=USERS[1], group=G)
    assert group_text(replies) == "PL02，牌的说明请看私聊"
    seat = next(p.seat for p in g.state.players if p.user == USERS[1])
    face = R.card_text(g, g.hand(seat)[0])
    (whisper,) = [r for r in replies if r.private]
    assert whisper.to_user == USERS[1] and face in whisper.text and face not in group_text(replies)
    none = await run(app, ".moe card 9", user=USERS[1], group=G)  # the group cannot tell
    assert group_text(none) == "PL02，牌的说明请看私聊" and "你没有9号手牌（现有：" in none[-1].text
    assert "没有进行中的萌E游戏" in group_text(await run(app, ".moe card 1", user="39999", group="1"))


async def test_skill_text_when_it_cannot_be_used_now(app: App) -> None:
    text = group_text(await run(app, ".moe skill 奇境", user=USERS[0], group=G))
    assert text.startswith("【奇境】触发技（爱丽丝）：") and "没有进行中的萌E游戏" in text
    assert "状态类被动技" in group_text(await run(app, ".moe skill 变大变小", user=USERS[0], group=G))
    # an unknown name keeps the refusal; with a target it is an attempt to use it
    assert "没有进行中" in group_text(await run(app, ".moe skill 飞天", user=USERS[0], group=G))
    assert "【" not in group_text(await run(app, ".moe skill 奇境 2号", user=USERS[0], group=G))


async def test_skill_kind_said_once_and_no_numbers_while_choosing(app: App) -> None:
    await run(app, ".moe new 灯火与群星", user=USERS[0], group=G)
    await run(app, ".moe join", user=USERS[1], group=G)
    await run(app, ".moe start", user=USERS[0], group=G)
    # 灯火与群星's 引燃 text opens with its kind: the header does not say it again
    text = group_text(await run(app, ".moe skill 引燃", user=USERS[0], group=G))
    assert text.startswith("【引燃】消耗1点信仰（") and text.count("信仰技") == 1, text
    state = group_text(await run(app, ".moe state", user=USERS[1], group=G))
    assert state.count("选择角色中") == 2 and "血量0/0" not in state, state


# ---------------------------------------------------------------------- by name
async def test_play_and_respond_by_card_name(app: App) -> None:
    await started(app)
    await moe.sweep(app)  # the sweeper sends the group part of the private choices first
    for _ in range(200):
        state, g = await game(app)
        ask = g.pending
        user = state["players"][ask.seat]["user"]
        if ask.kind == "play":
            opt = next(
                (o for o in ask.options if o["a"] == "card" and o["mode"] == "one" and not o.get("as")), None
            )
            if opt is None:
                await run(app, ".moe end", user=user, group=G)
                continue
            name = g.cdef(g.card(opt["card"]).key).name
            got = await run(app, f".moe play {name} {opt['targets'][0] + 1}号", user=user, group=G)
            # the group hears it with its outcome; a use that opens a window: its actor at once
            text = "\n".join(r.text for r in got if not r.private or r.to_user == user)
            assert "使用了" in text and f"【{name}】" in text
            state, g = await game(app)
            if g.pending is not None and g.pending.kind == "respond" and g.pending.options:
                ask = g.pending
                card = g.cdef(g.card(ask.options[0]).key).name
                user = state["players"][ask.seat]["user"]
                text = group_text(await run(app, f".moe resp {card}", user=user, group=G))
                assert "使用了" in text and f"【{card}】" in text
                return
            continue
        await run(
            app,
            ".moe pass"
            if ask.optional or ask.kind in ("invoke", "respond")
            else ".moe choose " + " ".join(str(i + 1) for i in range(max(ask.lo, 1))),
            user=user,
            group=G,
        )
    raise AssertionError("no card was answered by name")


async def test_playing_a_name_not_in_hand_is_refused(app: App) -> None:
    await started(app)
    state, g = await game(app)
    while g.pending.kind != "play":
        await run(app, ".moe pass", user=state["players"][g.pending.seat]["user"], group=G)
        state, g = await game(app)
    seat = g.pending.seat
    missing = next(
        cd.name for key, cd in g.pack.cards.items() if all(g.card(c).key != key for c in g.hand(seat))
    )
    user = state["players"][seat]["user"]
    replies = await run(app, f".moe play {missing}", user=user, group=G)
    assert missing not in group_text(replies)  # told privately: the group hears no card
    assert [r.text for r in replies if r.private and r.to_user == user] == [f"你的手牌中没有【{missing}】"]
    assert "没有名为「火星」的牌" in group_text(
        await run(app, ".moe play 火星", user=state["players"][seat]["user"], group=G)
    )


# ---------------------------------------------------------------------- prompts
def test_pindian_prompt_says_against_whom() -> None:
    g = scenario(["blank", "blank", "blank"])
    g.give_cards(0, ["attack"])
    g.give_cards(2, ["defend"])
    (duel,) = g.give_cards(0, ["duel"])
    prompts: list[str] = []

    def answer(ask):  # type: ignore[no-untyped-def]
        if ask.reason == "pindian":
            prompts.append(R.private_prompt(g, ask, NAMES[:3]))
            return [ask.options[0]]
        return None if ask.kind == "respond" else ...

    play(
        g,
        g.use_card(0, VirtualCard.of(g.card(duel)), [2]),
        lambda a: answer(a) if a.reason == "pindian" else None if a.kind == "respond" else False,
    )
    assert prompts[0].startswith("与3号丙(白板)拼点，请选择1张牌") and prompts[1].startswith(
        "与1号甲(白板)拼点"
    )


def test_invoke_prompt_says_what_triggered_it() -> None:
    g = scenario(["alice", "blank"])
    seen: list[str] = []
    play(g, g.run_phase("draw"), lambda a: seen.append(R.private_prompt(g, a, NAMES[:2])) or False)
    assert seen[0].startswith("你的摸牌阶段摸牌时，是否发动【奇境】？")
    h = scenario(["blank", "blank"])
    h.set_secret(1, ["mirror"])
    (atk,) = h.give_cards(0, ["attack"])
    got: list[str] = []
    play(
        h,
        h.use_card(0, VirtualCard.of(h.card(atk)), [1]),
        lambda a: got.append(R.private_prompt(h, a, NAMES[:2])) if a.reason == "secret" else None,
    )
    assert got[0].startswith("1号甲(白板)对你使用了【攻击】，是否翻开奥秘")
    # a 奥秘 pause offering nothing reads as a pass, and says why it was asked all the same
    h2 = scenario(["blank", "blank"])
    h2.set_secret(1, ["thorn"])
    (atk,) = h2.give_cards(0, ["attack"])
    got = []
    play(
        h2,
        h2.use_card(0, VirtualCard.of(h2.card(atk)), [1]),
        lambda a: got.append(R.private_prompt(h2, a, NAMES[:2])) if a.kind == "respond" else None,
    )
    assert got[0] == (
        "1号甲(白板)对你使用了【攻击】，你的奥秘此时都不能翻开。.moe pass 继续（有没有可用的牌都会询问，群里看不出区别）"
    )
    assert got[1].startswith("1号甲(白板)的【攻击】：你没有可用于抵消的牌。")
    k = scenario(["snow_white", "blank"])
    k.add_skill(0, "waking_kiss")
    k.give_cards(1, ["defend"])
    asked: list[str] = []
    play(
        k,
        k.damage(1, 0, 1),
        lambda a: asked.append(R.private_prompt(k, a, NAMES[:2])) or False if a.kind == "invoke" else ...,
    )
    assert asked[0].startswith("你受到了2号乙(白板)造成的1点伤害，是否发动【苏醒之吻】？")


# ---------------------------------------------------------------------- hidden faces, by commands
async def test_no_group_message_names_a_hidden_card_in_a_game_by_commands(app: App) -> None:
    """Four players play by commands (奥秘 first, then one-target cards); after every command
    no group message names the face of a card that is hidden from some player at that moment."""
    await started(app, 4)
    placed = 0
    for _ in range(400):
        state, g = await game(app)
        ask = g.pending
        if ask is None or (placed >= 2 and g.state.round >= 4):
            break
        user = state["players"][ask.seat]["user"]
        if ask.kind == "play":
            opts = [o for o in ask.options if o["a"] == "card" and not o.get("as")]
            secret = next((o for o in opts if g.cdef(g.card(o["card"]).key).action_kind == "secret"), None)
            one = next((o for o in opts if o["mode"] == "one"), None)
            if secret is not None:
                cmd = f".moe play {num(state, g, ask.seat, secret['card'])}"
            elif one is not None:
                cmd = f".moe play {num(state, g, ask.seat, one['card'])} {one['targets'][0] + 1}号"
            else:
                cmd = ".moe end"
        elif ask.kind == "invoke":
            cmd = ".moe yes"
        elif ask.kind in ("respond", "distribute") or ask.optional:
            cmd = ".moe pass"
        elif ask.kind == "choose_players":
            cmd = f".moe choose {ask.options[0] + 1}"
        elif ask.kind == "arrange":
            cmd = ".moe choose " + " ".join(str(i + 1) for i in range(len(ask.options)))
        else:
            cmd = ".moe choose " + " ".join(str(i + 1) for i in range(ask.lo))
        replies = await run(app, cmd, user=user, group=G)
        text = group_text(replies) + "\n".join(
            r.text for _s, rs in await moe.sweep(app, app.clock.timestamp()) for r in rs
        )
        placed += text.count("放置了一张奥秘")
        _state, g = await game(app)
        public = {R.card_text(g, c) for c, k in g.state.known.items() if ALL in k}
        for cid in g.state.cards:
            face = R.card_text(g, cid)
            if ALL not in g.state.known.get(cid, ()) and face not in public and "洗混成为新牌堆" not in text:
                assert face not in text, (cmd, face, text)
    assert placed >= 1
