"""萌E with six players end to end (issue 27): ``python bot.py`` over a real reverse WebSocket,
six humans on 双王国; the character choice is simultaneous — everyone gets their offer by private
message at ``.moe start``, five answer at once (bare numbers and ``.moe choose``), the sixth lets
the deadline (``.moe timeout 选择 10``) pick the first offer.  Then several rounds of simple legal
play: at most 3 group messages per ordinary turn, the round-start picture in the group, and no
hand card or face-down 奥秘 in any group message."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from moe_table import SWEEP, MoeTable, fast_bot, load, turns_of
from onebot_client import BotProcess, OneBotClient

from chronodice.services.moe.numbers import number_map

pytestmark = pytest.mark.e2e


@pytest.fixture
def bot_process(tmp_path: Path) -> Iterator[BotProcess]:
    """The bot without flood control (answers at machine speed)."""
    yield from fast_bot(tmp_path)


G = 20031
USERS = [43001, 43002, 43003, 43004, 43005, 43006]
ROUNDS = 3
"""Rounds played through (the game may end sooner)."""


def answer(state: dict[str, Any], g: Any) -> tuple[int, str, bool]:
    """A simple legal answer of the seat the open request waits for: (user, text, private?).

    In the play phase: attack an enemy (the first card with one enemy target, once a turn), else
    end; in a window: answer 防御-like requests with the first card offered, pass the rest."""
    ask = g.pending
    seat = ask.waiting[0]
    mine = ask.for_seat(seat)
    user = int(state["players"][seat]["user"])
    numbers = number_map(dict(state), g, seat)
    k = mine.kind
    if k == "play":
        team = g.p(seat).team
        for o in mine.options:
            if o["a"] != "card" or o["mode"] != "one" or o.get("as"):
                continue
            foes = [t for t in o["targets"] if t != seat and (team < 0 or g.p(t).team != team)]
            if foes and g.state.turn.attacks == 0 and g.cdef(g.card(o["card"]).key).per_turn is not None:
                return user, f".moe play {numbers[o['card']]} {foes[0] + 1}号", False
        return user, ".moe end", False
    if k == "respond":
        if mine.options and mine.reason == "offset":
            return user, f".moe resp {numbers[mine.options[0]]}", False
        return user, ".moe pass", False
    if k == "invoke":
        return user, ".moe no", False
    if k == "distribute":
        return user, ".moe pass", False
    if k == "choose_players":
        return user, f".moe choose {mine.options[0] + 1}", False
    if k == "arrange":
        return user, ".moe choose " + " ".join(str(i + 1) for i in range(len(mine.options))), False
    if k == "choose_cards":
        picks = [numbers.get(c, i + 1) for i, c in enumerate(mine.options[: max(mine.lo, 1)])]
        return user, ".moe choose " + " ".join(map(str, picks)), mine.reason == "pindian"
    if k == "choose_blind":
        return user, ".moe choose " + " ".join(str(i + 1) for i in range(max(mine.lo, 1))), False
    return user, ".moe choose 1", False


async def test_six_players_choose_at_once_and_play_several_rounds(bot_process: BotProcess) -> None:
    began = time.monotonic()
    async with OneBotClient(bot_process.url) as client:
        t = MoeTable(client, bot_process, G)
        host, late = USERS[0], USERS[-1]
        opened = await t.act(".moe new 双王国", host, moves=False)
        assert "创建了萌E对局（地图：双王国）" in opened[0].text
        for u in USERS[1:]:
            await t.act(".moe join", u, moves=False)
        said = await t.act(".moe timeout 选择 10", host, moves=False)
        assert said[0].text == "已设置超时为10秒"
        calls = await t.act(".moe start", host)
        t.started = True
        group = [c.text for c in calls if c.to_group]
        assert len(group) == 1 and group[0].endswith(
            "请各位私聊选择角色（10秒内；回复序号即可，超时默认第一个）"
        )
        offered = {int(c.params["user_id"]) for c in calls if c.is_private and "请选择你的角色" in c.text}
        assert offered == set(USERS)  # everyone at once, none in turn
        state, g = load(bot_process, G)
        offers = state["offers"]
        assert sorted(len(o) for o in offers) == [2, 2, 2, 3, 3, 3]  # 15 characters among six
        seat_of = {int(p["user"]): i for i, p in enumerate(state["players"])}

        # five answer at once, in private (bare numbers and the command); the sixth waits
        choosers = [u for u in USERS if u != late]
        before = len(client.all_calls)
        await asyncio.gather(
            *(
                client.post("2" if i % 2 else ".moe choose 2", user=u, group=None, card=f"玩家{u % 100}")
                for i, u in enumerate(choosers)
            )
        )
        while len(load(bot_process, G)[0].get("picks") or {}) < len(choosers):
            assert time.monotonic() - began < 30, "the five choices were not all taken"
            await asyncio.sleep(0.05)
        await t.quiet()
        told = {int(c.params["user_id"]): c.text for c in client.all_calls[before:] if c.is_private}
        assert set(told) == set(choosers) and all(x.startswith("你选择了【") for x in told.values())
        assert not t.group_calls(before)  # nothing public before the choice is complete
        state, g = load(bot_process, G)
        deadline = state["pick_deadline"]
        assert g.pending.reason == "character"
        # the deadline picks for the sixth: the sweeper applies it (the bot's clock moves past it)
        bot_process.advance_clock(max(0.0, deadline - time.time()) + 0.5)
        while load(bot_process, G)[1].pending.reason == "character":
            assert time.time() < deadline + 3 * SWEEP, "the choice deadline did not pass"
            await asyncio.sleep(0.1)
        await t.quiet()
        state, g = load(bot_process, G)
        chosen = {u: g.p(s).character for u, s in seat_of.items()}
        assert chosen == {u: offers[s][0 if u == late else 1] for u, s in seat_of.items()}
        note = f"{seat_of[late] + 1}号{state['players'][seat_of[late]]['name']}超时未选择角色，已选第一个"
        assert any(note in c.text for c in t.group_calls(before))
        assert [i["source"] for i in g.inputs if i.get("seat") == seat_of[late]][:1] == ["timeout"]

        # several rounds of play, everything typed in the group (pindian cards in private)
        for _ in range(600):
            state, g = load(bot_process, G)
            if state["status"] == "over" or g.state.round > ROUNDS:
                break
            user, text, private = answer(state, g)
            await t.act(text, user, private=private)
            if private:
                await t.drained()
        await t.drained()
        state, g = load(bot_process, G)
        assert state["status"] == "over" or g.state.round > ROUNDS, g.state.round

    group = t.group_calls()
    texts = [c.text for c in group]
    for n in (1, 2):  # the round-start picture: round 1 comes by the sweeper (the deadline)
        starts = [c for c in group if f"—— 第{n}轮 ——" in c.text]
        assert len(starts) == 1 and starts[0].has_image, n
    assert any("第1轮小结：" in x for x in texts)
    per_turn = turns_of([x for x in texts if "萌E" not in x[:4]])
    assert len(per_turn) >= 6 * ROUNDS - 1 and max(per_turn[:-1]) <= 3, per_turn
    assert not any("无法私聊" in x for x in texts)
    assert time.monotonic() - began < 60
